"""Rules of the clan card game (seed 002) as a state machine.

Phases: ``draft`` (experienced set-up: choosing Battlefields), ``deploy`` (seven
rounds of Army Deployment), ``ability`` (a Regular card's target after its
deployment), ``resolve`` (which Battlefield to resolve next), ``sanctuary`` (the
weakest card to destroy), ``supply`` (the Supply Camp's two bonuses) and ``over``.
Automatic steps run until a player must decide; every choice the rulebook gives a
player is a pending decision of that seat.

A card on a Battlefield is a tuple ``(card id, face up, known mask)``; bit ``s`` of
the mask is set when seat ``s`` knows the card. Card ids are unique strings such as
``hondo-peasant-2``: ``secrets(seat)`` lists the ids a seat has not seen, so the
contract test catches any leak. Rulings ``C1``... are in ``docs/rulings.md``.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from kassen.engine.errors import FormatError, IllegalActionError
from kassen.engine.events import Event
from kassen.engine.protocol import Result, State
from kassen.engine.rng import Rng
from kassen.rulesets.clans.data import CARD_TYPES, CLANS, TILES, CardTable

if TYPE_CHECKING:
    from kassen.rulesets.clans.game import ClansGame

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


class ClansState(State):
    """A moment of a clan card game. Immutable from the outside."""

    def __init__(self, game: ClansGame, table: CardTable, table_path: str | None) -> None:
        self.game = game
        self.table = table
        self.table_path = table_path
        self.scenario = ""
        self.n = 2
        self.clans: tuple[int, ...] = (0, 1)
        self.teams = False
        self.phase = "deploy"
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
        self.pending: JSON | None = None
        self.vp: list[int] | None = None
        self.rng = Rng(0)
        self._result: Result | None = None
        self.events: tuple[Event, ...] = ()
        self._ev: list[Event] = []
        self._legal: list[str] | None = None

    # ------------------------------------------------------------------ basics
    def clone(self) -> ClansState:
        s = ClansState.__new__(ClansState)
        s.game, s.table, s.table_path = self.game, self.table, self.table_path
        s.scenario, s.n, s.clans, s.teams = self.scenario, self.n, self.clans, self.teams
        s.phase = self.phase
        s.offer, s.queue, s.draft_stage = list(self.offer), list(self.queue), self.draft_stage
        s.tiles, s.sides = list(self.tiles), list(self.sides)
        s.stacks = [[list(a), list(b)] for a, b in self.stacks]
        s.outcome = [dict(o) if o is not None else None for o in self.outcome]
        s.bonus = [list(b) for b in self.bonus]
        s.hands = [list(h) for h in self.hands]
        s.removed = list(self.removed)
        s.deployed, s.last_card = list(self.deployed), list(self.last_card)
        s.round, s.turn, s.left = self.round, self.turn, self.left
        s.pending = dict(self.pending) if self.pending is not None else None
        s.vp = list(self.vp) if self.vp is not None else None
        s.rng = self.rng.copy()
        s._result = self._result
        s.events = ()
        s._ev = []
        s._legal = None
        return s

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

    def to_move(self) -> int | None:
        if self.phase == "over":
            return None
        if self.phase == "draft":
            return self.queue[0][0]
        if self.phase in ("deploy", "resolve"):
            return self.turn
        assert self.pending is not None
        seat: int = self.pending["seat"]
        return seat

    def result(self) -> Result | None:
        return self._result

    # ------------------------------------------------------------ strengths
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

    # ------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[str]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[str]:
        ph = self.phase
        if ph == "over":
            return []
        if ph == "draft":
            return [f"choose {t}" for t in sorted(self.offer)]
        if ph == "deploy":
            return self._deploy_actions()
        if ph == "resolve":
            return [f"resolve {self.tiles[i]}" for i in self._unresolved()]
        p = self.pending
        assert p is not None
        kind = p["kind"]
        if kind == "scout":
            i = p["bf"]
            opp = 1 - self.side_of(i, p["seat"])
            return [f"reveal {self.tiles[i]} {self.name(self.sides[i][opp]).lower()} {k + 1}"
                    for k, e in enumerate(self.stacks[i][opp]) if not e[1]]
        if kind == "shugenja":
            return [f"peek {t}" for t in self._face_down_targets(p["seat"])]
        if kind == "general":
            return self._general_actions(p["seat"], p["bf"])
        if kind == "sanctuary":
            i, side = p["bf"], p["side"]
            return [f"destroy {k + 1}" for k in self._weakest(i, side)]
        if kind == "supply":
            el = self._supply_targets(p["seat"])
            return [f"bonus {self.tiles[a]} {self.tiles[b]}"
                    for x, a in enumerate(el) for b in el[x + 1:]]
        raise AssertionError(kind)

    def _my_bfs(self, seat: int) -> list[int]:
        return [i for i, (a, b) in enumerate(self.sides) if seat in (a, b)]

    def _room(self, i: int, seat: int) -> bool:
        """Whether ``seat`` may add a card on its side of Battlefield ``i`` (the Bridge, C9)."""
        if self.tiles[i] != "bridge":
            return True
        return len(self.stacks[i][self.side_of(i, seat)]) < BRIDGE_LIMIT

    def _face_down_targets(self, seat: int) -> list[str]:
        """``tile clan pos`` of every face-down card of another player, on any Battlefield."""
        out: list[str] = []
        for i, tile in enumerate(self.tiles):
            for side in (0, 1):
                owner = self.sides[i][side]
                if owner == seat:
                    continue
                cname = self.name(owner).lower()
                out.extend(f"{tile} {cname} {k + 1}" for k, e in enumerate(self.stacks[i][side]) if not e[1])
        return out

    def _deploy_actions(self) -> list[str]:
        seat = self.turn
        mine = [i for i in self._my_bfs(seat) if self._room(i, seat)]
        out: list[str] = []
        seen: set[str] = set()
        for cid in sorted(self.hands[seat]):
            slug = card_type(cid)
            if slug in seen:
                continue
            seen.add(slug)
            if slug == "assassin":
                targets = self._face_down_targets(seat)
                if targets:
                    out.extend(f"assassin {t}" for t in targets)
                else:
                    out.extend(f"deploy assassin {self.tiles[i]}" for i in mine)
            else:
                out.extend(f"deploy {slug} {self.tiles[i]}" for i in mine)
            if not is_secret(cid):
                out.extend(f"deploy-down {slug} {self.tiles[i]}" for i in mine)
        return out

    def _general_actions(self, seat: int, i: int) -> list[str]:
        side = self.side_of(i, seat)
        dests = [j for j in self._my_bfs(seat) if j != i and self._room(j, seat)]
        return [f"move {self.tiles[i]} {k + 1} {self.tiles[j]}"
                for k, e in enumerate(self.stacks[i][side]) if not e[1] for j in dests]

    def _unresolved(self) -> list[int]:
        return [i for i, o in enumerate(self.outcome) if o is None or not o.get("done")]

    def _supply_targets(self, seat: int) -> list[int]:
        """Battlefields the Supply Camp's conqueror may reinforce (C17)."""
        allies = {seat}
        mate = self.partner(seat)
        if mate is not None:
            allies.add(mate)
        return [i for i in self._unresolved() if self.tiles[i] != "supply-camp"
                and any(s in allies for s in self.sides[i])]

    # ------------------------------------------------------------ apply
    def apply(self, action: str) -> ClansState:
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(action, self._why_illegal(action), legal)
        s = self.clone()
        words = action.split()
        verb = words[0]
        if verb == "choose":
            s._choose(words[1])
        elif verb in ("deploy", "deploy-down"):
            s._deploy(words[1], s.bf_index(words[2]), face_up=verb == "deploy")
        elif verb == "assassin":
            s._assassinate(s.bf_index(words[1]), words[2], int(words[3]) - 1)
        elif verb == "reveal":
            s._reveal(s.bf_index(words[1]), words[2], int(words[3]) - 1)
        elif verb == "peek":
            s._peek(s.bf_index(words[1]), words[2], int(words[3]) - 1)
        elif verb == "move":
            s._move(s.bf_index(words[1]), int(words[2]) - 1, s.bf_index(words[3]))
        elif verb == "resolve":
            s._combat(s.bf_index(words[1]))
        elif verb == "destroy":
            s._destroy(int(words[1]) - 1)
        elif verb == "bonus":
            assert s.pending is not None
            s._bonus([s.bf_index(words[1]), s.bf_index(words[2])], s.pending["seat"])
        else:  # pragma: no cover - every legal verb is handled above
            raise AssertionError(verb)
        s._run()
        s.events = tuple(s._ev)
        s._ev = []
        return s

    def _why_illegal(self, action: str) -> str:
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

    def emit(self, kind: str, data: JSON, text: str, visible_to: tuple[int, ...] | None = None,
             redacted: Event | None = None) -> None:
        self._ev.append(Event(kind, data, text, visible_to, redacted))

    # ------------------------------------------------------------ set-up draft
    def _choose(self, tile: str) -> None:
        seat, a, b = self.queue.pop(0)
        self.offer.remove(tile)
        self._place_tile(tile, a, b)
        self.emit("choose", {"seat": seat, "tile": tile, "between": [a, b]},
                  f"{self.name(seat)} places the {TILES[tile][0]} between {self.name(a)} and {self.name(b)}")
        if not self.queue:
            if self.offer:
                self.emit("return", {"tiles": sorted(self.offer)},
                          "Unchosen Battlefields go back to the box: "
                          + ", ".join(TILES[t][0] for t in sorted(self.offer)))
            self.offer = []
            if self.draft_stage == 0:
                self.start_draft(1)
            else:
                self.phase = "deploy"

    def _place_tile(self, tile: str, a: int, b: int) -> None:
        self.tiles.append(tile)
        self.sides.append((a, b))
        self.stacks.append([[], []])
        self.outcome.append(None)
        self.bonus.append([0, 0])

    def start_draft(self, stage: int) -> None:
        """Experienced set-up (002:104-120, 67-91): draw players + 1 tiles face up from the
        4-VP stack (stage 0) or the 6-VP stack (stage 1); choosers in turn place one each (C3)."""
        self.draft_stage = stage
        n = self.n
        vp = 4 if stage == 0 else 6
        pool = sorted(t for t in TILES if self.table.vp(t) == vp)
        self.offer = self.rng.shuffled(pool)[: n + 1]
        if stage == 0:
            self.queue = [(s, s, (s + 1) % n) for s in range(n)]
        else:
            self.queue = [(s, s, (s - 1) % n) for s in range(n - 1, -1, -1)]
        self.emit("draw", {"tiles": sorted(self.offer), "vp": vp},
                  f"Drawn face up from the {vp}-VP stack: " + ", ".join(TILES[t][0] for t in sorted(self.offer)))

    # ------------------------------------------------------------ deployment
    def _take(self, seat: int, slug: str) -> str:
        cid = min(c for c in self.hands[seat] if card_type(c) == slug)
        self.hands[seat].remove(cid)
        self.deployed[seat] += 1
        self.last_card[seat] = cid
        return cid

    def _deploy(self, slug: str, i: int, face_up: bool) -> None:
        seat = self.turn
        cid = self._take(seat, slug)
        side = self.side_of(i, seat)
        where = self.tile_name(i)
        me = self.name(seat)
        if is_secret(cid):
            self.stacks[i][side].append((cid, False, 1 << seat))
            self.emit("deploy", {"seat": seat, "tile": self.tiles[i], "card": cid, "up": False},
                      f"{me} deploys the {self.card_name(cid)} face down on the {where}", (seat,),
                      Event("deploy", {"seat": seat, "tile": self.tiles[i], "up": False},
                            f"{me} deploys a face-down card on the {where}"))
            self._next_card()
            return
        if not face_up:
            # C7: a Regular card deployed face down is removed at once, its ability lost
            self.removed.append((cid, self.all_mask, "face-down Regular card", seat))
            self.emit("blunder", {"seat": seat, "tile": self.tiles[i], "card": cid},
                      f"{me} deployed the Regular {self.card_name(cid)} face down on the {where}: "
                      "it is removed from the game without effect")
            self._next_card()
            return
        self.stacks[i][side].append((cid, True, self.all_mask))
        self.emit("deploy", {"seat": seat, "tile": self.tiles[i], "card": cid, "up": True},
                  f"{me} deploys the {self.card_name(cid)} face up on the {where}")
        if slug in DEPLOY_ABILITIES:
            self.pending = {"kind": slug, "seat": seat, "bf": i}
            self.phase = "ability"
            if not self._compute_legal():
                self.emit("no-effect", {"seat": seat, "card": slug},
                          f"The {CARD_TYPES[slug][0]} has no card to act on: nothing happens")
                self.pending = None
                self.phase = "deploy"
                self._next_card()
            return
        self._next_card()

    def _assassinate(self, i: int, clan: str, k: int) -> None:
        """The Assassin eliminates a face-down card and is deployed in its place (002:321-337)."""
        seat = self.turn
        cid = self._take(seat, "assassin")
        side = 0 if self.name(self.sides[i][0]).lower() == clan else 1
        victim_seat = self.sides[i][side]
        victim, _, known = self.stacks[i][side][k]
        self.stacks[i][side][k] = (cid, True, self.all_mask)
        mask = known | (1 << seat) | (1 << victim_seat)
        self.removed.append((victim, mask, "eliminated by an Assassin", victim_seat))
        where, me, other = self.tile_name(i), self.name(seat), self.name(victim_seat)
        self.emit("assassin", {"seat": seat, "tile": self.tiles[i], "victim_seat": victim_seat, "pos": k + 1,
                               "card": victim},
                  f"{me}'s Assassin eliminates {other}'s face-down card {k + 1} on the {where} "
                  f"(the {self.card_name(victim)}) and takes its place",
                  tuple(sorted({seat, victim_seat})),
                  Event("assassin", {"seat": seat, "tile": self.tiles[i], "victim_seat": victim_seat, "pos": k + 1},
                        f"{me}'s Assassin eliminates {other}'s face-down card {k + 1} on the {where} "
                        "and takes its place"))
        self._next_card()

    def _target(self, i: int, clan: str, k: int) -> tuple[int, Entry]:
        side = 0 if self.name(self.sides[i][0]).lower() == clan else 1
        return side, self.stacks[i][side][k]

    def _reveal(self, i: int, clan: str, k: int) -> None:
        side, (cid, _, _) = self._target(i, clan, k)
        self.stacks[i][side][k] = (cid, True, self.all_mask)
        self.emit("reveal", {"seat": self.turn, "tile": self.tiles[i], "pos": k + 1, "card": cid},
                  f"{self.name(self.turn)}'s Scout reveals the {self.card_name(cid)} on the {self.tile_name(i)}")
        self._end_ability()

    def _peek(self, i: int, clan: str, k: int) -> None:
        seat = self.turn
        side, (cid, up, known) = self._target(i, clan, k)
        self.stacks[i][side][k] = (cid, up, known | (1 << seat))
        other = self.name(self.sides[i][side])
        head = f"{self.name(seat)}'s Shugenja looks at {other}'s face-down card {k + 1} on the {self.tile_name(i)}"
        self.emit("peek", {"seat": seat, "tile": self.tiles[i], "pos": k + 1, "card": cid},
                  f"{head}: the {self.card_name(cid)}", (seat,),
                  Event("peek", {"seat": seat, "tile": self.tiles[i], "pos": k + 1}, head))
        self._end_ability()

    def _move(self, i: int, k: int, j: int) -> None:
        seat = self.turn
        side = self.side_of(i, seat)
        entry = self.stacks[i][side].pop(k)
        self.stacks[j][self.side_of(j, seat)].append(entry)
        head = (f"{self.name(seat)}'s General moves face-down card {k + 1} from the {self.tile_name(i)} "
                f"to the top of the {self.tile_name(j)}")
        self.emit("move", {"seat": seat, "from": self.tiles[i], "pos": k + 1, "to": self.tiles[j],
                           "card": entry[0]},
                  f"{head} (the {self.card_name(entry[0])})", (seat,),
                  Event("move", {"seat": seat, "from": self.tiles[i], "pos": k + 1, "to": self.tiles[j]}, head))
        self._end_ability()

    def _end_ability(self) -> None:
        self.pending = None
        self.phase = "deploy"
        self._next_card()

    def _next_card(self) -> None:
        self.left -= 1
        if self.left > 0:
            return
        self.turn = (self.turn + 1) % self.n
        if self.turn == 0:
            self.round += 1
        if self.round > ROUNDS:
            self._start_combat()
            return
        self.left = cards_per_turn(self.round)

    # ------------------------------------------------------------ combat
    def _start_combat(self) -> None:
        self.phase = "resolve"
        self.turn = 0
        self.emit("combat", {}, "Army Deployment is over: Combat Resolution begins")

    def _run(self) -> None:
        """Automatic steps until a player must decide (C12: the Supply Camp first, and a
        last Battlefield needs no choice)."""
        while self.phase == "resolve":
            todo = self._unresolved()
            if not todo:
                self._score()
                return
            camp = [i for i in todo if self.tiles[i] == "supply-camp"]
            if camp:
                self._combat(camp[0])
            elif len(todo) == 1:
                self._combat(todo[0])
            else:
                return

    def _combat(self, i: int) -> None:
        """Begin Combat on Battlefield ``i`` (002:212-225)."""
        a, b = self.sides[i]
        info: JSON = {"done": False}
        if self.tiles[i] == "port":
            # before Secret Units are revealed: +1 per face-up card (002:462-468)
            info["port"] = [sum(1 for e in self.stacks[i][s] if e[1]) for s in (0, 1)]
        self.outcome[i] = info
        self.emit("battle", {"tile": self.tiles[i]},
                  f"Combat on the {self.tile_name(i)} ({self.name(a)} against {self.name(b)})")
        revealed = []
        for s in (0, 1):
            st = self.stacks[i][s]
            for k, (cid, up, _) in enumerate(st):
                if not up:
                    revealed.append(cid)
                st[k] = (cid, True, self.all_mask)
        if revealed:
            self.emit("reveal-all", {"tile": self.tiles[i], "cards": revealed},
                      "Revealed: " + ", ".join(self.card_name(c) for c in revealed))
        # the Archer acts before the Samurai (002:383-392)
        # hit[s]: the cards eliminated on side s, by the other side's Archer, then Samurai
        hit = [self._find(i, s, {"samurai"}) if self._find(i, 1 - s, {"archer"}) else [] for s in (0, 1)]
        self._eliminate(i, hit, "eliminated by an Archer")
        hit = [self._find(i, s, SAMURAI_VICTIMS) if self._find(i, 1 - s, {"samurai"}) else [] for s in (0, 1)]
        self._eliminate(i, hit, "eliminated by a Samurai")
        if self.tiles[i] == "sanctuary":
            info["sanctuary"] = [None, None]
            self._sanctuary_step(i)
            return
        self._finish_combat(i)

    def _find(self, i: int, side: int, slugs: set[str] | frozenset[str]) -> list[int]:
        """Positions on ``side`` of ``i`` of the side owner's cards of the given types."""
        owner = self.clans[self.sides[i][side]]
        return [k for k, e in enumerate(self.stacks[i][side])
                if card_type(e[0]) in slugs and card_clan(e[0]) == owner]

    def _eliminate(self, i: int, hit: list[list[int]], how: str) -> None:
        for s in (0, 1):
            if not hit[s]:
                continue
            st = self.stacks[i][s]
            gone = [st[k][0] for k in hit[s]]
            for k in sorted(hit[s], reverse=True):
                del st[k]
            for cid in gone:
                self.removed.append((cid, self.all_mask, how, self.sides[i][s]))
            self.emit("eliminate", {"tile": self.tiles[i], "cards": gone, "how": how},
                      f"On the {self.tile_name(i)}: " + ", ".join(self.card_name(c) for c in gone) + f" {how}")

    def _weakest(self, i: int, side: int) -> list[int]:
        st = self.stacks[i][side]
        if not st:
            return []
        strengths = [self.card_strength(i, st, k) for k in range(len(st))]
        low = min(strengths)
        return [k for k, v in enumerate(strengths) if v == low]

    def _sanctuary_step(self, i: int) -> None:
        """Sanctuary (002:447-457): each player destroys one of his weakest cards, choosing
        among equally weak ones. The choices are simultaneous: made side by side, the first
        kept hidden until both are made, then both cards go at once (C14)."""
        info = self.outcome[i]
        assert info is not None
        picks: list[int | None] = list(info["sanctuary"])
        for side in (0, 1):
            if picks[side] is not None:
                continue
            weak = self._weakest(i, side)
            if len(weak) > 1:
                info["sanctuary"] = picks
                self.pending = {"kind": "sanctuary", "seat": self.sides[i][side], "bf": i, "side": side}
                self.phase = "sanctuary"
                return
            picks[side] = weak[0] if weak else -1
        self._eliminate(i, [[k] if k is not None and k >= 0 else [] for k in picks], "destroyed at the Sanctuary")
        self._finish_combat(i)

    def _destroy(self, k: int) -> None:
        p = self.pending
        assert p is not None
        i, side = p["bf"], p["side"]
        self.pending = None
        self.phase = "resolve"
        info = self.outcome[i]
        assert info is not None
        info["sanctuary"] = [k if s == side else v for s, v in enumerate(info["sanctuary"])]
        self._sanctuary_step(i)

    def totals(self, i: int) -> list[int]:
        """Total Strength of both sides of ``i`` as the cards now stand (002:227-232)."""
        info = self.outcome[i] or {}
        port = info.get("port", [0, 0])
        tot = []
        for s in (0, 1):
            st = self.stacks[i][s]
            tot.append(sum(self.card_strength(i, st, k) for k in range(len(st))) + port[s] + self.bonus[i][s])
        if self.tiles[i] == "palace":
            c0, c1 = len(self.stacks[i][0]), len(self.stacks[i][1])
            if c0 != c1:
                tot[0 if c0 > c1 else 1] -= PALACE_PENALTY
        return tot

    def _winner_side(self, i: int, tot: list[int]) -> tuple[int | None, str]:
        """The conquering side of ``i`` and why (002:234-239, 484-501; C15, C16)."""
        counts = [len(self.stacks[i][0]), len(self.stacks[i][1])]
        if tot[0] != tot[1]:
            side = 0 if tot[0] > tot[1] else 1
            why = "higher Total Strength"
        elif counts[0] != counts[1]:
            side = 0 if counts[0] > counts[1] else 1
            why = "equal Strength, more cards"
        else:
            return None, "equal Strength and equal cards"
        if counts[side] == 0:
            return None, "an army without cards cannot conquer"
        tile = self.tiles[i]
        if tile == "golden-temple" and abs(tot[0] - tot[1]) < TEMPLE_MARGIN:
            return None, f"Golden Temple: the margin is below {TEMPLE_MARGIN}"
        if tile == "fortress" and counts[side] < FORTRESS_CARDS:
            return None, f"Fortress: the stronger army has fewer than {FORTRESS_CARDS} cards"
        return side, why

    def _finish_combat(self, i: int) -> None:
        info = self.outcome[i]
        assert info is not None
        tot = self.totals(i)
        side, why = self._winner_side(i, tot)
        info.update(totals=tot, counts=[len(self.stacks[i][0]), len(self.stacks[i][1])], why=why, done=True)
        if side is None:
            info["winner"] = None
            text = f"No one conquers the {self.tile_name(i)} ({tot[0]} against {tot[1]}: {why})"
            if self.tiles[i] in ("golden-temple", "fortress") and (self.stacks[i][0] or self.stacks[i][1]):
                self._eliminate(i, [list(range(len(self.stacks[i][s]))) for s in (0, 1)],
                                f"eliminated at the {self.tile_name(i)}")
            self.emit("conquer", {"tile": self.tiles[i], "winner": None, "totals": tot}, text)
        else:
            seat = self.sides[i][side]
            clan = self.clans[seat]
            st = self.stacks[i][side]
            info["winner"] = seat
            info["lord"] = any(card_type(c) == "lord" and card_clan(c) == clan for c, _, _ in st)
            info["peasant"] = any(card_type(c) == "peasant" and card_clan(c) == clan for c, _, _ in st)
            self.emit("conquer", {"tile": self.tiles[i], "winner": seat, "totals": tot},
                      f"{self.name(seat)} conquers the {self.tile_name(i)} ({tot[side]} against {tot[1 - side]}: {why})")
            loser = self.stacks[i][1 - side]
            for cid, _, _ in loser:
                self.removed.append((cid, self.all_mask, "withdrawn", self.sides[i][1 - side]))
            self.stacks[i][1 - side] = []
            if self.tiles[i] == "supply-camp":
                self._supply(seat)

    def _supply(self, seat: int) -> None:
        """Supply Camp (002:508-529): its conqueror chooses two different Battlefields (C17)."""
        el = self._supply_targets(seat)
        if len(el) >= 2:
            self.pending = {"kind": "supply", "seat": seat}
            self.phase = "supply"
        elif el:
            self._bonus(el, seat)

    def _bonus(self, bfs: list[int], seat: int) -> None:
        self.pending = None
        self.phase = "resolve"
        allies = {seat} | ({self.partner(seat)} - {None})
        for i in bfs:
            side = 0 if self.sides[i][0] in allies else 1
            self.bonus[i][side] += 1
            self.emit("bonus", {"seat": seat, "tile": self.tiles[i], "to": self.sides[i][side]},
                      f"Supply Camp: +1 Total Strength for {self.name(self.sides[i][side])} on the {self.tile_name(i)}")

    # ------------------------------------------------------------ scoring
    def seat_score(self, seat: int) -> tuple[int, int, list[str]]:
        """(Victory Points, Battlefields conquered, the reasons) of a finished game (002:258-275)."""
        vp, won, why = 0, 0, []
        conquered = [i for i, o in enumerate(self.outcome) if o is not None and o.get("winner") == seat]
        for i in conquered:
            won += 1
            name = self.tile_name(i)
            vp += self.table.vp(self.tiles[i])
            why.append(f"{name} {self.table.vp(self.tiles[i])}")
            info = self.outcome[i]
            assert info is not None
            if info.get("peasant"):
                vp += PEASANT_BONUS
                why.append(f"Peasant on the {name} +{PEASANT_BONUS}")
            if info.get("lord"):
                vp += LORD_BONUS
                why.append(f"Lord on the {name} +{LORD_BONUS}")
            if self.tiles[i] == "torii" and len(conquered) > 1:
                vp += len(conquered) - 1
                why.append(f"Torii +{len(conquered) - 1}")
        last = self.last_card[seat]
        if last is not None and card_type(last) == "lord":
            vp -= COWARDICE
            why.append(f"Lord deployed last -{COWARDICE}")
        return vp, won, why

    def _score(self) -> None:
        self.phase = "over"
        self.pending = None
        scores = [self.seat_score(s) for s in range(self.n)]
        self.vp = [v for v, _, _ in scores]
        for s, (v, w, why) in enumerate(scores):
            self.emit("score", {"seat": s, "vp": v, "conquered": w},
                      f"{self.name(s)}: {v} VP, {w} Battlefield{'s' if w != 1 else ''} conquered"
                      + (f" ({', '.join(why)})" if why else ""))
        groups: list[tuple[int, ...]] = [(0, 2), (1, 3)] if self.teams else [(s,) for s in range(self.n)]
        keyed = [(sum(scores[s][0] for s in g), sum(scores[s][1] for s in g)) for g in groups]
        best = max(keyed)
        top = [g for g, k in zip(groups, keyed) if k == best]
        out = [0.0] * self.n
        if len(top) == 1:
            for s in top[0]:
                out[s] = 1.0
            names = " & ".join(self.name(s) for s in top[0])
            tie = " (tie broken by Battlefields conquered)" if sum(1 for k in keyed if k[0] == best[0]) > 1 else ""
            self._result = Result(top[0][0], f"{names}: most Victory Points, {best[0]}{tie}", tuple(out))
        else:
            for g in top:
                for s in g:
                    out[s] = 0.5
            self._result = Result(None, f"tie on {best[0]} Victory Points and {best[1]} Battlefields", tuple(out))
        self.emit("result", self._result.to_json(), self._result.reason)

    # ------------------------------------------------------------ observation
    def knows(self, seat: int | None, entry: Entry) -> bool:
        return entry[1] or self.phase == "over" or (seat is not None and bool(entry[2] >> seat & 1))

    def knows_removed(self, seat: int | None, known: int) -> bool:
        """Whether ``seat`` knows a card out of the game (eliminated unseen by an Assassin: C11)."""
        return known == self.all_mask or self.phase == "over" or (seat is not None and bool(known >> seat & 1))

    def _card_json(self, i: int, stack: list[Entry], k: int, seat: int | None) -> JSON:
        cid, up, _ = stack[k]
        d: JSON = {"pos": k + 1, "clan": CLANS[card_clan(cid)], "up": up}
        if self.knows(seat, stack[k]):
            slug = card_type(cid)
            d.update(card=cid, type=slug, name=CARD_TYPES[slug][0], strength=self.card_strength(i, stack, k),
                     default=self.table.cards[slug].default)
        return d

    def observation(self, seat: int | None) -> JSON:
        board = []
        for i, tile in enumerate(self.tiles):
            sides = []
            for s in (0, 1):
                st = self.stacks[i][s]
                owner = self.sides[i][s]
                sides.append({"seat": owner, "clan": self.name(owner), "count": len(st),
                              "strength_shown": self.strength_shown(i, s), "bonus": self.bonus[i][s],
                              "cards": [self._card_json(i, st, k, seat) for k in range(len(st))]})
            info = self.outcome[i]
            board.append({"tile": tile, "name": TILES[tile][0], "vp": self.table.vp(tile), "timing": TILES[tile][1],
                          "text": self.table.battlefields[tile].text, "sides": sides,
                          "outcome": dict(info) if info is not None and info.get("done") else None})
        removed = []
        for cid, known, how, owner in self.removed:
            r: JSON = {"clan": CLANS[card_clan(cid)], "side": self.name(owner), "how": how}
            if self.knows_removed(seat, known):
                r.update(card=cid, type=card_type(cid), name=CARD_TYPES[card_type(cid)][0])
            removed.append(r)
        obs: JSON = {
            "game": "clans",
            "scenario": self.scenario,
            "seats": list(self.seat_names()),
            "viewer": seat,
            "teams": [[0, 2], [1, 3]] if self.teams else None,
            "phase": self.phase,
            "round": self.round,
            "turn": min(self.round, ROUNDS),
            "to_move": self.to_move(),
            "cards_left_this_turn": self.left if self.phase == "deploy" else 0,
            "board": board,
            "removed": removed,
            "hand_sizes": {self.name(s): len(self.hands[s]) for s in range(self.n)},
            "card_table": self.table_json(),
            "pending": self._pending_json(),
            "events": [e for e in (ev.public_json(seat) for ev in self.events) if e is not None],
        }
        if self.phase == "draft":
            obs["offer"] = sorted(self.offer)
        if seat is not None:
            t = self.table
            obs["hand"] = [{"card": c, "slug": card_type(c), "name": CARD_TYPES[card_type(c)][0],
                            "kind": CARD_TYPES[card_type(c)][1], "strength": t.strength(card_type(c)),
                            "default": t.cards[card_type(c)].default} for c in sorted(self.hands[seat])]
            obs["last_deployed"] = self.last_card[seat]
        if self.vp is not None:
            obs["vp"] = {self.name(s): v for s, v in enumerate(self.vp)}
        obs["result"] = self._result.to_json() if self._result else None
        return obs

    def _pending_json(self) -> JSON | None:
        p = self.pending
        if p is None:
            return None
        out: JSON = {"decision": p["kind"], "seat": p["seat"], "prompt": self.prompt()}
        if "bf" in p:
            out["tile"] = self.tiles[p["bf"]]
        return out

    def table_json(self) -> JSON:
        t = self.table
        return {
            "name": t.name,
            "label": "default value",
            "cards": {slug: {"name": nm, "kind": kind, "copies": cp, "strength": t.cards[slug].strength,
                             "default": t.cards[slug].default, "text": t.cards[slug].text}
                      for slug, (nm, kind, cp) in CARD_TYPES.items()},
            "village": {"from": t.village.from_strength, "to": t.village.to_strength, "default": t.village.default},
            "lord_per_card_after": t.lord.per_card_after,
        }

    def secrets(self, seat: int | None) -> set[str]:
        """Ids of cards ``seat`` has not seen: face-down cards, eliminated ones, other hands."""
        if self.phase == "over":
            return set()
        out: set[str] = set()
        for i in range(len(self.tiles)):
            for s in (0, 1):
                for e in self.stacks[i][s]:
                    if not self.knows(seat, e):
                        out.add(e[0])
        for cid, known, _, _ in self.removed:
            if not self.knows_removed(seat, known):
                out.add(cid)
        for s in range(self.n):
            if s != seat:
                out.update(self.hands[s])
        return out

    # ------------------------------------------------------------ menus
    def prompt(self) -> str:
        ph = self.phase
        if ph == "over":
            return ""
        who = self.name(self.to_move() or 0)
        if ph == "draft":
            _, a, b = self.queue[0]
            return f"{who}: choose a Battlefield to place between {self.name(a)} and {self.name(b)}"
        if ph == "deploy":
            n = cards_per_turn(self.round)
            nth = n - self.left + 1
            return f"{who}: deploy a card (round {self.round} of {ROUNDS}, card {nth} of {n})"
        if ph == "resolve":
            return f"{who}: choose the next Battlefield to resolve"
        p = self.pending
        assert p is not None
        where = self.tile_name(p["bf"]) if "bf" in p else ""
        return {
            "scout": f"{who}: choose the opponent's Secret card the Scout reveals on the {where}",
            "shugenja": f"{who}: choose a face-down card for the Shugenja to look at",
            "general": f"{who}: choose the face-down card the General moves from the {where}, and where to",
            "sanctuary": f"{who}: choose which of your weakest cards to destroy at the Sanctuary",
            "supply": f"{who}: choose two Battlefields for the Supply Camp's +1 bonuses",
        }[p["kind"]]

    def describe_action(self, action: str) -> str:
        w = action.split()

        def tile(t: str) -> str:
            return TILES[t][0] if t in TILES else t

        try:
            if w[0] == "deploy":
                up = "face up" if CARD_TYPES[w[1]][1] != "secret" else "face down"
                return f"deploy the {CARD_TYPES[w[1]][0]} {up} on the {tile(w[2])}"
            if w[0] == "deploy-down":
                return f"deploy the Regular {CARD_TYPES[w[1]][0]} face down on the {tile(w[2])} (it is removed!)"
            if w[0] == "assassin":
                return f"Assassin: eliminate {w[2].title()}'s face-down card {w[3]} on the {tile(w[1])}"
            if w[0] == "reveal":
                return f"Scout: reveal {w[2].title()}'s card {w[3]} on the {tile(w[1])}"
            if w[0] == "peek":
                return f"Shugenja: look at {w[2].title()}'s card {w[3]} on the {tile(w[1])}"
            if w[0] == "move":
                return f"General: move your card {w[2]} from the {tile(w[1])} to the {tile(w[3])}"
            if w[0] == "resolve":
                return f"resolve the {tile(w[1])} next"
            if w[0] == "destroy":
                return f"destroy your card {w[1]} at the Sanctuary"
            if w[0] == "bonus":
                return f"+1 on the {tile(w[1])} and on the {tile(w[2])}"
            if w[0] == "choose":
                return f"place the {tile(w[1])}"
        except (IndexError, KeyError):
            return action
        return action

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
            "pending": dict(self.pending) if self.pending is not None else None,
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
