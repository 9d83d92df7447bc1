"""The computer player's base class, and the random player.

A player is anything with a ``name`` and a ``choose(state, seat)`` method that
returns one of ``state.legal_actions()``. The front end calls ``choose`` only
when ``state.to_move() == seat``.

**Fair play.** A player may look at the game only through
``state.observation(seat)`` (what its seat may see) and
``state.legal_actions()`` (public: the moves of the seat to move, which is its
own). It must never read ``state.to_json()``, the state's attributes (hands,
decks, the RNG) or ``observation`` of another seat, and it must not call
``apply`` on the real state to look ahead: rulesets roll dice inside ``apply``
with the state's own generator, so a look-ahead would see the real dice.
Look-ahead players (:mod:`kassen.ai.search`) search on
``state.determinize(seat, rng)``: copies with every hidden part resampled. Players are generic over the
protocol in :mod:`kassen.engine.protocol` and work with every game of
:mod:`kassen.rulesets.registry`. The players by name (``random``, ``greedy``, the levels...) are
in :mod:`kassen.ai.players`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from kassen.engine.errors import KassenError
from kassen.engine.protocol import State
from kassen.engine.rng import Rng


class Player(ABC):
    """A computer player for one seat."""

    name: str = "player"

    @abstractmethod
    def choose(self, state: State, seat: int) -> str:
        """The action to take; called only when ``state.to_move() == seat``.

        Use only ``state.observation(seat)`` and ``state.legal_actions()``.
        """

    def legal_actions(self, state: State, seat: int) -> list[str]:
        """``state.legal_actions()``, or an error naming the player and the seat when there is
        none (the game is over): what every ``choose`` starts with."""
        legal = state.legal_actions()
        if not legal:
            raise KassenError(f"{self.name}: seat {seat} has no legal action (is the game over?)")
        return legal


class RandomPlayer(Player):
    """Picks uniformly among the legal actions, with its own seeded generator.

    >>> from kassen.rulesets.registry import default_game
    >>> s = default_game().load().new_state(None, 1)
    >>> RandomPlayer(7).choose(s, s.to_move()) in s.legal_actions()
    True
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State, seat: int) -> str:
        return self.rng.choice(self.legal_actions(state, seat))


__all__ = ["Player", "RandomPlayer"]
