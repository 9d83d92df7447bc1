"""Hex geometry of Commands & Colors boards.

The board has rows of alternating length: *full* rows of ``width`` hexes, and
*short* rows of ``width - 1`` hexes with a half-hex at each side edge. Row 0 (the
bottom baseline) is full; so is the top row when the row count is odd.

Coordinates are *doubled-width*: a hex sits at ``(x, r)`` with ``r`` the row from the
bottom and ``x`` the horizontal position in half-hex steps. Full rows use odd
``x`` (1, 3, ... 2*width-1); short rows use even ``x`` (0, 2, ... 2*width), and
``x == 0`` or ``x == 2*width`` are the side half-hexes.

A hex is a small ``int`` (:data:`Hex`): its rank among the board's hexes sorted by
``(x, r)``, so hexes sort, compare and take ``min``/``max`` as their coordinates would.
``cells`` lists them in board order (row by row from the bottom, left to right), the
order every listing of the board keeps. Hex 0 is a hex (``A2``): test a ``Hex | None``
with ``is None``, never by its truth.

Notation: the letter of ``x`` (A = 0, B = 1, ...) then the row number from 1, so
the bottom-left full hex is ``B1`` and the half-hex at the left of row 2 is ``A2``.
In a terminal drawing the letters stand exactly above the hex centres.

>>> b = HexBoard()
>>> b.parse("A2"), b.parse("B1"), b.parse("B3")
(0, 5, 6)
>>> b.xr(b.parse("B1"))
(1, 0)
>>> b.name(b.at(2, 1))
'C2'
>>> b.at(0, 0) is None  # row 1 is full: there is no A1
True
>>> [b.name(h) for h in b.cells[:3]]
['B1', 'D1', 'F1']
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

from kassen.engine.errors import FormatError

#: a hex of a :class:`HexBoard`: its index among the board's hexes sorted by ``(x, r)``
Hex = int

#: neighbour offsets in doubled-width coordinates, ``(dx, dr)``
DIRECTIONS: tuple[tuple[int, int], ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


@dataclass(frozen=True)
class LineCells:
    """The hexes strictly between two centres that a straight line meets, in board order.

    ``through``: hexes whose interior the line crosses.
    ``left`` / ``right``: hexes the line only touches on their boundary (running
    along an edge or grazing a corner), by the side of the line they lie on.
    """

    through: tuple[Hex, ...]
    left: tuple[Hex, ...]
    right: tuple[Hex, ...]


def _row_xs(width: int, r: int) -> range:
    """The doubled-width x of the hexes of row ``r``, left to right."""
    return range(1, 2 * width, 2) if r % 2 == 0 else range(0, 2 * width + 1, 2)


class HexBoard:
    """Geometry of a C&C board: ``width`` hexes in a full row, ``rows`` rows.

    Every fact is a table indexed by the hex, built once: coordinates, names, half-hexes,
    board order, neighbours and the distance between any two hexes (``dist``, flat:
    ``dist[a * ncells + b]``)."""

    def __init__(self, width: int = 12, rows: int = 11) -> None:
        if width < 2 or rows < 1 or width * 2 > 26:
            raise ValueError("board must be 2..13 hexes wide with at least one row")
        self.width = width
        self.rows = rows
        coords = sorted((x, r) for r in range(rows) for x in _row_xs(width, r))
        n = self.ncells = len(coords)
        #: hex -> x, hex -> row
        self._xs: tuple[int, ...] = tuple(x for x, _ in coords)
        self._rs: tuple[int, ...] = tuple(r for _, r in coords)
        #: ``r * span + x`` -> the hex there, -1 where there is none
        self._span = span = 2 * width + 1
        grid = [-1] * (span * rows)
        for h, (x, r) in enumerate(coords):
            grid[r * span + x] = h
        self._grid: tuple[int, ...] = tuple(grid)
        #: the hexes in board order: row by row from the bottom, each left to right
        self.cells: tuple[Hex, ...] = tuple(grid[r * span + x] for r in range(rows) for x in _row_xs(width, r))
        order = [0] * n
        for i, h in enumerate(self.cells):
            order[h] = i
        #: hex -> its index in ``cells``
        self._order: tuple[int, ...] = tuple(order)
        self._names: tuple[str, ...] = tuple(f"{chr(ord('A') + x)}{r + 1}" for x, r in coords)
        self._parsed: dict[str, Hex] = {name: h for h, name in enumerate(self._names)}
        self._half: tuple[bool, ...] = tuple(r % 2 == 1 and x in (0, 2 * width) for x, r in coords)
        #: hex -> its neighbours, in ``DIRECTIONS`` order
        self.nbrs: tuple[tuple[Hex, ...], ...] = tuple(
            tuple(grid[(r + dr) * span + x + dx] for dx, dr in DIRECTIONS
                  if 0 <= r + dr < rows and 0 <= x + dx < span and grid[(r + dr) * span + x + dx] >= 0)
            for x, r in coords)
        #: the distance from ``a`` to ``b`` (hex steps) at ``a * ncells + b``
        self.dist: tuple[int, ...] = tuple(_steps(ax, ar, bx, br) for ax, ar in coords for bx, br in coords)
        #: ``line(a, b)`` at ``a * ncells + b``, computed on first use
        self._lines: list[LineCells | None] = [None] * (n * n)
        #: ``within(h, k)`` at ``k * ncells + h``
        self._within: dict[int, tuple[Hex, ...]] = {}

    # -- basic facts -------------------------------------------------------
    def __contains__(self, h: object) -> bool:
        return type(h) is int and 0 <= h < self.ncells

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.cells)

    def __len__(self) -> int:
        return self.ncells

    def x(self, h: Hex) -> int:
        """The doubled-width column of ``h``."""
        return self._xs[h]

    def row(self, h: Hex) -> int:
        """The row of ``h`` from the bottom (0 is the bottom baseline)."""
        return self._rs[h]

    def xr(self, h: Hex) -> tuple[int, int]:
        """``(x, r)``: the doubled-width coordinates of ``h``."""
        return self._xs[h], self._rs[h]

    def at(self, x: int, r: int) -> Hex | None:
        """The hex at doubled-width ``(x, r)``, None off the board (or between two hexes)."""
        if 0 <= r < self.rows and 0 <= x < self._span:
            h = self._grid[r * self._span + x]
            if h >= 0:
                return h
        return None

    def board_order(self, h: Hex) -> int:
        """The index of ``h`` in ``cells``: a sort key by row, then column."""
        return self._order[h]

    def is_full_row(self, r: int) -> bool:
        return r % 2 == 0

    def is_half(self, h: Hex) -> bool:
        """True for the half-hexes at the side edges of short rows."""
        return self._half[h]

    def row_hexes(self, r: int) -> list[Hex]:
        """The hexes of row ``r``, left to right."""
        return [h for h in self.cells if self._rs[h] == r]

    # -- notation ----------------------------------------------------------
    def name(self, h: Hex) -> str:
        """``5`` (at ``(1, 0)``) -> ``'B1'``; ``ValueError`` for a number that is no hex."""
        if 0 <= h < self.ncells:
            return self._names[h]
        raise ValueError(f"{h} is not a hex of this board (0..{self.ncells - 1})")

    def parse(self, text: str) -> Hex:
        """``'B1'`` -> its hex; raises ``FormatError`` naming what is wrong."""
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
        got = self.at(x, r)
        if got is None:
            letters = " ".join(self.name(c)[0] for c in self.row_hexes(r))
            kind = "full" if self.is_full_row(r) else "short"
            raise FormatError(f"{text!r} is not a hex: row {r + 1} is a {kind} row, its columns are {letters}")
        return got

    # -- adjacency and distance -------------------------------------------
    def neighbours(self, h: Hex) -> list[Hex]:
        """The hexes next to ``h``, in ``DIRECTIONS`` order (a new list)."""
        return list(self.nbrs[h])

    def distance(self, a: Hex, b: Hex) -> int:
        """Hex distance (number of steps)."""
        return self.dist[a * self.ncells + b]

    def within(self, h: Hex, n: int) -> list[Hex]:
        """Board hexes at distance 1..n of ``h``, in board order."""
        key = n * self.ncells + h
        got = self._within.get(key)
        if got is None:
            dist, base = self.dist, h * self.ncells
            got = self._within[key] = tuple(c for c in self.cells if 0 < dist[base + c] <= n)
        return list(got)

    # -- line of sight ------------------------------------------------------
    def line(self, a: Hex, b: Hex) -> LineCells:
        """The hexes between ``a`` and ``b`` that the centre-to-centre line meets."""
        n = self.ncells
        if not (0 <= a < n and 0 <= b < n):
            raise ValueError(f"line: {a} or {b} is not a hex of this board")
        got = self._lines[a * n + b]
        if got is None:
            got = _line_cells(self, a, b)
            self._lines[a * n + b] = got
            # the line back meets the same hexes (in board order), its sides swapped: one
            # computation for both directions (tests/engine/test_hexgrid.py checks it)
            self._lines[b * n + a] = LineCells(got.through, got.right, got.left)
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


def _steps(ax: int, ar: int, bx: int, br: int) -> int:
    """Hex distance between doubled-width ``(ax, ar)`` and ``(bx, br)``."""
    dr = abs(ar - br)
    return dr + max(0, (abs(ax - bx) - dr) // 2)


def _vertices(cx: int, cy: int) -> list[tuple[int, int]]:
    """Counter-clockwise corners of the hex centred at ``(cx, cy)`` in the (x, 3r) integer plane."""
    return [(cx, cy - 2), (cx + 1, cy - 1), (cx + 1, cy + 1), (cx, cy + 2), (cx - 1, cy + 1), (cx - 1, cy - 1)]


def _contact(cx: int, cy: int, ax: int, ay: int, dx: int, dy: int) -> str:
    """How segment A + t*D (t in [0, 1]) meets the hex centred at ``(cx, cy)`` (the (x, 3r)
    plane): 'through', 'edge' or 'none'.

    Cyrus-Beck clipping against the hexagon's six edges in exact integer arithmetic:
    the bounds on t are kept as fractions (numerator, positive denominator).
    """
    lo_n, lo_d = 0, 1
    hi_n, hi_d = 1, 1
    on_edge_line = False
    vs = _vertices(cx, cy)
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


def _line_cells(board: HexBoard, a: Hex, b: Hex) -> LineCells:
    """The geometry of ``HexBoard.line`` (uncached): the hexes near the segment, in board order,
    each clipped against it."""
    (ax, ar), (bx, br) = board.xr(a), board.xr(b)
    ay = 3 * ar
    dx, dy = bx - ax, 3 * (br - ar)
    xmin, xmax = min(ax, bx) - 2, max(ax, bx) + 2
    rmin, rmax = min(ar, br) - 1, max(ar, br) + 1
    through: list[Hex] = []
    left: list[Hex] = []
    right: list[Hex] = []
    for h in board.cells:
        hx, hr = board.xr(h)
        if h in (a, b) or not (xmin <= hx <= xmax and rmin <= hr <= rmax):
            continue
        kind = _contact(hx, 3 * hr, ax, ay, dx, dy)
        if kind == "through":
            through.append(h)
        elif kind == "edge":
            side = dx * (3 * hr - ay) - dy * (hx - ax)
            (left if side > 0 else right).append(h)
    return LineCells(tuple(through), tuple(left), tuple(right))


def parse_hex_list(board: HexBoard, text: str) -> list[Hex]:
    """``'B1 D1, F3'`` -> hexes."""
    return [board.parse(p) for p in text.replace(",", " ").split()]


__all__ = ["DIRECTIONS", "Hex", "HexBoard", "LineCells", "parse_hex_list", "FormatError"]
