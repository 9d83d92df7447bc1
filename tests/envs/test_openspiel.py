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
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC  # the dice: the state's own seed
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


@pytest.mark.parametrize(("gid", "params"), [("clans", {}), ("clans", {"scenario": "4-players-teams"}),
                                             ("honourable-victory", {}),
                                             ("cc-samurai", {"max_game_length": 300}),
                                             ("cc-samurai-zvezda", {"max_game_length": 300})])
def test_openspiel_own_random_sim_test_with_serialization(gid, params):
    """OpenSpiel's consistency checks (clones, observations, strings, and serialize/deserialize at
    moves 1-10 and every power of two) on a whole game (C&C cut at 300 moves, for time)."""
    pyspiel.random_sim_test(pyspiel.load_game(ko.short_name(gid), params), num_sims=1, serialize=True,
                            verbose=False)


def test_a_state_is_fixed_when_it_is_made_and_clones_share_its_deal():
    """issue 34, D4: clones of a state not yet looked at are the same deal, and the k-th new game's
    seed does not depend on how many clones were made before it."""
    game = pyspiel.load_game("python_kassen_clans", {"seed": 2})
    root = game.new_initial_state()
    clones = [root.clone() for _ in range(3)]
    texts = {s.observation_string(0) for s in [root, *clones]}
    assert len(texts) == 1
    before = root.observation_string(1)
    nxt = game.new_initial_state()
    nxt.legal_actions()  # another game starts: the first one does not change
    assert root.observation_string(1) == before and nxt.observation_string(1) != before
    assert (root._seed, nxt._seed) == (2 * 1000003, 2 * 1000003 + 1)
    fresh = pyspiel.load_game("python_kassen_clans", {"seed": 2})
    fresh.new_initial_state()
    assert fresh.new_initial_state()._seed == nxt._seed


@pytest.mark.parametrize("gid", env_games())
def test_games_and_states_pickle_deep_copy_and_serialize(gid):
    """issue 34, D5: through the seed and the action history."""
    import copy
    import pickle

    game = pyspiel.load_game(ko.short_name(gid), {"seed": 4})
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    for _ in range(25):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    g2 = pickle.loads(pickle.dumps(game))
    assert str(g2) == str(game) and g2.new_initial_state()._seed == game.new_initial_state()._seed
    twins = [pickle.loads(pickle.dumps(state)), copy.deepcopy(state),
             pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
             game.deserialize_state(state.serialize())]
    for t in twins:
        assert t.history() == state.history() and str(t) == str(state)
        assert t.kassen_state.to_json() == state.kassen_state.to_json()
        p = state.current_player() if not state.is_terminal() else 0
        assert t.observation_string(p) == state.observation_string(p)
        assert t.information_state_string(p) == state.information_state_string(p)
        if not state.is_terminal():
            a = state.legal_actions()[-1]
            assert t.child(a).kassen_state.to_json() == state.child(a).kassen_state.to_json()


@pytest.mark.parametrize("gid", env_games())
def test_observation_tensor_is_the_reference_encoders(gid):
    """issue 34, D6: the tensor comes from the fast observer; the JSON encoder is the reference."""
    from open_spiel.python.observation import make_observation

    from kassen.envs.tensors import observe

    game = pyspiel.load_game(ko.short_name(gid), {"seed": 6})
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    state = game.new_initial_state()
    rng = np.random.default_rng(6)
    for _ in range(60):
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            want = observe(state.kassen_state, p)
            got = state.observation_tensor(p)
            assert isinstance(got, np.ndarray) and got.dtype == np.float32
            assert np.array_equal(got, want)
            assert np.array_equal(np.asarray(pyspiel.State.observation_tensor(state, p), np.float32), want)
            obs.set_from(state, p)
            assert np.array_equal(obs.tensor, want)
        state.apply_action(int(rng.choice(state.legal_actions())))


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


def test_one_observer_for_every_adapter():
    """issue 34, item 2: PettingZoo, Gymnasium and OpenSpiel write a seat's tensor with the same
    observer, straight from the state (the JSON encoder is the tests' reference only)."""
    import gymnasium

    import kassen.envs as ke
    from kassen.envs.fast import Observer

    game = pyspiel.load_game("python_kassen_clans", {"seed": 8})
    state = game.new_initial_state()
    aec = ke.aec_env("clans")
    aec.reset(seed=1)
    gym = gymnasium.make("kassen/clans-v0").unwrapped
    assert type(game.observer) is type(aec.unwrapped.match.observer) is type(gym.match.observer) is Observer
    rng = np.random.default_rng(8)
    for _ in range(20):
        if state.is_terminal():
            break
        for m in (aec.unwrapped.match, gym.match):
            m.state = state.kassen_state
            for p in range(game.num_players()):
                assert np.array_equal(m.observe(p), state.observation_tensor(p))
        state.apply_action(int(rng.choice(state.legal_actions())))
