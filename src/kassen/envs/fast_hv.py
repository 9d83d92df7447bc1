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
        #: (limit, stands or hits) -> the float32 share of a unit's plane
        self.shares: dict[tuple[int, int], float] = {}

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
        out = self._table(st, me).copy()
        mv: Any = memoryview(out)  # type: ignore[arg-type]
        ch, sc, rc = self.ch, self.sc, self._rc
        flip = me == 1
        table = st.table
        width = table.width
        mine = "SN"[me]
        turn_back = 2 if flip else 0
        for s_, z in enumerate(st.daimyo):
            c = rc(z, flip, width) if z else None
            if c is not None:
                mv[ch["daimyo:own" if s_ == me else "daimyo:enemy"] + c] = 1.0
        p = st._top()
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
        for u in st.units.values():
            side = "own" if u.side == me else "enemy"
            c = rc(u.zone, flip, width) if u.zone else None
            fdi = (u.facing - turn_back) % 4
            uid = u.uid
            engaged = engaged_n.get(uid, 0)
            if c is not None and u.status != "routed":
                p_stands, p_units, p_hits, p_engaged, p_facing, p_form = planes[side]
                k2 = p_stands.get(u.cls)
                if k2 is not None:
                    k = k2 + c
                    got = shares.get((limit, u.stands))
                    mv[k] = mv[k] + (self._share(limit, u.stands) if got is None else got)
                k = p_units + c
                mv[k] = mv[k] + per_unit
                if u.hits:
                    k = p_hits + c
                    got = shares.get((limit, u.hits))
                    mv[k] = mv[k] + (self._share(limit, u.hits) if got is None else got)
                if engaged:
                    k = p_engaged + c
                    mv[k] = mv[k] + per_unit
                k = p_facing[_FACING[fdi]] + c
                mv[k] = mv[k] + per_unit
                k2 = p_form.get(u.form)
                if k2 is not None:
                    k = k2 + c
                    mv[k] = mv[k] + per_unit
            num = uid[1:]
            if not num.isdigit() or not 1 <= int(num) <= m:
                continue
            f, facing, words = slots[("own" if uid[:1] == mine else "enemy", int(num))]
            mv[f[0]] = 1.0
            mv[f[1]] = u.stands / HV_MAX_STANDS
            mv[f[2]] = u.start / HV_MAX_STANDS
            if c is not None:
                mv[f[3]] = (c // HV_COLS) / (HV_ROWS - 1)
                mv[f[4]] = (c % HV_COLS) / (HV_COLS - 1)
            if u.hits:
                mv[f[5]] = u.hits / HV_MAX_STANDS
            if u.fired:
                mv[f[6]] = 1.0
            if u.reacted:
                mv[f[7]] = 1.0
            if u.mounted:
                mv[f[8]] = 1.0
            if engaged:
                mv[f[9]] = engaged / 4
            mv[facing[fdi]] = 1.0
            for kind, word in enumerate((u.form, u.status, u.quality if quality_on else "seasoned", u.cls,
                                         u.weapon)):
                k2 = words[kind].get(word)
                if k2 is not None:
                    mv[k2] = 1.0
            if pend_unit == uid:
                mv[f[10]] = 1.0
            if pend_target == uid:
                mv[f[11]] = 1.0
            if att_a == uid:
                mv[f[12]] = 1.0
            if att_t == uid:
                mv[f[13]] = 1.0
        res = st.result()
        mover = None if res is not None or not st.stack else st.stack[-1]["seat"]
        mv[sc["to-move-is-me"]] = float(mover == me)
        mv[sc["initiative-is-me"]] = float(st.init == me)
        tl = max(1, st.opts["turn_limit"])
        mv[sc["turn"]] = st.turn / tl
        mv[sc["turn-limit"]] = tl / 100
        mv[sc["width"]] = width / HV_COLS
        mv[sc["limit"]] = limit / 9
        mv[sc["declared-fire"]] = len(st.fire_decl[me]) / 10
        if st.att is not None:
            mv[sc["attack:cv"]] = att.get("cv", 0) / 6
            mv[sc["attack:stands"]] = att.get("stands", 0) / HV_MAX_STANDS
            mv[sc["attack:mine"]] = float((att.get("a") or "")[:1] == mine)
            die = self.die
            for d in att.get("dice", []):
                got = sc.get(f"attack:die{d}")
                if got is not None:
                    mv[got] = mv[got] + die
        # state.uncontested(side), from the zones each side holds on the table (one pass)
        held: tuple[set[str], set[str]] = (set(), set())
        for u in st.units.values():
            if u.status == "table":
                held[u.side].add(u.zone)
        zones = self._zone_set(table)
        for s_ in (0, 1):
            tally_i, start_i, third_i, break_i, unc_i = self.side_sc[0 if s_ == me else 1]
            third, breakpoint = st.values(s_)
            mv[tally_i] = st.tally[s_] / 20
            mv[start_i] = st.start_units[s_] / 20
            mv[third_i] = third / 20
            mv[break_i] = breakpoint / 20
            mv[unc_i] = len((held[s_] - held[1 - s_]) & zones) / 20
        decision = p.get("t")
        if decision:
            got = sc.get(f"decision:{decision}")
            if got is not None:
                mv[got] = 1.0
        if res is not None:
            w = res.winner
            mv[sc["result:draw" if w is None else ("result:won" if w == me else "result:lost")]] = 1.0
        np.clip(out, 0.0, 1.0, out=out)
        return out
