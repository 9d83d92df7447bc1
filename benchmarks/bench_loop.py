"""Only the playout loop of ``kassen bench`` (issue 15): for a profiler and quick A/B runs.

``kassen bench`` also runs an untimed tracemalloc pass, which dominates a profile of the
whole command; this script times (CPU seconds) and runs nothing but ``play_random`` over
seeds ``--seed`` .. ``--seed + --games - 1``, after one untimed game (imports, tables).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_loop.py --games 100
    PYTHONPATH=src perf record -F 1999 --call-graph dwarf,16384 .venv/bin/python benchmarks/bench_loop.py
"""

from __future__ import annotations

import argparse
import time

import kassen
from kassen.cli.bench import play_random
from kassen.rulesets.registry import load_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--scenario", default="first-samurai-skirmish")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    game = load_game(a.game)
    game.new_state(a.scenario, a.seed)
    start = time.process_time()
    decisions = sum(play_random(game, a.scenario, a.seed + i)[1] for i in range(a.games))
    cpu = time.process_time() - start
    print(f"{kassen.build()} {a.scenario}: {decisions} decisions in {cpu:.2f} CPU-s, "
          f"{decisions / cpu:,.0f} decisions/CPU-s")


if __name__ == "__main__":
    main()
