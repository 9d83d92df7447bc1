"""Leaders: attached and lone Leaders, inspiration, Leader casualty checks, lone Leader
retreats, Leader Seppuku.

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kassen.engine.dice import Face
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import cards, honor, victory
from kassen.rulesets.cc_samurai.board import Leader, Unit
from kassen.rulesets.cc_samurai.common import LEADER_NAME, as_json
from kassen.rulesets.cc_samurai.tasks import LeaderRetreatTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def lone_leader(s: CCState, h: Hex) -> Leader | None:
    ld = s.leaders.get(h)
    return ld if ld is not None and h not in s.units else None


def attached_leader(s: CCState, h: Hex) -> Leader | None:
    return s.leaders.get(h) if h in s.units else None


def can_inspire(s: CCState, h: Hex, u: Unit) -> bool:
    """Leader Inspired Close Combat: who may add a die to the unit at ``h``."""
    if s.ter(h).no_inspiration:
        return False
    ut = s.ut(u)
    ld = s.leaders.get(h)
    if ld is not None and ld.side == u.side:
        if ld.kind == "mounted" or (ld.kind == "foot" and not ut.cavalry) or (ld.kind == "commander" and ut.bodyguard):
            return True
    for n in s.b.neighbours(h):
        other = s.leaders.get(n)
        if other is None or other.side != u.side:
            continue
        if other.kind == "mounted":
            return True
        if other.kind == "commander" and n in s.units and s.ut(s.units[n]).bodyguard:
            return True
    return False


def _casualty_check(s: CCState, h: Hex, ld: Leader, kind: str, eliminated: bool, by: int) -> None:
    """Leader Casualty Check."""
    if ld.kind == "commander":
        n, need = 2, 2
    elif eliminated:
        n, need = 1, 1
    else:
        n, need = (2, 2) if kind == "ranged" else (1, 1)
    faces = s.roll(n)
    swords = faces.count(Face.SWORDS)
    s.say("casualty_check", f"Leader Casualty Check on the {s.side_name(ld.side)} {LEADER_NAME[ld.kind]} at "
             f"{s.name(h)}: {', '.join(f.label for f in faces)}", faces=[f.value for f in faces])
    if swords >= need:
        victory.remove_leader(s, h, "killed", by)
    elif ld.kind == "commander" and h not in s.units:
        # all bodyguards gone: he becomes a foot Leader and must retreat or commit seppuku
        s.own_pieces()
        s.leaders[h] = ld._replace(kind="foot")
        s.say("commander", f"The {s.side_name(ld.side)} Army Commander has lost his bodyguards and now acts as a foot Leader")


def leader_retreats(s: CCState, h: Hex) -> list[Hex]:
    """Leader Retreat: end hexes 1-3 retreat moves back, through friends, never into enemies."""
    ld = s.leaders[h]
    back = s.back_dir(ld.side)
    out: set[Hex] = set()
    frontier = [h]
    for _ in range(3):
        nxt = []
        for cur in frontier:
            x, r = s.b.xr(cur)
            for dx in (-1, 1):
                n = s.b.at(x + dx, r + back)
                if n is None or s.b.is_half(n) or s.ter(n).impassable:
                    continue
                u = s.units.get(n)
                other = s.leaders.get(n)
                if (u is not None and u.side != ld.side) or (other is not None and other.side != ld.side):
                    continue
                nxt.append(n)
                if other is not None:
                    continue
                if u is not None:
                    ut = s.ut(u)
                    if ut.bodyguard or (ut.cavalry and ld.kind != "mounted"):
                        continue
                out.add(n)
        frontier = nxt
    return sorted(out)


def _push_leader_retreat(s: CCState, h: Hex) -> None:
    ld = s.leaders[h]
    s.stack.append(as_json({"t": "lretreat", "seat": ld.side, "lid": ld.lid, "at": h}))


def leader_can_retreat_off(s: CCState, h: Hex) -> bool:
    """Zvezda (R41): a lone Leader may retreat off his own baseline within his 3 retreat hexes;
    the step off the board from a baseline hex counts as one hex."""
    if not s.t.rules.leader_retreats_off_baseline:
        return False
    ld = s.leaders[h]
    base, back = s.baseline_row(ld.side), s.back_dir(ld.side)
    frontier = {h}
    for _ in range(3):  # the last of the 3 retreat hexes may be the step off the board
        if any(s.b.row(cur) == base for cur in frontier):
            return True
        nxt: set[Hex] = set()
        for cur in frontier:
            x, r = s.b.xr(cur)
            for dx in (-1, 1):
                n = s.b.at(x + dx, r + back)
                if n is None or s.b.is_half(n) or s.ter(n).impassable:
                    continue
                u, other = s.units.get(n), s.leaders.get(n)
                if (u is not None and u.side != ld.side) or (other is not None and other.side != ld.side):
                    continue
                nxt.add(n)
        frontier = nxt
    return False


def _lretreat_forced(s: CCState, task: LeaderRetreatTask) -> str | None:
    h = task["at"]
    if leader_can_retreat_off(s, h):
        return None
    if s.b.row(h) == s.baseline_row(task["seat"]):
        return "he stands on his own baseline"
    if not leader_retreats(s, h):
        return "he cannot retreat a single hex"
    return None


def _legal_lretreat(s: CCState, task: LeaderRetreatTask) -> list[str]:
    h = task["at"]
    if s.b.row(h) == s.baseline_row(task["seat"]):
        ends: list[Hex] = []  # on his baseline there is no hex further back
    else:
        ends = leader_retreats(s, h)
    off = ["retreat off"] if leader_can_retreat_off(s, h) else []
    return [*(f"retreat {s.name(n)}" for n in ends), *off, "seppuku"]


def _auto_lretreat(s: CCState, task: LeaderRetreatTask) -> bool:
    h = task["at"]
    ld = s.leaders.get(h)
    if ld is None or ld.lid != task["lid"] or h in s.units:
        s.stack.pop()
        return True
    why = _lretreat_forced(s, task)
    if why is None:
        return False
    s.say("seppuku_forced", f"The {s.side_name(ld.side)} {LEADER_NAME[ld.kind]} at {s.name(h)} must commit seppuku: {why}")
    s.stack.pop()
    _seppuku(s, h)
    return True


def _act_lretreat(s: CCState, task: LeaderRetreatTask, action: str) -> None:
    h = task["at"]
    s.stack.pop()
    if action == "seppuku":
        _seppuku(s, h)
        return
    s.own_pieces()
    if action == "retreat off":
        s.own_logs()
        ld = s.leaders.pop(h)
        s.removed.append({"side": ld.side, "piece": ld.lid, "cause": "off", "type": ld.kind})
        s.say("leader_retreat", f"The {s.side_name(ld.side)} {LEADER_NAME[ld.kind]} retreats off the battlefield "
                 f"from {s.name(h)} and saves his standard", frm=s.name(h), to="off")
        short = honor.lose_honor(s, ld.side, 3, "a lone Leader retreated")
        if short:
            honor._push_loh(s, ld.side, short, h, None, ld.lid)
        return
    n = s.b.parse(action.split()[1])
    ld = s.leaders.pop(h)
    s.leaders[n] = ld
    joined = f" and joins the {s.ut(s.units[n]).name}" if n in s.units else ""
    s.say("leader_retreat", f"The {s.side_name(ld.side)} {LEADER_NAME[ld.kind]} retreats {s.name(h)} to {s.name(n)}{joined}",
             frm=s.name(h), to=s.name(n))
    short = honor.lose_honor(s, ld.side, 3, "a lone Leader retreated")
    if short:
        honor._push_loh(s, ld.side, short, n, None, ld.lid)


def _seppuku(s: CCState, h: Hex) -> None:
    """Leader Seppuku: +5 tokens, a Command card lost by the opponent's pick, a Dragon card for him."""
    s.own_pieces()
    s.own_logs()
    s.own_score()
    ld = s.leaders.pop(h)
    side = ld.side
    s.removed.append({"side": side, "piece": ld.lid, "cause": "seppuku", "type": ld.kind})
    s.say("seppuku", f"The {s.side_name(side)} {LEADER_NAME[ld.kind]} at {s.name(h)} commits seppuku", hex=s.name(h))
    honor.gain_honor(s, side, 5, "seppuku")
    s.command[side] = max(1, s.command[side] - 1)
    cards.draw_dragon(s, 1 - side)
    if s.hands[side]:
        perm = s.own_rng().shuffled(s.hands[side])
        s.stack.append(as_json({"t": "pick", "seat": 1 - side, "victim": side, "perm": perm}))
        s.say("pick_due", f"{s.side_name(1 - side)} picks one of {s.side_name(side)}'s "
                 f"{len(perm)} face-down Command cards", random=True)
