"""One digest per seeded random game, to prove two builds play identically.

``python -m kassen.testing.replay GAME/SCENARIO/FIRST_SEED/COUNT ...`` prints a JSON object:
the build that ran (``"compiled"`` or ``"python"``, see :func:`kassen.build`) and, for each
argument, one SHA-256 per game over every action, every event (its JSON, private parts included), the
number of legal actions after each step and the final ``to_json()``. Games are played
through the protocol by :class:`~kassen.ai.players.RandomPlayer` seats.
"""

from __future__ import annotations

import hashlib
import json
import sys

from kassen import build
from kassen.ai.player import RandomPlayer
from kassen.rulesets.registry import load_game

#: a game still running after this many decisions is cut (its digest covers what was played)
MAX_DECISIONS = 3000


def game_digest(game_id: str, scenario: str | None, seed: int) -> str:
    """The digest of one random game (``seed`` deals it and seeds its players)."""
    game = load_game(game_id)
    state = game.new_state(scenario, seed)
    players = [RandomPlayer(seed * 7919 + i) for i in range(len(state.seat_names()))]
    h = hashlib.sha256()
    n = 0
    while (seat := state.to_move()) is not None and n < MAX_DECISIONS:
        action = players[seat].choose(state, seat)
        h.update(action.encode())
        state = state.apply(action)
        for e in state.events:
            h.update(json.dumps(e.to_json(), sort_keys=True).encode())
        h.update(str(len(state.legal_actions())).encode())
        n += 1
    h.update(json.dumps(state.to_json(), sort_keys=True).encode())
    return h.hexdigest()


def digests(spec: str) -> list[str]:
    """The digests of ``GAME/SCENARIO/FIRST_SEED/COUNT``: COUNT games, seeds from FIRST_SEED."""
    game_id, scenario, first, count = spec.split("/")
    return [game_digest(game_id, scenario, seed) for seed in range(int(first), int(first) + int(count))]


def main(argv: list[str]) -> int:
    print(json.dumps({"build": build(), "digests": {spec: digests(spec) for spec in argv}}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
