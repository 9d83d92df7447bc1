# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""Honor & Fortune: gaining and paying tokens, and Lack of Honor (the dice and the blocks it
costs).

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import trait

from kassen.engine.dice import Face
from kassen.engine.events import plural
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai.combat import SYMBOL_FACE
from kassen.rulesets.cc_samurai.common import CCStateData, as_json
from kassen.rulesets.cc_samurai.tasks import LackOfHonorTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


@trait
class HonorRules(CCStateData):
    def gain_honor(self: CCState, side: int, n: int, why: str) -> int:
        got = max(0, min(n, self.pool))
        if n > 0:
            self.own_score()
            self.pool -= got
            self.honor[side] += got
            if got == 0:
                text = f"{self.side_name(side)} gains no Honor & Fortune: the pool is empty ({why})"
            else:
                extra = "" if got == n else f" (all the pool had left, of {n})"
                text = f"{self.side_name(side)} gains {got} Honor & Fortune{extra}: {why}"
            self.say("honor", text, side=side, amount=got)
        return got

    def lose_honor(self: CCState, side: int, n: int, why: str) -> int:
        """Pay ``n`` tokens to the pool; returns the shortfall."""
        paid = min(n, self.honor[side])
        self.own_score()
        self.honor[side] -= paid
        self.pool += paid
        if n > 0:
            self.say("honor", f"{self.side_name(side)} loses {paid} Honor & Fortune: {why}", side=side, amount=-paid)
        return n - paid

    def loh_dice(self: CCState, short: int) -> int:
        """Lack of Honor: 4 dice plus one per token short (GMT), or a flat 4 (Zvezda, R39)."""
        return 4 + short if self.t.rules.loh_dice_per_token_short else 4

    def loh_roller_text(self: CCState, side: int, n: int) -> str:
        """Who throws the Lack of Honor dice against ``side``: himself (GMT) or his opponent (Zvezda)."""
        if self.t.rules.loh_roller == "opponent":
            return f"{self.side_name(1 - side)} rolls {n} dice against it"
        return f"rolls {n} dice"

    def _push_loh(self: CCState, side: int, short: int, origin: Hex, uid: str | None, lid: str | None, symbol: str | None = None) -> None:
        n = self.loh_dice(short)
        faces = self.roll(n)
        self.say("lack_of_honor", f"Lack of Honor: {self.side_name(side)} is {plural(short, 'token')} short and "
                 f"{self.loh_roller_text(side, n)}: {', '.join(f.label for f in faces)}",
                 side=side, faces=[f.value for f in faces])
        self.stack.append(as_json({"t": "loh", "seat": side, "faces": [f.value for f in faces],
                                   "origin": self.name(origin), "uid": uid, "lid": lid, "symbol": symbol}))

    def loh_candidates(self: CCState, side: int, origin: Hex, symbol: str) -> list[Hex]:
        """The nearest units of ``side`` bearing ``symbol`` (all of them when tied)."""
        hexes = [h for h, u in self.units.items() if u.side == side and self.ut(u).symbol == symbol]
        if not hexes:
            return []
        d = min(self.b.distance(origin, h) for h in hexes)
        return sorted(h for h in hexes if self.b.distance(origin, h) == d)

    def _auto_loh(self: CCState, task: LackOfHonorTask) -> bool:
        side = task["seat"]
        while task["faces"]:
            face = Face(task["faces"][0])
            if face == Face.SWORDS and task["lid"]:
                lh = self.find_leader(task["lid"])
                task["faces"].pop(0)
                if lh is not None:
                    self.remove_leader(lh, "killed", 1 - side)
                    if self._result is not None:
                        return True
                continue
            if not face.is_unit_symbol:
                task["faces"].pop(0)
                continue
            if task["uid"] and task["symbol"] and face == SYMBOL_FACE.get(task["symbol"]):
                task["faces"].pop(0)
                uh = self.find_unit(task["uid"])
                if uh is not None:
                    self.hit_unit(uh, 1, 1 - side, "Lack of Honor")
                    if self._result is not None:
                        return True
                continue
            cands = self.loh_candidates(side, self.b.parse(task["origin"]), face.value)
            if len(cands) > 1:
                return False
            task["faces"].pop(0)
            if cands:
                self.hit_unit(cands[0], 1, 1 - side, "Lack of Honor")
                if self._result is not None:
                    return True
        self.stack.pop()
        return True

    def _legal_loh(self: CCState, task: LackOfHonorTask) -> list[str]:
        face = Face(task["faces"][0])
        return [f"hit {self.name(h)}" for h in self.loh_candidates(task["seat"], self.b.parse(task["origin"]), face.value)]

    def _act_loh(self: CCState, task: LackOfHonorTask, action: str) -> None:
        task["faces"].pop(0)
        self.hit_unit(self.b.parse(action.split()[1]), 1, 1 - task["seat"], "Lack of Honor")
