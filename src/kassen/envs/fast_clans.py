"""The clan card game's observation tensor read straight from the state, without the JSON view.

:class:`ClansObserver` gives the same tensor as ``encoder("clans").encode(state.observation(seat))``
(tested at every decision of seeded games), reading only what ``observation(seat)`` shows that
seat: a face-down card's type only where ``state.knows(seat, card)``, a card out of the game
only where ``state.knows_removed``, the seat's own hand. The tensor is small (a few hundred
floats), so it is written whole at every call. Sums are float32 as the JSON encoder's
(``vec[i] += x``): each increment rounded to float32 and added in double, which rounds to the
same float32 (double has more than twice float32's precision).
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from kassen.envs.tensors import CLANS_MAX_SEATS, ClansEncoder
from kassen.rulesets.clans.common import Entry, card_type, clan_cards
from kassen.rulesets.clans.data import CLANS
from kassen.rulesets.clans.state import ClansState
from kassen.rulesets.clans.tasks import DECISION_PHASE

_F32 = array("f", [0.0])


def r32(x: float) -> float:
    """``x`` rounded to float32."""
    f = _F32
    f[0] = x
    return f[0]


def _clip(v: float) -> float:
    """``v`` clipped to [0, 1]."""
    return 1.0 if v > 1.0 else (0.0 if v < 0.0 else v)


class _Side:
    """One Battlefield side as a seat last saw it: the inputs of its cells (its cards held by
    reference: a state's list is never changed once ``apply`` returned it) and the cells written."""

    def __init__(self, cards: list[Entry], owner: int, bonus: int, done: bool, won: bool, over: bool,
                 idx: list[int]) -> None:
        self.cards = cards
        self.owner = owner
        self.bonus = bonus
        self.done = done
        self.won = won
        self.over = over
        self.idx = idx


class _Seat:
    """One seat's tensor, the game facts it was written for and each side as last written."""

    def __init__(self, size: int) -> None:
        self.cur: Any = np.zeros(size, np.float32)
        self.mv: Any = memoryview(self.cur)  # type: ignore[arg-type]
        self.tiles: list[str] | None = None
        self.table: Any = None
        self.clans: tuple[int, ...] = ()
        self.teams = False
        self.sides: list[_Side | None] = []
        #: the own hand, the cards out of the game and the end of the game as last written, and
        #: the scalars written for them
        self.hand: list[str] | None = None
        self.hand_w: list[tuple[int, float]] = []
        self.removed: list[tuple[str, int, str, int]] | None = None
        self.over = False
        self.removed_w: list[tuple[int, float]] = []


class ClansObserver:
    """``observe(state, seat)`` for the clan game. One tensor per seat; a Battlefield side's cells
    are written again only when its inputs (its cards, owner, bonus, outcome, the end of the
    game) differ from those it was written from (its cards by identity first: ``apply`` shares a
    side's list with the state it was applied to until a rule changes it; then by value); the
    scalars are written whole at every call. A fresh copy is handed out."""

    def __init__(self, enc: ClansEncoder) -> None:
        self.enc = enc
        lay = enc.layout
        self.size: int = lay.size
        self.hw: int = lay.grid[0] * lay.grid[1]
        self.v0: int = lay.plane_size
        self.tile_of: dict[str, int] = {t: i for i, t in enumerate(enc.tiles)}
        ch: dict[str, int] = {n: k * self.hw for n, k in enc.ch.items()}
        self.ch = ch
        v0 = self.v0
        sc: dict[str, int] = {n: v0 + i for n, i in enc.sc.items()}
        self.sc = sc
        self.up: dict[str, int] = {t: ch[f"up:{t}"] for t in enc.types}
        self.known_down: dict[str, int] = {t: ch[f"known-down:{t}"] for t in enc.types}
        self.owner: list[int] = [ch[f"owner:+{k}"] for k in range(CLANS_MAX_SEATS)]
        self.hand_inc: dict[str, float] = {t: r32(1 / enc.copies.get(t, 1)) for t in enc.types}
        self.q13 = r32(1 / 13)
        self.q4 = r32(1 / 4)
        self.rk = r32(1 / (4 * CLANS_MAX_SEATS))
        self.ru = r32(1 / (13 * CLANS_MAX_SEATS))
        # the scalars' indices by what they are of (no string built per call)
        self.sc_to_move: list[int] = [sc[f"to-move:+{k}"] for k in range(CLANS_MAX_SEATS)]
        self.sc_hand_size: list[int] = [sc[f"hand-size:+{k}"] for k in range(CLANS_MAX_SEATS)]
        self.sc_vp: list[int] = [sc[f"vp:+{k}"] for k in range(CLANS_MAX_SEATS)]
        self.sc_hand: dict[str, int] = {t: sc[f"hand:{t}"] for t in enc.types}
        self.sc_removed: dict[str, int] = {t: sc[f"removed-known:{t}"] for t in enc.types}
        self.sc_offer: dict[str, int] = {t: sc[f"offer:{t}"] for t in enc.tiles}
        self.sc_pending_tile: dict[str, int] = {t: sc[f"pending-tile:{t}"] for t in enc.tiles}
        self.sc_last: dict[str, int] = {n[len("last-deployed:"):]: i for n, i in sc.items()
                                        if n.startswith("last-deployed:")}
        self.sc_players: dict[int, int] = {int(n.split(":")[1]): i for n, i in sc.items()
                                           if n.startswith("players:")}
        self.sc_phase: dict[str, int] = {n[len("phase:"):]: i for n, i in sc.items() if n.startswith("phase:")}
        self.sc_pending: dict[str, int] = {n[len("pending:"):]: i for n, i in sc.items()
                                           if n.startswith("pending:")}
        #: a scalar of a hand card or a card out of the game -> its increment
        self.hand_inc_sc: dict[int, float] = {self.sc_hand[t]: self.hand_inc[t] for t in enc.types}
        self.removed_inc: dict[int, float] = {self.sc_removed[t]: self.rk for t in enc.types}
        self.removed_inc[sc["removed-unknown"]] = self.ru
        #: the single scalars, by index (no look-up by name per call)
        self.i_to_move_is_me, self.i_round, self.i_cards_left = sc["to-move-is-me"], sc["round"], sc["cards-left"]
        self.i_teams, self.i_pending_is_me = sc["teams"], sc["pending-is-me"]
        self.i_removed_unknown = sc["removed-unknown"]
        self.i_draw, self.i_won, self.i_lost = sc["result:draw"], sc["result:won"], sc["result:lost"]
        self.n_scalars = self.size - v0
        self.zero_scalars = array("f", bytes(4 * self.n_scalars))
        self.zero_planes = array("f", bytes(4 * v0))
        self.seats: dict[int, _Seat] = {}
        #: card id -> its type (the rules' ``card_type``, read from the observer's own table)
        self.type_of: dict[str, str] = {cid: card_type(cid) for c in range(len(CLANS)) for cid in clan_cards(c)}
        #: card id -> the channel offset of its type face up, face down and known; its hand scalar
        self.up_of: dict[str, int] = {cid: self.up[t] for cid, t in self.type_of.items()}
        self.known_down_of: dict[str, int] = {cid: self.known_down[t] for cid, t in self.type_of.items()}
        self.hand_of: dict[str, int] = {cid: self.sc_hand[t] for cid, t in self.type_of.items()}
        self.removed_of: dict[str, int] = {cid: self.sc_removed[t] for cid, t in self.type_of.items()}
        #: the channels of a side, as offsets (no look-up by name per side written)
        self.c_in_play, self.c_vp, self.c_partner = ch["in-play"], ch["vp"], ch["partner"]
        self.c_count, self.c_bonus, self.c_resolved, self.c_won = ch["count"], ch["bonus"], ch["resolved"], ch["won"]
        self.c_down, self.c_unknown, self.c_shown = ch["face-down"], ch["face-down-unknown"], ch["strength-shown"]
        #: each Battlefield's VP / 6 in the card table last seen (``table.vp``), by tile
        self.vp_table: Any = None
        self.vp6: dict[str, float] = {}
        #: scalar -> its float32 sum of n increments, clipped, for n = 0, 1, ... (``_sums``)
        self.runs: dict[int, list[float]] = {}
        #: the same for a Battlefield cell of n cards (1/4 a card face up or known, 1/13 face down)
        self.run4: list[float] = self._run(self.q4, 64)
        self.run13: list[float] = self._run(self.q13, 64)
        #: id of a side's list of cards -> (the list, its tile, its face-up Strength) (``_shown``)
        self.shown: dict[int, tuple[list[Entry], str, int]] = {}

    def observe(self, st: ClansState, seat: int) -> Any:
        """``seat``'s tensor of ``st`` (a fresh array)."""
        ss = self.seats.get(seat)
        if ss is None:
            ss = self.seats[seat] = _Seat(self.size)
        mv = ss.mv
        n = len(st.clans)
        me = seat
        partner = (me + 2) % 4 if st.teams else -1
        top = st.pending_task()
        over = top is None
        tiles = st.tiles
        if (ss.tiles is None or tiles != ss.tiles or st.table is not ss.table or st.clans != ss.clans
                or st.teams != ss.teams):
            mv[0:self.v0] = self.zero_planes
            ss.tiles, ss.table, ss.clans, ss.teams = list(tiles), st.table, st.clans, st.teams
            ss.sides = [None] * (2 * len(tiles))  # every side written again
            if len(set(tiles)) != len(tiles):  # two sides on one cell: never in the game; not kept apart
                raise AssertionError("a Battlefield tile twice in one game")
        self._planes(ss, st, mv, me, n, partner, over)
        # the scalars, written whole (each clipped to [0, 1] as it is written)
        v0 = self.v0
        mv[v0:self.size] = self.zero_scalars
        mover = st.to_move()
        if mover == me:
            mv[self.i_to_move_is_me] = 1.0
        if mover is not None:
            mv[self.sc_to_move[(mover - me) % n]] = 1.0
        mv[self.i_round] = _clip(st.round / 7)
        # the phase and the decision pending, from the task on top (``st.pending_kind()``, ``st.pending_task()``)
        kind = st.pending_kind() or "over"
        phase = DECISION_PHASE.get(kind, kind)
        if phase == "deploy":
            mv[self.i_cards_left] = _clip(st.left / 2)
        if st.teams:
            mv[self.i_teams] = 1.0
        got = self.sc_players.get(n)
        if got is not None:
            mv[got] = 1.0
        got = self.sc_phase.get(phase)
        if got is not None:
            mv[got] = 1.0
        pend = top
        if kind in DECISION_PHASE and pend is not None:  # a decision on top of the phase
            got = self.sc_pending.get(kind)
            if got is not None:
                mv[got] = 1.0
            if pend["seat"] == me:
                mv[self.i_pending_is_me] = 1.0
            bf = pend.get("bf")
            if bf is not None:
                mv[self.sc_pending_tile[tiles[bf]]] = 1.0
        if phase == "draft":
            offer = self.sc_offer
            for t in st.offer:
                k = offer[t]
                mv[k] = min(1.0, mv[k] + 1.0)
        hands = st.hands
        hand = hands[me]
        if ss.hand is None or hand != ss.hand:  # the hand's scalars, as last written when it is the same
            ss.hand, ss.hand_w = hand, self._sums([self.hand_of[c] for c in hand], self.hand_inc_sc)
        for k, v in ss.hand_w:
            mv[k] = v
        last = st.last_card[me]
        if last:
            got = self.sc_last.get(last.split("-")[1])
            if got is not None:
                mv[got] = min(1.0, mv[got] + 1.0)
        vps = st.vp
        for s in range(n):
            rel = (s - me) % n
            mv[self.sc_hand_size[rel]] = _clip(len(hands[s]) / 13)
            if vps:
                mv[self.sc_vp[rel]] = _clip(vps[s] / 40)
        removed = st.removed
        if ss.removed is None or over != ss.over or removed != ss.removed:
            ss.removed, ss.over = removed, over
            every, removed_of, unknown = st.all_mask, self.removed_of, self.i_removed_unknown
            ss.removed_w = self._sums([removed_of[cid] if known == every or over or (known >> me & 1)
                                       else unknown for cid, known, _, _ in removed], self.removed_inc)
        for k, v in ss.removed_w:
            mv[k] = v
        res = st.result()
        if res is not None:
            w = res.winner
            won = w is not None and w in (me, partner)
            mv[self.i_draw if w is None else (self.i_won if won else self.i_lost)] = 1.0
        return ss.cur.copy()

    def _planes(self, ss: _Seat, st: ClansState, mv: Any, me: int, n: int, partner: int, over: bool) -> None:
        """Write again each Battlefield side whose inputs differ from those it was written from: its
        cards first compared by identity (``apply`` shares a side's list with the state it was
        applied to until the rules change that side: ``ClansState.own_side``), then by value."""
        sides = ss.sides
        outcome, sides_of, stacks_all, bonus_all = st.outcome, st.sides, st.stacks, st.bonus
        for i in range(len(st.tiles)):
            info = outcome[i]
            done = info is not None and bool(info.get("done"))
            winner = info.get("winner") if done and info is not None else None
            side_of = sides_of[i]
            stacks = stacks_all[i]
            bonus = bonus_all[i]
            for j in (0, 1):
                owner = side_of[j]
                cards = stacks[j]
                b = bonus[j]
                won = done and winner == owner
                old = sides[2 * i + j]
                if old is not None and old.owner == owner and old.bonus == b and old.done == done \
                        and old.won == won and old.over == over:
                    if old.cards is cards:
                        continue
                    if old.cards == cards:
                        old.cards = cards
                        continue
                if old is not None:
                    for k in old.idx:
                        mv[k] = 0.0
                sides[2 * i + j] = _Side(cards, owner, b, done, won, over,
                                         self._side(st, mv, me, n, partner, i, j, owner, cards, done, winner, over))

    def _sums(self, idx: list[int], inc: dict[int, float]) -> list[tuple[int, float]]:
        """Each scalar of ``idx`` (one entry per increment) and its float32 sum, clipped to 1: the
        increments counted, the sum of n of them read from a table (``_run``)."""
        counts: dict[int, int] = {}
        for k in idx:
            counts[k] = counts.get(k, 0) + 1
        runs = self.runs
        out: list[tuple[int, float]] = []
        for k, n in counts.items():
            run = runs.get(k)
            if run is None or n >= len(run):
                run = runs[k] = self._run(inc[k], n)
            out.append((k, run[n]))
        return out

    def _run(self, inc: float, n: int) -> list[float]:
        """The float32 sums of 0, 1, ..., max(n, 64) increments ``inc``, each step rounded to float32
        as ``vec[k] += x`` rounds, clipped to 1."""
        f = _F32
        out, acc = [0.0], 0.0
        for _ in range(max(n, 64)):
            f[0] = acc + inc
            acc = f[0]
            out.append(acc if acc < 1.0 else 1.0)
        return out

    def _side(self, st: ClansState, mv: Any, me: int, n: int, partner: int, i: int, j: int, owner: int,
              cards: list[Entry], done: bool, winner: Any, over: bool) -> list[int]:
        """Write side ``j`` of Battlefield ``i`` (its cells are zeros), clipped to [0, 1] as the JSON
        encoder clips; the cells written. Each cell once: the cards counted per cell, a cell of n
        cards read from a table of float32 runs (n times the same increment, as the encoder's
        ``vec[i] += x`` sums them)."""
        tile = st.tiles[i]
        cell = self.tile_of[tile] * 2 + j
        up, known_down = self.up_of, self.known_down_of
        table = st.table
        if table is not self.vp_table:
            self.vp_table, self.vp6, self.shown = table, {}, {}
        vp6 = self.vp6.get(tile)
        if vp6 is None:
            vp6 = self.vp6[tile] = table.vp(tile) / 6
        k_partner, k_count, k_bonus = self.c_partner + cell, self.c_count + cell, self.c_bonus + cell
        out = [self.c_in_play + cell, self.c_vp + cell, self.owner[(owner - me) % n] + cell, k_partner, k_count,
               k_bonus]
        mv[out[0]] = 1.0
        mv[out[1]] = _clip(vp6)
        mv[out[2]] = 1.0
        if owner == partner:
            mv[k_partner] = 1.0
        mv[k_count] = _clip(len(cards) / 13)
        mv[k_bonus] = _clip(st.bonus[i][j] / 5)
        if done:
            out.append(self.c_resolved + cell)
            out.append(self.c_won + cell)
            mv[out[-2]] = 1.0
            if winner == owner:
                mv[out[-1]] = 1.0
        counts: dict[int, int] = {}
        down = unknown = 0
        for e in cards:
            if e[1]:
                k = up[e[0]] + cell
            else:
                down += 1
                if over or (e[2] >> me & 1):  # state.knows(seat, e), face down
                    k = known_down[e[0]] + cell
                else:
                    unknown += 1
                    continue
            counts[k] = counts.get(k, 0) + 1
        run4, run13 = self.run4, self.run13
        for k, c in counts.items():
            mv[k] = run4[c] if c < len(run4) else 1.0
            out.append(k)
        if down:
            k = self.c_down + cell
            mv[k] = run13[down] if down < len(run13) else 1.0
            out.append(k)
        if unknown:
            k = self.c_unknown + cell
            mv[k] = run13[unknown] if unknown < len(run13) else 1.0
            out.append(k)
        if down < len(cards):  # the face-up cards' Strength (0 without any)
            k = self.c_shown + cell
            mv[k] = _clip(self._shown(st, table, tile, i, j, cards) / 30)
            out.append(k)
        return out

    def _shown(self, st: ClansState, table: Any, tile: str, i: int, j: int, cards: list[Entry]) -> int:
        """``st.strength_shown(i, j)``, kept for the side's list of cards (the same object while no rule
        changed it: both seats' observations ask it once)."""
        memo = self.shown
        got = memo.get(id(cards))
        if got is not None and got[0] is cards and got[1] == tile:
            return got[2]
        v = st.strength_shown(i, j)
        if len(memo) >= 4096:
            memo.clear()
        memo[id(cards)] = (cards, tile, v)  # holds the list: its id is not reused while kept
        return v
