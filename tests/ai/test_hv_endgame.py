"""The An Honourable Victory! levels at the end of a battle: the last movement phases are
played out to the result, and spare units value the empty zones they can still reach."""

from __future__ import annotations

import json

import pytest

from kassen.ai.evaluate_games import (
    DRAW_VALUE,
    HV_ENDGAME,
    actions_to,
    hv_battle_ends_this_turn,
    hv_policy_value,
    hv_zone_margin,
    hv_zone_policy,
    zones_within_reach,
)
from kassen.ai.lookahead import HalvingPlayer
from kassen.ai.players import GAME_LEVELS, level_player
from kassen.engine.rng import Rng
from kassen.rulesets.honourable_victory.state import HVState
from kassen.rulesets.registry import load_game

#: unit -> (zone, facing N/E/S/W) of the position below; every unit on the table, none engaged
LAST_TURN = {
    "S1": ("D1", "S"), "S2": ("A2", "S"), "S3": ("C1", "S"), "S4": ("C1", "S"),
    "S5": ("A1", "S"), "S6": ("A1", "E"), "S7": ("D1", "S"),
    "N1": ("B3", "N"), "N2": ("E3", "N"), "N3": ("C3", "N"), "N4": ("C3", "N"),
    "N5": ("D3", "N"), "N6": ("D3", "N"), "N7": ("B3", "N"),
}


def _last_turn(mover: int, init: int, placing: dict[str, tuple[str, str]] = LAST_TURN) -> HVState:
    """The meeting engagement at its turn limit, ``mover``'s movement phase, ``init`` having the
    initiative: four zones each; only South's Kai Archers (S6, facing east from A1, which
    the Spear Ashigaru keep) can take another, the empty B1, without leaving one."""
    s = load_game("honourable-victory").new_state("meeting-engagement", 1).clone()
    for uid, (zone, facing) in placing.items():
        u = s.units[uid]
        u.zone, u.facing, u.status = zone, "NESW".index(facing), "table"
    s.contacts = []
    s.turn = int(s.opts["turn_limit"])
    s.init, s.mover, s.chosen, s.cur = init, mover, [], None
    s.pend = {"step": "move", "seat": mover}
    s._legal = None
    return s


def _play_out(s: HVState, players: dict[int, HalvingPlayer]) -> HVState:
    for _ in range(200):
        seat = s.to_move()
        if seat is None:
            break
        a = players[seat].choose(s, seat) if seat in players else hv_zone_policy(s, Rng(0))
        assert a in s.legal_actions()
        s = s.apply(a)
    return s


def test_the_position_is_a_draw_if_south_ends_its_phase():
    s = _last_turn(0, 1)
    assert hv_battle_ends_this_turn(s)
    assert (s.uncontested(0), s.uncontested(1)) == (4, 4)
    end = s.apply("end")
    res = end.result()
    assert res is not None and res.winner is None


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_endgame_search_wins_the_last_movement_phase_that_ending_it_would_draw(level):
    s = _last_turn(0, 1)
    player = level_player(level, "honourable-victory", 5)
    assert isinstance(player, HalvingPlayer) and player.endgame is HV_ENDGAME
    first = player.choose(s, 0)
    assert 0 < player.last_work <= GAME_LEVELS["honourable-victory"][level]["end_playouts"]
    assert first in s.legal_actions() and first != "end"
    end = _play_out(s, {0: player})
    res = end.result()
    assert res is not None and res.winner == 0, res


def test_the_endgame_values_the_winning_move_above_ending_the_phase():
    s = _last_turn(0, 1)
    endgame = HV_ENDGAME
    assert endgame.applies(s)
    won = endgame.value(endgame.play(s.apply("S6 move"), Rng(1)), 0)
    drawn = endgame.value(endgame.play(s.apply("end"), Rng(1)), 0)
    assert won > 0.9 and drawn == pytest.approx(0.9 * DRAW_VALUE)  # a draw: the margin is 0
    assert -0.9 < drawn < 0.0  # below the middle between a loss and a win


def test_the_endgame_search_expects_the_last_movers_replies():
    """South moves first; North, moving last, can take an empty zone of its own with its
    Echigo Horse (spare in B3, two actions: a turn and a move into B2). Played out by the
    searches of both sides the battle does not end in North's favour."""
    s = _last_turn(0, 0)
    player = level_player("normal", "honourable-victory", 7)
    assert isinstance(player, HalvingPlayer)
    end = _play_out(s, {0: player, 1: level_player("normal", "honourable-victory", 8)})  # type: ignore[dict-item]
    res = end.result()
    assert res is not None and res.winner != 1, res


def _same_choice_whatever_the_dice(s: HVState, seed: int, dice: int) -> None:
    """``s`` and a copy whose future dice differ (``Rng(dice)``) look the same to South, and
    normal (seeded ``seed``) chooses the same in both."""
    t = s.clone()
    t.events = s.events
    t.rng = Rng(dice)
    assert json.dumps(t.observation(0), sort_keys=True) == json.dumps(s.observation(0), sort_keys=True)
    assert t.to_json() != s.to_json()
    a = level_player("normal", "honourable-victory", seed).choose(s, 0)
    b = level_player("normal", "honourable-victory", seed).choose(t, 0)
    assert a == b


def test_the_endgame_search_does_not_see_the_dice():
    _same_choice_whatever_the_dice(_last_turn(0, 1), 3, 424242)


def test_the_zone_policy_takes_the_free_zone_and_the_margin_counts_general_retreat():
    s = _last_turn(0, 1)
    assert hv_zone_margin(s, 0) == 0.0
    assert hv_zone_policy(s, Rng(1)) == "S6 move"
    after = s.apply("S6 move")
    assert hv_zone_margin(after, 0) == 1.0 and hv_zone_margin(after, 1) == -1.0
    worse = after.clone()
    for uid in ("S1", "S3", "S4", "S7"):  # four of seven off the table: in general retreat
        worse.units[uid].status = "routed"
    assert hv_zone_margin(worse, 0) < -50


def test_actions_to_a_zone_count_moves_and_turns():
    s = _last_turn(0, 1)
    assert actions_to(s, 0, 1, 1, False, "B1") == 1  # A1 facing east: one move
    assert actions_to(s, 0, 1, 2, False, "B1") == 2  # facing south: a turn first
    assert actions_to(s, 0, 1, 1, False, "B2") == 3  # a move, a turn, a move
    assert actions_to(s, 0, 1, 3, False, "B2") == 4  # two turns
    assert actions_to(s, 0, 1, 2, True, "A3") == 3  # defensive: a change of formation sets the facing
    assert actions_to(s, 0, 1, 0, False, "A1") == 0


def test_spare_units_reach_empty_zones_sooner_when_they_face_them():
    s = _last_turn(0, 1)
    s.turn = 8
    facing = zones_within_reach(s)
    away = s.clone()
    away.units["S6"].facing = "NESW".index("W")
    assert zones_within_reach(away)[0] < facing[0]
    assert facing[1] > 0  # North's stacked units reach empty zones too
    lone = s.clone()
    lone.units["S6"].zone = "B1"  # no longer spare: it holds a zone of its own
    assert zones_within_reach(lone)[0] < facing[0]
    s.turn = int(s.opts["turn_limit"])
    s.mover, s.init = 1, 0  # South's last movement phase is over: nothing is within reach
    assert zones_within_reach(s)[0] == 0.0


def test_a_side_one_unit_short_of_general_retreat_fears_any_rout():
    from kassen.ai import evaluate_games

    s = _last_turn(0, 1)
    s.turn = 6
    for uid in ("S3", "S4", "S7"):  # three of South's seven in reserve: four on the table, three off
        s.units[uid].status, s.units[uid].zone = "reserve", "C0"
    assert evaluate_games.rout_chance(s, 0, {}) == 0.0
    s.units["S6"].stands, s.units["S6"].hits = 3, 4  # two stands lost next: one left, it routs
    assert evaluate_games.rout_chance(s, 0, {}) == pytest.approx(1.0)
    feared, hoped = evaluate_games.evaluate_hv(s, 0), evaluate_games.evaluate_hv(s, 1)
    fearless = {**evaluate_games.load_hv_weights(), "retreat_danger": 0.0}
    assert feared < evaluate_games.evaluate_hv(s, 0, fearless) - 0.3
    assert hoped > evaluate_games.evaluate_hv(s, 1, fearless) + 0.3  # and North hopes for it


def test_the_optional_horizon_stops_a_playout_when_the_movement_phase_is_over():
    """No game's spec sets a horizon by default (a trial did worse); the mechanism still works."""
    from kassen.ai.evaluate_games import hv_own_movement
    from kassen.ai.lookahead import play_until
    from kassen.rulesets.registry import get

    assert get("honourable-victory").ai.horizon is None
    s = _last_turn(0, 0)
    s.turn = 5  # South moves first, North after
    assert hv_own_movement(s, 0) and not hv_own_movement(s, 1)
    after = s.apply("end")  # North's movement phase begins
    assert not hv_own_movement(after, 0)
    # a playout of South's "end": with the horizon it stops at once, without it North's phase is played
    assert play_until(after, 0, Rng(1), 50, lambda t: not hv_own_movement(t, 0)) is after
    rest = play_until(after, 0, Rng(1), 500)
    assert rest is not after and (rest.is_terminal() or rest.to_move() == 0)
    player = HalvingPlayer(3, playouts=30, depth=30, until_mine=1, horizon=hv_own_movement)
    assert player.choose(s, 0) in s.legal_actions() and 0 < player.last_work <= 30


def _turn_before_last(mover: int, init: int, placing: dict[str, tuple[str, str]] = LAST_TURN) -> HVState:
    s = _last_turn(mover, init, placing)
    s.turn -= 1
    return s


def test_the_endgame_search_covers_the_turn_before_last_with_its_dice_to_come():
    from kassen.ai.evaluate_games import ENDGAME_TURNS, hv_endgame_applies

    assert ENDGAME_TURNS == 2
    endgame = HV_ENDGAME
    last, before = _last_turn(0, 1), _turn_before_last(0, 1)
    assert endgame.applies(last) and not endgame.chancy(last)
    assert endgame.applies(before) and endgame.chancy(before) and not hv_battle_ends_this_turn(before)
    earlier = _turn_before_last(0, 1)
    earlier.turn -= 1
    assert not hv_endgame_applies(earlier)
    # a play-out from the turn before last goes through the last turn to the result
    end = endgame.play(before.apply("end"), Rng(3))
    assert end.result() is not None and end.turn == int(before.opts["turn_limit"])


def test_before_the_last_turn_the_zone_policy_readies_a_spare_unit_to_take_a_zone_next_turn():
    """The Kai Archers (S6, spare in A1) face west, away from the empty B1: on foot they cannot
    turn and move in one phase. In the last turn nothing gains a zone (South ends its phase);
    the turn before, turning them towards B1 is worth more than ending the phase, and the
    policy readies South's units: its zones within reach grow."""
    placing = dict(LAST_TURN)
    placing["S6"] = ("A1", "W")
    placing["S1"] = ("E1", "S")  # the mounted Red Riders hold E1 alone: no spare horse
    last = _last_turn(0, 1, placing)
    assert {hv_zone_policy(last, Rng(k)) for k in range(4)} == {"end"}
    before = _turn_before_last(0, 1, placing)
    assert hv_policy_value(before.apply("S6 turn E"), 0) > hv_policy_value(before, 0) + 0.5
    for k in range(4):
        a = hv_zone_policy(before, Rng(k))
        assert a != "end"
        assert zones_within_reach(before.apply(a))[0] > zones_within_reach(before)[0] + 0.5, a


def test_before_the_last_turn_the_shortlist_gives_the_endgame_a_few_candidates(monkeypatch):
    s = _turn_before_last(0, 1)
    player = level_player("normal", "honourable-victory", 4)
    assert isinstance(player, HalvingPlayer) and player.shortlist == 8
    judged: set[str] = set()
    ending = player._ending

    def spy(state, seat, action, seed):
        judged.add(action)
        return ending(state, seat, action, seed)

    monkeypatch.setattr(player, "_ending", spy)
    a = player.choose(s, 0)
    assert a in s.legal_actions() and a in judged
    assert 1 < len(judged) <= 8
    assert player.last_work <= player.playouts + player.end_playouts
    assert player.last_work > player.playouts  # both budgets were spent


def test_the_endgame_search_of_the_turn_before_last_does_not_see_the_dice():
    _same_choice_whatever_the_dice(_turn_before_last(0, 1), 9, 777)


def test_a_spare_unit_threatens_a_zone_the_other_side_holds_alone(monkeypatch):
    """The Samurai Foot (S4, spare in C1 with the Yari Ashigaru) face north into C2, which
    North's Naginata Foot hold alone: in the last movement phase S4 can contest it (one move),
    and the zones within reach count that as much as taking an empty zone."""
    from kassen.ai import evaluate_games

    placing = dict(LAST_TURN)
    placing["N4"] = ("C2", "S")
    placing["S4"] = ("C1", "N")
    s = _last_turn(0, 1, placing)
    monkeypatch.setattr(evaluate_games, "REACH_CONTESTS", True)  # an option, off by default
    threat = zones_within_reach(s)
    assert "C2" in {u.zone for u in s.on_table(1)} and s.uncontested(1) == 5
    monkeypatch.setattr(evaluate_games, "REACH_CONTESTS", False)
    assert zones_within_reach(s)[0] < threat[0] - 0.7  # C2 alone adds 0.75 (one turn away)
    worse_for_north = evaluate_games.evaluate_hv(s, 1)
    monkeypatch.setattr(evaluate_games, "REACH_CONTESTS", True)
    assert evaluate_games.evaluate_hv(s, 1) < worse_for_north
    after = s.apply("S4 move")  # contested: North's lone C2 no longer counts
    assert after.uncontested(1) == 4


@pytest.mark.parametrize("turn", [9, 11])
def test_before_the_last_turn_a_spare_unit_is_kept_rather_than_spent_on_an_empty_zone(turn):
    """The Kai Archers (S6, spare in A1 with the Spear Ashigaru) face the empty B1, one move
    away. Before the last turn, a spare one move from its zone counts more than the zone held
    (REACH_WEIGHT x 0.75 = 1.5 zones): the evaluation and the zone policy keep it; in the last
    turn only the zones held count, and the policy takes B1."""
    from kassen.ai.evaluate_games import REACH_WEIGHT, evaluate_hv

    assert REACH_WEIGHT * 0.75 > 1.0
    s = _last_turn(0, 1)
    s.turn = turn
    took = s.apply("S6 move")
    assert took.units["S6"].zone == "B1" and took.uncontested(0) == s.uncontested(0) + 1
    assert zones_within_reach(took)[0] < zones_within_reach(s)[0] - 0.7
    assert evaluate_hv(s, 0) > evaluate_hv(took, 0)
    assert hv_policy_value(s, 0) > hv_policy_value(took, 0)
    last = _last_turn(0, 1)
    assert hv_policy_value(last.apply("S6 move"), 0) == hv_policy_value(last, 0) + 1.0
