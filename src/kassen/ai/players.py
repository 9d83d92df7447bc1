"""The computer players by name: what ``--players``, the lobby and the research envs accept.

``random``, ``greedy`` and ``mcts`` are generic over the game protocol; the difficulty levels
``easy``, ``normal`` and ``hard`` are what each game's spec says they are
(:class:`kassen.rulesets.registry.AISpec`): the whole-turn planner of :mod:`kassen.ai.planner`
(:func:`planner_level`), sequential halving on determinized states with the game's own
evaluation (:func:`halving_level`), or, for a game that says nothing, greedy and MCTS at
budgets to match. The base class and its rules of fair play are in :mod:`kassen.ai.player`.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import sys
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
#: ``normal`` thinks a median 0.3 CPU-s a turn (max 1.4; Sekigahara 0.4, max 2.0), ``hard`` 1.4
#: (max 2.7; benchmarks/README.md).
#: Every level reads an evaluation with what ``hard`` learned (issue 33): Dragon cards held are worth
#: keeping and are played at a 0.25 margin, a close combat's battle back counts, Leaders and lone
#: units in enemy reach are at risk, and a plan that wins now is played (``weights_cc.json``;
#: ``normal`` reads its own files, below).
PLANNER_LEVELS: dict[str, dict[str, object]] = {
    # easy: 30% of its orders and moves at random, among those within 1.5 blocks of the best
    "easy": {"battle_samples": 2, "noise": 0.3, "noise_floor": 1.5, "dragon_hold": 0.25},
    # normal (issue 33): plans with W5 + vulnerable + contact_reach (weights_cc_normal.json) and
    # judges outcomes with the Texel fit of its own games (weights_cc_normal_judge.json): 135 of 200
    # against the frozen normal of e5b1536, 100 of 100 against greedy (benchmarks/README.md)
    "normal": {"battle_samples": 8, "card_rollouts": 6, "card_beam": 3, "reply": True, "dragon_hold": 0.25,
               "weights_file": "weights_cc_normal.json", "judge_weights_file": "weights_cc_normal_judge.json"},
    # hard: its own weights (Dragon cards held are worth keeping, a close combat's battle back
    # counts against it) and Dragon cards played at a smaller margin: 31 of 40 against mcts at 1 s
    # a decision, where the same planner without them won 6 of 16 (docs/decisions.md); with the
    # Leader safety and win-now weights of issue 33 since, 17 of 24 (benchmarks/README.md)
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
    settings = dict(ai.levels[level])
    evaluation = hook(ai.evaluation)
    weights = settings.pop("weights", None)
    if weights is not None:  # a weights file of the evaluation (``evaluate_hv``'s ``weights``)
        evaluation = functools.partial(evaluation, weights=str(weights))
    return HalvingPlayer(seed, evaluation=evaluation, name=level,
                         endgame=hook(ai.endgame) if ai.endgame else None,
                         horizon=hook(ai.horizon) if ai.horizon else None, **settings)


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


class FunctionPlayer(Player):
    """A player over a function ``policy(state, seat) -> action`` (see :func:`load_player`)."""

    def __init__(self, policy: Callable[[State, int], str], name: str) -> None:
        self.policy = policy
        self.name = name

    def choose(self, state: State, seat: int) -> str:
        return self.policy(state, seat)


def load_player(spec: str, seed: int) -> Player:
    """The player ``module:attribute`` names, from the user's own code (``kassen battle`` and
    ``balance --players``; the current directory is searched too): a :class:`Player` class or
    factory, called with the game's seed (``make(seed) -> Player``); a function of two
    parameters, ``policy(state, seat) -> action`` (the fair-play rules of this module hold: look
    only at ``state.observation(seat)`` and ``state.legal_actions()``); or a player object itself.
    An environment policy over observation tensors plays through
    :class:`kassen.envs.policy.PolicyPlayer` (``def make(seed): return PolicyPlayer(my_policy)``).
    """
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise KassenError(f"player {spec!r}: a player from code is named module:function, e.g. mybots:make")
    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise KassenError(f"player {spec!r}: cannot import {module_name!r} ({exc})") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise KassenError(f"player {spec!r}: {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if hasattr(obj, "choose") and not isinstance(obj, type):
        player = obj
    elif callable(obj) and _positional_params(obj) == 2:
        player = FunctionPlayer(obj, spec)
    elif callable(obj):
        player = obj(seed)
    else:
        raise KassenError(f"player {spec!r} is neither a player, a factory make(seed) nor policy(state, seat)")
    if not callable(getattr(player, "choose", None)):
        raise KassenError(f"player {spec!r}: {attr}({seed}) gave {type(player).__name__}, which has no choose()")
    if not isinstance(getattr(player, "name", None), str):
        player.name = spec
    return player  # type: ignore[no-any-return]


def _positional_params(fn: Callable[..., Any]) -> int:
    """How many positional parameters ``fn`` takes without defaults (-1 when it cannot be told)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return -1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in sig.parameters.values() if p.kind in kinds and p.default is inspect.Parameter.empty)


def make_player(name: str, seed: int) -> Player:
    """The computer player called ``name``; raises ``KassenError`` naming the known ones. A name
    ``module:function`` is a player from the user's code (:func:`load_player`; the web service
    takes only the names of :data:`PLAYERS`).

    >>> make_player("random", 1).name
    'random'
    """
    if ":" in name:
        return load_player(name.strip(), seed)
    key = name.strip().lower()
    factory = PLAYERS.get(key)
    if factory is None:
        extra = f" ({key!r} is played by the front end, not by a computer player)" if key in FRONT_END_PLAYERS else ""
        raise KassenError(f"unknown player {name!r}{extra}; known players: {', '.join(known_players())}")
    return factory(seed)


__all__ = ["DEFAULT_LEVEL", "GAME_LEVELS", "PLANNER_LEVELS", "PLAYERS", "LevelPlayer", "Player", "RandomPlayer",
           "generic_level", "halving_level", "known_players", "level_player", "make_player", "planner_level"]
