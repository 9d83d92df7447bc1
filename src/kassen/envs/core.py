"""What the three adapters share: a running game with its action index and encoder.

Typed for mypyc: compiled with the engine (setup.py ``MODULES``), pure Python otherwise."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from kassen.engine.errors import KassenError
from kassen.engine.protocol import CHANCE, Game, Result, State, sample_chance
from kassen.engine.rng import Rng
from kassen.envs.actions import ActionIndex, action_index
from kassen.envs.fast import Observer
from kassen.envs.tensors import Encoder, encoder
from kassen.rulesets.registry import get, load_game


def env_defaults(game_id: str) -> dict[str, Any]:
    """The options the research envs give ``game_id`` unless the caller gives them: its spec's
    ``EnvSpec.options`` (An Honourable Victory! without concession, ruling H23: uniform-random
    play would end most battles by a concession on the first move, issue 34)."""
    env = get(game_id).env
    return dict(env.options) if env is not None else {}


def env_options(game_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` over the envs' defaults for ``game_id`` (:func:`env_defaults`)."""
    return {**env_defaults(game_id), **options}


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


#: actions kept in a match's cache of look-ups at most (``Match._hot``)
_HOT = 1 << 14

#: mask buffers a match keeps at most (a loop holds one or two masks at a time)
_MASKS = 4


class _Mask:
    """One action-mask buffer: its bytes and the read-only array over them (handed out as it is,
    written through the bytes), and the integers set in it."""

    def __init__(self, size: int) -> None:
        self.buf = bytearray(size)
        self.arr: Any = np.frombuffer(self.buf, np.int8)
        self.arr.setflags(write=False)
        self.on: list[int] = []
        self.refs = 0
        self.refs = _refs(self)  # the references to the array of ours when nobody else holds it


def _refs(m: _Mask) -> int:
    """The references to ``m``'s array: ours, plus one per holder of the array (or a view of it)."""
    return sys.getrefcount(m.arr)


class Match:
    """One game in progress, as the adapters see it.

    The legal actions and their integers are computed once per state. Observations are fresh
    arrays. Masks are read-only arrays over buffers written again only once nobody holds them
    (``sys.getrefcount``): a mask an agent keeps never changes, and a loop that drops the previous
    mask before asking the next one writes a few bytes instead of a new 35 KB array."""

    def __init__(self, game: Game | str, scenario: str | None = None, skip_single: bool = False,
                 **options: Any) -> None:
        self.game: Game = resolve_game(game)
        self.scenario = scenario
        #: play every decision with a single legal action at once (the envs' ``skip_single``): the
        #: agents see only decisions with a choice; the actions so played are in ``history`` too
        self.skip_single = bool(skip_single)
        self.options: dict[str, Any] = env_options(self.game.id, options)
        #: the seed of the game being played (``reset``) and the actions played since, in notation:
        #: what a checkpoint keeps (:func:`match_checkpoint`)
        self.seed = 0
        self.history: list[str] = []
        self.index: ActionIndex = action_index(self.game)
        self.encoder: Encoder = encoder(self.game.id)
        self.observer = Observer(self.game.id)
        fast = self.observer.fast
        #: ``(state, seat) -> tensor``: the game's fast observer, or the JSON path
        self.observe_state: Callable[[Any, int], Any] = (self.observer.observe if fast is None
                                                          else fast.observe)
        self.state: State = self.game.new_state(scenario, 0, **self.options)
        self.rng = Rng(0)
        self._ids: dict[str, int] = dict(zip(self.index.actions, range(len(self.index.actions))))
        #: the actions met in play -> their integers: a few thousand of the index's tens of thousands,
        #: so a look-up stays in the cache, and it often finds the engine's own string object
        self._hot: dict[str, int] = {}
        self._actions: tuple[str, ...] = self.index.actions
        self._seen: State | None = None  # the state the caches below are of
        self._mover: int | None = None  # the seat to move in that state
        self._legal: list[str] = []
        self._ints: list[int] = []
        self._codes: dict[str, int] | None = None
        self._masks: list[_Mask] = []

    def reset(self, seed: int) -> None:
        self.seed = seed
        self.history = []
        self.state = self.game.new_state(self.scenario, seed, **self.options)
        self.rng = Rng(seed ^ 0x5EED)
        self.state = skip_chance(self.state, self.rng)
        if self.skip_single:
            self._skip()

    @property
    def n_seats(self) -> int:
        return len(self.state.seat_names())

    def _fresh(self) -> None:
        """Compute the legal actions and their integers once per state."""
        st = self.state
        if self._seen is st:
            return
        self._seen = st
        self._mover = st.to_move()
        legal = self._legal = st.legal_actions()
        ids, hot = self._ids, self._hot
        ints: list[int] = []
        try:
            for a in legal:
                i = hot.get(a)
                if i is None:
                    i = ids[a]
                    if len(hot) >= _HOT:
                        hot.clear()
                    hot[a] = i
                ints.append(i)
            self._ints = ints
        except KeyError:  # an action outside the static list: overflow slots
            self._ints = list(self.index.encode(legal).values())
        self._codes = None

    def mover(self) -> int | None:
        """The seat to move in the state (``to_move``, asked once per state)."""
        self._fresh()
        return self._mover

    def legal(self) -> list[str]:
        """The legal actions of the state (a new list)."""
        self._fresh()
        return list(self._legal)

    def ints(self) -> list[int]:
        """The integer of each legal action, in the order of :meth:`legal` (do not change it)."""
        self._fresh()
        return self._ints

    def codes(self) -> dict[str, int]:
        """Each legal action -> its integer (the state's :meth:`ActionIndex.encode`)."""
        self._fresh()
        codes = self._codes
        if codes is None:
            codes = self._codes = dict(zip(self._legal, self._ints))
        return codes

    def mask(self, seat: int | None = None) -> Any:
        """1 for each legal action of ``seat`` (zeros when ``seat`` is not to move); read-only, and
        in memory no other array handed out and still held shares (as Gymnasium's checker asks)."""
        self._fresh()
        ints = self._ints if seat is None or self._mover == seat else []
        masks = self._masks
        m = None
        for b in masks:
            if _refs(b) == b.refs:  # nobody holds it: rewrite it
                m = b
                break
        if m is None:
            if len(masks) >= _MASKS:  # all held (a replay buffer): the oldest is the agent's now
                del masks[0]
            m = _Mask(self.index.size)
            masks.append(m)
        if m.on is not ints:
            buf = m.buf
            for i in m.on:
                buf[i] = 0
            for i in ints:
                buf[i] = 1
            m.on = ints
        return m.arr

    def observe(self, seat: int) -> Any:
        """``seat``'s observation tensor (a fresh array)."""
        return self.observe_state(self.state, seat)

    def play(self, action: Any) -> None:
        """Play ``action``: its integer (a numpy one too; ``None`` is refused) or its notation."""
        if action is None:
            raise KassenError("no action given for a seat that must act")
        if isinstance(action, str):
            text = action
        else:
            i = int(action)
            text = ""
            if self._seen is self.state:  # the engine's own string: apply finds it by identity
                ints = self._ints
                for k in range(len(ints)):
                    if ints[k] == i:
                        text = self._legal[k]
                        break
            if not text:
                if 0 <= i < len(self._actions):
                    text = self._actions[i]  # apply refuses it if it is not legal now
                else:
                    self._fresh()
                    text = self.index.decode(i, self._legal)
        self.replay(text)
        if self.skip_single:
            self._skip()

    def replay(self, text: str) -> None:
        """Play the action ``text`` (notation) and nothing else (no ``skip_single``): a checkpoint's
        history holds every action, those played by ``skip_single`` too."""
        self.state = skip_chance(self.state.apply(text), self.rng)
        self.history.append(text)

    def _skip(self) -> None:
        """Play the decisions that have a single legal action (``skip_single``) until one has a
        choice or the game is over."""
        self._fresh()
        while len(self._legal) == 1 and not self.state.is_terminal():
            self.replay(self._legal[0])
            self._fresh()

    def returns(self) -> list[float]:
        res, n = self.state.result(), self.n_seats
        if res is None or len(res.scores) == n or res.winner is None:  # no need of the teams
            return returns_of(res, n, [])
        return returns_of(res, n, teams_of(self.state))


def match_checkpoint(match: Match) -> dict[str, Any]:
    """What makes ``match`` again on a new :class:`Match` of the same game: its seed and the
    actions played (states are rebuilt by replaying them, exactly: the dice come from the seed)."""
    return {"seed": match.seed, "history": list(match.history)}


def match_restore(match: Match, checkpoint: dict[str, Any]) -> None:
    """Replay a :func:`match_checkpoint` on ``match`` (a new match of the same game and options)."""
    skip, match.skip_single = match.skip_single, False  # the history has the skipped actions too
    match.reset(int(checkpoint["seed"]))
    match.skip_single = skip
    for text in checkpoint["history"]:
        match.replay(str(text))
