"""Legal-action generation alone, per pending decision, CPU microseconds (issue 15).

Plays 3 seeded random games of the First Samurai Skirmish, keeps every state, then times
(min of 5 passes, ``time.process_time``) what generating the legal actions of each kind of
decision costs on those states. Run it with two versions of the engine side by side:

    PYTHONPATH=/tmp/kassen-base-b/src python benchmarks/legal_phases.py
    PYTHONPATH=src python benchmarks/legal_phases.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kassen.ai.players import RandomPlayer
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.registry import load_game


def main() -> None:
    game = load_game("cc-samurai")
    states: list[Any] = []
    for seed in range(3):
        s = game.new_state(None, seed)
        players = [RandomPlayer(seed * 7919 + i) for i in range(2)]
        while (seat := s.to_move()) is not None:
            states.append(s)
            s = s.apply(players[seat].choose(s, seat))
    kinds: dict[str, list[Any]] = {}
    for s in states:
        kinds.setdefault(s.stack[-1]["t"], []).append(s)

    def bench(name: str, fn: Callable[[Any], object], sts: list[Any], reps: int = 5) -> None:
        best = 1e9
        for _ in range(reps):
            t = time.process_time()
            for s in sts:
                fn(s)
            best = min(best, time.process_time() - t)
        print(f"{name:44s} {best / len(sts) * 1e6:7.1f} us  ({len(sts)} states)")

    def first_order(s: Any) -> None:
        if "_oc" in s.__dict__:  # the new engine keeps eligibility per card play: drop it
            s._oc = None
        s._legal_order(s.stack[-1])

    def moves(s: Any) -> None:
        s._mv = {}  # the searches of this state (those of the parent are still reused)
        s._legal_move(s.stack[-1])

    first = [s for s in kinds["order"] if not s.ti["orders"]]
    later = [s for s in kinds["order"] if s.ti["orders"]]
    bench("order, first decision of a card play", first_order, first)
    bench("order, later decisions of a card play", lambda s: s._legal_order(s.stack[-1]), later)
    bench("move (parent's searches reused)", moves, kinds["move"])
    bench("  of it: Dragon card actions", lambda s: dragons.actions(s, s.stack[-1]["seat"], "movement"), kinds["move"])
    bench("battle", lambda s: s._legal_battle(s.stack[-1]), kinds["battle"])
    bench("clone (for scale)", lambda s: s.clone(), states[::5])


if __name__ == "__main__":
    main()
