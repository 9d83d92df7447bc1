"""The C&C planner's evaluation on fixed positions: a SHA-256 of ``evaluate`` (``repr`` of every
value) for every weights file the levels read, both seats, and its CPU time per call. Two versions
of ``kassen.ai.evaluate`` that print the same digest score every position alike, so the levels
play the same moves (speed work on the evaluation must keep it).

The positions: every 4th state of seeded greedy-against-greedy games (up to 600 actions each) on
the First Samurai Skirmish, Sekigahara 1600 and Nagashino 1575.

Usage: ``PYTHONPATH=src .venv/bin/python benchmarks/eval_digest.py [--games N] [--repeat R] [--json]``
(defaults 2 and 3: seeds 0..N-1 of each scenario; the time is the best of R passes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time

import kassen
from kassen.ai.evaluate import WEIGHTS_FILE, evaluate, load_weights
from kassen.ai.series import make_player
from kassen.engine.protocol import State
from kassen.rulesets.registry import load_game

SCENARIOS = ("first-samurai-skirmish", "sekigahara-1600", "nagashino-1575")
WEIGHTS = ("weights_cc.json", "weights_cc_hard.json", "weights_cc_normal.json", "weights_cc_normal_judge.json")


def positions(games: int) -> dict[str, list[State]]:
    """Per scenario, every 4th state of ``games`` seeded greedy games."""
    game = load_game("cc-samurai")
    out: dict[str, list[State]] = {}
    for scenario in SCENARIOS:
        got = out[scenario] = []
        for seed in range(games):
            s = game.new_state(scenario, seed)
            players = [make_player("greedy", seed * 2 + 1), make_player("greedy", seed * 2 + 2)]
            n = 0
            while not s.is_terminal() and n < 600:
                seat = s.to_move()
                assert seat is not None
                s = s.apply(players[seat].choose(s, seat))
                n += 1
                if n % 4 == 0:
                    got.append(s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    weights = [load_weights(WEIGHTS_FILE.with_name(name)) for name in WEIGHTS]
    states = positions(a.games)
    digest = hashlib.sha256()
    for scenario in SCENARIOS:
        for s in states[scenario]:
            for w in weights:
                for seat in (0, 1):
                    digest.update(repr(evaluate(s, seat, w)).encode())  # type: ignore[arg-type]
    micros: dict[str, float] = {}
    for scenario in SCENARIOS:
        best = float("inf")
        for _ in range(a.repeat):
            start = time.process_time()
            for s in states[scenario]:
                for w in weights:
                    evaluate(s, 0, w)  # type: ignore[arg-type]
            best = min(best, time.process_time() - start)
        micros[scenario] = best / max(1, len(states[scenario]) * len(weights)) * 1e6
    out = {"digest": digest.hexdigest(), "build": kassen.build(), "games": a.games,
           "positions": {k: len(v) for k, v in states.items()}, "cpu_us_per_evaluation": micros,
           "load": os.getloadavg()[0]}
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"digest {out['digest']} ({out['build']}; {sum(out['positions'].values())} positions, load {out['load']:.2f})")
    for scenario, us in micros.items():
        print(f"  {scenario}: {us:.0f} CPU-us an evaluation")


if __name__ == "__main__":
    main()
