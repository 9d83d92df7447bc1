"""Gymnasium environment: one seat of a Kassen game against Kassen AI players.

``gymnasium.make("kassen/cc-samurai-v0", opponent="greedy")`` (one id per game of
:mod:`kassen.rulesets.registry`, registered by ``import kassen.envs``). The learner plays
``seat``; every other seat is played by :func:`kassen.ai.players.make_player` (``random``,
``greedy``, ``mcts``), which sees only its own seat's observation. Observations and actions
are those of the PettingZoo environment: ``{"observation", "action_mask"}`` and
``Discrete(index.size)``; ``info["action_mask"]`` repeats the mask for libraries that read
it there. The reward is 0 until the end, then ``2 * score - 1`` for the learner's seat.

An action that is not legal (unmasked) is handled by ``illegal``: ``"lose"`` (the default,
as PettingZoo's TerminateIllegalWrapper: the episode ends with reward -1 and
``info["illegal_action"]``) or ``"raise"``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from kassen.ai.players import Player, make_player
from kassen.engine.errors import KassenError
from kassen.engine.protocol import Game
from kassen.envs.actions import env_games
from kassen.envs.core import Match
from kassen.rulesets.registry import default_game


class KassenGymEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One seat of a Kassen battle; the other seats are Kassen AIs."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: Game | str | None = None, opponent: str = "random", seat: int = 0,
                 scenario: str | None = None, render_mode: str | None = None, illegal: str = "lose",
                 max_steps: int | None = None, **options: Any) -> None:
        self.match = Match(default_game().id if game is None else game, scenario, **options)
        n = self.match.n_seats
        if not 0 <= seat < n:
            raise KassenError(f"seat must be 0..{n - 1} in this scenario, not {seat}")
        if illegal not in ("lose", "raise"):
            raise KassenError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise KassenError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        make_player(opponent, 0)  # fail now on an unknown name
        self.opponent = opponent
        self.seat = int(seat)
        self.illegal = illegal
        self.max_steps = max_steps
        self.render_mode = render_mode
        size = self.match.index.size
        self.observation_space = spaces.Dict({  # type: ignore[assignment]
            "observation": spaces.Box(0.0, 1.0, self.match.encoder.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.action_space = spaces.Discrete(size)  # type: ignore[assignment]
        self.players: dict[int, Player] = {}
        self.steps = 0

    # ----------------------------------------------------------------------
    def _obs(self) -> dict[str, np.ndarray]:
        return {"observation": self.match.observe(self.seat), "action_mask": self.match.mask(self.seat)}

    def _info(self, **extra: Any) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.match.mask(self.seat), "steps": self.steps}
        info.update(extra)
        return info

    def _opponents(self) -> None:
        st = self.match
        while not st.state.is_terminal():
            mover = st.state.to_move()
            if mover == self.seat or mover is None:
                return
            st.play(self.players[mover].choose(st.state, mover))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        # a new game each reset: the seed given, else the next draw of the env's seeded generator
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(1 << 31))
        self.match.reset(game_seed)
        self.action_space.seed(game_seed)
        self.players = {s: make_player(self.opponent, game_seed * 7 + s) for s in range(self.match.n_seats)
                        if s != self.seat}
        self.steps = 0
        self._opponents()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        m = self.match
        if m.state.is_terminal():
            raise KassenError("the game is over: call reset()")
        legal = m.legal()
        codes = m.index.encode(legal)
        chosen = next((a for a, i in codes.items() if i == int(action)), None)
        if chosen is None:
            if self.illegal == "raise":
                raise KassenError(f"action {int(action)} is not legal now ({len(legal)} legal actions)")
            return self._obs(), -1.0, True, False, self._info(illegal_action=int(action))
        m.play(chosen)
        self.steps += 1
        self._opponents()
        terminated = m.state.is_terminal()
        reward = m.returns()[self.seat] if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        return self._obs(), float(reward), terminated, truncated, self._info(action=chosen)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        st = self.match.state
        res = st.result()
        return f"{self.match.game.id} step {self.steps}: " + (st.prompt() if res is None else f"over: {res.reason}")


def gym_id(game_id: str) -> str:
    return f"kassen/{game_id}-v0"


def register_all() -> dict[str, str]:
    """Register ``kassen/<game>-v0`` for every game (idempotent); game id -> env id."""
    out: dict[str, str] = {}
    for gid in env_games():
        env_id = gym_id(gid)
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="kassen.envs.gym_env:KassenGymEnv", kwargs={"game": gid})
        out[gid] = env_id
    return out
