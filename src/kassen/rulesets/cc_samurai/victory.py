"""End Game & Victory: Victory Banners, blocks lost, scenario objectives and the command tents.

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kassen.engine.events import plural
from kassen.engine.hexgrid import Hex
from kassen.engine.protocol import Result
from kassen.rulesets.cc_samurai import cards
from kassen.rulesets.cc_samurai.common import LEADER_NAME

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def _drop_tent(s: CCState, owner: int, th: Hex) -> None:
    """A command tent leaves the board (copy-on-write: clones share terrain and tents)."""
    s.tents = dict(s.tents)
    del s.tents[owner]
    s.terrain = dict(s.terrain)
    s.terrain.pop(th, None)
    s._terc = None
    s._mv = {}


def award_banner(s: CCState, side: int, n: int, why: str, objective: bool = False) -> None:
    if n <= 0:
        return
    s.own_score()
    s.banners[side] += n
    if objective:
        s.objectives[side] += n
    s.say("banner", f"{s.side_name(side)} gains {n} Victory Banner{'s' if n > 1 else ''}: {why} "
             f"({s.banners[side]}/{s.victory})", side=side, amount=n)
    if s.banners[side] >= s.victory and s._result is None:
        s._result = Result(side, "banners", (1.0, 0.0) if side == 0 else (0.0, 1.0))
        s.say("victory", f"{s.side_name(side)} wins the battle with {s.banners[side]} Victory Banners",
                 winner=side)


def hit_unit(s: CCState, h: Hex, n: int, by: int, why: str) -> bool:
    """Remove ``n`` blocks (no more than it has); True if the unit is eliminated."""
    u = s.units[h]
    n = min(n, u.blocks)
    if n <= 0:
        return False
    left = u.blocks - n
    label = s.unit_label(u)
    s.own_pieces()
    if left > 0:
        s.units[h] = u._replace(blocks=left)
        s.say("blocks", f"{label} at {s.name(h)} loses {n} block{'s' if n > 1 else ''} ({why}), {left} left",
                 hex=s.name(h), lost=n, left=left)
        return False
    del s.units[h]
    s.own_logs()
    s.removed.append({"side": u.side, "piece": u.uid, "cause": "killed", "type": u.type})
    s.say("eliminated", f"{label} at {s.name(h)} is eliminated ({why})", hex=s.name(h), unit=u.uid)
    if not s.ut(u).bodyguard:
        award_banner(s, by, 1, f"{s.ut(u).name} eliminated")
    return True


def _empty_tents(s: CCState) -> None:
    """Zvezda (R42): a command tent is always occupied; left empty, the enemy removes it at once."""
    for owner, th in sorted(s.tents.items()):
        if th in s.units or th in s.leaders:
            continue
        _drop_tent(s, owner, th)
        s.say("tent", f"The {s.side_name(owner)} command tent at {s.name(th)} stands empty: "
                 f"{s.side_name(1 - owner)} removes it", hex=s.name(th))
        cards._lose_random_card(s, owner, "the command tent was taken")
        award_banner(s, 1 - owner, s.tent_banners, "enemy command tent taken", objective=True)
        if s._result is not None:
            return


def _check_objectives(s: CCState) -> None:
    """Scenario objectives, checked at the start of every turn (docs/rulings.md R29)."""
    for i, obj in enumerate(s.objective_defs):
        present = {s.units[h].side for h in obj["hexes"] if h in s.units}
        holder = s.obj_held[i]
        label = obj["name"] or "/".join(s.name(h) for h in obj["hexes"])
        if obj["kind"] == "permanent" and holder is not None:
            continue
        if holder is not None and (holder not in present or len(present) > 1):
            s.own_score()
            s.obj_held[i] = None
            s.banners[holder] -= obj["banners"]
            s.objectives[holder] -= obj["banners"]
            s.say("objective_lost", f"{s.side_name(holder)} no longer holds {label} and loses "
                     f"{plural(obj['banners'], 'Victory Banner')} ({s.banners[holder]}/{s.victory})",
                     side=holder, objective=i)
            holder = None
        if holder is None and len(present) == 1:
            side = next(iter(present))
            if obj["side"] in (-1, side):
                s.own_score()
                s.obj_held[i] = side
                kind = "permanent" if obj["kind"] == "permanent" else "temporary"
                award_banner(s, side, obj["banners"], f"holds {label} ({kind})", objective=True)
                if s._result is not None:
                    return


def remove_leader(s: CCState, h: Hex, cause: str, by: int | None) -> None:
    s.own_pieces()
    s.own_logs()
    ld = s.leaders.pop(h)
    s.removed.append({"side": ld.side, "piece": ld.lid, "cause": cause, "type": ld.kind})
    if cause == "killed" and by is not None:
        s.say("leader_killed", f"{s.side_name(ld.side)} {LEADER_NAME[ld.kind]} at {s.name(h)} is eliminated",
                 hex=s.name(h), leader=ld.lid)
        if ld.kind == "commander":
            bg = s.units.get(h)
            if bg is not None and s.ut(bg).bodyguard:
                del s.units[h]
                s.removed.append({"side": bg.side, "piece": bg.uid, "cause": "surrender", "type": bg.type})
                s.say("surrender", f"The bodyguards at {s.name(h)} surrender", hex=s.name(h))
        award_banner(s, by, 1, f"{LEADER_NAME[ld.kind]} eliminated")
