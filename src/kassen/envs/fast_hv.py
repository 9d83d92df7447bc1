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

from operator import attrgetter
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
#: the unit fields the tensor shows, in the order ``HVObserver.observe`` reads them by position
_UNIT_FIELDS = ("uid", "side", "zone", "status", "stands", "start", "hits", "fired", "reacted", "mounted",
                "facing", "form", "quality", "cls", "weapon")


def _clip(x: float) -> float:
    """``x`` clipped to [0, 1]."""
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


class _Seat:
    """One seat's tensor over one table: the cells written outside the units' planes and slots by
    the last call (zeroed and written again at every call), and per unit what it showed (its
    signature), its slot's scalars and its share of the unit planes as last written: a unit's slot
    and planes are written again only when what it shows changed."""

    def __init__(self, table: Any, cur: np.ndarray) -> None:
        self.table = table
        self.cur = cur
        self.mv: Any = memoryview(cur)  # type: ignore[arg-type]
        self.dyn: list[int] = []
        #: what each unit showed when last written, in the state's order (``HVObserver.fields``),
        #: and the ``extra`` of the units in contact or in the decision
        self.raws: list[tuple[Any, ...]] = []
        self.extras: dict[str, int] = {}
        #: state.uncontested(side) / 20 of both sides, as last written
        self.unc: list[float] = [0.0, 0.0]
        #: the inputs of the sides' scalars as last written (``HVObserver.observe``)
        self.side_key: tuple[Any, ...] = ()
        #: unit id -> the slot scalars written for it (units with a slot)
        self.slot_idx: dict[str, list[int]] = {}
        #: unit id -> its share of the unit planes: the cells, what it adds to each, the cells as a
        #: set; in the state's order of the units (a full rewrite inserts them in that order)
        self.contrib: dict[str, tuple[list[int], list[float], frozenset[int]]] = {}


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
        #: a unit's fields, read in one call: its signature (with its contacts and its part in the
        #: decision; ``HVObserver.observe``)
        self.fields: Any = attrgetter(*_UNIT_FIELDS)
        #: the scalars written at every call, by index
        self.i_scalars: tuple[int, int, int, int, int, int, int] = (
            self.sc["to-move-is-me"], self.sc["initiative-is-me"], self.sc["turn"], self.sc["turn-limit"],
            self.sc["width"], self.sc["limit"], self.sc["declared-fire"])

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
        slot_idx, contrib = ss.slot_idx, ss.contrib
        #: the plane cells whose sums change: the cells of the units whose share changed
        dirty: list[int] = []
        uid_parts = self.uid_parts
        zone_cell = self.zone_cells.get((flip, width))
        if zone_cell is None:
            zone_cell = self.zone_cells[(flip, width)] = {}
        # what each unit shows: its fields, read in one call per unit (``map``), and, for the few
        # units in contact or in the decision, ``extra`` (contacts * 16 + the decision's flags)
        raws: list[tuple[Any, ...]] = list(map(self.fields, st.units.values()))
        extras: dict[str, int] = {}
        for uid_, n_ in engaged_n.items():
            extras[uid_] = n_ * 16
        for flag_uid, bit in ((pend_unit, 1), (pend_target, 2), (att_a, 4), (att_t, 8)):
            if flag_uid is not None:
                extras[flag_uid] = extras.get(flag_uid, 0) | bit
        # the units that show something else than when this seat last looked, by their place
        old_raws = ss.raws
        n_units = len(raws)
        changed: list[int] = []
        full = n_units != len(old_raws)
        moved = full  # a unit's zone or status changed: the zones held again
        if not full:
            for i in range(n_units):
                r, o = raws[i], old_raws[i]
                if r != o:
                    if r[0] != o[0]:  # another unit at this place: every unit again
                        full = moved = True
                        break
                    changed.append(i)
                    if r[2] != o[2] or r[3] != o[3]:
                        moved = True
        if full:
            changed = list(range(n_units))
            for uid_ in list(contrib):  # every share and slot written again
                dirty += contrib.pop(uid_)[0]
                for k in slot_idx.pop(uid_, []):
                    mv[k] = 0.0
        elif extras != ss.extras:
            old_extras = ss.extras
            pos = {raws[i][0]: i for i in range(n_units)}
            for uid_ in set(extras) | set(old_extras):
                if extras.get(uid_, 0) != old_extras.get(uid_, 0):
                    i_ = pos.get(uid_)
                    if i_ is not None and i_ not in changed:
                        changed.append(i_)
        ss.raws, ss.extras = raws, extras
        for i in changed:
            raw = raws[i]
            uid: str = raw[0]
            u_side: int = raw[1]
            zone: Any = raw[2]  # "" or None off the table
            status: str = raw[3]
            extra = extras.get(uid, 0)
            engaged = extra >> 4
            stands: int = raw[4]
            hits: int = raw[6]
            c = None
            if zone:
                c = zone_cell.get(zone, -1)
                if c == -1:
                    c = zone_cell[zone] = rc(zone, flip, width)
            fdi = (raw[10] - turn_back) % 4
            parts = uid_parts.get(uid)
            if parts is None:
                digits = uid[1:]
                parts = uid_parts[uid] = (int(digits) if digits.isdigit() else 0, uid[:1])
            num, letter = parts
            # its share of the planes: the cells it adds to, summed again below in the units' order
            ks: list[int] = []
            incs: list[float] = []
            if c is not None and status != "routed":
                p_stands, p_units, p_hits, p_engaged, p_facing, p_form = planes["own" if u_side == me else "enemy"]
                k2 = p_stands.get(raw[13])
                if k2 is not None:
                    got = shares.get((limit, stands))
                    ks.append(k2 + c)
                    incs.append(self._share(limit, stands) if got is None else got)
                ks.append(p_units + c)
                incs.append(per_unit)
                if hits:
                    got = shares.get((limit, hits))
                    ks.append(p_hits + c)
                    incs.append(self._share(limit, hits) if got is None else got)
                if engaged:
                    ks.append(p_engaged + c)
                    incs.append(per_unit)
                ks.append(p_facing[_FACING[fdi]] + c)
                incs.append(per_unit)
                k2 = p_form.get(raw[11])
                if k2 is not None:
                    ks.append(k2 + c)
                    incs.append(per_unit)
            old = contrib.get(uid)
            if old is not None:
                dirty += old[0]
            dirty += ks
            contrib[uid] = (ks, incs, frozenset(ks))
            if not 1 <= num <= m:
                continue
            # the unit's slot
            was = slot_idx.get(uid)
            if was is not None:
                for k in was:
                    mv[k] = 0.0
            f, facing, words = slots[("own" if letter == mine else "enemy", num)]
            w = [f[0], f[1], f[2], facing[fdi]]
            mv[f[0]] = 1.0
            mv[f[1]] = _clip(stands / HV_MAX_STANDS)
            mv[f[2]] = _clip(raw[5] / HV_MAX_STANDS)
            mv[facing[fdi]] = 1.0
            if c is not None:
                mv[f[3]] = (c // HV_COLS) / (HV_ROWS - 1)
                mv[f[4]] = (c % HV_COLS) / (HV_COLS - 1)
                w += (f[3], f[4])
            if hits:
                mv[f[5]] = _clip(hits / HV_MAX_STANDS)
                w.append(f[5])
            for flag, j in ((raw[7], 6), (raw[8], 7), (raw[9], 8), (extra & 1, 10), (extra & 2, 11),
                            (extra & 4, 12), (extra & 8, 13)):
                if flag:
                    mv[f[j]] = 1.0
                    w.append(f[j])
            if engaged:
                mv[f[9]] = _clip(engaged / 4)
                w.append(f[9])
            for kind, word in enumerate((raw[11], status, raw[12] if quality_on else "seasoned", raw[13],
                                         raw[14])):
                k2 = words[kind].get(word)
                if k2 is not None:
                    mv[k2] = 1.0
                    w.append(k2)
            slot_idx[uid] = w
        if dirty:
            # each cell whose sum changed: zeroed, then every unit's share added in the state's order
            # (float32 sums, as the JSON encoder's ``vec[i] += x``), then clipped to [0, 1]
            cells = set(dirty)
            for k in cells:
                mv[k] = 0.0
            for ks, incs, kset in contrib.values():  # in the state's order of the units (as raws)
                if cells.isdisjoint(kset):
                    continue
                for j in range(len(ks)):
                    k = ks[j]
                    if k in cells:
                        mv[k] = mv[k] + incs[j]
            for k in cells:
                if mv[k] > 1.0:
                    mv[k] = 1.0
        res = st.result()
        mover = st.to_move()
        tl = max(1, st.opts["turn_limit"])
        # each scalar clipped to [0, 1] as it is written (the JSON encoder clips the whole vector)
        i_to_move, i_init, i_turn, i_turn_limit, i_width, i_limit, i_fire = self.i_scalars
        mv[i_to_move] = float(mover == me)
        mv[i_init] = float(st.init == me)
        mv[i_turn] = _clip(st.turn / tl)
        mv[i_turn_limit] = _clip(tl / 100)
        mv[i_width] = _clip(width / HV_COLS)
        mv[i_limit] = _clip(limit / 9)
        mv[i_fire] = _clip(len(st.fire_decl[me]) / 10)
        # (written at every call: never zeroed, not in ``dyn``)
        if st.att is not None:
            for k, v in ((sc["attack:cv"], att.get("cv", 0) / 6),
                         (sc["attack:stands"], att.get("stands", 0) / HV_MAX_STANDS),
                         (sc["attack:mine"], float((att.get("a") or "")[:1] == mine))):
                mv[k] = _clip(v)
                dyn.append(k)
            die = self.die
            dice: list[int] = []
            for d in att.get("dice", []):
                got = sc.get(f"attack:die{d}")
                if got is not None:
                    mv[got] = mv[got] + die
                    dice.append(got)
            for k in dice:  # float32 sums, clipped
                if mv[k] > 1.0:
                    mv[k] = 1.0
            dyn += dice
        if moved:  # state.uncontested(side): the zones of the table each side holds alone
            zones = self._zone_set(table)
            held: tuple[set[str], set[str]] = (set(), set())
            for raw in raws:
                if raw[3] == "table":
                    held[raw[1]].add(raw[2])
            ss.unc = [len((held[0] - held[1]) & zones) / 20, len((held[1] - held[0]) & zones) / 20]
        # both sides' tally, units at the start, their 1/3 and Breakpoint values and zones held:
        # written when one of their inputs changed since this seat last looked (not in ``dyn``)
        unc = ss.unc
        tally, start_units = st.tally, st.start_units
        side_key = (tally[0], tally[1], start_units[0], start_units[1], unc[0], unc[1])
        if side_key != ss.side_key:
            ss.side_key = side_key
            for s_ in (0, 1):
                tally_i, start_i, third_i, break_i, unc_i = self.side_sc[0 if s_ == me else 1]
                third, breakpoint = st.values(s_)
                mv[tally_i] = _clip(tally[s_] / 20)
                mv[start_i] = _clip(start_units[s_] / 20)
                mv[third_i] = _clip(third / 20)
                mv[break_i] = _clip(breakpoint / 20)
                mv[unc_i] = _clip(unc[s_])
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
        ss.dyn = dyn
        return ss.cur.copy()
