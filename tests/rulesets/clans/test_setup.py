"""Set-up (002:15-124): clans, seats and the Battlefields for each number of players."""

from __future__ import annotations

import pytest

from kassen.engine.errors import FormatError
from kassen.rulesets.clans.data import TILES
from kassen.rulesets.clans.state import card_type
from tests.rulesets.clans.helpers import GAME, play


def vp(tile: str) -> int:
    return GAME.new_state().table.vp(tile)


def pairs(s) -> dict[frozenset[int], list[int]]:
    out: dict[frozenset[int], list[int]] = {}
    for tile, (a, b) in zip(s.tiles, s.sides):
        out.setdefault(frozenset((a, b)), []).append(vp(tile))
    return out


def test_each_clan_has_its_lord_and_twelve_army_cards():
    s = GAME.new_state("4-players-beginners", 1)
    for hand in s.hands:
        assert len(hand) == 13
        kinds = sorted(card_type(c) for c in hand)
        assert kinds.count("lord") == 1 and kinds.count("peasant") == 4
        assert len(set(hand)) == 13
    assert len({c for h in s.hands for c in h}) == 52


def test_seat_names_are_the_clans_playing_in_seat_order():
    """C1: the first clans of the rulebook's list by default; the option picks others."""
    assert GAME.new_state("2-players", 1).seat_names() == ("Kamiwashi", "Hondo")
    assert GAME.new_state("3-players-beginners", 1).seat_names() == ("Kamiwashi", "Hondo", "Yasei")
    s = GAME.new_state("2-players", 1, clans="jozu,Hondo")
    assert s.seat_names() == ("Jozu", "Hondo")
    assert GAME.seats == ("Kamiwashi", "Hondo", "Yasei", "Jozu")


def test_unknown_scenario_clan_or_option_is_a_format_error():
    with pytest.raises(FormatError, match="5-players"):
        GAME.new_state("5-players", 1)
    with pytest.raises(FormatError, match="clans"):
        GAME.new_state("2-players", 1, clans="hondo,hondo")
    with pytest.raises(FormatError, match="clans"):
        GAME.new_state("2-players", 1, clans="hondo,oda")
    with pytest.raises(FormatError, match="colour"):
        GAME.new_state("2-players", 1, colour="red")


@pytest.mark.parametrize("seed", range(5))
def test_two_players_draw_two_battlefields_of_each_stack_at_random(seed):
    """C4: 4 Battlefields between the two players, two from each stack, drawn at random."""
    s = GAME.new_state("2-players", seed)
    assert s.phase == "deploy" and s.to_move() == 0
    assert sorted(vp(t) for t in s.tiles) == [4, 4, 6, 6]
    assert all(set(side) == {0, 1} for side in s.sides)
    assert len(set(s.tiles)) == 4


def test_two_player_battlefields_depend_on_the_seed_only():
    draws = {tuple(GAME.new_state("2-players", seed).tiles) for seed in range(10)}
    assert len(draws) > 5
    assert GAME.new_state("2-players", 3).tiles == GAME.new_state("2-players", 3).tiles


@pytest.mark.parametrize("scenario,n", [("3-players-beginners", 3), ("4-players-beginners", 4)])
def test_beginners_draw_one_four_and_one_six_vp_battlefield_between_each_pair_of_neighbours(scenario, n):
    """C5: the beginners' tiles are drawn at random: two between each pair of neighbours."""
    s = GAME.new_state(scenario, 7)
    assert s.phase == "deploy"
    got = pairs(s)
    assert set(got) == {frozenset((i, (i + 1) % n)) for i in range(n)}
    assert all(sorted(v) == [4, 6] for v in got.values())
    for seat in range(n):
        assert len([t for t, side in zip(s.tiles, s.sides) if seat in side]) == 4


def test_experienced_players_choose_from_players_plus_one_four_vp_tiles_oldest_first_clockwise():
    """002:110-120, C2-C3: the 4-VP tiles are drawn face up; seat 0, then clockwise, places
    one between himself and the player to his left (the next seat)."""
    s = GAME.new_state("3-players-experienced", 5)
    assert s.phase == "draft" and len(s.offer) == 4
    assert all(vp(t) == 4 for t in s.offer)
    assert s.legal_actions() == [f"choose {t}" for t in sorted(s.offer)]
    order = []
    for _ in range(3):
        order.append(s.to_move())
        pick = s.legal_actions()[-1].split()[1]
        s = s.apply(f"choose {pick}")
        assert s.tiles[-1] == pick and s.sides[-1] == (order[-1], (order[-1] + 1) % 3)
    assert order == [0, 1, 2]


def test_experienced_six_vp_round_starts_with_the_last_chooser_counter_clockwise_between_you_and_your_right():
    """002:69-91, C3: then players + 1 six-VP tiles; the last chooser begins, counter-clockwise,
    each placing his tile between himself and the player to his right; the rest go back."""
    s = GAME.new_state("4-players-experienced", 2)
    for _ in range(4):
        s = s.apply(s.legal_actions()[0])
    assert len(s.offer) == 5 and all(vp(t) == 6 for t in s.offer)
    assert any(e.kind == "return" for e in s.events)
    order = []
    for _ in range(4):
        seat = s.to_move()
        order.append(seat)
        s = s.apply(s.legal_actions()[0])
        assert s.sides[-1] == (seat, (seat - 1) % 4)
    assert order == [3, 2, 1, 0]
    assert s.phase == "deploy" and s.offer == [] and len(s.tiles) == 8
    got = pairs(s)
    assert all(sorted(v) == [4, 6] for v in got.values())
    assert any(e.kind == "return" for e in s.events)


def test_team_variant_partners_sit_opposite_and_fight_only_opponents():
    """002:95-105, C6: partners opposite (seats 0 and 2, 1 and 3); they never share a Battlefield."""
    s = GAME.new_state("4-players-teams", 3)
    assert s.teams and s.partner(0) == 2 and s.partner(3) == 1
    while s.phase == "draft":
        s = s.apply(s.legal_actions()[0])
    for a, b in s.sides:
        assert (a - b) % 2 == 1
    assert len(s.tiles) == 8


def test_all_ten_battlefield_tiles_exist_five_of_each_value():
    assert sorted(vp(t) for t in TILES) == [4] * 5 + [6] * 5


def test_experienced_choice_is_the_players_not_the_engine():
    s = GAME.new_state("3-players-experienced", 9)
    first, last = s.legal_actions()[0], s.legal_actions()[-1]
    assert play(s, first).tiles != play(s, last).tiles
