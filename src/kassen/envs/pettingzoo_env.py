"""PettingZoo AEC environment over any Kassen game.

Agents are the seats of the scenario (``"Red"``, ``"Blue"``; the clans of a clan game).
Each observation is ``{"observation": Box[0,1] float32, "action_mask": Box{0,1} int8}``: the
tensor of :mod:`kassen.envs.tensors` built from that seat's ``observation(seat)`` only, and
the legal actions of that seat in the game's :mod:`kassen.envs.actions` index (all zeros
for a seat that is not to move). Actions are ``Discrete(index.size)``. Rewards come only at
the end: ``2 * score - 1`` per seat (+1 win, -1 loss, 0 draw).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from kassen.engine.protocol import Game
from kassen.envs.core import Match, check_action, fresh_seed


class KassenAECEnv(AECEnv):  # type: ignore[misc]
    """One Kassen battle as a PettingZoo AEC game."""

    metadata: dict[str, Any] = {"name": "kassen_v0", "render_modes": ["ansi"], "render_fps": 1,
                                "is_parallelizable": False}

    def __init__(self, game: Game | str, scenario: str | None = None, seed: int | None = None,
                 render_mode: str | None = None, max_steps: int | None = None, **options: Any) -> None:
        super().__init__()
        self.match = Match(game, scenario, **options)
        self.metadata = {**self.metadata, "name": f"kassen_{self.match.game.id.replace('-', '_')}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.game_seed = seed
        self.max_steps = max_steps
        self.possible_agents = list(self.match.state.seat_names())
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.match.index.size
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, self.match.encoder.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.steps = 0
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.game_seed = seed
        game_seed = self.game_seed if self.game_seed is not None else fresh_seed()
        self.match.reset(game_seed)
        for space in self.action_spaces.values():
            space.seed(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False  # whether ``rewards`` holds anything but zeros
        self.steps = 0
        self._select()

    def _select(self) -> None:
        """The agent to move and the infos: a new dict for an agent whose info changed (a dict
        once handed out is never changed), ``legal_actions`` for the agent to move."""
        seat = self.match.state.to_move()
        if seat is not None and seat >= 0:
            self.agent_selection = self.possible_agents[seat]
        sel, terminations, infos = self.agent_selection, self.terminations, self.infos
        for a in self.agents:
            if sel == a and not terminations[a]:
                infos[a] = {"to_move": True, "legal_actions": self.match.legal()}
            elif infos[a].get("to_move") is not False:
                infos[a] = {"to_move": False}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        return {"observation": self.match.observe(seat), "action_mask": self.match.mask(seat)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.match.play(check_action(action))
        self.steps += 1
        if self._rewarded:  # the zeros of a step without rewards are kept, not made anew
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if self.match.state.is_terminal():
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = True
            for a, r in zip(self.possible_agents, self.match.returns()):
                if a in self.rewards:
                    self.rewards[a] = r
                self.terminations[a] = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self._select()
        if self._rewarded:
            self._accumulate_rewards()

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


def _forward(name: str) -> property:
    def get(self: OrderEnforcingWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class KassenOrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with the attributes read on every step forwarded by
    properties instead of ``__getattr__`` (which Python reaches only after a failed lookup)."""

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if observe and not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)  # type: ignore[no-any-return]


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator, reading the env behind the wrapper directly."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection  # type: ignore[no-any-return]


def raw_env(game: Game | str, scenario: str | None = None, seed: int | None = None, **kwargs: Any) -> KassenAECEnv:
    return KassenAECEnv(game, scenario, seed, **kwargs)


def aec_env(game: Game | str, scenario: str | None = None, seed: int | None = None,
            **kwargs: Any) -> Any:
    """The PettingZoo AEC environment of ``game`` (an id or a :class:`Game`), wrapped so that
    it is used in order. ``kwargs``: ``render_mode="ansi"``, ``max_steps`` (truncate after
    that many actions) and the game's own ``new_state`` options."""
    return KassenOrderEnforcing(raw_env(game, scenario, seed, **kwargs))
