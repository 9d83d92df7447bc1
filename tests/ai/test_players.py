"""AI players: legal, reproducible, and blind to what their seat may not see."""

from __future__ import annotations

import json

import pytest

from kassen.ai.players import make_player
from kassen.ai.search import GreedyPlayer, MCTSPlayer
from kassen.ai.series import run_series, summarize, wilson
from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game

GAME = load_game("cc-samurai")


def _mid_game_state(seed: int = 4, plies: int = 40):
    s = GAME.new_state(None, seed)
    rng = Rng(seed)
    for _ in range(plies):
        s = s.apply(rng.choice(s.legal_actions()))
    return s


def _with_other_hidden_information(s, seat: int):
    """The same position for ``seat``, but the opponent holds other cards and the decks and dice differ."""
    t = s.clone()
    opp = 1 - seat
    t.hands[opp][0], t.cmd_deck[0] = t.cmd_deck[0], t.hands[opp][0]
    t.cmd_deck.reverse()
    t.dr_deck.reverse()
    from kassen.engine.rng import Rng as R

    t.rng = R(123456789)
    assert json.dumps(t.observation(seat), sort_keys=True) == json.dumps(s.observation(seat), sort_keys=True)
    assert t.hands[opp] != s.hands[opp]
    return t


@pytest.mark.parametrize("factory", [lambda: GreedyPlayer(5, samples=2, depth=6), lambda: MCTSPlayer(5, iterations=40, depth=10)])
def test_ai_cannot_read_the_opponents_hand_or_the_deck(factory):
    s = _mid_game_state()
    seat = s.to_move()
    other = _with_other_hidden_information(s, seat)
    # same observation, same seed: the hidden cards and the real dice cannot change the choice
    assert factory().choose(s, seat) == factory().choose(other, seat)


def test_determinize_keeps_what_the_seat_sees_and_resamples_the_rest():
    s = _mid_game_state()
    seat = s.to_move()
    d = s.determinize(seat, Rng(1))
    assert d.observation(seat)["hand"] == s.observation(seat)["hand"]
    assert d.observation(seat)["board"] == s.observation(seat)["board"]
    assert sorted(d.hands[1 - seat] + d.cmd_deck) == sorted(s.hands[1 - seat] + s.cmd_deck)
    assert d.rng != s.rng


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_players_choose_legal_actions(name):
    s = _mid_game_state(seed=7, plies=25)
    player = make_player(name, 3)
    if name == "mcts":
        player.iterations = 30
    for _ in range(6):
        if s.is_terminal():
            break
        seat = s.to_move()
        a = player.choose(s, seat)
        assert a in s.legal_actions()
        s = s.apply(a)


def test_battle_series_statistics_add_up():
    results = run_series("cc-samurai", None, ["random", "random"], games=2, seed=1, swap=True)
    st = summarize(results, GAME.seats)
    assert st.games == 2
    assert sum(st.wins_by_seat.values()) + st.draws + st.unfinished == 2
    assert sum(st.wins_by_player.values()) == sum(st.wins_by_seat.values())
    assert results[1]["players"] == ["random", "random"]


def test_wilson_interval_contains_the_rate_and_narrows_with_more_games():
    lo, hi = wilson(30, 60)
    lo2, hi2 = wilson(300, 600)
    assert lo < 0.5 < hi and lo2 < 0.5 < hi2 and (hi2 - lo2) < (hi - lo)


def test_series_counts_both_partners_of_a_winning_team():
    from kassen.ai.series import GameSpec, play_one

    r = play_one(GameSpec("clans", "4-players-teams", ("random", "random", "greedy", "greedy"), 3))
    seats = ("Kamiwashi", "Hondo", "Yasei", "Jozu")
    if r["winner_seat"] is None:
        assert r["winner_seats"] == []
    else:
        assert r["winner_seats"] in ([0, 2], [1, 3])
    st = summarize([r, {**r, "winner_seat": 1, "winner_seats": [1, 3]}], seats)
    assert st.wins_by_seat["Hondo"] >= 1 and st.wins_by_seat["Jozu"] >= 1
    assert sum(st.wins_by_seat.values()) == len(r["winner_seats"]) + 2


def test_playouts_never_concede_while_anything_else_is_legal():
    from kassen.ai.search import playout_policy
    from kassen.engine.rng import Rng

    rng = Rng(1)
    picks = {playout_policy(GAME.new_state(None, 1), ["concede", "end", "S1 move"], rng) for _ in range(200)}
    assert "concede" not in picks and picks <= {"end", "S1 move"}
    assert playout_policy(GAME.new_state(None, 1), ["concede"], rng) == "concede"
