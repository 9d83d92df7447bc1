# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""The decision windows of the Dragon cards (when a card may be played, Turncoat, the Dragon
cards' lack-of-honor hits). The cards themselves are in dragons.py.

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import trait

from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.common import CCStateData
from kassen.rulesets.cc_samurai.tasks import DragonLackOfHonorTask, DragonTask, TurncoatTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


@trait
class DragonWindows(CCStateData):
    def _auto_dragon(self: CCState, task: DragonTask) -> bool:
        # opened on public information only, never on the cards held (R32)
        if dragons.window_opens(self, task["seat"], task["w"], task):
            return False
        self.stack.pop()
        return True

    def _legal_dragon(self: CCState, task: DragonTask) -> list[str]:
        return [*dragons.actions(self, task["seat"], task["w"], task), "pass"]

    def _act_dragon(self: CCState, task: DragonTask, action: str) -> None:
        self.stack.pop()
        if action != "pass":
            dragons.play(self, task["seat"], action, task)

    def _legal_turncoat(self: CCState, task: TurncoatTask) -> list[str]:
        return ["defect", "stay"]

    def _act_turncoat(self: CCState, task: TurncoatTask, action: str) -> None:
        self.stack.pop()
        dragons.turncoat_decided(self, task, action == "defect")

    def _auto_dloh(self: CCState, task: DragonLackOfHonorTask) -> bool:
        while task["faces"]:
            cands = dragons.dloh_candidates(self, task)
            if len(cands) > 1:
                return False
            task["faces"].pop(0)
            if cands:
                self.hit_unit(cands[0], 1, task["by"], task["why"])
                if self._result is not None:
                    return True
        self.stack.pop()
        return True

    def _legal_dloh(self: CCState, task: DragonLackOfHonorTask) -> list[str]:
        return [f"hit {self.name(h)}" for h in dragons.dloh_candidates(self, task)]

    def _act_dloh(self: CCState, task: DragonLackOfHonorTask, action: str) -> None:
        task["faces"].pop(0)
        self.hit_unit(self.b.parse(action.split()[1]), 1, task["by"], task["why"])
