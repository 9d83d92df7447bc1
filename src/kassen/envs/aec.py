"""The per-step work of the PettingZoo AEC env, typed for mypyc (compiled with the engine,
setup.py ``MODULES``; pure Python otherwise).

:class:`AECCore` holds what PettingZoo reads on an AEC env (agents, rewards, terminations,
truncations, infos, the agent to move) and does ``last``, ``step`` (dead steps included, as
``AECEnv._was_dead_step``) and the agent iterator's ``__next__``. ``KassenAECEnv`` forwards its
attributes to it, and its order-enforcing wrapper, once reset, hands ``step`` and ``last`` to it
directly, so a training loop's step runs no interpreted PettingZoo layer.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.env_logger import EnvLogger

from kassen.envs.core import Match


class AECCore:
    """The state PettingZoo reads on an AEC env, and its step."""

    def __init__(self, match: Match, agents: list[str], max_steps: int | None) -> None:
        self.match = match
        self.possible_agents = agents
        self.seat_of: dict[str, int] = {a: i for i, a in enumerate(agents)}
        self.max_steps = max_steps
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self.cumulative: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = agents[0]
        self.skip_selection: str | None = None  # AECEnv's ``_skip_agent_selection``
        self.steps = 0
        self.rewarded = False  # whether ``rewards`` holds anything but zeros
        self.updated = False  # a step or reset since the agent iterator last gave an agent

    def reset(self, seed: int) -> None:
        self.match.reset(seed)
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self.cumulative = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self.skip_selection = None
        self.rewarded = False
        self.steps = 0
        self.updated = True
        self.select()

    def select(self) -> None:
        """The agent to move and the infos: a new dict for an agent whose info changed (a dict
        once handed out is never changed), ``legal_actions`` (notation) and ``legal_ints`` (their
        integers, in the same order: the fast path, no scan of the mask) for the agent to move."""
        m = self.match
        seat = m.mover()
        if seat is not None and seat >= 0:
            self.agent_selection = self.possible_agents[seat]
        sel, terminations, infos = self.agent_selection, self.terminations, self.infos
        for a in self.agents:
            if sel == a and not terminations[a]:
                infos[a] = {"to_move": True, "legal_actions": m.legal(), "legal_ints": list(m.ints())}
            elif infos[a].get("to_move") is not False:
                infos[a] = {"to_move": False}

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.seat_of[agent]
        m = self.match
        return {"observation": m.observe(seat), "action_mask": m.mask(seat)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        obs: Any = None
        if observe:
            seat = self.seat_of[agent]
            m = self.match
            obs = {"observation": m.observe(seat), "action_mask": m.mask(seat)}
        return obs, self.cumulative[agent], self.terminations[agent], self.truncations[agent], self.infos[agent]

    def step(self, action: Any) -> None:
        self.updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self.dead_step(action)
            return
        self.cumulative[agent] = 0.0
        m = self.match
        m.play(action)
        self.steps += 1
        if self.rewarded:  # the zeros of a step without rewards are kept, not made anew
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewarded = False
        if m.state.is_terminal():
            rewards = self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewarded = True
            for a, r in zip(self.possible_agents, m.returns()):
                if a in rewards:
                    rewards[a] = r
                self.terminations[a] = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self.select()
        if self.rewarded:
            cumulative = self.cumulative
            for a, r in self.rewards.items():
                cumulative[a] += r

    def dead_step(self, action: Any) -> None:
        """``AECEnv._was_dead_step``: the agent done is removed, the next one done or else the one
        that was to move is selected, the rewards cleared."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self.cumulative[agent]
        del self.infos[agent]
        self.agents.remove(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            if self.skip_selection is None:
                self.skip_selection = self.agent_selection
            self.agent_selection = dead[0]
        else:
            if self.skip_selection is not None:
                self.agent_selection = self.skip_selection
            self.skip_selection = None
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0
        self.rewarded = False


class AgentIter:
    """The order-enforcing agent iterator of PettingZoo, over an :class:`AECCore`."""

    def __init__(self, core: AECCore, max_iter: int) -> None:
        self.core = core
        self.left = max_iter

    def __iter__(self) -> AgentIter:
        return self

    def __next__(self) -> str:
        core = self.core
        if not core.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        assert core.updated, "need to call step() or reset() in a loop over `agent_iter`"
        core.updated = False
        return core.agent_selection
