"""Rules of the clan card game (seed 002) as a state machine: the state of a moment of
play, its copy, the protocol methods, AI support and its JSON.

The rules are laid out by the rulebook's sections, one mixin each (``docs/engine.md``):
``placement`` (setting up the Battlefields), ``deployment`` (Army Deployment),
``abilities`` (the Regular cards' Special Abilities), ``combat`` (Combat Resolution),
``battlefields`` (the tiles that ask for a decision), ``scoring`` and ``view``. The
phase and any decision on top of it are typed tasks (``tasks``) on the ``TaskMachine``
stack: ``draft``, ``deploy``, ``resolve``, and ``scout``, ``shugenja``, ``general``
(shown as the phase ``ability``), ``sanctuary``, ``supply``; none once the game is over.
Automatic steps run until a player must decide; every choice the rulebook gives a
player is a pending decision of that seat.

Card ids are unique strings such as ``hondo-peasant-2``: ``secrets(seat)`` lists the ids
a seat has not seen, so the contract test catches any leak. Rulings ``C1``... are in
``docs/rulings.md``.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from kassen.engine.errors import FormatError
from kassen.engine.events import Event
from kassen.engine.protocol import Result, State
from kassen.engine.rng import Rng
from kassen.engine.tasks import Task
from kassen.rulesets.clans.common import (
    BRIDGE_LIMIT,
    COWARDICE,
    DEPLOY_ABILITIES,
    FORTRESS_CARDS,
    JSON,
    LORD_BONUS,
    PALACE_PENALTY,
    PEASANT_BONUS,
    ROUNDS,
    SAMURAI_VICTIMS,
    TEMPLE_MARGIN,
    Entry,
    card_clan,
    card_type,
    cards_per_turn,
    clan_cards,
    is_secret,
)
from kassen.rulesets.clans.data import TILES, CardTable
from kassen.rulesets.clans.view import ViewRules

if TYPE_CHECKING:
    from kassen.rulesets.clans.game import ClansGame

__all__ = ["BRIDGE_LIMIT", "COWARDICE", "DEPLOY_ABILITIES", "FORTRESS_CARDS", "JSON", "LORD_BONUS", "PALACE_PENALTY",
           "PEASANT_BONUS", "ROUNDS", "SAMURAI_VICTIMS", "TEMPLE_MARGIN", "ClansState", "Entry", "card_clan",
           "card_type", "cards_per_turn", "clan_cards", "is_secret"]


class ClansState(ViewRules, State):
    """A moment of a clan card game. Immutable from the outside."""

    def __init__(self, game: ClansGame, table: CardTable, table_path: str | None) -> None:
        self.game = game
        self.table = table
        self.table_path = table_path
        self.scenario = ""
        self.n = 2
        self.clans: tuple[int, ...] = (0, 1)
        self.teams = False
        #: the phase, and on top of it a decision a card or a Battlefield asks for
        self.stack: list[Task] = [{"t": "deploy"}]
        #: draft: face-up tiles on offer, and the choosers to come as (seat, left seat, right seat)
        self.offer: list[str] = []
        self.queue: list[tuple[int, int, int]] = []
        self.draft_stage = 0
        self.tiles: list[str] = []
        self.sides: list[tuple[int, int]] = []
        self.stacks: list[list[list[Entry]]] = []
        self.outcome: list[JSON | None] = []
        self.bonus: list[list[int]] = []
        self.hands: list[list[str]] = []
        #: cards out of the game: (card id, known mask, how, side seat)
        self.removed: list[tuple[str, int, str, int]] = []
        self.deployed: list[int] = []
        self.last_card: list[str | None] = []
        self.round = 1
        self.turn = 0
        self.left = 2
        self.vp: list[int] | None = None
        self.rng = Rng(0)
        self._result: Result | None = None
        self.events: tuple[Event, ...] = ()
        self._ev: list[Event] = []
        self._legal: list[str] | None = None

    # ------------------------------------------------------------------ copying

    def clone(self) -> ClansState:
        """An independent copy: nothing it may change is shared with this state."""
        s = self._fork()
        s.stacks = [[list(a), list(b)] for a, b in s.stacks]
        return s

    def _fork(self) -> ClansState:
        """The copy ``apply`` works on: the Battlefields' sides (lists of cards) are shared with this
        state until the rules change one (``own_side``), so an observer tells an unchanged side by
        identity; the rest is copied."""
        s = ClansState.__new__(ClansState)
        s.game, s.table, s.table_path = self.game, self.table, self.table_path
        s.scenario, s.n, s.clans, s.teams = self.scenario, self.n, self.clans, self.teams
        s.stack = [dict(t) for t in self.stack]
        s.offer, s.queue, s.draft_stage = list(self.offer), list(self.queue), self.draft_stage
        s.tiles, s.sides = list(self.tiles), list(self.sides)
        s.stacks = [[a, b] for a, b in self.stacks]
        s.outcome = [dict(o) if o is not None else None for o in self.outcome]
        s.bonus = [list(b) for b in self.bonus]
        s.hands = [list(h) for h in self.hands]
        s.removed = list(self.removed)
        s.deployed, s.last_card = list(self.deployed), list(self.last_card)
        s.round, s.turn, s.left = self.round, self.turn, self.left
        s.vp = list(self.vp) if self.vp is not None else None
        s.rng = self.rng.copy()
        s._result = self._result
        s.events = ()
        s._ev = []
        s._legal = None
        return s

    # ------------------------------------------------------------ protocol

    def result(self) -> Result | None:
        return self._result

    # legal_actions: the task machine's

    # apply: the task machine's (kassen.engine.tasks), on the copy-on-write fork, its automatic
    # steps those of Combat Resolution (``_run``)
    def fork(self) -> ClansState:
        return self._fork()

    def advance(self) -> None:
        self._run()

    def why_illegal(self, action: str) -> str:
        if self.phase == "over":
            return "the game is over"
        verb = action.split()[0] if action.split() else ""
        need = {"draft": "choose", "deploy": "deploy", "resolve": "resolve"}.get(self.phase)
        if self.phase == "deploy" and verb in ("deploy", "deploy-down", "assassin"):
            return ("that card cannot be deployed there (it must be in hand, on a Battlefield where the "
                    "player fights and has room, a Secret card face down, an Assassin on a face-down card "
                    "of another player when there is one)")
        if need is not None and verb != need and not (self.phase == "deploy" and verb == "assassin"):
            return f"not a legal action now: {self.prompt()}"
        return f"not one of the choices: {self.prompt()}"

    # ------------------------------------------------------------ AI support

    def determinize(self, seat: int, rng: Rng) -> ClansState:
        """Resample every card ``seat`` has not seen, per owner, keeping what it has seen:
        face-down and eliminated slots get Secret cards (only those can be there)."""
        s = self.clone()
        s.events = self.events
        s.rng = Rng(rng.next64())
        if self.phase == "over":
            return s
        mapping: dict[str, str] = {}
        for owner in range(self.n):
            if owner == seat:
                continue
            slots: list[tuple[str, int, int, int]] = []  # ("board", i, side, k) / ("removed", r, 0, 0)
            pool: list[str] = []
            for i in range(len(s.tiles)):
                for side in (0, 1):
                    if s.sides[i][side] != owner:
                        continue
                    for k, e in enumerate(s.stacks[i][side]):
                        if not s.knows(seat, e):
                            slots.append(("board", i, side, k))
                            pool.append(e[0])
            for r, (cid, known, _, _) in enumerate(s.removed):
                if card_clan(cid) == self.clans[owner] and not self.knows_removed(seat, known):
                    slots.append(("removed", r, 0, 0))
                    pool.append(cid)
            hand = s.hands[owner]
            pool.extend(hand)
            if not slots:
                continue
            # sorted first: the sample depends only on what the seat knows, never on the true order
            secret = rng.shuffled(sorted(c for c in pool if is_secret(c)))
            chosen, rest = secret[: len(slots)], secret[len(slots):]
            new_hand = sorted(rest + [c for c in pool if not is_secret(c)])
            for (where, a, b, k), new in zip(slots, chosen):
                if where == "board":
                    old, up, known = s.stacks[a][b][k]
                    s.stacks[a][b][k] = (new, up, known)
                else:
                    old, known, how, side_seat = s.removed[a]
                    s.removed[a] = (new, known, how, side_seat)
                mapping[old] = new
            for c in hand:
                mapping.setdefault(c, c)
            s.hands[owner] = new_hand
            last = s.last_card[owner]
            if last is not None and last in mapping:
                s.last_card[owner] = mapping[last]
        return s

    def heuristic(self, seat: int) -> float:
        """Expected Victory Points of ``seat`` (or its team) against the best other, from the
        Battlefields as the cards now stand."""
        res = self._result
        if res is not None:
            sc = res.scores[seat] if res.scores else 0.0
            return 1.0 if sc == 1.0 else 0.0 if sc == 0.5 else -1.0
        est = [0.0] * self.n
        for i in range(len(self.tiles)):
            info = self.outcome[i]
            if info is not None and info.get("done"):
                w = info.get("winner")
                if w is not None:
                    est[w] += self.table.vp(self.tiles[i]) + 3 * bool(info.get("lord"))
                continue
            tot = self._estimate(i)
            diff = tot[0] - tot[1]
            p0 = 0.5 + 0.5 * math.tanh(diff / 3.0)
            vp = self.table.vp(self.tiles[i])
            a, b = self.sides[i]
            est[a] += p0 * vp
            est[b] += (1 - p0) * vp
        for s in range(self.n):
            last = self.last_card[s]
            if last is not None and card_type(last) == "lord":
                est[s] -= COWARDICE
            # cards still in hand will fight somewhere: half their Strength, so none is wasted
            est[s] += 0.5 * sum(self.table.strength(card_type(c)) for c in self.hands[s])
        if self.teams:
            mine = est[seat] + est[(seat + 2) % 4]
            other = est[(seat + 1) % 4] + est[(seat + 3) % 4]
        else:
            mine = est[seat]
            other = max(est[s] for s in range(self.n) if s != seat)
        return math.tanh((mine - other) / 10.0)

    def _estimate(self, i: int) -> list[int]:
        """Total Strengths of ``i`` if it were resolved now (no Sanctuary choice)."""
        kept = []
        for s in (0, 1):
            st, opp = self.stacks[i][s], self.stacks[i][1 - s]
            archer_opp = any(card_type(e[0]) == "archer" for e in opp)
            archer_own = any(card_type(e[0]) == "archer" for e in st)
            samurai_opp = any(card_type(e[0]) == "samurai" for e in opp) and not archer_own
            kept.append([e for e in st if not (card_type(e[0]) == "samurai" and archer_opp)
                         and not (card_type(e[0]) in SAMURAI_VICTIMS and samurai_opp)])
        tot = []
        for s in (0, 1):
            st = kept[s]
            tot.append(sum(self.card_strength(i, st, k) for k in range(len(st))) + self.bonus[i][s])
        if self.tiles[i] == "port":
            for s in (0, 1):
                tot[s] += sum(1 for e in self.stacks[i][s] if e[1])
        if self.tiles[i] == "palace" and len(kept[0]) != len(kept[1]):
            tot[0 if len(kept[0]) > len(kept[1]) else 1] -= PALACE_PENALTY
        return tot

    # ------------------------------------------------------------ JSON

    def to_json(self) -> JSON:
        return {
            "scenario": self.scenario, "card_table": self.table_path, "clans": list(self.clans),
            "teams": self.teams, "phase": self.phase, "offer": list(self.offer),
            "queue": [list(q) for q in self.queue], "draft_stage": self.draft_stage,
            "tiles": list(self.tiles), "sides": [list(x) for x in self.sides],
            "stacks": [[[list(e) for e in st] for st in pair] for pair in self.stacks],
            "outcome": [dict(o) if o is not None else None for o in self.outcome],
            "bonus": [list(b) for b in self.bonus], "hands": [list(h) for h in self.hands],
            "removed": [list(r) for r in self.removed], "deployed": list(self.deployed),
            "last_card": list(self.last_card), "round": self.round, "turn": self.turn, "left": self.left,
            "pending": self.pending,
            "vp": list(self.vp) if self.vp is not None else None,
            "result": self._result.to_json() if self._result else None,
            "rng": self.rng.state, "events": [e.to_json() for e in self.events],
        }

    @classmethod
    def from_json(cls, game: ClansGame, table: CardTable, data: JSON) -> ClansState:
        try:
            s = cls(game, table, data["card_table"])
            s.scenario = str(data["scenario"])
            s.clans = tuple(int(c) for c in data["clans"])
            s.n = len(s.clans)
            s.teams = bool(data["teams"])
            s.phase = str(data["phase"])
            s.offer = [str(t) for t in data["offer"]]
            s.queue = [(int(a), int(b), int(c)) for a, b, c in data["queue"]]
            s.draft_stage = int(data["draft_stage"])
            s.tiles = [str(t) for t in data["tiles"]]
            s.sides = [(int(a), int(b)) for a, b in data["sides"]]
            s.stacks = [[[(str(c), bool(u), int(m)) for c, u, m in st] for st in pair] for pair in data["stacks"]]
            s.outcome = [dict(o) if o is not None else None for o in data["outcome"]]
            s.bonus = [[int(x), int(y)] for x, y in data["bonus"]]
            s.hands = [[str(c) for c in h] for h in data["hands"]]
            s.removed = [(str(c), int(m), str(h), int(o)) for c, m, h, o in data["removed"]]
            s.deployed = [int(x) for x in data["deployed"]]
            s.last_card = [None if c is None else str(c) for c in data["last_card"]]
            s.round, s.turn, s.left = int(data["round"]), int(data["turn"]), int(data["left"])
            s.pending = dict(data["pending"]) if data["pending"] is not None else None
            s.vp = [int(v) for v in data["vp"]] if data["vp"] is not None else None
            s._result = Result.from_json(data["result"]) if data["result"] else None
            s.rng = Rng(int(data["rng"]))
            s.events = tuple(Event.from_json(e) for e in data.get("events", []))
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"clans state: bad or missing field: {exc}") from exc
        bad = [t for t in s.tiles + s.offer if t not in TILES]
        if bad or not 2 <= s.n <= 4:
            raise FormatError(f"clans state: unknown tiles {bad} or bad clans {s.clans}")
        return s

    def __repr__(self) -> str:
        return f"ClansState({json.dumps(self.to_json())[:80]}...)"
