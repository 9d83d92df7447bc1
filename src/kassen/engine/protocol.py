"""The game protocol every ruleset implements.

A *game* holds static facts (id, name, seats, rules version) and makes states.
A *state* is a moment of play. It is immutable from the outside:
``state.apply(action)`` returns a new state and leaves the old one as it was.

- ``to_move()`` is whose decision it is: a seat index, ``CHANCE`` for an explicit
  chance node (then ``chance_outcomes()`` lists outcomes with probabilities), or
  ``None`` when the game is over.
- ``legal_actions()`` lists the actions of the seat to move, in their text notation.
  An action *is* its notation: a short string that round-trips by construction.
- ``apply(action)`` checks legality; an illegal action raises
  :class:`~kassen.engine.errors.IllegalActionError` and changes nothing.
- ``events`` are the events the last ``apply`` produced (see :mod:`kassen.engine.events`).
- ``observation(seat)`` is a JSON object with nothing that seat may not see;
  ``secrets(seat)`` lists strings that must never appear in it (the contract test
  checks this after every action).
- ``to_json()`` / ``Game.state_from_json()`` round-trip a state exactly.

Randomness comes only from the state: a seeded :class:`~kassen.engine.rng.Rng` in
the state, or explicit ``CHANCE`` nodes. Rulesets that roll dice internally also
accept *forced* dice (``with_forced_dice``) so tests and tools can fix every roll.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kassen.engine.events import Event
from kassen.engine.rng import Rng

JSON = dict[str, Any]

#: ``to_move()`` value for an explicit chance node.
CHANCE = -1


@dataclass(frozen=True)
class Result:
    """How a finished game ended: the winning seat (``None`` for a draw) and why."""

    winner: int | None
    reason: str
    scores: tuple[float, ...] = field(default_factory=tuple)

    def to_json(self) -> JSON:
        return {"winner": self.winner, "reason": self.reason, "scores": list(self.scores)}

    @classmethod
    def from_json(cls, d: JSON) -> Result:
        return cls(d["winner"], str(d["reason"]), tuple(d.get("scores", ())))


class Game(ABC):
    """Static facts about a ruleset, and the factory of its states."""

    #: short id used on the command line, e.g. ``"cc-samurai"``
    id: str = ""
    #: human name
    name: str = ""
    #: bumped whenever a rule change could change a replay
    rules_version: str = "1"
    #: seat names, in seat order
    seats: tuple[str, ...] = ()

    @abstractmethod
    def new_state(self, scenario: str | None = None, seed: int = 0, **options: Any) -> State:
        """The starting state of ``scenario`` (``None``: the introductory one)."""

    @abstractmethod
    def state_from_json(self, data: JSON) -> State:
        """Rebuild a state from :meth:`State.to_json` output (raises ``FormatError``)."""

    def scenarios(self) -> list[str]:
        """Names of the scenarios this game ships."""
        return []

    def default_scenario(self) -> str | None:
        names = self.scenarios()
        return names[0] if names else None


class State(ABC):
    """One moment of a game. Treat it as immutable: ``apply`` returns a new state."""

    game: Game
    events: tuple[Event, ...] = ()

    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose decision it is, ``CHANCE``, or ``None`` if the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """Legal actions of the seat to move (empty when the game is over)."""

    @abstractmethod
    def apply(self, action: str) -> State:
        """The state after ``action``; raises ``IllegalActionError`` if it is not legal."""

    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def observation(self, seat: int | None) -> JSON:
        """What ``seat`` sees (``None``: a spectator, who sees only public information)."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The whole state, hidden parts included, as JSON."""

    def is_terminal(self) -> bool:
        return self.to_move() is None

    def seat_names(self) -> tuple[str, ...]:
        """The seats playing this game, in seat order. A game whose number of players
        varies (a 2–4 player card game) overrides this; the default is ``game.seats``."""
        return self.game.seats

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """At a ``CHANCE`` node: each outcome action with its probability."""
        return []

    def secrets(self, seat: int | None) -> set[str]:
        """Strings that must never appear in ``observation(seat)`` (hidden card ids, ...)."""
        return set()

    def determinize(self, seat: int, rng: Rng) -> State:
        """A state ``seat`` cannot tell apart from this one: every hidden part (the other
        seats' hands, deck orders, the RNG) resampled with ``rng``. AI players look ahead
        only on such states, never on the real one.
        """
        raise NotImplementedError(f"{type(self).__name__} does not support look-ahead (determinize)")

    def heuristic(self, seat: int) -> float:
        """A quick estimate in [-1, 1] of how well ``seat`` stands (1: winning)."""
        res = self.result()
        if res is None or res.winner is None:
            return 0.0
        return 1.0 if res.winner == seat else -1.0

    def heuristics(self) -> tuple[float, ...]:
        """``heuristic(seat)`` of every seat, in seat order (a ruleset may compute them in one
        pass; MCTS backs up all of them after each playout)."""
        return tuple(self.heuristic(seat) for seat in range(len(self.seat_names())))

    def prompt(self) -> str:
        """One line saying what the seat to move must decide."""
        return "" if self.is_terminal() else "choose an action"

    def describe_action(self, action: str) -> str:
        """A longer English reading of an action, for menus."""
        return action

    def action_odds(self, action: str) -> dict[str, Any] | None:
        """Exact odds of an attack the seat to move may make now (dice, ``hits``, ``flags``,
        ``p_hit``, ``p_hit_or_retreat``, ``p_eliminated``), or ``None`` for games or actions
        without any. Front ends show them before the person commits."""
        return None


def apply(state: State, action: str) -> State:
    """Functional form of :meth:`State.apply`."""
    return state.apply(action)


def play_out(state: State, actions: Sequence[str]) -> State:
    """Apply ``actions`` in order."""
    for a in actions:
        state = state.apply(a)
    return state


def sample_chance(outcomes: Sequence[tuple[str, float]], rng: Rng) -> str:
    """Pick a chance outcome by its probability.

    >>> sample_chance([("a", 0.0), ("b", 1.0)], Rng(1))
    'b'
    """
    x = rng.randbelow(1 << 30) / (1 << 30)
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc:
            return action
    return outcomes[-1][0]
