"""docs/engine.md's toy game (Duel) registered as a game, to play a game with no view of its own."""

from __future__ import annotations

import pytest

from kassen.rulesets.registry import ADDED
from tests.toy.duel_spec import SPEC


def register_duel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``duel`` a game of the registry (its one spec) for the duration of a test."""
    monkeypatch.setitem(ADDED, SPEC.id, SPEC)
