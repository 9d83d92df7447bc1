"""Where the PettingZoo env's time per decision goes (issue 16), CPU time:

    .venv/bin/python benchmarks/env_parts.py --games 10 [--game cc-samurai]

The same games as ``env_throughput.py`` (engine game i, then env game i), played three ways: the
env as it is; the env with a free observation (a zero array made once, so the rest is the
PettingZoo loop, the legal actions' integers and the mask); and the env as it is with
``process_time_ns`` around each observation (``Match.observe_state``), for its CPU time inside
the loop (less the clock's own cost between two readings, ``clock_us``), also by kind of decision
(the ``t`` of the state's top task). Then the mask alone:
``Match.mask`` over the states of the first game, in a row, its view dropped each time.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import numpy as np
from env_throughput import engine_game, env_args, env_game

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
    a = env_args(__doc__, 10)
    env = kassen.envs.aec_env(a.game)
    match = env.unwrapped.match
    engine_game(a.game, a.seed)
    out: dict[str, Any] = {"game": a.game, "games": a.games, "seed": a.seed, "build": kassen.build()}
    out["env"] = _run(a.game, env, a.games, a.seed)
    observe = match.observe_state
    zero = np.zeros(match.encoder.size, np.float32)
    match.observe_state = lambda st, seat: zero
    out["env_free_observation"] = _run(a.game, env, a.games, a.seed)
    spent = {"observe": 0}
    clock = time.process_time_ns
    #: per kind of decision to observe (the ``t`` of the state's top task): calls and CPU ns
    kinds: dict[str, list[int]] = {}

    def timed_observe(st: Any, seat: int) -> np.ndarray:
        t = clock()
        r = observe(st, seat)
        ns = clock() - t
        spent["observe"] += ns
        stack = getattr(st, "stack", None)
        kind = str(stack[-1].get("t")) if stack and isinstance(stack[-1], dict) else "-"
        got = kinds.setdefault(kind, [0, 0])
        got[0] += 1
        got[1] += ns
        return r

    match.observe_state = timed_observe
    d = sum(env_game(env, a.seed + i)[0] for i in range(a.games))
    match.observe_state = observe
    # what the clock itself adds to each timed call (a syscall: microseconds on a loaded machine)
    ticks = [clock() for _ in range(20001)]
    clock_ns = sum(b - a for a, b in zip(ticks, ticks[1:])) / 20000
    out["clock_us"] = round(clock_ns / 1000, 2)
    out["in_loop_us"] = {k: round((v / d - clock_ns) / 1000, 1) for k, v in spent.items()}
    # where the observation's time goes by kind of decision: the first decision of a seat's turn
    # sees everything the other seat did since it last looked
    out["in_loop_by_decision"] = {k: {"calls": n, "us": round((ns / n - clock_ns) / 1000, 1),
                                      "share": round(ns / spent["observe"], 2)}
                                  for k, (n, ns) in sorted(kinds.items(), key=lambda kv: -kv[1][1])}
    states = []
    match.reset(a.seed)
    rng = random.Random(a.seed)
    while not match.state.is_terminal():
        states.append(match.state)
        match.play(rng.choice(match.legal()))
    t = time.process_time()
    for st in states:
        match.state = st
        match.mask(st.to_move())
    out["mask_us"] = round((time.process_time() - t) / len(states) * 1e6, 2)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
