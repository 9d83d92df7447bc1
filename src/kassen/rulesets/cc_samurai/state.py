"""Rules of Commands & Colors: Samurai Battles as a state machine.

The state holds a stack of *tasks*. The top task says whose decision it is and
what is pending: a turn phase (``play``, ``order``, ``move``, ``battle``,
``end``) or a step inside a combat (``combat``, ``retreat``, ``lretreat``,
``pick``, ``loh``). Automatic steps run until a player must decide; every choice
the rulebook leaves to a player is a pending decision with its own actions.

Section names in comments and tests refer to the rulebook (seed 000).
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from typing import TYPE_CHECKING, Any

from kassen.engine.dice import Face, roll_die
from kassen.engine.errors import FormatError, IllegalActionError
from kassen.engine.events import Event, plural
from kassen.engine.hexgrid import Hex, HexBoard
from kassen.engine.protocol import Result, State
from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.board import SIDE_NAMES, Leader, Unit, board, sections_of
from kassen.rulesets.cc_samurai.combat import SYMBOL_FACE, dice_count, explain_roll, score_roll
from kassen.rulesets.cc_samurai.data import Tables, TerrainType, UnitType

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.game import CCSamuraiGame

JSON = dict[str, Any]
POOL_TOTAL = 30
LEADER_MOVE = {"foot": 2, "mounted": 3, "commander": 0}
LEADER_NAME = {"foot": "foot Leader", "mounted": "mounted Leader", "commander": "Army Commander"}
#: hex -> notation of the one shared battlefield (the hot paths index it directly)
_NAMES: dict[Hex, str] = {h: board().name(h) for h in board().cells}


def _copy(o: Any) -> Any:
    """Deep copy of JSON-like task data (dicts, lists, scalars)."""
    if isinstance(o, dict):
        return {k: _copy(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_copy(v) for v in o]
    return o


class CCState(State):
    """A moment of a C&C Samurai battle. Immutable from the outside."""

    # ------------------------------------------------------------------ setup
    def __init__(self, game: CCSamuraiGame) -> None:
        self.game = game
        self.t: Tables = game.tables
        self.b: HexBoard = board()
        self.scenario_id = ""
        self.scenario_name = ""
        self.victory = 5
        self.order_one_banner: int | None = None
        self.tent_banners = 3
        self.exit_banners = 1
        self.bottom = 0
        self.exits: list[list[Hex]] = [[], []]
        #: scenario objectives: {"name", "hexes": [Hex], "side": -1 (both) | 0 | 1, "banners", "kind"}
        self.objective_defs: list[JSON] = []
        #: who holds each objective now (a permanent one stays with whoever took it)
        self.obj_held: list[int | None] = []
        self.terrain: dict[Hex, str] = {}
        #: hex -> TerrainType of every hex, built on first use (shared by clones like terrain)
        self._terc: dict[Hex, TerrainType] | None = None
        self.tents: dict[int, Hex] = {}
        self.units: dict[Hex, Unit] = {}
        self.leaders: dict[Hex, Leader] = {}
        self.start_blocks: dict[str, int] = {}
        self.hands: list[list[str]] = [[], []]
        self.dragons: list[list[str]] = [[], []]
        self.cmd_deck: list[str] = []
        self.cmd_discard: list[str] = []
        self.dr_deck: list[str] = []
        self.dr_discard: list[str] = []
        self.honor = [0, 0]
        self.pool = POOL_TOTAL
        #: Honor & Fortune paid onto Dragon cards in play, back to the pool at the end of the turn
        self.dragon_tokens = 0
        self.banners = [0, 0]
        self.objectives = [0, 0]
        self.command = [5, 5]
        self.turn = 1
        self.active = 0
        self.stack: list[JSON] = []
        self.ti: JSON = _new_turn_info()
        self.last_played: list[str | None] = [None, None]
        self.removed: list[JSON] = []
        self.rng = Rng(0)
        self.forced: list[str] = []
        self._result: Result | None = None
        self.events: tuple[Event, ...] = ()
        self._ev: list[Event] = []
        self._legal: list[str] | None = None
        #: movement searches of this state, and of the state it was cloned from (reused by apply)
        self._mv: dict[tuple[str, Hex], dict[str, int]] = {}
        self._mv_prev: dict[tuple[str, Hex], dict[str, int]] = {}
        #: how far each search of ``_mv`` looked (its allowance): a change farther away leaves it valid
        self._mvr: dict[tuple[str, Hex], int] = {}
        self._mvr_prev: dict[tuple[str, Hex], int] = {}
        #: the parent's pieces and movement context, to tell which of its searches still hold
        self._prev_units: dict[Hex, Unit] | None = None
        self._prev_leaders: dict[Hex, Leader] = {}
        self._prev_ctx: tuple[Any, ...] | None = None
        self._changed: list[Hex] | None = None
        #: uid -> hex and lid -> hex, possibly stale (find_unit and find_leader check them)
        self._uidx: dict[str, Hex] = {}
        self._lidx: dict[str, Hex] = {}

    def clone(self) -> CCState:
        s = CCState.__new__(CCState)
        s.game, s.t, s.b = self.game, self.t, self.b
        s.scenario_id, s.scenario_name = self.scenario_id, self.scenario_name
        s.victory, s.tent_banners, s.exit_banners = self.victory, self.tent_banners, self.exit_banners
        s.order_one_banner = self.order_one_banner
        s.bottom, s.exits = self.bottom, self.exits
        s.objective_defs = self.objective_defs
        s.obj_held = list(self.obj_held)
        # terrain and tents change only when a tent is taken: shared, copied there (_drop_tent)
        s.terrain, s._terc = self.terrain, self._terc
        s.tents = self.tents
        s.units = dict(self.units)
        s.leaders = dict(self.leaders)
        s.start_blocks = self.start_blocks
        s.hands = [list(h) for h in self.hands]
        s.dragons = [list(h) for h in self.dragons]
        s.cmd_deck, s.cmd_discard = list(self.cmd_deck), list(self.cmd_discard)
        s.dr_deck, s.dr_discard = list(self.dr_deck), list(self.dr_discard)
        s.honor, s.pool = list(self.honor), self.pool
        s.dragon_tokens = self.dragon_tokens
        s.banners, s.objectives = list(self.banners), list(self.objectives)
        s.command = list(self.command)
        s.turn, s.active = self.turn, self.active
        # tasks hold scalars and flat lists; the turn's order spec is never mutated, so it is shared
        s.stack = [{k: (list(v) if type(v) is list else v) for k, v in t.items()} for t in self.stack]
        ti = self.ti
        s.ti = {**ti, "orders": list(ti["orders"]), "moved": dict(ti["moved"]), "no_battle": list(ti["no_battle"]),
                "battled": list(ti["battled"]), "dragon_played": list(ti["dragon_played"]),
                "effects": list(ti["effects"]), "dragons_in_play": list(ti["dragons_in_play"]),
                "no_order": list(ti["no_order"])}
        if "first_strikes" in ti:
            s.ti["first_strikes"] = list(ti["first_strikes"])
        s.last_played = list(self.last_played)
        s.removed = list(self.removed)
        s.rng = self.rng.copy()
        s.forced = list(self.forced)
        s._result = self._result
        s.events = ()
        s._ev = []
        s._legal = None
        s._mv = {}
        s._mv_prev = self._mv
        s._mvr = {}
        s._mvr_prev = self._mvr
        if self._mv:
            s._prev_units, s._prev_leaders, s._prev_ctx = self.units, self.leaders, self._move_ctx()
        else:
            s._prev_units, s._prev_leaders, s._prev_ctx = None, {}, None
        s._changed = None
        s._uidx, s._lidx = self._uidx, self._lidx
        return s

    def with_forced_dice(self, faces: list[Face] | list[str]) -> CCState:
        """A copy whose next die rolls are ``faces`` (in order), then the RNG again."""
        s = self.clone()
        s.forced = [f.value if isinstance(f, Face) else Face.parse(f).value for f in faces]
        s.events = self.events
        return s

    # --------------------------------------------------------------- protocol
    def to_move(self) -> int | None:
        if self._result is not None or not self.stack:
            return None
        seat: int = self.stack[-1]["seat"]
        return seat

    def result(self) -> Result | None:
        return self._result

    def legal_actions(self) -> list[str]:
        if self._result is not None or not self.stack:
            return []
        if self._legal is None:
            task = self.stack[-1]
            self._legal = getattr(self, f"_legal_{task['t']}")(task)
        return list(self._legal)

    def apply(self, action: str) -> CCState:
        action = " ".join(action.split())
        legal = self.legal_actions()
        if action not in legal:
            if self._result is not None:
                raise IllegalActionError(action, "the battle is over")
            raise IllegalActionError(action, self._why_illegal(action), legal)
        s = self.clone()
        task = s.stack[-1]
        getattr(s, f"_act_{task['t']}")(task, action)
        s._advance()
        s.events = tuple(s._ev)
        s._ev = []
        return s

    def _why_illegal(self, action: str) -> str:
        task = self.stack[-1]
        word = action.split(" ", 1)[0] if action else ""
        pending = _DECISION_NAMES.get(task["t"], task["t"])
        if not any(a.split(" ", 1)[0] == word for a in self.legal_actions()):
            return f"{SIDE_NAMES[task['seat']].title()} must now {pending}"
        return f"not legal now ({SIDE_NAMES[task['seat']].title()} must {pending})"

    # ----------------------------------------------------------------- basics
    def side_name(self, side: int) -> str:
        return self.game.side_label(self, side)  # type: ignore[attr-defined,no-any-return]

    def name(self, h: Hex) -> str:
        got = _NAMES.get(h)
        return got if got is not None else self.b.name(h)

    def ter(self, h: Hex) -> TerrainType:
        terc = self._terc
        if terc is None:
            terc = self._terrain_types()
        got = terc.get(h)
        return got if got is not None else self.t.terrain[self.terrain.get(h, "countryside")]

    def _terrain_types(self) -> dict[Hex, TerrainType]:
        tt, ter = self.t.terrain, self.terrain
        terc = self._terc = {h: tt[ter.get(h, "countryside")] for h in self.b.cells}
        return terc

    def _drop_tent(self, owner: int, th: Hex) -> None:
        """A command tent leaves the board (copy-on-write: clones share terrain and tents)."""
        self.tents = dict(self.tents)
        del self.tents[owner]
        self.terrain = dict(self.terrain)
        self.terrain.pop(th, None)
        self._terc = None
        self._mv = {}

    def ut(self, u: Unit) -> UnitType:
        return self.t.units[u.type]

    def unit_label(self, u: Unit) -> str:
        return f"{self.side_name(u.side)} {self.ut(u).name}"

    def find_unit(self, uid: str) -> Hex | None:
        # an index uid -> hex, shared with clones and checked on every use: rebuilt when stale
        h = self._uidx.get(uid)
        if h is not None:
            u = self.units.get(h)
            if u is not None and u.uid == uid:
                return h
        self._uidx = idx = {u.uid: h for h, u in self.units.items()}
        return idx.get(uid)

    def find_leader(self, lid: str) -> Hex | None:
        h = self._lidx.get(lid)
        if h is not None:
            ld = self.leaders.get(h)
            if ld is not None and ld.lid == lid:
                return h
        self._lidx = idx = {ld.lid: h for h, ld in self.leaders.items()}
        return idx.get(lid)

    def lone_leader(self, h: Hex) -> Leader | None:
        ld = self.leaders.get(h)
        return ld if ld is not None and h not in self.units else None

    def attached_leader(self, h: Hex) -> Leader | None:
        return self.leaders.get(h) if h in self.units else None

    def back_dir(self, side: int) -> int:
        """Row step toward ``side``'s own baseline."""
        return -1 if side == self.bottom else 1

    def baseline_row(self, side: int) -> int:
        return 0 if side == self.bottom else self.b.rows - 1

    def say(self, tag: str, text: str, **data: Any) -> None:
        self._ev.append(Event(tag, data, text))

    def say_private(self, seat: int, tag: str, text: str, public_text: str, **data: Any) -> None:
        pub = {k: v for k, v in data.items() if k not in ("card", "cards")}
        self._ev.append(Event(tag, data, text, visible_to=(seat,), redacted=Event(tag, pub, public_text)))

    def roll(self, n: int) -> list[Face]:
        out: list[Face] = []
        for _ in range(max(0, n)):
            if self.forced:
                out.append(Face(self.forced.pop(0)))
            else:
                out.append(roll_die(self.rng))
        return out

    # ---------------------------------------------------- honor and banners
    def gain_honor(self, side: int, n: int, why: str) -> int:
        got = max(0, min(n, self.pool))
        if n > 0:
            self.pool -= got
            self.honor[side] += got
            if got == 0:
                text = f"{self.side_name(side)} gains no Honor & Fortune: the pool is empty ({why})"
            else:
                extra = "" if got == n else f" (all the pool had left, of {n})"
                text = f"{self.side_name(side)} gains {got} Honor & Fortune{extra}: {why}"
            self.say("honor", text, side=side, amount=got)
        return got

    def lose_honor(self, side: int, n: int, why: str) -> int:
        """Pay ``n`` tokens to the pool; returns the shortfall."""
        paid = min(n, self.honor[side])
        self.honor[side] -= paid
        self.pool += paid
        if n > 0:
            self.say("honor", f"{self.side_name(side)} loses {paid} Honor & Fortune: {why}", side=side, amount=-paid)
        return n - paid

    def award_banner(self, side: int, n: int, why: str, objective: bool = False) -> None:
        if n <= 0:
            return
        self.banners[side] += n
        if objective:
            self.objectives[side] += n
        self.say("banner", f"{self.side_name(side)} gains {n} Victory Banner{'s' if n > 1 else ''}: {why} "
                 f"({self.banners[side]}/{self.victory})", side=side, amount=n)
        if self.banners[side] >= self.victory and self._result is None:
            self._result = Result(side, "banners", (1.0, 0.0) if side == 0 else (0.0, 1.0))
            self.say("victory", f"{self.side_name(side)} wins the battle with {self.banners[side]} Victory Banners",
                     winner=side)

    def remove_leader(self, h: Hex, cause: str, by: int | None) -> None:
        ld = self.leaders.pop(h)
        self.removed.append({"side": ld.side, "piece": ld.lid, "cause": cause, "type": ld.kind})
        if cause == "killed" and by is not None:
            self.say("leader_killed", f"{self.side_name(ld.side)} {LEADER_NAME[ld.kind]} at {self.name(h)} is eliminated",
                     hex=self.name(h), leader=ld.lid)
            if ld.kind == "commander":
                bg = self.units.get(h)
                if bg is not None and self.ut(bg).bodyguard:
                    del self.units[h]
                    self.removed.append({"side": bg.side, "piece": bg.uid, "cause": "surrender", "type": bg.type})
                    self.say("surrender", f"The bodyguards at {self.name(h)} surrender", hex=self.name(h))
            self.award_banner(by, 1, f"{LEADER_NAME[ld.kind]} eliminated")

    def hit_unit(self, h: Hex, n: int, by: int, why: str) -> bool:
        """Remove ``n`` blocks (no more than it has); True if the unit is eliminated."""
        u = self.units[h]
        n = min(n, u.blocks)
        if n <= 0:
            return False
        left = u.blocks - n
        label = self.unit_label(u)
        if left > 0:
            self.units[h] = u._replace(blocks=left)
            self.say("blocks", f"{label} at {self.name(h)} loses {n} block{'s' if n > 1 else ''} ({why}), {left} left",
                     hex=self.name(h), lost=n, left=left)
            return False
        del self.units[h]
        self.removed.append({"side": u.side, "piece": u.uid, "cause": "killed", "type": u.type})
        self.say("eliminated", f"{label} at {self.name(h)} is eliminated ({why})", hex=self.name(h), unit=u.uid)
        if not self.ut(u).bodyguard:
            self.award_banner(by, 1, f"{self.ut(u).name} eliminated")
        return True

    # ================================================================ turns
    def begin_game(self) -> None:
        self._start_turn(first=True)
        self._advance()
        self.events = tuple(self._ev)
        self._ev = []

    def _start_turn(self, first: bool = False) -> None:
        if not first:
            self.active = 1 - self.active
            self.turn += 1
        self.ti = _new_turn_info()
        self.say("turn", f"Turn {self.turn}: {self.side_name(self.active)} to play", turn=self.turn, side=self.active)
        # Enemy Command Tent: a unit in the enemy tent hex at the start of a turn captures it.
        for owner, th in sorted(self.tents.items()):
            u = self.units.get(th)
            if u is not None and u.side != owner:
                self._drop_tent(owner, th)
                self.say("tent", f"{self.side_name(u.side)} captures the {self.side_name(owner)} command tent at {self.name(th)}",
                         hex=self.name(th))
                self._lose_random_card(owner, "the command tent was taken")
                self.award_banner(u.side, self.tent_banners, "enemy command tent taken", objective=True)
                if self._result is not None:
                    return
        self._check_objectives()
        if self._result is not None:
            return
        # End Game & Victory: a player starting his turn with a single Command card surrenders.
        if len(self.hands[self.active]) <= 1:
            winner = 1 - self.active
            self.say("surrender", f"{self.side_name(self.active)} starts the turn with a single Command card and surrenders",
                     side=self.active)
            self._result = Result(winner, "surrender", (1.0, 0.0) if winner == 0 else (0.0, 1.0))
            return
        self.stack = [{"t": "play", "seat": self.active}]

    def _empty_tents(self) -> None:
        """Zvezda (R42): a command tent is always occupied; left empty, the enemy removes it at once."""
        for owner, th in sorted(self.tents.items()):
            if th in self.units or th in self.leaders:
                continue
            self._drop_tent(owner, th)
            self.say("tent", f"The {self.side_name(owner)} command tent at {self.name(th)} stands empty: "
                     f"{self.side_name(1 - owner)} removes it", hex=self.name(th))
            self._lose_random_card(owner, "the command tent was taken")
            self.award_banner(1 - owner, self.tent_banners, "enemy command tent taken", objective=True)
            if self._result is not None:
                return

    def _check_objectives(self) -> None:
        """Scenario objectives, checked at the start of every turn (docs/rulings.md R29)."""
        for i, obj in enumerate(self.objective_defs):
            present = {self.units[h].side for h in obj["hexes"] if h in self.units}
            holder = self.obj_held[i]
            label = obj["name"] or "/".join(self.name(h) for h in obj["hexes"])
            if obj["kind"] == "permanent" and holder is not None:
                continue
            if holder is not None and (holder not in present or len(present) > 1):
                self.obj_held[i] = None
                self.banners[holder] -= obj["banners"]
                self.objectives[holder] -= obj["banners"]
                self.say("objective_lost", f"{self.side_name(holder)} no longer holds {label} and loses "
                         f"{plural(obj['banners'], 'Victory Banner')} ({self.banners[holder]}/{self.victory})",
                         side=holder, objective=i)
                holder = None
            if holder is None and len(present) == 1:
                side = next(iter(present))
                if obj["side"] in (-1, side):
                    self.obj_held[i] = side
                    kind = "permanent" if obj["kind"] == "permanent" else "temporary"
                    self.award_banner(side, obj["banners"], f"holds {label} ({kind})", objective=True)
                    if self._result is not None:
                        return

    def _lose_random_card(self, side: int, why: str) -> None:
        """A random Command card of ``side`` is discarded; his command shrinks by one."""
        if self.hands[side]:
            cid = self.hands[side].pop(self.rng.randbelow(len(self.hands[side])))
            self.cmd_discard.append(cid)
            self.say("discard", f"{self.side_name(side)} discards {self.card_name(cid)} at random ({why})",
                     side=side, card=cid, random=True)
        self.command[side] = max(1, self.command[side] - 1)

    def card_name(self, cid: str) -> str:
        return self.t.command[self.t.command_ids[cid]].name

    def dragon_name(self, did: str) -> str:
        return self.t.dragon[self.t.dragon_ids[did]].name

    def draw_command(self, side: int) -> str | None:
        if not self.cmd_deck:
            if not self.cmd_discard:
                return None
            self.cmd_deck = self.rng.shuffled(self.cmd_discard)
            self.cmd_discard = []
            self.say("reshuffle", "The Command deck is reshuffled from its discards")
        return self.cmd_deck.pop()

    def draw_dragon(self, side: int) -> str | None:
        if not self.dr_deck:
            if not self.dr_discard:
                return None
            self.dr_deck = self.rng.shuffled(self.dr_discard)
            self.dr_discard = []
            self.say("reshuffle", "The Dragon deck is reshuffled from its discards")
        did = self.dr_deck.pop()
        self.dragons[side].append(did)
        self.say_private(side, "draw_dragon", f"{self.side_name(side)} draws the Dragon card {self.dragon_name(did)}",
                         f"{self.side_name(side)} draws a Dragon card", side=side, card=did)
        return did

    def _advance(self) -> None:
        while self._result is None and self.stack:
            if self.tents and self.t.rules.tent_removed_when_empty:
                self._empty_tents()
                if self._result is not None:
                    return
            task = self.stack[-1]
            auto = getattr(self, f"_auto_{task['t']}", None)
            if auto is None or not auto(task):
                return

    # ------------------------------------------------------- phase 1: play
    def _legal_play(self, task: JSON) -> list[str]:
        slugs: set[str] = {self.t.command_ids[c] for c in self.hands[task["seat"]]}
        # First Strike answers an enemy close combat; it is played in phase 1 only when
        # nothing else is in hand (then it orders nothing: R30)
        if len(slugs) > 1:
            slugs.discard("first-strike")
        return [f"play {s}" for s in sorted(slugs)]

    def _act_play(self, task: JSON, action: str) -> None:
        slug = action.split()[1]
        side = task["seat"]
        cid = next(c for c in self.hands[side] if self.t.command_ids[c] == slug)
        self._set_card(side, cid)
        self.stack[-1] = {"t": "order", "seat": side}
        # Dragon cards "after enemy Command" (defender), asked after those "with Command" (active)
        self.stack.append({"t": "dragon", "seat": 1 - side, "w": "after-enemy-command"})
        self.stack.append({"t": "dragon", "seat": side, "w": "with-command"})

    def _set_card(self, side: int, cid: str) -> None:
        """Phase 1: ``cid`` leaves the hand and becomes the card played this turn."""
        slug = self.t.command_ids[cid]
        self.hands[side].remove(cid)
        self.ti["card"] = cid
        card = self.t.command[slug]
        self.say("play", f"{self.side_name(side)} plays {card.name}: {card.text}", side=side, card=cid, slug=slug)
        effective: str | None = slug
        if slug == "first-strike":
            effective = None
            self.say("no_orders", "First Strike played as a Command card orders nothing")
        elif slug == "counter-attack":
            copied = self.last_played[1 - side]
            effective = _mirror(copied) if copied and copied not in ("first-strike", "counter-attack") else None
            if effective is None:
                self.say("counter_attack", "Counter Attack has no card to copy: the opponent has not played one yet")
            else:
                self.say("counter_attack", f"Counter Attack becomes {self.t.command[effective].name}", slug=effective)
        self.last_played[side] = effective or slug
        self.ti["effective"] = effective
        self.ti["spec"] = self._order_spec(side, effective) if effective else {"mode": "select", "count": 0, "filter": {}}

    # ------------------------------------------------------------ Dragon windows
    def _auto_dragon(self, task: JSON) -> bool:
        if dragons.actions(self, task["seat"], task["w"], task):
            return False
        self.stack.pop()
        return True

    def _legal_dragon(self, task: JSON) -> list[str]:
        return [*dragons.actions(self, task["seat"], task["w"], task), "pass"]

    def _act_dragon(self, task: JSON, action: str) -> None:
        self.stack.pop()
        if action != "pass":
            dragons.play(self, task["seat"], action, task)

    def _legal_turncoat(self, task: JSON) -> list[str]:
        return ["defect", "stay"]

    def _act_turncoat(self, task: JSON, action: str) -> None:
        self.stack.pop()
        dragons.turncoat_decided(self, task, action == "defect")

    def _auto_dloh(self, task: JSON) -> bool:
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

    def _legal_dloh(self, task: JSON) -> list[str]:
        return [f"hit {self.name(h)}" for h in dragons.dloh_candidates(self, task)]

    def _act_dloh(self, task: JSON, action: str) -> None:
        task["faces"].pop(0)
        self.hit_unit(self.b.parse(action.split()[1]), 1, task["by"], task["why"])

    def _order_spec(self, side: int, slug: str) -> JSON:
        """What a Command card lets its player order this turn (Phase 2), as data."""
        card = self.t.command[slug]
        cmd = self.command[side]
        if card.kind == "section":
            slots = []
            for o in card.orders:
                n = cmd if o.count == "command" else int(o.count)
                slots.extend([{"section": o.section}] * n)
            return {"mode": "slots", "slots": slots, "helmet": card.helmet}
        spec: JSON
        if card.symbol is not None:
            spec = {"mode": "select", "count": cmd, "filter": {"symbol": card.symbol}}
        elif slug == "cavalry-charge":
            spec = {"mode": "select", "count": 4, "filter": {"cls": "cavalry"}, "effect": "charge"}
        elif slug == "hold-and-shoot":
            spec = {"mode": "select", "count": 4, "filter": {"ranged": True, "free": True}, "effect": "hold"}
        elif slug == "infantry-onslaught":
            spec = {"mode": "select", "count": 4, "filter": {"cls": "infantry"}, "group": True, "effect": "onslaught"}
        elif slug == "serpent-command":
            spec = {"mode": "select", "count": 99, "filter": {}, "group": True, "leaders": True, "effect": "serpent"}
        elif slug == "leadership":
            return {"mode": "leadership"}
        elif slug == "shogun":
            return {"mode": "shogun-pending"}  # its dice are rolled when the card acts (Wild Winds)
        else:
            raise AssertionError(f"no order rule for {slug}")
        base = {k: v for k, v in spec["filter"].items() if k != "free"}
        if not any(u.side == side and self._passes(base, u, h) for h, u in self.units.items()):
            self.say("fallback", f"{self.side_name(side)} has no unit the card names: order 1 unit of your choice")
            return {"mode": "select", "count": 1, "filter": {}}
        return spec

    def _shogun_spec(self, side: int) -> JSON:
        """Shogun: a die per Command card; symbols order units of that symbol, flags anything."""
        n = self.command[side]
        faces = self.roll(n)
        self.say("roll", f"Shogun: {self.side_name(side)} rolls {n} dice: {', '.join(f.label for f in faces)}",
                 faces=[f.value for f in faces], dice=n)
        slots: list[JSON] = []
        for f in faces:
            if f.is_unit_symbol:
                slots.append({"symbol": f.value})
            elif f == Face.FLAG:
                slots.append({"any": True})
        honor = faces.count(Face.HONOR)
        if honor:
            self.gain_honor(side, honor, "Honor & Fortune rolled for the Shogun card")
        return {"mode": "slots", "slots": slots, "helmet": True, "effect": "shogun"}

    def _passes(self, flt: JSON, u: Unit, h: Hex) -> bool:
        ut = self.ut(u)
        if ut.bodyguard and ("cls" in flt or "ranged" in flt):
            return False
        if "symbol" in flt and ut.symbol != flt["symbol"]:
            return False
        if "cls" in flt and ut.cls != flt["cls"]:
            return False
        if flt.get("ranged") and not ut.ranged:
            return False
        if flt.get("free") and any(self.enemy_at(n, u.side) for n in self.b.neighbours(h)):
            return False
        return True

    # ----------------------------------------------------- phase 2: order
    def piece_key_at(self, h: Hex, leader: bool) -> str | None:
        if leader:
            ld = self.leaders.get(h)
            return f"l:{ld.lid}" if ld is not None else None
        u = self.units.get(h)
        if u is not None:
            return f"u:{u.uid}"
        ld = self.leaders.get(h)
        return f"l:{ld.lid}" if ld is not None else None

    def key_hex(self, key: str) -> Hex | None:
        return self.find_unit(key[2:]) if key[0] == "u" else self.find_leader(key[2:])

    def _orderable(self, side: int) -> list[tuple[str, str, Hex]]:
        """(action, key, hex) of every piece the card's mode could order, before its limits."""
        out: list[tuple[str, str, Hex]] = []
        spec = self.ti["spec"]
        mode = spec["mode"]
        lone_ok = mode in ("slots", "leadership") or spec.get("leaders", False)
        split_ok = mode == "slots" and spec.get("helmet", False)
        ordered = set(self.ti["orders"])
        for h, u in self.units.items():
            if u.side == side and f"u:{u.uid}" not in ordered and u.uid not in self.ti["no_order"]:
                out.append((f"order {self.name(h)}", f"u:{u.uid}", h))
        for h, ld in self.leaders.items():
            if ld.side != side or f"l:{ld.lid}" in ordered:
                continue
            if h not in self.units:
                if lone_ok:
                    out.append((f"order {self.name(h)}", f"l:{ld.lid}", h))
            elif split_ok and ld.kind != "commander":
                out.append((f"order {self.name(h)} leader", f"l:{ld.lid}", h))
        return out

    def _slot_accepts(self, slot: JSON, key: str, h: Hex, side: int) -> bool:
        if "section" in slot:
            return slot["section"] in sections_of(h, side, self.bottom)
        if "symbol" in slot:
            return key[0] == "u" and self.ut(self.units[h]).symbol == slot["symbol"]
        return True

    def _fits(self, vectors: list[tuple[bool, ...]]) -> bool:
        """Can every ordered piece take a distinct slot it is accepted by (bipartite matching)?"""
        nslots = len(vectors[0]) if vectors else 0
        if len(vectors) > nslots:
            return False
        match: dict[int, int] = {}

        def try_assign(i: int, seen: set[int]) -> bool:
            for j in range(nslots):
                if vectors[i][j] and j not in seen:
                    seen.add(j)
                    if j not in match or try_assign(match[j], seen):
                        match[j] = i
                        return True
            return False

        return all(try_assign(i, set()) for i in range(len(vectors)))

    def _order_actions(self, side: int) -> list[str]:
        spec = self.ti["spec"]
        mode = spec["mode"]
        if mode == "shogun-pending":
            return []
        given = [(k, h) for k in self.ti["orders"] if (h := self.key_hex(k)) is not None]
        if len(given) >= spec.get("max", 999):
            return []  # White Fox Spirit
        out = []
        if mode == "slots":
            slots = spec["slots"]
            if len(given) >= len(slots):
                return []
            # which slots accept a piece depends only on the slots, its hex and its symbol; whether
            # one more piece fits depends only on those vectors: both are memoised for the process
            sig = tuple(_slot_sig(sl) for sl in slots)
            bottom, units, utypes = self.bottom, self.units, self.t.units

            def vector(key: str, h: Hex) -> tuple[bool, ...]:
                mk = (sig, h, side, bottom, utypes[units[h].type].symbol if key[0] == "u" else None)
                got = _VECTORS.get(mk)
                if got is None:
                    got = _VECTORS[mk] = tuple(self._slot_accepts(sl, key, h, side) for sl in slots)
                return got

            vecs = tuple(vector(k, h) for k, h in given)
            for action, key, h in self._orderable(side):
                fk = (vecs, vector(key, h))
                fits = _FITS.get(fk)
                if fits is None:
                    fits = _FITS[fk] = self._fits([*vecs, fk[1]])
                if fits:
                    out.append(action)
            if len(_FITS) > 200_000 or len(_VECTORS) > 200_000:
                _FITS.clear()
                _VECTORS.clear()
            return sorted(out)
        if mode == "select":
            if len(given) >= spec["count"]:
                return []
            hexes = {h for _, h in given}
            for action, key, h in self._orderable(side):
                if key[0] == "u" and not self._passes(spec["filter"], self.units[h], h):
                    continue
                if spec.get("group") and hexes and not any(n in hexes for n in self.b.neighbours(h)):
                    continue
                out.append(action)
            return sorted(out)
        # Leadership: a Leader's hex and up to 4 adjacent, linked, contiguous hexes, or 1 unit of your choice
        if not given:
            return sorted(a for a, _, _ in self._orderable(side))
        first_key, first_hex = given[0]
        if first_key[0] == "u" and first_hex not in self.leaders:
            return []  # "order 1 unit of your choice"
        hexes = {h for _, h in given}
        for action, _key, h in self._orderable(side):
            if h in hexes or len(hexes) >= 5:
                continue
            if any(n in hexes for n in self.b.neighbours(h)):
                out.append(action)
        return sorted(out)

    def move_limits(self, u: Unit) -> tuple[int, int]:
        """(hexes it may move, most hexes moved that still allow battle) this turn."""
        ut = self.ut(u)
        move, bmove = ut.move, ut.battle_move
        effect = self.ti["spec"].get("effect") if self.ti.get("spec") else None
        if effect and f"u:{u.uid}" in self.ti["orders"]:
            if effect == "charge" and u.type == "SSpC":
                move, bmove = 3, 3
            elif effect == "onslaught" and not ut.cavalry and ut.symbol in ("triangle", "square"):
                move, bmove = 2, 2
            elif effect == "serpent":
                move = min(move, 1)
            elif effect == "hold":
                move = 0
        if f"u:{u.uid}" in self.ti["orders"] and u.side == self.active and effect != "hold":
            if not ut.cavalry and not ut.bodyguard and dragons.has_effect(self, "move-as-the-wind", u.side):
                move, bmove = move + 1, bmove + 1
            if dragons.has_effect(self, "forced-march", u.side, u.uid):
                move += 1
            if dragons.has_effect(self, "spirit-of-the-wind", u.side, u.uid):
                move, bmove = move + 1, bmove + 1
        return move, bmove

    def turn_effect(self, u: Unit) -> str | None:
        """The played card's effect on ``u``, if it is one of the active player's ordered units."""
        spec = self.ti.get("spec")
        if not spec or u.side != self.active or f"u:{u.uid}" not in self.ti["orders"]:
            return None
        effect: str | None = spec.get("effect")
        return effect

    def _legal_order(self, task: JSON) -> list[str]:
        return [*self._order_actions(task["seat"]), "done"]

    def _auto_order(self, task: JSON) -> bool:
        if self.ti["spec"].get("mode") == "shogun-pending":
            pending = self.ti["spec"]
            self.ti["spec"] = self._shogun_spec(task["seat"])
            if "max" in pending:  # White Fox Spirit, played before the Shogun card acted
                self.ti["spec"]["max"] = pending["max"]
        acts = self._order_actions(task["seat"])
        if acts:
            self._legal = [*acts, "done"]
            return False
        if not self.ti["orders"]:
            played = self.t.command[self.t.command_ids[self.ti["card"]]].name if self.ti.get("card") else "the card"
            self.say("no_orders", f"No unit or Leader of {self.side_name(task['seat'])} can be ordered by {played}")
        self._to_move_phase(task)
        return True

    def _act_order(self, task: JSON, action: str) -> None:
        side = task["seat"]
        if action == "done":
            self._to_move_phase(task)
            return
        parts = action.split()
        h = self.b.parse(parts[1])
        key = self.piece_key_at(h, len(parts) == 3)
        assert key is not None
        self.ti["orders"].append(key)
        what = self._piece_label(key, h)
        self.say("order", f"{self.side_name(side)} orders the {what} at {self.name(h)}", side=side, hex=self.name(h), piece=key)

    def _piece_label(self, key: str, h: Hex) -> str:
        if key[0] == "u":
            u = self.units[h]
            ld = self.leaders.get(h)
            extra = f" with its {LEADER_NAME[ld.kind]}" if ld is not None and f"l:{ld.lid}" not in self.ti["orders"] else ""
            return self.ut(u).name + extra
        ld = self.leaders[h]
        return LEADER_NAME[ld.kind] + (" (splitting from his unit)" if h in self.units else "")

    def _to_move_phase(self, task: JSON) -> None:
        self.stack[-1] = {"t": "move", "seat": task["seat"]}

    # ---------------------------------------------------- phase 3: movement
    def _move_ctx(self) -> tuple[Any, ...]:
        """What a movement search depends on besides the pieces near it (compared by identity)."""
        ti = self.ti
        spec = ti.get("spec")
        return (spec, spec.get("effect") if spec else None, len(ti["orders"]), len(ti["effects"]),
                self.active, self.terrain)

    def _reused_search(self, key: tuple[str, Hex]) -> dict[str, int] | None:
        """The parent state's search for ``key`` when nothing it looked at has changed since:
        the same movement context, and every hex whose pieces differ farther than it looked."""
        prev = self._mv_prev.get(key)
        if prev is None or self._prev_units is None:
            return None
        pc = self._prev_ctx
        assert pc is not None
        cc = self._move_ctx()
        if any(a is not b and a != b for a, b in zip(pc, cc)):
            return None
        changed = self._changed
        if changed is None:
            changed = self._changed = _diff_hexes(self._prev_units, self.units) + _diff_hexes(
                self._prev_leaders, self.leaders)
        radius = self._mvr_prev[key]
        h = key[1]
        dist = self.b.distance
        for c in changed:
            if dist(h, c) <= radius:
                return None
        self._mvr[key] = radius
        return prev

    def _unit_moves(self, h: Hex) -> dict[str, int]:
        """Destinations (hex name or 'off') of the unit at ``h`` -> hexes moved."""
        key = ("u", h)
        got = self._mv.get(key)
        if got is None:
            got = self._reused_search(key)
            if got is None:
                got = self._search_unit_moves(h)
            self._mv[key] = got
        return got

    def _search_unit_moves(self, h: Hex) -> dict[str, int]:
        u = self.units[h]
        ut = self.ut(u)
        allowance = self.move_limits(u)[0]
        self._mvr[("u", h)] = allowance
        has_leader = h in self.leaders
        # a Leader never enters a half-hex, so neither does a unit carrying one
        carries = has_leader and f"l:{self.leaders[h].lid}" not in self.ti["orders"]
        through = dragons.has_effect(self, "spirit-of-the-wind", u.side, u.uid)
        out: dict[str, int] = {}
        frontier = [h]
        seen = {h: 0}
        exits = self.exits[u.side]
        for step in range(1, allowance + 1):
            nxt: list[Hex] = []
            for cur in frontier:
                if cur in exits:
                    out.setdefault("off", step)
                for n in self.b.neighbours(cur):
                    if n in seen:
                        continue
                    ter = self.ter(n)
                    if ter.impassable or (carries and self.b.is_half(n)):
                        continue
                    if through and (n in self.units or n in self.leaders):
                        # Spirit of the Wind: through other units, never ending there
                        seen[n] = step
                        if not ter.stop:
                            nxt.append(n)
                        continue
                    if n in self.units:
                        continue
                    ld = self.leaders.get(n)
                    if ld is not None:
                        if ld.side != u.side or has_leader:
                            continue
                        if ut.cavalry and ld.kind != "mounted":
                            continue
                        # joins the lone Leader and stops
                        seen[n] = step
                        out[self.name(n)] = step
                        continue
                    seen[n] = step
                    out[self.name(n)] = step
                    if not ter.stop:
                        nxt.append(n)
            frontier = nxt
        return out

    def _leader_moves(self, h: Hex) -> dict[str, int]:
        """Destinations of the Leader at ``h`` moving on his own."""
        key = ("l", h)
        got = self._mv.get(key)
        if got is None:
            got = self._reused_search(key)
            if got is None:
                got = self._search_leader_moves(h)
            self._mv[key] = got
        return got

    def _search_leader_moves(self, h: Hex) -> dict[str, int]:
        ld = self.leaders[h]
        allowance = LEADER_MOVE[ld.kind]
        if self.ti["spec"].get("effect") == "serpent":
            allowance = min(allowance, 1)  # Serpent Command: the group moves 1 hex (R28)
        self._mvr[("l", h)] = allowance
        out: dict[str, int] = {}
        seen = {h: 0}
        frontier = [h]
        base = self.baseline_row(ld.side)
        for step in range(1, allowance + 1):
            nxt: list[Hex] = []
            for cur in frontier:
                if cur[1] == base:
                    out.setdefault("off", step)
                for n in self.b.neighbours(cur):
                    if n in seen or self.b.is_half(n):
                        continue
                    ter = self.ter(n)
                    if ter.impassable:
                        continue
                    u = self.units.get(n)
                    other = self.leaders.get(n)
                    if (u is not None and u.side != ld.side) or (other is not None and other.side != ld.side):
                        continue
                    seen[n] = step
                    can_end = other is None and (
                        u is None or ld.kind == "mounted" or (not self.ut(u).cavalry and not self.ut(u).bodyguard)
                    )
                    if u is not None and self.ut(u).bodyguard:
                        can_end = False
                    if can_end:
                        out[self.name(n)] = step
                    if not ter.stop:
                        nxt.append(n)
            frontier = nxt
        return out

    def _mover_actions(self, side: int) -> list[str]:
        out: list[str] = []
        moved = self.ti["moved"]
        for key in self.ti["orders"]:
            if key in moved:
                continue
            h = self.key_hex(key)
            if h is None:
                continue
            if key[0] == "u":
                u = self.units[h]
                if self.ut(u).bodyguard:
                    continue
                for dest in self._unit_moves(h):
                    out.append(f"move {self.name(h)} {dest}")
            else:
                split = h in self.units
                for dest in self._leader_moves(h):
                    out.append(f"move {self.name(h)}{' leader' if split else ''} {dest}")
        return sorted(out)

    def _legal_move(self, task: JSON) -> list[str]:
        return [*self._mover_actions(task["seat"]), *dragons.actions(self, task["seat"], "movement"), "end-move"]

    def _auto_move(self, task: JSON) -> bool:
        acts = self._mover_actions(task["seat"])
        if acts:
            self._legal = [*acts, *dragons.actions(self, task["seat"], "movement"), "end-move"]
            return False
        self.stack[-1] = {"t": "battle", "seat": task["seat"]}
        return True

    def _act_move(self, task: JSON, action: str) -> None:
        side = task["seat"]
        if action == "end-move":
            self.stack[-1] = {"t": "battle", "seat": side}
            return
        if action.startswith("dragon "):
            dragons.play(self, side, action)
            return
        parts = action.split()
        h = self.b.parse(parts[1])
        is_leader = len(parts) == 4 or h not in self.units
        dest_txt = parts[-1]
        if is_leader:
            ld = self.leaders[h]
            key = f"l:{ld.lid}"
            steps = (self._mv_prev.get(("l", h)) or self._leader_moves(h))[dest_txt]
            self.ti["moved"][key] = steps
            del self.leaders[h]
            if dest_txt == "off":
                self.removed.append({"side": side, "piece": ld.lid, "cause": "off", "type": ld.kind})
                self.say("leader_off", f"{self.side_name(side)} {LEADER_NAME[ld.kind]} leaves the battlefield from {self.name(h)}",
                         hex=self.name(h))
                short = self.lose_honor(side, 3, "a Leader left the battlefield")
                if short:
                    self._push_loh(side, short, h, None, None)
                return
            d = self.b.parse(dest_txt)
            self.leaders[d] = ld
            joined = f" and joins the {self.ut(self.units[d]).name}" if d in self.units else ""
            self.say("move", f"{self.side_name(side)} {LEADER_NAME[ld.kind]} moves {self.name(h)} to {self.name(d)}{joined}",
                     frm=self.name(h), to=self.name(d))
            self._insult_window(side, ld.lid, h, d, None)
            return
        u = self.units[h]
        key = f"u:{u.uid}"
        steps = (self._mv_prev.get(("u", h)) or self._unit_moves(h))[dest_txt]
        self.ti["moved"][key] = steps
        uld = self.leaders.get(h)
        carry = uld is not None and f"l:{uld.lid}" not in self.ti["orders"]
        del self.units[h]
        if carry:
            assert uld is not None
            del self.leaders[h]
        if dest_txt == "off":
            self.removed.append({"side": side, "piece": u.uid, "cause": "exit", "type": u.type})
            self.say("exit", f"{self.unit_label(u)} leaves the battlefield from {self.name(h)}", hex=self.name(h))
            if carry and uld is not None:
                self.removed.append({"side": side, "piece": uld.lid, "cause": "exit", "type": uld.kind})
            self.award_banner(side, self.exit_banners, "a unit left by an exit hex", objective=True)
            return
        d = self.b.parse(dest_txt)
        self.units[d] = u
        if carry and uld is not None:
            self.leaders[d] = uld
        if self.ter(d).forbids_battle_on_entry(self.ut(u).cavalry):
            self.ti["no_battle"].append(u.uid)
        joined = ""
        if not carry and d in self.leaders:
            joined = f" and joins the {LEADER_NAME[self.leaders[d].kind]}"
        with_ld = f" with its {LEADER_NAME[uld.kind]}" if carry and uld is not None else ""
        self.say("move", f"{self.unit_label(u)}{with_ld} moves {self.name(h)} to {self.name(d)}{joined}",
                 frm=self.name(h), to=self.name(d), unit=u.uid)
        if carry and uld is not None:
            self._insult_window(side, uld.lid, h, d, u.uid)

    def _insult_window(self, side: int, lid: str, frm: Hex, to: Hex, uid: str | None) -> None:
        """Insult is played when the enemy moves an ordered Leader."""
        self.stack.append({"t": "dragon", "seat": 1 - side, "w": "insult", "lid": lid,
                           "frm": self.name(frm), "to": self.name(to), "uid": uid})

    # ------------------------------------------------------ phase 4: battle
    def can_battle(self, h: Hex) -> bool:
        u = self.units[h]
        effect = self.turn_effect(u)
        if u.uid in self.ti["no_battle"] or self.ti["battled"].count(u.uid) >= (2 if effect == "hold" else 1):
            return False
        if effect == "onslaught" and self.ut(u).ranged:
            return False  # Infantry Onslaught: ordered ranged weapon units may not battle
        if dragons.has_effect(self, "forced-march", u.side, u.uid):
            return False
        moved = self.ti["moved"].get(f"u:{u.uid}", 0)
        return not moved > self.move_limits(u)[1]

    def enemy_at(self, h: Hex, side: int) -> bool:
        u = self.units.get(h)
        if u is not None:
            return u.side != side
        ld = self.leaders.get(h)
        return ld is not None and ld.side != side

    def close_targets(self, h: Hex) -> list[Hex]:
        u = self.units[h]
        ut = self.ut(u)
        if self.ter(h).cap_on("close", ut.cavalry) == 0 or self.turn_effect(u) == "hold":
            return []
        out = []
        for n in self.b.neighbours(h):
            if self.enemy_at(n, u.side) and self.ter(n).cap_into("close", ut.cavalry) != 0:
                out.append(n)
        return out

    def ranged_targets(self, h: Hex) -> list[Hex]:
        u = self.units[h]
        ut = self.ut(u)
        if not ut.ranged or self.ter(h).cap_on("ranged", ut.cavalry) == 0 or self.turn_effect(u) == "charge":
            return []
        if any((n in self.units and self.units[n].side != u.side) for n in self.b.neighbours(h)):
            return []
        out = []
        for n in self.b.within(h, ut.max_range):
            d = self.b.distance(h, n)
            if d < 2 or d not in ut.ranged or not self.enemy_at(n, u.side):
                continue
            tu = self.units.get(n)
            if tu is not None and self.ut(tu).bodyguard:
                continue
            if self.ter(n).cap_into("ranged", ut.cavalry) == 0:
                continue
            if self.line_of_sight(h, n):
                out.append(n)
        return out

    def line_of_sight(self, a: Hex, b: Hex) -> bool:
        """Ranged Combat step 3, with the hill and plateau rules of Battlefield Terrain."""
        plateau: frozenset[Hex] = frozenset()
        if self.ter(a).hill and self.ter(b).hill:
            group = self.hill_group(a)
            if b in group:
                plateau = group

        def obstructs(h: Hex) -> bool:
            if h in self.units or h in self.leaders or self.b.is_half(h):
                return True
            ter = self.ter(h)
            if ter.hill:
                return h not in plateau
            return ter.blocks_los

        return self.b.line_of_sight(a, b, obstructs)

    def hill_group(self, h: Hex) -> frozenset[Hex]:
        group = {h}
        todo = [h]
        while todo:
            cur = todo.pop()
            for n in self.b.neighbours(cur):
                if n not in group and self.ter(n).hill:
                    group.add(n)
                    todo.append(n)
        return frozenset(group)

    def _battle_actions(self, side: int) -> list[str]:
        out: list[str] = []
        for key in self.ti["orders"]:
            if key[0] != "u":
                continue
            h = self.key_hex(key)
            if h is None or not self.can_battle(h):
                continue
            for n in self.close_targets(h):
                out.append(f"attack {self.name(h)} {self.name(n)}")
            for n in self.ranged_targets(h):
                out.append(f"fire {self.name(h)} {self.name(n)}")
        out.extend(self._swarm_actions())
        return sorted(out)

    def _swarm_actions(self) -> list[str]:
        """Levy Infantry Swarm: two or more ordered levies adjacent to one enemy unit attack together."""
        levies = []
        for key in self.ti["orders"]:
            h = self.key_hex(key) if key[0] == "u" else None
            if h is not None and self.ut(self.units[h]).levy and self.can_battle(h):
                levies.append(h)
        if len(levies) < 2:
            return []
        out = []
        targets: dict[Hex, list[Hex]] = {}
        for h in levies:
            for n in self.close_targets(h):
                if n in self.units:
                    targets.setdefault(n, []).append(h)
        for t, group in targets.items():
            group.sort(key=lambda h: (h[1], h[0]))
            for k in range(2, len(group) + 1):
                for combo in combinations(group, k):
                    out.append(f"attack {'+'.join(self.name(h) for h in combo)} {self.name(t)}")
        return out

    def _legal_battle(self, task: JSON) -> list[str]:
        return [*self._battle_actions(task["seat"]), "end-battle"]

    def _auto_battle(self, task: JSON) -> bool:
        acts = self._battle_actions(task["seat"])
        if acts:
            self._legal = [*acts, "end-battle"]
            return False
        self.stack[-1] = {"t": "end", "seat": task["seat"], "step": "wise"}
        return True

    def _act_battle(self, task: JSON, action: str) -> None:
        side = task["seat"]
        if action == "end-battle":
            self.stack[-1] = {"t": "end", "seat": side, "step": "wise"}
            return
        verb, a, d = action.split()
        atts = [self.b.parse(x) for x in a.split("+")]
        dh = self.b.parse(d)
        for ah in atts:
            self.ti["battled"].append(self.units[ah].uid)
        self.start_combat("close" if verb == "attack" else "ranged", atts[0], dh, "attack", swarm=atts[1:])

    # ============================================================== combat
    def start_combat(self, kind: str, ah: Hex, dh: Hex, role: str, swarm: list[Hex] | None = None) -> None:
        u = self.units[ah]
        tu = self.units.get(dh)
        tl = self.leaders.get(dh) if tu is None else None
        atts = [ah, *(swarm or [])]
        cx: JSON = {
            "t": "combat", "seat": u.side, "kind": kind, "role": role, "step": "inspire",
            "att": self.name(ah), "att_uid": u.uid, "tgt": self.name(dh),
            "atts": [self.name(h) for h in atts], "att_uids": [self.units[h].uid for h in atts],
            "tgt_uid": tu.uid if tu else None, "tgt_lid": tl.lid if tl else None, "inspired": [],
        }
        verb = {"attack": "attacks", "bonus": "makes a bonus close combat against", "back": "battles back against",
                "first": "strikes first against"}[role]
        if kind == "ranged":
            verb = "fires at"
        target = self.unit_label(tu) if tu else f"{self.side_name(1 - u.side)} {LEADER_NAME[tl.kind] if tl else 'Leader'}"
        who = f"{self.unit_label(u)} at {self.name(ah)}"
        if swarm:
            who = f"A swarm of {len(atts)} levies from {', '.join(self.name(h) for h in atts)}"
            verb = {"attacks": "attack"}.get(verb, verb)
        self.say("combat", f"{who} {verb} the {target} at {self.name(dh)}",
                 kind=kind, role=role, att=self.name(ah), tgt=self.name(dh), atts=cx["atts"])
        if kind == "close" and role in ("attack", "bonus") and tu is not None:
            # First Strike and the Dragon cards of "enemy declares close combat": the defender may
            # answer before the dice, when he holds a card he can play there (R30, R32)
            cx["step"] = "react"
            cx["seat"] = tu.side
        self.stack.append(cx)

    def _present_attackers(self, cx: JSON) -> list[Hex]:
        out = []
        for name, uid in zip(cx["atts"], cx["att_uids"]):
            h = self.b.parse(name)
            u = self.units.get(h)
            if u is not None and u.uid == uid:
                out.append(h)
        return out

    def can_inspire(self, h: Hex, u: Unit) -> bool:
        """Leader Inspired Close Combat: who may add a die to the unit at ``h``."""
        if self.ter(h).no_inspiration:
            return False
        ut = self.ut(u)
        ld = self.leaders.get(h)
        if ld is not None and ld.side == u.side:
            if ld.kind == "mounted" or (ld.kind == "foot" and not ut.cavalry) or (ld.kind == "commander" and ut.bodyguard):
                return True
        for n in self.b.neighbours(h):
            other = self.leaders.get(n)
            if other is None or other.side != u.side:
                continue
            if other.kind == "mounted":
                return True
            if other.kind == "commander" and n in self.units and self.ut(self.units[n]).bodyguard:
                return True
        return False

    def _legal_combat(self, task: JSON) -> list[str]:
        step = task["step"]
        if step == "react":
            # First Strike (a Command card) and a Dragon card of this window answer the same
            # declaration independently, in either order (R47); Ambush excludes First Strike
            fs = []
            if (not task.get("first_strike") and not task.get("no_back") and len(task["atts"]) == 1
                    and self._can_battle_back(self.b.parse(task["tgt"]), self.b.parse(task["att"]))
                    and any(self.t.command_ids[c] == "first-strike" for c in self.hands[task["seat"]])):
                fs = ["first-strike"]
            return [*fs, *dragons.actions(self, task["seat"], "declare", task), "pass"]
        if step in ("prep", "after_att", "after_def", "hollow"):
            window = {"prep": "before-roll", "after_att": "after-roll", "after_def": "after-enemy-roll",
                      "hollow": "enemy-success"}[step]
            return [*dragons.actions(self, task["seat"], window, task), "pass"]
        if step == "inspire":
            return ["inspire", "no-inspire"]
        if step == "flags":
            return [f"ignore {k}" for k in range(task["max_ignore"] + 1)]
        if step == "gain":
            present = self._present_attackers(task)
            if len(present) > 1:
                return [*(f"advance {self.name(h)}" for h in present), "stay"]
            return ["advance", "stay"]
        if step == "bonus":
            h = self.b.parse(task["tgt"])
            return [*(f"bonus {self.name(n)}" for n in sorted(self.close_targets(h))), "no-bonus"]
        if step == "back":
            present = [h for h in self._present_attackers(task) if self._can_battle_back(self.b.parse(task["tgt"]), h)]
            if len(present) > 1:
                return [*(f"battle-back {self.name(h)}" for h in present), "no-battle-back"]
            revenge = [a for a in dragons.actions(self, task["seat"], "before-back", task)]
            return ["battle-back", *revenge, "no-battle-back"]
        return []

    def _auto_combat(self, cx: JSON) -> bool:
        step = cx["step"]
        ah = self.b.parse(cx["att"])
        if step == "react":
            if self._legal_combat(cx) != ["pass"]:
                return False
            self._end_react(cx)
            return True
        if step == "inspire":
            u = self.units.get(ah)
            if u is None or u.uid != cx["att_uid"]:
                self.stack.pop()
                return True
            if "insp_queue" not in cx:
                cx["insp_queue"] = [
                    self.name(h) for h in self._present_attackers(cx)
                    if cx["kind"] == "close" and self.can_inspire(h, self.units[h])
                ]
            if cx["insp_queue"] and self.honor[u.side] >= 1:
                return False
            del cx["insp_queue"]
            cx["step"] = "prep"
            return True
        if step == "prep":
            cx["seat"] = self.units[ah].side
            if dragons.actions(self, cx["seat"], "before-roll", cx):
                return False
            cx["step"] = "roll"
            return True
        if step == "roll":
            self._combat_roll(cx)
            return True
        if step == "after_att":
            cx["seat"] = self.units[ah].side if ah in self.units else cx["seat"]
            if dragons.actions(self, cx["seat"], "after-roll", cx):
                return False
            cx["step"] = "after_def"
            return True
        if step == "after_def":
            dh = self.b.parse(cx["tgt"])
            tu = self.units.get(dh)
            if tu is not None and tu.uid == cx["tgt_uid"] and dragons.actions(self, tu.side, "after-enemy-roll", cx):
                cx["seat"] = tu.side
                return False
            cx["step"] = "resolve"
            return True
        if step == "resolve":
            self._combat_resolve(cx)
            return True
        if step == "flags":
            return self._combat_flags_auto(cx)
        if step == "post":
            self._combat_post(cx)
            return True
        return False

    def _act_combat(self, cx: JSON, action: str) -> None:
        step = cx["step"]
        if step == "react":
            seat = cx["seat"]
            if action == "first-strike":
                self._first_strike(cx)  # the window stays open for a Dragon card (R47)
            elif action.startswith("dragon "):
                dragons.play(self, seat, action, cx)
                if self.stack[-1] is not cx:  # Ambush: the defender's strike has begun
                    self._end_react(cx)
            else:
                self._end_react(cx)
            return
        if step == "hollow":
            if action.startswith("dragon "):
                dragons.play(self, cx["seat"], action, cx)  # Hollow Victory: no gain ground, no bonus
                self.stack[:] = [t for t in self.stack if t is not cx]
            else:
                cx["step"] = "gain"
                cx["seat"] = 1 - cx["seat"]
            return
        if step in ("prep", "after_att", "after_def"):
            if action.startswith("dragon "):
                dragons.play(self, cx["seat"], action, cx)
            cx["step"] = {"prep": "roll", "after_att": "after_def", "after_def": "resolve"}[step]
            if step == "after_att" and cx.get("reroll"):
                self._reroll(cx)
            return
        if step == "inspire":
            at = cx["insp_queue"].pop(0)
            if action == "inspire":
                u = self.units[self.b.parse(at)]
                self.lose_honor(u.side, 1, f"a Leader inspires the {self.ut(u).name} at {at}")
                cx["inspired"].append(at)
        elif step == "flags":
            k = int(action.split()[1])
            self._apply_flags(cx, cx["flags"] - k, k)
        elif step == "gain":
            if action.startswith("advance"):
                if action != "advance":
                    cx["att"] = action.split()[1]
                    cx["att_uid"] = self.units[self.b.parse(cx["att"])].uid
                self._gain_ground(cx)
            else:
                self.stack.pop()
        elif step == "bonus":
            self.stack.pop()
            if action != "no-bonus":
                nh = self.b.parse(action.split()[1])
                self.start_combat("close", self.b.parse(cx["tgt"]), nh, "bonus")
                if cx["role"] == "bonus":
                    self.stack[-1]["second_bonus"] = True
        elif step == "back":
            self.stack.pop()
            if action.startswith("dragon "):
                dragons.play(self, cx["seat"], action, cx)
                self.start_combat("close", self.b.parse(cx["tgt"]), self._battle_back_target(cx), "back")
                self.stack[-1]["dice_override"] = cx.get("dice_n", 0)  # Revenge
            elif action.startswith("battle-back"):
                target = self.b.parse(action.split()[1]) if action != "battle-back" else self._battle_back_target(cx)
                self.start_combat("close", self.b.parse(cx["tgt"]), target, "back")

    def _first_strike(self, cx: JSON) -> None:
        """First Strike is played: the card leaves the hand at once; the defending unit battles
        first when the declaration window closes (:meth:`_end_react`), so that a Dragon card may
        still answer the same declaration (R47)."""
        dh = self.b.parse(cx["tgt"])
        side = self.units[dh].side
        cid = next(c for c in self.hands[side] if self.t.command_ids[c] == "first-strike")
        self.hands[side].remove(cid)
        self.ti.setdefault("first_strikes", []).append({"side": side, "card": cid})
        card = self.t.command["first-strike"]
        self.say("play", f"{self.side_name(side)} plays {card.name}: {card.text}", side=side, card=cid, slug="first-strike")
        cx["first_strike"] = True

    def _end_react(self, cx: JSON) -> None:
        """The defender's answers to a declared close combat are over: the attacker's side
        decides on inspiration next; with First Strike played, the defending unit battles first
        (it then does not battle back; the attacker battles only if still in place)."""
        cx["step"] = "inspire"
        cx["seat"] = 1 - cx["seat"]
        if cx.get("first_strike"):
            self.strike_first(cx, 0)

    def strike_first(self, cx: JSON, extra_dice: int) -> None:
        """The defender battles first (First Strike, Ambush); no battle back afterwards."""
        dh, ah = self.b.parse(cx["tgt"]), self.b.parse(cx["att"])
        cx["no_back"] = True
        self.start_combat("close", dh, ah, "first")
        if extra_dice:
            self.stack[-1]["extra_dice"] = extra_dice

    def _battle_back_target(self, cx: JSON) -> Hex:
        dh = self.b.parse(cx["tgt"])
        return next(h for h in self._present_attackers(cx) if self._can_battle_back(dh, h))

    def combat_dice(self, kind: str, ah: Hex, dh: Hex, inspired: bool) -> int:
        """Steps 1-3 of both combat procedures: base dice, terrain maxima, then additions."""
        u = self.units[ah]
        ut = self.ut(u)
        moved = self.ti["moved"].get(f"u:{u.uid}", 0) > 0
        bonus = 1 if inspired else 0
        effect = self.turn_effect(u)
        if (effect == "charge" and kind == "close") or effect == "shogun":
            bonus += 1
        bonus += dragons.dice_bonus(self, kind, u.uid, u.type, u.side)
        return dice_count(ut, kind, self.b.distance(ah, dh), moved, u.blocks, self.ter(ah), self.ter(dh), bonus)

    def _combat_roll(self, cx: JSON) -> None:
        ah, dh = self.b.parse(cx["att"]), self.b.parse(cx["tgt"])
        u = self.units[ah]
        kind = cx["kind"]
        atts = self._present_attackers(cx)
        n = sum(self.combat_dice(kind, h, dh, self.name(h) in cx["inspired"]) for h in atts)
        n += cx.get("extra_dice", 0)
        if "dice_override" in cx:
            n = cx["dice_override"]  # Revenge: as many dice as the attacker rolled
        if "max_dice" in cx:
            n = min(n, cx["max_dice"])  # Practice of Aikido: nothing raises it
        cx["dice_n"] = n
        faces = self._roll_for(u, kind, n)
        roller = self.unit_label(u) if len(atts) == 1 else f"The swarm of {len(atts)} levies"
        self.say("roll", f"{roller} rolls {n} {'die' if n == 1 else 'dice'}: "
                 f"{', '.join(f.label for f in faces) or 'nothing'}", faces=[f.value for f in faces], dice=n)
        cx["faces"] = [f.value for f in faces]
        cx["step"] = "after_att"

    def _roll_for(self, u: Unit, kind: str, n: int) -> list[Face]:
        faces = self.roll(n)
        if self.ut(u).bodyguard and kind == "close":
            swords = faces.count(Face.SWORDS)
            extra = self.roll(swords)
            if extra:
                self.say("reroll", f"The bodyguards reroll {swords} sword{'s' if swords > 1 else ''}: "
                         f"{', '.join(f.label for f in extra)}", faces=[f.value for f in extra])
            faces = faces + extra
        return faces

    def _reroll(self, cx: JSON) -> None:
        """Spirit of Hachiman: all the dice are rolled again; the second roll stands."""
        u = self.units[self.b.parse(cx["att"])]
        faces = self._roll_for(u, cx["kind"], cx["dice_n"])
        self.say("roll", f"{self.unit_label(u)} rolls again {cx['dice_n']} dice: "
                 f"{', '.join(f.label for f in faces) or 'nothing'}", faces=[f.value for f in faces], dice=cx["dice_n"])
        cx["faces"] = [f.value for f in faces]

    def _combat_resolve(self, cx: JSON) -> None:
        """Score the roll: hits, Honor & Fortune, casualty checks, then flags."""
        ah, dh = self.b.parse(cx["att"]), self.b.parse(cx["tgt"])
        u = self.units[ah]
        ut = self.ut(u)
        side = u.side
        kind = cx["kind"]
        faces = [Face(f) for f in cx["faces"]]
        tu = self.units.get(dh)
        tl = self.leaders.get(dh)
        cx["step"] = "post"
        if tu is None:
            # Combat Against a Leader Alone in a Hex
            assert tl is not None
            bow_blank = kind == "ranged" and not ut.ranged_sword_hits and not self.t.rules.bow_hits_lone_leader
            if Face.SWORDS in faces and bow_blank:
                self.say("no_sword_hits", f"{ut.name} score no hit with a sword at range: the lone Leader is not hit")
            if Face.SWORDS in faces and not bow_blank:
                self.remove_leader(dh, "killed", side)
            else:
                self.say("leader_survives", f"The lone {LEADER_NAME[tl.kind]} at {self.name(dh)} is not hit and must retreat or commit seppuku")
                self._push_leader_retreat(dh)
            return
        tt = self.ut(tu)
        sc = score_roll(Counter(faces), ut, tt, kind, len(cx["inspired"]))
        self.say("score", f"{self.unit_label(u) if len(cx.get('atts', [])) <= 1 else 'The attack'} "
                 f"{explain_roll(Counter(faces), ut, tt, kind, len(cx['inspired']))}")
        if sc.swords_ignored:
            self.say("ignore_swords", f"{tt.name} ignores {sc.swords_ignored} sword{'s' if sc.swords_ignored > 1 else ''} "
                     "(superior rank/stature)")
        hits, honor = sc.hits, sc.honor
        if honor and dragons.has_effect(self, "head-collector", side, u.uid):
            honor *= 2
        if honor:
            self.gain_honor(side, honor, "Honor & Fortune rolled in combat")
        flags = sc.flags * (2 if cx.get("double_flags") else 1)
        cx["flags"] = flags
        ld = self.attached_leader(dh)
        if kind == "ranged" and self.turn_effect(u) == "hold":
            # remembered so that Shot Proof Armor after the second shot can cancel both (R34)
            shots = dict(self.ti.get("hold_shots", {}))
            shots[f"{u.uid}>{tu.uid}"] = shots.get(f"{u.uid}>{tu.uid}", 0) + min(hits, tu.blocks)
            self.ti["hold_shots"] = shots
        eliminated = self.hit_unit(dh, hits, side, f"{hits} hit{'s' if hits != 1 else ''}") if hits else False
        if self._result is not None:
            return
        if hits and ld is not None:
            self._casualty_check(dh, ld, kind, eliminated, side)
            if self._result is not None:
                return
        if eliminated:
            if dh in self.leaders:
                self._push_leader_retreat(dh)
            return
        if dh in self.units and flags:
            cx["step"] = "flags"

    def _casualty_check(self, h: Hex, ld: Leader, kind: str, eliminated: bool, by: int) -> None:
        """Leader Casualty Check."""
        if ld.kind == "commander":
            n, need = 2, 2
        elif eliminated:
            n, need = 1, 1
        else:
            n, need = (2, 2) if kind == "ranged" else (1, 1)
        faces = self.roll(n)
        swords = faces.count(Face.SWORDS)
        self.say("casualty_check", f"Leader Casualty Check on the {self.side_name(ld.side)} {LEADER_NAME[ld.kind]} at "
                 f"{self.name(h)}: {', '.join(f.label for f in faces)}", faces=[f.value for f in faces])
        if swords >= need:
            self.remove_leader(h, "killed", by)
        elif ld.kind == "commander" and h not in self.units:
            # all bodyguards gone: he becomes a foot Leader and must retreat or commit seppuku
            self.leaders[h] = ld._replace(kind="foot")
            self.say("commander", f"The {self.side_name(ld.side)} Army Commander has lost his bodyguards and now acts as a foot Leader")

    def flag_ignores(self, h: Hex, attacker: Unit | None) -> int:
        """Bolster Morale: how many flags the unit at ``h`` may ignore (at most 2)."""
        return min(len(self.flag_ignore_reasons(h, attacker)), 2)

    def flag_ignore_reasons(self, h: Hex, attacker: Unit | None) -> list[str]:
        """Why the unit at ``h`` may ignore flags: one reason per flag (Bolster Morale, 000:1039-1052)."""
        u = self.units[h]
        ut = self.ut(u)
        out: list[str] = []
        support = 0
        for nb in self.b.neighbours(h):
            fu = self.units.get(nb)
            if fu is not None and fu.side == u.side:
                support += 1
            elif fu is None and nb in self.leaders and self.leaders[nb].side == u.side:
                support += 1
        if support >= 2:
            out.append(f"supported by {support} adjacent friendly units or Leaders")
        out.extend([f"{ut.name} ignore a flag"] * ut.ignores_flag)
        if self.attached_leader(h) is not None:
            out.append("a Leader is attached")
        ter = self.ter(h)
        if ter.ignore_flag_any:
            out.append(f"it holds a {ter.name.lower()}")
        if not ut.cavalry and (
            ter.ignore_flag_inf == "any"
            or (ter.ignore_flag_inf == "cavalry" and attacker is not None and self.ut(attacker).cavalry)
        ):
            out.append(f"infantry in a {ter.name.lower()}" + (" against cavalry" if ter.ignore_flag_inf == "cavalry" else ""))
        return out

    def _combat_flags_auto(self, cx: JSON) -> bool:
        dh = self.b.parse(cx["tgt"])
        u = self.units.get(dh)
        if u is None:
            cx["step"] = "post"
            return True
        flags = cx["flags"]
        if self.ut(u).bodyguard and self.attached_leader(dh) is not None:
            self.say("flags", f"The bodyguards ignore {flags} flag{'s' if flags > 1 else ''}: they must ignore all flags")
            cx["step"] = "post"
            return True
        attacker = self.units.get(self.b.parse(cx["att"]))
        rule = dragons.flag_rule(self, cx, u.side, u.uid)
        if rule == "none":
            max_ignore = 0
        elif rule == "all":
            max_ignore = flags
        else:
            reasons = self.flag_ignore_reasons(dh, attacker)
            max_ignore = min(flags, len(reasons), 2)
            cx["ignore_why"] = reasons[:2]
        if rule == "all":
            cx["ignore_why"] = ["a Dragon card lets it ignore every flag"]
        if max_ignore == 0:
            self._apply_flags(cx, flags, 0)
            return True
        cx["max_ignore"] = max_ignore
        cx["seat"] = u.side
        return False

    def _apply_flags(self, cx: JSON, remaining: int, ignored: int) -> None:
        dh = self.b.parse(cx["tgt"])
        u = self.units[dh]
        cx["step"] = "post"
        cx["seat"] = 1 - u.side
        if ignored:
            why = cx.get("ignore_why") or []
            self.say("flags", f"{self.unit_label(u)} ignores {plural(ignored, 'flag')}"
                     + (f" ({'; '.join(why)})" if why else ""))
        if remaining <= 0:
            return
        if self.ter(dh).castle:
            self.say("castle", f"{self.unit_label(u)} holds the castle and takes a hit for each of {plural(remaining, 'flag')}")
            self.hit_unit(dh, remaining, 1 - u.side, "flags it could not ignore in a castle")
            return
        hexes = remaining * self.ut(u).hexes_per_flag
        self.stack.append({
            "t": "retreat", "seat": u.side, "uid": u.uid, "at": self.name(dh), "left": hexes, "moved": 0,
            "leader": dh in self.leaders, "by": 1 - u.side,
        })
        self.say("retreat_due", f"{self.unit_label(u)} must retreat {hexes} hex{'es' if hexes > 1 else ''}")

    def _combat_post(self, cx: JSON) -> None:
        """After hits, checks and retreats: gain ground and bonus combat, or battle back."""
        dh = self.b.parse(cx["tgt"])
        present = self._present_attackers(cx)
        if not present or cx["kind"] != "close" or cx["role"] in ("back", "first"):
            self.stack.pop()
            return
        ah = present[0]
        att = self.units[ah]
        if dh not in self.units and dh not in self.leaders:
            if self.ter(dh).impassable or (ah in self.leaders and self.b.is_half(dh)):
                self.stack.pop()
                return
            cx["step"] = "hollow" if dragons.actions(self, 1 - att.side, "enemy-success", cx) else "gain"
            cx["seat"] = 1 - att.side if cx["step"] == "hollow" else att.side
            return
        tu = self.units.get(dh)
        if cx.get("no_back"):
            self.say("no_battle_back", "No battle back: the defender already struck first")
            self.stack.pop()
            return
        if tu is not None and tu.uid == cx["tgt_uid"] and any(self._can_battle_back(dh, h) for h in present):
            cx["step"] = "back"
            cx["seat"] = tu.side
            return
        self.stack.pop()

    def _can_battle_back(self, dh: Hex, ah: Hex) -> bool:
        tu = self.units[dh]
        cav = self.ut(tu).cavalry
        if self.ter(dh).cap_on("close", cav) == 0 or self.ter(ah).cap_into("close", cav) == 0:
            return False
        return self.combat_dice("close", dh, ah, False) > 0

    def _gain_ground(self, cx: JSON) -> None:
        ah, dh = self.b.parse(cx["att"]), self.b.parse(cx["tgt"])
        u = self.units.pop(ah)
        self.units[dh] = u
        ld = self.leaders.get(ah)
        if ld is not None and ld.side == u.side:
            del self.leaders[ah]
            self.leaders[dh] = ld
        self.say("gain_ground", f"{self.unit_label(u)} gains ground from {self.name(ah)} to {self.name(dh)}",
                 frm=self.name(ah), to=self.name(dh))
        ut = self.ut(u)
        qualified = ut.cavalry or dh in self.leaders
        legendary = dragons.has_effect(self, "legendary-combat", u.side, u.uid)
        if cx["role"] == "attack":
            may = qualified or legendary
        else:  # Legendary Combat: a unit that already qualified may make a second bonus close combat
            may = cx["role"] == "bonus" and legendary and qualified and not cx.get("second_bonus")
        eligible = may and not self.ter(dh).forbids_battle_on_entry(ut.cavalry) and bool(self.close_targets(dh))
        if eligible:
            cx["step"] = "bonus"
        else:
            self.stack.pop()

    # -------------------------------------------------------------- retreats
    def retreat_steps(self, h: Hex, u: Unit) -> list[Hex]:
        """Retreats: the hexes one retreat move can reach (toward the own baseline)."""
        r = h[1] + self.back_dir(u.side)
        out = []
        for dx in (-1, 1):
            n = (h[0] + dx, r)
            if n not in self.b or self.ter(n).impassable or n in self.units:
                continue
            if self.b.is_half(n) and (h in self.leaders or not self.t.rules.retreat_onto_half_hexes):
                continue  # the attached Leader may never enter a half-hex; Zvezda units neither (R40)
            ld = self.leaders.get(n)
            if ld is not None:
                if ld.side != u.side or h in self.leaders:
                    continue
                if self.ut(u).cavalry and ld.kind != "mounted":
                    continue
            out.append(n)
        return out

    def _retreat_loss(self, h: Hex, u: Unit, left: int) -> int:
        """Fewest blocks lost completing ``left`` retreat hexes from ``h``."""
        if left == 0:
            return 0
        steps = self.retreat_steps(h, u)
        if not steps:
            return left
        best = left
        for n in steps:
            if n in self.leaders:
                return 0
            best = min(best, self._retreat_loss_from(n, h, u, left - 1))
        return best

    def _retreat_loss_from(self, n: Hex, frm: Hex, u: Unit, left: int) -> int:
        # the unit is considered moved from ``frm`` to ``n``
        moved = self.units.pop(frm)
        ld = self.leaders.pop(frm, None)
        self.units[n] = moved
        if ld is not None:
            self.leaders[n] = ld
        try:
            return self._retreat_loss(n, u, left)
        finally:
            del self.units[n]
            self.units[frm] = moved
            if ld is not None:
                del self.leaders[n]
                self.leaders[frm] = ld

    def _retreat_options(self, task: JSON) -> list[Hex]:
        h = self.b.parse(task["at"])
        u = self.units[h]
        steps = self.retreat_steps(h, u)
        if not steps:
            return []
        scored = []
        for n in steps:
            loss = 0 if n in self.leaders else self._retreat_loss_from(n, h, u, task["left"] - 1)
            scored.append((loss, n))
        best = min(s for s, _ in scored)
        return [n for s, n in scored if s == best]

    def _legal_retreat(self, task: JSON) -> list[str]:
        return [f"retreat {self.name(n)}" for n in sorted(self._retreat_options(task))]

    def _auto_retreat(self, task: JSON) -> bool:
        h = self.b.parse(task["at"])
        u = self.units.get(h)
        if u is None or u.uid != task["uid"]:
            self.stack.pop()
            return True
        if task["left"] <= 0:
            self._finish_retreat(task, h, u)
            return True
        opts = self._retreat_options(task)
        if not opts:
            why = "it is at its baseline" if h[1] == self.baseline_row(u.side) else "its retreat path is blocked"
            self.say("retreat_blocked", f"{self.unit_label(u)} cannot retreat {task['left']} more hex(es): {why}")
            gone = self.hit_unit(h, task["left"], task["by"], "retreat could not be completed")
            task["left"] = 0
            if gone:
                self.stack.pop()
                if task["moved"]:
                    self._pay_retreat(task, h, u)
            return True
        if len(opts) == 1:
            self._retreat_step(task, h, u, opts[0])
            return True
        return False

    def _act_retreat(self, task: JSON, action: str) -> None:
        h = self.b.parse(task["at"])
        self._retreat_step(task, h, self.units[h], self.b.parse(action.split()[1]))

    def _retreat_step(self, task: JSON, h: Hex, u: Unit, n: Hex) -> None:
        del self.units[h]
        self.units[n] = u
        ld = self.leaders.get(h)
        if ld is not None and ld.side == u.side:
            del self.leaders[h]
            self.leaders[n] = ld
        task["at"] = self.name(n)
        task["moved"] += 1
        task["left"] -= 1
        joined = ""
        if ld is None and n in self.leaders:
            joined = f" and stops to join the {LEADER_NAME[self.leaders[n].kind]}"
            task["left"] = 0
        self.say("retreat", f"{self.unit_label(u)} retreats {self.name(h)} to {self.name(n)}{joined}",
                 frm=self.name(h), to=self.name(n))

    def _finish_retreat(self, task: JSON, h: Hex, u: Unit) -> None:
        self.stack.pop()
        if task["moved"]:
            self._pay_retreat(task, h, u)

    def _pay_retreat(self, task: JSON, h: Hex, u: Unit) -> None:
        """Retreat & Loss of Honor, then a Lack of Honor roll if the reserve falls short."""
        ut = self.ut(u)
        moved = task["moved"]
        if ut.retreat_honor_flat:
            cost = ut.retreat_honor_flat + (moved if task["leader"] else 0)
        else:
            cost = moved * (ut.retreat_honor + (1 if task["leader"] else 0))
        short = self.lose_honor(u.side, cost, f"{ut.name} retreated {moved} hex{'es' if moved > 1 else ''}")
        if short:
            self._push_loh(u.side, short, h, u.uid, None, symbol=ut.symbol)

    # ---------------------------------------------------------- lone Leaders
    def leader_retreats(self, h: Hex) -> list[Hex]:
        """Leader Retreat: end hexes 1-3 retreat moves back, through friends, never into enemies."""
        ld = self.leaders[h]
        back = self.back_dir(ld.side)
        out: set[Hex] = set()
        frontier = [h]
        for _ in range(3):
            nxt = []
            for cur in frontier:
                for dx in (-1, 1):
                    n = (cur[0] + dx, cur[1] + back)
                    if n not in self.b or self.b.is_half(n) or self.ter(n).impassable:
                        continue
                    u = self.units.get(n)
                    other = self.leaders.get(n)
                    if (u is not None and u.side != ld.side) or (other is not None and other.side != ld.side):
                        continue
                    nxt.append(n)
                    if other is not None:
                        continue
                    if u is not None:
                        ut = self.ut(u)
                        if ut.bodyguard or (ut.cavalry and ld.kind != "mounted"):
                            continue
                    out.add(n)
            frontier = nxt
        return sorted(out)

    def _push_leader_retreat(self, h: Hex) -> None:
        ld = self.leaders[h]
        self.stack.append({"t": "lretreat", "seat": ld.side, "lid": ld.lid, "at": self.name(h)})

    def leader_can_retreat_off(self, h: Hex) -> bool:
        """Zvezda (R41): a lone Leader may retreat off his own baseline within his 3 retreat hexes;
        the step off the board from a baseline hex counts as one hex."""
        if not self.t.rules.leader_retreats_off_baseline:
            return False
        ld = self.leaders[h]
        base, back = self.baseline_row(ld.side), self.back_dir(ld.side)
        frontier = {h}
        for _ in range(3):  # the last of the 3 retreat hexes may be the step off the board
            if any(cur[1] == base for cur in frontier):
                return True
            nxt: set[Hex] = set()
            for cur in frontier:
                for dx in (-1, 1):
                    n = (cur[0] + dx, cur[1] + back)
                    if n not in self.b or self.b.is_half(n) or self.ter(n).impassable:
                        continue
                    u, other = self.units.get(n), self.leaders.get(n)
                    if (u is not None and u.side != ld.side) or (other is not None and other.side != ld.side):
                        continue
                    nxt.add(n)
            frontier = nxt
        return False

    def _lretreat_forced(self, task: JSON) -> str | None:
        h = self.b.parse(task["at"])
        if self.leader_can_retreat_off(h):
            return None
        if h[1] == self.baseline_row(task["seat"]):
            return "he stands on his own baseline"
        if not self.leader_retreats(h):
            return "he cannot retreat a single hex"
        return None

    def _legal_lretreat(self, task: JSON) -> list[str]:
        h = self.b.parse(task["at"])
        if h[1] == self.baseline_row(task["seat"]):
            ends: list[Hex] = []  # on his baseline there is no hex further back
        else:
            ends = self.leader_retreats(h)
        off = ["retreat off"] if self.leader_can_retreat_off(h) else []
        return [*(f"retreat {self.name(n)}" for n in ends), *off, "seppuku"]

    def _auto_lretreat(self, task: JSON) -> bool:
        h = self.b.parse(task["at"])
        ld = self.leaders.get(h)
        if ld is None or ld.lid != task["lid"] or h in self.units:
            self.stack.pop()
            return True
        why = self._lretreat_forced(task)
        if why is None:
            return False
        self.say("seppuku_forced", f"The {self.side_name(ld.side)} {LEADER_NAME[ld.kind]} at {self.name(h)} must commit seppuku: {why}")
        self.stack.pop()
        self._seppuku(h)
        return True

    def _act_lretreat(self, task: JSON, action: str) -> None:
        h = self.b.parse(task["at"])
        self.stack.pop()
        if action == "seppuku":
            self._seppuku(h)
            return
        if action == "retreat off":
            ld = self.leaders.pop(h)
            self.removed.append({"side": ld.side, "piece": ld.lid, "cause": "off", "type": ld.kind})
            self.say("leader_retreat", f"The {self.side_name(ld.side)} {LEADER_NAME[ld.kind]} retreats off the battlefield "
                     f"from {self.name(h)} and saves his standard", frm=self.name(h), to="off")
            short = self.lose_honor(ld.side, 3, "a lone Leader retreated")
            if short:
                self._push_loh(ld.side, short, h, None, ld.lid)
            return
        n = self.b.parse(action.split()[1])
        ld = self.leaders.pop(h)
        self.leaders[n] = ld
        joined = f" and joins the {self.ut(self.units[n]).name}" if n in self.units else ""
        self.say("leader_retreat", f"The {self.side_name(ld.side)} {LEADER_NAME[ld.kind]} retreats {self.name(h)} to {self.name(n)}{joined}",
                 frm=self.name(h), to=self.name(n))
        short = self.lose_honor(ld.side, 3, "a lone Leader retreated")
        if short:
            self._push_loh(ld.side, short, n, None, ld.lid)

    def _seppuku(self, h: Hex) -> None:
        """Leader Seppuku: +5 tokens, a Command card lost by the opponent's pick, a Dragon card for him."""
        ld = self.leaders.pop(h)
        side = ld.side
        self.removed.append({"side": side, "piece": ld.lid, "cause": "seppuku", "type": ld.kind})
        self.say("seppuku", f"The {self.side_name(side)} {LEADER_NAME[ld.kind]} at {self.name(h)} commits seppuku", hex=self.name(h))
        self.gain_honor(side, 5, "seppuku")
        self.command[side] = max(1, self.command[side] - 1)
        self.draw_dragon(1 - side)
        if self.hands[side]:
            perm = self.rng.shuffled(self.hands[side])
            self.stack.append({"t": "pick", "seat": 1 - side, "victim": side, "perm": perm})
            self.say("pick_due", f"{self.side_name(1 - side)} picks one of {self.side_name(side)}'s "
                     f"{len(perm)} face-down Command cards", random=True)

    def _legal_pick(self, task: JSON) -> list[str]:
        return [f"pick {i + 1}" for i in range(len(task["perm"]))]

    def _act_pick(self, task: JSON, action: str) -> None:
        k = int(action.split()[1])
        cid = task["perm"][k - 1]
        victim = task["victim"]
        self.stack.pop()
        self.hands[victim].remove(cid)
        self.cmd_discard.append(cid)
        self.say("discard", f"{self.side_name(1 - victim)} picks face-down card {k}: {self.side_name(victim)} discards "
                 f"{self.card_name(cid)}", side=victim, card=cid)

    # ----------------------------------------------------------- Lack of Honor
    def loh_dice(self, short: int) -> int:
        """Lack of Honor: 4 dice plus one per token short (GMT), or a flat 4 (Zvezda, R39)."""
        return 4 + short if self.t.rules.loh_dice_per_token_short else 4

    def loh_roller_text(self, side: int, n: int) -> str:
        """Who throws the Lack of Honor dice against ``side``: himself (GMT) or his opponent (Zvezda)."""
        if self.t.rules.loh_roller == "opponent":
            return f"{self.side_name(1 - side)} rolls {n} dice against it"
        return f"rolls {n} dice"

    def _push_loh(self, side: int, short: int, origin: Hex, uid: str | None, lid: str | None, symbol: str | None = None) -> None:
        n = self.loh_dice(short)
        faces = self.roll(n)
        self.say("lack_of_honor", f"Lack of Honor: {self.side_name(side)} is {plural(short, 'token')} short and "
                 f"{self.loh_roller_text(side, n)}: {', '.join(f.label for f in faces)}",
                 side=side, faces=[f.value for f in faces])
        self.stack.append({"t": "loh", "seat": side, "faces": [f.value for f in faces], "origin": self.name(origin),
                           "uid": uid, "lid": lid, "symbol": symbol})

    def loh_candidates(self, side: int, origin: Hex, symbol: str) -> list[Hex]:
        """The nearest units of ``side`` bearing ``symbol`` (all of them when tied)."""
        hexes = [h for h, u in self.units.items() if u.side == side and self.ut(u).symbol == symbol]
        if not hexes:
            return []
        d = min(self.b.distance(origin, h) for h in hexes)
        return sorted(h for h in hexes if self.b.distance(origin, h) == d)

    def _auto_loh(self, task: JSON) -> bool:
        side = task["seat"]
        while task["faces"]:
            face = Face(task["faces"][0])
            if face == Face.SWORDS and task["lid"]:
                lh = self.find_leader(task["lid"])
                task["faces"].pop(0)
                if lh is not None:
                    self.remove_leader(lh, "killed", 1 - side)
                    if self._result is not None:
                        return True
                continue
            if not face.is_unit_symbol:
                task["faces"].pop(0)
                continue
            if task["uid"] and task["symbol"] and face == SYMBOL_FACE.get(task["symbol"]):
                task["faces"].pop(0)
                uh = self.find_unit(task["uid"])
                if uh is not None:
                    self.hit_unit(uh, 1, 1 - side, "Lack of Honor")
                    if self._result is not None:
                        return True
                continue
            cands = self.loh_candidates(side, self.b.parse(task["origin"]), face.value)
            if len(cands) > 1:
                return False
            task["faces"].pop(0)
            if cands:
                self.hit_unit(cands[0], 1, 1 - side, "Lack of Honor")
                if self._result is not None:
                    return True
        self.stack.pop()
        return True

    def _legal_loh(self, task: JSON) -> list[str]:
        face = Face(task["faces"][0])
        return [f"hit {self.name(h)}" for h in self.loh_candidates(task["seat"], self.b.parse(task["origin"]), face.value)]

    def _act_loh(self, task: JSON, action: str) -> None:
        task["faces"].pop(0)
        self.hit_unit(self.b.parse(action.split()[1]), 1, 1 - task["seat"], "Lack of Honor")

    # ---------------------------------------------------- phase 5: end of turn
    def _auto_end(self, task: JSON) -> bool:
        side = task["seat"]
        step = task["step"]
        if step == "wise":
            # Phase 5 begins: the Command card played is discarded
            cid = self.ti["card"]
            if cid is not None:
                self.cmd_discard.append(cid)
                self.ti["card"] = None
            if dragons.actions(self, side, "end"):
                return False  # Wise Advisor may be played instead of drawing
            task["step"] = "draw"
            return True
        if step == "wise-pick":
            return False
        if step == "draw":
            eff_slug = self.ti.get("effective") or ""
            if self.order_one_banner == side and eff_slug.startswith("order-one-"):
                if self.banners[side] + 1 < self.victory:
                    self.award_banner(side, 1, "an Order One Unit card played (scenario rule)", objective=True)
                else:
                    self.say("no_banner", "The scenario's Order One banner cannot give the last Victory Banner")
            for fs in self.ti.get("first_strikes", []):
                # "At the end of the turn, you draw a replacement Command card first."
                self.cmd_discard.append(fs["card"])
                got = self.draw_command(fs["side"])
                if got is not None:
                    self.hands[fs["side"]].append(got)
                    self.say_private(fs["side"], "draw", f"{self.side_name(fs['side'])} draws {self.card_name(got)}",
                                     f"{self.side_name(fs['side'])} draws a Command card", side=fs["side"], card=got)
            self.ti["first_strikes"] = []
            eff = self.ti.get("effective")
            card = self.t.command[eff] if eff else None
            if eff == "shogun":
                self.cmd_deck = self.rng.shuffled(self.cmd_deck + self.cmd_discard)
                self.cmd_discard = []
                self.dr_deck = self.rng.shuffled(self.dr_deck + self.dr_discard)
                self.dr_discard = []
                self.say("reshuffle", "Shogun: both the Command and the Dragon decks are reshuffled with their discards")
            n = 2 if card is not None and card.draw_two else 1
            if self.ti.get("wise_taken"):
                n = 0  # Wise Advisor: a card from the discard pile instead of the draw
            drawn = [c for c in (self.draw_command(side) for _ in range(n)) if c is not None]
            if len(drawn) == 2 and self.t.command_ids[drawn[0]] != self.t.command_ids[drawn[1]]:
                task["drawn"] = drawn
                task["step"] = "keep"
                names = " and ".join(self.card_name(c) for c in drawn)
                self.say_private(side, "draw_two", f"{self.side_name(side)} draws {names} and must keep one",
                                 f"{self.side_name(side)} draws 2 Command cards and keeps one", side=side, cards=drawn)
                return False
            if drawn:
                self.hands[side].append(drawn[0])
                for extra in drawn[1:]:
                    self.cmd_discard.append(extra)
                self.say_private(side, "draw", f"{self.side_name(side)} draws {self.card_name(drawn[0])}",
                                 f"{self.side_name(side)} draws a Command card", side=side, card=drawn[0])
            task["step"] = "discard"
            return True
        if step == "discard":
            if self.ti["dragon_played"][side] or not self.dragons[side]:
                task["step"] = "replenish"
                return True
            return False
        if step == "replenish":
            return False
        return False

    def _legal_end(self, task: JSON) -> list[str]:
        side = task["seat"]
        step = task["step"]
        if step == "wise":
            return [*dragons.actions(self, side, "end"), "pass"]
        if step == "wise-pick":
            return sorted({f"take {self.t.command_ids[c]}" for c in self.cmd_discard})
        if step == "keep":
            return sorted({f"keep {self.t.command_ids[c]}" for c in task["drawn"]})
        if step == "discard":
            slugs = sorted({self.t.dragon_ids[d] for d in self.dragons[side]})
            return [*(f"discard-dragon {s}" for s in slugs), "keep-dragons"]
        if step == "replenish":
            acts = ["take-honor"]
            if self.dr_deck or self.dr_discard:
                acts.insert(0, "draw-dragon")
            return acts
        return []

    def _act_end(self, task: JSON, action: str) -> None:
        side = task["seat"]
        step = task["step"]
        if step == "wise":
            task["step"] = "draw"
            if action != "pass":
                dragons.play(self, side, action)
                task["step"] = "wise-pick"
            return
        if step == "wise-pick":
            slug = action.split()[1]
            cid = next(c for c in reversed(self.cmd_discard) if self.t.command_ids[c] == slug)
            self.cmd_discard.remove(cid)
            self.hands[side].append(cid)
            self.ti["wise_taken"] = True
            self.say("wise_advisor", f"{self.side_name(side)} takes {self.card_name(cid)} from the discard pile", side=side,
                     card=cid)
            task["step"] = "draw"
            return
        if step == "keep":
            slug = action.split()[1]
            keep = next(c for c in task["drawn"] if self.t.command_ids[c] == slug)
            other = [c for c in task["drawn"] if c != keep]
            self.hands[side].append(keep)
            self.cmd_discard.extend(other)
            self.say_private(side, "keep", f"{self.side_name(side)} keeps {self.card_name(keep)} and discards "
                             f"{', '.join(self.card_name(c) for c in other)}",
                             f"{self.side_name(side)} keeps one card and discards "
                             f"{', '.join(self.card_name(c) for c in other)}", side=side, card=keep)
            del task["drawn"]
            task["step"] = "discard"
        elif step == "discard":
            if action != "keep-dragons":
                slug = action.split()[1]
                did = next(d for d in self.dragons[side] if self.t.dragon_ids[d] == slug)
                self.dragons[side].remove(did)
                self.dr_discard.append(did)
                self.say("discard_dragon", f"{self.side_name(side)} discards the Dragon card {self.dragon_name(did)}", side=side, card=did)
                self.gain_honor(side, 1, "a Dragon card discarded")
            task["step"] = "replenish"
        elif step == "replenish":
            if action == "draw-dragon":
                self.draw_dragon(side)
            else:
                self.gain_honor(side, 2, "end of turn")
            if self.dragon_tokens:
                self.pool += self.dragon_tokens
                self.say("honor", f"{self.dragon_tokens} Honor & Fortune on the Dragon cards go back to the pool")
                self.dragon_tokens = 0
            self.dr_discard.extend(self.ti["dragons_in_play"])
            self.ti["dragons_in_play"] = []
            self.stack.pop()
            self._start_turn()

    # ------------------------------------------------------------- for AI
    def determinize(self, seat: int, rng: Rng) -> CCState:
        """Resample everything ``seat`` cannot see: the other hand, deck orders, the RNG."""
        s = self.clone()
        opp = 1 - seat
        drawn_hidden = [c for t in s.stack if t.get("drawn") and t["seat"] != seat for c in t["drawn"]]
        # sorted first, so the result depends only on *which* cards are unseen
        pool = sorted(s.cmd_deck + s.hands[opp] + drawn_hidden)
        mixed = rng.shuffled(pool)
        n = len(s.hands[opp])
        s.hands[opp] = mixed[:n]
        rest = mixed[n:]
        for t in s.stack:
            if t.get("drawn") and t["seat"] != seat:
                k = len(t["drawn"])
                t["drawn"], rest = rest[:k], rest[k:]
        s.cmd_deck = rest
        dpool = rng.shuffled(sorted(s.dr_deck + s.dragons[opp]))
        k = len(s.dragons[opp])
        s.dragons[opp], s.dr_deck = dpool[:k], dpool[k:]
        for t in s.stack:
            if t["t"] == "pick":
                t["perm"] = rng.shuffled(sorted(s.hands[t["victim"]]))
        s.rng = Rng(rng.next64())
        s.forced = []
        s.events = ()
        return s

    def heuristic(self, seat: int) -> float:
        """Material, banners and Honor & Fortune, squashed into [-1, 1]."""
        res = self._result
        if res is not None:
            return 0.0 if res.winner is None else (1.0 if res.winner == seat else -1.0)
        score = 0.0
        for side, sign in ((seat, 1.0), (1 - seat, -1.0)):
            score += sign * 12.0 * self.banners[side] / max(1, self.victory) * 5
            score += sign * 0.6 * min(self.honor[side], 10)
        for h, u in self.units.items():
            sign = 1.0 if u.side == seat else -1.0
            ut = self.ut(u)
            value = 2.0 + (0.5 if ut.symbol == "square" else 0.0)
            score += sign * value * u.blocks
            support = sum(1 for n in self.b.neighbours(h) if n in self.units and self.units[n].side == u.side)
            score += sign * (0.4 if support >= 2 else 0.0)
            if h in self.leaders:
                score += sign * 1.5
        for h, ld in self.leaders.items():
            if h not in self.units:
                score += (1.0 if ld.side == seat else -1.0) * 3.0
        return max(-0.99, min(0.99, score / 60.0))

    # ------------------------------------------------------------- views
    def action_odds(self, action: str) -> JSON | None:
        """Exact odds of ``attack A B`` / ``fire A B`` now (:func:`odds.action_odds`)."""
        from kassen.rulesets.cc_samurai.odds import action_odds

        return action_odds(self, action)

    def secrets(self, seat: int | None) -> set[str]:
        out: set[str] = {f'"{c}"' for c in self.cmd_deck} | {f'"{d}"' for d in self.dr_deck}
        for side in (0, 1):
            if side != seat:
                out |= {f'"{c}"' for c in self.hands[side]}
                out |= {f'"{d}"' for d in self.dragons[side]}
        out.add(str(self.rng.state))
        return out

    def card_json(self, cid: str) -> JSON:
        slug = self.t.command_ids[cid]
        c = self.t.command[slug]
        return {"id": cid, "slug": slug, "name": c.name, "kind": c.kind, "text": c.text}

    def dragon_json(self, did: str) -> JSON:
        slug = self.t.dragon_ids[did]
        d = self.t.dragon[slug]
        return {"id": did, "slug": slug, "name": d.name, "cost": d.cost, "window": d.window, "target": d.target,
                "effect": d.effect, "confidence": d.confidence}

    def _orders_given_text(self) -> str:
        """"2 of 3 given": the orders given and what the played card allows (when it has a number)."""
        spec = self.ti.get("spec") or {}
        cap: int | None = len(spec["slots"]) if spec.get("mode") == "slots" else spec.get("count")
        if cap is not None and "max" in spec:
            cap = min(cap, spec["max"])
        given = len(self.ti["orders"])
        return f"{given} of {cap} given" if cap is not None and 0 < cap < 99 else f"{given} given"

    def pending_json(self) -> JSON | None:
        if not self.stack or self._result is not None:
            return None
        task = self.stack[-1]
        out: JSON = {"decision": task["t"], "seat": task["seat"], "side": SIDE_NAMES[task["seat"]],
                     "prompt": self.prompt()}
        for k in ("step", "att", "tgt", "kind", "role", "at", "left", "max_ignore", "flags", "w", "faces"):
            if k in task:
                out[k] = task[k]
        return out

    def prompt(self) -> str:
        if self._result is not None or not self.stack:
            return "the battle is over"
        task = self.stack[-1]
        side = self.side_name(task["seat"])
        t = task["t"]
        if t == "combat":
            step = task["step"]
            return {
                "react": f"{side}: your unit at {task['tgt']} is attacked from {task['att']}: answer with First Strike "
                         "or a Dragon card?",
                "prep": f"{side}: play a Dragon card before rolling (attack from {task['att']} on {task['tgt']})?",
                "after_att": f"{side}: play a Dragon card on your roll ({', '.join(task.get('faces', []))})?",
                "after_def": f"{side}: play a Dragon card against the roll on {task['tgt']} "
                             f"({', '.join(task.get('faces', []))})?",
                "hollow": f"{side}: your unit was driven from {task['tgt']}: play a Dragon card to deny the ground?",
                "inspire": f"{side}: spend 1 Honor & Fortune to have a Leader inspire the unit at {task['att']} (+1 die)?",
                "flags": f"{side}: {plural(task.get('flags', 0), 'flag')} against {task['tgt']}; how many to ignore (up to {task.get('max_ignore')})?",
                "gain": f"{side}: gain ground into {task['tgt']}?",
                "bonus": f"{side}: make a bonus close combat from {task['tgt']}?",
                "back": f"{side}: battle back from {task['tgt']} against {task['att']}?",
            }.get(step, str(step))
        if t == "end":
            return {
                "wise": f"{side}: end of turn: play a Dragon card (Wise Advisor) before drawing?",
                "wise-pick": f"{side}: take which card from the Command discard pile?",
                "keep": f"{side}: keep which of the two Command cards drawn?",
                "discard": f"{side}: discard a Dragon card for 1 Honor & Fortune?",
                "replenish": f"{side}: draw a Dragon card or take 2 Honor & Fortune?",
            }.get(task["step"], "end of turn")
        return {
            "play": f"{side}: play a Command card",
            "order": f"{side}: order units and Leaders ({self._orders_given_text()})",
            "move": f"{side}: move ordered units and Leaders",
            "battle": f"{side}: battle with ordered units",
            "retreat": f"{side}: choose the retreat hex for the unit at {task.get('at')} ({task.get('left')} to go)",
            "lretreat": f"{side}: the lone Leader at {task.get('at')} must retreat 1-3 hexes or commit seppuku",
            "pick": f"{side}: pick one of the opponent's face-down Command cards to discard",
            "loh": f"{side}: Lack of Honor: which of the nearest units loses the block?",
            "dloh": f"{side}: {task.get('why')}: which of your units bearing the symbol loses a block?",
            "turncoat": f"{side}: you decide: does the unit at {task.get('hex')} change sides?",
            "dragon": f"{side}: play a Dragon card now ({dragons.WINDOWS.get(task.get('w', ''), task.get('w'))})?",
        }.get(t, str(t))

    def board_json(self) -> JSON:
        units = []
        for h, u in sorted(self.units.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            ld = self.leaders.get(h)
            units.append({"hex": self.name(h), "id": u.uid, "type": u.type, "side": SIDE_NAMES[u.side],
                          "symbol": self.ut(u).symbol, "blocks": u.blocks,
                          "leader": ld.kind if ld is not None else None})
        lone = [{"hex": self.name(h), "id": ld.lid, "kind": ld.kind, "side": SIDE_NAMES[ld.side]}
                for h, ld in sorted(self.leaders.items(), key=lambda kv: (kv[0][1], kv[0][0])) if h not in self.units]
        return {
            "terrain": {self.name(h): t for h, t in sorted(self.terrain.items(), key=lambda kv: (kv[0][1], kv[0][0]))},
            "tents": {SIDE_NAMES[s]: self.name(h) for s, h in sorted(self.tents.items())},
            "units": units,
            "leaders": lone,
        }

    def observation(self, seat: int | None) -> JSON:
        obs: JSON = {
            "game": self.game.id,
            "scenario": self.scenario_id,
            "turn": self.turn,
            "active": SIDE_NAMES[self.active],
            "bottom": SIDE_NAMES[self.bottom],
            "to_move": None if self.to_move() is None else SIDE_NAMES[self.to_move() or 0],
            "you": None if seat is None else SIDE_NAMES[seat],
            "board": self.board_json(),
            "honor": {SIDE_NAMES[s]: self.honor[s] for s in (0, 1)},
            "pool": self.pool,
            "banners": {SIDE_NAMES[s]: self.banners[s] for s in (0, 1)},
            "victory_banners": self.victory,
            "objectives": [
                {"name": o["name"], "hexes": [self.name(h) for h in o["hexes"]], "banners": o["banners"],
                 "kind": o["kind"], "for": "both" if o["side"] == -1 else SIDE_NAMES[o["side"]],
                 "held_by": None if self.obj_held[i] is None else SIDE_NAMES[self.obj_held[i] or 0]}
                for i, o in enumerate(self.objective_defs)
            ],
            "command": {SIDE_NAMES[s]: self.command[s] for s in (0, 1)},
            "hand_sizes": {SIDE_NAMES[s]: len(self.hands[s]) for s in (0, 1)},
            "dragon_counts": {SIDE_NAMES[s]: len(self.dragons[s]) for s in (0, 1)},
            "command_deck": len(self.cmd_deck),
            "dragon_deck": len(self.dr_deck),
            "command_discard": [self.card_json(c) for c in self.cmd_discard[-5:]],
            "command_discard_size": len(self.cmd_discard),
            "dragon_discard": [self.dragon_json(d) for d in self.dr_discard[-5:]],
            "played": self.card_json(self.ti["card"]) if self.ti.get("card") else None,
            "dragons_in_play": [self.dragon_json(d) for d in self.ti["dragons_in_play"]],
            "dragon_tokens": self.dragon_tokens,
            "orders": [self.name(h) + (" leader" if k[0] == "l" and h in self.units else "")
                       for k in self.ti["orders"] if (h := self.key_hex(k)) is not None],
            "pending": self.pending_json(),
            "result": self._result.to_json() if self._result else None,
        }
        if seat is not None:
            obs["hand"] = [self.card_json(c) for c in self.hands[seat]]
            obs["dragons"] = [self.dragon_json(d) for d in self.dragons[seat]]
            if self.to_move() == seat:
                obs["legal_actions"] = self.legal_actions()
                top = self.stack[-1]
                if top.get("drawn"):
                    obs["drawn"] = [self.card_json(c) for c in top["drawn"]]
        return obs

    # -------------------------------------------------------- serialization
    def to_json(self) -> JSON:
        n = self.name
        return {
            "format": "kassen-cc-samurai-state/1",
            "scenario": {"id": self.scenario_id, "name": self.scenario_name, "victory": self.victory,
                         "tent_banners": self.tent_banners, "exit_banners": self.exit_banners,
                         "bottom": self.bottom, "exits": [[n(h) for h in e] for e in self.exits],
                         "order_one_banner": self.order_one_banner,
                         "objectives": [{**o, "hexes": [n(h) for h in o["hexes"]]} for o in self.objective_defs]},
            "obj_held": self.obj_held,
            "terrain": {n(h): t for h, t in sorted(self.terrain.items())},
            "tents": {str(s): n(h) for s, h in sorted(self.tents.items())},
            "units": [[n(h), u.uid, u.type, u.side, u.blocks] for h, u in sorted(self.units.items())],
            "leaders": [[n(h), ld.lid, ld.kind, ld.side] for h, ld in sorted(self.leaders.items())],
            "start_blocks": dict(sorted(self.start_blocks.items())),
            "hands": self.hands, "dragons": self.dragons,
            "cmd_deck": self.cmd_deck, "cmd_discard": self.cmd_discard,
            "dr_deck": self.dr_deck, "dr_discard": self.dr_discard,
            "honor": self.honor, "pool": self.pool, "dragon_tokens": self.dragon_tokens,
            "banners": self.banners, "objectives": self.objectives,
            "command": self.command, "turn": self.turn, "active": self.active,
            "stack": self.stack, "ti": self.ti, "last_played": self.last_played, "removed": self.removed,
            "rng": self.rng.state, "forced": self.forced,
            "result": self._result.to_json() if self._result else None,
        }

    @classmethod
    def from_json(cls, game: CCSamuraiGame, d: JSON) -> CCState:
        if not isinstance(d, dict) or d.get("format") != "kassen-cc-samurai-state/1":
            raise FormatError("not a C&C Samurai state: 'format' must be 'kassen-cc-samurai-state/1'")
        s = cls(game)
        try:
            p = s.b.parse
            sc = d["scenario"]
            s.scenario_id, s.scenario_name = str(sc["id"]), str(sc["name"])
            s.victory, s.tent_banners, s.exit_banners = int(sc["victory"]), int(sc["tent_banners"]), int(sc["exit_banners"])
            s.bottom = int(sc["bottom"])
            oob = sc.get("order_one_banner")
            s.order_one_banner = None if oob is None else int(oob)
            s.exits = [[p(h) for h in e] for e in sc["exits"]]
            s.objective_defs = [{**o, "hexes": [p(h) for h in o["hexes"]]} for o in sc.get("objectives", [])]
            s.obj_held = [None if x is None else int(x) for x in d.get("obj_held", [])]
            if len(s.obj_held) != len(s.objective_defs):
                raise FormatError("state: 'obj_held' must have one entry per objective")
            s.terrain = {p(h): str(t) for h, t in d["terrain"].items()}
            for t in s.terrain.values():
                if t not in s.t.terrain:
                    raise FormatError(f"state: unknown terrain {t!r}")
            s.tents = {int(k): p(v) for k, v in d["tents"].items()}
            s.units = {p(h): Unit(str(uid), str(typ), int(side), int(bl)) for h, uid, typ, side, bl in d["units"]}
            s.leaders = {p(h): Leader(str(lid), str(kind), int(side)) for h, lid, kind, side in d["leaders"]}
            for u in s.units.values():
                if u.type not in s.t.units or not 1 <= u.blocks <= 4 or u.side not in (0, 1):
                    raise FormatError(f"state: bad unit {list(u)}")
            s.start_blocks = {str(k): int(v) for k, v in d["start_blocks"].items()}
            s.hands = [list(map(str, h)) for h in d["hands"]]
            s.dragons = [list(map(str, h)) for h in d["dragons"]]
            s.cmd_deck, s.cmd_discard = list(d["cmd_deck"]), list(d["cmd_discard"])
            s.dr_deck, s.dr_discard = list(d["dr_deck"]), list(d["dr_discard"])
            every_c = sorted(s.hands[0] + s.hands[1] + s.cmd_deck + s.cmd_discard + ([d["ti"]["card"]] if d["ti"].get("card") else [])
                             + [fs["card"] for fs in d["ti"].get("first_strikes", [])]
                             + [c for t in d["stack"] for c in t.get("drawn", [])])
            if len(set(every_c)) != len(every_c) or not set(every_c) <= set(s.t.command_ids):
                raise FormatError("state: Command cards are duplicated or unknown")
            s.honor, s.pool = [int(x) for x in d["honor"]], int(d["pool"])
            s.dragon_tokens = int(d.get("dragon_tokens", 0))
            s.banners, s.objectives = [int(x) for x in d["banners"]], [int(x) for x in d["objectives"]]
            s.command = [int(x) for x in d["command"]]
            s.turn, s.active = int(d["turn"]), int(d["active"])
            s.stack = _copy(d["stack"])
            s.ti = _copy(d["ti"])
            s.last_played = list(d["last_played"])
            s.removed = _copy(d["removed"])
            s.rng = Rng(int(d["rng"]))
            s.forced = [Face(f).value for f in d["forced"]]
            s._result = Result.from_json(d["result"]) if d["result"] else None
        except FormatError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise FormatError(f"C&C Samurai state is malformed: {type(exc).__name__}: {exc}") from None
        if s.pool + sum(s.honor) + s.dragon_tokens > POOL_TOTAL:
            raise FormatError("state: more than 30 Honor & Fortune tokens")
        return s

    def __repr__(self) -> str:
        return f"<CCState {self.scenario_id} turn {self.turn} {json.dumps(self.pending_json())}>"


_DECISION_NAMES = {
    "play": "play a Command card",
    "order": "give orders (or 'done')",
    "move": "move (or 'end-move')",
    "battle": "battle (or 'end-battle')",
    "combat": "decide in the combat",
    "retreat": "choose a retreat hex",
    "lretreat": "retreat the lone Leader or commit seppuku",
    "pick": "pick a card",
    "loh": "choose the unit that loses a block",
    "end": "finish the turn",
}


#: memo of ``_order_actions``: (slots, hex, side, bottom, symbol) -> slots accepting the piece
_VECTORS: dict[tuple[Any, ...], tuple[bool, ...]] = {}
#: memo of ``_order_actions``: (vectors of the pieces ordered, vector of one more) -> all fit
_FITS: dict[tuple[Any, ...], bool] = {}


def _slot_sig(slot: JSON) -> tuple[str, ...]:
    if "section" in slot:
        return ("section", str(slot["section"]))
    if "symbol" in slot:
        return ("symbol", str(slot["symbol"]))
    return ("any",)


def _diff_hexes(old: dict[Hex, Any], new: dict[Hex, Any]) -> list[Hex]:
    """Hexes whose piece differs between two piece maps."""
    if old is new:
        return []
    out = [h for h, p in new.items() if old.get(h) != p]
    out.extend(h for h in old if h not in new)
    return out


def _mirror(slug: str) -> str:
    """Counter Attack: the same card with left and right swapped."""
    if slug.endswith("-left"):
        return slug[: -len("left")] + "right"
    if slug.endswith("-right"):
        return slug[: -len("right")] + "left"
    return slug


def _new_turn_info() -> JSON:
    return {"card": None, "effective": None, "spec": {"mode": "select", "count": 0, "filter": {}}, "orders": [],
            "moved": {}, "no_battle": [], "battled": [], "effects": [], "dragons_in_play": [], "no_order": [],
            "dragon_played": [False, False]}
