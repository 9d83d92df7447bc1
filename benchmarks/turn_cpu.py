"""CPU seconds a C&C level spends per own turn, against greedy (seats swapped every game).

    PYTHONPATH=src .venv/bin/python benchmarks/turn_cpu.py normal --scenario sekigahara-1600 --games 2

CPU time (``time.process_time``), so the figure does not depend on the machine's load; a turn
is every decision the level makes between two changes of the game's turn counter.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import make  # noqa: E402

from kassen.ai.players import Player  # noqa: E402
from kassen.ai.series import GameSpec, play_one  # noqa: E402
from kassen.engine.protocol import State  # noqa: E402


class TurnClock(Player):
    """Wraps a player; adds up its CPU time per game turn."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.turns: list[float] = []
        self._turn: Any = None

    def choose(self, state: State, seat: int) -> str:
        turn = state.observation(seat).get("turn")
        start = time.process_time()
        try:
            return self.inner.choose(state, seat)
        finally:
            if turn != self._turn:
                self.turns.append(0.0)
                self._turn = turn
            self.turns[-1] += time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("level", help="a level or level+key=value (see strength.py)")
    ap.add_argument("--scenario", default="first-samurai-skirmish")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=500)
    args = ap.parse_args(argv)
    every: list[float] = []
    for g in range(args.games):
        seed = args.seed + g
        mine = TurnClock(make(args.level, seed * 7919))
        players: list[Player] = [mine, make("greedy", seed * 7919 + 1)]
        if g % 2:
            players.reverse()
        out = play_one(GameSpec("cc-samurai", args.scenario, ("a", "b"), seed), players=players)
        every += mine.turns
        print(f"game {g} seed {seed}: {args.level} seat {g % 2}, winner seat {out.get('winner_seat')}, "
              f"{len(mine.turns)} turns, median {statistics.median(mine.turns):.2f} "
              f"max {max(mine.turns):.2f} CPU-s", flush=True)
    every.sort()
    print(f"all: {len(every)} turns, median {statistics.median(every):.2f}, "
          f"90th percentile {every[int(0.9 * len(every))]:.2f}, max {every[-1]:.2f} CPU-s a turn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
