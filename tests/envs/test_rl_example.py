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
