"""Replay one game of ``ai_strength.py`` move by move, to study how it was won or lost.

The players are made as ``ai_strength.py`` makes them (the same labels and seeds), so the game is
the one the series played. Prints every action with its events, and after each of a planner's
turns its explanation (the plan it chose and its estimate). The events are shown as a spectator
sees them (a card drawn: "draws a Command card"); ``--secrets`` shows every seat's secrets too,
for a game between programs.

Usage (from the project root)::

    PYTHONPATH=src .venv/bin/python benchmarks/replay_game.py --seed 0 --players hard,mcts@2800it
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_strength import make  # noqa: E402  (benchmarks/ is not a package)

from kassen.ai.player import Player  # noqa: E402
from kassen.engine.errors import KassenError  # noqa: E402
from kassen.engine.protocol import State  # noqa: E402
from kassen.rulesets.registry import load_game  # noqa: E402


def replay(labels: list[str], seed: int, game: str = "cc-samurai", scenario: str = "first-samurai-skirmish",
           max_actions: int = 3000) -> Iterator[tuple[State, int, str, State, Player]]:
    """The game ``ai_strength.py`` played with these labels in seat order and this seed: each
    action with the state before it, the seat, the state after it and the player who chose it."""
    players = [make(label, seed * 7919 + i) for i, label in enumerate(labels)]
    s = load_game(game).new_state(scenario, seed)
    for _ in range(max_actions):
        if s.is_terminal():
            return
        seat = s.to_move()
        assert seat is not None
        action = players[seat].choose(s, seat)
        before, s = s, s.apply(action)
        yield before, seat, action, s, players[seat]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True, help="the game's seed (ai_strength: --seed S, game i: S + i)")
    ap.add_argument("--players", required=True, help="the labels in seat order, as the game had them (odd games swap)")
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--scenario", default="first-samurai-skirmish")
    ap.add_argument("--max-actions", type=int, default=3000)
    ap.add_argument("--secrets", action="store_true", help="show hidden events (hands, draws) in full")
    args = ap.parse_args(argv)
    labels = args.players.split(",")
    s = None
    try:
        for n, (before, seat, action, s, player) in enumerate(
                replay(labels, args.seed, args.game, args.scenario, args.max_actions)):
            legal = before.legal_actions()
            if legal and all(a.startswith("play ") for a in legal):
                print(f"=== {labels[seat]} (seat {seat}) to play; banners {before.observation(None).get('banners')}")
            shown = [e if args.secrets or e.visible_to is None else e.redacted for e in s.events]
            print(f"{n:4d} {seat} {action:30s} {' | '.join(e.text for e in shown if e is not None)}")
            explanation = getattr(player, "explanation", None)
            if explanation and s.stack and s.stack[-1].get("t") == "play":  # the turn is over
                print(f"     {explanation}")
    except KassenError as e:
        raise SystemExit(f"replay_game.py: {e}") from None
    if s is None:
        return 0
    print("result:", s.result(), s.observation(None).get("banners"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
