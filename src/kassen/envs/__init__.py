"""Adapters for AI research: PettingZoo, Gymnasium and OpenSpiel over every Kassen game.

- :func:`action_index` — a stable ``Discrete`` index per game (notation <-> int);
- :func:`aec_env` — a PettingZoo AEC environment (all seats);
- ``gymnasium.make("kassen/cc-samurai-v0", opponent="greedy")`` — one seat against a
  Kassen AI (importing this package registers one id per game);
- ``import kassen.envs.openspiel`` registers ``python_kassen_cc_samurai`` and the others
  with pyspiel.

Needs the ``envs`` extra (numpy, gymnasium, pettingzoo, open-spiel). See docs/research.md.
This package uses only the game protocol, the rulesets and the AI players; nothing from
the command line or the web front ends.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

from kassen.envs.actions import ActionIndex, action_index

if TYPE_CHECKING:
    from kassen.engine.protocol import Game

#: the Gymnasium ids registered on import, one per game
GYM_IDS: dict[str, str] = {}


def aec_env(game: Game | str, scenario: str | None = None, seed: int | None = None, **options: Any) -> Any:
    """The PettingZoo AEC environment of ``game`` (see :mod:`kassen.envs.pettingzoo_env`)."""
    from kassen.envs.pettingzoo_env import aec_env as make

    return make(game, scenario, seed, **options)


def _register_gymnasium() -> None:
    if importlib.util.find_spec("gymnasium") is None:  # without gymnasium the action index still works
        return
    from kassen.envs.gym_env import register_all

    GYM_IDS.update(register_all())


_register_gymnasium()

__all__ = ["GYM_IDS", "ActionIndex", "action_index", "aec_env"]
