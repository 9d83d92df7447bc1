"""What every rules module of the clan card game shares: the constants, the card ids,
and the data of a moment of play with its basic questions (``ClansStateData``).

The rules modules are mixins stacked in the order of play (``placement`` <
``scoring`` < ``combat`` < ``battlefields`` < ``abilities`` < ``deployment`` <
``view`` < ``state.ClansState``): each may call what the modules below it define; the
few steps that lead on to a later section are declared here and defined by that
section's module.

A card on a Battlefield is a tuple ``(card id, face up, known mask)``; bit ``s`` of
the mask is set when seat ``s`` knows the card.
"""

from __future__ import annotations

from typing import Any

from kassen.engine.events import Event
from kassen.engine.protocol import Game, Result
from kassen.engine.rng import Rng
from kassen.engine.tasks import Task, TaskMachine
from kassen.rulesets.clans.data import CARD_TYPES, CLANS, TILES, CardTable
from kassen.rulesets.clans.tasks import (
    DECISION_PHASE,
    PHASES,
    UNDER,
    DecisionTask,
    PhaseTask,
    as_task,
    from_pending,
    to_pending,
)

JSON = dict[str, Any]
Entry = tuple[str, bool, int]

ROUNDS = 7
BRIDGE_LIMIT = 3
COWARDICE = 5
LORD_BONUS = 3
PEASANT_BONUS = 1
PALACE_PENALTY = 2
TEMPLE_MARGIN = 4
FORTRESS_CARDS = 3
SAMURAI_VICTIMS = frozenset({"peasant", "brute", "ashigaru"})
#: abilities a Regular card uses when deployed face up
DEPLOY_ABILITIES = frozenset({"scout", "shugenja", "general"})


def clan_cards(clan: int) -> list[str]:
    """The 13 card ids of a clan's army."""
    prefix = CLANS[clan].lower()
    out: list[str] = []
    for slug, (_, _, copies) in CARD_TYPES.items():
        if copies == 1:
            out.append(f"{prefix}-{slug}")
        else:
            out.extend(f"{prefix}-{slug}-{k}" for k in range(1, copies + 1))
    return out


_TYPE_OF = {cid: cid.split("-")[1] for c in range(len(CLANS)) for cid in clan_cards(c)}
_CLAN_OF = {cid: c for c in range(len(CLANS)) for cid in clan_cards(c)}


def card_type(cid: str) -> str:
    """The card slug of a card id (``hondo-peasant-2`` -> ``peasant``)."""
    return _TYPE_OF[cid]


def card_clan(cid: str) -> int:
    """The clan index of a card id."""
    return _CLAN_OF[cid]


def is_secret(cid: str) -> bool:
    return CARD_TYPES[card_type(cid)][1] == "secret"


def cards_per_turn(rnd: int) -> int:
    """Two cards a turn, one on the last round (002:157-163)."""
    return 1 if rnd == ROUNDS else 2


class ClansStateData(TaskMachine):
    """The data of a moment of play, declared once for the state and every rules mixin
    (set by ``ClansState.__init__``, ``clone`` and ``from_json``), its basic questions,
    the events and the task stack."""

    game: Game
    table: CardTable
    table_path: str | None
    scenario: str
    n: int
    clans: tuple[int, ...]
    teams: bool
    #: draft: face-up tiles on offer, and the choosers to come as (seat, left seat, right seat)
    offer: list[str]
    queue: list[tuple[int, int, int]]
    draft_stage: int
    tiles: list[str]
    sides: list[tuple[int, int]]
    #: each Battlefield's two sides of cards; ``apply``'s copy shares a side's list with its parent until
    #: a rule changes it (``own_side``: copy-on-write)
    stacks: list[list[list[Entry]]]
    outcome: list[JSON | None]
    bonus: list[list[int]]
    hands: list[list[str]]
    #: cards out of the game: (card id, known mask, how, side seat)
    removed: list[tuple[str, int, str, int]]
    deployed: list[int]
    last_card: list[str | None]
    round: int
    turn: int
    left: int
    vp: list[int] | None
    rng: Rng
    _result: Result | None
    events: tuple[Event, ...]
    _ev: list[Event]
    #: the phase, and on top of it a decision a card or a Battlefield asks for (``tasks``)
    stack: list[Task]
    _legal: list[str] | None

    def own_side(self, i: int, side: int) -> list[Entry]:
        """Side ``side`` of Battlefield ``i``'s cards, copied before a rule changes them (the list may
        be the parent's: ``ClansState._fork``). Copied at every call (a side changes at most a few
        times an action): no mark of which sides are owned, since a 30th attribute would cost the
        state its shared-key ``__dict__`` (a 1.5 KB dict per state instead of 0.3 KB). A list got
        before a call must not be changed after it."""
        own = self.stacks[i][side] = list(self.stacks[i][side])
        return own

    # ------------------------------------------------------------ the phase and the decision pending
    @property
    def phase(self) -> str:
        """``draft``, ``deploy``, ``ability``, ``resolve``, ``sanctuary``, ``supply`` or ``over``."""
        if not self.stack:
            return "over"
        kind: str = self.stack[-1]["t"]
        return DECISION_PHASE.get(kind, kind)

    @phase.setter
    def phase(self, value: str) -> None:
        if value == "over":
            self.stack = []
        else:
            base = UNDER.get(value, value)
            if base not in PHASES:
                raise ValueError(f"unknown phase {value!r}")
            self.stack = [{"t": base}]
        self._legal = None

    @property
    def pending(self) -> JSON | None:
        """The decision on top of the phase in its saved shape (``kind``, ``seat``...), or None.
        A copy: the rules change the task on the stack."""
        if self.stack and self.stack[-1]["t"] in DECISION_PHASE:
            return to_pending(self.stack[-1])
        return None

    @pending.setter
    def pending(self, value: JSON | None) -> None:
        if self.stack and self.stack[-1]["t"] in DECISION_PHASE:
            self.stack.pop()
        if value is not None:
            self.stack.append(from_pending(value))
        self._legal = None

    # what kassen.envs reads instead of the stack (tests/test_no_private_reads.py)
    def pending_task(self) -> JSON | None:
        """The task on top of the stack (a phase, or a decision on top of it: ``t`` its kind,
        ``seat`` who decides, ``bf``...), None when the game is over. Read only: the state's own."""
        return self.stack[-1] if self.stack else None

    def pending_kind(self) -> str:
        """The kind of the task on top of the stack, ``""`` when the game is over."""
        kind: str = self.stack[-1]["t"] if self.stack else ""
        return kind

    def _enter(self, task: PhaseTask) -> None:
        """The game enters the phase ``task``."""
        self.stack = [as_task(task)]

    def _push(self, task: DecisionTask) -> None:
        """A card or Battlefield asks for the decision ``task``."""
        self.stack.append(as_task(task))

    def _pop_decision(self) -> None:
        """The decision on top is made: back to the phase under it."""
        if self.stack and self.stack[-1]["t"] in DECISION_PHASE:
            self.stack.pop()

    def to_move(self) -> int | None:
        if not self.stack:
            return None
        task = self.stack[-1]
        kind = task["t"]
        if kind == "draft":
            return self.queue[0][0]
        if kind in ("deploy", "resolve"):
            return self.turn
        seat: int = task["seat"]
        return seat

    def _compute_legal(self) -> list[str]:
        """The legal actions of the task on top, computed afresh (not cached)."""
        task = self.stack[-1]
        legal = self._handlers(task["t"])[0]
        assert legal is not None
        out: list[str] = legal(self, task)
        return out

    # ------------------------------------------------------------ basics
    @property
    def all_mask(self) -> int:
        return (1 << self.n) - 1

    def seat_names(self) -> tuple[str, ...]:
        return tuple(CLANS[c] for c in self.clans)

    def name(self, seat: int) -> str:
        return CLANS[self.clans[seat]]

    def seat_of_clan(self, clan: int) -> int:
        return self.clans.index(clan)

    def partner(self, seat: int) -> int | None:
        """The teammate across the table in the team variant (002:95-105)."""
        return (seat + 2) % 4 if self.teams else None

    def tile_name(self, i: int) -> str:
        return TILES[self.tiles[i]][0]

    def bf_index(self, tile: str) -> int:
        return self.tiles.index(tile)

    def side_of(self, i: int, seat: int) -> int:
        a, b = self.sides[i]
        return 0 if a == seat else 1 if b == seat else -1

    def card_name(self, cid: str) -> str:
        return f"{CLANS[card_clan(cid)]} {CARD_TYPES[card_type(cid)][0]}"

    def card_strength(self, i: int, stack: list[Entry], k: int) -> int:
        """Strength of the card at index ``k`` of ``stack`` on Battlefield ``i``."""
        t = self.table
        slug = card_type(stack[k][0])
        st = t.strength(slug)
        if slug == "lord":
            st += t.lord.per_card_after * (len(stack) - k - 1)
        tile = self.tiles[i]
        if tile == "rice-field" and slug == "peasant":
            st = t.rice_field.peasant_strength
        if tile == "village" and st == t.village.from_strength:
            st = t.village.to_strength
        return st

    def strength_shown(self, i: int, side: int) -> int:
        """Sum of the Strengths of the face-up cards on a side: what everyone sees."""
        stack = self.stacks[i][side]
        return sum(self.card_strength(i, stack, k) for k, e in enumerate(stack) if e[1])

    def emit(self, kind: str, data: JSON, text: str, visible_to: tuple[int, ...] | None = None,
             redacted: Event | None = None) -> None:
        self._ev.append(Event(kind, data, text, visible_to, redacted))

    def _my_bfs(self, seat: int) -> list[int]:
        return [i for i, (a, b) in enumerate(self.sides) if seat in (a, b)]

    def _room(self, i: int, seat: int) -> bool:
        """Whether ``seat`` may add a card on its side of Battlefield ``i`` (the Bridge, C9)."""
        if self.tiles[i] != "bridge":
            return True
        return len(self.stacks[i][self.side_of(i, seat)]) < BRIDGE_LIMIT

    def _take(self, seat: int, slug: str) -> str:
        cid = min(c for c in self.hands[seat] if card_type(c) == slug)
        self.hands[seat].remove(cid)
        self.deployed[seat] += 1
        self.last_card[seat] = cid
        return cid

    # ------------------------------------------------------------ steps defined by a later section
    def _sanctuary_step(self, i: int) -> None:
        """The Sanctuary's choices (``battlefields``)."""
        raise NotImplementedError

    def _supply(self, seat: int) -> None:
        """The Supply Camp's bonuses (``battlefields``)."""
        raise NotImplementedError

    def _next_card(self) -> None:
        """The next card to deploy (``deployment``)."""
        raise NotImplementedError
