"""What every rules module of Kensei shares: the constants, a troop's record, and the data
of a moment of play with its basic questions (``KenseiData``).

The rules modules are mixins stacked in the order of the sheet's sections, each on the
one before (``honour`` < ``combat`` < ``artillery`` < ``orders`` < ``abilities`` < ``turn`` <
``activation`` < ``setup`` < ``state.KenseiState``): each may call what the modules
below it define. The task stack (``tasks``) holds the phase, the decision pending and
the questions; ``phase`` and ``questions`` read it as saves show them.
"""

from __future__ import annotations

from typing import Any

from kassen.engine.events import Event
from kassen.engine.protocol import Game
from kassen.engine.rng import Rng
from kassen.engine.tasks import Task, TaskMachine
from kassen.rulesets.kensei.data import Tables
from kassen.rulesets.kensei.roster import Roster, TroopProfile
from kassen.rulesets.kensei.tasks import QUESTIONS, phase_name, phase_task, question_task

JSON = dict[str, Any]

TURNS = 5                 # K38: usual game length (rules digest §1, [6])
RETREAT_SHARE = 0.75      # K38: army in retreat (inference)
MOVE_ORDERS = ("move", "run", "regroup")
STATIC_ORDERS = ("strengthen", "reload", "shelter", "interact")
SPIRITUAL_ORDERS = ("absorb-ki", "invoke", "exorcize")
#: classes that may give spiritual orders (K33)
SPIRITUAL_CLASSES = frozenset({"O", "K", "C", "M", "I"})
#: clan abilities the engine applies itself; the others are played at the table and recorded (K9)
ENGINE_ABILITIES = frozenset({"bushido-law", "death-fog", "buy-the-enemy", "hunt-down-the-leader", "poison"})

#: gunpowder bags a war machine starts the battle with (kensei.md §8, fan [9]; K50)
GUNPOWDER_BAGS = 3
#: the orders a war machine's crew may give (K49)
MACHINE_ORDERS = ("move", "strengthen", "reload", "interact")

#: orders whose whole effect on the troop is one marker: order -> (marker, value)
ORDER_MARKS: dict[str, tuple[str, bool]] = {
    "run": ("ran", True), "regroup": ("fleeing", False), "strengthen": ("strengthen", True),
    "reload": ("unloaded", False), "shelter": ("sheltered", True),
}


def new_unit(p: TroopProfile) -> JSON:
    """A troop's record at the start of the battle."""
    return {"id": p.id, "left": p.miniatures, "wounds": 0, "stunned": 0, "leader": p.leader is not None,
            "leader_wounds": 0, "used": False, "fleeing": False, "sheltered": False, "retreat": False,
            "dishonoured": False, "unloaded": False, "strengthen": False, "ran": False, "poisoned": False,
            "bought": False, "lost_this_turn": 0, "lost_last_turn": 0, "leader_lost_this_turn": False,
            "leader_lost_last_turn": False,
            # a war machine's crew (K49, K50): gunpowder bags left, shot at this turn
            **({"bags": GUNPOWDER_BAGS, "shot_at": False} if p.machine is not None else {})}


def mark(u: JSON, verb: str) -> None:
    """Set the marker the order ``verb`` leaves on the troop ``u``."""
    marker, value = ORDER_MARKS[verb]
    u[marker] = value


class KenseiData(TaskMachine):
    """The data of a moment of a battle (set by ``KenseiState.__init__`` and ``clone``), its
    basic questions, the events and the task stack."""

    game: Game
    tables: Tables
    rosters: list[Roster]
    profiles: list[dict[str, TroopProfile]]
    #: every changing datum but the tasks, as plain JSON (saved with them by ``to_json``)
    data: JSON
    rng: Rng
    events: tuple[Event, ...]
    _ev: list[Event]
    #: the phase, the decision pending on top of it, then the questions (the first on top)
    stack: list[Task]
    _legal: list[str] | None

    # ------------------------------------------------------------------ the tasks
    @property
    def phase(self) -> str:
        """The phase as saves name it (``turn-start``...), ``over`` once the battle ended."""
        return phase_name(self.stack[0]) if self.stack else "over"

    @phase.setter
    def phase(self, value: str) -> None:
        if value == "over":
            self.stack = []
        elif self.stack:
            self.stack[0] = phase_task(value)
        else:
            self.stack = [phase_task(value)]

    @property
    def questions(self) -> list[Task]:
        """The questions waiting, the next first (the tasks themselves)."""
        return [t for t in reversed(self.stack) if t["t"] in QUESTIONS]

    def _ask(self, seat: int, key: str, options: list[str], text: str, **extra: Any) -> None:
        """Queue a question after those already waiting."""
        task = question_task({"seat": seat, "key": key, "options": options, "text": text, **extra})
        self.stack.insert(len(self.stack) - len(self.questions), task)

    def _push(self, task: Task) -> None:
        """An order asks the other player for the decision ``task``."""
        self.stack.append(task)

    def finished(self) -> bool:
        return not self.stack

    # ------------------------------------------------------------------ basics
    def name(self, seat: int) -> str:
        return self.rosters[seat].name

    def die(self) -> int:
        if self.data["forced"]:
            return int(self.data["forced"].pop(0))
        return self.rng.randbelow(6) + 1

    def emit(self, kind: str, data: JSON, text: str, visible_to: tuple[int, ...] | None = None,
             redacted: Event | None = None) -> None:
        self._ev.append(Event(kind, data, text, visible_to, redacted))

    def unit(self, seat: int, uid: str) -> JSON:
        units: list[JSON] = self.data["units"][seat]
        for u in units:
            if u["id"] == uid:
                return u
        raise KeyError(uid)

    def profile(self, seat: int, uid: str) -> TroopProfile:
        return self.profiles[seat][uid]

    def alive(self, seat: int) -> list[JSON]:
        return [u for u in self.data["units"][seat] if u["left"] > 0]

    def label(self, seat: int, uid: str) -> str:
        return f"{self.profile(seat, uid).name} ({self.name(seat)})"

    def can_activate(self, s: int) -> list[str]:
        """The troops of ``s`` that may still be activated this turn."""
        return [u["id"] for u in self.alive(s) if not u["used"] and not u["retreat"] and not u["bought"]]

    def _gone(self, s: int, uid: str) -> bool:
        return bool(self.unit(s, uid)["left"] == 0)

    def share_lost(self, seat: int) -> float:
        total = sum(p.miniatures for p in self.profiles[seat].values())
        left = sum(u["left"] for u in self.data["units"][seat])
        return (total - left) / total if total else 0.0

    def _end(self, winner: int | None, reason: str) -> None:
        """The battle ends (K38)."""
        d = self.data
        self.phase = "over"
        d["result"] = {"winner": winner, "reason": reason, "scores": [self.share_lost(1), self.share_lost(0)]}
        self.emit("over", {"winner": winner}, f"The battle ends: {reason}")
