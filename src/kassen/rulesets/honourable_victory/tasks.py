"""The pending decisions of An Honourable Victory! as typed task records.

The state's task stack (``kassen.engine.tasks.TaskMachine``) holds at most one task:
the decision pending, whose kind ``t`` names its handlers (``_legal_fire``,
``_act_fire``...) and whose ``seat`` decides. A saved state stores it as ``pend``
with the kind under ``step`` (the shape saves have always had).
"""

# no ``from __future__ import annotations``: TypedDict must see ``NotRequired`` at run time
from typing import Any, Literal, NotRequired, TypedDict, cast

from kassen.engine.tasks import Task


class FireTask(TypedDict):
    """The Firing Phase: ``seat`` declares fire; ``done`` counts the sides that have finished."""

    t: Literal["fire"]
    seat: int
    done: NotRequired[int]


class AllocTask(TypedDict):
    """Hand-to-hand: ``seat`` allocates the stands of its units engaged with several enemies."""

    t: Literal["alloc"]
    seat: int


class RerollTask(TypedDict):
    """An overlapping or outflanking re-throw of the attack in progress (``HVState.att``)."""

    t: Literal["reroll"]
    seat: int


class DaimyoTask(TypedDict):
    """The Daimyo's re-throw of the attack in progress."""

    t: Literal["daimyo"]
    seat: int


class BreakoffTask(TypedDict):
    """Remove Losses: ``unit`` lost stands and may break contact; ``after``: the units asked next."""

    t: Literal["breakoff"]
    seat: int
    unit: str
    after: list[str]


class MoveTask(TypedDict):
    """A movement phase: the mover chooses a unit and its action, moves the Daimyo or ends."""

    t: Literal["move"]
    seat: int


class Act2Task(TypedDict):
    """A mounted unit's second action."""

    t: Literal["act2"]
    seat: int
    unit: str


class ReactTask(TypedDict):
    """A reaction window: ``unit`` (the mover's) ``trig``-gers it (engage, leave, enter, disengaged)."""

    t: Literal["react"]
    seat: int
    trig: str
    unit: str
    target: str | None
    facet: str | None
    dest: str | None
    from_reserve: bool


class RecoiledTask(TypedDict):
    """A mounted unit whose target recoiled: engage another unit or rally."""

    t: Literal["recoiled"]
    seat: int
    unit: str


HVTask = FireTask | AllocTask | RerollTask | DaimyoTask | BreakoffTask | MoveTask | Act2Task | ReactTask | RecoiledTask

#: the task kinds, in the order of the Game Turn Sequence
KINDS = ("fire", "alloc", "reroll", "daimyo", "breakoff", "move", "act2", "react", "recoiled")


def as_task(task: HVTask) -> Task:
    """A typed record as the task machine's plain JSON task (the same dict)."""
    return cast(Task, task)


def to_pend(task: Task | None) -> dict[str, Any]:
    """The saved shape of a task: its kind under ``step``, the other fields in order."""
    if task is None:
        return {}
    return {("step" if k == "t" else k): v for k, v in task.items()}


def from_pend(pend: dict[str, Any]) -> list[Task]:
    """The task stack of a saved ``pend`` (``{}``: no decision pending)."""
    if not pend:
        return []
    if pend.get("step") not in KINDS:
        raise ValueError(f"unknown pending decision {pend.get('step')!r}")
    return [{("t" if k == "step" else k): v for k, v in pend.items()}]
