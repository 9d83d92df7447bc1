"""What every rules module of An Honourable Victory! shares: the seats, formations and
quality tables, a unit, and the data of a moment of play (``HVStateData``).

The rules modules are mixins stacked in the order of the Game Turn Sequence
(``units`` < ``victory`` < ``turn`` < ``firing`` < ``hand_to_hand`` < ``losses`` <
``movement`` < ``reactions`` < ``view`` < ``state.HVState``): each may call what the
modules below it define; the few steps that lead on to a later section (the next
phase, a reaction window) are declared here and defined by that section's module.
"""

from __future__ import annotations

from typing import Any

from kassen.engine.events import Event
from kassen.engine.protocol import Game, Result
from kassen.engine.rng import Rng
from kassen.engine.tasks import Task
from kassen.rulesets.honourable_victory.data import Tables
from kassen.rulesets.honourable_victory.table import Table
from kassen.rulesets.honourable_victory.tasks import HVTask, as_task

JSON = dict[str, Any]
SIDES = ("South", "North")
FORMS = ("attack", "defensive", "open")
#: Appendix B: the highest die that hits when firing, and that passes the test to engage
FIRE_HIT = {"green": 1, "seasoned": 2, "veteran": 3}
#: the limits of a modified Combat Value (001:400-403)
CV_MIN, CV_MAX = 1, 5
#: the highest die that passes the test to engage, by formation (001:600-603)
ENGAGE_NEED = {"attack": 3, "open": 1}
#: Appendix B: the same for Green and Veteran units, in any formation (001:1059, 001:1067)
ENGAGE_NEED_QUALITY = {"green": 1, "veteran": 4}
CLASS_NAME = {"light-foot": "Light Foot", "foot": "Foot", "mounted": "Mounted"}


class Unit:
    """One unit: its stands, place, facing, formation and markers."""

    __slots__ = ("uid", "side", "name", "cls", "weapon", "stands", "start", "zone", "facing", "form",
                 "hits", "fired", "reacted", "mounted", "quality", "status")

    def __init__(self, uid: str, side: int, name: str, cls: str, weapon: str, stands: int, zone: str,
                 facing: int, form: str, quality: str = "seasoned", status: str = "table") -> None:
        self.uid, self.side, self.name, self.cls, self.weapon = uid, side, name, cls, weapon
        self.stands = self.start = stands
        self.zone, self.facing, self.form = zone, facing, form
        self.hits = 0
        self.fired = False      # red marker
        self.reacted = False    # yellow marker
        self.mounted = cls == "mounted"
        self.quality = quality
        #: "table", "reserve" or "routed" (withdrawn units count as routed)
        self.status = status

    def copy(self) -> Unit:
        u = Unit.__new__(Unit)
        for k in Unit.__slots__:
            setattr(u, k, getattr(self, k))
        return u

    def to_json(self) -> JSON:
        return {k: getattr(self, k) for k in Unit.__slots__}

    @classmethod
    def from_json(cls, d: JSON) -> Unit:
        u = Unit.__new__(Unit)
        for k in Unit.__slots__:
            setattr(u, k, d[k])
        return u


def uid_key(uid: str) -> tuple[str, int]:
    """Units in army-list order: ``S2`` before ``S10``."""
    return uid[0], int(uid[1:]) if uid[1:].isdigit() else 0


class HVStateData:
    """The data of a moment of play, declared once for the state and every rules mixin
    (set by ``HVState.__init__``, ``clone`` and ``from_json``), the dice, the events and
    the decision pending."""

    game: Game
    tables: Tables
    table: Table
    opts: JSON
    battle_id: str
    battle_name: str
    clans: list[str]
    daimyo_names: list[str]
    turn: int
    init: int
    units: dict[str, Unit]
    #: engagements: (unit, its facet, other unit, its facet); the engager's facet is its front
    contacts: list[tuple[str, str, str, str]]
    daimyo: list[str | None]
    tally: list[int]
    start_units: list[int]
    #: the decision pending (at most one task; none once the battle is over)
    stack: list[Task]
    #: Firing Phase declarations per seat: (firer, target)
    fire_decl: list[list[tuple[str, str]]]
    #: hand-to-hand allocations: unit -> {enemy: stands}; ``alloc_open`` once revealed
    alloc: dict[str, dict[str, int]]
    alloc_open: bool
    #: the attacks still to make (attacker, target, stands) and the one being made
    attacks: list[tuple[str, str, int]]
    att: JSON | None
    daimyo_used: list[str]
    #: the side whose movement phase it is, the units it has chosen, the unit acting
    mover: int
    chosen: list[str]
    cur: JSON | None
    rng: Rng
    forced: list[int]
    _result: Result | None
    events: tuple[Event, ...]
    _ev: list[Event]
    _legal: list[str] | None

    # ------------------------------------------------------------ dice and events
    def _d6(self) -> int:
        if self.forced:
            return self.forced.pop(0)
        return self.rng.randbelow(6) + 1

    def _roll(self, n: int) -> list[int]:
        return [self._d6() for _ in range(max(0, n))]

    def _say(self, ev_kind: str, text: str, **data: Any) -> None:
        self._ev.append(Event(ev_kind, data, text))

    # ------------------------------------------------------------ the decision pending
    def _top(self) -> Task:
        """The task pending, or ``{}``."""
        return self.stack[-1] if self.stack else {}

    # what kassen.ai and kassen.envs read instead of the stack (tests/test_no_private_reads.py)
    def pending(self) -> Task:
        """The decision pending (the task on top: ``t`` its kind, ``seat`` who decides, ``unit``,
        ``target``... by kind), or ``{}`` when none. Read only."""
        return self.stack[-1] if self.stack else {}

    def pending_kind(self) -> str:
        """The kind of the decision pending, ``""`` when none."""
        kind: str = self.stack[-1]["t"] if self.stack else ""
        return kind

    def _decide(self, task: HVTask) -> None:
        """``task`` is now the decision pending."""
        self.stack = [as_task(task)]

    # ------------------------------------------------------------ steps defined by a later section
    def _begin_turn(self) -> None:
        """A new Game Turn (``turn``)."""
        raise NotImplementedError

    def _next_fire(self) -> None:
        """The Firing Phase goes on (``firing``)."""
        raise NotImplementedError

    def _begin_h2h(self) -> None:
        """The Hand-to-Hand Combat Resolution Phase (``hand_to_hand``)."""
        raise NotImplementedError

    def _remove_losses(self) -> None:
        """The Remove Losses Phase (``losses``)."""
        raise NotImplementedError

    def _begin_move(self, seat: int) -> None:
        """``seat``'s movement phase (``movement``)."""
        raise NotImplementedError

    def _window(self, trig: str, uid: str, target: str | None = None, facet: str | None = None,
                dest: str | None = None, from_reserve: bool = False) -> None:
        """A reaction window (``reactions``)."""
        raise NotImplementedError
