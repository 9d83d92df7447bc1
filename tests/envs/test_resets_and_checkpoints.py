"""Resets, concession, checkpoints and your own policies (issue 34: D1-D3, D5, items 3-4)."""

from __future__ import annotations

import copy
import json
import pickle
import warnings

import gymnasium
import numpy as np
import pytest

import kassen.envs as ke
from kassen.ai.players import Player, RandomPlayer
from kassen.envs.policy import PolicyPlayer


def _deal(env) -> str:
    raw = env.unwrapped
    return json.dumps(raw.match.state.to_json(), sort_keys=True)


def _first(obs, _info=None) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def _play(env, n: int) -> None:
    for _ in range(n):
        if not env.agents:
            return
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else _first(obs))


# -- D1: resets -----------------------------------------------------------------------------------
def test_aec_reset_without_a_seed_deals_a_new_game_and_a_seed_replays_exactly():
    env = ke.aec_env("cc-samurai")
    deals = []
    for seed in (7, None, None):
        env.reset(seed=seed)
        deals.append(_deal(env))
    assert len(set(deals)) == 3  # reset(seed=7); reset(); reset(): three deals
    again = []
    for seed in (7, None, None):
        env.reset(seed=seed)
        again.append(_deal(env))
    assert again == deals  # the generator is seeded by reset(seed=7): the same sequence


def test_aec_env_seed_is_the_first_reset_only():
    env = ke.aec_env("clans", "2-players", seed=5)
    env.reset()
    first = env.unwrapped.match.seed
    env.reset()
    assert first == 5 and env.unwrapped.match.seed != 5


@pytest.mark.parametrize("gid", ["cc-samurai", "clans"])
def test_pettingzoo_and_gymnasium_play_the_same_games_for_the_same_seeds(gid):
    aec = ke.aec_env(gid)
    gym = gymnasium.make(f"kassen/{gid}-v0", opponent="random")
    got_aec, got_gym = [], []
    for seed in (11, None, None, 3, None):
        aec.reset(seed=seed)
        gym.reset(seed=seed)
        got_aec.append(aec.unwrapped.match.seed)
        got_gym.append(gym.unwrapped.match.seed)
    assert got_aec == got_gym and len(set(got_aec)) == 5


# -- D2, D3: concession ---------------------------------------------------------------------------
def test_gymnasium_reset_never_returns_a_finished_game():
    """With concession allowed (concede=True) the random opponent sometimes concedes on its first
    move; reset deals again from the env's generator instead of returning a finished game."""
    redealt = 0
    for seed in range(30):
        env = gymnasium.make("kassen/honourable-victory-v0", opponent="random", concede=True)
        obs, _info = env.reset(seed=seed)
        raw = env.unwrapped
        assert not raw.match.state.is_terminal() and raw.match.state.to_move() == raw.seat
        assert obs["action_mask"].any()
        redealt += raw.match.seed != seed
    assert redealt > 0  # the case happened in this range


def test_an_honourable_victory_env_forbids_conceding_by_default():
    """Option concede=False (ruling H23) is the envs' default: no concede in the mask, ever;
    concede=True gives it back."""
    env = ke.aec_env("honourable-victory", seed=3)
    env.reset()
    index = ke.action_index("honourable-victory")
    concede = index.index("concede")
    rng = np.random.default_rng(3)
    for agent in env.agent_iter(3000):
        obs, _r, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert "concede" not in info["legal_actions"] and obs["action_mask"][concede] == 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent
    allowed = ke.aec_env("honourable-victory", seed=3, concede=True)
    allowed.reset()
    for _ in range(400):
        if "concede" in allowed.infos[allowed.agent_selection].get("legal_actions", []):
            break
        _play(allowed, 1)
    assert "concede" in allowed.infos[allowed.agent_selection]["legal_actions"]


# -- D5 / item 3: pickling and deep copies --------------------------------------------------------
CASES = [("cc-samurai", None), ("clans", "3-players-beginners"), ("honourable-victory", None)]


@pytest.mark.parametrize(("gid", "scenario"), CASES)
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_the_aec_env_checkpoints_and_goes_on_identically(gid, scenario, how):
    env = ke.aec_env(gid, scenario)
    env.reset(seed=9)
    _play(env, 40)
    twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    assert twin.agent_selection == env.agent_selection and twin.infos == env.infos
    for e in (env, twin):
        _play(e, 60)
    assert _deal(twin) == _deal(env)
    if env.agents:
        assert np.array_equal(twin.observe(twin.agent_selection)["observation"],
                              env.observe(env.agent_selection)["observation"])
    for e in (env, twin):  # the env's generator came along: the next reset() deals the same game
        e.reset()
    assert _deal(twin) == _deal(env)


def test_an_aec_env_pickles_before_reset():
    env = pickle.loads(pickle.dumps(ke.aec_env("clans", "2-players", seed=4)))
    env.reset()
    assert env.unwrapped.match.seed == 4


@pytest.mark.parametrize(("gid", "opponent"), [("cc-samurai", "greedy"), ("clans", "random"),
                                               ("honourable-victory", "random")])
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_the_gymnasium_env_checkpoints_and_goes_on_identically(gid, opponent, how):
    env = gymnasium.make(f"kassen/{gid}-v0", opponent=opponent)
    obs, _ = env.reset(seed=5)
    for _ in range(10):
        obs, *_rest = env.step(_first(obs))
    twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    outs = []
    for e in (env, twin):
        o = obs
        for _ in range(15):
            o, _r, term, trunc, _i = e.step(_first(o))
            if term or trunc:
                break
        outs.append((_deal(e), e.action_space.sample()))
        e.reset()  # the env's generator came along too
        outs.append(_deal(e))
    assert outs[:2] == outs[2:]


def test_a_vector_env_runs_the_gymnasium_env_in_subprocesses():
    """Gymnasium's AsyncVectorEnv pickles the env's maker into worker processes."""
    envs = gymnasium.vector.AsyncVectorEnv([lambda: gymnasium.make("kassen.envs:kassen/clans-v0", opponent="random")] * 2,
                                           context="spawn")
    try:
        obs, _ = envs.reset(seed=[1, 2])
        assert obs["observation"].shape[0] == 2
        acts = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
        obs, reward, term, trunc, _ = envs.step(np.array(acts))
        assert reward.shape == (2,)
    finally:
        envs.close()


# -- item 4: your own policies as opponents -------------------------------------------------------
def test_gymnasium_opponent_may_be_a_callable_policy():
    seen = []

    def policy(obs, info):
        seen.append((info["seat"], int(obs["action_mask"].sum()), len(info["legal_actions"])))
        return int(np.flatnonzero(obs["action_mask"])[-1])

    env = gymnasium.make("kassen/clans-v0", opponent=policy, seat=1)
    obs, _ = env.reset(seed=2)
    for _ in range(5):
        obs, _r, term, _t, _i = env.step(_first(obs))
        if term:
            break
    assert seen and all(s == 0 and n == k > 0 for s, n, k in seen)


def test_gymnasium_opponent_may_be_a_kassen_player():
    class Last(Player):
        name = "last"

        def __init__(self) -> None:
            self.calls = 0

        def choose(self, state, seat):
            self.calls += 1
            return state.legal_actions()[-1]

    me = Last()
    env = gymnasium.make("kassen/cc-samurai-v0", opponent=me, seat=1)
    env.reset(seed=1)
    assert me.calls > 0 and env.unwrapped.match.state.to_move() == 1
    env2 = gymnasium.make("kassen/cc-samurai-v0", opponent=RandomPlayer(3))
    env2.reset(seed=1)


def test_a_bad_opponent_is_named():
    from kassen.engine.errors import KassenError

    with pytest.raises(KassenError, match="opponent must be"):
        gymnasium.make("kassen/clans-v0", opponent=3)
    with pytest.raises(KassenError, match="unknown player"):
        gymnasium.make("kassen/clans-v0", opponent="nobody")


def test_a_policy_player_refuses_an_unmasked_action():
    from kassen.engine.errors import KassenError
    from kassen.rulesets.registry import load_game

    st = load_game("clans").new_state("2-players", 1)
    p = PolicyPlayer(lambda obs, info: int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    with pytest.raises(KassenError, match="not legal now"):
        p.choose(st, st.to_move())
    good = PolicyPlayer(_first)
    assert good.choose(st, st.to_move()) in st.legal_actions()


def test_warnings_are_not_raised_by_checkpoints():
    env = ke.aec_env("clans", "2-players")
    env.reset(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pickle.loads(pickle.dumps(env))


# -- D7: the fast mask ------------------------------------------------------------------------------
@pytest.mark.parametrize("gid", ["cc-samurai", "clans", "honourable-victory"])
def test_the_legal_integers_and_the_bool_view_are_the_mask(gid):
    env = ke.aec_env(gid, seed=1)
    env.reset()
    gym = gymnasium.make(f"kassen/{gid}-v0", opponent="random")
    gobs, ginfo = gym.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(80):
        obs, _r, term, trunc, info = env.last()
        if term or trunc:
            break
        mask = obs["action_mask"]
        fast = mask.view(bool)  # no copy: the same bytes, read as bool
        assert fast.dtype == np.bool_ and np.shares_memory(fast, mask)
        assert sorted(info["legal_ints"]) == np.flatnonzero(fast).tolist()
        index = env.unwrapped.match.index
        assert info["legal_ints"] == [index.encode(info["legal_actions"])[a] for a in info["legal_actions"]]
        env.step(int(rng.choice(info["legal_ints"])))
    assert sorted(ginfo["legal_ints"]) == np.flatnonzero(gobs["action_mask"]).tolist()
    assert len(ginfo["legal_actions"]) == len(ginfo["legal_ints"]) > 0


# -- item 2: decisions with a single legal action ---------------------------------------------------
def _random_game(env, seed: int, cap: int = 4000) -> list[int]:
    """A seeded random game through the AEC env; the number of legal actions at each agent step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    counts = []
    for _agent in env.agent_iter(cap):
        obs, _r, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = info["legal_ints"]
        assert sorted(legal) == list(np.flatnonzero(obs["action_mask"].view(bool)))
        counts.append(len(legal))
        env.step(legal[int(rng.integers(len(legal)))])
    return counts


@pytest.mark.parametrize("gid, forced", [("cc-samurai", True), ("clans", True), ("honourable-victory", False)])
def test_skip_single_plays_the_forced_decisions_and_the_game_is_the_same(gid, forced):
    """skip_single=True: no agent is asked a decision with one legal action (a pass-only Dragon
    window, R32, in C&C); those actions are played by the env and kept in the history, and
    replaying that history without the option gives the same game. (An Honourable Victory!
    without concession had no forced decision in these games.)"""
    skip, plain = ke.aec_env(gid, skip_single=True), ke.aec_env(gid)
    skipped = 0
    for seed in range(3):
        counts = _random_game(skip, seed)
        assert counts and min(counts) >= 2
        m = skip.unwrapped.match
        assert m.state.is_terminal()
        skipped += len(m.history) - len(counts)
        plain.reset(seed=seed)
        pm = plain.unwrapped.match
        for text in m.history:
            pm.play(pm.ints()[pm.legal().index(text)])
        assert pm.state.to_json() == m.state.to_json()
    assert (skipped > 0) == forced


def test_skip_single_is_off_by_default():
    """Without the option every decision of the rules is an agent step, forced ones too."""
    env = ke.aec_env("cc-samurai")
    assert min(min(_random_game(env, seed)) for seed in range(3)) == 1


def test_skip_single_checkpoints_and_goes_on_identically():
    env = ke.aec_env("cc-samurai", skip_single=True)
    env.reset(seed=4)
    _play(env, 150)
    copy_ = pickle.loads(pickle.dumps(env))
    assert copy_.unwrapped.match.history == env.unwrapped.match.history
    for _ in range(200):
        if not env.agents:
            break
        (o1, r1, t1, u1, i1), (o2, r2, t2, u2, i2) = env.last(), copy_.last()
        assert np.array_equal(o1["observation"], o2["observation"]) and (r1, t1, u1) == (r2, t2, u2)
        assert i1 == i2 and (t1 or u1 or len(i1["legal_ints"]) >= 2)
        a = None if t1 or u1 else i1["legal_ints"][-1]
        env.step(a)
        copy_.step(a)


def test_gymnasium_skip_single():
    env = gymnasium.make("kassen/cc-samurai-v0", opponent="random", skip_single=True)
    _obs, info = env.reset(seed=2)
    for _ in range(300):
        assert len(info["legal_ints"]) >= 2
        _obs, _r, term, trunc, info = env.step(info["legal_ints"][0])
        if term or trunc:
            break


@pytest.mark.parametrize("gid", ["cc-samurai", "clans"])
def test_skip_single_passes_the_pettingzoo_and_gymnasium_checks(gid):
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(ke.aec_env(gid, seed=2, skip_single=True), num_cycles=3000)
        seed_test(lambda: ke.aec_env(gid, skip_single=True), num_cycles=300)
        check_env(gymnasium.make(f"kassen/{gid}-v0", opponent="random", skip_single=True).unwrapped)
