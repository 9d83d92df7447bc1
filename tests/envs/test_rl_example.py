"""The learning baseline's env wrapper (issue 34, item 5: ``examples/masked_ppo.py``).

Only the wrapper is tested (its mask, its observations, the Wilson interval, a game on a fixed
seed): no training, no torch call. Skipped without the ``rl`` extra (sb3-contrib)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the rl extra (pip install -e '.[rl]') is not installed")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "masked_ppo.py"


def _module():
    spec = importlib.util.spec_from_file_location("kassen_masked_ppo_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


ex = _module()


@pytest.mark.parametrize("preset", ["clans", "skirmish"])
def test_mask_is_the_legal_actions_and_the_observation_the_tensor(preset):
    cfg = ex.PRESETS[preset]
    env = ex.make_env(cfg["game"], cfg["scenario"], "random")
    raw = env.unwrapped
    obs, info = env.reset(seed=5)
    for _ in range(6):
        assert obs.dtype == np.float32 and obs.shape == env.observation_space.shape
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(info["legal_ints"])
        assert np.array_equal(mask, raw._obs()["action_mask"].view(bool))
        assert len(info["legal_ints"]) >= 2  # skip_single: the learner is only asked real choices
        obs, _, terminated, truncated, info = env.step(info["legal_ints"][-1])
        if terminated or truncated:
            break


def test_a_game_is_scored_from_the_learners_seat():
    env = ex.make_env("clans", "2-players", "random")
    first = ex.play(env, lambda obs, mask: int(np.flatnonzero(mask)[0]), range(3))
    assert sum(first.values()) == 3
    assert ex.play(env, lambda obs, mask: int(np.flatnonzero(mask)[0]), range(3)) == first  # fixed seeds


def test_wilson_interval_matches_newcombe_1998():
    # Newcombe (1998), Table I, method 3 (score interval without continuity correction)
    for (k, n), (lo, hi) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                             (0, 20): (0.0, 0.1611), (1, 29): (0.0061, 0.1718)}.items():
        got = ex.wilson(k, n)
        assert got == pytest.approx((lo, hi), abs=1e-4)


def test_the_wrapper_does_not_import_torch():
    code = (f"import runpy, sys; runpy.run_path({str(EXAMPLE)!r}, run_name='probe'); "
            "assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_action_slots_number_the_legal_actions_and_play_them():
    slots = ex.ActionSlots(4096)
    env = ex.make_env("cc-samurai", None, "random", slots=slots)
    twin = ex.make_env("cc-samurai", None, "random", slots=slots)  # shares the table
    plain = ex.make_env("cc-samurai", None, "random")
    assert env.action_space.n == 4096 and plain.action_space.n > 30_000
    obs, info = env.reset(seed=11)
    pobs, pinfo = plain.reset(seed=11)
    twin.reset(seed=12)
    for _ in range(40):
        mask = env.action_masks()
        assert mask.shape == (4096,)
        legal = np.flatnonzero(mask).tolist()
        # every legal slot stands for a legal env action, and the other way round
        assert sorted(slots.action[k] for k in legal) == sorted(pinfo["legal_ints"])
        k = legal[len(legal) // 2]
        obs, r, term, trunc, info = env.step(k)
        pobs, pr, pterm, ptrunc, pinfo = plain.step(slots.action[k])  # the same game, step by step
        assert np.array_equal(obs, pobs) and (r, term) == (pr, pterm)
        if term:
            break
    assert all(slots.slot[a] == k for k, a in enumerate(slots.action))
    before = len(slots.action)
    twin_legal = np.flatnonzero(twin.action_masks()).tolist()
    assert max(twin_legal) < len(slots.action) and len(slots.action) == before


def test_action_slots_full_is_a_clear_error():
    slots = ex.ActionSlots(3)
    env = ex.make_env("cc-samurai", None, "random", slots=slots)
    with pytest.raises(RuntimeError, match="all 3 are taken and action .* is new: raise the preset"):
        for s in range(5):
            env.reset(seed=s)
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(ValueError, match="at least 2"):
        ex.ActionSlots(1)


def test_banner_shaping_is_potential_based_and_scoring_ignores_it():
    """With gamma = 1 the shaping rewards of a whole game add up to nothing (no banners at the
    start, a potential of 0 once the game is over): the shaped return is the game's reward."""
    env = ex.make_env("cc-samurai", None, "random", shaping=0.5, gamma=1.0)
    plain = ex.make_env("cc-samurai", None, "random")
    obs, _ = env.reset(seed=3)
    plain.reset(seed=3)
    total, shaped_steps, final = 0.0, 0, None
    for _ in range(20_000):
        a = int(np.flatnonzero(env.action_masks())[0])
        obs, r, term, trunc, info = env.step(a)
        _, pr, pterm, _, _ = plain.step(a)
        assert info["env_reward"] == pr and term == pterm
        total += r
        shaped_steps += r != pr
        if term:
            final = pr
            break
    assert final in (-1.0, 1.0)
    assert shaped_steps > 0  # banners changed hands during the game
    assert total == pytest.approx(final)
    first = lambda obs, mask: int(np.flatnonzero(mask)[0])  # noqa: E731
    assert ex.play(env, first, range(3, 4)) == ex.play(plain, first, range(3, 4))


def test_shaping_a_game_without_a_potential_is_refused():
    with pytest.raises(ValueError, match="no potential for the game 'clans'"):
        ex.make_env("clans", "2-players", "random", shaping=0.5)


def test_factor_chooses_an_action_in_two_steps_and_plays_the_same_game():
    """Two learner steps make one action (``move E5`` then ``F6``); the game is the same as
    playing that action's integer in the plain env, and the second step's observation names the
    prefix chosen."""
    slots = ex.ActionSlots(2048)
    env = ex.make_env("cc-samurai", None, "random", slots=slots, factor=True)
    plain = ex.make_env("cc-samurai", None, "random")
    n = plain.observation_space.shape[0]
    assert env.observation_space.shape == (n + 2048,)
    obs, _ = env.reset(seed=21)
    pobs, pinfo = plain.reset(seed=21)
    rng = np.random.default_rng(0)
    halves = wholes = 0
    for _ in range(300):
        legal_env = plain.unwrapped.match.legal()
        mask = env.action_masks()
        keys = [str(slots.action[k]) for k in np.flatnonzero(mask)]
        if keys[0].startswith("2 "):  # one prefix only: straight to the last word
            assert len({a.rsplit(" ", 1)[0] for a in legal_env}) == 1
        else:
            # first step: the one-word actions and the prefixes of the others, each once
            want = {("1 " + a) if " " not in a else ("1 " + a.rsplit(" ", 1)[0] + " _") for a in legal_env}
            assert sorted(keys) == sorted(want)
        k = int(rng.choice(np.flatnonzero(mask)))
        key = str(slots.action[k])
        obs, r, term, trunc, info = env.step(k)
        if info.get("half"):
            halves += 1
            prefix = key[2:-2]
            assert obs[:n].tolist() == pobs.tolist() and obs[n + k] == 1 and obs[n:].sum() == 1
            second = [str(slots.action[j]) for j in np.flatnonzero(env.action_masks())]
            assert sorted(second) == sorted("2 " + a.rsplit(" ", 1)[1] for a in legal_env
                                            if a.rsplit(" ", 1)[0] == prefix)
            j = int(rng.choice(np.flatnonzero(env.action_masks())))
            action = prefix + " " + str(slots.action[j])[2:]
            obs, r, term, trunc, info = env.step(j)
        elif key.startswith("2 "):
            action = legal_env[0].rsplit(" ", 1)[0] + " " + key[2:]
        else:
            wholes += 1
            action = key[2:] if not key.endswith(" _") else next(a for a in legal_env if a.startswith(key[2:-2] + " "))
        assert action in legal_env
        pobs, pr, pterm, _, pinfo = plain.step(plain.unwrapped.match.index.index(action))
        assert obs[:n].tolist() == pobs.tolist() and (r, term) == (pr, pterm) and obs[n:].sum() == 0
        if term:
            break
    assert halves > 0 and wholes > 0
    with pytest.raises(ValueError, match="factor: needs action slots"):
        ex.make_env("cc-samurai", None, "random", factor=True)
