"""One hash of N seeded random games of An Honourable Victory! (every battle), of the
clan card game (every set-up) and of Kensei (every scenario, the shipped rosters in both
seat orders): every action, every event (JSON), every legal-action list,
the prompt and the observation of the seat to move, a determinization every tenth step and
the final ``to_json()``. Two versions of a ruleset that print the same digest play those
games identically (issue 15: laying the rules out by the rulebook must not change play).

Usage: ``PYTHONPATH=SRC python benchmarks/rules_digest.py N [--game honourable-victory|clans|kensei]``
"""

from __future__ import annotations

import argparse
import hashlib
import json

from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game

GAMES = ("honourable-victory", "clans", "kensei")


def _choose(rng: Rng, legal: list[str]) -> str:
    """A uniform choice that never concedes while anything else is legal (games run their course)."""
    options = [a for a in legal if a != "concede"] or legal
    return options[rng.randbelow(len(options))]


def _options(game_id: str, seed: int) -> dict[str, str]:
    """Kensei: the shipped rosters, in one seat order for even seeds and the other for odd."""
    if game_id != "kensei":
        return {}
    from kassen.rulesets.kensei.game import DEFAULT_ROSTERS

    return {"rosters": ",".join(DEFAULT_ROSTERS if seed % 2 == 0 else DEFAULT_ROSTERS[::-1])}


def digest(game_id: str, n: int) -> str:
    """The hash of ``n`` seeded random games of every set-up of ``game_id``."""
    game = load_game(game_id)
    h = hashlib.sha256()
    total = 0
    for scenario in game.scenarios():
        for seed in range(n):
            state = game.new_state(scenario, seed, **_options(game_id, seed))
            h.update(json.dumps(state.to_json(), sort_keys=True).encode())
            rng = Rng(seed * 7919 + 1)
            steps = 0
            while (seat := state.to_move()) is not None and steps < 3000:
                h.update(json.dumps([state.legal_actions(), state.prompt(),
                                     state.observation(seat)], sort_keys=True).encode())
                if steps % 10 == 0:
                    h.update(json.dumps(state.determinize(seat, Rng(steps)).to_json(), sort_keys=True).encode())
                action = _choose(rng, state.legal_actions())
                h.update(action.encode())
                state = state.apply(action)
                for e in state.events:
                    h.update(json.dumps(e.to_json(), sort_keys=True).encode())
                steps += 1
            total += steps
            h.update(json.dumps([state.to_json(), state.observation(None)], sort_keys=True).encode())
    return f"{h.hexdigest()} ({total} decisions)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("n", type=int, help="seeded games per set-up")
    ap.add_argument("--game", choices=GAMES, action="append", help="one game (default: all)")
    args = ap.parse_args()
    for gid in args.game or GAMES:
        print(gid, digest(gid, args.n))


if __name__ == "__main__":
    main()
