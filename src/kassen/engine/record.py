"""Saved games: (ruleset, rules version, scenario, seed, options, actions), and the seat that
conceded, if one did (a concession is no rule action: :mod:`kassen.engine.concession`).

A record replays to the identical state, because the state owns all its randomness.

>>> r = GameRecord("toy", "1", None, 7, ["a", "b"])
>>> GameRecord.from_json(r.to_json()) == r
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kassen.engine.concession import Conceded
from kassen.engine.errors import FormatError, KassenError
from kassen.engine.protocol import Game, State

JSON = dict[str, Any]
FORMAT = "kassen-game/1"


@dataclass
class GameRecord:
    """Everything needed to replay a game exactly."""

    ruleset: str
    rules_version: str
    scenario: str | None
    seed: int
    actions: list[str] = field(default_factory=list)
    options: JSON = field(default_factory=dict)
    #: the seat that gave the game up after the last action (``None``: nobody did)
    conceded: int | None = None

    def to_json(self) -> JSON:
        """The saved game's JSON (``conceded`` only when a seat conceded).

        >>> GameRecord("toy", "1", None, 7, ["a"], conceded=1).to_json()["conceded"]
        1
        """
        extra: JSON = {} if self.conceded is None else {"conceded": self.conceded}
        return {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "rules_version": self.rules_version,
            "scenario": self.scenario,
            "seed": self.seed,
            "options": self.options,
            "actions": list(self.actions),
            **extra,
        }

    @classmethod
    def from_json(cls, d: Any) -> GameRecord:
        if not isinstance(d, dict):
            raise FormatError("saved game: expected a JSON object")
        if d.get("format") != FORMAT:
            raise FormatError(f"saved game: 'format' must be {FORMAT!r}, got {d.get('format')!r}")
        for key, typ in (("ruleset", str), ("rules_version", str), ("seed", int), ("actions", list)):
            if not isinstance(d.get(key), typ):
                kind = {"str": "a string", "int": "an integer", "list": "a list"}[typ.__name__]
                raise FormatError(f"saved game: field {key!r} is missing or not {kind}")
        if not all(isinstance(a, str) for a in d["actions"]):
            raise FormatError("saved game: every entry of 'actions' must be a string")
        scen = d.get("scenario")
        if scen is not None and not isinstance(scen, str):
            raise FormatError("saved game: 'scenario' must be a string or null")
        opts = d.get("options", {})
        if not isinstance(opts, dict):
            raise FormatError("saved game: 'options' must be an object")
        conceded = d.get("conceded")
        if conceded is not None and (not isinstance(conceded, int) or isinstance(conceded, bool) or conceded < 0):
            raise FormatError("saved game: 'conceded' must be a seat number (0 or more) or null")
        return cls(d["ruleset"], d["rules_version"], scen, d["seed"], list(d["actions"]), opts, conceded)


def new_game(game: Game, scenario: str | None, seed: int, **options: Any) -> tuple[State, GameRecord]:
    """Start a game and the record that will replay it."""
    state = game.new_state(scenario, seed, **options)
    return state, GameRecord(game.id, game.rules_version, scenario, seed, [], dict(options))


def replay(game: Game, record: GameRecord) -> State:
    """Replay ``record``; raises ``FormatError`` naming the first action that fails."""
    if record.ruleset != game.id:
        raise FormatError(f"saved game is for {record.ruleset!r}, not {game.id!r}")
    if record.rules_version != game.rules_version:
        raise FormatError(
            f"saved game was made with rules version {record.rules_version}, "
            f"this is {game.rules_version}: it may not replay identically"
        )
    state = game.new_state(record.scenario, record.seed, **record.options)
    for i, action in enumerate(record.actions):
        try:
            state = state.apply(action)
        except KassenError as exc:
            raise FormatError(f"saved game: action {i + 1} ({action!r}) cannot be replayed: {exc}") from exc
    return conceded_at(state, record)


def conceded_at(state: State, record: GameRecord) -> State:
    """``state`` (the record's last) with the record's concession, if it has one; raises
    ``FormatError`` when that concession cannot be (a finished game, a seat it does not have)."""
    if record.conceded is None:
        return state
    try:
        return Conceded(state, record.conceded)
    except KassenError as exc:
        raise FormatError(f"saved game: its concession by seat {record.conceded} cannot be: {exc}") from exc
