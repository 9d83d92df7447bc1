"""The table of zones: names, adjacency, facings, reserve zones and terrain.

Zones are named by column letter (west to east) and row digit (south to north):
the table is ``A1``..``E3`` at the default width of 5 (rules, Basic Concepts).
South sits at the south edge, North at the north edge. Each side's reserve zones
lie off the table directly behind its three set-up zones: South's on row 0
(``B0 C0 D0``), North's on row 4 (``B4 C4 D4``) (ruling H2).

Facings are the four table edges ``N E S W`` (0..3, clockwise). A unit's facets
are front, right, rear, left: facet ``k`` points at ``(facing + k) % 4``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DIRS = "NESW"
VEC = ((0, 1), (1, 0), (0, -1), (-1, 0))
FACETS = ("front", "right", "rear", "left")
#: the direction each side faces when it deploys or enters from reserve ("at zero degrees")
FORWARD = (0, 2)
FEATURES = ("hill", "woods", "village", "rough", "impassable", "bog")
#: Appendix A: restricted movement for mounted units
RESTRICTED = frozenset({"hill", "woods", "village", "rough"})
#: Appendix A: cover from fire (foot units)
COVER = frozenset({"woods", "village"})
#: Appendix A: hand-to-hand advantage (foot units)
ADVANTAGE = frozenset({"hill", "woods", "village", "rough"})
#: Appendix A: no unit may enter
IMPASSABLE = frozenset({"impassable", "bog"})


def zone_name(col: int, row: int) -> str:
    return f"{chr(65 + col)}{row}"


def parse_zone(text: str) -> tuple[int, int] | None:
    """``"C2"`` -> ``(2, 2)``; ``None`` if it is not a zone name."""
    t = text.strip().upper()
    if len(t) != 2 or not ("A" <= t[0] <= "Z") or not t[1].isdigit():
        return None
    return ord(t[0]) - 65, int(t[1])


def opposite(d: int) -> int:
    return (d + 2) % 4


@dataclass(frozen=True)
class Table:
    """The zones of one battle (width across, always three deep) with their terrain."""

    width: int = 5
    limit: int = 4
    reserves: bool = True
    terrain: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: escarpment edges, each a pair of orthogonally adjacent on-table zones
    escarpments: frozenset[frozenset[str]] = frozenset()

    # ---------------------------------------------------------------- zones
    def zones(self) -> list[str]:
        """The on-table zones, row by row from the south."""
        return [zone_name(c, r) for r in (1, 2, 3) for c in range(self.width)]

    def on_table(self, z: str) -> bool:
        p = parse_zone(z)
        return p is not None and 0 <= p[0] < self.width and 1 <= p[1] <= 3

    def centre_cols(self) -> tuple[int, int, int]:
        m = self.width // 2
        return (m - 1, m, m + 1)

    def rear_row(self, side: int) -> int:
        return 1 if side == 0 else 3

    def setup_zones(self, side: int) -> list[str]:
        """Centre Left, Centre and Centre Right zones on ``side``'s side of the table."""
        return [zone_name(c, self.rear_row(side)) for c in self.centre_cols()]

    def rear_zones(self, side: int) -> list[str]:
        return [zone_name(c, self.rear_row(side)) for c in range(self.width)]

    def reserve_zones(self, side: int) -> list[str]:
        if not self.reserves:
            return []
        row = 0 if side == 0 else 4
        return [zone_name(c, row) for c in self.centre_cols()]

    def is_reserve(self, z: str) -> bool:
        return z in self.reserve_zones(0) or z in self.reserve_zones(1)

    def reserve_side(self, z: str) -> int | None:
        for side in (0, 1):
            if z in self.reserve_zones(side):
                return side
        return None

    def step(self, z: str, d: int) -> str | None:
        """The on-table zone next to ``z`` in direction ``d`` (``None`` off the table)."""
        p = parse_zone(z)
        assert p is not None
        dc, dr = VEC[d]
        n = zone_name(p[0] + dc, p[1] + dr)
        return n if 0 <= p[0] + dc < self.width and 1 <= p[1] + dr <= 3 else None

    def reserve_behind(self, z: str, side: int) -> str | None:
        """The friendly reserve zone directly behind the on-table zone ``z``."""
        p = parse_zone(z)
        assert p is not None
        if p[1] != self.rear_row(side):
            return None
        rz = zone_name(p[0], 0 if side == 0 else 4)
        return rz if rz in self.reserve_zones(side) else None

    def in_front_of_reserve(self, rz: str) -> str:
        """The on-table zone directly forward of the reserve zone ``rz``."""
        p = parse_zone(rz)
        assert p is not None
        return zone_name(p[0], 1 if p[1] == 0 else 3)

    def closest_reserve(self, z: str, side: int) -> str | None:
        """The closest friendly reserve zone to ``z`` (ruling H3: straight-line distance)."""
        p = parse_zone(z)
        assert p is not None
        best: tuple[int, str] | None = None
        for rz in self.reserve_zones(side):
            q = parse_zone(rz)
            assert q is not None
            d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
            if best is None or d < best[0]:
                best = (d, rz)
        return None if best is None else best[1]

    def neighbours8(self, z: str) -> list[str]:
        """The up to eight on-table zones around ``z`` (a Daimyo's move)."""
        p = parse_zone(z)
        assert p is not None
        out = []
        for dr in (1, 0, -1):
            for dc in (-1, 0, 1):
                if (dc or dr) and 0 <= p[0] + dc < self.width and 1 <= p[1] + dr <= 3:
                    out.append(zone_name(p[0] + dc, p[1] + dr))
        return out

    # -------------------------------------------------------------- terrain
    def features(self, z: str) -> tuple[str, ...]:
        return self.terrain.get(z, ())

    def crossing_blocked(self, a: str, b: str) -> bool:
        """Whether an escarpment edge lies between orthogonal neighbours ``a`` and ``b``."""
        return frozenset((a, b)) in self.escarpments

    def diagonal_blocked(self, a: str, b: str) -> bool:
        """A diagonal step is blocked when both orthogonal two-step paths cross an
        escarpment or pass an impassable zone (ruling H22)."""
        pa, pb = parse_zone(a), parse_zone(b)
        assert pa is not None and pb is not None
        if pa[0] == pb[0] or pa[1] == pb[1]:
            return self.crossing_blocked(a, b)
        ok = False
        for mid in (zone_name(pa[0], pb[1]), zone_name(pb[0], pa[1])):
            if not (IMPASSABLE & set(self.features(mid))) and not self.crossing_blocked(a, mid) \
                    and not self.crossing_blocked(mid, b):
                ok = True
        return not ok

    def restricted(self, z: str) -> bool:
        return bool(RESTRICTED & set(self.features(z)))

    def cover(self, z: str) -> int:
        """How many terrain features in ``z`` give foot units cover (Appendix A: cumulative)."""
        return sum(1 for f in self.features(z) if f in COVER)

    def advantage(self, z: str) -> int:
        """How many terrain features in ``z`` give foot units the hand-to-hand advantage."""
        return sum(1 for f in self.features(z) if f in ADVANTAGE)

    def impassable(self, z: str) -> bool:
        return bool(IMPASSABLE & set(self.features(z)))
