"""Throughput through the PettingZoo AEC env against the engine alone (issue 16: the env must
not be the bottleneck; target: within 1.5x of ``kassen bench`` for the same games).

    .venv/bin/python benchmarks/env_throughput.py --games 10 --seed 0 [--game cc-samurai]

Both sides play uniformly random legal actions from the same seeded generator, so the engine
plays the same games; the env side also builds every observation tensor and action mask a
PettingZoo agent would read (``env.last()`` for each agent's turn). Figures are CPU seconds.
The two are timed game by game, in turn (engine game i, env game i, ...), so that both see
the same load on a shared machine. The env is made once and reset for every game (as a
training loop uses it); making it (the action index, the encoder, the spaces) is not timed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import kassen
import kassen.envs
from kassen.rulesets.registry import load_game


def engine_game(game: str, seed: int) -> tuple[int, float]:
    g = load_game(game)
    rng = random.Random(seed)
    decisions, t0 = 0, time.process_time()
    s = g.new_state(None, seed)
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
        decisions += 1
    return decisions, time.process_time() - t0


def env_game(env: Any, seed: int) -> tuple[int, float]:
    """One game through ``env`` (made once, reset for every game, as a training loop does)."""
    rng = random.Random(seed)
    match = env.unwrapped.match
    # the integers of a state's actions: the env's own, computed once a state (Match.ints, in the
    # order of the legal actions; an env from before it, to compare commits side by side, uses
    # Match.codes or encodes them again)
    ints = getattr(match, "ints", None)
    codes = getattr(match, "codes", None) or (lambda: match.index.encode(match.state.legal_actions()))
    decisions, t0 = 0, time.process_time()
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = info["legal_actions"]
        choice = rng.choice(legal)  # the same choice the engine run makes
        code = ints()[legal.index(choice)] if ints is not None else codes()[choice]
        assert obs["action_mask"][code] and obs["observation"].shape
        env.step(code)
        decisions += 1
    return decisions, time.process_time() - t0


def env_args(doc: str | None, games: int, **more: int) -> argparse.Namespace:
    """The env benchmarks' arguments: ``--game``, ``--games`` (default ``games``), ``--seed`` (the
    first game's; the others follow), and the integer options ``more`` (name -> default)."""
    ap = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--seed", type=int, default=0)
    for name, default in more.items():
        ap.add_argument(f"--{name}", type=int, default=default)
    return ap.parse_args()


def main() -> None:
    a = env_args(__doc__, 10)
    env = kassen.envs.aec_env(a.game)  # made once (its action index and encoder too), not timed
    engine_game(a.game, a.seed)  # and the rules' first-use caches
    d1 = d2 = 0
    c1 = c2 = 0.0
    ratios = []
    for i in range(a.games):
        n1, t1 = engine_game(a.game, a.seed + i)
        n2, t2 = env_game(env, a.seed + i)
        assert n1 == n2, "the env played another game"
        d1, c1, d2, c2 = d1 + n1, c1 + t1, d2 + n2, c2 + t2
        ratios.append(t2 / t1)
    print(json.dumps({"game": a.game, "games": a.games, "seed": a.seed, "build": kassen.build(),
                      "engine": {"decisions": d1, "cpu_s": round(c1, 2), "per_cpu_s": round(d1 / c1)},
                      "env": {"decisions": d2, "cpu_s": round(c2, 2), "per_cpu_s": round(d2 / c2)},
                      "env_over_engine_cpu_per_decision": round((c2 / d2) / (c1 / d1), 2),
                      "per_game_ratio_median": round(statistics.median(ratios), 2)}, indent=1))


if __name__ == "__main__":
    main()
