"""OpenSpiel games over Kassen: ``import kassen.envs.openspiel`` registers, with pyspiel,

- ``python_kassen_cc_samurai``, ``python_kassen_cc_samurai_zvezda``,
- ``python_kassen_clans`` (2-4 players: the ``scenario`` parameter decides),
- ``python_kassen_honourable_victory``.

Parameters: ``scenario`` (``""``: the game's default), ``seed`` (the k-th ``new_initial_state()``
has the seed ``seed * 1000003 + k``), ``max_game_length`` (a game still running after that many
actions ends as a draw, so the declared bound holds) and the envs' game options
(:func:`kassen.envs.core.env_defaults`: ``concede`` in An Honourable Victory!, default ``False``).

**Information.** ``IMPERFECT_INFORMATION``: hands, decks, face-down cards and hidden
declarations are private. Observations come only from what ``observation(player)`` shows:
``observation_tensor`` is the game's fast observer (:mod:`kassen.envs.fast`; a fresh float32
array), ``observation_string`` the observation JSON. ``information_state_string`` has perfect
recall: a SHA-256 chain over every observation the player has had since the start, then the
current observation. ``information_state_tensor`` is the current observation tensor (a
fixed-size tensor cannot hold a whole history of thousands of actions): Markov, not perfect recall.

**Chance.** ``DETERMINISTIC``: no chance nodes. The rulesets roll dice and shuffle decks inside
``apply`` from a generator in the state, seeded by the seed the state was made with, so a
state's future is a function of its actions. A state is fixed when it is made (its seed taken
then; clones share it). ``serialize``, ``pickle`` and ``deepcopy`` keep the seed and the action
history, and the Kassen state is made again by replaying them (pyspiel serializes a
``SAMPLED_STOCHASTIC`` game only through ``GetRNGState``, which a Python game cannot give).
``clone()`` keeps the generator, so a search on clones sees the real dice;
``resample_from_infostate(player, sampler)`` returns a state that ``player`` cannot tell from
this one with every hidden part (other hands, deck orders, the generator) resampled: the
fair thing to search on.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import pyspiel

from kassen.engine.protocol import State
from kassen.engine.rng import Rng
from kassen.envs.actions import action_index, env_games
from kassen.envs.core import env_defaults, returns_of, skip_chance, teams_of
from kassen.envs.fast import Observer
from kassen.envs.tensors import encoder
from kassen.rulesets.registry import get, load_game

MAX_GAME_LENGTH = 20000


def short_name(game_id: str) -> str:
    return "python_kassen_" + game_id.replace("-", "_")


class _Shared:
    """Holds an immutable value; pyspiel clones a Python state by deep-copying its attributes,
    and Kassen states never change once made, so clones share them."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        # ``serialize`` (and pickling) keep a state's seed and action history only: what a
        # _Shared holds is made again from them (``KassenState.kassen_state``)
        return (_nothing, ())


def _nothing() -> None:
    return None


def _game_type(gid: str) -> Any:
    game = load_game(gid)
    scenarios: list[str | None] = [*game.scenarios()] or [None]
    seats = {len(game.new_state(s, 0).seat_names()) for s in scenarios}
    two = seats == {2}
    return pyspiel.GameType(
        short_name=short_name(gid),
        long_name=f"Kassen: {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        # no chance nodes: a state's dice come from the seed it was made with, so its future is a
        # function of its actions (and OpenSpiel serializes a SAMPLED_STOCHASTIC game only through
        # GetRNGState, which a Python game cannot give: issue 34, D5)
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if two else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(seats),
        min_num_players=min(seats),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"scenario": "", "seed": 0, "max_game_length": MAX_GAME_LENGTH,
                                 **env_defaults(gid)},
    )


class KassenGame(pyspiel.Game):  # type: ignore[misc]
    """A Kassen game for OpenSpiel; subclasses fix ``game_id``."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        defaults = env_defaults(self.game_id)
        params = {"scenario": "", "seed": 0, "max_game_length": MAX_GAME_LENGTH, **defaults, **(params or {})}
        self.kgame = load_game(self.game_id)
        self.scenario = str(params["scenario"]) or None
        self.base_seed = int(params["seed"])
        self.max_length = int(params["max_game_length"])
        #: the game's own options (``concede`` in An Honourable Victory!: :func:`~kassen.envs.core.env_defaults`)
        self.options: dict[str, Any] = {k: params[k] for k in defaults}
        self.index = action_index(self.game_id)
        self.encoder = encoder(self.game_id)
        #: the game's fast observer (the JSON encoder is the tests' reference only)
        self.observer = Observer(self.game_id)
        env = get(self.game_id).env
        #: the encoder reads the seat from the observation (``EnvSpec.seat_in_observation``)
        self.seat_in_observation = env is not None and env.seat_in_observation
        probe = self.kgame.new_state(self.scenario, 0, **self.options)
        self.n_players = len(probe.seat_names())
        info = pyspiel.GameInfo(
            num_distinct_actions=self.index.size,
            max_chance_outcomes=0,
            num_players=self.n_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if _TYPES[self.game_id].utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=self.max_length,
        )
        super().__init__(_TYPES[self.game_id], info, params)
        self._count = 0
        #: the last state given a seed, and that seed (see :meth:`issue_seed`)
        self._issued: tuple[Any, int] | None = None

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        # as pyspiel pickles its games (by their string), plus the count of games dealt
        return (_load_game, (str(self), self._count))

    def new_initial_state(self) -> KassenState:
        """A new game, with the next seed (``seed * 1000003 + k`` for the k-th game)."""
        return KassenState(self)

    def issue_seed(self, state: KassenState) -> int:
        """The seed of a new state. pyspiel clones (and deserializes) a Python state by asking for
        a new initial state and then copying the original's attributes over it, seed included: the
        seed given to such a copy was not used, and the next state gets it again, so the k-th game
        has the same seed however many clones were made before it."""
        if self._issued is not None:
            last, seed = self._issued
            if last._seed != seed:  # the last one became a copy of another state
                self._count -= 1
        seed = self.base_seed * 1000003 + self._count
        self._count += 1
        self._issued = (state, seed)
        return seed

    def start(self, seed: int) -> State:
        """The Kassen state a game with ``seed`` starts from."""
        return skip_chance(self.kgame.new_state(self.scenario, seed, **self.options), Rng(seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KassenObserver:
        return KassenObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class KassenState(pyspiel.State):  # type: ignore[misc]
    """One moment of a Kassen game; ``kassen_state`` is the protocol state."""

    def __init__(self, game: KassenGame) -> None:
        super().__init__(game)
        self._kg = _Shared(game)
        #: the seed this game was dealt with, fixed when the state is made (clones keep it)
        self._seed = game.issue_seed(self)
        # the states since the start, newest first, as a linked list shared between clones; made
        # when first needed (from the seed and the action history: also after ``deserialize``)
        self._path: _Shared | None = None
        self._codes = _Shared(None)

    # -- helpers --------------------------------------------------------------
    @property
    def kassen_state(self) -> State:
        path = self._path
        if path is None:
            path = self._path = self._replay()
        st: State = path.value[0]
        return st

    def _replay(self) -> _Shared:
        """The path from the start to now, made from the seed and the actions played."""
        game = self._game()
        st = game.start(self._seed)
        path = _Shared((st, None, {}))
        for k, action in enumerate(self.history()):
            codes = game.index.encode(st.legal_actions())
            text = next((a for a, i in codes.items() if i == action), None)
            if text is None:
                raise pyspiel.SpielError(f"action {action} of the history is not legal at move {k}")
            st = skip_chance(st.apply(text), Rng(self._seed * 1000003 + k))
            path = _Shared((st, path, {}))
        return path

    def peek(self) -> State:
        """The Kassen state (kept for callers of the older API: the state is fixed at creation)."""
        return self.kassen_state

    def _game(self) -> KassenGame:
        kg = self._kg
        if kg is None:  # deserialized: the game is this state's own
            kg = self._kg = _Shared(self.get_game())
        g: KassenGame = kg.value
        return g

    def _encoded(self) -> dict[str, int]:
        c = self._codes
        if c is None or c.value is None:  # None: deserialized
            c = self._codes = _Shared(self._game().index.encode(self.kassen_state.legal_actions()))
        codes: dict[str, int] = c.value
        return codes

    def _too_long(self) -> bool:
        return bool(self.move_number() >= self._game().max_length)

    # -- OpenSpiel API ----------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.kassen_state.to_move()
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.kassen_state.to_move():
            return []
        return sorted(self._encoded().values())

    def _apply_action(self, action: int) -> None:
        codes = self._encoded()
        text = next((a for a, i in codes.items() if i == action), None)
        if text is None:
            raise pyspiel.SpielError(f"action {action} is not legal: {self._action_to_string(0, action)}")
        nxt = self.kassen_state.apply(text)
        nxt = skip_chance(nxt, Rng(self._seed * 1000003 + self.move_number()))
        self._path = _Shared((nxt, self._path, {}))
        self._codes = _Shared(None)

    def _action_to_string(self, player: int, action: int) -> str:
        if not self.is_terminal():
            for a, i in self._encoded().items():
                if i == action:
                    return a
        index = self._game().index
        if action < len(index.actions):
            return index.actions[action]
        return f"overflow-{action - len(index.actions)}"

    def is_terminal(self) -> bool:
        return self.kassen_state.is_terminal() or self._too_long()

    def returns(self) -> list[float]:
        st = self.kassen_state
        n = self._game().n_players
        if not st.is_terminal():
            return [0.0] * n
        return returns_of(st.result(), n, teams_of(st))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KassenState:
        """A clone whose hidden parts are resampled as ``player_id`` may imagine them."""
        draw = probability_sampler() if callable(probability_sampler) else float(probability_sampler)
        rng = Rng(int(float(draw) * (1 << 31)) ^ self.move_number())
        now = self.kassen_state
        assert self._path is not None
        out: KassenState = self.clone()
        out._path = _Shared((now.determinize(player_id, rng), self._path.value[1], {}))
        out._codes = _Shared(None)
        out._seed = -1 - self._seed  # not the real deal: replaying the history would not give it
        return out

    def digest(self, seat: int | None) -> str:
        """SHA-256 over every observation ``seat`` has had from the start to now (cached along
        the path, so each observation is hashed once)."""
        self.kassen_state  # noqa: B018 (made on first use)
        todo: list[Any] = []
        node: Any = self._path
        while node is not None and seat not in node.value[2]:
            todo.append(node)
            node = node.value[1]
        prev = node.value[2][seat] if node is not None else ""
        for n in reversed(todo):
            h = hashlib.sha256(prev.encode())
            h.update(_obs_text(n.value[0], seat).encode())
            prev = n.value[2][seat] = h.hexdigest()
        return prev

    def history_states(self) -> list[State]:
        """Every Kassen state from the start to this one."""
        self.kassen_state  # noqa: B018 (made on first use)
        out: list[State] = []
        node: Any = self._path
        while node is not None:
            out.append(node.value[0])
            node = node.value[1]
        return out[::-1]

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """``player``'s observation tensor as a fresh ``float32`` array (C++ games return a list:
        ``np.asarray`` takes both), straight from the game's fast observer."""
        if player is None:
            player = self.current_player()
        if not 0 <= player < self._game().n_players:
            raise pyspiel.SpielError(f"player {player} is not a player of this game")
        out: np.ndarray = self._game().observer.observe(self.kassen_state, player)
        return out

    #: a fixed-size tensor cannot hold the whole history: the current observation (Markov)
    information_state_tensor = observation_tensor

    def __str__(self) -> str:
        st = self.kassen_state
        res = st.result()
        return f"move {self.move_number()}: " + (st.prompt() if res is None else f"over: {res.reason}")


class KassenObserver:
    """The PyObserver of a Kassen game: tensor and string for one player."""

    def __init__(self, game: KassenGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        enc = game.encoder
        self.tensor = np.zeros(enc.size, np.float32)
        planes, vector = enc.split(self.tensor)
        self.dict = {"planes": planes, "vector": vector}

    def _seat(self, player: int) -> int | None:
        return player if self.private else None

    def set_from(self, state: KassenState, player: int) -> None:
        seat = self._seat(player)
        st = state.kassen_state
        if seat is None:
            obs = st.observation(None)
            if self.game.seat_in_observation:
                obs = {**obs, "_seat": 0}
            self.tensor[:] = self.game.encoder.encode(obs)
        else:
            self.tensor[:] = self.game.observer.observe(st, seat)

    def string_from(self, state: KassenState, player: int) -> str:
        seat = self._seat(player)
        now = _obs_text(state.kassen_state, seat)
        if not self.perfect_recall:
            return now
        return f"player {player} after {state.move_number()} actions, history {state.digest(seat)}\n{now}"


def _obs_text(st: State, seat: int | None) -> str:
    return json.dumps(st.observation(seat), sort_keys=True, separators=(",", ":"))


def _load_game(text: str, count: int) -> KassenGame:
    """Unpickle a game: ``pyspiel.load_game(text)``, which goes on dealing from game ``count``."""
    game: KassenGame = pyspiel.load_game(text)
    game._count = count
    return game


_TYPES: dict[str, Any] = {}
GAMES: dict[str, type[KassenGame]] = {}


def register_all() -> dict[str, str]:
    """Register every Kassen game with pyspiel (once); game id -> OpenSpiel short name."""
    registered = set(pyspiel.registered_names())
    for gid in env_games():
        name = short_name(gid)
        if gid not in _TYPES:
            _TYPES[gid] = _game_type(gid)
            GAMES[gid] = type(f"KassenGame_{gid.replace('-', '_')}", (KassenGame,), {"game_id": gid})
        if name not in registered:
            pyspiel.register_game(_TYPES[gid], GAMES[gid])
    return {gid: short_name(gid) for gid in env_games()}


SHORT_NAMES = register_all()


def heuristic_evaluator() -> Any:
    """An evaluator for ``open_spiel.python.algorithms.mcts.MCTSBot`` that scores a leaf with
    the ruleset's own ``State.heuristic(seat)`` (in [-1, 1]) instead of a random playout to
    the end (thousands of actions in a C&C battle). Priors are uniform."""
    from open_spiel.python.algorithms import mcts

    class HeuristicEvaluator(mcts.Evaluator):  # type: ignore[misc]
        def evaluate(self, state: KassenState) -> np.ndarray:
            if state.is_terminal():
                return np.array(state.returns())
            st = state.kassen_state
            return np.array([st.heuristic(p) for p in range(state.num_players())])

        def prior(self, state: KassenState) -> list[tuple[int, float]]:
            legal = state.legal_actions(state.current_player())
            return [(a, 1.0 / len(legal)) for a in legal]

    return HeuristicEvaluator()
