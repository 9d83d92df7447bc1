"""Several source trees measured side by side, alternating, in one run (issue 15).

Each TREE is ``LABEL=PATH`` (``PATH/src`` goes on ``PYTHONPATH``), with ``:pure`` after the path
to force pure Python (``KASSEN_PURE_PYTHON=1``). Every round runs, for every tree in turn (the
order reversed every other round): ``kassen bench cc-samurai SCENARIO --games N --seed S --json``
for each ``--scenario`` (field ``decisions_per_cpu_second``), and with ``--mcts``,
``benchmarks/mcts_iterations.py --json`` (``iterations_per_cpu_second`` and the choices digest).
All figures are CPU time (``time.process_time`` in the child); ``os.getloadavg`` is printed
before and after, because the machine is shared.

Usage (from the project root)::

    .venv/bin/python benchmarks/side_by_side.py base=/tmp/base new=. new-pure=.:pure --rounds 2 --mcts
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _env(path: str, pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KASSEN_PURE_PYTHON", "PYTHONPATH")}
    env["PYTHONPATH"] = str(Path(path).resolve() / "src")
    if pure:
        env["KASSEN_PURE_PYTHON"] = "1"
    return env


def _run(cmd: list[str], env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    r: dict[str, Any] = json.loads(out)
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("trees", nargs="+", help="LABEL=PATH or LABEL=PATH:pure")
    ap.add_argument("--scenario", action="append", default=None,
                    help="repeatable; default: first-samurai-skirmish and sekigahara-1600")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--mcts", action="store_true", help="also benchmarks/mcts_iterations.py (its defaults)")
    a = ap.parse_args()
    scenarios = a.scenario or ["first-samurai-skirmish", "sekigahara-1600"]
    trees: list[tuple[str, str, bool]] = []
    for t in a.trees:
        label, _, path = t.partition("=")
        pure = path.endswith(":pure")
        trees.append((label, path.removesuffix(":pure"), pure))
    figures: dict[str, dict[str, list[float]]] = {}
    digests: dict[str, set[str]] = {}
    print(f"load before: {os.getloadavg()}", flush=True)
    for r in range(a.rounds):
        order = trees if r % 2 == 0 else list(reversed(trees))
        for label, path, pure in order:
            env = _env(path, pure)
            for sc in scenarios:
                res = _run([sys.executable, "-m", "kassen", "bench", "cc-samurai", sc, "--games", str(a.games),
                            "--seed", str(a.seed), "--json"], env)
                v = float(res["decisions_per_cpu_second"])
                figures.setdefault(sc, {}).setdefault(label, []).append(v)
                print(f"round {r + 1} {label:>12} {sc:>24} {v:9,.0f} decisions/CPU-s "
                      f"({res['decisions']} decisions, {res['build']}, load {res['load_average_1min']:.1f})", flush=True)
            if a.mcts:
                res = _run([sys.executable, str(HERE / "mcts_iterations.py"), "--json"], env)
                v = float(res["iterations_per_cpu_second"])
                figures.setdefault("mcts", {}).setdefault(label, []).append(v)
                digests.setdefault(label, set()).add(str(res["choices_digest"]))
                print(f"round {r + 1} {label:>12} {'mcts_iterations':>24} {v:9,.0f} iterations/CPU-s "
                      f"(digest {str(res['choices_digest'])[:16]}, load {res['load_average_1min']:.1f})", flush=True)
    print(f"load after: {os.getloadavg()}")
    print("means:")
    for what, per in figures.items():
        means = {label: statistics.mean(v) for label, v in per.items()}
        first = next(iter(means.values()))
        print(f"  {what}: " + ", ".join(f"{label} {m:,.0f} ({m / first:.2f}x the first)" for label, m in means.items()))
    if digests:
        print("mcts digests: " + ", ".join(f"{label} {sorted(d)}" for label, d in digests.items()))


if __name__ == "__main__":
    main()
