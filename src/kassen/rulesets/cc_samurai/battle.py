# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""Phase 4, Battle: which ordered units may battle, close and ranged targets, line of sight
(hills and plateaus), the Levy Infantry swarm.

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from mypy_extensions import trait

from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.board import HALF, NBRS
from kassen.rulesets.cc_samurai.common import _NAMES, CCStateData, as_json
from kassen.rulesets.cc_samurai.tasks import BattleTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def _board_order(h: Hex) -> tuple[int, int]:
    """Sort key of the battlefield's hexes in board order (by row, then column)."""
    return h[1], h[0]


@trait
class BattleRules(CCStateData):
    def can_battle(self: CCState, h: Hex) -> bool:
        u = self.units[h]
        effect = self.turn_effect(u)
        ti = self.ti
        battled: list[str] = ti["battled"]  # typed: native list operations
        if u.uid in ti["no_battle"] or battled.count(u.uid) >= (2 if effect == "hold" else 1):
            return False
        if effect == "onslaught" and self.ut(u).ranged:
            return False  # Infantry Onslaught: ordered ranged weapon units may not battle
        if self.ti["effects"] and dragons.has_effect(self, "forced-march", u.side, u.uid):
            return False
        moved_by: dict[str, int] = ti["moved"]
        moved = moved_by.get(f"u:{u.uid}", 0)
        return not moved > self.move_limits(u)[1]

    def enemy_at(self: CCState, h: Hex, side: int) -> bool:
        u = self.units.get(h)
        if u is not None:
            return u.side != side
        ld = self.leaders.get(h)
        return ld is not None and ld.side != side

    def close_targets(self: CCState, h: Hex) -> list[Hex]:
        units, leaders = self.units, self.leaders
        u = units[h]
        ut = self.ut(u)
        cavalry = ut.cavalry
        if self.ter(h).cap_on("close", cavalry) == 0 or self.turn_effect(u) == "hold":
            return []
        side = u.side
        out = []
        for n in NBRS[h]:
            e = units.get(n) or leaders.get(n)
            if e is not None and e.side != side and self.ter(n).cap_into("close", cavalry) != 0:
                out.append(n)
        return out

    def ranged_targets(self: CCState, h: Hex) -> list[Hex]:
        units, leaders = self.units, self.leaders
        u = units[h]
        ut = self.ut(u)
        if not ut.ranged or self.ter(h).cap_on("ranged", ut.cavalry) == 0 or self.turn_effect(u) == "charge":
            return []
        side = u.side
        for n in NBRS[h]:
            nu = units.get(n)
            if nu is not None and nu.side != side:
                return []
        # the enemy pieces in range, not every hex in range: a few pieces against up to 60 hexes
        ranges, utypes, cavalry = ut.ranged, self.t.units, ut.cavalry
        hx, hr = h
        found: list[Hex] = []
        for n, tu in units.items():
            if tu.side != side:
                dr = abs(n[1] - hr)
                d = dr + max(0, (abs(n[0] - hx) - dr) // 2)
                if d >= 2 and d in ranges and not utypes[tu.type].bodyguard:
                    found.append(n)
        for n, ld in leaders.items():
            if ld.side != side and n not in units:
                dr = abs(n[1] - hr)
                d = dr + max(0, (abs(n[0] - hx) - dr) // 2)
                if d >= 2 and d in ranges:
                    found.append(n)
        out = [n for n in found if self.ter(n).cap_into("ranged", cavalry) != 0 and self.line_of_sight(h, n)]
        if len(out) > 1:
            out.sort(key=_board_order)  # the order of HexBoard.within
        return out

    def line_of_sight(self: CCState, a: Hex, b: Hex) -> bool:
        """Ranged Combat step 3, with the hill and plateau rules of Battlefield Terrain."""
        terc = self._terc
        if terc is None:
            terc = self._terrain_types()
        plateau: frozenset[Hex] = frozenset()
        if terc[a].hill and terc[b].hill:
            group = self.hill_group(a)
            if b in group:
                plateau = group
        units, leaders = self.units, self.leaders

        def obstructs(h: Hex) -> bool:
            if h in units or h in leaders or h in HALF:
                return True
            ter = terc[h]
            if ter.hill:
                return h not in plateau
            return ter.blocks_los

        cells = self.b.line(a, b)
        for h in cells.through:
            if obstructs(h):
                return False
        return not (any(obstructs(h) for h in cells.left) and any(obstructs(h) for h in cells.right))

    def hill_group(self: CCState, h: Hex) -> frozenset[Hex]:
        group = {h}
        todo = [h]
        while todo:
            cur = todo.pop()
            for n in self.b.neighbours(cur):
                if n not in group and self.ter(n).hill:
                    group.add(n)
                    todo.append(n)
        return frozenset(group)

    def _battle_actions(self: CCState, side: int) -> list[str]:
        out: list[str] = []
        orders: list[str] = self.ti["orders"]  # typed: a native list
        for key in orders:
            if key[0] != "u":
                continue
            h = self.key_hex(key)
            if h is None or not self.can_battle(h):
                continue
            for n in self.close_targets(h):
                out.append(f"attack {_NAMES[h]} {_NAMES[n]}")
            for n in self.ranged_targets(h):
                out.append(f"fire {_NAMES[h]} {_NAMES[n]}")
        out.extend(self._swarm_actions())
        return sorted(out)

    def _swarm_actions(self: CCState) -> list[str]:
        """Levy Infantry Swarm: two or more ordered levies adjacent to one enemy unit attack together."""
        levies = []
        for key in self.ti["orders"]:
            h = self.key_hex(key) if key[0] == "u" else None
            if h is not None and self.ut(self.units[h]).levy and self.can_battle(h):
                levies.append(h)
        if len(levies) < 2:
            return []
        out = []
        targets: dict[Hex, list[Hex]] = {}
        for h in levies:
            for n in self.close_targets(h):
                if n in self.units:
                    targets.setdefault(n, []).append(h)
        for t, group in targets.items():
            group.sort(key=lambda h: (h[1], h[0]))
            for k in range(2, len(group) + 1):
                for combo in combinations(group, k):
                    out.append(f"attack {'+'.join(_NAMES[h] for h in combo)} {_NAMES[t]}")
        return out

    def _legal_battle(self: CCState, task: BattleTask) -> list[str]:
        acts = self._battle_actions(task["seat"])
        acts.append("end-battle")
        return acts

    def _auto_battle(self: CCState, task: BattleTask) -> bool:
        acts = self._battle_actions(task["seat"])
        if acts:
            acts.append("end-battle")  # a new list: completed, not copied
            self._legal = acts
            return False
        self.stack[-1] = as_json({"t": "end", "seat": task["seat"], "step": "wise"})
        return True

    def _act_battle(self: CCState, task: BattleTask, action: str) -> None:
        side = task["seat"]
        if action == "end-battle":
            self.stack[-1] = as_json({"t": "end", "seat": side, "step": "wise"})
            return
        verb, a, d = action.split()
        atts = [self.b.parse(x) for x in a.split("+")]
        dh = self.b.parse(d)
        ti = self.ti  # the turn info's lists are replaced, never changed in place (``_fork``)
        ti["battled"] = [*ti["battled"], *(self.units[ah].uid for ah in atts)]
        self.start_combat("close" if verb == "attack" else "ranged", atts[0], dh, "attack", swarm=atts[1:])
