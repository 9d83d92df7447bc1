"""PettingZoo AEC environment over any Kassen game.

Agents are the seats of the scenario (``"Red"``, ``"Blue"``; the clans of a clan game).
Each observation is ``{"observation": Box[0,1] float32, "action_mask": Box{0,1} int8}``: the
tensor of :mod:`kassen.envs.tensors` built from that seat's ``observation(seat)`` only, and
the legal actions of that seat in the game's :mod:`kassen.envs.actions` index (all zeros
for a seat that is not to move). Actions are ``Discrete(index.size)``. Rewards come only at
the end: ``2 * score - 1`` per seat (+1 win, -1 loss, 0 draw).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable

from kassen.engine.protocol import Game
from kassen.envs.aec import AECCore, AgentIter
from kassen.envs.core import Match, fresh_seed, match_checkpoint, match_restore


class SeededLater(spaces.Discrete):
    """A ``Discrete`` action space whose seed given at reset is applied when it is first sampled:
    seeding a numpy generator costs about 0.2 ms, as much as a few decisions of the clan game."""

    _pending: int | None = None

    def seed_later(self, seed: int) -> None:
        self._pending = seed
        self._np_random = None  # type: ignore[assignment]

    def seed(self, seed: int | None = None) -> Any:
        self._pending = None
        return super().seed(seed)

    @property
    def np_random(self) -> np.random.Generator:
        if self._pending is not None:
            self.seed(self._pending)
        return super().np_random


def _core(name: str, doc: str) -> property:
    """An attribute PettingZoo reads on the env, kept by its :class:`AECCore`."""

    def get(self: KassenAECEnv) -> Any:
        return getattr(self.core, name)

    def put(self: KassenAECEnv, value: Any) -> None:
        setattr(self.core, name, value)

    return property(get, put, doc=doc)


class KassenAECEnv(AECEnv):  # type: ignore[misc]
    """One Kassen battle as a PettingZoo AEC game (its per-step work: :class:`AECCore`)."""

    metadata: dict[str, Any] = {"name": "kassen_v0", "render_modes": ["ansi"], "render_fps": 1,
                                "is_parallelizable": False}

    agents = _core("agents", "the agents still in the game")
    rewards = _core("rewards", "the rewards of the last step")
    _cumulative_rewards = _core("cumulative", "the rewards since each agent last acted")
    terminations = _core("terminations", "the agents whose game is over")
    truncations = _core("truncations", "the agents cut off by max_steps")
    infos = _core("infos", "per agent: to_move, and legal_actions for the agent to move")
    agent_selection = _core("agent_selection", "the agent to act")
    _skip_agent_selection = _core("skip_selection", "AECEnv's: the agent to select after the dead ones")
    steps = _core("steps", "actions played since reset")

    def __init__(self, game: Game | str, scenario: str | None = None, seed: int | None = None,
                 render_mode: str | None = None, max_steps: int | None = None, **options: Any) -> None:
        super().__init__()
        #: what makes this env again (pickling): the arguments of ``__init__``
        self._args: dict[str, Any] = {"game": game if isinstance(game, str) else game.id, "scenario": scenario,
                                      "seed": seed, "render_mode": render_mode, "max_steps": max_steps,
                                      **options}
        self.match = Match(game, scenario, **options)
        self.metadata = {**self.metadata, "name": f"kassen_{self.match.game.id.replace('-', '_')}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        #: the seed of the first ``reset()`` that gives none (then the env's generator, seeded by it)
        self.game_seed = None if seed is None else int(seed)
        #: the env's own generator (:attr:`np_random`): a ``reset()`` without a seed plays the game of
        #: its next draw; ``reset(seed=s)`` keeps ``s`` and makes the generator when it is first read
        self._np_random: np.random.Generator | None = None
        self._np_seed: int | None = None
        self.max_steps = max_steps
        self.possible_agents = list(self.match.state.seat_names())
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.core = AECCore(self.match, self.possible_agents, None if max_steps is None else int(max_steps))
        size = self.match.index.size
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, self.match.encoder.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: SeededLater(size) for a in self.possible_agents}

    @property
    def np_random(self) -> np.random.Generator | None:
        """The env's own generator (Gymnasium's ``seeding.np_random(s)`` after ``reset(seed=s)``),
        ``None`` before the first reset. Seeding a numpy generator costs about 0.2 ms, as much as a
        few decisions of the clan game: ``reset(seed=s)`` seeds it when it is first read."""
        if self._np_seed is not None:
            self._np_random, _ = seeding.np_random(self._np_seed)
            self._np_seed = None
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator | None) -> None:
        self._np_random, self._np_seed = value, None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``reset(seed=s)`` plays game ``s`` (again, exactly) and seeds the env's
        generator with ``s``; ``reset()`` plays the game of the generator's next draw (a fresh
        deal each time). The first ``reset()`` of an env made with ``seed=s`` is ``reset(seed=s)``.
        The same rule as the Gymnasium env's, so both play the same games for the same seeds."""
        if seed is None and self.np_random is None:
            seed = self.game_seed if self.game_seed is not None else fresh_seed()
        if seed is not None:  # the generator seeded with it when first read (``np_random``)
            game_seed = int(seed)  # a numpy integer too
            self._np_random, self._np_seed = None, game_seed
        else:
            game_seed = next_game_seed(self, None)
        for space in self.action_spaces.values():
            space.seed_later(game_seed)
        self.core.reset(game_seed)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation (a fresh array) and action mask (read-only, never changed while
        held: :class:`kassen.envs.core.Match`)."""
        return self.core.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return self.core.last(observe)

    def step(self, action: int | None) -> None:
        self.core.step(action)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        st = self.match.state
        res = st.result()
        head = st.prompt() if res is None else f"over: {res.reason}"
        lines = [f"{self.match.game.id} step {self.steps}: {head}"]
        lines += [e.text for e in st.events if getattr(e, "visible_to", None) is None]
        return "\n".join(lines)

    def close(self) -> None:
        pass

    # -- pickling and deep copies (vector envs across processes, Ray workers, checkpoints) ---------
    def __getstate__(self) -> dict[str, Any]:
        """The env as its arguments, the game's seed and actions, the agents' bookkeeping and the
        generators: unpickling makes the env again and replays the game (:func:`match_checkpoint`)."""
        c = self.core
        return {"args": self._args, "match": match_checkpoint(self.match),
                "np_random": None if self.np_random is None else self.np_random.bit_generator.state,
                "core": {k: copy.deepcopy(getattr(c, k)) for k in _CORE_FIELDS},
                "spaces": {a: sp._pending if sp._np_random is None else sp.np_random.bit_generator.state
                           for a, sp in self.action_spaces.items()}}

    def __setstate__(self, st: dict[str, Any]) -> None:
        args = dict(st["args"])
        game = args.pop("game")
        self.__init__(game, **args)  # type: ignore[misc]
        match_restore(self.match, st["match"])
        if st["np_random"] is not None:
            self.np_random = np.random.Generator(np.random.PCG64())
            self.np_random.bit_generator.state = st["np_random"]
        for k, v in st["core"].items():
            setattr(self.core, k, v)
        for a, sp in st["spaces"].items():
            space = self.action_spaces[a]
            if isinstance(sp, dict):
                space.seed(0)
                space.np_random.bit_generator.state = sp
            elif sp is not None:
                space.seed_later(sp)


#: the :class:`AECCore` attributes a pickle keeps (the match is replayed)
_CORE_FIELDS = ("agents", "rewards", "cumulative", "terminations", "truncations", "infos", "agent_selection",
                "skip_selection", "steps", "rewarded", "updated")


def next_game_seed(env: Any, seed: int | None) -> int:
    """The seed of the game a reset plays, the same for both envs: ``seed`` if given (and the env's
    generator ``env.np_random`` is seeded with it, as Gymnasium's ``reset(seed=...)`` does), else the
    generator's next draw."""
    if seed is not None:
        env.np_random, _ = seeding.np_random(int(seed))  # a numpy integer too
        return int(seed)
    if env.np_random is None:
        env.np_random, _ = seeding.np_random(None)
    return int(env.np_random.integers(1 << 31))


def _forward(name: str) -> property:
    def get(self: OrderEnforcingWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class KassenOrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with the attributes read on every step forwarded by
    properties instead of ``__getattr__`` (which Python reaches only after a failed lookup); once
    reset, ``step`` and ``last`` are the env core's own (the checks before reset are the wrapper's)."""

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        core = self.env.core
        self.step, self.last = core.step, core.last  # type: ignore[method-assign]

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def __getstate__(self) -> dict[str, Any]:
        # ``step`` and ``last`` are the core's bound methods once reset: made again on unpickling
        return {"env": self.env, "has_reset": self._has_reset, "has_updated": self._has_updated}

    def __setstate__(self, st: dict[str, Any]) -> None:
        self.__init__(st["env"])  # type: ignore[misc]
        self._has_updated = st["has_updated"]
        if st["has_reset"]:
            self._has_reset = True
            core = self.env.core
            self.step, self.last = core.step, core.last  # type: ignore[method-assign]

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if observe and not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)  # type: ignore[no-any-return]


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> AgentIter:
        return AgentIter(self.env.env.core, int(self.max_iter))


def raw_env(game: Game | str, scenario: str | None = None, seed: int | None = None, **kwargs: Any) -> KassenAECEnv:
    return KassenAECEnv(game, scenario, seed, **kwargs)


def aec_env(game: Game | str, scenario: str | None = None, seed: int | None = None,
            **kwargs: Any) -> Any:
    """The PettingZoo AEC environment of ``game`` (an id or a :class:`Game`), wrapped so that
    it is used in order. ``kwargs``: ``render_mode="ansi"``, ``max_steps`` (truncate after
    that many actions) and the game's own ``new_state`` options."""
    return KassenOrderEnforcing(raw_env(game, scenario, seed, **kwargs))
