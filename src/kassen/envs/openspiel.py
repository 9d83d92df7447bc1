"""OpenSpiel games over Kassen: ``import kassen.envs.openspiel`` registers, with pyspiel,

- ``python_kassen_cc_samurai``, ``python_kassen_cc_samurai_zvezda``,
- ``python_kassen_clans`` (2-4 players: the ``scenario`` parameter decides),
- ``python_kassen_honourable_victory``.

Parameters: ``scenario`` (``""``: the game's default), ``seed`` (the first game's seed; each
``new_initial_state()`` takes the next one) and ``max_game_length`` (a game still running
after that many actions ends as a draw, so the declared bound holds).

**Information.** ``IMPERFECT_INFORMATION``: hands, decks, face-down cards and hidden
declarations are private. Observations come only from ``observation(player)``:
``observation_tensor`` is :mod:`kassen.envs.tensors`, ``observation_string`` the observation
JSON. ``information_state_string`` has perfect recall: a SHA-256 chain over every observation
the player has had since the start, then the current observation.
``information_state_tensor`` is the current observation tensor (a fixed-size tensor cannot
hold a whole history of thousands of actions): Markov, not perfect recall.

**Chance.** ``SAMPLED_STOCHASTIC``. The rulesets roll dice and shuffle decks inside
``apply`` from a seeded generator in the state (the protocol exposes no ``CHANCE`` node for
these games, and one action can roll many dice or none, depending on the rules), so the
chance outcomes cannot be listed as OpenSpiel chance nodes without re-writing every
ruleset's dice flow. Each initial state gets its own seed; ``clone()`` keeps the generator,
as OpenSpiel's C++ sampled-stochastic games do, so a search on clones sees the real dice.
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
from kassen.envs.core import returns_of, skip_chance, teams_of
from kassen.envs.tensors import encoder, observe
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


def _game_type(gid: str) -> Any:
    game = load_game(gid)
    scenarios: list[str | None] = [*game.scenarios()] or [None]
    seats = {len(game.new_state(s, 0).seat_names()) for s in scenarios}
    two = seats == {2}
    return pyspiel.GameType(
        short_name=short_name(gid),
        long_name=f"Kassen: {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
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
        parameter_specification={"scenario": "", "seed": 0, "max_game_length": MAX_GAME_LENGTH},
    )


class KassenGame(pyspiel.Game):  # type: ignore[misc]
    """A Kassen game for OpenSpiel; subclasses fix ``game_id``."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"scenario": "", "seed": 0, "max_game_length": MAX_GAME_LENGTH, **(params or {})}
        self.kgame = load_game(self.game_id)
        self.scenario = str(params["scenario"]) or None
        self.base_seed = int(params["seed"])
        self.max_length = int(params["max_game_length"])
        self.index = action_index(self.game_id)
        self.encoder = encoder(self.game_id)
        env = get(self.game_id).env
        #: the encoder reads the seat from the observation (``EnvSpec.seat_in_observation``)
        self.seat_in_observation = env is not None and env.seat_in_observation
        probe = self.kgame.new_state(self.scenario, 0)
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
        self._peeked: tuple[int, State] | None = None

    def new_initial_state(self) -> KassenState:
        # pyspiel clones a Python state by calling this, then copying the attributes over:
        # so the Kassen state is made (and a seed taken) only when it is first needed
        return KassenState(self)

    def next_seed(self) -> int:
        seed = self.base_seed * 1000003 + self._count
        self._count += 1
        return seed

    def peek_initial(self) -> State:
        """The state the next new game will start from, without taking its seed: pyspiel
        sizes every observer on a brand-new initial state, which must not use up a game."""
        seed = self.base_seed * 1000003 + self._count
        if self._peeked is None or self._peeked[0] != seed:
            self._peeked = (seed, skip_chance(self.kgame.new_state(self.scenario, seed), Rng(seed)))
        return self._peeked[1]

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KassenObserver:
        return KassenObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class KassenState(pyspiel.State):  # type: ignore[misc]
    """One moment of a Kassen game; ``kassen_state`` is the protocol state."""

    def __init__(self, game: KassenGame) -> None:
        super().__init__(game)
        self._kg = _Shared(game)
        self._seed = -1
        # the states since the start, newest first, as a linked list shared between clones
        self._path: _Shared | None = None
        self._codes = _Shared(None)

    # -- helpers --------------------------------------------------------------
    @property
    def kassen_state(self) -> State:
        if self._path is None:
            game = self._game()
            self._seed = game.next_seed()
            start = skip_chance(game.kgame.new_state(game.scenario, self._seed), Rng(self._seed))
            self._path = _Shared((start, None, {}))
        st: State = self._path.value[0]
        return st

    def peek(self) -> State:
        """The Kassen state, without starting a game that has not started yet."""
        return self._game().peek_initial() if self._path is None else self.kassen_state

    def _game(self) -> KassenGame:
        g: KassenGame = self._kg.value
        return g

    def _encoded(self) -> dict[str, int]:
        if self._codes.value is None:
            self._codes = _Shared(self._game().index.encode(self.kassen_state.legal_actions()))
        codes: dict[str, int] = self._codes.value
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
        st = state.peek()
        if seat is None:
            obs = st.observation(None)
            if self.game.seat_in_observation:
                obs = {**obs, "_seat": 0}
            self.tensor[:] = self.game.encoder.encode(obs)
        else:
            self.tensor[:] = observe(st, seat)

    def string_from(self, state: KassenState, player: int) -> str:
        seat = self._seat(player)
        now = _obs_text(state.peek(), seat)
        if not self.perfect_recall:
            return now
        # a game not started yet has had one observation: the one it would start with
        digest = state.digest(seat) if state._path is not None else hashlib.sha256(now.encode()).hexdigest()
        return f"player {player} after {state.move_number()} actions, history {digest}\n{now}"


def _obs_text(st: State, seat: int | None) -> str:
    return json.dumps(st.observation(seat), sort_keys=True, separators=(",", ":"))


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
