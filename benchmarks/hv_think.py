"""CPU seconds an An Honourable Victory! level thinks, per game turn and per decision, with its
counted work (playouts), over games against an opponent: the "about 2 s a turn on one core"
budget measured in CPU time (``time.process_time``), which the machine's load does not inflate
as it does the wall time of ``strength.py``.

Usage (seats swapped every game, as in ``strength.py``)::

    PYTHONPATH=src .venv/bin/python benchmarks/hv_think.py normal greedy --games 2 --seed 0
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from kassen.ai.players import LevelPlayer, make_player
from kassen.rulesets.honourable_victory.state import HVState
from kassen.rulesets.registry import load_game


def play(level: str, opponent: str, seed: int, seat: int) -> dict[str, Any]:
    """One game; ``level`` at ``seat``. Its CPU seconds per game turn and its counted work."""
    names = [level, opponent] if seat == 0 else [opponent, level]
    players = [make_player(n, seed * 7919 + i) for i, n in enumerate(names)]
    s: HVState = load_game("honourable-victory").new_state("meeting-engagement", seed)  # type: ignore[assignment]
    per_turn: dict[int, float] = {}
    work: list[int] = []
    decisions = 0
    while not s.is_terminal():
        mover = s.to_move()
        assert mover is not None
        turn = s.turn
        t = time.process_time()
        action = players[mover].choose(s, mover)
        if mover == seat:
            per_turn[turn] = per_turn.get(turn, 0.0) + time.process_time() - t
            decisions += 1
            me = players[mover]
            work.append(int(getattr(me.inner, "last_work", 0)) if isinstance(me, LevelPlayer) else 0)
        s = s.apply(action)
    res = s.result()
    assert res is not None
    worst = max(per_turn, key=lambda k: per_turn[k])
    return {"seed": seed, "seat": seat, "winner": res.winner, "game_turns": s.turn,
            "cpu_seconds": sum(per_turn.values()), "decisions": decisions,
            "cpu_per_game_turn": sum(per_turn.values()) / max(1, s.turn),
            "worst_turn": worst, "worst_turn_cpu": per_turn[worst], "max_work": max(work, default=0),
            "cpu_by_turn": {k: round(v, 2) for k, v in sorted(per_turn.items())}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("level")
    ap.add_argument("opponent")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    games = [play(args.level, args.opponent, args.seed + i, i % 2) for i in range(args.games)]
    for g in games:
        print(json.dumps(g), flush=True)
    cpu = sum(g["cpu_seconds"] for g in games)
    turns = sum(g["game_turns"] for g in games)
    print(json.dumps({"level": args.level, "games": len(games), "cpu_per_game_turn": cpu / max(1, turns),
                      "cpu_per_decision": cpu / max(1, sum(g["decisions"] for g in games)),
                      "worst_turn_cpu": max(g["worst_turn_cpu"] for g in games),
                      "max_work": max(g["max_work"] for g in games)}))


if __name__ == "__main__":
    main()
