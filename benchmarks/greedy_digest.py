"""Greedy against greedy, as the balance run plays it: a SHA-256 of every action of seeded
C&C Samurai games and the CPU time of the greedy players' decisions. Two versions of the
engine or of ``GreedyPlayer`` that print the same digest made every choice alike (issue 15:
greedy must get cheaper without changing a single choice).

Usage: ``PYTHONPATH=SRC python benchmarks/greedy_digest.py [--skirmish N] [--sekigahara M] [--json]``
(defaults 4 and 1: seeds 0..N-1 of the First Samurai Skirmish, 0..M-1 of Sekigahara 1600).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time

import kassen
from kassen.ai.series import GameSpec, make_player
from kassen.rulesets.registry import load_game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skirmish", type=int, default=4)
    ap.add_argument("--sekigahara", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    game = load_game("cc-samurai")
    digest = hashlib.sha256()
    decisions = 0
    cpu = 0.0
    load = os.getloadavg()[0]
    for scenario, n in (("first-samurai-skirmish", a.skirmish), ("sekigahara-1600", a.sekigahara)):
        for seed in range(n):
            spec = GameSpec("cc-samurai", scenario, ("greedy", "greedy"), seed)
            state = game.new_state(scenario, seed)
            players = [make_player(name, seed * 7919 + i) for i, name in enumerate(spec.players)]
            actions = 0
            while not state.is_terminal() and actions < spec.max_actions:
                seat = state.to_move()
                assert seat is not None and seat >= 0
                t = time.process_time()
                action = players[seat].choose(state, seat)
                cpu += time.process_time() - t
                digest.update(action.encode() + b"\n")
                state = state.apply(action)
                actions += 1
            decisions += actions
    out = {"digest": digest.hexdigest(), "decisions": decisions, "cpu_seconds": cpu,
           "cpu_ms_per_decision": 1000 * cpu / max(1, decisions), "build": kassen.build(),
           "load_before": load, "load_after": os.getloadavg()[0]}
    print(json.dumps(out) if a.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
