"""The C&C Samurai battlefield: geometry, sections and the pieces on it."""

from __future__ import annotations

from typing import NamedTuple

from kassen.engine.hexgrid import Hex, HexBoard

SIDE_NAMES = ("red", "blue")

#: Section lines in doubled-width x: between the 4th and 5th hex of full rows and
#: through the 5th and 9th hex (counting the half-hex as 1st) of short rows.
#: See docs/rulings.md, "Board sections".
LEFT_LINE = 8
RIGHT_LINE = 16


class Unit(NamedTuple):
    uid: str
    type: str
    side: int
    blocks: int


class Leader(NamedTuple):
    lid: str
    kind: str  # foot | mounted | commander
    side: int


_BOARD = HexBoard(12, 11)


def board() -> HexBoard:
    """The 12 x 11 battlefield (shared, immutable)."""
    return _BOARD


def sections_of(h: Hex, side: int, bottom: int) -> frozenset[str]:
    """The sections ``h`` belongs to, from the point of view of ``side``'s player.

    The bottom player's left is the low-x edge; the top player faces the other
    way, so his left is the high-x edge. A hex cut by a dotted line is in both.

    >>> sorted(sections_of(board().at(8, 1), 0, 0))
    ['center', 'left']
    >>> sorted(sections_of(board().at(8, 1), 1, 0))
    ['center', 'right']
    """
    key = (h, side, bottom)
    got = _SECTIONS.get(key)
    if got is None:
        got = _SECTIONS[key] = _sections(h, side, bottom)
    return got


_SECTIONS: dict[tuple[Hex, int, int], frozenset[str]] = {}


def _sections(h: Hex, side: int, bottom: int) -> frozenset[str]:
    x = _BOARD.x(h)
    out: set[str] = set()
    if x <= LEFT_LINE:
        out.add("left")
    if LEFT_LINE <= x <= RIGHT_LINE:
        out.add("center")
    if x >= RIGHT_LINE:
        out.add("right")
    # full-row hexes never sit on a line (x odd), short-row hexes at 8 / 16 do
    if side != bottom:
        swap = {"left": "right", "right": "left", "center": "center"}
        out = {swap[s] for s in out}
    return frozenset(out)


# -- tables of the one shared battlefield, built once and indexed by the hex (a hex is its
# number on the board: hexgrid.Hex), so the hot loops read a tuple instead of calling the board
#: every hex, 0 .. NCELLS - 1 (``range(NCELLS)``; ``board().cells`` lists them in board order)
NCELLS = _BOARD.ncells
#: hex -> its notation
NAMES: tuple[str, ...] = tuple(_BOARD.name(h) for h in range(NCELLS))
#: hex -> its row (0: the bottom baseline)
ROWS: tuple[int, ...] = tuple(_BOARD.row(h) for h in range(NCELLS))
#: hex -> its neighbours on the battlefield, in ``HexBoard.neighbours`` order (never copied)
NBRS: tuple[tuple[Hex, ...], ...] = _BOARD.nbrs
#: hex -> a side half-hex?
IS_HALF: tuple[bool, ...] = tuple(_BOARD.is_half(h) for h in range(NCELLS))
#: the distance from ``a`` to ``b`` at ``a * NCELLS + b`` (``HexBoard.dist``)
DIST: tuple[int, ...] = _BOARD.dist
#: hex -> its index in board order (by row, then column): the sort key of ``HexBoard.board_order``
BOARD_ORDER: tuple[int, ...] = tuple(_BOARD.board_order(h) for h in range(NCELLS))
#: hex -> {a neighbour -> the neighbour's neighbours at distance 2 of the hex}: all that a search
#: from the hex can newly reach in its second step (the hex and its neighbours are decided
#: in the first one, for good)
OUT2: tuple[dict[Hex, tuple[Hex, ...]], ...] = tuple(
    {n: tuple(c for c in NBRS[n] if _BOARD.distance(h, c) == 2) for n in NBRS[h]} for h in range(NCELLS))
#: hex -> the sections the hex belongs to as bits (left 1, center 2, right 4), from the point of view
#: of the bottom player (``[0]``) and of the top one (``[1]``): ``sections_of`` in a small integer
SECTION_MASK: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(sum(bit for name, bit in (("left", 1), ("center", 2), ("right", 4)) if name in sections_of(h, side, 0))
          for h in range(NCELLS))
    for side in (0, 1))
