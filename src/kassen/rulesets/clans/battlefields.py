"""Battlefields that ask a player to decide (002:447-457, 508-529): the Sanctuary's weakest
card, the Supply Camp's two bonuses."""

from __future__ import annotations

from kassen.rulesets.clans.combat import CombatRules
from kassen.rulesets.clans.tasks import SanctuaryTask, SupplyTask


class BattlefieldRules(CombatRules):
    """The Sanctuary and the Supply Camp."""

    def _weakest(self, i: int, side: int) -> list[int]:
        st = self.stacks[i][side]
        if not st:
            return []
        strengths = [self.card_strength(i, st, k) for k in range(len(st))]
        low = min(strengths)
        return [k for k, v in enumerate(strengths) if v == low]

    def _sanctuary_step(self, i: int) -> None:
        """Sanctuary (002:447-457): each player destroys one of his weakest cards, choosing
        among equally weak ones. The choices are simultaneous: made side by side, the first
        kept hidden until both are made, then both cards go at once (C14)."""
        info = self.outcome[i]
        assert info is not None
        picks: list[int | None] = list(info["sanctuary"])
        for side in (0, 1):
            if picks[side] is not None:
                continue
            weak = self._weakest(i, side)
            if len(weak) > 1:
                info["sanctuary"] = picks
                self._push(SanctuaryTask(t="sanctuary", seat=self.sides[i][side], bf=i, side=side))
                return
            picks[side] = weak[0] if weak else -1
        self._eliminate(i, [[k] if k is not None and k >= 0 else [] for k in picks], "destroyed at the Sanctuary")
        self._finish_combat(i)

    def _destroy(self, k: int) -> None:
        p = self.stack[-1]
        i, side = p["bf"], p["side"]
        self._pop_decision()
        info = self.outcome[i]
        assert info is not None
        info["sanctuary"] = [k if s == side else v for s, v in enumerate(info["sanctuary"])]
        self._sanctuary_step(i)

    def _supply_targets(self, seat: int) -> list[int]:
        """Battlefields the Supply Camp's conqueror may reinforce (C17)."""
        allies = {seat}
        mate = self.partner(seat)
        if mate is not None:
            allies.add(mate)
        return [i for i in self._unresolved() if self.tiles[i] != "supply-camp"
                and any(s in allies for s in self.sides[i])]

    def _supply(self, seat: int) -> None:
        """Supply Camp (002:508-529): its conqueror chooses two different Battlefields (C17)."""
        el = self._supply_targets(seat)
        if len(el) >= 2:
            self._push(SupplyTask(t="supply", seat=seat))
        elif el:
            self._bonus(el, seat)

    def _bonus(self, bfs: list[int], seat: int) -> None:
        self._pop_decision()
        allies = {seat} | ({self.partner(seat)} - {None})
        for i in bfs:
            side = 0 if self.sides[i][0] in allies else 1
            self.bonus[i][side] += 1
            self.emit("bonus", {"seat": seat, "tile": self.tiles[i], "to": self.sides[i][side]},
                      f"Supply Camp: +1 Total Strength for {self.name(self.sides[i][side])} on the {self.tile_name(i)}")

    def _legal_sanctuary(self, task: SanctuaryTask) -> list[str]:
        i, side = task["bf"], task["side"]
        return [f"destroy {k + 1}" for k in self._weakest(i, side)]

    def _act_sanctuary(self, task: SanctuaryTask, action: str) -> None:
        self._destroy(int(action.split()[1]) - 1)

    def _legal_supply(self, task: SupplyTask) -> list[str]:
        el = self._supply_targets(task["seat"])
        return [f"bonus {self.tiles[a]} {self.tiles[b]}"
                for x, a in enumerate(el) for b in el[x + 1:]]

    def _act_supply(self, task: SupplyTask, action: str) -> None:
        words = action.split()
        self._bonus([self.bf_index(words[1]), self.bf_index(words[2])], task["seat"])
