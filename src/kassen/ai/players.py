"""Computer players.

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
:mod:`kassen.rulesets.registry`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

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


class RandomPlayer(Player):
    """Picks uniformly among the legal actions, with its own seeded generator.

    >>> from kassen.rulesets.registry import load_game
    >>> s = load_game("cc-samurai").new_state(None, 1)
    >>> RandomPlayer(7).choose(s, s.to_move()) in s.legal_actions()
    True
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State, seat: int) -> str:
        actions = state.legal_actions()
        if not actions:
            raise KassenError(f"{self.name}: seat {seat} has no legal action (is the game over?)")
        return self.rng.choice(actions)


def _greedy(seed: int) -> Player:
    from kassen.ai.search import GreedyPlayer

    return GreedyPlayer(seed)


def _mcts(seed: int) -> Player:
    from kassen.ai.search import MCTSPlayer

    return MCTSPlayer(seed)


class LevelPlayer(Player):
    """A difficulty level (``easy``, ``normal``, ``hard``): the whole-turn planner of
    :mod:`kassen.ai.planner` for C&C Samurai (both editions); for An Honourable Victory!
    and the clan card game, sequential halving on determinized states with the game's
    own evaluation (:mod:`kassen.ai.lookahead`, settings in :data:`GAME_LEVELS`); for
    the other games an existing player with a budget to match (easy: greedy with one
    sample and short playouts; normal: greedy; hard: MCTS with 300 iterations). The
    player is chosen at the first decision, from the game's id (public). No level ever
    concedes while anything else is legal."""

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
#: Every level reads an evaluation with what ``hard`` learned (issue 33): Dragon cards held are worth
#: keeping and are played at a 0.25 margin, a close combat's battle back counts, Leaders and lone
#: units in enemy reach are at risk, and a plan that wins now is played (``weights_cc.json``).
PLANNER_LEVELS: dict[str, dict[str, object]] = {
    # easy: 30% of its orders and moves at random, among those within 1.5 blocks of the best
    "easy": {"battle_samples": 2, "noise": 0.3, "noise_floor": 1.5, "dragon_hold": 0.25},
    "normal": {"battle_samples": 8, "card_rollouts": 6, "card_beam": 3, "reply": True, "dragon_hold": 0.25},
    # hard: its own weights (Dragon cards held are worth keeping, a close combat's battle back
    # counts against it) and Dragon cards played at a smaller margin: 31 of 40 against mcts at 1 s
    # a decision, where the same planner without them won 6 of 16 (benchmarks/README.md)
    "hard": {"battle_samples": 16, "card_rollouts": 24, "card_beam": 5, "reply": True,
             "weights_file": "weights_cc_hard.json", "dragon_hold": 0.25},
}

#: the settings of :class:`kassen.ai.lookahead.HalvingPlayer` per game and level: playouts per
#: decision (the budget, counted), their depth in actions (60: to the end of a clan game) and
#: whether they stop when the seat must decide again; An Honourable Victory!'s endgame play-outs
#: per decision, and the candidates the ordinary playouts shortlist for them before the last turn
GAME_LEVELS: dict[str, dict[str, dict[str, int]]] = {
    "clans": {
        "easy": {"playouts": 30, "depth": 60},
        "normal": {"playouts": 300, "depth": 60},
        "hard": {"playouts": 1200, "depth": 60},
    },
    "honourable-victory": {  # the playout plays the replies and dice until the seat decides again
        "easy": {"playouts": 16, "depth": 30, "until_mine": 1, "end_playouts": 8, "shortlist": 4},
        "normal": {"playouts": 120, "depth": 30, "until_mine": 1, "end_playouts": 48, "shortlist": 8},
        # hard: little more than normal's ordinary playouts (with 600, and spare units valued at
        # REACH_WEIGHT 2.0, it won 1, drew 2, lost 3 of 6 against normal), more at the end
        "hard": {"playouts": 160, "depth": 30, "until_mine": 1, "end_playouts": 160, "shortlist": 12},
    },
}


def level_player(level: str, game_id: str, seed: int) -> Player:
    """The player a difficulty level uses for ``game_id``."""
    if game_id.startswith("cc-samurai"):
        from kassen.ai.planner import TurnPlanner

        return TurnPlanner(seed, name=level, **PLANNER_LEVELS[level])  # type: ignore[arg-type]
    if game_id in GAME_LEVELS:
        from kassen.ai.evaluate_games import ENDGAMES, EVALUATIONS, HORIZONS
        from kassen.ai.lookahead import HalvingPlayer

        return HalvingPlayer(seed, evaluation=EVALUATIONS[game_id], name=level, endgame=ENDGAMES.get(game_id),
                             horizon=HORIZONS.get(game_id), **GAME_LEVELS[game_id][level])
    from kassen.ai.search import GreedyPlayer, MCTSPlayer

    if level == "easy":
        return GreedyPlayer(seed, samples=1, depth=6)
    if level == "normal":
        return GreedyPlayer(seed)
    return MCTSPlayer(seed, iterations=300)


def _level(level: str) -> Callable[[int], Player]:
    return lambda seed: LevelPlayer(level, seed)


#: player name -> factory taking a seed
PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": _greedy,
    "mcts": _mcts,
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


__all__ = ["DEFAULT_LEVEL", "PLAYERS", "LevelPlayer", "Player", "RandomPlayer", "known_players", "make_player"]
