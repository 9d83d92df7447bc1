"""PettingZoo's API test and Gymnasium's env checker, for every game."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import kassen.envs as ke
from kassen.envs.actions import env_games

CASES = [("cc-samurai", None), ("cc-samurai-zvezda", None), ("clans", None), ("clans", "3-players-beginners"),
         ("clans", "4-players-teams"), ("honourable-victory", None)]


@pytest.mark.parametrize(("gid", "scenario"), CASES)
def test_pettingzoo_api(gid, scenario):
    env = ke.aec_env(gid, scenario, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=3000)


@pytest.mark.parametrize(("gid", "scenario"), CASES)
def test_aec_game_to_the_end(gid, scenario):
    env = ke.aec_env(gid, scenario, seed=7)
    env.reset()
    rng = np.random.default_rng(7)
    finals = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            finals[agent] = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(info["legal_actions"]) > 0
        env.step(int(rng.choice(np.flatnonzero(mask))))
    raw = env.unwrapped
    assert raw.match.state.is_terminal()
    assert set(finals) == set(raw.possible_agents)
    assert all(r in (-1.0, 0.0, 1.0) for r in finals.values())


@pytest.mark.parametrize("gid", env_games())
def test_pettingzoo_seed_test(gid):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: ke.aec_env(gid), num_cycles=50)


def test_same_seed_same_game():
    def play(seed):
        env = ke.aec_env("cc-samurai", seed=seed)
        env.reset()
        out = []
        for _ in range(60):
            obs = env.observe(env.agent_selection)
            a = int(np.flatnonzero(obs["action_mask"])[-1])
            out.append(a)
            env.step(a)
        return out, env.observe(env.agent_selection)["observation"]

    a1, o1 = play(3)
    a2, o2 = play(3)
    assert a1 == a2 and np.array_equal(o1, o2)


@pytest.mark.parametrize("gid", env_games())
def test_gymnasium_ids_are_registered_and_checked(gid):
    assert ke.GYM_IDS[gid] == f"kassen/{gid}-v0"
    env = gymnasium.make(f"kassen/{gid}-v0", opponent="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize(("gid", "scenario", "seat"), [("cc-samurai", None, 1), ("clans", "4-players-teams", 2),
                                                       ("honourable-victory", None, 0)])
def test_gymnasium_episode_against_random(gid, scenario, seat):
    env = gymnasium.make(f"kassen/{gid}-v0", opponent="random", seat=seat, scenario=scenario)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    done = False
    reward = 0.0
    while not done:
        assert env.unwrapped.match.state.to_move() == seat
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, term, trunc, info = env.step(a)
        assert "illegal_action" not in info
        done = term or trunc
    assert reward in (-1.0, 0.0, 1.0)


def test_gymnasium_against_the_greedy_ai():
    env = gymnasium.make("kassen/cc-samurai-v0", opponent="greedy")
    obs, info = env.reset(seed=1)
    for _ in range(12):
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not term
    assert env.unwrapped.players[1].name == "greedy"


def test_gymnasium_illegal_action():
    env = gymnasium.make("kassen/clans-v0", opponent="random")
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = env.step(bad)
    assert (reward, term, info["illegal_action"]) == (-1.0, True, bad)
    strict = gymnasium.make("kassen/clans-v0", opponent="random", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(Exception, match="not legal"):
        strict.step(bad)


def test_the_action_spaces_are_seeded_by_reset_when_first_sampled():
    """reset(seed) seeds each agent's action space (applied at its first sample: seeding costs
    as much as a few clan-game decisions): samples as those of a space made with that seed."""
    from gymnasium import spaces

    env = ke.aec_env("clans", "2-players")
    for seed in (5, 6, 5):
        env.reset(seed=seed)
        agent = env.agent_selection
        n = env.action_space(agent).n
        got = [int(env.action_space(agent).sample()) for _ in range(4)]
        want = spaces.Discrete(n, seed=seed)
        assert got == [int(want.sample()) for _ in range(4)]
    env.action_space(agent).seed(11)  # an explicit seed wins over the one of the reset
    assert int(env.action_space(agent).sample()) == int(spaces.Discrete(n, seed=11).sample())


def test_numpy_integers_are_taken_everywhere():
    """Seeds, actions, step limits and iterator lengths may be numpy integers (a policy's argmax):
    the compiled core takes Python ints, so the env converts them."""
    env = ke.aec_env("cc-samurai", max_steps=np.int64(6))
    env.reset(seed=np.int64(4))
    steps = 0
    for _agent in env.agent_iter(np.int64(50)):
        obs, _r, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 6
    g = gymnasium.make("kassen/cc-samurai-v0", seat=np.int64(0))
    obs, _ = g.reset(seed=2)  # Gymnasium itself wants a Python int seed
    g.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
