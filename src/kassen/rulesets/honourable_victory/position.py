"""Positions: a battle file's ``[position]`` table sets up any moment between two phases.

The armies are deployed as the battle says; the position then moves units, sets their
facing, formation, stands, hit markers and the red and yellow markers, routs some, places the
Daimyo, engages units and starts play at the turn and phase it names. Everything is checked
as the rules would check it during play (zones on the table, the unit limit per zone, valid
formations, terrain, engagements only between enemies in one zone), and an error names the
field.
"""

from __future__ import annotations

from collections.abc import Callable

from kassen.engine.errors import FormatError
from kassen.rulesets.honourable_victory.data import Position
from kassen.rulesets.honourable_victory.state import HVState
from kassen.rulesets.honourable_victory.table import DIRS, FACETS, opposite

SEAT = {"south": 0, "north": 1}


def apply_position(s: HVState, pos: Position, where: str, zone: Callable[[str, str], str]) -> None:
    """Set ``s`` (deployed, not yet begun) to ``pos`` and start play there."""
    table = s.table
    for uid, up in pos.units.items():
        field = f"position.units.{uid}"
        if uid not in s.units:
            raise FormatError(f"{where}: {field}: no unit {uid!r} (units: {', '.join(s.units)})")
        u = s.units[uid]
        if up.status is not None:
            u.status = up.status
        if up.zone is not None:
            u.zone = zone(up.zone, f"{field}.zone")
        if u.status == "table" and not table.on_table(u.zone):
            raise FormatError(f"{where}: {field}.zone: {u.zone} is not a zone on the table")
        if u.status == "reserve" and u.zone not in table.reserve_zones(u.side):
            raise FormatError(f"{where}: {field}.zone: a unit in reserve stands in one of "
                              f"{', '.join(table.reserve_zones(u.side))}")
        if up.facing is not None:
            u.facing = DIRS.index(up.facing)
        if up.stands is not None:
            if up.stands > u.start:
                raise FormatError(f"{where}: {field}.stands: {u.name} has only {u.start} stands")
            u.stands = up.stands
        if up.dismounted is not None:
            if u.cls != "mounted":
                raise FormatError(f"{where}: {field}.dismounted: only Mounted units dismount")
            u.mounted = not up.dismounted
        if up.formation is not None:
            u.form = up.formation
        if not s.can_form(u, u.form):
            raise FormatError(f"{where}: {field}.formation: {u.name} with {u.stands} stands cannot be in "
                              f"{u.form} formation")
        if u.status == "table" and not s.can_enter(u, u.zone):
            raise FormatError(f"{where}: {field}.zone: {u.name} cannot be in {u.zone} (terrain)")
        if up.hits is not None:
            u.hits = up.hits
        if up.fired is not None:
            u.fired = up.fired
        if up.reacted is not None:
            u.reacted = up.reacted
    for seat in (0, 1):
        crowded = {z for u in s.units.values() if u.side == seat and u.status in ("table", "reserve")
                   for z in [u.zone] if s.friends_in(z, seat) > table.limit}
        if crowded:
            raise FormatError(f"{where}: position.units: more than {table.limit} units of one side in "
                              f"{', '.join(sorted(crowded))}")
        s.tally[seat] = sum(1 for u in s.units.values() if u.side == seat and u.status == "routed")
    for key, z in pos.daimyo.items():
        seat = SEAT[key]
        if z == "removed":
            s.daimyo[seat] = None
            continue
        dz = zone(z, f"position.daimyo.{key}")
        if not table.on_table(dz):
            raise FormatError(f"{where}: position.daimyo.{key}: {dz} is not a zone on the table")
        s.daimyo[seat] = dz
    for i, c in enumerate(pos.contacts):
        field = f"position.contacts[{i}]"
        for uid in (c.unit, c.target):
            if uid not in s.units or s.units[uid].status != "table":
                raise FormatError(f"{where}: {field}: {uid!r} is not a unit on the table")
        e, x = s.units[c.unit], s.units[c.target]
        if e.side == x.side:
            raise FormatError(f"{where}: {field}: {c.unit} and {c.target} are on the same side")
        if e.zone != x.zone:
            raise FormatError(f"{where}: {field}: {c.unit} ({e.zone}) and {c.target} ({x.zone}) are not in "
                              "one zone; engaged units share a zone")
        if c.facet in {f for f, _ in s.contacts_of(x.uid)}:
            raise FormatError(f"{where}: {field}: {c.target}'s {c.facet} is already engaged")
        if s.engaged(e.uid) and "front" in {f for f, _ in s.contacts_of(e.uid)}:
            raise FormatError(f"{where}: {field}: {c.unit}'s front is already engaged")
        need = opposite((x.facing + FACETS.index(c.facet)) % 4)
        if c.unit in pos.units and pos.units[c.unit].facing is not None and e.facing != need:
            raise FormatError(f"{where}: {field}: {c.unit} faces {DIRS[e.facing]}, but its front against "
                              f"{c.target}'s {c.facet} faces {DIRS[need]} (leave its facing out)")
        e.facing = need
        s.contacts.append((e.uid, "front", x.uid, c.facet))
    _start(s, pos, where)


def _start(s: HVState, pos: Position, where: str) -> None:
    """Play starts at the position's turn and phase (the initiative throw: the turn before)."""
    if pos.phase == "initiative":
        if pos.initiative is not None or pos.mover is not None:
            raise FormatError(f"{where}: position: initiative and mover are decided by the initiative throw "
                              "(give them only from the Firing Phase on)")
        s.turn = pos.turn - 1
        s._begin_turn()
        return
    if pos.initiative is None:
        raise FormatError(f"{where}: position.initiative: who holds the initiative (south or north) is needed "
                          f"to start in the {pos.phase} phase")
    s.turn, s.init = pos.turn, SEAT[pos.initiative]
    if pos.mover is not None and pos.phase != "movement":
        raise FormatError(f"{where}: position.mover: only the movement phase has a mover")
    if pos.phase == "firing":
        s.fire_decl = [[], []]
        s.pend = {"step": "fire", "seat": s.init}
        s._next_fire()
    elif pos.phase == "hand-to-hand":
        s._begin_h2h()
    else:
        s._begin_move(SEAT[pos.mover] if pos.mover is not None else s.init)
