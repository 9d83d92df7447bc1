"""Kensei's turn sequence as typed task records.

The state's task stack (``kassen.engine.tasks.TaskMachine``) holds the phase at the
bottom, then the decision an order asked of the other player (``movement``,
``interject``, ``targeted``: the saved ``pending``), then the table questions and Honour
rolls waiting (the saved ``questions``, the first of them on top). The kind ``t`` names
the handlers (``_legal_orders``, ``_act_targeted``, ``_auto_turn_start``...). A phase
is decided by ``mover``; a decision or question names its ``seat``. A saved state keeps
the shapes saves have always had: ``phase`` (with hyphens: ``turn-start``), ``pending``
(its kind under ``kind``) and ``questions`` (no kind: it follows from ``key``).
"""

# no ``from __future__ import annotations``: the tests read the records' fields at run time
from typing import Any, Literal, TypedDict, cast

from kassen.engine.tasks import Task


class SetupTask(TypedDict):
    """Set-up (003:12-30): the scenario, secret missions, Strategy and terrain rolls."""

    t: Literal["setup"]


class RoleTask(TypedDict):
    """The Strategy roll's winner chooses attacker or defender (003:28)."""

    t: Literal["role"]


class TurnStartTask(TypedDict):
    """Maintenance (003:39-44)."""

    t: Literal["turn_start"]


class TurnCleanupTask(TypedDict):
    """Maintenance's clean-up and the Initiative roll, once the Honour rolls are in (K25)."""

    t: Literal["turn_cleanup"]


class DuelTask(TypedDict):
    """The player without the initiative may declare a Command duel (003:52)."""

    t: Literal["duel"]


class DuelResultTask(TypedDict):
    """The Command duel's outcome, played at the table (K35)."""

    t: Literal["duel_result"]


class ActivationRoundTask(TypedDict):
    """A new activation, or the end of the turn (003:50-57)."""

    t: Literal["activation_round"]


class FirstTask(TypedDict):
    """The player with the initiative chooses who activates first (003:53)."""

    t: Literal["first"]


class ActivateTask(TypedDict):
    """Choosing the active troop, or a clan ability (003:53, K9)."""

    t: Literal["activate"]


class OrderRollTask(TypedDict):
    """The active troops' Order rolls (003:54)."""

    t: Literal["order_roll"]


class OrdersTask(TypedDict):
    """The alternating orders (003:55)."""

    t: Literal["orders"]


class EndActivationTask(TypedDict):
    """Used Unit markers (003:56)."""

    t: Literal["end_activation"]


class MovementTask(TypedDict):
    """Does a troop of ``seat`` react to the troop ``mover`` moving? (003:89)"""

    seat: int
    t: Literal["movement"]
    mover: list[Any]
    options: list[str]
    text: str


class InterjectTask(TypedDict):
    """Case 2: ``seat``'s active troop gives an action order before ``combat`` (003:92, K31)."""

    seat: int
    t: Literal["interject"]
    combat: dict[str, Any]
    options: list[str]
    text: str


class TargetedTask(TypedDict):
    """The target of an attack, charge or shot answers (case 4 or 5, 003:94-95)."""

    seat: int
    t: Literal["targeted"]
    case: int
    combat: dict[str, Any]
    options: list[str]
    text: str


class TableTask(TypedDict):
    """A question on the table before a combat (``key``: charge, contact-a, band-a...)."""

    t: Literal["table"]
    seat: int
    key: str
    options: list[str]
    text: str
    combat: bool


class ArtilleryTask(TypedDict):
    """A question of a war machine's shot (``key``: art-band, art-ammo, art-bags, art-elevated,
    art-near, art-sight, art-engineer, art-sohei, art-affected, art-cover; K50)."""

    t: Literal["artillery"]
    seat: int
    key: str
    options: list[str]
    text: str
    combat: bool


class RollTask(TypedDict):
    """The combat's dice are thrown (``key`` ``resolve``)."""

    t: Literal["roll"]
    seat: int
    key: str
    options: list[str]
    text: str
    combat: bool


class CritsTask(TypedDict):
    """Critical hits on an exposed leader: on the leader or the unit? (003:144)"""

    t: Literal["crits"]
    seat: int
    key: str
    options: list[str]
    text: str


class HonourTask(TypedDict):
    """An Honour roll played at the table (K27): ``key`` ``honour`` after a combat or a shot,
    ``honour-retreat`` for a unit in retreat at maintenance (003:43)."""

    t: Literal["honour", "retreat_honour"]
    seat: int
    key: str
    options: list[str]
    text: str
    unit: str


class SamuraiTask(TypedDict):
    """A Samurai failed its Honour roll: stay (+1 wound) or withdraw (003:244)."""

    t: Literal["samurai"]
    seat: int
    key: str
    options: list[str]
    text: str
    unit: str


PhaseTask = (SetupTask | RoleTask | TurnStartTask | TurnCleanupTask | DuelTask | DuelResultTask | ActivationRoundTask
             | FirstTask | ActivateTask | OrderRollTask | OrdersTask | EndActivationTask)
DecisionTask = MovementTask | InterjectTask | TargetedTask
QuestionTask = TableTask | ArtilleryTask | RollTask | CritsTask | HonourTask | SamuraiTask
KenseiTask = PhaseTask | DecisionTask | QuestionTask

PHASES = ("setup", "role", "turn_start", "turn_cleanup", "duel", "duel_result", "activation_round", "first", "activate",
          "order_roll", "orders", "end_activation")
DECISIONS = ("movement", "interject", "targeted")
QUESTIONS = ("table", "roll", "crits", "honour", "retreat_honour", "samurai", "artillery")


def phase_task(phase: str) -> Task:
    """The task of a saved ``phase`` (``turn-start`` -> ``{"t": "turn_start"}``)."""
    kind = phase.replace("-", "_")
    if kind not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    return {"t": kind}


def phase_name(task: Task) -> str:
    """The saved name of a phase task."""
    return str(task["t"]).replace("_", "-")


def question_kind(key: str) -> str:
    """The kind of the question asked under ``key``."""
    if key == "resolve":
        return "roll"
    if key.startswith("crits"):
        return "crits"
    if key.startswith("art-"):
        return "artillery"
    if key == "honour-retreat":
        return "retreat_honour"
    if key in ("honour", "samurai"):
        return key
    return "table"


def question_task(question: dict[str, Any]) -> Task:
    """The task of a saved question (its kind first, then its fields in order)."""
    return {"t": question_kind(str(question["key"])), **question}


def to_question(task: Task) -> dict[str, Any]:
    """The saved shape of a question task."""
    return {k: v for k, v in task.items() if k != "t"}


def decision_task(pending: dict[str, Any]) -> Task:
    """The task of a saved ``pending`` (its kind under ``t``, in the same place)."""
    if pending.get("kind") not in DECISIONS:
        raise ValueError(f"unknown pending decision {pending.get('kind')!r}")
    return {("t" if k == "kind" else k): v for k, v in pending.items()}


def to_pending(task: Task) -> dict[str, Any]:
    """The saved shape of a decision task: its kind under ``kind``."""
    return {("kind" if k == "t" else k): v for k, v in task.items()}


def as_task(task: KenseiTask) -> Task:
    """A typed record as the task machine's plain JSON task (the same dict)."""
    return cast(Task, task)
