"""Observation tensors read straight from a C&C Samurai state, without the JSON view.

:class:`CCObserver` gives the same tensor as
``encoder(game).encode(state.observation(seat))`` (tested on every decision of seeded
games), reading only what ``observation(seat)`` shows that seat: the board, the public
counts, the seat's own hand and Dragon cards, the cards it drew when it is to move. It
keeps one tensor per seat and rewrites only the parts whose inputs changed since that
seat's last observation: pieces (hex by hex), objectives, orders, the pending decision,
the counters and six card lists. Each part writes its own channels and scalars, so a part
is replaced by zeroing what it wrote before and writing the new values.

Inputs are compared by identity first: a state returned by ``apply`` (or ``new_state``,
``clone``, ``determinize``) is never changed afterwards (its children copy what they change:
copy-on-write), so a part whose input objects are the ones it was written from is skipped
without looking inside; otherwise the inputs are compared by value. The observer holds the
inputs by reference, never copies them. A state changed in place after it was observed
(which the engine never does) would not be seen.
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from kassen.engine.hexgrid import Hex
from kassen.engine.protocol import JSON, Result
from kassen.envs.tensors import CCEncoder, ClansEncoder, Encoder, HVEncoder, encoder
from kassen.rulesets.cc_samurai.board import Leader, Unit
from kassen.rulesets.cc_samurai.state import CCState
from kassen.rulesets.registry import load_game

#: the keys of the pending decision the tensor reads (``pending_json``'s)
_PEND_KEYS = ("t", "seat", "step", "att", "tgt", "at", "left", "max_ignore", "flags", "w", "faces", "drawn")
_COUNTERS = ("to-move-is-me", "active-is-me", "turn", "honor:own", "honor:enemy", "pool", "banners:own",
             "banners:enemy", "victory-banners", "command:own", "command:enemy", "hand:own", "hand:enemy",
             "dragons:own", "dragons:enemy", "command-deck", "dragon-deck", "command-discard", "dragon-tokens",
             "result:won", "result:lost", "result:draw")

Sparse = dict[int, int]  # flat index -> how many times its increment was added

#: the most cards of one kind a card list may hold (a Command deck has 60 cards)
_MOST_CARDS = 64

#: a part's memo is dropped when it holds more keys than this
_MEMO = 4096


def _run32(inc: float) -> list[float]:
    """``n`` times ``inc`` summed in float32 (as the JSON encoder sums), clipped to 1, for n = 0,
    1, ..., ``_MOST_CARDS``."""
    out, acc = [0.0], np.float32(0)
    for _ in range(_MOST_CARDS):
        acc = np.float32(acc + np.float32(inc))
        out.append(min(1.0, float(acc)))
    return out


def _view(a: np.ndarray) -> Any:
    """A memoryview of ``a``: writing one float through it costs less than through numpy."""
    return memoryview(a)  # type: ignore[arg-type]


def _diff(keys: list[Hex], vals: list[Any], old_keys: list[Hex], old_vals: list[Any], out: list[Hex]) -> None:
    """Append to ``out`` the keys whose value differs between two states of a map (its keys and
    values in order, the old ones as last seen). A copy-on-write map keeps its order where nothing
    changed and appends what is added, so the two are walked side by side: an old key not at its
    place is counted removed, a key past the old ones added; any other order only counts more keys
    changed (all of them at worst), never fewer."""
    j, n_old = 0, len(old_keys)
    for i in range(len(keys)):
        h = keys[i]
        while j < n_old:
            oh = old_keys[j]
            if oh is h or oh == h:
                break
            out.append(oh)  # removed here (maybe put back later, counted then too)
            j += 1
        if j < n_old:
            if vals[i] is not old_vals[j]:
                out.append(h)
            j += 1
        else:
            out.append(h)
    while j < n_old:
        out.append(old_keys[j])
        j += 1


class _Part:
    """The indices a part wrote last time, the key of its inputs and a memo key -> (indices, values)."""

    def __init__(self) -> None:
        self.key: Any = None
        self.idx: list[int] = []
        self.memo: dict[Any, tuple[list[int], list[float]]] = {}


class _List:
    """A card list as last written: its cards and the scalars written for them."""

    def __init__(self, cards: list[str], idx: list[int]) -> None:
        self.cards = cards
        self.idx = idx


class _Seat:
    """One seat's current tensor and the inputs it was written from (the state's own objects,
    held by reference: see ``CCObserver.observe``). Typed, so that the compiled build compares
    them natively."""

    def __init__(self, size: int) -> None:
        self.cur: np.ndarray = np.zeros(size, np.float32)
        self.mv: Any = _view(self.cur)  # item writes through it are cheaper than numpy's
        #: the static inputs: which side is at the bottom, terrain, tents, scenario
        self.bottom = -1
        self.terrain: dict[Hex, str] | None = None
        self.tents: dict[int, Hex] | None = None
        self.sid = ""
        self.objectives = _Part()
        self.pending = _Part()
        self.units: dict[Hex, Unit] = {}
        self.leaders: dict[Hex, Leader] = {}
        #: the maps' keys and values, in order, as last written
        self.unit_keys: list[Hex] = []
        self.unit_vals: list[Unit] = []
        self.leader_keys: list[Hex] = []
        self.leader_vals: list[Leader] = []
        #: hex -> the piece cells written for it
        self.written: dict[Hex, list[int]] = {}
        self.held: list[int | None] | None = None
        self.orders: list[str] | None = None
        #: the orders' cells written, and the hexes of the ordered pieces
        self.ordered: list[int] = []
        self.ordered_hexes: set[Hex] = set()
        self.top: JSON | None = None
        self.hands: list[list[str]] | None = None
        self.dragons: list[list[str]] | None = None
        self.card_seen = False
        self.card: str | None = None
        self.dip: list[str] | None = None
        self.disc: list[str] | None = None
        self.drd: list[str] | None = None
        #: per card list (``CCObserver._list``), as last written
        self.lists: list[_List | None] = [None] * 6
        #: the counters' inputs as last written (``counters_set`` once written)
        self.counters_set = False
        self.c_res: Result | None = None
        self.c_ints: list[int] = []
        self.c_vals: list[float] = []  # the counters written

    def clear(self) -> None:
        """Forget every input but the static ones: the next observation rewrites every part."""
        self.objectives, self.pending = _Part(), _Part()
        self.units, self.leaders, self.written = {}, {}, {}
        self.unit_keys, self.unit_vals, self.leader_keys, self.leader_vals = [], [], [], []
        self.ordered_hexes = set()
        self.held = self.orders = None
        self.ordered = []
        self.top = None
        self.hands = self.dragons = None
        self.card_seen, self.card = False, None
        self.dip = self.disc = self.drd = None
        self.lists = [None] * 6
        self.counters_set, self.c_res, self.c_ints, self.c_vals = False, None, [], []


class CCObserver:
    """Per-seat tensors of one running C&C game (both editions), kept up to date."""

    def __init__(self, enc: CCEncoder) -> None:
        self.enc = enc
        lay = enc.layout
        self.hw: int = lay.grid[0] * lay.grid[1]
        self.vec0: int = lay.plane_size
        self.seats: list[_Seat | None] = [None, None]
        #: hex key -> flat cell (row * columns + column), per flip
        self.cells: tuple[dict[Hex, int], dict[Hex, int]] = ({}, {})
        if tuple(lay.scalars[: len(_COUNTERS)]) != _COUNTERS:
            raise AssertionError("the counters are the first scalars of the C&C layout")
        self.n_counters = len(_COUNTERS)
        #: the increment of each scalar a part sums into (a card slug's copies, ...)
        self.inc: dict[int, float] = {}
        #: (increment, times) -> the float32 sum, clipped
        self.sums: dict[tuple[float, int], float] = {}
        t = load_game(enc.game_id).tables  # type: ignore[attr-defined]
        #: card id -> its scalar for hand / played / recent-discard / drawn (Command) or
        #: my-dragons / dragons-in-play / recent-dragon-discard (Dragon)
        self.card_sc: dict[str, tuple[int | None, ...]] = {}
        for cid, slug in t.command_ids.items():
            self.card_sc[cid] = tuple(self._sc_inc(f"{k}:{slug}", inc) for k, inc in (
                ("hand", 1 / enc.copies.get(slug, 1)), ("played", 1), ("recent-discard", 1 / 5), ("drawn", 1 / 2)))
        for did, slug in t.dragon_ids.items():
            self.card_sc[did] = tuple(self._sc_inc(f"{k}:{slug}", inc) for k, inc in (
                ("my-dragons", 1 / 3), ("dragons-in-play", 1 / 2), ("recent-dragon-discard", 1 / 5)))
        #: card scalar -> its value for n cards of that kind (n = 0, 1, ...): float32 sums, clipped
        runs = {inc: _run32(inc) for inc in set(self.inc.values())}
        self.tab: dict[int, list[float]] = {i: runs[self.inc[i]] for sc in self.card_sc.values()
                                            for i in sc if i is not None}
        self.ordered_ch, self.ordered_leader_ch = self.ch("ordered"), self.ch("ordered-leader")
        #: piece channel offsets, per viewer: (side, unit type) -> offset; (side, leader kind) -> offset
        self.unit_ch: list[dict[tuple[int, str], int | None]] = []
        self.leader_ch: list[dict[tuple[int, str], int]] = []
        self.lone_ch: list[tuple[int, int]] = []
        #: the same per viewer and side: unit type -> offset, leader kind -> offset
        self.unit_ch2: list[list[dict[str, int]]] = []
        self.leader_ch2: list[list[dict[str, int]]] = []
        for seat in (0, 1):
            rel = ("own", "enemy") if seat == 0 else ("enemy", "own")
            self.unit_ch.append({(side, u): (None if (k := enc.ch.get(f"unit:{rel[side]}:{u}")) is None
                                             else k * self.hw) for side in (0, 1) for u in enc.unit_types})
            self.leader_ch.append({(side, k): self.ch(f"leader:{rel[side]}:{k}") for side in (0, 1)
                                   for k in ("foot", "mounted", "commander")})
            self.lone_ch.append((self.ch(f"lone-leader:{rel[0]}"), self.ch(f"lone-leader:{rel[1]}")))
            self.unit_ch2.append([{u: k for (sd, u), k in self.unit_ch[seat].items() if sd == side and k is not None}
                                  for side in (0, 1)])
            self.leader_ch2.append([{kd: k for (sd, kd), k in self.leader_ch[seat].items() if sd == side}
                                    for side in (0, 1)])
        self.max_blocks: int = enc.max_blocks

    # ------------------------------------------------------------ helpers
    def ch(self, name: str) -> int:
        k: int = self.enc.ch[name]
        return k * self.hw

    def sc(self, name: str) -> int | None:
        i: int | None = self.enc.sc.get(name)
        return None if i is None else self.vec0 + i

    def _sc_inc(self, name: str, inc: float) -> int | None:
        i = self.sc(name)
        if i is not None:
            self.inc[i] = inc
        return i

    def cell(self, h: Hex, flip: bool) -> int:
        """The flat cell (row * columns + column) of hex ``h`` on the grid, turned for ``flip``."""
        m = self.cells[1 if flip else 0]
        got = m.get(h)
        if got is None:
            r, c = self.enc._hex_rc(h, flip)
            got = m[h] = r * self.enc.cols + c
        return got

    # ------------------------------------------------------------ the tensor
    def observe(self, st: CCState, seat: int) -> np.ndarray:
        """``seat``'s tensor of ``st`` (a fresh array)."""
        ss = self.seats[seat]
        if ss is None:
            ss = self.seats[seat] = _Seat(self.enc.size)
        # Each part's inputs are first compared by identity: a state's lists and dicts are never
        # changed once apply has returned it (its children copy what they change), so the same
        # object means the same content; another object is then compared by value.
        bottom, terrain, tents = st.bottom, st.terrain, st.tents
        if terrain is not ss.terrain or tents is not ss.tents or bottom != ss.bottom:
            sid = st.scenario_id
            if bottom != ss.bottom or terrain != ss.terrain or tents != ss.tents or sid != ss.sid:
                self._static(ss, st, seat, bottom, bottom != seat)
            ss.bottom, ss.terrain, ss.tents, ss.sid = bottom, terrain, tents, sid
        flip = seat != bottom
        mv = ss.mv
        units, leaders = st.units, st.leaders
        changed: list[Hex] = []
        if units is not ss.units or leaders is not ss.leaders:
            changed = self._pieces(ss, st, seat, flip)
        held = st.obj_held
        old_held = ss.held
        if held is not old_held:
            if old_held is None or held != old_held:
                self._write(ss, ss.objectives, tuple(held), self._objectives(st, seat, flip), False)
            ss.held = held
        orders = st.orders_given()
        old_orders = ss.orders
        if orders is not old_orders or (changed and orders):
            if old_orders is None or orders != old_orders:
                n = 0 if old_orders is None else len(old_orders)
                if n and not changed and len(orders) > n and orders[:n] == old_orders:
                    new = self._orders(st, orders[n:], flip, ss.ordered_hexes)  # more pieces ordered
                    ss.ordered = ss.ordered + new
                    for i in new:
                        mv[i] = 1.0
                else:
                    hexes: set[Hex] = set()
                    self._rewrite_orders(ss, self._orders(st, orders, flip, hexes))
                    ss.ordered_hexes = hexes
            else:  # the same orders, pieces changed: again if one was on an ordered piece's hex
                ordered_hexes = ss.ordered_hexes
                for h in changed:
                    if h in ordered_hexes:
                        hexes = set()
                        self._rewrite_orders(ss, self._orders(st, orders, flip, hexes))
                        ss.ordered_hexes = hexes
                        break
            ss.orders = orders
        res = st.result()
        top = st.pending() if res is None else None
        old = ss.top
        if top is not old:
            if top is None or old is None or top != old:
                self._write_pending(ss, seat, flip, top, st.pending_kind())
            ss.top = top
        # the card lists, each list's scalars replaced when it changed (see ``_list``)
        hands, dragons, disc, drd = st.hands, st.dragons, st.cmd_discard, st.dr_discard
        if hands is not ss.hands or dragons is not ss.dragons:
            ss.hands, ss.dragons = hands, dragons
            self._list(ss, 0, hands[seat], 0)
            self._list(ss, 1, dragons[seat], 0)
        card = st.card_played()
        if card != ss.card or not ss.card_seen:
            ss.card, ss.card_seen = card, True
            self._list(ss, 2, [] if card is None else [card], 1)
        dip = st.dragons_in_play()
        if dip is not ss.dip:
            ss.dip = dip
            self._list(ss, 3, dip, 1)
        if disc is not ss.disc:
            ss.disc = disc
            self._list(ss, 4, disc[-5:], 2)
        if drd is not ss.drd:
            ss.drd = drd
            self._list(ss, 5, drd[-5:], 2)
        # the counters' inputs, field by field: the integers they are made of, and the result
        tm = st.to_move()
        en = 1 - seat
        honor, banners, command = st.honor, st.banners, st.command
        ints = [-1 if tm is None else tm, st.active, st.turn, st.pool, st.dragon_tokens, st.victory,
                honor[seat], honor[en], banners[seat], banners[en], command[seat], command[en],
                len(hands[seat]), len(hands[en]), len(dragons[seat]), len(dragons[en]),
                len(st.cmd_deck), len(st.dr_deck), len(disc)]
        if not ss.counters_set or res is not ss.c_res or ints != ss.c_ints:
            vals = self._counters(st, seat, res)
            v0, old_vals = self.vec0, ss.c_vals
            if not old_vals:
                mv[v0:v0 + self.n_counters] = array("f", vals)
            else:
                for i in range(len(vals)):
                    if vals[i] != old_vals[i]:
                        mv[v0 + i] = vals[i]
            ss.counters_set, ss.c_res, ss.c_ints, ss.c_vals = True, res, ints, vals
        return ss.cur.copy()

    def _rewrite_orders(self, ss: _Seat, new: list[int]) -> None:
        """Replace the orders' cells by ``new`` (when they differ)."""
        old = ss.ordered
        if new == old:
            return
        mv = ss.mv
        for i in old:
            mv[i] = 0.0
        for i in new:
            mv[i] = 1.0
        ss.ordered = new

    def _write_pending(self, ss: _Seat, seat: int, flip: bool, top: JSON | None, kind: str) -> None:
        """Replace the pending decision's cells and scalars, by its key (memo): ``top`` the task
        pending (``CCState.pending()``), ``kind`` its kind."""
        if top is None:
            pkey: Any = None
        else:
            faces, drawn = top.get("faces"), top.get("drawn")
            pkey = (kind, top["seat"], top.get("step"), top.get("att"), top.get("tgt"), top.get("at"),
                    top.get("left"), top.get("max_ignore"), top.get("flags"), top.get("w"),
                    None if faces is None else tuple(faces), None if drawn is None else tuple(drawn))
        p = ss.pending
        if p.key != pkey:
            got = p.memo.get(pkey)
            if got is None:
                got = self._sparse(self._pending(seat, flip, top, kind))
                if len(p.memo) >= _MEMO:
                    p.memo.clear()
                p.memo[pkey] = got
            self._put(ss, p, pkey, got)

    def _list(self, ss: _Seat, slot: int, cards: list[str], role: int) -> None:
        """Replace the scalars of card list ``slot`` (own hand, own Dragons, card played, Dragons in
        play, recent discards, recent Dragon discards): each card's scalar number ``role``, summed
        per kind, when the list differs from the one written."""
        old = ss.lists[slot]
        if old is not None and old.cards == cards:
            return
        csc = self.card_sc
        counts: dict[int, int] = {}
        for c in cards:
            i = csc[c][role]
            if i is not None:
                counts[i] = counts.get(i, 0) + 1
        mv, tab = ss.mv, self.tab
        if old is not None:
            for i in old.idx:
                mv[i] = 0.0
        for i, n in counts.items():
            mv[i] = tab[i][n]
        ss.lists[slot] = _List(cards, list(counts))  # a state's list is never changed: kept as it is

    def _sparse(self, counts: Sparse) -> tuple[list[int], list[float]]:
        """The indices and float32 sums of ``counts`` (index -> times its increment is added)."""
        inc, sums = self.inc, self.sums
        vals: list[float] = []
        for i, n in counts.items():
            x = inc.get(i, 1.0)
            v = sums.get((x, n))
            vals.append(self._sum32(x, n) if v is None else v)
        return list(counts), vals

    def _write(self, ss: _Seat, part: _Part, key: Any, counts: Sparse, memo: bool) -> None:
        got = part.memo.get(key) if memo else None
        if got is None:
            got = self._sparse(counts)
            if memo:
                if len(part.memo) >= _MEMO:
                    part.memo.clear()
                part.memo[key] = got
        self._put(ss, part, key, got)

    def _put(self, ss: _Seat, part: _Part, key: Any, got: tuple[list[int], list[float]]) -> None:
        """Zero what ``part`` wrote, write ``got`` (indices, values)."""
        mv = ss.mv
        for i in part.idx:
            mv[i] = 0.0
        idx, vals = got
        for k in range(len(idx)):
            mv[idx[k]] = vals[k]
        part.idx, part.key = idx, key

    def _sum32(self, inc: float, n: int) -> float:
        """``n`` times ``inc`` summed in float32 (as the JSON encoder sums), clipped to 1."""
        acc = np.float32(inc)
        for _ in range(n - 1):
            acc = np.float32(acc + np.float32(inc))
        got = self.sums[(inc, n)] = min(1.0, float(acc))
        return got

    def _static(self, ss: _Seat, st: CCState, seat: int, bottom: int, flip: bool) -> None:
        """The board, the sections, the terrain and the tents; every part is rewritten after."""
        enc = self.enc
        cur = np.zeros(enc.size, np.float32)
        planes, _ = enc.split(cur)
        planes += enc.static_planes(seat, bottom)
        for h, slug in st.terrain.items():
            k = enc.ch.get(f"terrain:{slug}")
            if k is not None:
                cur[k * self.hw + self.cell(h, flip)] = 1
        for side, h in st.tents.items():
            cur[self.ch(f"tent:{'own' if side == seat else 'enemy'}") + self.cell(h, flip)] = 1
        np.clip(cur, 0.0, 1.0, out=cur)
        ss.cur, ss.mv = cur, _view(cur)
        ss.clear()

    def _pieces(self, ss: _Seat, st: CCState, seat: int, flip: bool) -> list[Hex]:
        """Rewrite the hexes whose unit or Leader changed since this seat last looked; those hexes."""
        units, leaders = st.units, st.leaders
        changed: list[Hex] = []
        if units is not ss.units:
            keys, vals = list(units), list(units.values())
            _diff(keys, vals, ss.unit_keys, ss.unit_vals, changed)
            ss.unit_keys, ss.unit_vals = keys, vals
        if leaders is not ss.leaders:
            lkeys, lvals = list(leaders), list(leaders.values())
            _diff(lkeys, lvals, ss.leader_keys, ss.leader_vals, changed)
            ss.leader_keys, ss.leader_vals = lkeys, lvals
        mv, written = ss.mv, ss.written
        uch, lch, lone = self.unit_ch2[seat], self.leader_ch2[seat], self.lone_ch[seat]
        mb = self.max_blocks
        for h in changed:
            was = written.get(h)
            if was is not None:
                for i in was:
                    mv[i] = 0.0
                del written[h]
            u = units.get(h)
            ld = leaders.get(h)
            if u is None and ld is None:
                continue
            c = self.cell(h, flip)
            w: list[int] = []
            if u is not None:
                k = uch[u.side].get(u.type)
                if k is not None:
                    mv[k + c] = min(1.0, u.blocks / mb)
                    w.append(k + c)
                if ld is not None:
                    k = lch[u.side][ld.kind] + c
                    mv[k] = 1.0
                    w.append(k)
            elif ld is not None:
                k, k2 = lch[ld.side][ld.kind] + c, lone[ld.side] + c
                mv[k] = mv[k2] = 1.0
                w.append(k)
                w.append(k2)
            written[h] = w
        ss.units, ss.leaders = units, leaders
        return changed

    def _objectives(self, st: CCState, seat: int, flip: bool) -> Sparse:
        out: Sparse = {}
        held_all = st.obj_held
        for i, o in enumerate(st.objective_defs):
            held = held_all[i]
            key = "objective:unheld" if held is None else (
                "objective:held-own" if held == seat else "objective:held-enemy")
            base = self.ch(key)
            for h in o["hexes"]:
                out[base + self.cell(h, flip)] = 1
        return out

    def _orders(self, st: CCState, orders: list[str], flip: bool, hexes: set[Hex]) -> list[int]:
        """The cells of the ordered pieces ``orders`` (piece keys); their hexes added to ``hexes``."""
        out: list[int] = []
        units, ordered, ordered_leader = st.units, self.ordered_ch, self.ordered_leader_ch
        for k in orders:
            h = st.key_hex(k)
            if h is not None:
                hexes.add(h)
                out.append((ordered_leader if k[0] == "l" and h in units else ordered) + self.cell(h, flip))
        return out

    def _pending(self, seat: int, flip: bool, top: JSON | None, kind: str) -> Sparse:
        out: Sparse = {}
        if top is None:
            return out
        enc = self.enc

        def add(i: int | None, inc: float) -> None:
            if i is not None and inc:
                self.inc[i] = inc
                out[i] = out.get(i, 0) + 1

        for key, r, c in enc.pending_cells(top, flip):
            out[self.ch(f"pending:{key}") + r * enc.cols + c] = 1
        add(self.sc(f"decision:{kind}"), 1)
        if "step" in top:
            add(self.sc(f"step:{top['step']}"), 1)
        if "w" in top:
            add(self.sc(f"window:{top['w']}"), 1)
        add(self.sc("max-ignore"), (top.get("max_ignore", 0) or 0) / 6)
        add(self.sc("flags"), (top.get("flags", 0) or 0) / 6)
        left = top.get("left", 0)
        add(self.sc("retreat-left"), (left if isinstance(left, int) else 0) / 6)
        for f in top.get("faces", []) or []:
            add(self.sc(f"faces:{f}"), 1 / 8)
        if top["seat"] == seat and top.get("drawn"):  # what only the seat to move sees
            for cid in top["drawn"]:
                add(self.card_sc[cid][3], 1 / 2)
        return out

    def _counters(self, st: CCState, seat: int, res: Result | None) -> list[float]:
        enc = self.enc
        en = 1 - seat
        vb = max(1, st.victory)
        honor, banners, command, hands, dragons = st.honor, st.banners, st.command, st.hands, st.dragons
        w = None if res is None else res.winner
        vals = [float(st.to_move() == seat), float(st.active == seat), st.turn / 100,
                honor[seat] / 30, honor[en] / 30, st.pool / 30,
                max(0, banners[seat]) / vb, max(0, banners[en]) / vb, vb / 20,
                command[seat] / 10, command[en] / 10, len(hands[seat]) / 10, len(hands[en]) / 10,
                len(dragons[seat]) / 10, len(dragons[en]) / 10,
                len(st.cmd_deck) / enc.n_cmd_cards, len(st.dr_deck) / enc.n_dragon_cards,
                len(st.cmd_discard) / enc.n_cmd_cards, st.dragon_tokens / 30,
                float(res is not None and w == seat), float(res is not None and w is not None and w != seat),
                float(res is not None and w is None)]
        return [v if v < 1.0 else 1.0 for v in vals]


class Observer:
    """``observe(state, seat)``: the game's fast observer (C&C, the clan game, An Honourable
    Victory!), else the JSON path; a fresh array every call."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        enc: Encoder = encoder(game_id)
        self.fast: CCObserver | None = CCObserver(enc) if isinstance(enc, CCEncoder) else None
        #: the fast observer of another game (``observe(state, seat)``), if any
        self.other: Any = None
        if isinstance(enc, ClansEncoder):
            from kassen.envs.fast_clans import ClansObserver

            self.other = ClansObserver(enc)
        elif isinstance(enc, HVEncoder):
            from kassen.envs.fast_hv import HVObserver

            self.other = HVObserver(enc)

    def observe(self, state: Any, seat: int) -> np.ndarray:
        if self.fast is not None:
            return self.fast.observe(state, seat)
        if self.other is not None:
            return self.other.observe(state, seat)  # type: ignore[no-any-return]
        from kassen.envs.tensors import observe

        return observe(state, seat)
