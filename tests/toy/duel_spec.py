"""The whole registration of docs/engine.md's toy game: one spec. Its rules are the code block of
docs/engine.md (loaded as written); ``register(SPEC)`` makes it a game of every front end."""

from __future__ import annotations

import functools
from typing import Any

from kassen.engine.protocol import Game
from kassen.rulesets.registry import EnvSpec, RulesetSpec
from tests.engine.test_docs_toy import load_doc_namespace


@functools.cache
def _rules() -> dict[str, Any]:
    return load_doc_namespace()


def make_game() -> Game:
    game: Game = _rules()["DuelGame"]()
    return game


def actions(game: Game) -> list[str]:
    """The static action index: every action the Duel has."""
    return ["fight", "swap"]


def encoder(game_id: str) -> Any:
    """The observation tensor: whose turn, the cards shown (one-hot 1-6 per seat), the deck's size,
    who has swapped and the result."""
    import numpy as np

    from kassen.envs.tensors import Encoder

    class DuelEncoder(Encoder):
        def __init__(self) -> None:
            self.game_id = game_id
            scalars = ["to_move:0", "to_move:1", *(f"card:{s}:{v}" for s in (0, 1) for v in range(1, 7)),
                       "deck", "swapped:0", "swapped:1", "over"]
            super().__init__([], (0, 0), scalars)

        def fill(self, obs: dict[str, Any], planes: np.ndarray, vec: np.ndarray) -> None:
            if obs["to_move"] is not None:
                self._set(vec, f"to_move:{obs['to_move']}", 1)
            for s, card in enumerate(obs["hands"]):
                if card is not None:
                    self._set(vec, f"card:{s}:{card}", 1)
            self._set(vec, "deck", obs["deck_size"], 4)
            for s, done in enumerate(obs["swapped"]):
                self._set(vec, f"swapped:{s}", float(done))
            self._set(vec, "over", float(obs["result"] is not None))

    return DuelEncoder()


SPEC = RulesetSpec(
    id="duel",
    description="Duel (toy): the whole game of docs/engine.md",
    game=make_game,
    default_players="human,random",
    env=EnvSpec(actions="tests.toy.duel_spec:actions", encoder="tests.toy.duel_spec:encoder"),
)
