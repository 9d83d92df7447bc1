"""Where the PettingZoo env's time per decision goes (issue 16), CPU time:

    .venv/bin/python benchmarks/env_parts.py --games 10 [--game cc-samurai]

The same games as ``env_throughput.py`` (engine game i, then env game i), played three ways: the
env as it is; the env with a free observation (a zero array made once, so the rest is the
PettingZoo loop, the legal actions' integers and the mask); and the env as it is with
``process_time_ns`` around each observation and mask, for their CPU time inside the loop (less
the clock's own cost between two readings, ``clock_us``).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
from env_throughput import engine_game, env_game

import kassen
import kassen.envs


def _run(game: str, env: Any, games: int, seed: int) -> dict[str, float]:
    e = v = 0.0
    d = 0
    for i in range(games):
        n1, t1 = engine_game(game, seed + i)
        n2, t2 = env_game(env, seed + i)
        assert n1 == n2
        e, v, d = e + t1, v + t2, d + n1
    return {"engine_us": round(e / d * 1e6, 1), "env_us": round(v / d * 1e6, 1), "ratio": round(v / e, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    env = kassen.envs.aec_env(a.game)
    match = env.unwrapped.match
    engine_game(a.game, a.seed)
    out: dict[str, Any] = {"game": a.game, "games": a.games, "seed": a.seed, "build": kassen.build()}
    out["env"] = _run(a.game, env, a.games, a.seed)
    observe, mask = match.observe, match.mask
    zero = np.zeros(match.encoder.size, np.float32)
    match.observe = lambda seat: zero
    out["env_free_observation"] = _run(a.game, env, a.games, a.seed)
    spent = {"observe": 0, "mask": 0}
    clock = time.process_time_ns

    def timed_observe(seat: int) -> np.ndarray:
        t = clock()
        r = observe(seat)
        spent["observe"] += clock() - t
        return r

    def timed_mask(seat: int | None = None) -> np.ndarray:
        t = clock()
        r = mask(seat)
        spent["mask"] += clock() - t
        return r

    match.observe, match.mask = timed_observe, timed_mask
    d = sum(env_game(env, a.seed + i)[0] for i in range(a.games))
    # what the clock itself adds to each timed call (a syscall: microseconds on a loaded machine)
    ticks = [clock() for _ in range(20001)]
    clock_ns = sum(b - a for a, b in zip(ticks, ticks[1:])) / 20000
    out["clock_us"] = round(clock_ns / 1000, 2)
    out["in_loop_us"] = {k: round((v / d - clock_ns) / 1000, 1) for k, v in spent.items()}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
