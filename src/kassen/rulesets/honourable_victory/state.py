"""Rules of An Honourable Victory! as a state machine (seed 001): the state of a moment
of play, its copy, the protocol methods and its JSON.

The rules are laid out by the rulebook's sections, one mixin each (``docs/engine.md``):
``units`` (Organising Your Army), ``turn`` (the Game Turn Sequence and the initiative),
``firing``, ``hand_to_hand``, ``losses`` (Remove Losses), ``movement``, ``reactions``,
``victory`` and ``view``. The decision pending is a typed task (``tasks``) on the
``TaskMachine`` stack: its kind names its handlers, its ``seat`` decides. Automatic steps
(initiative, dice, hit markers, losses, victory) run until a player must decide.
Section names in comments and tests refer to the rules text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kassen.engine.errors import FormatError
from kassen.engine.events import Event
from kassen.engine.protocol import Result, State
from kassen.engine.rng import Rng
from kassen.engine.tasks import Task, TaskMachine
from kassen.rulesets.honourable_victory.common import (
    CLASS_NAME,
    FIRE_HIT,
    FORMS,
    JSON,
    SIDES,
    Unit,
    uid_key,
)
from kassen.rulesets.honourable_victory.data import Tables
from kassen.rulesets.honourable_victory.table import Table
from kassen.rulesets.honourable_victory.tasks import from_pend, to_pend
from kassen.rulesets.honourable_victory.view import ViewRules

if TYPE_CHECKING:
    from kassen.rulesets.honourable_victory.game import HonourableVictoryGame

__all__ = ["CLASS_NAME", "FIRE_HIT", "FORMS", "JSON", "SIDES", "HVState", "Unit", "uid_key"]


class HVState(ViewRules, TaskMachine, State):
    """A moment of a battle of An Honourable Victory!. Immutable from the outside."""

    def __init__(self, game: HonourableVictoryGame, tables: Tables, table: Table, options: JSON) -> None:
        self.game = game
        self.tables = tables
        self.table = table
        self.opts = options
        self.battle_id = ""
        self.battle_name = ""
        self.clans = ["", ""]
        self.daimyo_names = ["", ""]
        self.turn = 0
        self.init = 0
        self.units: dict[str, Unit] = {}
        #: engagements: (unit, its facet, other unit, its facet); the engager's facet is its front
        self.contacts: list[tuple[str, str, str, str]] = []
        self.daimyo: list[str | None] = [None, None]
        self.tally = [0, 0]
        self.start_units = [0, 0]
        #: the decision pending (at most one task; none once the battle is over)
        self.stack: list[Task] = []
        #: Firing Phase declarations per seat: (firer, target)
        self.fire_decl: list[list[tuple[str, str]]] = [[], []]
        #: hand-to-hand allocations: unit -> {enemy: stands}; ``alloc_open`` once revealed
        self.alloc: dict[str, dict[str, int]] = {}
        self.alloc_open = False
        self.attacks: list[tuple[str, str, int]] = []
        self.att: JSON | None = None
        self.daimyo_used: list[str] = []
        self.mover = 0
        self.chosen: list[str] = []
        self.cur: JSON | None = None
        self.rng = Rng(0)
        self.forced: list[int] = []
        self._result: Result | None = None
        self.events: tuple[Event, ...] = ()
        self._ev: list[Event] = []
        self._legal: list[str] | None = None

    # ------------------------------------------------------------ copying
    def clone(self) -> HVState:
        s = HVState.__new__(HVState)
        s.game, s.tables, s.table, s.opts = self.game, self.tables, self.table, self.opts
        s.battle_id, s.battle_name = self.battle_id, self.battle_name
        s.clans, s.daimyo_names = self.clans, self.daimyo_names
        s.turn, s.init = self.turn, self.init
        s.units = {k: u.copy() for k, u in self.units.items()}
        s.contacts = list(self.contacts)
        s.daimyo = list(self.daimyo)
        s.tally, s.start_units = list(self.tally), self.start_units
        s.stack = [dict(t) for t in self.stack]
        s.fire_decl = [list(d) for d in self.fire_decl]
        s.alloc = {k: dict(v) for k, v in self.alloc.items()}
        s.alloc_open = self.alloc_open
        s.attacks = list(self.attacks)
        s.att = None if self.att is None else {**self.att, "dice": list(self.att["dice"])}
        s.daimyo_used = list(self.daimyo_used)
        s.mover, s.chosen = self.mover, list(self.chosen)
        s.cur = None if self.cur is None else dict(self.cur)
        s.rng = self.rng.copy()
        s.forced = list(self.forced)
        s._result = self._result
        s.events = ()
        s._ev = []
        s._legal = None
        return s

    def with_forced_dice(self, faces: Sequence[int | str]) -> HVState:
        """A copy whose next D6 rolls are ``faces`` (in order, 1..6), then the RNG again."""
        try:
            dice = [int(f) for f in faces]
        except ValueError:
            raise FormatError(f"forced dice must be numbers 1..6, got {list(faces)}") from None
        if any(not 1 <= f <= 6 for f in dice):
            raise FormatError(f"forced dice must be 1..6, got {dice}")
        s = self.clone()
        s.forced = dice
        s.events = self.events
        return s

    # ------------------------------------------------------------ the pending decision
    @property
    def pend(self) -> JSON:
        """The decision pending in its saved shape (``step``, ``seat``...; ``{}`` when none).
        A copy: the rules change the task on the stack."""
        return to_pend(self.stack[-1] if self.stack else None)

    @pend.setter
    def pend(self, value: JSON) -> None:
        self.stack = from_pend(value)
        self._legal = None

    # ------------------------------------------------------------ protocol
    # to_move and legal_actions: the task machine's (the stack is emptied when the battle ends)
    def result(self) -> Result | None:
        return self._result

    # apply: the task machine's (kassen.engine.tasks); a step runs whole in its handler
    def fork(self) -> HVState:
        return self.clone()

    def why_illegal(self, action: str) -> str:
        if self._result is not None or not self.stack:
            return "the battle is over"
        seat = self.stack[-1]["seat"]
        who = SIDES[seat]
        words = action.split()
        if words and words[0] in self.units:
            u = self.units[words[0]]
            if u.side != seat:
                return f"{words[0]} is a {SIDES[u.side]} unit; it is {who}'s decision ({self.prompt_text()})"
            return f"{words[0]} cannot do that now ({who}: {self.prompt_text()})"
        return f"it is {who}'s decision: {self.prompt_text()}"

    def determinize(self, seat: int, rng: Rng) -> HVState:
        """The RNG resampled, and the other side's undisclosed declarations re-drawn at random."""
        s = self.clone()
        s.rng = Rng(rng.next64())
        s.forced = []
        other = 1 - seat
        top = s._top()
        if top.get("t") == "fire" and top.get("seat") == seat and top.get("done", 0) >= 1:
            s.fire_decl[other] = []
            while True:
                opts = s._fire_actions(other)
                if not opts or rng.randbelow(len(opts) + 1) == len(opts):
                    break
                _, f, t = rng.choice(opts).split()
                s.fire_decl[other].append((f, t))
        if top.get("t") == "alloc":
            for uid in list(s.alloc):
                u = s.u(uid)
                if u.side == other and len(s.enemies_engaged(uid)) > 1:
                    words = rng.choice(s._alloc_actions(u)).split()
                    s.alloc[uid] = {p.split("=")[0]: int(p.split("=")[1]) for p in words[2:]}
        s.events = self.events
        return s

    def heuristic(self, seat: int) -> float:
        res = self._result
        if res is not None:
            return 0.0 if res.winner is None else (1.0 if res.winner == seat else -1.0)
        mat = [0.0, 0.0]
        for side in (0, 1):
            start = sum(u.start for u in self.units.values() if u.side == side) or 1
            mat[side] = sum(u.stands - u.hits / 2 for u in self.units.values()
                            if u.side == side and u.status != "routed") / start
        zones = (self.uncontested(seat) - self.uncontested(1 - seat)) / len(self.table.zones())
        broken = [min(1.0, self.tally[k] / max(1, self.values(k)[1])) for k in (0, 1)]
        val = 0.5 * (mat[seat] - mat[1 - seat]) + 0.2 * zones + 0.3 * (broken[1 - seat] - broken[seat])
        for k, sign in ((seat, -1.0), (1 - seat, 1.0)):
            if self.off_table(k) > len(self.on_table(k)):  # in general retreat at the next victory phase
                val += 0.5 * sign
        return max(-1.0, min(1.0, val))


    # ------------------------------------------------------------ JSON
    def to_json(self) -> JSON:
        return {
            "battle": self.battle_id, "battle_name": self.battle_name, "clans": list(self.clans),
            "daimyo_names": list(self.daimyo_names), "options": dict(self.opts),
            "table": {"width": self.table.width, "limit": self.table.limit, "reserves": self.table.reserves,
                      "terrain": {z: list(f) for z, f in sorted(self.table.terrain.items())},
                      "escarpments": sorted(sorted(e) for e in self.table.escarpments)},
            "turn": self.turn, "init": self.init,
            "units": [u.to_json() for u in self.units.values()],
            "contacts": [list(c) for c in self.contacts], "daimyo": list(self.daimyo),
            "tally": list(self.tally), "start_units": list(self.start_units), "pend": self.pend,
            "fire_decl": [[list(d) for d in ds] for ds in self.fire_decl],
            "alloc": {k: dict(v) for k, v in self.alloc.items()}, "alloc_open": self.alloc_open,
            "attacks": [list(a) for a in self.attacks], "att": self.att, "daimyo_used": list(self.daimyo_used),
            "mover": self.mover, "chosen": list(self.chosen), "cur": self.cur,
            "rng": self.rng.state, "forced": list(self.forced),
            "result": self._result.to_json() if self._result else None,
        }

    @classmethod
    def from_json(cls, game: HonourableVictoryGame, d: JSON) -> HVState:
        try:
            t = d["table"]
            table = Table(int(t["width"]), int(t["limit"]), bool(t["reserves"]),
                          {z: tuple(f) for z, f in t["terrain"].items()},
                          frozenset(frozenset(e) for e in t["escarpments"]))
            s = cls(game, game.tables, table, dict(d["options"]))
            s.battle_id, s.battle_name = str(d["battle"]), str(d["battle_name"])
            s.clans, s.daimyo_names = list(d["clans"]), list(d["daimyo_names"])
            s.turn, s.init = int(d["turn"]), int(d["init"])
            s.units = {u["uid"]: Unit.from_json(u) for u in d["units"]}
            s.contacts = [(str(a), str(b), str(c), str(e)) for a, b, c, e in d["contacts"]]
            s.daimyo = list(d["daimyo"])
            s.tally, s.start_units = list(d["tally"]), list(d["start_units"])
            s.stack = from_pend(dict(d["pend"]))
            s.fire_decl = [[(str(f), str(x)) for f, x in ds] for ds in d["fire_decl"]]
            s.alloc = {k: dict(v) for k, v in d["alloc"].items()}
            s.alloc_open = bool(d["alloc_open"])
            s.attacks = [(str(a), str(b), int(n)) for a, b, n in d["attacks"]]
            s.att = d["att"]
            s.daimyo_used = list(d["daimyo_used"])
            s.mover, s.chosen, s.cur = int(d["mover"]), list(d["chosen"]), d["cur"]
            s.rng, s.forced = Rng(int(d["rng"])), list(d["forced"])
            s._result = Result.from_json(d["result"]) if d["result"] else None
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"honourable-victory state: bad or missing field {exc}") from exc
        return s

    def __repr__(self) -> str:
        return f"HVState(turn={self.turn}, pend={json.dumps(self.pend)})"
