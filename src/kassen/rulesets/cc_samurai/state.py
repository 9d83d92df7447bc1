"""Rules of Commands & Colors: Samurai Battles as a state machine.

The state holds a stack of *tasks*. The top task says whose decision it is and
what is pending: a turn phase (``play``, ``order``, ``move``, ``battle``,
``end``) or a step inside a combat (``combat``, ``retreat``, ``lretreat``,
``pick``, ``loh``) or a Dragon card's window (``dragon``, ``turncoat``, ``dloh``), each
kind a typed record of tasks.py. Automatic steps run until a player must decide; every
choice the rulebook leaves to a player is a pending decision with its own actions.

Section names in comments and tests refer to the rulebook (seed 000).

This module holds the data of a moment of play (``__init__``, ``clone``, JSON), the
protocol methods and the few helpers every rule uses. The rules are functions of the
state (``f(s: CCState, ...)``), one module per rulebook section (see docs/engine.md, "A
ruleset laid out by its rulebook"): turn.py, orders.py, movement.py, battle.py,
close_ranged.py, retreat.py, leaders.py, honor.py, victory.py, cards.py (the decks),
windows.py (Dragon card windows; the cards are in dragons.py), view.py; the task kinds'
handlers among them are found by name (``TASK_HANDLERS``). The task machine is
kassen.engine.tasks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

from kassen.engine.dice import Face, roll_die
from kassen.engine.errors import FormatError, IllegalActionError
from kassen.engine.events import Event, LazyText
from kassen.engine.hexgrid import Hex, HexBoard
from kassen.engine.protocol import Result, State
from kassen.engine.rng import Rng
from kassen.engine.tasks import TaskMachine
from kassen.rulesets.cc_samurai import (
    battle,
    close_ranged,
    honor,
    leaders,
    movement,
    orders,
    retreat,
    turn,
    victory,
    view,
    windows,
)
from kassen.rulesets.cc_samurai.board import NAMES, NCELLS, SIDE_NAMES, Leader, Unit, board
from kassen.rulesets.cc_samurai.common import (
    _DECISION_NAMES,
    COW_ALL,
    COW_CARDS,
    COW_COMMAND,
    COW_DRAGON,
    COW_LOGS,
    COW_PIECES,
    COW_RNG,
    COW_SCORE,
    JSON,
    LEADER_MOVE,
    LEADER_NAME,
    NO_MOVES,
    POOL_TOTAL,
    CCStateData,
    Dests,
    _copy,
    _new_turn_info,
)
from kassen.rulesets.cc_samurai.data import Tables, TerrainType, UnitType
from kassen.rulesets.cc_samurai.orders import OrderCache
from kassen.rulesets.cc_samurai.tasks import KINDS, CombatTask, task_from_json, task_json

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.game import CCSamuraiGame

__all__ = ["CCState", "TASK_HANDLERS", "task_handlers", "COW_ALL", "COW_CARDS", "COW_LOGS", "COW_PIECES", "COW_RNG", "COW_SCORE", "LEADER_MOVE",
           "LEADER_NAME", "POOL_TOTAL"]



class CCState(CCStateData, TaskMachine, State):
    """A moment of a C&C Samurai battle. Immutable from the outside."""

    # ------------------------------------------------------------------ setup
    def __init__(self, game: CCSamuraiGame, blank: bool = False) -> None:
        self.game = game
        if blank:  # clone sets every attribute (the compiled class has no usable __new__)
            return
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
        #: hex -> TerrainType of every hex (indexed by the hex), built on first use (shared by
        #: clones like terrain)
        self._terc: list[TerrainType] | None = None
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
        #: copy-on-write groups still shared with the parent (``COW_*`` bits; 0: all owned)
        self._cow = 0
        #: tasks of the stack below this index may be the parent's (``own_top``)
        self._stk_shared = 0
        #: movement searches of this state, and of the state it was cloned from (reused by apply),
        #: keyed by ``movement.unit_key`` / ``leader_key`` of the hex
        self._mv: dict[int, Dests] = {}
        self._mv_prev: dict[int, Dests] = {}
        #: the parent's pieces and movement context, to tell which of its searches still hold
        self._prev_units: dict[Hex, Unit] | None = None
        self._prev_leaders: dict[Hex, Leader] = {}
        self._prev_ctx: tuple[Any, ...] | None = None
        self._changed: list[Hex] | None = None
        #: uid -> hex and lid -> hex, possibly stale (find_unit and find_leader check them)
        self._uidx: dict[str, Hex] = {}
        self._lidx: dict[str, Hex] = {}
        #: order key -> (hex, piece), possibly stale (key_hex checks it), shared with clones
        self._kidx: dict[str, tuple[Hex, Unit | Leader]] = {}
        #: which pieces the card played may order (orders.py ``_order_cache``), shared with clones
        self._oc: OrderCache | None = None

    def clone(self) -> CCState:
        """An independent copy: nothing is shared with this state that the copy may change."""
        s = self.fork()
        s.own_all()
        return s

    def fork(self) -> CCState:
        """The copy ``apply`` works on: it shares with this state, until it first writes them,
        the copy-on-write groups and the stack's tasks (see ``own_*``)."""
        s = CCState(cast("CCSamuraiGame", self.game), True)
        # attribute by attribute, no ``__dict__`` (the compiled build's instances have none).
        # What an action may change is either copied (the turn info's orders and moves, the
        # stack's list) or shared until written (copy-on-write: the groups of ``_cow``, the
        # stack's tasks); the rest is shared for good: scenario facts, the board, the tables,
        # terrain and tents (copied where a tent is taken: _drop_tent), start blocks
        s.t, s.b = self.t, self.b
        s.scenario_id, s.scenario_name, s.victory = self.scenario_id, self.scenario_name, self.victory
        s.order_one_banner, s.tent_banners, s.exit_banners = self.order_one_banner, self.tent_banners, self.exit_banners
        s.bottom, s.exits, s.objective_defs = self.bottom, self.exits, self.objective_defs
        s.terrain, s._terc, s.tents = self.terrain, self._terc, self.tents
        s.start_blocks = self.start_blocks
        # COW_CARDS
        s.hands, s.dragons = self.hands, self.dragons
        s.cmd_deck, s.cmd_discard, s.dr_deck, s.dr_discard = self.cmd_deck, self.cmd_discard, self.dr_deck, self.dr_discard
        # COW_SCORE
        s.honor, s.banners, s.objectives = self.honor, self.banners, self.objectives
        s.command, s.obj_held, s.last_played = self.command, self.obj_held, self.last_played
        # COW_PIECES, COW_LOGS, COW_RNG
        s.units, s.leaders = self.units, self.leaders
        s.removed, s.forced = self.removed, self.forced
        s.rng = self.rng
        s._cow = COW_ALL
        s.pool, s.dragon_tokens, s.turn, s.active = self.pool, self.dragon_tokens, self.turn, self.active
        s._result = self._result
        stack = self.stack
        s.stack = list(stack)
        s._stk_shared = len(stack)
        # the turn info's lists and dicts are replaced, never changed in place: its values are shared
        s.ti = self.ti.copy()
        s.events = ()
        s._ev = []
        s._legal = None
        s._mv = NO_MOVES
        s._mv_prev = mv = self._mv
        if mv:
            s._prev_units, s._prev_leaders, s._prev_ctx = self.units, self.leaders, movement._move_ctx(self)
        else:
            s._prev_units, s._prev_leaders, s._prev_ctx = None, {}, None
        s._changed = None
        s._uidx, s._lidx, s._kidx = self._uidx, self._lidx, self._kidx
        s._oc = self._oc
        return s

    # copy-on-write: a clone shares these groups with its parent until it first writes one;
    # every rule that changes a group calls its ``own_`` method first (tests/rulesets/cc_samurai/
    # test_copy_on_write.py checks that no apply changes the state it was applied to)
    def own_cards(self) -> None:
        """Make the hands, Dragon hands, decks and discards this state's own before changing them."""
        self.own_command_cards()
        self.own_dragon_cards()

    def own_command_cards(self) -> None:
        """Make the Command card hands, deck and discards this state's own before changing them."""
        if self._cow & COW_COMMAND:
            self._cow &= ~COW_COMMAND
            self.hands = [list(h) for h in self.hands]
            self.cmd_deck, self.cmd_discard = list(self.cmd_deck), list(self.cmd_discard)

    def own_dragon_cards(self) -> None:
        """Make the Dragon card hands, deck and discards this state's own before changing them."""
        if self._cow & COW_DRAGON:
            self._cow &= ~COW_DRAGON
            self.dragons = [list(h) for h in self.dragons]
            self.dr_deck, self.dr_discard = list(self.dr_deck), list(self.dr_discard)

    def own_score(self) -> None:
        """Make Honor & Fortune, banners, objectives, command, objectives held and the last
        cards played this state's own before changing them."""
        if self._cow & COW_SCORE:
            self._cow &= ~COW_SCORE
            self.honor, self.banners, self.objectives = list(self.honor), list(self.banners), list(self.objectives)
            self.command, self.obj_held, self.last_played = list(self.command), list(self.obj_held), list(self.last_played)

    def own_pieces(self) -> None:
        """Make the units and Leaders on the board this state's own before changing them."""
        if self._cow & COW_PIECES:
            self._cow &= ~COW_PIECES
            self.units = dict(self.units)
            self.leaders = dict(self.leaders)

    def own_logs(self) -> None:
        """Make the removed pieces and the forced dice this state's own before changing them."""
        if self._cow & COW_LOGS:
            self._cow &= ~COW_LOGS
            self.removed = list(self.removed)
            self.forced = list(self.forced)

    def own_rng(self) -> Rng:
        """The dice and shuffles generator, made this state's own before it is drawn from."""
        if self._cow & COW_RNG:
            self._cow &= ~COW_RNG
            self.rng = self.rng.copy()
        return self.rng

    def own_top(self) -> JSON:
        """The task on top of the stack, made this state's own (its lists too) before a handler
        changes it. Tasks below ``_stk_shared`` may still be the parent's."""
        stack = self.stack
        i = len(stack) - 1
        task = stack[i]
        if i < self._stk_shared:
            # a copy of the dict (its table cloned at once, no key hashed), then its lists copied
            own = dict(task)
            for k, v in task.items():
                if type(v) is list:
                    own[k] = list(v)
            task = stack[i] = own
            self._stk_shared = i
        return task

    def own_stack(self) -> None:
        """Make every task of the stack (and its lists) this state's own."""
        if self._stk_shared:
            self.stack = [{k: (list(v) if type(v) is list else v) for k, v in t.items()} for t in self.stack]
            self._stk_shared = 0

    def own_all(self) -> None:
        """Make everything this state's own, the stack's tasks and the turn info's lists too."""
        self.own_cards()
        self.own_score()
        self.own_pieces()
        self.own_logs()
        self.own_rng()
        self.own_stack()
        self.ti = {k: (list(v) if type(v) is list else dict(v) if type(v) is dict and k != "spec" else v)
                   for k, v in self.ti.items()}

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
        return list(self.pending_actions())

    def pending_actions(self) -> list[str]:
        """The legal actions of the task on top, computed once per state (by the kind's handler of
        the dispatch table, ``TASK_HANDLERS``)."""
        legal = self._legal
        if legal is None:
            task = self.stack[-1]
            t: str = task["t"]
            handler = _LEGAL.get(t)
            if handler is None:
                raise NotImplementedError(f"no handlers for the task kind {t!r} (tasks.KINDS)")
            legal = self._legal = handler(self, task)
        return legal

    def apply(self, action: str) -> CCState:
        """The task machine's ``apply`` (kassen.engine.tasks) compiled: the same steps over the same
        hooks (``fork``, ``why_illegal``, ``collect_events``), the legal actions read from the
        state's cache without a copy. (The engine's own, interpreted, costs 3-5% of the playouts:
        docs/decisions.md.)"""
        if self._result is not None or not self.stack:
            raise IllegalActionError(action, self.why_illegal(action))
        legal = self._legal
        if legal is None:
            legal = self.pending_actions()
        if action not in legal:
            action = " ".join(action.split())
            if action not in legal:
                raise IllegalActionError(action, self.why_illegal(action), list(legal))
        s = self.fork()
        s.run_action(action)
        s.advance()
        s.collect_events()
        return s

    def collect_events(self) -> None:
        ev = self._ev
        self.events = tuple(ev)
        ev.clear()  # emptied, not replaced: no new list per state

    # the task machine (kassen.engine.tasks), specialised: the handler of the task on top gets
    # it as this state's own (copy-on-write of the stack's tasks, ``own_top``), and every kind is
    # dispatched by the one table of handlers, ``TASK_HANDLERS``
    def run_action(self, action: str) -> None:
        stack = self.stack
        task = stack[-1] if len(stack) > self._stk_shared else self.own_top()
        t: str = task["t"]
        act = _ACT.get(t)
        if act is None:
            raise NotImplementedError(f"no handlers for the task kind {t!r} (tasks.KINDS)")
        act(self, task, action)

    def advance(self) -> None:
        empty_tents = self.t.tent_removed_when_empty
        while self._result is None:
            stack = self.stack
            if not stack:
                return
            if empty_tents and self.tents:
                victory._empty_tents(self)
                if self._result is not None:
                    return
                stack = self.stack
                if not stack:
                    return
            task = stack[-1] if len(stack) > self._stk_shared else self.own_top()
            t: str = task["t"]
            auto = _AUTO.get(t)
            if auto is None:
                return  # a decision, no automatic step
            more = auto(self, task)
            if not more:
                return

    def why_illegal(self, action: str) -> str:
        if self._result is not None or not self.stack:
            return "the battle is over"
        task = self.stack[-1]
        word = action.split(" ", 1)[0] if action else ""
        pending = _DECISION_NAMES.get(task["t"], task["t"])
        if not any(a.split(" ", 1)[0] == word for a in self.legal_actions()):
            return f"{SIDE_NAMES[task['seat']].title()} must now {pending}"
        return f"not legal now ({SIDE_NAMES[task['seat']].title()} must {pending})"

    # ---------------------------------------------------------------- queries
    # What the AI and the environments read of a moment of play, named, instead of the rules'
    # encodings (the stack, the turn info): tests/test_no_private_reads.py keeps them out of
    # kassen.ai and kassen.envs. Every list and dict returned is the state's own, never changed
    # in place once apply has returned the state (a child replaces what it changes), so a reader
    # may keep it and compare it by identity; the reader must not change it.
    def pending(self) -> JSON | None:
        """The task on top of the stack: the decision pending (a record of tasks.py: ``t`` its
        kind, ``seat`` who decides, ``step``, ``att``, ``tgt``... by kind), or None when the stack
        is empty. Read only."""
        stack = self.stack
        return stack[-1] if stack else None

    def pending_kind(self) -> str:
        """The kind of the task on top (``play``, ``order``, ``move``, ``battle``, ``end``,
        ``combat``, ``retreat``...), ``""`` when the stack is empty."""
        stack = self.stack
        if not stack:
            return ""
        kind: str = stack[-1]["t"]
        return kind

    def moved(self, u: Unit) -> bool:
        """True when unit ``u`` has moved this turn (at least one hex)."""
        steps: int = self.ti["moved"].get(f"u:{u.uid}", 0)
        return steps > 0

    def moves_made(self) -> dict[str, int]:
        """The hexes moved this turn by each piece that moved, by order key (``u:<uid>``,
        ``l:<lid>``). Read only."""
        made: dict[str, int] = self.ti["moved"]
        return made

    def orders_given(self) -> list[str]:
        """The order keys (``u:<uid>``, ``l:<lid>``; ``key_hex`` finds the piece) of the units and
        Leaders ordered this turn, in the order given. Read only."""
        orders: list[str] = self.ti["orders"]
        return orders

    def card_played(self) -> str | None:
        """The Command card played this turn (its id), None before one is played."""
        card: str | None = self.ti.get("card")
        return card

    def card_effect(self) -> str | None:
        """The special effect of the order the card played gives (``hold``, ``serpent``...),
        None for a plain order."""
        effect: str | None = self.ti["spec"].get("effect")
        return effect

    def dragons_in_play(self) -> list[str]:
        """The Dragon cards played this turn and still in play (their ids). Read only."""
        dip: list[str] = self.ti["dragons_in_play"]
        return dip

    def key_hex(self, key: str) -> Hex | None:
        """Where the piece of order key ``key`` (``u:<uid>``, ``l:<lid>``) stands, None if gone."""
        return orders.key_hex(self, key)

    def can_battle(self, h: Hex) -> bool:
        """True when the ordered unit at ``h`` may still battle this turn."""
        return battle.can_battle(self, h)

    def close_targets(self, h: Hex) -> list[Hex]:
        """The hexes the unit at ``h`` may attack in close combat."""
        return close_ranged.close_targets(self, h)

    def ranged_targets(self, h: Hex) -> list[Hex]:
        """The hexes the unit at ``h`` may fire at."""
        return battle.ranged_targets(self, h)

    def combat_dice(self, kind: str, ah: Hex, dh: Hex, inspired: bool) -> int:
        """The dice the unit at ``ah`` rolls against ``dh`` (``kind``: ``close`` or ``ranged``)."""
        return close_ranged.combat_dice(self, kind, ah, dh, inspired)

    def pending_json(self) -> JSON | None:
        """The decision pending as the observation shows it (None when the stack is empty)."""
        return view.pending_json(self)

    # -------------------------------------------------- the protocol, in view.py
    def observation(self, seat: int | None) -> JSON:
        return view.observation(self, seat)

    def secrets(self, seat: int | None) -> set[str]:
        return view.secrets(self, seat)

    def determinize(self, seat: int, rng: Rng) -> CCState:
        return view.determinize(self, seat, rng)

    def heuristic(self, seat: int) -> float:
        return view.heuristic(self, seat)

    def heuristics(self) -> tuple[float, float]:
        return view.heuristics(self)

    def prompt(self) -> str:
        return view.prompt(self)

    def action_odds(self, action: str) -> JSON | None:
        return view.action_odds(self, action)

    # ------------------------------------- rules the Dragon cards reach (dragons.py)
    # dragons.py is imported by the rules modules whose windows it opens, so it reaches these
    # four, in modules above it, through the state (the modules' imports run one way)
    def _can_battle_back(self, dh: Hex, ah: Hex) -> bool:
        return close_ranged._can_battle_back(self, dh, ah)

    def strike_first(self, cx: CombatTask, extra_dice: int) -> None:
        close_ranged.strike_first(self, cx, extra_dice)

    def move_limits(self, u: Unit) -> tuple[int, int]:
        return movement.move_limits(self, u)

    def _set_card(self, side: int, cid: str) -> None:
        turn._set_card(self, side, cid)
    # ----------------------------------------------------------------- basics
    def side_name(self, side: int) -> str:
        return self.game.seats[side]  # "Red", "Blue": the game's seat names

    def name(self, h: Hex) -> str:
        """The notation of ``h`` (``B1``)."""
        if 0 <= h < NCELLS:
            return NAMES[h]
        return self.b.name(h)  # raises: no hex of the battlefield

    def ter(self, h: Hex) -> TerrainType:
        terc = self._terc
        if terc is None:
            terc = self._terrain_types()
        return terc[h]

    def _terrain_types(self) -> list[TerrainType]:
        """The terrain type of every hex, indexed by the hex (``_terc``, built here)."""
        tt, ter = self.t.terrain, self.terrain
        terc = self._terc = [tt[ter.get(h, "countryside")] for h in range(NCELLS)]
        return terc

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

    def back_dir(self, side: int) -> int:
        """Row step toward ``side``'s own baseline."""
        return -1 if side == self.bottom else 1

    def baseline_row(self, side: int) -> int:
        return 0 if side == self.bottom else self.b.rows - 1

    def say(self, tag: str, text: str | LazyText, **data: Any) -> None:
        """A public event; ``text`` may be a function, called only if the line is read
        (it must not capture the state: see kassen.engine.events.Event)."""
        self._ev.append(Event(tag, data, text))

    def say_private(self, seat: int, tag: str, text: str | LazyText, public_text: str | LazyText,
                    **data: Any) -> None:
        pub = {k: v for k, v in data.items() if k not in ("card", "cards")}
        self._ev.append(Event(tag, data, text, visible_to=(seat,), redacted=Event(tag, pub, public_text)))

    def roll(self, n: int) -> list[Face]:
        out: list[Face] = []
        if self.forced:
            self.own_logs()
        for _ in range(max(0, n)):
            if self.forced:
                out.append(Face(self.forced.pop(0)))
            else:
                out.append(roll_die(self.own_rng()))
        return out

    def card_name(self, cid: str) -> str:
        return self.t.command[self.t.command_ids[cid]].name

    def dragon_name(self, did: str) -> str:
        return self.t.dragon[self.t.dragon_ids[did]].name

    # the task machine (kassen.engine.tasks): the game ends on a result; before every
    # automatic step, the Zvezda rule that an empty command tent is lost at once
    def finished(self) -> bool:
        return self._result is not None

    def before_step(self) -> None:
        if self.tents and self.t.tent_removed_when_empty:
            victory._empty_tents(self)

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
            "stack": [task_json(t, n) for t in self.stack], "ti": self.ti, "last_played": self.last_played, "removed": self.removed,
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
            s.stack = [task_from_json(_copy(t), p) for t in d["stack"]]
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
        return f"<CCState {self.scenario_id} turn {self.turn} {json.dumps(view.pending_json(self))}>"


#: a kind's handlers: its legal actions, applying one of them, its automatic steps (None: none)
Handlers = tuple[Callable[[CCState, JSON], list[str]], Callable[[CCState, JSON, str], None],
                 Callable[[CCState, JSON], bool] | None]

#: the rules modules whose functions handle the task kinds (a kind's handlers are in one of them)
RULE_MODULES: Final = (turn, victory, orders, movement, battle, close_ranged, retreat, leaders, honor, windows,
                       view)


def task_handlers(modules: tuple[Any, ...], kinds: tuple[str, ...]) -> dict[str, Handlers]:
    """The dispatch table: each task kind of ``kinds`` (the records' kinds, tasks.KINDS) to the
    functions ``_legal_<kind>``, ``_act_<kind>`` and ``_auto_<kind>`` of ``modules`` (the task
    machine's names, kassen.engine.tasks). A kind without its legal or act handler, or with a
    handler in two modules, raises ``TypeError`` naming it: the state's module does not import."""
    table: dict[str, Handlers] = {}
    for kind in kinds:
        found = []
        for role in ("legal", "act", "auto"):
            fns = [getattr(m, f"_{role}_{kind}") for m in modules if hasattr(m, f"_{role}_{kind}")]
            if len(fns) > 1:
                raise TypeError(f"C&C task kind {kind!r} has its _{role}_ handler in two modules")
            found.append(fns[0] if fns else None)
        legal, act, auto = found
        if legal is None or act is None:
            raise TypeError(f"C&C task kind {kind!r} has no _legal_{kind} or _act_{kind} handler")
        table[kind] = (legal, act, auto)
    return table


#: the one table from task kind to its handlers, derived from the task records' kinds; the state's
#: three dispatches (``pending_actions``, ``run_action``, ``advance``) read its three columns
TASK_HANDLERS: Final = task_handlers(RULE_MODULES, KINDS)
_LEGAL: Final = {k: h[0] for k, h in TASK_HANDLERS.items()}
_ACT: Final = {k: h[1] for k, h in TASK_HANDLERS.items()}
_AUTO: Final = {k: h[2] for k, h in TASK_HANDLERS.items() if h[2] is not None}
