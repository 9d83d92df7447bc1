"""Honor & Fortune: gaining and paying tokens, and Lack of Honor (the dice and the blocks it
costs).

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kassen.engine.dice import Face
from kassen.engine.events import plural
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import victory
from kassen.rulesets.cc_samurai.combat import SYMBOL_FACE
from kassen.rulesets.cc_samurai.common import as_json
from kassen.rulesets.cc_samurai.tasks import LackOfHonorTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def gain_honor(s: CCState, side: int, n: int, why: str) -> int:
    got = max(0, min(n, s.pool))
    if n > 0:
        s.own_score()
        s.pool -= got
        s.honor[side] += got
        if got == 0:
            text = f"{s.side_name(side)} gains no Honor & Fortune: the pool is empty ({why})"
        else:
            extra = "" if got == n else f" (all the pool had left, of {n})"
            text = f"{s.side_name(side)} gains {got} Honor & Fortune{extra}: {why}"
        s.say("honor", text, side=side, amount=got)
    return got


def lose_honor(s: CCState, side: int, n: int, why: str) -> int:
    """Pay ``n`` tokens to the pool; returns the shortfall."""
    paid = min(n, s.honor[side])
    s.own_score()
    s.honor[side] -= paid
    s.pool += paid
    if n > 0:
        s.say("honor", f"{s.side_name(side)} loses {paid} Honor & Fortune: {why}", side=side, amount=-paid)
    return n - paid


def loh_dice(s: CCState, short: int) -> int:
    """Lack of Honor: 4 dice plus one per token short (GMT), or a flat 4 (Zvezda, R39)."""
    return 4 + short if s.t.rules.loh_dice_per_token_short else 4


def loh_roller_text(s: CCState, side: int, n: int) -> str:
    """Who throws the Lack of Honor dice against ``side``: himself (GMT) or his opponent (Zvezda)."""
    if s.t.rules.loh_roller == "opponent":
        return f"{s.side_name(1 - side)} rolls {n} dice against it"
    return f"rolls {n} dice"


def _push_loh(s: CCState, side: int, short: int, origin: Hex, uid: str | None, lid: str | None, symbol: str | None = None) -> None:
    n = loh_dice(s, short)
    faces = s.roll(n)
    s.say("lack_of_honor", f"Lack of Honor: {s.side_name(side)} is {plural(short, 'token')} short and "
             f"{loh_roller_text(s, side, n)}: {', '.join(f.label for f in faces)}",
             side=side, faces=[f.value for f in faces])
    s.stack.append(as_json({"t": "loh", "seat": side, "faces": [f.value for f in faces],
                               "origin": origin, "uid": uid, "lid": lid, "symbol": symbol}))


def loh_candidates(s: CCState, side: int, origin: Hex, symbol: str) -> list[Hex]:
    """The nearest units of ``side`` bearing ``symbol`` (all of them when tied)."""
    hexes = [h for h, u in s.units.items() if u.side == side and s.ut(u).symbol == symbol]
    if not hexes:
        return []
    d = min(s.b.distance(origin, h) for h in hexes)
    return sorted(h for h in hexes if s.b.distance(origin, h) == d)


def _auto_loh(s: CCState, task: LackOfHonorTask) -> bool:
    side = task["seat"]
    while task["faces"]:
        face = Face(task["faces"][0])
        if face == Face.SWORDS and task["lid"]:
            lh = s.find_leader(task["lid"])
            task["faces"].pop(0)
            if lh is not None:
                victory.remove_leader(s, lh, "killed", 1 - side)
                if s._result is not None:
                    return True
            continue
        if not face.is_unit_symbol:
            task["faces"].pop(0)
            continue
        if task["uid"] and task["symbol"] and face == SYMBOL_FACE.get(task["symbol"]):
            task["faces"].pop(0)
            uh = s.find_unit(task["uid"])
            if uh is not None:
                victory.hit_unit(s, uh, 1, 1 - side, "Lack of Honor")
                if s._result is not None:
                    return True
            continue
        cands = loh_candidates(s, side, task["origin"], face.value)
        if len(cands) > 1:
            return False
        task["faces"].pop(0)
        if cands:
            victory.hit_unit(s, cands[0], 1, 1 - side, "Lack of Honor")
            if s._result is not None:
                return True
    s.stack.pop()
    return True


def _legal_loh(s: CCState, task: LackOfHonorTask) -> list[str]:
    face = Face(task["faces"][0])
    return [f"hit {s.name(h)}" for h in loh_candidates(s, task["seat"], task["origin"], face.value)]


def _act_loh(s: CCState, task: LackOfHonorTask, action: str) -> None:
    task["faces"].pop(0)
    victory.hit_unit(s, s.b.parse(action.split()[1]), 1, 1 - task["seat"], "Lack of Honor")
