"""The observation tensor alone (issue 16), CPU time per observation:

    .venv/bin/python benchmarks/env_observe.py --game cc-samurai --games 4

The states of ``--games`` seeded random games (seeds ``--seed``, ``--seed`` + 1, ...) are recorded first; then one
observer (``kassen.envs.fast.Observer``, as the env keeps it across games) observes each state for
the seat to move, in a row, keeping only the last observation (as a loop that drops it). Best of
``--reps`` passes, each with a new observer. Outside the env loop, so the engine's work does not
evict the observer's caches between two calls: lower than ``env_parts.py``'s in-loop figure.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from env_throughput import env_args

import kassen
from kassen.envs.fast import Observer
from kassen.rulesets.registry import load_game


def main() -> None:
    a = env_args(__doc__, 4, reps=5)
    g = load_game(a.game)
    seq: list[tuple[Any, int]] = []
    for seed in range(a.seed, a.seed + a.games):
        rng = random.Random(seed)
        s = g.new_state(None, seed)
        while not s.is_terminal():
            seq.append((s, s.to_move()))
            s = s.apply(rng.choice(s.legal_actions()))
    best = float("inf")
    for _ in range(a.reps):
        ob = Observer(a.game)
        observe = ob.fast.observe if ob.fast is not None else ob.observe
        t = time.process_time()
        kept = None
        for st, seat in seq:
            kept = observe(st, seat)
        best = min(best, time.process_time() - t)
    assert kept is not None
    print(json.dumps({"game": a.game, "games": a.games, "build": kassen.build(), "observations": len(seq),
                      "us_per_observation": round(best / len(seq) * 1e6, 2)}))


if __name__ == "__main__":
    main()
