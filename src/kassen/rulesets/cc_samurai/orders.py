"""Phase 2, Order: what each Command card orders (sections, symbols, the special cards),
eligibility of every unit and Leader, Leaders split from their units.

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kassen.engine.dice import Face
from kassen.engine.events import LazyText
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import honor
from kassen.rulesets.cc_samurai.board import NAMES, NBRS, SECTION_MASK, Leader, Unit, sections_of
from kassen.rulesets.cc_samurai.common import (
    _FITS,
    _LEADER_KEYS,
    _UNIT_KEYS,
    _VECTORS,
    COW_PIECES,
    JSON,
    LEADER_NAME,
    VECTORS_BY_ID,
    _slot_sig,
    as_json,
    vector_id,
)
from kassen.rulesets.cc_samurai.facts import UnitType
from kassen.rulesets.cc_samurai.tasks import OrderTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


#: hex -> ``order F3`` and ``order F3 leader``
ORDER_ACT: tuple[str, ...] = tuple(f"order {n}" for n in NAMES)
ORDER_LEADER_ACT: tuple[str, ...] = tuple(f"order {n} leader" for n in NAMES)


class OrderCache:
    """Which pieces of ``side`` a card play may order (see ``_order_cache``).

    A plain class, not a NamedTuple: compiled, it is built natively (a NamedTuple's ``__new__``
    runs interpreted) and its fields are native reads."""

    def __init__(self, spec: dict[str, Any], side: int, units: dict[Hex, Unit], leaders: dict[Hex, Leader],
                 no_order: list[str], pieces: dict[str, tuple[Hex, int]],
                 vectors: list[int], cands: list[tuple[str, str, Hex, int]],
                 frozen: tuple[dict[Hex, Unit], dict[Hex, Leader]] | None) -> None:
        self.spec = spec
        self.side = side
        self.units = units
        self.leaders = leaders
        self.no_order = no_order
        #: piece key -> (hex, the id of its slot vector: the slots accepting it, ``common.vector_id``)
        self.pieces = pieces
        #: the ids of the distinct slot vectors of ``cands``
        self.vectors = vectors
        #: (action, key, hex, index of its vector) of the pieces the card may order (its filter
        #: passed), sorted by action
        self.cands = cands
        #: maps of pieces found equal to ``units`` and ``leaders`` while shared with the parent
        #: (copy-on-write): never changed again, so the same maps need no compare
        self.frozen = frozen


def _order_text(who: str, ut: UnitType | None, kind: str, split: bool, where: str) -> LazyText:
    """``<side> orders the <piece> at <where>``, written only when read: a unit (``ut``, with the
    ``kind`` of its Leader when he is not ordered apart, else ""), or a Leader of ``kind``
    (``split``: from his unit), worded as ``_piece_label``."""
    def text() -> str:
        if ut is not None:
            what = ut.name + (f" with its {LEADER_NAME[kind]}" if kind else "")
        else:
            what = LEADER_NAME[kind] + (" (splitting from his unit)" if split else "")
        return f"{who} orders the {what} at {where}"
    return text


def _order_spec(s: CCState, side: int, slug: str) -> JSON:
    """What a Command card lets its player order this turn (Phase 2), as data."""
    card = s.t.command[slug]
    cmd = s.command[side]
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
    if not any(u.side == side and _passes(s, base, u, h) for h, u in s.units.items()):
        s.say("fallback", f"{s.side_name(side)} has no unit the card names: order 1 unit of your choice")
        return {"mode": "select", "count": 1, "filter": {}}
    return spec


def _shogun_spec(s: CCState, side: int) -> JSON:
    """Shogun: a die per Command card; symbols order units of that symbol, flags anything."""
    n = s.command[side]
    faces = s.roll(n)
    s.say("roll", f"Shogun: {s.side_name(side)} rolls {n} dice: {', '.join(f.label for f in faces)}",
             faces=[f.value for f in faces], dice=n)
    slots: list[JSON] = []
    for f in faces:
        if f.is_unit_symbol:
            slots.append({"symbol": f.value})
        elif f == Face.FLAG:
            slots.append({"any": True})
    honors = faces.count(Face.HONOR)
    if honors:
        honor.gain_honor(s, side, honors, "Honor & Fortune rolled for the Shogun card")
    return {"mode": "slots", "slots": slots, "helmet": True, "effect": "shogun"}


def _passes(s: CCState, flt: JSON, u: Unit, h: Hex) -> bool:
    ut = s.ut(u)
    if ut.bodyguard and ("cls" in flt or "ranged" in flt):
        return False
    if "symbol" in flt and ut.symbol != flt["symbol"]:
        return False
    if "cls" in flt and ut.cls != flt["cls"]:
        return False
    if flt.get("ranged") and not ut.ranged:
        return False
    if flt.get("free") and any(enemy_at(s, n, u.side) for n in s.b.neighbours(h)):
        return False
    return True


def piece_key_at(s: CCState, h: Hex, leader: bool) -> str | None:
    if leader:
        ld = s.leaders.get(h)
        return f"l:{ld.lid}" if ld is not None else None
    u = s.units.get(h)
    if u is not None:
        return f"u:{u.uid}"
    ld = s.leaders.get(h)
    return f"l:{ld.lid}" if ld is not None else None


def key_hex(s: CCState, key: str) -> Hex | None:
    """The hex of the piece of an order key (``u:<uid>``, ``l:<lid>``), or None when it is gone."""
    # an index key -> (hex, piece), shared with clones: an entry holds while that very piece
    # object is at its hex (no slice of the key, no compare of ids)
    unit = key[0] == "u"
    got = s._kidx.get(key)
    if got is not None:
        h, p = got
        if (s.units.get(h) if unit else s.leaders.get(h)) is p:
            return h
    if unit:
        h2 = s.find_unit(key[2:])
        if h2 is not None:
            s._kidx[key] = (h2, s.units[h2])
    else:
        h2 = s.find_leader(key[2:])
        if h2 is not None:
            s._kidx[key] = (h2, s.leaders[h2])
    return h2


def _orderable(s: CCState, side: int) -> list[tuple[str, str, Hex]]:
    """(action, key, hex) of every piece the card's mode could order, before its limits."""
    out: list[tuple[str, str, Hex]] = []
    spec = s.ti["spec"]
    mode = spec["mode"]
    lone_ok = mode in ("slots", "leadership") or spec.get("leaders", False)
    split_ok = mode == "slots" and spec.get("helmet", False)
    ordered = set(s.ti["orders"])
    no_order = s.ti["no_order"]
    for h, u in s.units.items():
        if u.side == side and f"u:{u.uid}" not in ordered and u.uid not in no_order:
            out.append((ORDER_ACT[h], f"u:{u.uid}", h))
    for h, ld in s.leaders.items():
        if ld.side != side or f"l:{ld.lid}" in ordered:
            continue
        if h not in s.units:
            if lone_ok:
                out.append((ORDER_ACT[h], f"l:{ld.lid}", h))
        elif split_ok and ld.kind != "commander":
            out.append((ORDER_LEADER_ACT[h], f"l:{ld.lid}", h))
    return out


def _slot_accepts(s: CCState, slot: JSON, key: str, h: Hex, side: int) -> bool:
    if "section" in slot:
        return slot["section"] in sections_of(h, side, s.bottom)
    if "symbol" in slot:
        return key[0] == "u" and s.ut(s.units[h]).symbol == slot["symbol"]
    return True


def _fits(s: CCState, vectors: list[tuple[bool, ...]]) -> bool:
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


def _order_actions(s: CCState, side: int) -> list[str]:
    """The ``order ...`` actions now: from the pieces' eligibility, computed once per card
    play (``_order_cache``) and filtered by what is already ordered."""
    spec = s.ti["spec"]
    mode = spec["mode"]
    if mode == "shogun-pending":
        return []
    cache = _order_cache(s, side)
    ti_orders: list[str] = s.ti["orders"]  # typed: a native list
    pieces = cache.pieces
    given: list[tuple[Hex, int]] = []
    for k in ti_orders:
        got = pieces.get(k)
        if got is None:
            return _order_actions_scratch(s, side)  # a piece of the other side or gone
        given.append(got)
    n = len(given)
    if n >= spec.get("max", 999):
        return []  # White Fox Spirit
    ordered = set(ti_orders)
    if mode == "slots":
        if n >= len(spec["slots"]):
            return []
        # whether one more piece fits the slots depends only on the vectors: memoised, keyed by
        # their ids (a flat tuple of small integers hashes fast)
        vids = [v for _, v in given]
        fits_of: list[bool] = []
        for vid in cache.vectors:
            fk = tuple([*vids, vid])
            fits = _FITS.get(fk)
            if fits is None:
                fits = _FITS[fk] = _fits(s, [VECTORS_BY_ID[v] for v in fk])
            fits_of.append(fits)
        return [action for action, key, _h, i in cache.cands if fits_of[i] and key not in ordered]
    if mode == "select":
        if n >= spec["count"]:
            return []
        if spec.get("group") and n > 0:
            hexes = {h for h, _ in given}
            return [action for action, key, h, _i in cache.cands
                    if key not in ordered and any(c in hexes for c in NBRS[h])]
        return [action for action, key, _h, _i in cache.cands if key not in ordered]
    # Leadership: a Leader's hex and up to 4 adjacent, linked, contiguous hexes, or 1 unit of your choice
    if not given:
        return [action for action, key, _h, _i in cache.cands if key not in ordered]
    first_key, first_hex = ti_orders[0], given[0][0]
    if first_key[0] == "u" and first_hex not in s.leaders:
        return []  # "order 1 unit of your choice"
    hexes = {h for h, _ in given}
    if len(hexes) >= 5:
        return []
    return [action for action, key, h, _i in cache.cands
            if key not in ordered and h not in hexes and any(c in hexes for c in NBRS[h])]


def _orders_possible(s: CCState, side: int) -> int:
    """How many pieces the played card can order in all on this board, before its own number:
    a card of slots, the most pieces that take distinct slots (the sets of pieces that fit
    are a transversal matroid, so adding each piece that still fits finds the most); a card
    that selects, the pieces its filter passes; anything else 999 (no bound of its own)."""
    spec = s.ti["spec"]
    mode = spec["mode"]
    if mode not in ("slots", "select"):
        return 999
    cache = _order_cache(s, side)
    if mode == "select":
        return len({key for _a, key, _h, _i in cache.cands})
    chosen: list[tuple[bool, ...]] = []
    for _a, _key, _h, i in cache.cands:
        vec = VECTORS_BY_ID[cache.vectors[i]]
        if _fits(s, [*chosen, vec]):
            chosen.append(vec)
    return len(chosen)


def _order_cache(s: CCState, side: int) -> OrderCache:
    """Eligibility of every piece of ``side`` for the card's orders, built once per card play
    and shared with the clones: valid while the spec (replaced, never mutated, when a card
    changes it), the pieces and the pieces barred from orders are the same."""
    c = s._oc
    ti = s.ti
    spec, units, leaders, no_order = ti["spec"], s.units, s.leaders, ti["no_order"]
    # the pieces are compared with a snapshot: a state's own maps are changed in place, but
    # maps still shared with the parent (``COW_PIECES``) never change again
    if c is not None and c.spec is spec and c.side == side and c.no_order == no_order:
        fz = c.frozen
        if fz is not None and fz[0] is units and fz[1] is leaders:
            return c
        if c.units == units and c.leaders == leaders:
            if s._cow & COW_PIECES:
                c = s._oc = OrderCache(c.spec, c.side, c.units, c.leaders, c.no_order, c.pieces, c.vectors,
                                          c.cands, (units, leaders))
            return c
    mode = spec["mode"]
    slots: list[JSON] = spec["slots"] if mode == "slots" else []
    lone_ok = mode in ("slots", "leadership") or spec.get("leaders", False)
    split_ok = mode == "slots" and spec.get("helmet", False)
    flt: JSON = spec["filter"] if mode == "select" else {}
    utypes = s.t.units
    # which slots accept a piece depends only on the slots, its hex, side and symbol: memoised
    if len(_FITS) > 200_000 or len(_VECTORS) > 2_000 or len(_UNIT_KEYS) + len(_LEADER_KEYS) > 20_000:
        _FITS.clear()
        _VECTORS.clear()
        _UNIT_KEYS.clear()
        _LEADER_KEYS.clear()
    sig = tuple([_slot_sig(sl) for sl in slots])  # a list first: a compiled generator costs more
    memo = _VECTORS.get((sig, side, s.bottom))
    if memo is None:
        memo = _VECTORS[(sig, side, s.bottom)] = {}
    order_act = ORDER_ACT
    # a piece's vector depends on the sections of its hex (their bits: board.SECTION_MASK), and
    # on its symbol when a slot names one: a few small, often used tables
    masks = SECTION_MASK[0 if side == s.bottom else 1]
    # without symbol slots a piece's vector depends on its hex alone
    by_symbol = any(sg[0] != "section" for sg in sig)
    vectors: list[int] = []
    index: dict[int, int] = {}
    pieces: dict[str, tuple[Hex, int]] = {}
    cands: list[tuple[str, str, Hex, int]] = []
    plain = memo.get(None)
    if plain is None:
        plain = memo[None] = [-1] * 8
    for h, u in units.items():
        if u.side != side:
            continue
        uid = u.uid
        key = _UNIT_KEYS.get(uid)
        if key is None:
            key = _UNIT_KEYS[uid] = "u:" + uid
        by_hex = plain
        if by_symbol:
            sym = utypes[u.type].symbol
            got = memo.get(sym)
            if got is None:
                got = memo[sym] = [-1] * 8
            by_hex = got
        mask = masks[h]
        vec = by_hex[mask]
        if vec < 0:
            vec = by_hex[mask] = vector_id(tuple([_slot_accepts(s, sl, key, h, side) for sl in slots]))
        pieces[key] = (h, vec)
        if u.uid in no_order or (flt and not _passes(s, flt, u, h)):
            continue
        i = index.get(vec)
        if i is None:
            i = index[vec] = len(vectors)
            vectors.append(vec)
        cands.append((order_act[h], key, h, i))
    for h, ld in leaders.items():
        if ld.side != side:
            continue
        lid = ld.lid
        key = _LEADER_KEYS.get(lid)
        if key is None:
            key = _LEADER_KEYS[lid] = "l:" + lid
        mask = masks[h]
        vec = plain[mask]
        if vec < 0:
            vec = plain[mask] = vector_id(tuple([_slot_accepts(s, sl, key, h, side) for sl in slots]))
        pieces[key] = (h, vec)
        if h not in units:
            if not lone_ok:
                continue
            action = order_act[h]
        elif split_ok and ld.kind != "commander":
            action = ORDER_LEADER_ACT[h]
        else:
            continue
        i = index.get(vec)
        if i is None:
            i = index[vec] = len(vectors)
            vectors.append(vec)
        cands.append((action, key, h, i))
    cands.sort()
    if s._cow & COW_PIECES:  # maps shared with the parent never change again: no snapshot
        c = s._oc = OrderCache(spec, side, units, leaders, list(no_order), pieces, vectors, cands,
                                  (units, leaders))
    else:
        c = s._oc = OrderCache(spec, side, dict(units), dict(leaders), list(no_order), pieces, vectors,
                                  cands, None)
    return c


def _order_actions_scratch(s: CCState, side: int) -> list[str]:
    """``_order_actions`` computed from scratch (no eligibility cache)."""
    spec = s.ti["spec"]
    mode = spec["mode"]
    if mode == "shogun-pending":
        return []
    given = [(k, h) for k in s.ti["orders"] if (h := key_hex(s, k)) is not None]
    if len(given) >= spec.get("max", 999):
        return []  # White Fox Spirit
    out = []
    if mode == "slots":
        slots = spec["slots"]
        if len(given) >= len(slots):
            return []
        vecs = [tuple(_slot_accepts(s, sl, k, h, side) for sl in slots) for k, h in given]
        for action, key, h in _orderable(s, side):
            if _fits(s, [*vecs, tuple(_slot_accepts(s, sl, key, h, side) for sl in slots)]):
                out.append(action)
        return sorted(out)
    if mode == "select":
        if len(given) >= spec["count"]:
            return []
        hexes = {h for _, h in given}
        for action, key, h in _orderable(s, side):
            if key[0] == "u" and not _passes(s, spec["filter"], s.units[h], h):
                continue
            if spec.get("group") and hexes and not any(n in hexes for n in s.b.neighbours(h)):
                continue
            out.append(action)
        return sorted(out)
    # Leadership: a Leader's hex and up to 4 adjacent, linked, contiguous hexes, or 1 unit of your choice
    if not given:
        return sorted(a for a, _, _ in _orderable(s, side))
    first_key, first_hex = given[0]
    if first_key[0] == "u" and first_hex not in s.leaders:
        return []  # "order 1 unit of your choice"
    hexes = {h for _, h in given}
    for action, _key, h in _orderable(s, side):
        if h in hexes or len(hexes) >= 5:
            continue
        if any(n in hexes for n in s.b.neighbours(h)):
            out.append(action)
    return sorted(out)


def turn_effect(s: CCState, u: Unit) -> str | None:
    """The played card's effect on ``u``, if it is one of the active player's ordered units."""
    spec: JSON | None = s.ti.get("spec")
    if not spec:
        return None
    effect: str | None = spec.get("effect")
    # most cards have no effect: then no key is built, no orders searched
    if effect is None or u.side != s.active or f"u:{u.uid}" not in s.ti["orders"]:
        return None
    return effect


def _legal_order(s: CCState, task: OrderTask) -> list[str]:
    acts = _order_actions(s, task["seat"])
    acts.append("done")
    return acts


def _auto_order(s: CCState, task: OrderTask) -> bool:
    if s.ti["spec"].get("mode") == "shogun-pending":
        pending = s.ti["spec"]
        s.ti["spec"] = _shogun_spec(s, task["seat"])
        if "max" in pending:  # White Fox Spirit, played before the Shogun card acted
            s.ti["spec"]["max"] = pending["max"]
    acts = _order_actions(s, task["seat"])
    if acts:
        acts.append("done")  # a new list: completed, not copied
        s._legal = acts
        return False
    if not s.ti["orders"]:
        played = s.t.command[s.t.command_ids[s.ti["card"]]].name if s.ti.get("card") else "the card"
        s.say("no_orders", f"No unit or Leader of {s.side_name(task['seat'])} can be ordered by {played}")
    _to_move_phase(s, task)
    return True


def _act_order(s: CCState, task: OrderTask, action: str) -> None:
    side = task["seat"]
    if action == "done":
        _to_move_phase(s, task)
        return
    parts = action.split()
    h = s.b.parse(parts[1])
    key = piece_key_at(s, h, len(parts) == 3)
    assert key is not None
    s.ti["orders"] = [*s.ti["orders"], key]  # replaced, never changed in place (``fork``)
    where = s.name(h)
    # the line is written only when read: its parts, as ``_piece_label`` would word them
    if key[0] == "u":
        ld = s.leaders.get(h)
        free = ld is not None and f"l:{ld.lid}" not in s.ti["orders"]
        text = _order_text(s.side_name(side), s.ut(s.units[h]), ld.kind if free and ld is not None else "",
                           False, where)
    else:
        text = _order_text(s.side_name(side), None, s.leaders[h].kind, h in s.units, where)
    s.say("order", text, side=side, hex=where, piece=key)


def _piece_label(s: CCState, key: str, h: Hex) -> str:
    if key[0] == "u":
        u = s.units[h]
        ld = s.leaders.get(h)
        extra = f" with its {LEADER_NAME[ld.kind]}" if ld is not None and f"l:{ld.lid}" not in s.ti["orders"] else ""
        return s.ut(u).name + extra
    ld = s.leaders[h]
    return LEADER_NAME[ld.kind] + (" (splitting from his unit)" if h in s.units else "")


def _to_move_phase(s: CCState, task: OrderTask) -> None:
    s.stack[-1] = as_json({"t": "move", "seat": task["seat"]})


def enemy_at(s: CCState, h: Hex, side: int) -> bool:
    u = s.units.get(h)
    if u is not None:
        return u.side != side
    ld = s.leaders.get(h)
    return ld is not None and ld.side != side
