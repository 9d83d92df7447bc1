"""MCTS iterations per CPU-second (issue 15), and a digest of the choices made.

The positions: ``--games`` seeded uniform-random games of a C&C Samurai scenario
(``kassen bench``'s players); every ``--every``-th decision with more than one
legal action is a position, up to ``--positions`` of them. At each, a fresh
``MCTSPlayer(seed=i, iterations=--iterations, depth=--depth)`` chooses for the seat
to move. ``iterations_per_cpu_second`` = iterations run / ``time.process_time()``
spent in ``choose`` (the search only: the positions are collected before timing).
``choices_digest`` is the SHA-256 of the chosen actions: two versions of the code
that print the same digest made the same choices (a check that a speed change did
not change the search).

Usage (from the project root)::

    PYTHONPATH=src .venv/bin/python benchmarks/mcts_iterations.py --positions 20 --json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time
from typing import Any

from kassen.ai.players import RandomPlayer
from kassen.ai.search import MCTSPlayer
from kassen.engine.protocol import State
from kassen.rulesets.registry import load_game


def positions(game_id: str, scenario: str | None, games: int, every: int, limit: int) -> list[tuple[State, int]]:
    """Decision points with a real choice, from seeded random games."""
    game = load_game(game_id)
    out: list[tuple[State, int]] = []
    for g in range(games):
        state = game.new_state(scenario, g)
        players = [RandomPlayer(g * 7919 + i) for i in range(len(state.seat_names()))]
        n = 0
        while (seat := state.to_move()) is not None and len(out) < limit:
            legal = state.legal_actions()
            if len(legal) > 1:
                if n % every == 0:
                    out.append((state, seat))
                n += 1
            state = state.apply(players[seat].choose(state, seat))
    return out[:limit]


def run(game_id: str, scenario: str | None, n_positions: int, iterations: int, depth: int,
        games: int, every: int) -> dict[str, Any]:
    todo = positions(game_id, scenario, games, every, n_positions)
    digest = hashlib.sha256()
    cpu = 0.0
    for i, (state, seat) in enumerate(todo):
        player = MCTSPlayer(seed=i, iterations=iterations, depth=depth)
        t = time.process_time()
        choice = player.choose(state, seat)
        cpu += time.process_time() - t
        digest.update(f"{i}:{choice}\n".encode())
    total = iterations * len(todo)
    return {"game": game_id, "scenario": scenario, "positions": len(todo), "iterations_per_choice": iterations,
            "depth": depth, "iterations": total, "cpu_seconds": cpu,
            "iterations_per_cpu_second": total / cpu if cpu else 0.0,
            "choices_digest": digest.hexdigest(), "load_average_1min": os.getloadavg()[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--depth", type=int, default=30)
    ap.add_argument("--games", type=int, default=4, help="random games the positions are taken from")
    ap.add_argument("--every", type=int, default=25, help="take every N-th decision with a choice")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    r = run(a.game, a.scenario, a.positions, a.iterations, a.depth, a.games, a.every)
    if a.json:
        print(json.dumps(r, indent=1))
    else:
        print(f"{r['iterations']} iterations in {r['cpu_seconds']:.2f} CPU-s: "
              f"{r['iterations_per_cpu_second']:.0f} iterations/CPU-s; choices {r['choices_digest'][:16]}")


if __name__ == "__main__":
    main()
