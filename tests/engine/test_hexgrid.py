"""Hex geometry of C&C boards: metric, neighbours, notation, line of sight."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.engine.errors import FormatError
from kassen.engine.hexgrid import HexBoard, _line_cells_geometry

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
    assert all(h[1] in (0, 1, 2) for h in cells.through)
    assert P("D1") in cells.through and P("L3") in cells.through


def test_every_hex_handed_out_is_one_of_the_boards_own_tuples():
    """Hexes are dict keys on every rule step: handing out the board's own tuple objects lets a
    look-up find its key by identity (the compiled build keeps hexes as these objects)."""
    own = {id(h) for h in BOARD.cells}
    for h in BOARD.cells:
        assert id(BOARD.parse(BOARD.name(h))) in own
        assert id(BOARD.parse(BOARD.name(h).lower())) in own  # the slow path too
        assert all(id(n) in own for n in BOARD.neighbours(h))
        assert all(id(n) in own for n in BOARD.within(h, 2))


def test_the_c_and_c_tables_hold_the_boards_own_hexes():
    from kassen.rulesets.cc_samurai.board import CANON, NBRS, OUT2, board

    b = board()
    own = {id(h) for h in b.cells}
    assert all(id(CANON[h]) in own and CANON[h] == h for h in b.cells)
    assert CANON.get((0, 0)) is None  # off the board (row 1 is full: A1 is no hex)
    for h, ns in NBRS.items():
        assert id(h) in own and all(id(n) in own for n in ns)
        assert set(OUT2[h]) == set(ns)
        for n, far in OUT2[h].items():
            assert all(id(c) in own and BOARD.distance(h, c) == 2 for c in far)
            assert set(far) == {c for c in NBRS[n] if BOARD.distance(h, c) == 2}


@given(hexes, hexes)
@settings(max_examples=300)
def test_the_line_back_kept_with_a_line_equals_its_own_computation(a, b):
    """``line(a, b)`` also keeps the line from ``b`` to ``a`` (the same hexes, sides swapped): it is
    the one the geometry computes for that direction."""
    board = HexBoard()
    board.line(a, b)
    assert board.line(b, a) == _line_cells_geometry(b, a, board.cells)
    assert board.line(a, b) == _line_cells_geometry(a, b, board.cells)
