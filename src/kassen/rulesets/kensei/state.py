"""Kensei's turn sequence as a state machine (003:12-96; rulings K25-K41): the state of a
moment of a battle, its copy, the protocol methods and its JSON.

A table companion: the miniatures stand on a real table, so whatever depends on it (did
the charge reach, how many miniatures are in contact, is the target in cover, which
range band) is asked of the player whose troop it is, as a decision. Dice come from the
state's seeded :class:`~kassen.engine.rng.Rng`, or from forced dice
(:meth:`KenseiState.with_forced_dice`). Procedures the sheet does not give (the Honour
roll, the command duel's card play) are played at the table and their outcome entered
(K27, K35).

The rules are laid out by the sheet's sections, one mixin each (``docs/engine.md``):
``setup``, ``activation``, ``turn`` (maintenance, initiative, Command duel, end of turn),
``abilities``, ``orders``, ``combat`` and ``honour`` (wounds and Honour rolls), on
``common``. The phase, the decision pending and the questions are typed tasks
(``tasks``) on the ``TaskMachine`` stack. Phases: ``role`` (the Strategy roll's winner
chooses attacker or defender), ``duel`` (the player without the initiative may declare a
Command duel), ``duel-result``, ``first`` (who activates first), ``activate`` (choosing
the active units, or a clan ability), ``orders`` (the alternating orders); decisions:
``movement`` (an affected troop's answer), ``targeted``, ``interject`` (case 2: the
defender's active unit's action order before the combat); questions (table questions and
Honour rolls); ``over``.

All the other changing data sits in one JSON object (``self.data``); ``d`` is the state
as saved (``to_json`` without the game's name), so a state round-trips and clones exactly.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kassen.engine.errors import FormatError, KassenError
from kassen.engine.events import Event
from kassen.engine.protocol import Result, State
from kassen.engine.rng import Rng
from kassen.rulesets.kensei.common import (
    ENGINE_ABILITIES,
    JSON,
    MOVE_ORDERS,
    ORDER_MARKS,
    RETREAT_SHARE,
    SPIRITUAL_CLASSES,
    SPIRITUAL_ORDERS,
    STATIC_ORDERS,
    TURNS,
    new_unit,
)
from kassen.rulesets.kensei.data import Tables, load_tables
from kassen.rulesets.kensei.roster import Roster, profiles, read_roster
from kassen.rulesets.kensei.setup import SetupRules
from kassen.rulesets.kensei.tasks import (
    DECISIONS,
    decision_task,
    phase_task,
    question_task,
    to_pending,
    to_question,
)

if TYPE_CHECKING:
    from kassen.rulesets.kensei.game import KenseiGame

__all__ = ["ENGINE_ABILITIES", "JSON", "MOVE_ORDERS", "ORDER_MARKS", "RETREAT_SHARE", "SPIRITUAL_CLASSES",
           "SPIRITUAL_ORDERS", "STATIC_ORDERS", "TURNS", "KenseiState"]


class KenseiState(SetupRules, State):
    """One moment of a Kensei battle. Immutable from the outside."""

    def __init__(self, game: KenseiGame, rosters: Sequence[Roster], d: JSON, tables: Tables | None = None) -> None:
        """``d``: the state as saved (with ``phase``, ``pending`` and ``questions``)."""
        self.game = game
        self.tables = tables or load_tables()
        self.rosters = list(rosters)
        self.profiles = [{p.id: p for p in profiles(r, self.tables)} for r in self.rosters]
        self.data = {k: v for k, v in d.items() if k not in ("phase", "pending", "questions")}
        self.stack = [] if d["phase"] == "over" else [phase_task(d["phase"])]
        if d["pending"] is not None:
            self.stack.append(decision_task(d["pending"]))
        self.stack += [question_task(q) for q in reversed(d["questions"])]
        self.rng = Rng(int(d.get("rng", 0)))
        self.events: tuple[Event, ...] = ()
        self._ev: list[Event] = []
        self._legal: list[str] | None = None

    # ------------------------------------------------------------------ basics
    @classmethod
    def start(cls, game: KenseiGame, rosters: Sequence[Roster], roster_names: Sequence[str], scenario: str | None,
              seed: int, forced: Sequence[int] = ()) -> KenseiState:
        d: JSON = {"rosters": list(roster_names), "scenario": scenario, "turn": 0, "phase": "setup",
                   "secondary": [0, 0], "strategy": [0, 0], "strategy_winner": 0, "roles": ["", ""],
                   "initiative": 0, "units": [], "act": None, "pending": None, "questions": [], "combat": None,
                   "ability_used": [None, None], "bushido": [False, False], "fog": [False, False],
                   "hunt": [False, False], "hunting": [None, None], "result": None, "forced": list(forced),
                   "rng": seed, "cards": [0, 0], "terrain": None, "duel_declared": False, "extra": None}
        s = cls(game, rosters, d)
        s.data["units"] = [[new_unit(p) for p in s.profiles[seat].values()] for seat in (0, 1)]
        s.advance()
        s._finish()
        return s

    def clone(self) -> KenseiState:
        s = KenseiState.__new__(KenseiState)
        s.game, s.tables, s.rosters, s.profiles = self.game, self.tables, self.rosters, self.profiles
        # plain JSON data: a fast deep copy
        s.data, s.stack = pickle.loads(pickle.dumps((self.data, self.stack), pickle.HIGHEST_PROTOCOL))
        s.rng = self.rng.copy()
        s.events, s._ev, s._legal = (), [], None
        return s

    @property
    def d(self) -> JSON:
        """The state as saved (``phase``, ``pending`` and ``questions`` read from the tasks, in
        their places); a new object over the live data."""
        out: JSON = {}
        for k, v in self.data.items():
            out[k] = v
            if k == "turn":
                out["phase"] = self.phase
            elif k == "act":
                pending = next((t for t in self.stack if t["t"] in DECISIONS), None)
                out["pending"] = None if pending is None else to_pending(pending)
                out["questions"] = [to_question(t) for t in self.questions]
        return out

    def with_forced_dice(self, faces: Sequence[int | str]) -> KenseiState:
        """A copy whose next dice are ``faces`` (then the seeded generator again)."""
        vals: list[int] = []
        for f in faces:
            try:
                v = int(f)
            except (TypeError, ValueError):
                raise KassenError(f"forced dice must be numbers 1 to 6, got {f!r}") from None
            if not 1 <= v <= 6:
                raise KassenError(f"forced dice must be 1 to 6, got {v}")
            vals.append(v)
        s = self.clone()
        s.data["forced"] = list(s.data["forced"]) + vals
        return s

    @property
    def forced(self) -> list[int]:
        return list(self.data["forced"])

    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"{r.name} ({self.tables.sheet.clans[r.clan].name})" for r in self.rosters)

    # ------------------------------------------------------------------ protocol
    def to_move(self) -> int | None:
        if not self.stack:
            return None
        top = self.stack[-1]
        return int(top["seat"] if "seat" in top else self.data["mover"])

    # legal_actions: the task machine's (finished() once the stack is empty)

    # apply: the task machine's (kassen.engine.tasks); collecting the events also saves the RNG
    def fork(self) -> KenseiState:
        return self.clone()

    def why_illegal(self, action: str) -> str:
        return "not legal now" if self.legal_actions() else "the battle is over"

    def collect_events(self) -> None:
        self._finish()

    def _finish(self) -> None:
        self.data["rng"] = self.rng.state
        self.events = tuple(self._ev)
        self._ev = []
        self._legal = None

    def result(self) -> Result | None:
        r = self.data["result"]
        return None if r is None else Result(r["winner"], r["reason"], tuple(r.get("scores", ())))

    def to_json(self) -> JSON:
        return {"game": "kensei", "rules_version": self.game.rules_version, **json.loads(json.dumps(self.d))}

    @classmethod
    def from_json(cls, game: KenseiGame, data: JSON) -> KenseiState:
        if not isinstance(data, dict) or data.get("game") != "kensei":
            raise FormatError("kensei state: expected a JSON object with game = 'kensei'")
        try:
            names = data["rosters"]
            rosters = [read_roster(n) for n in names]
            d = {k: v for k, v in data.items() if k not in ("game", "rules_version")}
            s = cls(game, rosters, d)
            for seat in (0, 1):
                if [u["id"] for u in d["units"][seat]] != list(s.profiles[seat]):
                    raise FormatError(f"kensei state: the units of seat {seat} do not match roster {names[seat]!r}")
            return s
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            raise FormatError(f"kensei state: missing or malformed field {exc}") from None

    def observation(self, seat: int | None) -> JSON:
        d = self.d
        units = []
        for s in (0, 1):
            units.append([{**u, "name": self.profile(s, u["id"]).name,
                           **({"machine": m} if (m := self._machine_label(s, u["id"])) else {})}
                          for u in d["units"][s]])
        secondary = [d["secondary"][s] if seat == s or d["phase"] == "over" else None for s in (0, 1)]
        return {"game": "kensei", "viewer": seat, "seats": list(self.seat_names()), "phase": d["phase"],
                "turn": d["turn"], "scenario": d["scenario"], "secondary_mission_roll": secondary,
                "strategy": d["strategy"], "terrain": d["terrain"], "roles": d["roles"], "initiative": d["initiative"],
                "command_cards": d["cards"], "act": d["act"], "pending": d["pending"],
                "question": d["questions"][0] if d["questions"] else None, "units": units,
                "ability_used": d["ability_used"], "to_move": self.to_move(), "prompt": self.prompt(),
                "result": d["result"]}

    def _machine_label(self, s: int, uid: str) -> str | None:
        """The war machine a troop serves (K49), as the views show it, or None."""
        p = self.profile(s, uid)
        if p.machine is None:
            return None
        return f"{p.machine.name}" + (", engineer" if p.engineer else "")

    def secrets(self, seat: int | None) -> set[str]:
        return set()

    def determinize(self, seat: int, rng: Rng) -> KenseiState:
        """The hidden parts resampled: the other player's secret mission roll and the dice to come."""
        s = self.clone()
        s.rng = Rng(rng.next64())
        s.data["forced"] = []
        if s.phase != "over":
            s.data["secondary"][1 - seat] = rng.randbelow(6) + 1
        return s

    def prompt(self) -> str:
        if self.is_terminal():
            return ""
        top = self.stack[-1]
        if "text" in top:  # a question or a decision
            return str(top["text"])
        return str(self.data.get("prompt", "choose an action"))

    def heuristic(self, seat: int) -> float:
        res = self.result()
        if res is not None:
            return 0.0 if res.winner is None else (1.0 if res.winner == seat else -1.0)
        mine, theirs = self.share_lost(seat), self.share_lost(1 - seat)
        return max(-1.0, min(1.0, theirs - mine))
