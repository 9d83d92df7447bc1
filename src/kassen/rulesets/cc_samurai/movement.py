"""Phase 3, Movement: movement limits, terrain stops, exits, and the movement search (reused
from the parent state when nothing near the piece changed).

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kassen.engine.events import LazyText
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import dragons, honor, orders, victory
from kassen.rulesets.cc_samurai.board import DIST, IS_HALF, NAMES, NBRS, NCELLS, OUT2, ROWS, Unit
from kassen.rulesets.cc_samurai.common import (
    JSON,
    LEADER_MOVE,
    LEADER_NAME,
    NO_MOVES,
    Dests,
    _diff_hexes,
    as_json,
)
from kassen.rulesets.cc_samurai.facts import UnitType
from kassen.rulesets.cc_samurai.tasks import MoveTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


#: hex -> ``move F3 `` and ``move F3 leader `` (a destination follows)
MOVE_PRE: tuple[str, ...] = tuple(f"move {n} " for n in NAMES)
MOVE_LEADER_PRE: tuple[str, ...] = tuple(f"move {n} leader " for n in NAMES)


def unit_key(h: Hex) -> int:
    """The key of the movement search of the unit at ``h`` in ``_mv``: the hex doubled."""
    return 2 * h


def leader_key(h: Hex) -> int:
    """The key of the movement search of the Leader at ``h`` moving on his own: the hex doubled, + 1."""
    return 2 * h + 1


def _unit_move_text(who: str, ut: UnitType, with_kind: str | None, frm: str, to: str,
                    join_kind: str | None) -> LazyText:
    """``<side> <unit>[ with its <Leader>] moves <frm> to <to>[ and joins the <Leader>]``, written
    only when read (most moves of a playout are never narrated)."""
    def text() -> str:
        with_ld = "" if with_kind is None else f" with its {LEADER_NAME[with_kind]}"
        joined = "" if join_kind is None else f" and joins the {LEADER_NAME[join_kind]}"
        return f"{who} {ut.name}{with_ld} moves {frm} to {to}{joined}"
    return text


def move_limits(s: CCState, u: Unit) -> tuple[int, int]:
    """(hexes it may move, most hexes moved that still allow battle) this turn."""
    ut = s.ut(u)
    move, bmove = ut.move, ut.battle_move
    ti = s.ti
    spec: JSON | None = ti.get("spec")  # typed: a native dict get below, not a generic call
    effect = spec.get("effect") if spec else None
    if not effect and not ti["effects"]:
        return move, bmove  # no card effect and no Dragon card in play
    if effect and f"u:{u.uid}" in s.ti["orders"]:
        if effect == "charge" and u.type == "SSpC":
            move, bmove = 3, 3
        elif effect == "onslaught" and not ut.cavalry and ut.symbol in ("triangle", "square"):
            move, bmove = 2, 2
        elif effect == "serpent":
            move = min(move, 1)
        elif effect == "hold":
            move = 0
    if f"u:{u.uid}" in s.ti["orders"] and u.side == s.active and effect != "hold":
        if not ut.cavalry and not ut.bodyguard and dragons.has_effect(s, "move-as-the-wind", u.side):
            move, bmove = move + 1, bmove + 1
        if dragons.has_effect(s, "forced-march", u.side, u.uid):
            move += 1
        if dragons.has_effect(s, "spirit-of-the-wind", u.side, u.uid):
            move, bmove = move + 1, bmove + 1
    return move, bmove


def _same_move_ctx(s: CCState) -> bool:
    """Whether the movement context is the parent's (element by element: identical, or else equal)."""
    return s._prev_units is not None and s._prev_ctx == _move_ctx(s)


def _move_ctx(s: CCState) -> tuple[Any, ...]:
    """What a movement search depends on besides the pieces near it (compared by identity)."""
    ti = s.ti
    spec: JSON | None = ti.get("spec")
    return (spec, spec.get("effect") if spec else None, len(ti["orders"]), len(ti["effects"]),
            s.active, s.terrain)


def _reused_search(s: CCState, key: int, h: Hex, same_ctx: bool | None = None) -> Dests | None:
    """The parent state's search for ``key`` when nothing it looked at has changed since:
    the same movement context (``same_ctx``, when the caller compared it), and every hex whose
    pieces differ farther than it looked."""
    prev = s._mv_prev.get(key)
    if prev is None or s._prev_units is None:
        return None
    if same_ctx is None:
        same_ctx = _same_move_ctx(s)
    if not same_ctx:
        return None
    changed = s._changed
    if changed is None:
        changed = s._changed = _diff_hexes(s._prev_units, s.units) + _diff_hexes(
            s._prev_leaders, s.leaders)
    radius = prev.radius
    dist, base = DIST, h * NCELLS
    for c in changed:
        if dist[base + c] <= radius:
            return None
    return prev


def _unit_moves(s: CCState, h: Hex, same_ctx: bool | None = None) -> Dests:
    """Destinations (hex name or 'off') of the unit at ``h`` -> hexes moved."""
    return _moves(s, unit_key(h), h, same_ctx, False)


def _moves(s: CCState, key: int, h: Hex, same_ctx: bool | None, leader: bool) -> Dests:
    """The movement search of the unit (or, with ``leader``, the Leader moving on his own) at
    ``h``: this state's, else the parent's when it still holds (``_reused_search``), else new."""
    mv = s._mv
    got = mv.get(key)
    if got is None:
        got = _reused_search(s, key, h, same_ctx)
        if got is None:
            got = _search_leader_moves(s, h) if leader else _search_unit_moves(s, h)
        if mv is NO_MOVES:
            mv = s._mv = {}
        mv[key] = got
    return got


def _search_unit_moves(s: CCState, h: Hex) -> Dests:
    units, leaders = s.units, s.leaders
    u = units[h]
    ut = s.ut(u)
    allowance = move_limits(s, u)[0]
    has_leader = h in leaders
    # a Leader never enters a half-hex, so neither does a unit carrying one
    carries = has_leader and f"l:{leaders[h].lid}" not in s.ti["orders"]
    through = bool(s.ti["effects"]) and dragons.has_effect(s, "spirit-of-the-wind", u.side, u.uid)
    terc = s._terc
    if terc is None:
        terc = s._terrain_types()
    cavalry, side = ut.cavalry, u.side
    found = Dests(allowance)
    out = found.to  # destination -> hexes moved
    # the tables and ``seen`` are indexed by the hex
    names, nbrs, half = NAMES, NBRS, IS_HALF
    frontier = [h]
    seen = [False] * NCELLS
    seen[h] = True
    exits = s.exits[side]
    out2 = OUT2[h]
    for step in range(1, allowance + 1):
        nxt: list[Hex] = []
        for cur in frontier:
            if exits and cur in exits and "off" not in out:
                out["off"] = step
            for n in (out2[cur] if step == 2 else nbrs[cur]):
                if seen[n]:
                    continue
                ter = terc[n]
                if ter.impassable or (carries and half[n]):
                    continue
                if through and (n in units or n in leaders):
                    # Spirit of the Wind: through other units, never ending there
                    seen[n] = True
                    if not ter.stop:
                        nxt.append(n)
                    continue
                if n in units:
                    continue
                ld = leaders.get(n)
                if ld is not None:
                    if ld.side != side or has_leader:
                        continue
                    if cavalry and ld.kind != "mounted":
                        continue
                    # joins the lone Leader and stops
                    seen[n] = True
                    out[names[n]] = step
                    continue
                seen[n] = True
                out[names[n]] = step
                if not ter.stop:
                    nxt.append(n)
        frontier = nxt
    return found


def _leader_moves(s: CCState, h: Hex, same_ctx: bool | None = None) -> Dests:
    """Destinations of the Leader at ``h`` moving on his own."""
    return _moves(s, leader_key(h), h, same_ctx, True)


def _search_leader_moves(s: CCState, h: Hex) -> Dests:
    ld = s.leaders[h]
    allowance = LEADER_MOVE[ld.kind]
    if s.ti["spec"].get("effect") == "serpent":
        allowance = min(allowance, 1)  # Serpent Command: the group moves 1 hex (R28)
    units, leaders, utypes = s.units, s.leaders, s.t.units
    terc = s._terc
    if terc is None:
        terc = s._terrain_types()
    side, mounted = ld.side, ld.kind == "mounted"
    found = Dests(allowance)
    out = found.to  # destination -> hexes moved
    names, nbrs, half, rows = NAMES, NBRS, IS_HALF, ROWS
    seen = [False] * NCELLS
    seen[h] = True
    frontier = [h]
    base = s.baseline_row(side)
    out2 = OUT2[h]
    for step in range(1, allowance + 1):
        nxt: list[Hex] = []
        for cur in frontier:
            if rows[cur] == base and "off" not in out:
                out["off"] = step
            for n in (out2[cur] if step == 2 else nbrs[cur]):
                if seen[n] or half[n]:
                    continue
                ter = terc[n]
                if ter.impassable:
                    continue
                u = units.get(n)
                other = leaders.get(n)
                if (u is not None and u.side != side) or (other is not None and other.side != side):
                    continue
                seen[n] = True
                if other is None:
                    if u is None:
                        out[names[n]] = step
                    else:
                        put = utypes[u.type]
                        if not put.bodyguard and (mounted or not put.cavalry):
                            out[names[n]] = step
                if not ter.stop:
                    nxt.append(n)
        frontier = nxt
    return found


def _mover_actions(s: CCState, side: int) -> list[str]:
    out: list[str] = []
    ti = s.ti
    # typed: native list and dict operations below (the turn info's values are ``Any``)
    moved: dict[str, int] = ti["moved"]
    given: list[str] = ti["orders"]
    units, utypes = s.units, s.t.units
    # the movement context is compared with the parent's once for all the pieces (nothing
    # below changes it)
    same_ctx = bool(s._mv_prev) and _same_move_ctx(s)
    for key in given:
        if key in moved:
            continue
        h = orders.key_hex(s, key)
        if h is None:
            continue
        if key[0] == "u":
            if utypes[units[h].type].bodyguard:
                continue
            dests = _unit_moves(s, h, same_ctx)
            acts = dests.acts
            if acts is None:
                pre = MOVE_PRE[h]
                acts = dests.acts = [pre + d for d in dests.to]
        else:
            dests = _leader_moves(s, h, same_ctx)
            acts = dests.acts
            if acts is None:
                # the same search is reused only while the hex's unit is (a unit here: split)
                pre = MOVE_LEADER_PRE[h] if h in units else MOVE_PRE[h]
                acts = dests.acts = [pre + d for d in dests.to]
        out += acts
    out.sort()
    return out


def _legal_move(s: CCState, task: MoveTask) -> list[str]:
    acts = _mover_actions(s, task["seat"])
    acts.extend(dragons.actions(s, task["seat"], "movement"))
    acts.append("end-move")
    return acts


def _auto_move(s: CCState, task: MoveTask) -> bool:
    acts = _mover_actions(s, task["seat"])
    if acts:
        # a new list: completed, not copied
        acts.extend(dragons.actions(s, task["seat"], "movement"))
        acts.append("end-move")
        s._legal = acts
        return False
    s.stack[-1] = as_json({"t": "battle", "seat": task["seat"]})
    return True


def _act_move(s: CCState, task: MoveTask, action: str) -> None:
    side = task["seat"]
    if action == "end-move":
        s.stack[-1] = as_json({"t": "battle", "seat": side})
        return
    if action.startswith("dragon "):
        dragons.play(s, side, action)
        return
    parts = action.split()
    h = s.b.parse(parts[1])
    s.own_pieces()
    is_leader = len(parts) == 4 or h not in s.units
    dest_txt = parts[-1]
    if is_leader:
        ld = s.leaders[h]
        key = f"l:{ld.lid}"
        lsearch = s._mv_prev.get(leader_key(h))  # the parent's, which listed this action
        if lsearch is None:
            lsearch = _leader_moves(s, h)
        steps = lsearch.to[dest_txt]
        s.ti["moved"] = {**s.ti["moved"], key: steps}  # replaced, never changed in place
        del s.leaders[h]
        if dest_txt == "off":
            s.own_logs()
            s.removed.append({"side": side, "piece": ld.lid, "cause": "off", "type": ld.kind})
            s.say("leader_off", f"{s.side_name(side)} {LEADER_NAME[ld.kind]} leaves the battlefield from {s.name(h)}",
                     hex=s.name(h))
            short = honor.lose_honor(s, side, 3, "a Leader left the battlefield")
            if short:
                honor._push_loh(s, side, short, h, None, None)
            return
        d = s.b.parse(dest_txt)
        s.leaders[d] = ld
        joined = f" and joins the {s.ut(s.units[d]).name}" if d in s.units else ""
        s.say("move", f"{s.side_name(side)} {LEADER_NAME[ld.kind]} moves {s.name(h)} to {s.name(d)}{joined}",
                 frm=s.name(h), to=s.name(d))
        _insult_window(s, side, ld.lid, h, d, None)
        return
    u = s.units[h]
    key = f"u:{u.uid}"
    search = s._mv_prev.get(unit_key(h))
    if search is None:
        search = _unit_moves(s, h)
    steps = search.to[dest_txt]
    s.ti["moved"] = {**s.ti["moved"], key: steps}
    uld = s.leaders.get(h)
    carry = uld is not None and f"l:{uld.lid}" not in s.ti["orders"]
    del s.units[h]
    if carry:
        assert uld is not None
        del s.leaders[h]
    if dest_txt == "off":
        s.own_logs()
        s.removed.append({"side": side, "piece": u.uid, "cause": "exit", "type": u.type})
        s.say("exit", f"{s.unit_label(u)} leaves the battlefield from {s.name(h)}", hex=s.name(h))
        if carry and uld is not None:
            s.removed.append({"side": side, "piece": uld.lid, "cause": "exit", "type": uld.kind})
        victory.award_banner(s, side, s.exit_banners, "a unit left by an exit hex", objective=True)
        return
    d = s.b.parse(dest_txt)
    s.units[d] = u
    if carry and uld is not None:
        s.leaders[d] = uld
    if s.ter(d).forbids_battle_on_entry(s.ut(u).cavalry):
        s.ti["no_battle"] = [*s.ti["no_battle"], u.uid]
    jl = None if carry else s.leaders.get(d)
    frm, to = s.name(h), s.name(d)
    s.say("move", _unit_move_text(s.side_name(u.side), s.ut(u),
                                     uld.kind if carry and uld is not None else None,
                                     frm, to, None if jl is None else jl.kind),
             frm=frm, to=to, unit=u.uid)
    if carry and uld is not None:
        _insult_window(s, side, uld.lid, h, d, u.uid)


def _insult_window(s: CCState, side: int, lid: str, frm: Hex, to: Hex, uid: str | None) -> None:
    """Insult is played when the enemy moves an ordered Leader."""
    s.stack.append(as_json({"t": "dragon", "seat": 1 - side, "w": "insult", "lid": lid,
                               "frm": frm, "to": to, "uid": uid}))
