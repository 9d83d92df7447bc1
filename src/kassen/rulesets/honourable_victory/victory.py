"""The Determine Victory Phase (001:867-933): general retreat, the 1/3 and Breakpoint values,
zones held uncontested, the turn limit, conceding."""

from __future__ import annotations

from math import ceil

from kassen.engine.protocol import Result
from kassen.rulesets.honourable_victory.common import SIDES
from kassen.rulesets.honourable_victory.units import UnitRules


class VictoryRules(UnitRules):
    """The end of a Game Turn and of the battle."""

    def values(self, side: int) -> tuple[int, int]:
        """The 1/3 value and the 1/2 value (Breakpoint Value), fractions rounded up."""
        n = self.start_units[side]
        return ceil(n / 3), ceil(n / 2)

    def off_table(self, side: int) -> int:
        return sum(1 for u in self.units.values() if u.side == side and u.status != "table")

    def uncontested(self, side: int) -> int:
        out = 0
        for z in self.table.zones():
            mine = any(u.side == side and u.zone == z for u in self.on_table())
            theirs = any(u.side != side and u.zone == z for u in self.on_table())
            out += mine and not theirs
        return out

    def honourable_zones(self) -> int:
        """Ten of fifteen zones; two thirds of the zones on a wider table (ruling H26)."""
        return ceil(2 * len(self.table.zones()) / 3)

    def _victory(self) -> None:
        """The Determine Victory Phase."""
        retreat = [self.off_table(s) > len(self.on_table(s)) for s in (0, 1)]
        if all(retreat):
            self._finish(None, "A Humiliating Loss for both sides! (both in general retreat)")
            return
        for s in (0, 1):
            if retreat[s]:
                self._finish(1 - s, f"An Honourable Victory! ({SIDES[s]} is in general retreat)")
                return
        for u in self.units.values():
            u.fired = u.reacted = False
        broken = []
        for s in (0, 1):
            third, half = self.values(s)
            if self.tally[s] >= third and self.daimyo[s] is not None:
                self.daimyo[s] = None
                self._say("daimyo-lost", f"{SIDES[s]} has lost {self.tally[s]} units: its Daimyo is removed",
                          seat=s)
            if self.tally[s] >= half:
                broken.append(SIDES[s])
        ended = f"{' and '.join(broken)}'s morale breaks" if broken else None
        if ended is None and self.turn >= self.opts["turn_limit"]:
            ended = f"the turn limit ({self.opts['turn_limit']}) is reached"
        if ended is not None:
            self._by_zones(ended)
            return
        self._begin_turn()

    def _by_zones(self, why: str) -> None:
        a, b = self.uncontested(0), self.uncontested(1)
        need = self.honourable_zones()
        for s, mine, theirs in ((0, a, b), (1, b, a)):
            if mine >= need:
                self._finish(s, f"An Honourable Victory! ({why}; {SIDES[s]} holds {mine} zones uncontested)")
                return
            if mine > theirs:
                self._finish(s, f"A Minor Victory ({why}; {SIDES[s]} holds {mine} zones to {theirs})")
                return
        self._finish(None, f"A Draw ({why}; {a} zones to {b})")

    def _finish(self, winner: int | None, reason: str) -> None:
        scores = (0.5, 0.5) if winner is None else ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
        self._result = Result(winner, reason, scores)
        self.stack = []
        self._say("victory", reason, winner=winner)
