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

    >>> sorted(sections_of((8, 1), 0, 0))
    ['center', 'left']
    >>> sorted(sections_of((8, 1), 1, 0))
    ['center', 'right']
    """
    key = (h, side, bottom)
    got = _SECTIONS.get(key)
    if got is None:
        got = _SECTIONS[key] = _sections(h, side, bottom)
    return got


_SECTIONS: dict[tuple[Hex, int, int], frozenset[str]] = {}


def _sections(h: Hex, side: int, bottom: int) -> frozenset[str]:
    x = h[0]
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


# -- tables of the one shared battlefield, built once (the hot loops index them directly) --
_CELLS = _BOARD.cells
#: (x, r) -> the board's own hex tuple (the same object: dict look-ups by identity); off-board: absent
CANON: dict[Hex, Hex] = {h: h for h in _CELLS}
#: hex -> notation
NAMES: dict[Hex, str] = {h: _BOARD.name(h) for h in _CELLS}
#: hex -> its neighbours on the battlefield, in ``HexBoard.neighbours`` order (never copied)
NBRS: dict[Hex, tuple[Hex, ...]] = {h: tuple(_BOARD.neighbours(h)) for h in _CELLS}
#: the side half-hexes
HALF: frozenset[Hex] = frozenset(h for h in _CELLS if _BOARD.is_half(h))
#: hex -> {a neighbour -> the neighbour's neighbours at distance 2 of the hex}: all that a search
#: from the hex can newly reach in its second step (the hex and its neighbours are decided
#: in the first one, for good); nested, so that a look-up builds no key
OUT2: dict[Hex, dict[Hex, tuple[Hex, ...]]] = {
    h: {n: tuple(c for c in NBRS[n] if _BOARD.distance(h, c) == 2) for n in NBRS[h]} for h in _CELLS
}

# -- the same tables by a small integer id per hex (its index in ``HEXES``): the movement
# searches index lists with it instead of hashing a hex tuple at every look-up; the hexes
# themselves (state maps, actions, saves) stay tuples, converted only at the searches' edges
#: id -> hex (the board's own tuples)
HEXES: tuple[Hex, ...] = _CELLS
#: hex -> id
HEX_ID: dict[Hex, int] = {h: i for i, h in enumerate(_CELLS)}
NCELLS = len(_CELLS)
#: id -> its notation
NAME_OF: tuple[str, ...] = tuple(NAMES[h] for h in _CELLS)
#: id -> a side half-hex?
IS_HALF: tuple[bool, ...] = tuple(h in HALF for h in _CELLS)
#: id -> the ids of its neighbours (``NBRS`` order)
NBR_IDS: tuple[tuple[int, ...], ...] = tuple(tuple(HEX_ID[n] for n in NBRS[h]) for h in _CELLS)
#: id -> {a neighbour's id -> the ids of ``OUT2``}
OUT2_IDS: tuple[dict[int, tuple[int, ...]], ...] = tuple(
    {HEX_ID[n]: tuple(HEX_ID[c] for c in cs) for n, cs in OUT2[h].items()} for h in _CELLS)
#: id -> the sections the hex belongs to as bits (left 1, center 2, right 4), from the point of view
#: of the bottom player (``[0]``) and of the top one (``[1]``): ``sections_of`` in a small integer
SECTION_MASK: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(sum(bit for name, bit in (("left", 1), ("center", 2), ("right", 4)) if name in sections_of(h, side, 0))
          for h in _CELLS)
    for side in (0, 1))
