"""Phase 4, Battle: which ordered units may battle, close and ranged targets, line of sight
(hills and plateaus), the Levy Infantry swarm.

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import close_ranged, dragons, movement, orders
from kassen.rulesets.cc_samurai.board import BOARD_ORDER, DIST, IS_HALF, NAMES, NBRS, NCELLS
from kassen.rulesets.cc_samurai.common import as_json
from kassen.rulesets.cc_samurai.tasks import BattleTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def _board_order(h: Hex) -> int:
    """Sort key of the battlefield's hexes in board order (by row, then column)."""
    return BOARD_ORDER[h]


def can_battle(s: CCState, h: Hex) -> bool:
    u = s.units[h]
    effect = orders.turn_effect(s, u)
    ti = s.ti
    battled: list[str] = ti["battled"]  # typed: native list operations
    if u.uid in ti["no_battle"] or battled.count(u.uid) >= (2 if effect == "hold" else 1):
        return False
    if effect == "onslaught" and s.ut(u).ranged:
        return False  # Infantry Onslaught: ordered ranged weapon units may not battle
    if s.ti["effects"] and dragons.has_effect(s, "forced-march", u.side, u.uid):
        return False
    moved_by: dict[str, int] = ti["moved"]
    moved = moved_by.get(f"u:{u.uid}", 0)
    return not moved > movement.move_limits(s, u)[1]



def ranged_targets(s: CCState, h: Hex) -> list[Hex]:
    units, leaders = s.units, s.leaders
    u = units[h]
    ut = s.ut(u)
    if not ut.ranged or s.ter(h).cap_on("ranged", ut.cavalry) == 0 or orders.turn_effect(s, u) == "charge":
        return []
    side = u.side
    for n in NBRS[h]:
        nu = units.get(n)
        if nu is not None and nu.side != side:
            return []
    # the enemy pieces in range, not every hex in range: a few pieces against up to 60 hexes
    ranges, utypes, cavalry = ut.ranged, s.t.units, ut.cavalry
    dist, base = DIST, h * NCELLS
    found: list[Hex] = []
    for n, tu in units.items():
        if tu.side != side:
            d = dist[base + n]
            if d >= 2 and d in ranges and not utypes[tu.type].bodyguard:
                found.append(n)
    for n, ld in leaders.items():
        if ld.side != side and n not in units:
            d = dist[base + n]
            if d >= 2 and d in ranges:
                found.append(n)
    out = [n for n in found if s.ter(n).cap_into("ranged", cavalry) != 0 and line_of_sight(s, h, n)]
    if len(out) > 1:
        out.sort(key=_board_order)  # the order of HexBoard.within
    return out


def line_of_sight(s: CCState, a: Hex, b: Hex) -> bool:
    """Ranged Combat step 3, with the hill and plateau rules of Battlefield Terrain."""
    terc = s._terc
    if terc is None:
        terc = s._terrain_types()
    plateau: frozenset[Hex] = frozenset()
    if terc[a].hill and terc[b].hill:
        group = hill_group(s, a)
        if b in group:
            plateau = group
    units, leaders = s.units, s.leaders

    def obstructs(h: Hex) -> bool:
        if h in units or h in leaders or IS_HALF[h]:
            return True
        ter = terc[h]
        if ter.hill:
            return h not in plateau
        return ter.blocks_los

    cells = s.b.line(a, b)
    for h in cells.through:
        if obstructs(h):
            return False
    return not (any(obstructs(h) for h in cells.left) and any(obstructs(h) for h in cells.right))


def hill_group(s: CCState, h: Hex) -> frozenset[Hex]:
    group = {h}
    todo = [h]
    while todo:
        cur = todo.pop()
        for n in s.b.neighbours(cur):
            if n not in group and s.ter(n).hill:
                group.add(n)
                todo.append(n)
    return frozenset(group)


def _battle_actions(s: CCState, side: int) -> list[str]:
    out: list[str] = []
    given: list[str] = s.ti["orders"]  # typed: a native list
    for key in given:
        if key[0] != "u":
            continue
        h = orders.key_hex(s, key)
        if h is None or not can_battle(s, h):
            continue
        for n in close_ranged.close_targets(s, h):
            out.append(f"attack {NAMES[h]} {NAMES[n]}")
        for n in ranged_targets(s, h):
            out.append(f"fire {NAMES[h]} {NAMES[n]}")
    out.extend(_swarm_actions(s))
    return sorted(out)


def _swarm_actions(s: CCState) -> list[str]:
    """Levy Infantry Swarm: two or more ordered levies adjacent to one enemy unit attack together."""
    levies = []
    for key in s.ti["orders"]:
        h = orders.key_hex(s, key) if key[0] == "u" else None
        if h is not None and s.ut(s.units[h]).levy and can_battle(s, h):
            levies.append(h)
    if len(levies) < 2:
        return []
    out = []
    targets: dict[Hex, list[Hex]] = {}
    for h in levies:
        for n in close_ranged.close_targets(s, h):
            if n in s.units:
                targets.setdefault(n, []).append(h)
    for t, group in targets.items():
        group.sort(key=_board_order)
        for k in range(2, len(group) + 1):
            for combo in combinations(group, k):
                out.append(f"attack {'+'.join(NAMES[h] for h in combo)} {NAMES[t]}")
    return out


def _legal_battle(s: CCState, task: BattleTask) -> list[str]:
    acts = _battle_actions(s, task["seat"])
    acts.append("end-battle")
    return acts


def _auto_battle(s: CCState, task: BattleTask) -> bool:
    acts = _battle_actions(s, task["seat"])
    if acts:
        acts.append("end-battle")  # a new list: completed, not copied
        s._legal = acts
        return False
    s.stack[-1] = as_json({"t": "end", "seat": task["seat"], "step": "wise"})
    return True


def _act_battle(s: CCState, task: BattleTask, action: str) -> None:
    side = task["seat"]
    if action == "end-battle":
        s.stack[-1] = as_json({"t": "end", "seat": side, "step": "wise"})
        return
    verb, a, d = action.split()
    atts = [s.b.parse(x) for x in a.split("+")]
    dh = s.b.parse(d)
    ti = s.ti  # the turn info's lists are replaced, never changed in place (``fork``)
    ti["battled"] = [*ti["battled"], *(s.units[ah].uid for ah in atts)]
    close_ranged.start_combat(s, "close" if verb == "attack" else "ranged", atts[0], dh, "attack", swarm=atts[1:])
