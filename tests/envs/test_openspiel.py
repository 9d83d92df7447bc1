"""OpenSpiel: every game registered, random games to the end, MCTSBot through a battle."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import kassen.envs.openspiel as ko
from kassen.envs.actions import env_games

CASES = [("cc-samurai", {}), ("cc-samurai-zvezda", {}), ("clans", {}), ("clans", {"scenario": "3-players-beginners"}),
         ("clans", {"scenario": "4-players-teams"}), ("honourable-victory", {})]


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    for gid in env_games():
        assert ko.short_name(gid) in names
    assert ko.short_name("cc-samurai") == "python_kassen_cc_samurai"
    t = pyspiel.load_game("python_kassen_cc_samurai").get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game("python_kassen_clans").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize(("gid", "params"), CASES)
def test_random_simulation_to_the_end(gid, params):
    game = pyspiel.load_game(ko.short_name(gid), {**params, "seed": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    n = game.num_players()
    while not state.is_terminal():
        p = state.current_player()
        assert 0 <= p < n
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        assert len(state.observation_tensor(p)) == game.observation_tensor_size()
        state.apply_action(int(rng.choice(legal)))
    ret = state.returns()
    assert len(ret) == n and all(-1 <= r <= 1 for r in ret)
    assert state.kassen_state.result() is not None
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(ret) == 0
    for p in range(n):
        assert state.information_state_string(p).startswith(f"player {p} after {state.move_number()} actions")


@pytest.mark.parametrize("name", ["python_kassen_clans", "python_kassen_honourable_victory"])
def test_openspiel_own_random_sim_test(name):
    """OpenSpiel's consistency checks (clones, observations, strings) on a whole game."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=False, verbose=False)


def test_initial_states_take_successive_seeds_and_clones_do_not():
    game = pyspiel.load_game("python_kassen_cc_samurai", {"seed": 5})
    a = game.new_initial_state()
    a.legal_actions()
    b = a.clone()
    b.apply_action(b.legal_actions()[0])
    c = game.new_initial_state()
    c.legal_actions()
    assert a._seed == 5 * 1000003 and c._seed == 5 * 1000003 + 1
    assert b.history() != a.history() and a.move_number() == 0


def test_information_state_has_perfect_recall_and_hides_the_other_hand():
    game = pyspiel.load_game("python_kassen_cc_samurai", {"seed": 1})
    s = game.new_initial_state()
    for _ in range(6):
        s.apply_action(s.legal_actions()[0])
    other = s.resample_from_infostate(0, lambda: 0.25)
    assert other.history() == s.history()
    assert other.kassen_state.to_json()["hands"][1] != s.kassen_state.to_json()["hands"][1]
    assert other.observation_string(0) == s.observation_string(0)
    assert np.array_equal(other.observation_tensor(0), s.observation_tensor(0))
    assert other.observation_string(1) != s.observation_string(1)
    # two paths to the same observation are different information states
    t = game.new_initial_state()
    assert t.information_state_string(0) != s.information_state_string(0)


def test_mcts_bot_plays_a_whole_battle():
    game = pyspiel.load_game("python_kassen_cc_samurai", {"seed": 1})
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=ko.heuristic_evaluator(),
                         random_state=np.random.RandomState(p)) for p in range(2)]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        p = state.current_player()
        action = bots[p].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert state.kassen_state.result() is not None
    assert sorted(state.returns()) == [-1.0, 1.0]
    assert moves > 100


def test_information_set_mcts_searches_on_resampled_states():
    """OpenSpiel's Python IS-MCTS keys its tree by information_state_string and samples
    worlds with resample_from_infostate: a whole clan game."""
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("python_kassen_clans", {"seed": 1})
    bot = ismcts.ISMCTSBot(game, ko.heuristic_evaluator(), 2.0, 10, random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.kassen_state.result() is not None
