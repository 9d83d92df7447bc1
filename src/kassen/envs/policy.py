"""Your own policy as a Kassen player: :class:`PolicyPlayer` wraps a function of the env's
observation into a :class:`kassen.ai.players.Player`, so it can be the Gymnasium env's
``opponent`` and play in ``kassen battle``/``balance --players module:function``.

A policy is ``policy(obs, info) -> action``: ``obs`` is the env's observation of the seat to move
(``{"observation": float32 tensor, "action_mask": int8 mask}``, built from that seat's view only),
``info`` is ``{"seat": seat, "legal_actions": [notation, ...]}``; the action is an integer of
:func:`kassen.envs.action_index` (or a legal action's notation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kassen.ai.players import Player
from kassen.engine.errors import KassenError
from kassen.engine.protocol import State
from kassen.envs.core import Match

Policy = Callable[[dict[str, Any], dict[str, Any]], Any]


class PolicyPlayer(Player):
    """A player that asks ``policy(obs, info)`` for each decision (see the module's text).

    ``match``: the :class:`~kassen.envs.core.Match` whose observer and action index to use (the
    Gymnasium env passes its own); without one, a match of the state's game is made at the first
    decision. The policy sees only the seat's own observation."""

    def __init__(self, policy: Policy, match: Match | None = None, name: str | None = None) -> None:
        if not callable(policy):
            raise KassenError(f"a policy must be callable as policy(obs, info), not {type(policy).__name__}")
        self.policy = policy
        self.match = match
        self.name = name or str(getattr(policy, "__name__", "policy"))

    def choose(self, state: State, seat: int) -> str:
        m = self.match
        if m is None or m.game.id != state.game.id:
            m = self.match = Match(state.game)
        m.state = state
        obs = {"observation": m.observe(seat), "action_mask": m.mask(seat)}
        legal = m.legal()
        action = self.policy(obs, {"seat": seat, "legal_actions": legal})
        if isinstance(action, str):
            if action not in legal:
                raise KassenError(f"policy {self.name}: {action!r} is not a legal action now")
            return action
        try:
            i = int(action)
        except (TypeError, ValueError):
            raise KassenError(f"policy {self.name} returned {action!r}: an action integer or notation is "
                              "expected") from None
        for text, j in zip(legal, m.ints()):
            if j == i:
                return text
        raise KassenError(f"policy {self.name}: action {i} is not legal now (its mask bit is 0)")
