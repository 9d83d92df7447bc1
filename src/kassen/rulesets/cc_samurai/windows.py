"""The decision windows of the Dragon cards (when a card may be played, Turncoat, the Dragon
cards' lack-of-honor hits). The cards themselves are in dragons.py.

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kassen.rulesets.cc_samurai import dragons, victory
from kassen.rulesets.cc_samurai.tasks import DragonLackOfHonorTask, DragonTask, TurncoatTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def _auto_dragon(s: CCState, task: DragonTask) -> bool:
    # opened on public information only, never on the cards held (R32)
    if dragons.window_opens(s, task["seat"], task["w"], task):
        return False
    s.stack.pop()
    return True


def _legal_dragon(s: CCState, task: DragonTask) -> list[str]:
    return [*dragons.actions(s, task["seat"], task["w"], task), "pass"]


def _act_dragon(s: CCState, task: DragonTask, action: str) -> None:
    s.stack.pop()
    if action != "pass":
        dragons.play(s, task["seat"], action, task)


def _legal_turncoat(s: CCState, task: TurncoatTask) -> list[str]:
    return ["defect", "stay"]


def _act_turncoat(s: CCState, task: TurncoatTask, action: str) -> None:
    s.stack.pop()
    dragons.turncoat_decided(s, task, action == "defect")


def _auto_dloh(s: CCState, task: DragonLackOfHonorTask) -> bool:
    while task["faces"]:
        cands = dragons.dloh_candidates(s, task)
        if len(cands) > 1:
            return False
        task["faces"].pop(0)
        if cands:
            victory.hit_unit(s, cands[0], 1, task["by"], task["why"])
            if s._result is not None:
                return True
    s.stack.pop()
    return True


def _legal_dloh(s: CCState, task: DragonLackOfHonorTask) -> list[str]:
    return [f"hit {s.name(h)}" for h in dragons.dloh_candidates(s, task)]


def _act_dloh(s: CCState, task: DragonLackOfHonorTask, action: str) -> None:
    task["faces"].pop(0)
    victory.hit_unit(s, s.b.parse(action.split()[1]), 1, task["by"], task["why"])
