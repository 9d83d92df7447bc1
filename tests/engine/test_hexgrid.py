"""Hex geometry of C&C boards: metric, neighbours, notation, line of sight."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.engine.errors import FormatError
from kassen.engine.hexgrid import DIRECTIONS, HexBoard, _line_cells

BOARD = HexBoard()
hexes = st.sampled_from(BOARD.cells)


def test_board_is_12_wide_11_deep_with_half_hexes_on_short_rows():
    assert BOARD.rows == 11
    for r in range(11):
        row = BOARD.row_hexes(r)
        if r % 2 == 0:
            assert len(row) == 12 and not any(BOARD.is_half(h) for h in row)
        else:
            assert len(row) == 13
            assert [BOARD.is_half(h) for h in row].count(True) == 2
    assert len(BOARD.cells) == 6 * 12 + 5 * 13


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    d = BOARD.distance
    assert d(a, a) == 0
    assert (d(a, b) == 0) == (a == b)
    assert d(a, b) == d(b, a)
    assert d(a, c) <= d(a, b) + d(b, c)


@given(hexes)
def test_neighbours_are_at_distance_one(h):
    ns = BOARD.neighbours(h)
    assert 2 <= len(ns) <= 6
    assert all(BOARD.distance(h, n) == 1 for n in ns)
    assert set(ns) == {c for c in BOARD.cells if BOARD.distance(h, c) == 1}


@given(hexes)
def test_notation_round_trips(h):
    assert BOARD.parse(BOARD.name(h)) == h
    assert BOARD.parse(BOARD.name(h).lower()) == h


@pytest.mark.parametrize("bad", ["", "B", "1B", "A1", "B12", "Z3", "C0", "B1x"])
def test_bad_hex_names_are_refused_with_a_reason(bad):
    with pytest.raises(FormatError, match="is not a hex"):
        BOARD.parse(bad)


@settings(max_examples=300)
@given(hexes, hexes, st.frozensets(hexes, max_size=40))
def test_line_of_sight_is_symmetric(a, b, blocked):
    def obstructs(h):
        return h in blocked

    assert BOARD.line_of_sight(a, b, obstructs) == BOARD.line_of_sight(b, a, obstructs)


@given(hexes, hexes)
def test_line_never_includes_its_end_hexes_and_adjacent_lines_are_empty(a, b):
    cells = BOARD.line(a, b)
    everything = cells.through + cells.left + cells.right
    assert a not in everything and b not in everything
    if BOARD.distance(a, b) <= 1:
        assert everything == ()
    # every hex the line crosses lies between the two ends
    for h in cells.through:
        assert BOARD.distance(a, h) + BOARD.distance(h, b) <= BOARD.distance(a, b) + 1


def P(name):
    return BOARD.parse(name)


def sight(a, b, blocked):
    s = {P(n) for n in blocked}
    return BOARD.line_of_sight(P(a), P(b), lambda h: h in s)


def test_los_straight_row_blocked_by_hex_in_between():
    assert BOARD.line(P("B1"), P("F1")).through == (P("D1"),)
    assert sight("B1", "F1", []) is True
    assert sight("B1", "F1", ["D1"]) is False


def test_los_target_and_firer_hexes_never_block():
    assert sight("B1", "F1", ["B1", "F1"]) is True


def test_los_along_edge_one_side_blocked_is_clear():
    cells = BOARD.line(P("B1"), P("E2"))
    assert cells.through == ()
    assert {cells.left, cells.right} == {(P("C2"),), (P("D1"),)}
    assert sight("B1", "E2", ["C2"]) is True
    assert sight("B1", "E2", ["D1"]) is True


def test_los_along_edge_both_sides_blocked_is_blocked():
    assert sight("B1", "E2", ["C2", "D1"]) is False


def test_los_long_edge_line_up_a_column():
    # B1 to B5 runs along the edges of A2|C2 and A4|C4 and through the centre of B3
    cells = BOARD.line(P("B1"), P("B5"))
    assert cells.through == (P("B3"),)
    assert set(cells.left) | set(cells.right) == {P("A2"), P("C2"), P("A4"), P("C4")}
    assert sight("B1", "B5", ["A2", "A4"]) is True
    assert sight("B1", "B5", ["C2"]) is True
    assert sight("B1", "B5", ["A2", "C4"]) is False  # obstructions on both sides of the line
    assert sight("B1", "B5", ["B3"]) is False


def test_los_long_diagonal_crosses_the_right_hexes():
    # from B1 three rows up and one column right: C4 crosses C2 and B3
    assert set(BOARD.line(P("B1"), P("C4")).through) == {P("C2"), P("B3")}
    assert sight("B1", "C4", ["C2"]) is False
    assert sight("B1", "C4", ["B3"]) is False
    assert sight("B1", "C4", ["D3", "D1"]) is True


def test_los_long_shallow_diagonal():
    # B1 to N3: distance 7, a shallow line that crosses hexes of rows 1..3 only
    cells = BOARD.line(P("B1"), P("N3"))
    assert BOARD.distance(P("B1"), P("N3")) == 7
    assert all(BOARD.row(h) in (0, 1, 2) for h in cells.through)
    assert P("D1") in cells.through and P("L3") in cells.through


@pytest.mark.parametrize("width, rows", [(12, 11), (5, 4), (2, 1), (13, 9)])
def test_hexes_are_numbered_in_coordinate_order_and_listed_in_board_order(width, rows):
    """A hex is its rank by (x, r), so hexes sort, compare and take min/max as their coordinates
    would; ``cells`` lists every number once, row by row from the bottom, left to right."""
    board = HexBoard(width, rows)
    assert sorted(board.cells) == list(range(board.ncells)) == list(range(len(board)))
    coords = [board.xr(h) for h in range(board.ncells)]
    assert coords == sorted(coords) and len(set(coords)) == board.ncells
    assert [board.xr(h) for h in board.cells] == sorted(coords, key=lambda xr: (xr[1], xr[0]))
    assert [board.board_order(h) for h in board.cells] == list(range(board.ncells))
    for h in board.cells:
        x, r = board.xr(h)
        assert (board.x(h), board.row(h)) == (x, r)
        assert board.at(x, r) == h
        assert board.name(h) == f"{chr(ord('A') + x)}{r + 1}"
        assert (x % 2 == 1) == (r % 2 == 0)  # full rows odd x, short rows even x
    assert board.row_hexes(0) == list(board.cells[:width])


def test_at_is_none_off_the_board_and_between_hexes():
    assert BOARD.at(0, 0) is None  # row 1 is full: A1 is no hex
    assert BOARD.at(1, 1) is None  # row 2 is short: its hexes have even x
    assert BOARD.at(-1, 0) is None and BOARD.at(25, 0) is None and BOARD.at(24, 0) is None
    assert BOARD.at(1, -1) is None and BOARD.at(1, 11) is None
    assert BOARD.at(24, 1) == P("Y2") and BOARD.is_half(P("Y2"))  # the right half-hex of row 2
    assert BOARD.at(23, 10) == P("X11")


def test_only_the_boards_numbers_are_hexes():
    assert 0 in BOARD and BOARD.ncells - 1 in BOARD
    assert -1 not in BOARD and BOARD.ncells not in BOARD and (1, 0) not in BOARD and "B1" not in BOARD
    with pytest.raises(ValueError, match="not a hex"):
        BOARD.name(BOARD.ncells)
    with pytest.raises(ValueError, match="not a hex"):
        BOARD.name(-1)
    with pytest.raises(ValueError, match="not a hex"):
        BOARD.line(P("B1"), BOARD.ncells)


@given(hexes)
def test_neighbours_are_the_six_directions_in_order(h):
    x, r = BOARD.xr(h)
    expected = [BOARD.at(x + dx, r + dr) for dx, dr in DIRECTIONS]
    assert BOARD.neighbours(h) == [n for n in expected if n is not None]
    assert tuple(BOARD.neighbours(h)) == BOARD.nbrs[h]


@given(hexes, hexes)
def test_distance_is_the_doubled_width_formula(a, b):
    (ax, ar), (bx, br) = BOARD.xr(a), BOARD.xr(b)
    dr = abs(ar - br)
    assert BOARD.distance(a, b) == dr + max(0, (abs(ax - bx) - dr) // 2) == BOARD.dist[a * BOARD.ncells + b]


def test_distances_on_the_board():
    assert BOARD.distance(P("B1"), P("D1")) == 1
    assert BOARD.distance(P("B1"), P("C2")) == 1
    assert BOARD.distance(P("B1"), P("B3")) == 2
    assert BOARD.distance(P("B1"), P("X1")) == 11
    assert BOARD.distance(P("B1"), P("B11")) == 10
    assert BOARD.distance(P("A2"), P("Y2")) == 12


@given(hexes, st.integers(0, 4))
def test_within_lists_the_hexes_in_reach_in_board_order(h, n):
    assert BOARD.within(h, n) == [c for c in BOARD.cells if 0 < BOARD.distance(h, c) <= n]


def test_the_c_and_c_tables_are_the_boards_facts_by_hex():
    from kassen.rulesets.cc_samurai.board import (
        BOARD_ORDER,
        DIST,
        IS_HALF,
        NAMES,
        NBRS,
        NCELLS,
        OUT2,
        ROWS,
        board,
    )

    b = board()
    assert NCELLS == b.ncells == 6 * 12 + 5 * 13
    for h in range(NCELLS):
        assert NAMES[h] == b.name(h) and ROWS[h] == b.row(h) and IS_HALF[h] == b.is_half(h)
        assert BOARD_ORDER[h] == b.board_order(h)
        assert NBRS[h] == tuple(b.neighbours(h))
        assert set(OUT2[h]) == set(NBRS[h])
        for n, far in OUT2[h].items():
            assert set(far) == {c for c in NBRS[n] if b.distance(h, c) == 2}
        assert all(DIST[h * NCELLS + c] == b.distance(h, c) for c in range(NCELLS))


@given(hexes, hexes)
@settings(max_examples=300)
def test_the_line_back_kept_with_a_line_equals_its_own_computation(a, b):
    """``line(a, b)`` also keeps the line from ``b`` to ``a`` (the same hexes, sides swapped): it is
    the one the geometry computes for that direction."""
    board = HexBoard()
    board.line(a, b)
    assert board.line(b, a) == _line_cells(board, b, a)
    assert board.line(a, b) == _line_cells(board, a, b)
