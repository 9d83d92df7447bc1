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
from kassen.envs.core import Match, match_checkpoint, match_restore
from kassen.envs.policy import Policy, PolicyPlayer
from kassen.rulesets.registry import default_game

#: what ``opponent=`` takes: a player's name (``kassen.ai.players``, or ``module:function``), a
#: :class:`kassen.ai.players.Player`, or a policy ``policy(obs, info) -> action`` (:mod:`kassen.envs.policy`)
Opponent = str | Player | Policy

#: deals a reset tries before giving up when every game ends before the learner's first move
REDEALS = 100


class KassenGymEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One seat of a Kassen battle; the other seats are Kassen AIs."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: Game | str | None = None, opponent: Opponent = "random", seat: int = 0,
                 scenario: str | None = None, render_mode: str | None = None, illegal: str = "lose",
                 max_steps: int | None = None, **options: Any) -> None:
        #: what makes this env again (pickling): the arguments of ``__init__``
        game = default_game().id if game is None else game
        self._args: dict[str, Any] = {"game": game if isinstance(game, str) else game.id, "opponent": opponent,
                                      "seat": seat, "scenario": scenario, "render_mode": render_mode,
                                      "illegal": illegal, "max_steps": max_steps, **options}
        self.match = Match(game, scenario, **options)
        n = self.match.n_seats
        if not 0 <= seat < n:
            raise KassenError(f"seat must be 0..{n - 1} in this scenario, not {seat}")
        if illegal not in ("lose", "raise"):
            raise KassenError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise KassenError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if isinstance(opponent, str):
            make_player(opponent, 0)  # fail now on an unknown name
        elif not (isinstance(opponent, Player) or callable(opponent)):
            raise KassenError(f"opponent must be a player's name, a kassen.ai.Player or a callable "
                              f"policy(obs, info) -> action, not {type(opponent).__name__}")
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
        m = self.match
        mine = m.mover() == self.seat
        info: dict[str, Any] = {"action_mask": m.mask(self.seat), "steps": self.steps,
                                "legal_actions": m.legal() if mine else [],
                                "legal_ints": list(m.ints()) if mine else []}
        info.update(extra)
        return info

    def _opponents(self) -> None:
        st = self.match
        while not st.state.is_terminal():
            mover = st.mover()
            if mover == self.seat or mover is None:
                return
            st.play(self.players[mover].choose(st.state, mover))

    def _player(self, seed: int) -> Player:
        opp = self.opponent
        if isinstance(opp, str):
            return make_player(opp, seed)
        if isinstance(opp, Player):
            return opp
        return PolicyPlayer(opp, self.match)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game: the seed given, else the next draw of the env's generator (seeded by the last
        seed given): the same games as the PettingZoo env's ``reset`` for the same seeds. A game the
        opponents finish before the learner's first move (a concession allowed by ``concede=True``
        in An Honourable Victory!) is dealt again with the generator's next draw: ``reset`` never
        returns a finished game."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(1 << 31))
        for _ in range(REDEALS):
            self._deal(game_seed)
            if not self.match.state.is_terminal():
                break
            game_seed = int(self.np_random.integers(1 << 31))
        else:
            raise KassenError(f"{REDEALS} games in a row ended before seat {self.seat}'s first move: "
                              "this seat never gets to play against this opponent")
        return self._obs(), self._info()

    def _deal(self, game_seed: int) -> None:
        self.match.reset(game_seed)
        self.action_space.seed(game_seed)
        self.players = {s: self._player(game_seed * 7 + s) for s in range(self.match.n_seats) if s != self.seat}
        self.steps = 0
        self._opponents()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        m = self.match
        if m.state.is_terminal():
            raise KassenError("the game is over: call reset()")
        i = int(action)
        chosen = next((a for a, j in zip(m.legal(), m.ints()) if j == i), None)
        if chosen is None:
            if self.illegal == "raise":
                raise KassenError(f"action {i} is not legal now ({len(m.ints())} legal actions)")
            return self._obs(), -1.0, True, False, self._info(illegal_action=int(action))
        m.play(chosen)
        self.steps += 1
        self._opponents()
        terminated = m.state.is_terminal()
        reward = m.returns()[self.seat] if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        return self._obs(), float(reward), terminated, truncated, self._info(action=chosen)

    # -- pickling and deep copies (vector envs across processes, Ray workers, checkpoints) ---------
    def __getstate__(self) -> dict[str, Any]:
        """The env as its arguments, the game's seed and actions (replayed on unpickling), the
        generators and, for opponents named by a string, the players themselves (their generators
        have moved on since the reset); a :class:`Player` or policy given is pickled with the
        arguments, and must itself pickle (a function defined at a module's top level does)."""
        return {"args": self._args, "match": match_checkpoint(self.match), "steps": self.steps,
                "np_random": None if self._np_random is None else self._np_random.bit_generator.state,
                "np_random_seed": self._np_random_seed,
                "action_space": self.action_space.np_random.bit_generator.state,
                "players": self.players if isinstance(self.opponent, str) else None}

    def __setstate__(self, st: dict[str, Any]) -> None:
        args = dict(st["args"])
        self.__init__(**args)  # type: ignore[misc]
        match_restore(self.match, st["match"])
        self.steps = st["steps"]
        if st["np_random"] is not None:
            self._np_random = np.random.Generator(np.random.PCG64())
            self._np_random.bit_generator.state = st["np_random"]
        self._np_random_seed = st["np_random_seed"]
        self.action_space.np_random.bit_generator.state = st["action_space"]
        if st["players"] is not None:
            self.players = st["players"]
        else:
            self.players = {s: self._player(0) for s in range(self.match.n_seats) if s != self.seat}

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
