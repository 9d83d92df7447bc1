"""An Honourable Victory!'s observation tensor read straight from the state, without the JSON view.

:class:`HVObserver` gives the same tensor as
``encoder("honourable-victory").encode(observation(seat))`` (tested at every decision of seeded
games), reading only what ``observation(seat)`` shows: the table, every unit's public state,
the pending decision and attack, the seat's own fire declarations (only their number is
encoded). The planes of the table (zones, reserves, terrain, escarpments) are made once per
table and viewer; the rest is written at every call. Sums are float32 as the JSON encoder's
(``vec[i] += x``), see :mod:`kassen.envs.fast_clans`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kassen.envs.fast_clans import r32
from kassen.envs.tensors import (
    HV_CLASSES,
    HV_COLS,
    HV_FORMS,
    HV_MAX_STANDS,
    HV_ROWS,
    HVEncoder,
    hv_cell,
)
from kassen.rulesets.honourable_victory.state import HVState

_FACING = ("forward", "right", "back", "left")
#: the slot fields written by position (``HVObserver.slot``)
_FIELDS = ("present", "stands", "start", "row", "col", "hits", "fired", "reacted", "mounted", "engaged",
           "pending-unit", "pending-target", "attacker", "attacked")
#: the slot fields ``<kind>:<word>``, in the order ``HVObserver.observe`` reads a unit's words
_KINDS = ("formation", "status", "quality", "class", "weapon")


def _clip(x: float) -> float:
    """``x`` clipped to [0, 1]."""
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


class _Seat:
    """One seat's tensor over one table: the cells written outside the unit slots by the last call
    (zeroed and written again at every call), and per unit its slot as last written (what it
    showed, the scalars written), written again only when what it shows changed."""

    def __init__(self, table: Any, cur: np.ndarray) -> None:
        self.table = table
        self.cur = cur
        self.mv: Any = memoryview(cur)  # type: ignore[arg-type]
        self.dyn: list[int] = []
        self.slot_sig: dict[str, tuple[Any, ...]] = {}
        self.slot_idx: dict[str, list[int]] = {}


class HVObserver:
    """``observe(state, seat)`` for An Honourable Victory!."""

    def __init__(self, enc: HVEncoder) -> None:
        self.enc = enc
        lay = enc.layout
        self.size = lay.size
        self.hw = HV_ROWS * HV_COLS
        v0 = lay.plane_size
        self.ch = {n: k * self.hw for n, k in enc.ch.items()}
        self.sc = {n: v0 + i for n, i in enc.sc.items()}
        self.m = enc.m
        #: per viewer: (the table, its planes) of the last table seen
        self.static: dict[int, tuple[Any, np.ndarray]] = {}
        #: per (viewer side, slot number): the scalar index of its fields ``_FIELDS``, of its
        #: facings (forward, right, back, left) and, per kind of ``_KINDS``, of each word
        self.slot: dict[tuple[str, int], tuple[list[int], list[int], list[dict[str, int]]]] = {}
        for side in ("own", "enemy"):
            for k in range(1, self.m + 1):
                at = {f: self.sc[f"{side}{k}:{f}"] for f in enc.slot_fields}
                words: list[dict[str, int]] = [{} for _ in _KINDS]
                for f, i in at.items():
                    kind, _, word = f.partition(":")
                    if kind in _KINDS:
                        words[_KINDS.index(kind)][word] = i
                self.slot[(side, k)] = ([at[f] for f in _FIELDS], [at[f"facing:{d}"] for d in _FACING], words)
        self.die = r32(1 / 12)
        #: (zone, flip, width) -> its flat cell
        self.cells: dict[tuple[str, bool, int], int | None] = {}
        #: per side ("own", "enemy"): its unit planes' offsets
        self.planes = {side: (
            {c: self.ch[f"stands:{side}:{c}"] for c in HV_CLASSES}, self.ch[f"units:{side}"],
            self.ch[f"hits:{side}"], self.ch[f"engaged:{side}"],
            {fd: self.ch[f"facing:{side}:{fd}"] for fd in _FACING},
            {f: self.ch[f"formation:{side}:{f}"] for f in HV_FORMS}) for side in ("own", "enemy")}
        #: per side ("own", "enemy"): the scalars tally, start-units, third-value, breakpoint, uncontested
        self.side_sc: list[tuple[int, int, int, int, int]] = [
            (self.sc[f"tally:{side}"], self.sc[f"start-units:{side}"], self.sc[f"third-value:{side}"],
             self.sc[f"breakpoint:{side}"], self.sc[f"uncontested:{side}"]) for side in ("own", "enemy")]
        #: the last table seen and its zones, as a set
        self.zones_of: tuple[Any, frozenset[str]] = (None, frozenset())
        #: per seat: its tensor and what it was written from
        self.seats: dict[int, _Seat] = {}
        #: (limit, stands or hits) -> the float32 share of a unit's plane
        self.shares: dict[tuple[int, int], float] = {}
        #: (flip, width) -> zone -> its flat cell or None (``_rc``, without a key tuple per unit)
        self.zone_cells: dict[tuple[bool, int], dict[str, int | None]] = {}
        #: unit id -> its number (0 when it has none: no slot) and its side's letter
        self.uid_parts: dict[str, tuple[int, str]] = {}

    def _rc(self, z: str, flip: bool, width: int) -> int | None:
        """The flat cell of zone ``z`` for the viewer, or None (off the grid, not a zone)."""
        key = (z, flip, width)
        got = self.cells.get(key, -1)
        if got != -1:
            return got
        got = self.cells[key] = self._cell(z, flip, width)
        return got

    def _cell(self, z: str, flip: bool, width: int) -> int | None:
        p = hv_cell(z, flip, width)
        return None if p is None else p[0] * HV_COLS + p[1]

    def _share(self, limit: int, n: int) -> float:
        """``n / (HV_MAX_STANDS * limit)`` rounded to float32."""
        got = self.shares.get((limit, n))
        if got is None:
            got = self.shares[(limit, n)] = r32(n / (HV_MAX_STANDS * limit))
        return got

    def _zone_set(self, table: Any) -> frozenset[str]:
        """The zones of ``table`` (kept for the last table seen)."""
        got = self.zones_of
        if got[0] is not table:
            got = self.zones_of = (table, frozenset(table.zones()))
        return got[1]

    def _table(self, st: HVState, me: int) -> np.ndarray:
        got = self.static.get(me)
        table = st.table
        if got is not None and got[0] is table:
            return got[1]
        out = np.zeros(self.size, np.float32)
        ch, flip, width = self.ch, me == 1, table.width
        for z in table.zones():
            c = self._rc(z, flip, width)
            if c is not None:
                out[ch["table"] + c] = 1
        for s_ in (0, 1):
            for z in table.reserve_zones(s_):
                c = self._rc(z, flip, width)
                if c is not None:
                    out[ch["reserve:own" if s_ == me else "reserve:enemy"] + c] = 1
        for z, feats in table.terrain.items():
            c = self._rc(z, flip, width)
            if c is not None:
                for f in feats:
                    k = ch.get(f"terrain:{f}")
                    if k is not None:
                        out[k + c] = 1
        for e in table.escarpments:
            for z in e:
                c = self._rc(z, flip, width)
                if c is not None:
                    out[ch["escarpment"] + c] = 1
        self.static[me] = (table, out)
        return out

    def observe(self, st: HVState, seat: int) -> Any:
        me = seat
        table = st.table
        ss = self.seats.get(me)
        if ss is None or ss.table is not table:
            ss = self.seats[me] = _Seat(table, self._table(st, me).copy())
        mv = ss.mv
        # what the last call wrote outside the unit slots goes, and is written again below
        for k in ss.dyn:
            mv[k] = 0.0
        dyn: list[int] = []
        ch, sc, rc = self.ch, self.sc, self._rc
        flip = me == 1
        width = table.width
        mine = "SN"[me]
        turn_back = 2 if flip else 0
        for s_, z in enumerate(st.daimyo):
            c = rc(z, flip, width) if z else None
            if c is not None:
                k = ch["daimyo:own" if s_ == me else "daimyo:enemy"] + c
                mv[k] = 1.0
                dyn.append(k)
        p = st.pending()
        att = st.att or {}
        pend_unit, pend_target = p.get("unit"), p.get("target")
        att_a, att_t = att.get("a"), att.get("t")
        limit = max(1, table.limit)
        per_unit = r32(1 / limit)
        slots, m, planes, shares = self.slot, self.m, self.planes, self.shares
        # len(state.contacts_of(uid)) of every unit, in one pass over the contacts
        engaged_n: dict[str, int] = {}
        for a, _af, b, _bf in st.contacts:
            engaged_n[a] = engaged_n.get(a, 0) + 1
            if b != a:
                engaged_n[b] = engaged_n.get(b, 0) + 1
        quality_on = st.opts["quality"] != "off"  # state.quality(u)
        slot_sig, slot_idx = ss.slot_sig, ss.slot_idx
        seen: set[str] = set()
        uid_parts = self.uid_parts
        # state.uncontested(side), from the zones each side holds on the table (gathered in this pass)
        held: tuple[set[str], set[str]] = (set(), set())
        zone_cell = self.zone_cells.get((flip, width))
        if zone_cell is None:
            zone_cell = self.zone_cells[(flip, width)] = {}
        for u in st.units.values():
            status, zone, u_side, stands, hits = u.status, u.zone, u.side, u.stands, u.hits
            if status == "table":
                held[u_side].add(zone)
            side = "own" if u_side == me else "enemy"
            c = None
            if zone:
                c = zone_cell.get(zone, -1)
                if c == -1:
                    c = zone_cell[zone] = rc(zone, flip, width)
            fdi = (u.facing - turn_back) % 4
            uid = u.uid
            engaged = engaged_n.get(uid, 0)
            if c is not None and status != "routed":
                p_stands, p_units, p_hits, p_engaged, p_facing, p_form = planes[side]
                k2 = p_stands.get(u.cls)
                if k2 is not None:
                    k = k2 + c
                    got = shares.get((limit, stands))
                    mv[k] = mv[k] + (self._share(limit, stands) if got is None else got)
                    dyn.append(k)
                k = p_units + c
                mv[k] = mv[k] + per_unit
                dyn.append(k)
                if hits:
                    k = p_hits + c
                    got = shares.get((limit, hits))
                    mv[k] = mv[k] + (self._share(limit, hits) if got is None else got)
                    dyn.append(k)
                if engaged:
                    k = p_engaged + c
                    mv[k] = mv[k] + per_unit
                    dyn.append(k)
                k = p_facing[_FACING[fdi]] + c
                mv[k] = mv[k] + per_unit
                dyn.append(k)
                k2 = p_form.get(u.form)
                if k2 is not None:
                    k = k2 + c
                    mv[k] = mv[k] + per_unit
                    dyn.append(k)
            parts = uid_parts.get(uid)
            if parts is None:
                digits = uid[1:]
                parts = uid_parts[uid] = (int(digits) if digits.isdigit() else 0, uid[:1])
            num, letter = parts
            if not 1 <= num <= m:
                continue
            # the unit's slot: written again only when what it shows changed
            seen.add(uid)
            sig = (stands, u.start, c, hits, u.fired, u.reacted, u.mounted, engaged, fdi, u.form, status,
                   u.quality if quality_on else "seasoned", u.cls, u.weapon, pend_unit == uid,
                   pend_target == uid, att_a == uid, att_t == uid, letter == mine)
            if slot_sig.get(uid) == sig:
                continue
            was = slot_idx.get(uid)
            if was is not None:
                for k in was:
                    mv[k] = 0.0
            f, facing, words = slots[("own" if letter == mine else "enemy", num)]
            w = [f[0], f[1], f[2], facing[fdi]]
            mv[f[0]] = 1.0
            mv[f[1]] = _clip(stands / HV_MAX_STANDS)
            mv[f[2]] = _clip(u.start / HV_MAX_STANDS)
            mv[facing[fdi]] = 1.0
            if c is not None:
                mv[f[3]] = (c // HV_COLS) / (HV_ROWS - 1)
                mv[f[4]] = (c % HV_COLS) / (HV_COLS - 1)
                w += (f[3], f[4])
            if hits:
                mv[f[5]] = _clip(hits / HV_MAX_STANDS)
                w.append(f[5])
            for flag, i in ((u.fired, 6), (u.reacted, 7), (u.mounted, 8), (pend_unit == uid, 10),
                            (pend_target == uid, 11), (att_a == uid, 12), (att_t == uid, 13)):
                if flag:
                    mv[f[i]] = 1.0
                    w.append(f[i])
            if engaged:
                mv[f[9]] = _clip(engaged / 4)
                w.append(f[9])
            for kind, word in enumerate((u.form, status, u.quality if quality_on else "seasoned", u.cls,
                                         u.weapon)):
                k2 = words[kind].get(word)
                if k2 is not None:
                    mv[k2] = 1.0
                    w.append(k2)
            slot_sig[uid], slot_idx[uid] = sig, w
        for uid in [x for x in slot_sig if x not in seen]:  # a unit no longer in the state
            for k in slot_idx.pop(uid):
                mv[k] = 0.0
            del slot_sig[uid]
        res = st.result()
        mover = st.to_move()
        tl = max(1, st.opts["turn_limit"])
        for k, v in ((sc["to-move-is-me"], float(mover == me)), (sc["initiative-is-me"], float(st.init == me)),
                     (sc["turn"], st.turn / tl), (sc["turn-limit"], tl / 100), (sc["width"], width / HV_COLS),
                     (sc["limit"], limit / 9), (sc["declared-fire"], len(st.fire_decl[me]) / 10)):
            mv[k] = v
            dyn.append(k)
        if st.att is not None:
            for k, v in ((sc["attack:cv"], att.get("cv", 0) / 6),
                         (sc["attack:stands"], att.get("stands", 0) / HV_MAX_STANDS),
                         (sc["attack:mine"], float((att.get("a") or "")[:1] == mine))):
                mv[k] = v
                dyn.append(k)
            die = self.die
            for d in att.get("dice", []):
                got = sc.get(f"attack:die{d}")
                if got is not None:
                    mv[got] = mv[got] + die
                    dyn.append(got)
        zones = self._zone_set(table)
        for s_ in (0, 1):
            tally_i, start_i, third_i, break_i, unc_i = self.side_sc[0 if s_ == me else 1]
            third, breakpoint = st.values(s_)
            mv[tally_i] = st.tally[s_] / 20
            mv[start_i] = st.start_units[s_] / 20
            mv[third_i] = third / 20
            mv[break_i] = breakpoint / 20
            mv[unc_i] = len((held[s_] - held[1 - s_]) & zones) / 20
            dyn += (tally_i, start_i, third_i, break_i, unc_i)
        decision = st.pending_kind()
        if decision:
            got = sc.get(f"decision:{decision}")
            if got is not None:
                mv[got] = 1.0
                dyn.append(got)
        if res is not None:
            w_ = res.winner
            k = sc["result:draw" if w_ is None else ("result:won" if w_ == me else "result:lost")]
            mv[k] = 1.0
            dyn.append(k)
        for k in dyn:  # clipped to [0, 1] as the JSON encoder clips
            v = mv[k]
            if v > 1.0:
                mv[k] = 1.0
            elif v < 0.0:
                mv[k] = 0.0
        ss.dyn = dyn
        return ss.cur.copy()
