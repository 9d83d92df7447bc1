"""The pending decisions of the clan card game as typed task records.

The state's task stack (``kassen.engine.tasks.TaskMachine``) holds the phase at the
bottom (``draft``, ``deploy``, ``resolve``; empty once the game is over) and, on top
of it, a decision a card or a Battlefield asks for (``scout``, ``shugenja``,
``general``, ``sanctuary``, ``supply``). The kind ``t`` names the handlers
(``_legal_deploy``, ``_act_deploy``...). A phase follows the turn order (the draft
queue, ``turn``); a card's or Battlefield's decision names its ``seat``. A saved state
stores the phase as ``phase`` and the decision on top as ``pending``, its kind under
``kind`` (the shapes saves have always had).
"""

# no ``from __future__ import annotations``: TypedDict must see ``NotRequired`` at run time
from typing import Any, Literal, TypedDict, cast

from kassen.engine.tasks import Task


class DraftTask(TypedDict):
    """Experienced set-up: the first chooser in the queue places a Battlefield."""

    t: Literal["draft"]


class DeployTask(TypedDict):
    """Army Deployment: ``turn`` deploys a card."""

    t: Literal["deploy"]


class ResolveTask(TypedDict):
    """Combat Resolution: ``turn`` chooses the next Battlefield to resolve."""

    t: Literal["resolve"]


class ScoutTask(TypedDict):
    """The Scout deployed on Battlefield ``bf`` reveals an opponent's Secret card there."""

    t: Literal["scout"]
    seat: int
    bf: int


class ShugenjaTask(TypedDict):
    """The Shugenja deployed on ``bf`` looks at a face-down card of another player."""

    t: Literal["shugenja"]
    seat: int
    bf: int


class GeneralTask(TypedDict):
    """The General deployed on ``bf`` moves one of its owner's face-down cards from there."""

    t: Literal["general"]
    seat: int
    bf: int


class SanctuaryTask(TypedDict):
    """Sanctuary ``bf``: the owner of ``side`` destroys one of its weakest cards."""

    t: Literal["sanctuary"]
    seat: int
    bf: int
    side: int


class SupplyTask(TypedDict):
    """Supply Camp: its conqueror chooses two Battlefields for the +1 bonuses."""

    t: Literal["supply"]
    seat: int


PhaseTask = DraftTask | DeployTask | ResolveTask
DecisionTask = ScoutTask | ShugenjaTask | GeneralTask | SanctuaryTask | SupplyTask

PHASES = ("draft", "deploy", "resolve")
#: decision kind -> the phase name it shows (``ability``: a card's Special Ability)
DECISION_PHASE = {"scout": "ability", "shugenja": "ability", "general": "ability",
                  "sanctuary": "sanctuary", "supply": "supply"}
#: phase name of a decision -> the phase under it
UNDER = {"ability": "deploy", "sanctuary": "resolve", "supply": "resolve"}


def as_task(task: PhaseTask | DecisionTask) -> Task:
    """A typed record as the task machine's plain JSON task (the same dict)."""
    return cast(Task, task)


def to_pending(task: Task) -> dict[str, Any]:
    """The saved shape of a decision task: its kind under ``kind``, the other fields in order."""
    return {("kind" if k == "t" else k): v for k, v in task.items()}


def from_pending(pending: dict[str, Any]) -> Task:
    """The decision task of a saved ``pending``."""
    if pending.get("kind") not in DECISION_PHASE:
        raise ValueError(f"unknown pending decision {pending.get('kind')!r}")
    return {("t" if k == "kind" else k): v for k, v in pending.items()}
