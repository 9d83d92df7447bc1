"""The computer players by name: what ``--players``, the lobby and the research envs accept.

``random``, ``greedy`` and ``mcts`` are generic over the game protocol; the difficulty levels
``easy``, ``normal`` and ``hard`` are what each game's spec says they are
(:class:`kassen.rulesets.registry.AISpec`): the whole-turn planner of :mod:`kassen.ai.planner`
(:func:`planner_level`), sequential halving on determinized states with the game's own
evaluation (:func:`halving_level`), or, for a game that says nothing, greedy and MCTS at
budgets to match. The base class and its rules of fair play are in :mod:`kassen.ai.player`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kassen.ai.lookahead import HalvingPlayer
from kassen.ai.planner import TurnPlanner
from kassen.ai.player import Player, RandomPlayer
from kassen.ai.search import GreedyPlayer, MCTSPlayer
from kassen.engine.errors import KassenError
from kassen.engine.protocol import State
from kassen.rulesets.registry import RulesetSpec, get, hook, specs


class LevelPlayer(Player):
    """A difficulty level (``easy``, ``normal``, ``hard``): the player the game's spec gives that
    level (:func:`level_player`), chosen at the first decision from the game's id (public). No
    level ever concedes while anything else is legal."""

    def __init__(self, level: str, seed: int) -> None:
        self.name = level
        self.level = level
        self.seed = seed
        self.inner: Player | None = None
        self.game_id: str | None = None

    @property
    def explanation(self) -> str | None:
        """The last planned turn in words, when the level's player explains itself."""
        text = getattr(self.inner, "explanation", None)
        return text if isinstance(text, str) else None

    def choose(self, state: State, seat: int) -> str:
        gid = state.game.id
        if self.inner is None or gid != self.game_id:
            self.inner, self.game_id = level_player(self.level, gid, self.seed), gid
        return self.inner.choose(state, seat)


#: the C&C Samurai planner's settings per level (see :class:`kassen.ai.planner.TurnPlanner`).
#: The budgets are counted (samples and rollouts), never cut by the clock, so a level plays the
#: same moves on a busy machine as on an idle one; measured on one core of the compiled build,
#: ``normal`` thinks a median 0.8 CPU-s a turn (skirmish; 1.3 on Sekigahara), ``hard`` 4.9 (a mean
#: of 4.2 against mcts).
PLANNER_LEVELS: dict[str, dict[str, object]] = {
    "easy": {"battle_samples": 2, "noise": 0.3},
    "normal": {"battle_samples": 8, "card_rollouts": 6, "card_beam": 3, "reply": True},
    # hard: its own weights (Dragon cards held are worth keeping, a close combat's battle back
    # counts against it) and Dragon cards played at a smaller margin: 31 of 40 against mcts at 1 s
    # a decision, where the same planner without them won 6 of 16 (benchmarks/README.md)
    "hard": {"battle_samples": 16, "card_rollouts": 24, "card_beam": 5, "reply": True,
             "weights_file": "weights_cc_hard.json", "dragon_hold": 0.25},
}


def planner_level(spec: RulesetSpec, level: str, seed: int) -> Player:
    """A level of a C&C game: the whole-turn planner with :data:`PLANNER_LEVELS` (or the spec's
    own settings for the level, when it gives them)."""
    settings: Mapping[str, Any] = spec.ai.levels.get(level) or PLANNER_LEVELS[level]
    return TurnPlanner(seed, name=level, **settings)


def halving_level(spec: RulesetSpec, level: str, seed: int) -> Player:
    """A level of a game searched by sequential halving (:class:`kassen.ai.lookahead.HalvingPlayer`)
    with the spec's evaluation, endgame, horizon and settings for the level."""
    ai = spec.ai
    if ai.evaluation is None:
        raise KassenError(f"{spec.id}: its look-ahead levels need an evaluation (AISpec.evaluation)")
    return HalvingPlayer(seed, evaluation=hook(ai.evaluation), name=level,
                         endgame=hook(ai.endgame) if ai.endgame else None,
                         horizon=hook(ai.horizon) if ai.horizon else None, **ai.levels[level])


def generic_level(level: str, seed: int) -> Player:
    """A level of a game whose spec names no player: greedy with one sample and short playouts
    (easy), greedy (normal), MCTS with 300 iterations (hard)."""
    if level == "easy":
        return GreedyPlayer(seed, samples=1, depth=6)
    if level == "normal":
        return GreedyPlayer(seed)
    return MCTSPlayer(seed, iterations=300)


#: the settings of :class:`kassen.ai.lookahead.HalvingPlayer` per game and level, as the games'
#: specs give them (``AISpec.levels``)
GAME_LEVELS: dict[str, Mapping[str, Mapping[str, Any]]] = {
    s.id: s.ai.levels for s in specs() if s.ai.player is not None and s.ai.levels}


def level_player(level: str, game_id: str, seed: int) -> Player:
    """The player a difficulty level uses for ``game_id``, as its spec says."""
    spec = get(game_id)
    if spec.ai.player is None:
        return generic_level(level, seed)
    player: Player = hook(spec.ai.player)(spec, level, seed)
    return player


def _level(level: str) -> Callable[[int], Player]:
    return lambda seed: LevelPlayer(level, seed)


#: player name -> factory taking a seed
PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "mcts": MCTSPlayer,
    "easy": _level("easy"),
    "normal": _level("normal"),
    "hard": _level("hard"),
}
#: the level front ends offer by default
DEFAULT_LEVEL = "normal"

#: names a front end handles itself (a person at the keyboard)
FRONT_END_PLAYERS = ("human",)


def known_players() -> list[str]:
    """Every name ``--players`` accepts."""
    return [*FRONT_END_PLAYERS, *PLAYERS]


def make_player(name: str, seed: int) -> Player:
    """The computer player called ``name``; raises ``KassenError`` naming the known ones.

    >>> make_player("random", 1).name
    'random'
    """
    key = name.strip().lower()
    factory = PLAYERS.get(key)
    if factory is None:
        extra = f" ({key!r} is played by the front end, not by a computer player)" if key in FRONT_END_PLAYERS else ""
        raise KassenError(f"unknown player {name!r}{extra}; known players: {', '.join(known_players())}")
    return factory(seed)


__all__ = ["DEFAULT_LEVEL", "GAME_LEVELS", "PLANNER_LEVELS", "PLAYERS", "LevelPlayer", "Player", "RandomPlayer",
           "generic_level", "halving_level", "known_players", "level_player", "make_player", "planner_level"]
