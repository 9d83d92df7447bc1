"""Kensei's turn sequence as a state machine (003:12-96; rulings K25-K41).

A table companion: the miniatures stand on a real table, so whatever depends on it (did
the charge reach, how many miniatures are in contact, is the target in cover, which
range band) is asked of the player whose troop it is, as a decision. Dice come from the
state's seeded :class:`~kassen.engine.rng.Rng`, or from forced dice
(:meth:`KenseiState.with_forced_dice`). Procedures the sheet does not give (the Honour
roll, the command duel's card play) are played at the table and their outcome entered
(K27, K35).

Phases: ``role`` (the Strategy roll's winner chooses attacker or defender), ``duel``
(the player without the initiative may declare a Command duel), ``duel-result``,
``first`` (who activates first), ``activate`` (choosing the active units, or a clan
ability), ``order`` (the alternating orders), ``react`` (an affected troop's answer),
``interject`` (case 2: the defender's active unit's action order before the combat),
``ask`` (table questions and Honour rolls), ``over``.

All the changing data sits in one JSON object (``self.d``), so a state round-trips and
clones exactly.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from kassen.engine.errors import FormatError, IllegalActionError, KassenError
from kassen.engine.events import Event
from kassen.engine.protocol import Result, State
from kassen.engine.rng import Rng
from kassen.rulesets.kensei.data import Tables, load_tables
from kassen.rulesets.kensei.rolls import (
    Damage,
    Situation,
    apply_damage,
    hits,
    plan_melee,
    plan_shot,
    target_of,
)
from kassen.rulesets.kensei.roster import Roster, TroopProfile, profiles, read_roster

if TYPE_CHECKING:
    from kassen.rulesets.kensei.game import KenseiGame

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


def _unit(p: TroopProfile) -> JSON:
    return {"id": p.id, "left": p.miniatures, "wounds": 0, "stunned": 0, "leader": p.leader is not None,
            "leader_wounds": 0, "used": False, "fleeing": False, "sheltered": False, "retreat": False,
            "dishonoured": False, "unloaded": False, "strengthen": False, "ran": False, "poisoned": False,
            "bought": False, "lost_this_turn": 0, "lost_last_turn": 0, "leader_lost_this_turn": False,
            "leader_lost_last_turn": False}


#: orders whose whole effect on the troop is one marker: order -> (marker, value)
ORDER_MARKS: dict[str, tuple[str, bool]] = {
    "run": ("ran", True), "regroup": ("fleeing", False), "strengthen": ("strengthen", True),
    "reload": ("unloaded", False), "shelter": ("sheltered", True),
}


def _mark(u: JSON, verb: str) -> None:
    """Set the marker the order ``verb`` leaves on the troop ``u``."""
    marker, value = ORDER_MARKS[verb]
    u[marker] = value


class KenseiState(State):
    """One moment of a Kensei battle. Immutable from the outside."""

    def __init__(self, game: KenseiGame, rosters: Sequence[Roster], d: JSON, tables: Tables | None = None) -> None:
        self.game = game
        self.tables = tables or load_tables()
        self.rosters = list(rosters)
        self.profiles = [{p.id: p for p in profiles(r, self.tables)} for r in self.rosters]
        self.d = d
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
        d["units"] = [[_unit(p) for p in s.profiles[seat].values()] for seat in (0, 1)]
        s._setup()
        s._advance()
        s._finish()
        return s

    def clone(self) -> KenseiState:
        s = KenseiState.__new__(KenseiState)
        s.game, s.tables, s.rosters, s.profiles = self.game, self.tables, self.rosters, self.profiles
        s.d = pickle.loads(pickle.dumps(self.d, pickle.HIGHEST_PROTOCOL))  # plain JSON data: a fast deep copy
        s.rng = self.rng.copy()
        s.events, s._ev, s._legal = (), [], None
        return s

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
        s.d["forced"] = list(s.d["forced"]) + vals
        return s

    @property
    def forced(self) -> list[int]:
        return list(self.d["forced"])

    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"{r.name} ({self.tables.sheet.clans[r.clan].name})" for r in self.rosters)

    def name(self, seat: int) -> str:
        return self.rosters[seat].name

    def die(self) -> int:
        if self.d["forced"]:
            return int(self.d["forced"].pop(0))
        return self.rng.randbelow(6) + 1

    def emit(self, kind: str, data: JSON, text: str, visible_to: tuple[int, ...] | None = None,
             redacted: Event | None = None) -> None:
        self._ev.append(Event(kind, data, text, visible_to, redacted))

    def unit(self, seat: int, uid: str) -> JSON:
        units: list[JSON] = self.d["units"][seat]
        for u in units:
            if u["id"] == uid:
                return u
        raise KeyError(uid)

    def profile(self, seat: int, uid: str) -> TroopProfile:
        return self.profiles[seat][uid]

    def alive(self, seat: int) -> list[JSON]:
        return [u for u in self.d["units"][seat] if u["left"] > 0]

    def label(self, seat: int, uid: str) -> str:
        return f"{self.profile(seat, uid).name} ({self.name(seat)})"

    # ------------------------------------------------------------------ protocol
    def to_move(self) -> int | None:
        if self.d["phase"] == "over":
            return None
        q = self.d["questions"]
        if q:
            return int(q[0]["seat"])
        pending = self.d["pending"]
        if pending is not None:
            return int(pending["seat"])
        return int(self.d["mover"])

    def legal_actions(self) -> list[str]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def apply(self, action: str) -> KenseiState:
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(action, "not legal now" if legal else "the battle is over", legal)
        s = self.clone()
        s._do(action)
        s._advance()
        s._finish()
        return s

    def _finish(self) -> None:
        self.d["rng"] = self.rng.state
        self.events = tuple(self._ev)
        self._ev = []
        self._legal = None

    def result(self) -> Result | None:
        r = self.d["result"]
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
        except (KeyError, TypeError, IndexError) as exc:
            raise FormatError(f"kensei state: missing or malformed field {exc}") from None

    def observation(self, seat: int | None) -> JSON:
        d = self.d
        units = []
        for s in (0, 1):
            units.append([{**u, "name": self.profile(s, u["id"]).name} for u in d["units"][s]])
        secondary = [d["secondary"][s] if seat == s or d["phase"] == "over" else None for s in (0, 1)]
        return {"game": "kensei", "viewer": seat, "seats": list(self.seat_names()), "phase": d["phase"],
                "turn": d["turn"], "scenario": d["scenario"], "secondary_mission_roll": secondary,
                "strategy": d["strategy"], "terrain": d["terrain"], "roles": d["roles"], "initiative": d["initiative"],
                "command_cards": d["cards"], "act": d["act"], "pending": d["pending"],
                "question": d["questions"][0] if d["questions"] else None, "units": units,
                "ability_used": d["ability_used"], "to_move": self.to_move(), "prompt": self.prompt(),
                "result": d["result"]}

    def secrets(self, seat: int | None) -> set[str]:
        return set()

    def determinize(self, seat: int, rng: Rng) -> KenseiState:
        """The hidden parts resampled: the other player's secret mission roll and the dice to come."""
        s = self.clone()
        s.rng = Rng(rng.next64())
        s.d["forced"] = []
        if s.d["phase"] != "over":
            s.d["secondary"][1 - seat] = rng.randbelow(6) + 1
        return s

    def prompt(self) -> str:
        if self.is_terminal():
            return ""
        q = self.d["questions"]
        if q:
            return str(q[0]["text"])
        p = self.d["pending"]
        if p is not None:
            return str(p["text"])
        return str(self.d.get("prompt", "choose an action"))

    def heuristic(self, seat: int) -> float:
        res = self.result()
        if res is not None:
            return 0.0 if res.winner is None else (1.0 if res.winner == seat else -1.0)
        mine, theirs = self.share_lost(seat), self.share_lost(1 - seat)
        return max(-1.0, min(1.0, theirs - mine))

    def share_lost(self, seat: int) -> float:
        total = sum(p.miniatures for p in self.profiles[seat].values())
        left = sum(u["left"] for u in self.d["units"][seat])
        return (total - left) / total if total else 0.0

    # ------------------------------------------------------------------ set-up (003:12-30)
    def _setup(self) -> None:
        d = self.d
        t = self.tables
        if d["scenario"] is None:
            roll = self.die()
            d["scenario"] = t.scenario(roll).id
            self.emit("scenario", {"roll": roll, "scenario": d["scenario"]},
                      f"Scenario roll {roll}: {t.scenario(roll).name} (003:32-35)")
        for s in (0, 1):
            d["secondary"][s] = self.die()
            self.emit("secondary", {"seat": s}, f"{self.name(s)} rolls its secret secondary mission", visible_to=(s,),
                      redacted=Event("secondary", {"seat": s}, f"{self.name(s)} rolls its secret secondary mission"))
        while True:
            rolls = [self.die(), self.die()]
            tot = [rolls[s] + t.sheet.commanders[self.rosters[s].commander].strategy for s in (0, 1)]
            d["strategy"] = tot
            self.emit("strategy", {"rolls": rolls, "totals": tot},
                      f"Strategy roll: {self.name(0)} {rolls[0]}+{tot[0] - rolls[0]} = {tot[0]}, "
                      f"{self.name(1)} {rolls[1]}+{tot[1] - rolls[1]} = {tot[1]} (003:20)")
            if tot[0] != tot[1]:
                break
            self.emit("strategy-tie", {}, "A tie: both roll again (K26)")
        d["strategy_winner"] = w = 0 if tot[0] > tot[1] else 1
        roll = self.die()
        extra = [t.sheet.commanders[self.rosters[s].commander].terrain for s in (0, 1)]
        d["terrain"] = {"generic": roll + 1, "extra": extra}
        self.emit("terrain", {"roll": roll, "generic": roll + 1, "extra": extra},
                  f"{self.name(w)} won the Strategy roll and rolls {roll} + 1: {roll + 1} generic scenery elements, "
                  f"ground-changing ones first, then the mission's, then the rest; extra elements: {self.name(0)} "
                  f"+{extra[0]}, {self.name(1)} +{extra[1]} (003:24). Place them in turns at the table.")
        for s in (0, 1):
            if self.rosters[s].ability == "poison":
                self._use_ability(s, "poison")
        d["phase"] = "role"
        d["mover"] = d["strategy_winner"]
        d["prompt"] = "the Strategy roll's winner chooses the side of the table and the role (003:28)"

    # ------------------------------------------------------------------ the automatic flow
    def _advance(self) -> None:
        d = self.d
        for _ in range(1000):
            if d["phase"] == "over" or d["questions"] or d["pending"] is not None:
                return
            ph = d["phase"]
            if ph == "turn-start":
                self._maintenance()
            elif ph == "activation-round":
                self._activation_round()
            elif ph == "order-roll":
                self._order_roll()
            elif ph == "orders":
                if not self._next_order():
                    return
            elif ph == "end-activation":
                self._end_activation()
            else:
                return
        raise KassenError("kensei: the turn sequence did not settle")  # pragma: no cover

    def _maintenance(self) -> None:
        """003:39-44: army in retreat, command cards, Honour rolls, regeneration, clean-up."""
        d = self.d
        d["turn"] += 1
        if d["turn"] > TURNS:
            self._end_by_turns()
            return
        self.emit("turn", {"turn": d["turn"]}, f"Turn {d['turn']}: maintenance")
        if d["turn"] > 1:
            for s in (0, 1):
                if self._in_retreat(s):
                    self._end(1 - s, f"{self.name(s)}'s army is in retreat (75% of its units lost or retreating, K38)")
                    return
        for s in (0, 1):
            r = self.rosters[s]
            d["cards"][s] = self.tables.command_cards(r.points, r.commander)
        self.emit("cards", {"cards": d["cards"]},
                  f"Command cards this turn: {self.name(0)} {d['cards'][0]}, {self.name(1)} {d['cards'][1]} (003:7-10)")
        for s in (0, 1):  # the turn that ended becomes "the previous turn"
            for u in d["units"][s]:
                u["lost_last_turn"], u["lost_this_turn"] = u["lost_this_turn"], 0
                u["leader_lost_last_turn"], u["leader_lost_this_turn"] = u["leader_lost_this_turn"], False
        for s in (0, 1):
            for u in self.alive(s):
                p = self.profile(s, u["id"])
                if p.title.regeneration and d["turn"] > 1 and (u["lost_last_turn"] or u["leader_lost_last_turn"]):
                    roll = self.die()
                    if roll == 6:
                        if u["lost_last_turn"]:
                            u["left"] += 1
                        else:
                            u["left"] += 1
                            u["leader"] = True
                            u["leader_wounds"] = (p.leader_wo - 1) if p.leader else 0
                        self.emit("regenerate", {"unit": u["id"], "roll": roll},
                                  f"{self.label(s, u['id'])} regenerates a casualty (a natural 6, 003:252)")
                    else:
                        self.emit("regenerate", {"unit": u["id"], "roll": roll},
                                  f"{self.label(s, u['id'])} rolls {roll} to regenerate: nothing (003:252)")
        for s in (0, 1):
            for u in self.alive(s):
                if u["retreat"]:
                    self._ask(s, "honour-retreat", ["honour pass", "honour fail"],
                              f"Honour roll for {self.label(s, u['id'])} ({self._ho(s, u['id'])}), in retreat "
                              f"(003:43); roll it at the table (K27) and enter the result", unit=u["id"])
        d["phase"] = "turn-cleanup"
        if not d["questions"]:
            self._cleanup()

    def _cleanup(self) -> None:
        d = self.d
        for s in (0, 1):
            for u in d["units"][s]:
                u["used"] = False
                u["fleeing"] = False
                u["sheltered"] = False
                u["strengthen"] = False
                u["ran"] = False
                u["bought"] = False
                if not u["poisoned"]:
                    u["stunned"] = 0
        d["bushido"], d["fog"], d["hunt"] = [False, False], [False, False], [False, False]
        self.emit("cleanup", {}, "Used Unit, Stunned Unit (not poison) and Fleeing, Sheltered markers removed (K25)")
        a, b = self.die(), self.die()
        while a == b:
            self.emit("initiative-tie", {"rolls": [a, b]}, f"Initiative roll {a}-{b}: a tie, roll again (K26)")
            a, b = self.die(), self.die()
        d["initiative"] = 0 if a > b else 1
        self.emit("initiative", {"rolls": [a, b], "seat": d["initiative"]},
                  f"Initiative roll: {self.name(0)} {a}, {self.name(1)} {b}: {self.name(d['initiative'])} "
                  f"has the initiative (003:48)")
        d["phase"] = "duel"
        d["duel_declared"] = False
        d["mover"] = 1 - d["initiative"]
        d["prompt"] = "declare a Command duel to steal the initiative, or not (003:52)"

    def _in_retreat(self, s: int) -> bool:
        units = self.d["units"][s]
        out = sum(1 for u in units if u["left"] == 0 or u["retreat"])
        return out >= RETREAT_SHARE * len(units)

    def _end(self, winner: int | None, reason: str) -> None:
        d = self.d
        d["phase"] = "over"
        d["questions"], d["pending"] = [], None
        d["result"] = {"winner": winner, "reason": reason, "scores": [self.share_lost(1), self.share_lost(0)]}
        self.emit("over", {"winner": winner}, f"The battle ends: {reason}")

    def _end_by_turns(self) -> None:
        lost = [self.share_lost(0), self.share_lost(1)]
        if lost[0] == lost[1]:
            self._end(None, f"{TURNS} turns played, both armies lost the same share: a draw (K38; score the "
                            f"scenario's missions at the table)")
        else:
            w = 0 if lost[0] < lost[1] else 1
            self._end(w, f"{TURNS} turns played; {self.name(w)} lost the smaller share of its miniatures "
                         f"({lost[w]:.0%} against {lost[1 - w]:.0%}) (K38; score the scenario's missions at the table)")

    # ------------------------------------------------------------------ activation (003:50-57)
    def can_activate(self, s: int) -> list[str]:
        return [u["id"] for u in self.alive(s) if not u["used"] and not u["retreat"] and not u["bought"]]

    def _activation_round(self) -> None:
        d = self.d
        avail = [self.can_activate(0), self.can_activate(1)]
        if not avail[0] and not avail[1]:
            self._end_turn()
            return
        if d["extra"] is not None:  # the extra activation was the turn's last (003:57)
            self._end_turn()
            return
        if not avail[0] or not avail[1]:
            s = 0 if avail[0] else 1
            d["extra"] = s
            self.emit("extra", {"seat": s}, f"{self.name(1 - s)} has used all his troops: {self.name(s)} makes one "
                                            f"extra activation, then the turn ends (003:57)")
            d["act"] = {"first": s, "active": [None, None], "orders": [0, 0], "ki": [False, False],
                        "combat": [False, False], "turn_of": s, "ordered": [[], []], "solo": s}
            d["phase"] = "activate"
            d["mover"] = s
            d["prompt"] = "choose the troop for the extra activation"
            return
        d["act"] = None
        d["phase"] = "first"
        d["mover"] = d["initiative"]
        d["prompt"] = "the player with the initiative chooses who activates a troop first (003:53)"

    def _end_turn(self) -> None:
        d = self.d
        d["extra"] = None
        d["act"] = None
        self.emit("turn-end", {"turn": d["turn"]}, f"End of turn {d['turn']}")
        d["phase"] = "turn-start"

    def _ini(self, s: int, uid: str) -> int:
        u = self.unit(s, uid)
        p = self.profile(s, uid)
        return p.cls.ini - (1 if u["dishonoured"] else 0) + (2 if self.d["bushido"][s] else 0)

    def _order_roll(self) -> None:
        d = self.d
        act = d["act"]
        for s in (0, 1):
            uid = act["active"][s]
            if uid is None:
                continue
            roll = self.die()
            ini = self._ini(s, uid)
            band = self.tables.order_band(roll + ini)
            act["orders"][s], act["ki"][s] = band.orders, band.ki
            self.emit("order-roll", {"seat": s, "unit": uid, "roll": roll, "ini": ini, "orders": band.orders,
                                     "ki": band.ki},
                      f"Order roll for {self.label(s, uid)}: {roll} + INI {ini} = {roll + ini}: {band.orders} order(s)"
                      + (", Ki ability active this turn" if band.ki else "") + f" ({band.source})")
        act["turn_of"] = act["first"]
        d["phase"] = "orders"

    def _next_order(self) -> bool:
        """Whose order it is (alternating, 003:55); False when a decision is due."""
        d = self.d
        act = d["act"]
        s = act["turn_of"]
        if act["orders"][s] <= 0 or act["active"][s] is None or self._gone(s, act["active"][s]):
            s = 1 - s
            if act["orders"][s] <= 0 or act["active"][s] is None or self._gone(s, act["active"][s]):
                d["phase"] = "end-activation"
                return True
        act["turn_of"] = s
        d["mover"] = s
        d["prompt"] = f"an order for {self.label(s, act['active'][s])} ({act['orders'][s]} left)"
        return False

    def _gone(self, s: int, uid: str) -> bool:
        return bool(self.unit(s, uid)["left"] == 0)

    def _end_activation(self) -> None:
        d = self.d
        act = d["act"]
        for s in (0, 1):
            for uid in set(act["ordered"][s]) | ({act["active"][s]} if act["active"][s] else set()):
                self.unit(s, uid)["used"] = True
        d["hunting"] = [None, None]
        self.emit("used", {}, "Used Unit markers placed on every troop that got an order (003:56)")
        if act.get("solo") is not None:
            self._end_turn()
        else:
            d["phase"] = "activation-round"

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> list[str]:
        d = self.d
        if d["phase"] == "over":
            return []
        if d["questions"]:
            return list(d["questions"][0]["options"])
        p = d["pending"]
        if p is not None:
            return list(p["options"])
        ph = d["phase"]
        s = int(d["mover"])
        if ph == "role":
            return ["role attacker", "role defender"]
        if ph == "duel":
            return ["duel", "no duel"]
        if ph == "duel-result":
            return ["duel won", "duel lost"]
        if ph == "first":
            return ["first me", "first opponent"]
        if ph == "activate":
            return [f"activate {uid}" for uid in self.can_activate(s)] + self._ability_actions(s)
        if ph == "orders":
            return self._order_actions(s)
        return []  # pragma: no cover

    def _ability_actions(self, s: int) -> list[str]:
        d = self.d
        act = d["act"]
        if d["ability_used"][s] is not None or act is None or act.get("solo") is not None \
                or act["active"] != [None, None]:
            return []
        clan = self.tables.sheet.clans[self.rosters[s].clan]
        ids = [a.id for a in clan.abilities if self.rosters[s].ability in (None, a.id) and a.id != "poison"]
        out = []
        for a in ids:
            if a == "buy-the-enemy":
                out += [f"use buy-the-enemy {uid}" for uid in self.can_activate(1 - s)]
            else:
                out.append(f"use {a}")
        return out

    def _order_actions(self, s: int) -> list[str]:
        d = self.d
        act = d["act"]
        uid = act["active"][s]
        p = self.profile(s, uid)
        u = self.unit(s, uid)
        forbidden = set(p.title.forbidden_orders)
        out = [o for o in MOVE_ORDERS if o not in forbidden]
        targets = [e["id"] for e in self.alive(1 - s)]
        if not act["combat"][s]:
            out += [f"attack {t}" for t in targets] + [f"charge {t}" for t in targets]
            if "disengage" not in forbidden:
                out.append("disengage")
            if p.ranged is not None and not u["unloaded"]:
                out += [f"shoot {t}" for t in targets]
        out += [o for o in STATIC_ORDERS if o != "reload" or u["unloaded"]]
        if p.cls.ki is not None or p.troop.klass in SPIRITUAL_CLASSES:
            out += list(SPIRITUAL_ORDERS)
        return out

    # ------------------------------------------------------------------ questions
    def _ask(self, seat: int, key: str, options: list[str], text: str, **extra: Any) -> None:
        self.d["questions"].append({"seat": seat, "key": key, "options": options, "text": text, **extra})

    # ------------------------------------------------------------------ applying an action
    def _do(self, action: str) -> None:
        d = self.d
        if d["questions"]:
            q = d["questions"].pop(0)
            self._answer(q, action)
            return
        if d["pending"] is not None:
            p = d["pending"]
            d["pending"] = None
            self._pending_answer(p, action)
            return
        ph = d["phase"]
        s = int(d["mover"])
        if ph == "role":
            role = action.split()[1]
            d["roles"][s], d["roles"][1 - s] = role, "defender" if role == "attacker" else "attacker"
            self.emit("role", {"seat": s, "role": role},
                      f"{self.name(s)} chooses the side of the table and plays the {role} (003:28); deployment "
                      f"at the table, {self.name(s)} first")
            d["phase"] = "turn-start"
        elif ph == "duel":
            if action == "duel":
                d["duel_declared"] = True
                d["phase"] = "duel-result"
                d["prompt"] = ("play the Command duel with your command cards at the table (K35) and enter "
                               "whether you won it")
                self.emit("duel", {"seat": s}, f"{self.name(s)} declares a Command duel (003:52)")
            else:
                d["phase"] = "activation-round"
        elif ph == "duel-result":
            if action == "duel won":
                d["initiative"] = s
                self.emit("duel-won", {"seat": s}, f"{self.name(s)} wins the Command duel and takes the initiative")
            else:
                self.emit("duel-lost", {"seat": s}, f"{self.name(s)} loses the Command duel")
            d["phase"] = "activation-round"
        elif ph == "first":
            first = s if action == "first me" else 1 - s
            d["act"] = {"first": first, "active": [None, None], "orders": [0, 0], "ki": [False, False],
                        "combat": [False, False], "turn_of": first, "ordered": [[], []], "solo": None}
            d["phase"] = "activate"
            d["mover"] = first
            d["prompt"] = "choose your active troop (003:53)"
            self.emit("first", {"seat": first}, f"{self.name(first)} activates a troop first")
        elif ph == "activate":
            if action.startswith("use "):
                self._use_ability(s, *action.split()[1:])
                d["phase"] = "activation-round"  # who activates first is asked again (K9)
                return
            uid = action.split()[1]
            act = d["act"]
            act["active"][s] = uid
            if d["hunt"][s]:
                d["hunting"][s], d["hunt"][s] = uid, False
            self.emit("activate", {"seat": s, "unit": uid}, f"{self.name(s)} activates {self.label(s, uid)}")
            if act.get("solo") is None and act["active"][1 - s] is None:
                d["mover"] = 1 - s
            else:
                d["phase"] = "order-roll"
        elif ph == "orders":
            self._order(s, action)

    def _use_ability(self, s: int, aid: str, target: str | None = None) -> None:
        d = self.d
        clan = self.tables.sheet.clans[self.rosters[s].clan]
        ab = next(a for a in clan.abilities if a.id == aid)
        d["ability_used"][s] = aid
        text = f"{self.name(s)} uses {ab.name} ({clan.source}): {ab.text}"
        if aid == "bushido-law":
            d["bushido"][s] = True
        elif aid == "death-fog":
            d["fog"][1 - s] = True
        elif aid == "hunt-down-the-leader":
            d["hunt"][s] = True
        elif aid == "buy-the-enemy" and target is not None:
            self.unit(1 - s, target)["bought"] = True
            text += f" Bought: {self.label(1 - s, target)}."
        elif aid == "poison":
            for u in d["units"][1 - s]:
                if "poison" not in self.profile(1 - s, u["id"]).title.immune:
                    u["stunned"], u["poisoned"] = 1, True
        if aid not in ENGINE_ABILITIES:
            text += " (played at the table; Kassen records it, K9)"
        self.emit("ability", {"seat": s, "ability": aid}, text)

    # ------------------------------------------------------------------ orders and reactions (003:59-96)
    def _spend(self, s: int) -> None:
        act = self.d["act"]
        act["orders"][s] = max(0, act["orders"][s] - 1)

    def _mark(self, s: int, uid: str) -> None:
        ordered = self.d["act"]["ordered"][s]
        if uid not in ordered:
            ordered.append(uid)

    def _order(self, s: int, action: str) -> None:
        d = self.d
        act = d["act"]
        uid = act["active"][s]
        u = self.unit(s, uid)
        self._spend(s)
        self._mark(s, uid)
        act["turn_of"] = 1 - s
        verb, _, target = action.partition(" ")
        order = self.tables.sheet.orders.get(verb)
        src = f" ({order.source})" if order else ""
        self.emit("order", {"seat": s, "unit": uid, "order": action},
                  f"{self.label(s, uid)}: {order.name if order else verb}{' ' + self.label(1 - s, target) if target else ''}{src}")
        if verb in ("attack", "charge", "shoot"):
            act["combat"][s] = True
            self._targeted(s, uid, verb, target)
            return
        if verb in ORDER_MARKS:
            _mark(u, verb)
        elif verb == "disengage":
            act["combat"][s] = True
        if verb in ("move", "run", "regroup", "disengage"):
            self._movement_reactions(s, uid, verb)

    def _movement_reactions(self, s: int, uid: str, verb: str) -> None:
        """Case 1 or a reaction to a moving troop (003:89-95): the opponent says whether a troop reacts."""
        q = 1 - s
        mover_spectre = self.profile(s, uid).troop.title == "spectre"
        options = ["no reaction"]
        for e in self.alive(q):
            if e["retreat"]:
                continue
            pe = self.profile(q, e["id"])
            if mover_spectre and pe.troop.klass not in SPIRITUAL_CLASSES:
                continue  # 003:254
            options.append(f"react {e['id']} opportunity-charge")
            if pe.ranged is not None and not e["unloaded"]:
                options.append(f"react {e['id']} hold-and-shoot")
        self.d["pending"] = {"seat": q, "kind": "movement", "mover": [s, uid], "options": options,
                             "text": f"{self.label(s, uid)} carries out a {verb} order: does one of your troops "
                                     f"react to it at the table? (003:89)"}

    def _targeted(self, s: int, uid: str, verb: str, target: str) -> None:
        """An attack, charge or shot on ``target``: the affected troop's case (003:91-95)."""
        d = self.d
        act = d["act"]
        q = 1 - s
        tu = self.unit(q, target)
        tp = self.profile(q, target)
        melee = verb in ("attack", "charge")
        combat = {"attacker": [s, uid], "target": [q, target], "verb": verb, "defence": None}
        is_active = act["active"][q] == target
        if melee and tu["used"] and not is_active:
            # case 2: forced Attack reaction, no order; first the defender's active unit acts
            combat["defence"] = "forced"
            self.emit("case-2", {"unit": target},
                      f"{self.label(q, target)} has a Used Unit marker: it must fight with the Attack reaction (003:92)")
            qa = act["active"][q]
            if qa is not None and act["orders"][q] > 0 and not self._gone(q, qa):
                d["pending"] = {"seat": q, "kind": "interject", "combat": combat,
                                "options": [o for o in self._order_actions(q) if o.split()[0] in
                                            (*MOVE_ORDERS, *STATIC_ORDERS, *SPIRITUAL_ORDERS)],
                                "text": f"before the combat, give {self.label(q, qa)} an action order (003:92, K31)"}
                return
            self._start_combat(combat)
            return
        options: list[str] = []
        flee = "flee" not in tp.title.forbidden_orders and not tu["retreat"]
        if is_active and act["orders"][q] > 0 and not act["combat"][q] and not self._gone(q, target):
            case = 4
            if melee:
                options.append("action attack")
            elif tp.ranged is not None and not tu["unloaded"]:
                options.append("action shoot")
        else:
            case = 5
        if melee:
            options.append("reaction attack")
            if verb == "charge" and tp.ranged is not None and not tu["unloaded"]:
                options.append("reaction hold-and-shoot")
        elif tp.ranged is not None and not tu["unloaded"]:
            options.append("reaction hold-and-shoot")
        if flee:
            options.append("reaction flee")
        if not melee:
            options.append("no reaction")
        d["pending"] = {"seat": q, "kind": "targeted", "case": case, "combat": combat, "options": options,
                        "text": f"{self.label(q, target)} is the target of a {verb} by {self.label(s, uid)}: "
                                f"answer (003:{94 if case == 4 else 95})"}

    def _pending_answer(self, p: JSON, action: str) -> None:
        d = self.d
        act = d["act"]
        q = int(p["seat"])
        if p["kind"] == "interject":
            qa = act["active"][q]
            self._spend(q)
            self._mark(q, qa)
            verb = action.split()[0]
            u = self.unit(q, qa)
            self.emit("order", {"seat": q, "unit": qa, "order": action},
                      f"{self.label(q, qa)}: {self.tables.sheet.orders[verb].name} (before the combat, 003:92)")
            if verb in ORDER_MARKS:
                _mark(u, verb)
            self._start_combat(p["combat"])
            return
        if p["kind"] == "movement":
            if action == "no reaction":
                return
            _, rid, what = action.split()
            s, mover = p["mover"]
            self._react_spend(q, rid)
            self.emit("reaction", {"seat": q, "unit": rid, "order": what},
                      f"{self.label(q, rid)} reacts: {self.tables.sheet.orders[what].name} on {self.label(s, mover)} "
                      f"({self.tables.sheet.orders[what].source})")
            verb = "charge" if what == "opportunity-charge" else "shoot"
            self._start_combat({"attacker": [q, rid], "target": [s, mover], "verb": verb, "defence": None,
                                "reaction": True})
            return
        combat = p["combat"]
        q, target = combat["target"]
        s, uid = combat["attacker"]
        case = p["case"]
        if action == "no reaction":
            self._start_combat(combat)
            return
        kind, what = action.split()
        if case == 4 or act["orders"][q] > 0:
            self._spend(q)
        self._mark(q, target)
        if kind == "action":
            act["combat"][q] = True
        label = {"attack": "Attack", "shoot": "Shoot", "hold-and-shoot": "Hold and shoot", "flee": "Flee"}[what]
        self.emit("reaction", {"seat": q, "unit": target, "answer": action},
                  f"{self.label(q, target)} answers with the {kind} order {label} (003:{94 if case == 4 else 95})")
        if what == "flee":
            self.unit(q, target)["fleeing"] = True
            self.emit("flee", {"unit": target}, f"{self.label(q, target)} flees: a Fleeing Unit marker; make the flee "
                                                f"movement at the table, the {combat['verb']} finds no one (K32)")
            return
        if what == "hold-and-shoot":
            combat["hold"] = True
        if combat["verb"] == "shoot":
            if what in ("shoot", "hold-and-shoot"):
                combat["shoot_back"] = True
            self._start_combat(combat)
            return
        combat["defence"] = "action" if kind == "action" else "reaction"
        self._start_combat(combat)

    def _react_spend(self, q: int, rid: str) -> None:
        act = self.d["act"]
        if act["active"][q] == rid or act["orders"][q] > 0:
            self._spend(q)
        self._mark(q, rid)

    # ------------------------------------------------------------------ combat (003:97-108)
    def _start_combat(self, c: JSON) -> None:
        """Queue the table questions of a combat; it resolves when they are answered."""
        d = self.d
        s, uid = c["attacker"]
        q, target = c["target"]
        if self._gone(s, uid) or self._gone(q, target):
            return
        d["combat"] = c
        c["answers"] = {}
        n0 = len(d["questions"])
        p, tp = self.profile(s, uid), self.profile(q, target)
        if c.get("hold"):
            self._shot_questions(q, target, s, uid, "hold")
        if c["verb"] == "shoot":
            self._shot_questions(s, uid, q, target, "a")
            if c.get("shoot_back"):
                self._shot_questions(q, target, s, uid, "back")
        else:
            if c["verb"] == "charge":
                self._ask(s, "charge", ["charge reached-outside", "charge reached-inside", "charge missed"],
                          f"did {p.name}'s charge reach {tp.name}, and did it begin out of the enemy's control area? "
                          f"(003:123)")
            self._melee_questions(s, uid, "a")
            self._melee_questions(q, target, "b")
            self._ask(s, "position", ["position front", "position flank", "position rear"],
                      f"where does {p.name} attack {tp.name}? (003:135-136)")
            for side, (ss, su) in (("a", (s, uid)), ("b", (q, target))):
                self._ask(ss, f"cover-{side}", ["cover no", "cover yes"],
                          f"is {self.profile(ss, su).name} behind cover? (003:133)")
        self._ask(s, "resolve", ["roll"], "roll the dice (or type them: kassen run --dice)")
        for x in d["questions"][n0:]:
            x["combat"] = True

    def _melee_questions(self, s: int, uid: str, side: str) -> None:
        p, u = self.profile(s, uid), self.unit(s, uid)
        rank = u["left"] - (1 if u["leader"] else 0)
        if not p.single and rank > 0:
            self._ask(s, f"contact-{side}", [f"contact {n}" for n in range(1, rank + 1)],
                      f"how many of {p.name}'s miniatures (not the leader) are in hand to hand combat? (003:119)")
        if u["leader"] and not p.single and u["left"] > 1:
            self._ask(s, f"leader-{side}", ["leader direct", "leader support"],
                      f"is {p.name}'s unit leader in direct combat or in support? (003:120)")
        if not p.single:
            opts = ["order formed", "order broken"] + ([] if p.troop.skirmishers else ["order ranks"])
            self._ask(s, f"order-{side}", opts, f"{p.name}: in formation, with two complete ranks in closed formation, "
                                                f"or out of cohesion? (003:121, 003:127)")
        if p.melee_type == 2:
            self._ask(s, f"opponents-{side}", ["opponents one", "opponents many"],
                      f"does a miniature of {p.name} fight several opponents? (003:223)")

    def _shot_questions(self, s: int, uid: str, q: int, target: str, side: str) -> None:
        p, u = self.profile(s, uid), self.unit(s, uid)
        w = p.ranged
        bands = [b for b in ("short", "mid", "long") if ("short", "mid", "long").index(b) <= ("short", "mid", "long").index(w.band)]
        self._ask(s, f"band-{side}", [f"band {b}" for b in bands] + ["band out-of-range"],
                  f"{p.name} shoots {self.profile(q, target).name}: at what range? (003:111-113)")
        rank = u["left"] - (1 if u["leader"] else 0) - (1 if p.troop.banner else 0)  # 003:156
        if not p.single and rank > 0:
            self._ask(s, f"edges-{side}", [f"edges {n}" for n in range(0, rank + 1)],
                      f"how many of {p.name}'s miniatures on the front or flank edges see the target? (003:156)")
            self._ask(s, f"formation-{side}", ["formation in", "formation out"], f"is {p.name} in formation? (003:160)")
        if u["leader"] and not p.single:
            self._ask(s, f"leader-{side}", ["leader sees", "leader hidden"],
                      f"is {p.name}'s leader on the edge with line of sight? (003:157)")
        tu = self.unit(q, target)
        self._ask(q, f"cover-{side}", ["cover no", "cover yes"],
                  f"is {self.profile(q, target).name} behind cover from this shot? (003:168)")
        if tu["leader"] and not self.profile(q, target).single:
            self._ask(q, f"visible-{side}", ["visible no", "visible yes"],
                      f"is {self.profile(q, target).name}'s leader a visible target? (003:144)")

    def _answer(self, q: JSON, action: str) -> None:
        d = self.d
        key = q["key"]
        if key == "honour-retreat":
            s = int(q["seat"])
            u = self.unit(s, q["unit"])
            if action == "honour pass":
                u["retreat"] = False
                self.emit("honour", {"unit": u["id"], "pass": True}, f"{self.label(s, u['id'])} passes its Honour "
                                                                     f"roll and rallies (K28)")
            else:
                self.emit("honour", {"unit": u["id"], "pass": False},
                          f"{self.label(s, u['id'])} fails its Honour roll: it keeps retreating (flee movement at the "
                          f"table, K28)")
            if not d["questions"] and d["phase"] == "turn-cleanup":
                self._cleanup()
            return
        if key in ("honour", "samurai"):
            self._honour_answer(q, action)
            return
        if key.startswith("crits"):
            c = d["combat"]
            c["answers"][key] = action.split()[1]
            if not any(x["key"].startswith("crits") for x in d["questions"]):
                self._apply_combat()
            return
        c = d["combat"]
        if key == "resolve":
            self._roll_combat()
            return
        c["answers"][key] = action.split(maxsplit=1)[1]
        if key == "charge" and c["answers"][key] == "missed":
            d["questions"] = [x for x in d["questions"] if not x.get("combat")]
            s, uid = c["attacker"]
            self.emit("charge-missed", {"unit": uid}, f"{self.label(s, uid)}'s charge falls short: no combat (K32)")
            d["combat"] = None

    # ------------------------------------------------------------------ rolling
    def _situation(self, s: int, uid: str, side: str, c: JSON, attacking: bool) -> Situation:
        u = self.unit(s, uid)
        a = c["answers"]
        order = a.get(f"order-{side}", "formed")
        charge = c["verb"] == "charge" and attacking
        defence = c.get("defence")
        return Situation(
            charge=charge, charge_from_outside=a.get("charge", "reached-outside") == "reached-outside",
            in_formation=order != "broken" and a.get(f"formation-{side}", "in") == "in",
            complete_ranks=order == "ranks", strengthen=u["strengthen"], used=u["used"],
            reaction_attack=not attacking and defence in ("reaction", "forced"),
            out_of_cohesion=order == "broken", fleeing=u["fleeing"] or u["retreat"], sheltered=u["sheltered"],
            banner_front=charge, leader=self._leader_role(u, a, side),
            in_contact=int(a.get(f"contact-{side}", a.get(f"edges-{side}", 0))),
            multiple_opponents=a.get(f"opponents-{side}") == "many",
            position=a.get("position", "front") if attacking else "front",
            death_fog=self.d["fog"][s], hunt_leader=self.d["hunting"][s] == uid, cover=a.get(f"cover-{side}") == "yes",
            ran=u["ran"], miniatures=u["left"], wounds=u["wounds"], stunned=u["stunned"], leader_alive=u["leader"],
            leader_wounds=u["leader_wounds"], wo_bonus=2 if self.d["bushido"][s] else 0)

    @staticmethod
    def _leader_role(u: JSON, a: JSON, side: str) -> Any:
        if not u["leader"]:
            return "none"
        v = a.get(f"leader-{side}")
        if v in ("direct", "sees"):
            return "direct"
        if v == "support":
            return "support"
        return "none"

    def _roll(self, n: int) -> list[int]:
        return [self.die() for _ in range(n)]

    def _roll_combat(self) -> None:
        d = self.d
        c = d["combat"]
        s, uid = c["attacker"]
        q, target = c["target"]
        a = c["answers"]
        rolls: list[JSON] = []
        if c["verb"] == "shoot" or c.get("hold"):
            pairs = []
            if c.get("hold"):
                pairs.append((q, target, s, uid, "hold"))
            if c["verb"] == "shoot":
                pairs.append((s, uid, q, target, "a"))
                if c.get("shoot_back"):
                    pairs.append((q, target, s, uid, "back"))
            for (x, xu, y, yu, side) in pairs:
                if a.get(f"band-{side}") == "out-of-range":
                    self.emit("out-of-range", {"unit": xu}, f"{self.label(x, xu)}: the target is out of range, no shot")
                    continue
                sx = replace(self._situation(x, xu, side, c, True), range_band=a.get(f"band-{side}", "short"),
                             charge=False, banner_front=False, position="front",
                             leader="direct" if a.get(f"leader-{side}") == "sees" else "none")
                sy = replace(self._situation(y, yu, side, {**c, "answers": {f"cover-{side}": a.get(f"cover-{side}")}},
                                             False),
                             leader="direct" if a.get(f"visible-{side}") == "yes" else "none")
                rolls.append(self._one_roll(x, xu, y, yu, sx, sy, "shooting"))
                if self.profile(x, xu).ranged.firearm:
                    self.unit(x, xu)["unloaded"] = True
                self.unit(x, xu)["strengthen"] = False
        if c["verb"] in ("attack", "charge"):
            sa = self._situation(s, uid, "a", c, True)
            sb = self._situation(q, target, "b", c, False)
            rolls.append(self._one_roll(s, uid, q, target, sa, sb, "hand-to-hand"))
            rolls.append(self._one_roll(q, target, s, uid, sb, sa, "hand-to-hand"))
            self.unit(s, uid)["strengthen"] = False
            self.unit(q, target)["strengthen"] = False
        c["rolls"] = rolls
        for i, r in enumerate(rolls):
            if r["criticals"] and r["exposed"]:
                x = r["by"][0]
                self._ask(x, f"crits-{i}", ["crits leader", "crits unit"],
                          f"{r['criticals']} critical(s): put the wound(s) on the enemy leader or on the unit? (003:144)")
        if not d["questions"]:
            self._apply_combat()

    def _one_roll(self, x: int, xu: str, y: int, yu: str, sx: Situation, sy: Situation, kind: str) -> JSON:
        px, py = self.profile(x, xu), self.profile(y, yu)
        plan = plan_melee(px, py, sx, sy, self.tables) if kind == "hand-to-hand" else plan_shot(px, py, sx, sy, self.tables)
        combat = self._roll(plan.dice)
        n = hits(plan, combat)
        damage = self._roll(n)
        mods = ", ".join(f"{m.name} {m.value:+d} ({m.source})" for m in plan.modifiers()) or "none"
        self.emit("roll", {"by": [x, xu], "on": [y, yu], "kind": kind, "dice": combat, "damage": damage},
                  f"{px.name} {'shoots' if kind == 'shooting' else 'fights'}: {plan.dice} dice {combat} -> {n} impact(s); "
                  f"damage dice {damage} (modifiers: {mods})")
        exposed = plan.target.leader and sy.leader == "direct"
        crits = sum(1 for v in damage if v == 6)
        return {"by": [x, xu], "on": [y, yu], "kind": kind, "combat": combat, "damage": damage, "criticals": crits,
                "exposed": bool(exposed), "sx": asdict(sx), "sy": asdict(sy)}

    def _apply_combat(self) -> None:
        """Combat resolution (003:101, 003:107): casualties, the winner, Honour rolls. Each roll's
        dice were thrown from the troops as they stood before the combat; the results are put
        on the targets one after the other (K34)."""
        d = self.d
        c = d["combat"]
        results: list[tuple[JSON, Damage]] = []
        for i, r in enumerate(c["rolls"]):
            x, xu = r["by"]
            y, yu = r["on"]
            u = self.unit(y, yu)
            if u["left"] == 0:
                continue
            sx = replace(Situation(**r["sx"]), crits_to_leader=c["answers"].get(f"crits-{i}") == "leader")
            sy = Situation(**r["sy"])
            px, py = self.profile(x, xu), self.profile(y, yu)
            plan = (plan_melee if r["kind"] == "hand-to-hand" else plan_shot)(px, py, sx, sy, self.tables)
            low = wounds = crits = 0
            for v in r["damage"]:
                if v == 1:
                    continue
                if v == 6:
                    crits += 1
                elif v + plan.damage >= plan.difficulty:
                    wounds += 1
                else:
                    low += 1
            now = replace(sy, miniatures=u["left"], wounds=u["wounds"], stunned=u["stunned"],
                          leader_alive=u["leader"], leader_wounds=u["leader_wounds"])
            dmg = apply_damage(target_of(py, now, sx), len(r["damage"]), low, wounds, crits, plan.stuns)
            self._put(y, yu, dmg)
            self.emit("damage", {"unit": yu, "wounds": dmg.total_wounds, "left": u["left"]},
                      f"{self.label(y, yu)}: {dmg.wounds} wound(s)"
                      + (f" + {dmg.stun_wounds} from Stunned markers" if dmg.stun_wounds else "")
                      + (f", {dmg.stuns_added} Stunned marker(s)" if dmg.stuns_added else "")
                      + f", {dmg.casualties} casualty(ies)" + (" (the leader among them)" if dmg.leader_killed else "")
                      + f"; {u['left']} miniature(s) left")
            results.append((r, dmg))
        d["combat"] = None
        if d["phase"] == "over":
            return
        if c["verb"] in ("attack", "charge"):
            s, uid = c["attacker"]
            q, target = c["target"]
            wa = sum(dm.total_wounds for r, dm in results if r["by"] == [s, uid] and r["kind"] == "hand-to-hand")
            wb = sum(dm.total_wounds for r, dm in results if r["by"] == [q, target] and r["kind"] == "hand-to-hand")
            if wa == wb:
                self.emit("melee-draw", {}, f"The combat is a draw ({wa} wound(s) each, K12): melee movements at "
                                            f"the table")
                return
            win, loser = ((s, uid), (q, target)) if wa > wb else ((q, target), (s, uid))
            margin = abs(wa - wb)
            self.emit("melee-won", {"winner": win[1], "margin": margin},
                      f"{self.label(*win)} wins the combat by {margin} (K12); melee movements at the table")
            lp, lu = self.profile(*loser), self.unit(*loser)
            if lp.title.loses_margin and lu["left"] > 0:
                extra = min(margin, lu["left"])
                self._remove(loser[0], loser[1], extra)
                self.emit("peasants", {"unit": loser[1], "removed": extra},
                          f"{self.label(*loser)} are peasants: {extra} more removed (003:256)")
            self._honour(loser[0], loser[1], "lost a combat")
        else:
            for r, dm in results:
                y, yu = r["on"]
                if dm.total_wounds and self.unit(y, yu)["left"] > 0:
                    self._honour(y, yu, "was shot")

    def _put(self, y: int, yu: str, dmg: Damage) -> None:
        u = self.unit(y, yu)
        had_leader = u["leader"]
        after = dmg.after
        u["left"] = after.miniatures
        u["wounds"], u["stunned"] = after.wounds, after.stunned
        u["leader"], u["leader_wounds"] = after.leader, after.leader_wounds
        if dmg.leader_killed and had_leader:
            u["leader_lost_this_turn"] = True
        u["lost_this_turn"] += dmg.casualties - (1 if dmg.leader_killed else 0)
        if u["left"] == 0:
            self.emit("destroyed", {"unit": yu}, f"{self.label(y, yu)} is destroyed")
            self._check_wipe()

    def _remove(self, y: int, yu: str, n: int) -> None:
        u = self.unit(y, yu)
        u["left"] -= n
        u["lost_this_turn"] += n
        if u["left"] <= 0:
            u["left"] = 0
            self.emit("destroyed", {"unit": yu}, f"{self.label(y, yu)} is destroyed")
            self._check_wipe()

    def _check_wipe(self) -> None:
        for s in (0, 1):
            if not self.alive(s) and self.d["phase"] != "over":
                self._end(1 - s, f"{self.name(s)}'s army is destroyed")
                return

    # ------------------------------------------------------------------ Honour rolls (K27-K30)
    def _honour(self, s: int, uid: str, why: str) -> None:
        if self.d["phase"] == "over" or self.unit(s, uid)["left"] == 0:
            return
        self._ask(s, "honour", ["honour pass", "honour fail"],
                  f"Honour roll for {self.label(s, uid)} ({self._ho(s, uid)}), which {why} (003:102, 003:107): roll it "
                  f"at the table (K27) and enter the result", unit=uid)

    def _ho(self, s: int, uid: str) -> str:
        """The troop's Honour attribute as the players need it for the roll (003:182, 003:244)."""
        p, u = self.profile(s, uid), self.unit(s, uid)
        ho = p.cls.ho - (1 if u["dishonoured"] else 0)
        return f"HO {ho}" + (" with -1 for the Dishonoured marker" if u["dishonoured"] else "")

    def _honour_answer(self, q: JSON, action: str) -> None:
        s, uid = int(q["seat"]), str(q["unit"])
        u, p = self.unit(s, uid), self.profile(s, uid)
        if u["left"] == 0:
            return
        if q["key"] == "samurai":
            if action == "samurai stay":
                self._extra_wound(s, uid, "stays in combat and takes an extra wound (003:244)")
            else:
                u["dishonoured"] = True
                u["fleeing"] = True
                self.emit("dishonoured", {"unit": uid}, f"{self.label(s, uid)} withdraws facing the enemy and is "
                                                        f"Dishonoured: -1 Honour and Initiative (003:244)")
            return
        if action == "honour pass":
            self.emit("honour", {"unit": uid, "pass": True}, f"{self.label(s, uid)} passes its Honour roll")
            return
        if p.title.honour_fail == "wound":
            self._extra_wound(s, uid, "fails its Honour roll and cannot retreat: an additional wound (003:252)")
        elif p.title.honour_fail == "stay-or-withdraw":
            self._ask(s, "samurai", ["samurai stay", "samurai withdraw"],
                      f"{self.label(s, uid)} failed its Honour roll: stay in combat (+1 wound) or withdraw "
                      f"(Dishonoured)? (003:244)", unit=uid)
        else:
            u["retreat"] = True
            self.emit("retreat", {"unit": uid}, f"{self.label(s, uid)} fails its Honour roll: Unit in Retreat "
                                                f"marker, retreat movement at the table (K28)")

    def _extra_wound(self, s: int, uid: str, text: str) -> None:
        u, p = self.unit(s, uid), self.profile(s, uid)
        st = Situation(miniatures=u["left"], wounds=u["wounds"], stunned=u["stunned"], leader_alive=u["leader"],
                       leader_wounds=u["leader_wounds"])
        dmg = apply_damage(target_of(p, st, Situation()), 1, 0, 1, 0, False)
        self._put(s, uid, dmg)
        self.emit("extra-wound", {"unit": uid}, f"{self.label(s, uid)} {text}")
