"""docs/engine.md's toy game (Duel) registered as a game, to play a game with no view of its own."""

from __future__ import annotations

import sys
import types

import pytest

from kassen.rulesets.registry import GAMES
from tests.engine.test_docs_toy import load_doc_namespace


def register_duel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``duel`` a game of the registry for the duration of a test."""
    ns = load_doc_namespace()
    module = types.ModuleType("kassen_test_duel")
    module.DuelGame = ns["DuelGame"]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "kassen_test_duel", module)
    monkeypatch.setitem(GAMES, "duel", ("kassen_test_duel", "DuelGame", "Duel (toy)"))
