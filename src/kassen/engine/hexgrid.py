"""Hex geometry of Commands & Colors boards.

The board has rows of alternating length: *full* rows of ``width`` hexes, and
*short* rows of ``width - 1`` hexes with a half-hex at each side edge. Row 0 (the
bottom baseline) is full; so is the top row when the row count is odd.

Coordinates are *doubled-width*: a hex is ``(x, r)`` with ``r`` the row from the
bottom and ``x`` the horizontal position in half-hex steps. Full rows use odd
``x`` (1, 3, ... 2*width-1); short rows use even ``x`` (0, 2, ... 2*width), and
``x == 0`` or ``x == 2*width`` are the side half-hexes.

Notation: the letter of ``x`` (A = 0, B = 1, ...) then the row number from 1, so
the bottom-left full hex is ``B1`` and the half-hex at the left of row 2 is ``A2``.
In a terminal drawing the letters stand exactly above the hex centres.

>>> b = HexBoard()
>>> b.parse("B1")
(1, 0)
>>> b.name((2, 1))
'C2'
>>> b.distance(b.parse("B1"), b.parse("F1"))
2
>>> sorted(b.name(h) for h in b.neighbours(b.parse("C2")))
['A2', 'B1', 'B3', 'D1', 'D3', 'E2']
>>> b.is_half(b.parse("A2"))
True

Line of sight is exact: hexes are integer hexagons after an affine map (x, 3r),
so whether a segment between two centres crosses a hex's interior or only
touches its boundary is decided with integer arithmetic, never sampled points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from kassen.engine.errors import FormatError

#: ``(x, r)``. Typed as a tuple of any length on purpose: mypyc unboxes a ``tuple[int, int]`` into a
#: C struct and boxes it into a new tuple object for every dict look-up (allocation, hash, compare
#: element by element, free); kept boxed, a hex stays the board's own object (``HexBoard`` hands
#: out only those) and a dict finds it by identity
Hex = tuple[int, ...]

#: neighbour offsets in doubled-width coordinates
DIRECTIONS: tuple[Hex, ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


@dataclass(frozen=True)
class LineCells:
    """The hexes strictly between two centres that a straight line meets.

    ``through``: hexes whose interior the line crosses.
    ``left`` / ``right``: hexes the line only touches on their boundary (running
    along an edge or grazing a corner), by the side of the line they lie on.
    """

    through: tuple[Hex, ...]
    left: tuple[Hex, ...]
    right: tuple[Hex, ...]


class HexBoard:
    """Geometry of a C&C board: ``width`` hexes in a full row, ``rows`` rows."""

    def __init__(self, width: int = 12, rows: int = 11) -> None:
        if width < 2 or rows < 1 or width * 2 > 26:
            raise ValueError("board must be 2..13 hexes wide with at least one row")
        self.width = width
        self.rows = rows
        cells: list[Hex] = []
        for r in range(rows):
            if r % 2 == 0:
                cells.extend((x, r) for x in range(1, 2 * width, 2))
            else:
                cells.extend((x, r) for x in range(0, 2 * width + 1, 2))
        self.cells: tuple[Hex, ...] = tuple(cells)
        self._cellset = frozenset(cells)
        #: every hex tuple handed out is one of ``cells`` (the same object): a dict keyed by hexes
        #: then finds its key by identity, without comparing tuples
        canon = {h: h for h in cells}
        self._canon = canon
        self._line_cache: dict[tuple[Hex, Hex], LineCells] = {}
        self._within: dict[tuple[Hex, int], tuple[Hex, ...]] = {}
        self._names = {h: f"{chr(ord('A') + h[0])}{h[1] + 1}" for h in cells}
        self._parsed = {v: k for k, v in self._names.items()}
        self._nbrs = {
            h: [canon[(h[0] + dx, h[1] + dr)] for dx, dr in DIRECTIONS if (h[0] + dx, h[1] + dr) in canon]
            for h in cells
        }

    # -- basic facts -------------------------------------------------------
    def __contains__(self, h: object) -> bool:
        return h in self._cellset

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.cells)

    def is_full_row(self, r: int) -> bool:
        return r % 2 == 0

    def is_half(self, h: Hex) -> bool:
        """True for the half-hexes at the side edges of short rows."""
        x, r = h
        return r % 2 == 1 and (x == 0 or x == 2 * self.width)

    def row_hexes(self, r: int) -> list[Hex]:
        return [h for h in self.cells if h[1] == r]

    # -- notation ----------------------------------------------------------
    def name(self, h: Hex) -> str:
        """``(1, 0)`` -> ``'B1'``."""
        got = self._names.get(h)
        return got if got is not None else f"{chr(ord('A') + h[0])}{h[1] + 1}"

    def parse(self, text: str) -> Hex:
        """``'B1'`` -> ``(1, 0)``; raises ``FormatError`` naming what is wrong."""
        fast = self._parsed.get(text)
        if fast is not None:
            return fast
        t = text.strip().upper()
        if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
            raise FormatError(f"{text!r} is not a hex: write a column letter and a row number, like F3")
        x = ord(t[0]) - ord("A")
        r = int(t[1:]) - 1
        if not 0 <= r < self.rows:
            raise FormatError(f"{text!r} is not a hex: rows run from 1 to {self.rows}")
        got = self._canon.get((x, r))
        if got is None:
            letters = " ".join(self.name(c)[0] for c in self.row_hexes(r))
            kind = "full" if self.is_full_row(r) else "short"
            raise FormatError(f"{text!r} is not a hex: row {r + 1} is a {kind} row, its columns are {letters}")
        return got

    # -- adjacency and distance -------------------------------------------
    def neighbours(self, h: Hex) -> list[Hex]:
        got = self._nbrs.get(h)
        if got is not None:
            return list(got)
        x, r = h
        return [(x + dx, r + dr) for dx, dr in DIRECTIONS if (x + dx, r + dr) in self._cellset]

    @staticmethod
    def distance(a: Hex, b: Hex) -> int:
        """Hex distance (number of steps)."""
        dr = abs(a[1] - b[1])
        dx = abs(a[0] - b[0])
        return dr + max(0, (dx - dr) // 2)

    def within(self, h: Hex, n: int) -> list[Hex]:
        """Board hexes at distance 1..n of ``h``."""
        key = (h, n)
        got = self._within.get(key)
        if got is None:
            got = self._within[key] = tuple(c for c in self.cells if 0 < self.distance(h, c) <= n)
        return list(got)

    # -- line of sight ------------------------------------------------------
    def line(self, a: Hex, b: Hex) -> LineCells:
        """The hexes between ``a`` and ``b`` that the centre-to-centre line meets."""
        key = (a, b)
        got = self._line_cache.get(key)
        if got is None:
            got = _line_cells(self, a, b)
            self._line_cache[key] = got
            # the line back meets the same hexes (in board order), its sides swapped: one
            # computation for both directions (tests/engine/test_hexgrid.py checks it)
            self._line_cache[(b, a)] = LineCells(got.through, got.right, got.left)
        return got

    def line_of_sight(self, a: Hex, b: Hex, obstructs: Callable[[Hex], bool]) -> bool:
        """C&C line of sight from ``a`` to ``b``.

        Blocked when a hex the line crosses obstructs, or when the line runs along
        hex edges with obstructing hexes on *both* sides. The two end hexes never
        block (the target's terrain does not block line of sight).
        """
        cells = self.line(a, b)
        if any(obstructs(h) for h in cells.through):
            return False
        return not (any(obstructs(h) for h in cells.left) and any(obstructs(h) for h in cells.right))


def _vertices(h: Hex) -> list[tuple[int, int]]:
    """Counter-clockwise corners of hex ``h`` in the (x, 3r) integer plane."""
    cx, cy = h[0], 3 * h[1]
    return [(cx, cy - 2), (cx + 1, cy - 1), (cx + 1, cy + 1), (cx, cy + 2), (cx - 1, cy + 1), (cx - 1, cy - 1)]


def _contact(h: Hex, ax: int, ay: int, dx: int, dy: int) -> str:
    """How segment A + t*D (t in [0, 1]) meets hex ``h``: 'through', 'edge' or 'none'.

    Cyrus-Beck clipping against the hexagon's six edges in exact integer arithmetic:
    the bounds on t are kept as fractions (numerator, positive denominator).
    """
    lo_n, lo_d = 0, 1
    hi_n, hi_d = 1, 1
    on_edge_line = False
    vs = _vertices(h)
    for i in range(6):
        vx, vy = vs[i]
        wx, wy = vs[(i + 1) % 6]
        ex, ey = wx - vx, wy - vy
        k = ex * (ay - vy) - ey * (ax - vx)  # cross(e, A - v)
        m = ex * dy - ey * dx  # cross(e, D)
        if m == 0:
            if k < 0:
                return "none"
            if k == 0:
                on_edge_line = True
            continue
        # the constraint k + t*m >= 0 bounds t by -k/m
        tn, td = (-k, m) if m > 0 else (k, -m)
        if m > 0:
            if tn * lo_d > lo_n * td:
                lo_n, lo_d = tn, td
        elif tn * hi_d < hi_n * td:
            hi_n, hi_d = tn, td
        if lo_n * hi_d > hi_n * lo_d:
            return "none"
    if lo_n * hi_d < hi_n * lo_d and not on_edge_line:
        return "through"
    return "edge"


@cache
def _line_cells_geometry(a: Hex, b: Hex, cells: tuple[Hex, ...]) -> LineCells:
    ax, ay = a[0], 3 * a[1]
    dx, dy = b[0] - a[0], 3 * (b[1] - a[1])
    xmin, xmax = min(a[0], b[0]) - 2, max(a[0], b[0]) + 2
    rmin, rmax = min(a[1], b[1]) - 1, max(a[1], b[1]) + 1
    through: list[Hex] = []
    left: list[Hex] = []
    right: list[Hex] = []
    for h in cells:
        if h in (a, b) or not (xmin <= h[0] <= xmax and rmin <= h[1] <= rmax):
            continue
        kind = _contact(h, ax, ay, dx, dy)
        if kind == "through":
            through.append(h)
        elif kind == "edge":
            side = dx * (3 * h[1] - ay) - dy * (h[0] - ax)
            (left if side > 0 else right).append(h)
    return LineCells(tuple(through), tuple(left), tuple(right))


def _line_cells(board: HexBoard, a: Hex, b: Hex) -> LineCells:
    if a not in board or b not in board:
        raise ValueError(f"line: {a} or {b} is not on the board")
    return _line_cells_geometry(a, b, board.cells)


def parse_hex_list(board: HexBoard, text: str) -> list[Hex]:
    """``'B1 D1, F3'`` -> hexes."""
    return [board.parse(p) for p in text.replace(",", " ").split()]


__all__ = ["DIRECTIONS", "Hex", "HexBoard", "LineCells", "parse_hex_list", "FormatError"]
