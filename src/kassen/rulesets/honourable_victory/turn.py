"""The Game Turn Sequence (001:222-256): a new Game Turn and the Determine the Initiative Phase."""

from __future__ import annotations

from kassen.rulesets.honourable_victory.common import SIDES
from kassen.rulesets.honourable_victory.tasks import FireTask
from kassen.rulesets.honourable_victory.victory import VictoryRules


class TurnRules(VictoryRules):
    """Starting the battle and each Game Turn."""

    def begin(self) -> None:
        """Start the first Game Turn."""
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.turn += 1
        # The Determine the Initiative Phase: 2D6 each, lowest wins, re-throw ties
        while True:
            a, b = self._roll(2), self._roll(2)
            tie = sum(a) == sum(b)
            self._say("initiative", f"Turn {self.turn}: initiative dice South {a[0]}+{a[1]} = {sum(a)}, "
                      f"North {b[0]}+{b[1]} = {sum(b)}"
                      + (": a tie, both sides throw again" if tie else ": the lower total wins"),
                      faces=[a, b], turn=self.turn)
            if not tie:
                break
        self.init = 0 if sum(a) < sum(b) else 1
        self._say("initiative-won", f"{SIDES[self.init]} has the initiative (the lower total, "
                  f"{min(sum(a), sum(b))} against {max(sum(a), sum(b))})", seat=self.init)
        self.fire_decl = [[], []]
        self._decide(FireTask(t="fire", seat=self.init))
        self._next_fire()
