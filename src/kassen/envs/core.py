"""What the three adapters share: a running game with its action index and encoder."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from kassen.engine.errors import KassenError
from kassen.engine.protocol import CHANCE, Game, Result, State, sample_chance
from kassen.engine.rng import Rng
from kassen.envs.actions import ActionIndex, action_index
from kassen.envs.fast import Observer
from kassen.envs.tensors import Encoder, encoder
from kassen.rulesets.registry import load_game


def resolve_game(game: Game | str) -> Game:
    return load_game(game) if isinstance(game, str) else game


def fresh_seed() -> int:
    """A seed for a game nobody asked a seed for."""
    return random.SystemRandom().randrange(1 << 31)


def skip_chance(state: State, rng: Rng) -> State:
    """Play explicit ``CHANCE`` nodes (none of the shipped games has any) by their odds."""
    while state.to_move() == CHANCE:
        state = state.apply(sample_chance(state.chance_outcomes(), rng))
    return state


def teams_of(state: State) -> list[list[int]]:
    """The seats playing together (one team per seat unless the scenario has teams)."""
    n = len(state.seat_names())
    obs = state.observation(None)
    teams = obs.get("teams") if isinstance(obs, dict) else None
    if teams:
        return [list(t) for t in teams]
    return [[s] for s in range(n)]


def returns_of(result: Result | None, n: int, teams: list[list[int]]) -> list[float]:
    """The final reward of each seat: ``2 * score - 1`` from the result's scores (a win 1 -> +1,
    a shared first place 0.5 -> 0, a loss 0 -> -1); without scores +1 for the winner and its
    partner, -1 for the others, 0 for everyone on a draw."""
    if result is None:
        return [0.0] * n
    if len(result.scores) == n:
        return [max(-1.0, min(1.0, 2.0 * float(x) - 1.0)) for x in result.scores]
    if result.winner is None:
        return [0.0] * n
    winners = next((t for t in teams if result.winner in t), [result.winner])
    return [1.0 if s in winners else -1.0 for s in range(n)]


class Match:
    """One game in progress, as the adapters see it."""

    def __init__(self, game: Game | str, scenario: str | None = None, **options: Any) -> None:
        self.game = resolve_game(game)
        self.scenario = scenario
        self.options = options
        self.index: ActionIndex = action_index(self.game)
        self.encoder: Encoder = encoder(self.game.id)
        self.observer = Observer(self.game.id)
        self._observe = self.observer.fast.observe if self.observer.fast is not None else self.observer.observe
        self.state: State = self.game.new_state(scenario, 0, **options)
        self.rng = Rng(0)
        self._seen: State | None = None  # the state the caches below are of
        self._legal: list[str] = []
        self._codes: dict[str, int] = {}

    def reset(self, seed: int) -> None:
        self.state = self.game.new_state(self.scenario, seed, **self.options)
        self.rng = Rng(seed ^ 0x5EED)
        self.state = skip_chance(self.state, self.rng)

    @property
    def n_seats(self) -> int:
        return len(self.state.seat_names())

    def _fresh(self) -> None:
        """Compute the legal actions and their integers once per state."""
        if self._seen is not self.state:
            self._seen = self.state
            self._legal = self.state.legal_actions()
            self._codes = self.index.encode(self._legal)

    def legal(self) -> list[str]:
        self._fresh()
        return list(self._legal)

    def codes(self) -> dict[str, int]:
        """Each legal action -> its integer (the state's :meth:`ActionIndex.encode`)."""
        self._fresh()
        return self._codes

    def mask(self, seat: int | None = None) -> np.ndarray:
        """1 for each legal action of ``seat`` (zeros when ``seat`` is not to move); a fresh array."""
        self._fresh()
        m = bytearray(self.index.size)  # zeroed; its items are cheaper to set than an array's
        if seat is None or self.state.to_move() == seat:
            for i in self._codes.values():
                m[i] = 1
        return np.frombuffer(m, np.int8)

    def observe(self, seat: int) -> np.ndarray:
        """``seat``'s observation tensor (a fresh array)."""
        return self._observe(self.state, seat)  # type: ignore[arg-type]

    def play(self, action: int | str) -> None:
        if isinstance(action, str):
            text = action
        else:
            i = int(action)
            codes = self.codes()
            text = self.index.actions[i] if 0 <= i < len(self.index.actions) else ""
            if codes.get(text) != i:  # an overflow slot, or not legal now
                text = self.index.decode(i, self._legal)
        self.state = skip_chance(self.state.apply(text), self.rng)

    def returns(self) -> list[float]:
        return returns_of(self.state.result(), self.n_seats, teams_of(self.state))


def check_action(action: Any) -> int:
    if action is None:
        raise KassenError("no action given for a seat that must act")
    return int(action)
