"""One hash of N seeded random C&C Samurai games on three scenarios: every action, every
event (JSON), every legal-action list and the final ``to_json()``. Two versions of the
engine that print the same digest play those games identically (issue 15: speed work must
keep replays bit-identical).

Usage: ``PYTHONPATH=SRC python benchmarks/replay_digest.py N``
"""

from __future__ import annotations

import hashlib
import json
import sys

from kassen.ai.players import RandomPlayer
from kassen.rulesets.registry import load_game

game = load_game("cc-samurai")
digest = hashlib.sha256()
for scenario in (None, "sekigahara-1600", "nagashino-1575"):
    for seed in range(int(sys.argv[1])):
        state = game.new_state(scenario, seed)
        players = [RandomPlayer(seed * 7919 + i) for i in range(2)]
        n = 0
        while (seat := state.to_move()) is not None and n < 3000:
            action = players[seat].choose(state, seat)
            digest.update(action.encode())
            state = state.apply(action)
            for e in state.events:
                digest.update(json.dumps(e.to_json(), sort_keys=True).encode())
            digest.update(json.dumps(state.legal_actions()).encode())
            n += 1
        digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
print(digest.hexdigest())
