"""A concession: a person gives the game up, whatever the rules' own state.

Conceding is not a rule action (no ruleset lists it, so action spaces, masks and digests stay
as they are): front ends (the web server, the terminal) put a :class:`Conceded` state after the
last real one. It is over (``to_move()`` is ``None``), its result is :func:`concession_result`,
and everything else (observation, seats, scenario name) is the state it was conceded in.

In a game of two seats the other seat wins. In a game of more (the clan game, ruling C26):
with partners (``state.partner(seat)``) the other team wins; otherwise the game ends with every
other seat sharing the result (no winner is named among them), the conceding seat last.

>>> from kassen.engine.protocol import Result
>>> concession_result(("Red", "Blue"), 0)
Result(winner=1, reason='Red conceded', scores=(0.0, 1.0))
>>> concession_result(("A", "B", "C"), 1)
Result(winner=None, reason='B conceded: the game ends, shared by A and C', scores=(0.5, 0.0, 0.5))
>>> concession_result(("A", "B", "C", "D"), 1, partner=3)
Result(winner=0, reason='B conceded: A & C win', scores=(1.0, 0.0, 1.0, 0.0))
"""

from __future__ import annotations

from typing import Any

from kassen.engine.errors import IllegalActionError, KassenError
from kassen.engine.events import Event
from kassen.engine.protocol import JSON, Result, State

#: the event a concession adds to the log (public)
KIND = "concede"


def concession_result(names: tuple[str, ...], seat: int, partner: int | None = None) -> Result:
    """The result of ``names[seat]`` conceding (``partner``: its team mate, if any)."""
    if not 0 <= seat < len(names):
        raise KassenError(f"no seat {seat} to concede: seats are 0..{len(names) - 1}")
    who = names[seat]
    if len(names) == 2:
        other = 1 - seat
        scores = tuple(1.0 if s == other else 0.0 for s in range(2))
        return Result(other, f"{who} conceded", scores)
    losers = {seat} if partner is None else {seat, partner}
    rest = [s for s in range(len(names)) if s not in losers]
    if partner is not None:
        scores = tuple(0.0 if s in losers else 1.0 for s in range(len(names)))
        return Result(rest[0], f"{who} conceded: {' & '.join(names[s] for s in rest)} win", scores)
    share = 1.0 / len(rest)
    scores = tuple(0.0 if s == seat else share for s in range(len(names)))
    others = ", ".join(names[s] for s in rest[:-1]) + f" and {names[rest[-1]]}"
    return Result(None, f"{who} conceded: the game ends, shared by {others}", scores)


def partner_of(state: State, seat: int) -> int | None:
    """``seat``'s team mate in a game with partners (a state with ``partner(seat)``), else ``None``."""
    fn = getattr(state, "partner", None)
    if not callable(fn):
        return None
    mate = fn(seat)
    return mate if isinstance(mate, int) else None


class Conceded(State):
    """``inner`` given up by ``seat``: over, with the concession's result; the rest is ``inner``."""

    def __init__(self, inner: State, seat: int) -> None:
        if isinstance(inner, Conceded):
            raise KassenError(f"the game is already over: {inner.reason}")
        if inner.is_terminal():
            raise KassenError("the game is already over: a finished game cannot be conceded")
        names = tuple(inner.seat_names())
        self.inner = inner
        self.seat = seat
        self._result = concession_result(names, seat, partner_of(inner, seat))
        self.game = inner.game
        self.events = (Event(KIND, {"seat": seat, "winner": self._result.winner}, self._result.reason),)

    @property
    def reason(self) -> str:
        return self._result.reason

    def __getattr__(self, name: str) -> Any:
        # only for attributes this class lacks (scenario_name, ...): the state conceded in
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def to_move(self) -> int | None:
        return None

    def legal_actions(self) -> list[str]:
        return []

    def apply(self, action: str) -> State:
        raise IllegalActionError(action, f"the game is over: {self.reason}")

    def result(self) -> Result | None:
        return self._result

    def observation(self, seat: int | None) -> JSON:
        return self.inner.observation(seat)

    def to_json(self) -> JSON:
        return self.inner.to_json()

    def seat_names(self) -> tuple[str, ...]:
        return tuple(self.inner.seat_names())

    def secrets(self, seat: int | None) -> set[str]:
        return self.inner.secrets(seat)

    def prompt(self) -> str:
        return ""

    def describe_action(self, action: str) -> str:
        return self.inner.describe_action(action)
