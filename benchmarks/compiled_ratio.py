"""The compiled build against the pure-Python build of one installation, side by side.

Runs ``kassen bench GAME SCENARIO --games N --seed S --json`` ROUNDS times per build,
alternating (compiled, python, compiled, ...; ``KASSEN_PURE_PYTHON=1`` forces the sources),
and prints each run's decisions per CPU-second and the ratio of the medians. CPU time
(``time.process_time``) because the machine is shared.

Usage: ``PYTHONPATH=SRC python benchmarks/compiled_ratio.py [SCENARIO] [--games N] [--seed S] [--rounds R]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys


def bench(pure: bool, game: str, scenario: str, games: int, seed: int) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "KASSEN_PURE_PYTHON"}
    if pure:
        env["KASSEN_PURE_PYTHON"] = "1"
    cmd = [sys.executable, "-m", "kassen", "bench", game, scenario, "--games", str(games), "--seed", str(seed),
           "--json"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    r: dict[str, object] = json.loads(out)
    return r


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", nargs="?", default="first-samurai-skirmish")
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    rates: dict[str, list[float]] = {"compiled": [], "python": []}
    decisions: set[object] = set()
    print(f"load before: {os.getloadavg()[0]:.2f}")
    for i in range(a.rounds):
        for pure in (False, True):
            r = bench(pure, a.game, a.scenario, a.games, a.seed)
            build = str(r["build"])
            if build != ("python" if pure else "compiled"):
                sys.exit(f"asked for the {'python' if pure else 'compiled'} build, got {build}")
            rate = float(r["decisions_per_cpu_second"])  # type: ignore[arg-type]
            rates[build].append(rate)
            decisions.add(r["decisions"])
            print(f"round {i + 1} {build:8} decisions {r['decisions']} cpu_seconds {float(r['cpu_seconds']):.2f} "  # type: ignore[arg-type]
                  f"decisions/cpu-s {rate:,.0f}")
    if len(decisions) != 1:
        sys.exit(f"the builds played different games: decisions {sorted(map(str, decisions))}")
    c, p = statistics.median(rates["compiled"]), statistics.median(rates["python"])
    print(f"median decisions/cpu-s: compiled {c:,.0f}, python {p:,.0f}; compiled / python = {c / p:.2f}x")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
