"""Throughput through the PettingZoo AEC env against the engine alone (issue 16: the env must
not be the bottleneck; target: within 1.5x of ``kassen bench`` for the same games).

    .venv/bin/python benchmarks/env_throughput.py --games 10 --seed 0

Both sides play uniformly random legal actions from the same seeded generator, so the engine
plays the same games; the env side also builds every observation tensor and action mask a
PettingZoo agent would read (``env.last()`` for each agent's turn). Figures are CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import kassen.envs
from kassen.rulesets.registry import load_game


def engine_games(game: str, games: int, seed: int) -> tuple[int, float]:
    g = load_game(game)
    decisions, t0 = 0, time.process_time()
    for i in range(games):
        rng = random.Random(seed + i)
        s = g.new_state(None, seed + i)
        while not s.is_terminal():
            s = s.apply(rng.choice(s.legal_actions()))
            decisions += 1
    return decisions, time.process_time() - t0


def env_games(game: str, games: int, seed: int) -> tuple[int, float]:
    kassen.envs.aec_env(game)  # the action index and the encoder are built once a process, not timed
    decisions, t0 = 0, time.process_time()
    for i in range(games):
        rng = random.Random(seed + i)
        env = kassen.envs.aec_env(game, seed=seed + i)
        env.reset()
        for _agent in env.agent_iter():
            obs, _r, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = info["legal_actions"]
            choice = rng.choice(legal)  # the same choice the engine run makes
            code = env.unwrapped.match.codes()[choice]  # its integer (the env's own, computed once a state)
            assert obs["action_mask"][code]
            env.step(code)
            decisions += 1
    return decisions, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    d1, c1 = engine_games(a.game, a.games, a.seed)
    d2, c2 = env_games(a.game, a.games, a.seed)
    print(json.dumps({"game": a.game, "games": a.games, "seed": a.seed,
                      "engine": {"decisions": d1, "cpu_s": round(c1, 2), "per_cpu_s": round(d1 / c1)},
                      "env": {"decisions": d2, "cpu_s": round(c2, 2), "per_cpu_s": round(d2 / c2)},
                      "env_over_engine_cpu_per_decision": round((c2 / d2) / (c1 / d1), 2)}, indent=1))


if __name__ == "__main__":
    main()
