"""docs/engine.md's toy game runs as written and passes the contract test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kassen.engine.errors import IllegalActionError
from kassen.testing.contract import ContractViolation, check_state, run_contract

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def load_doc_namespace() -> dict:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 2
    ns: dict = {"__name__": "engine_doc"}
    for b in blocks:
        exec(compile(b, str(DOC), "exec"), ns)
    return ns


def test_toy_game_from_the_docs_plays_and_passes_the_contract():
    ns = load_doc_namespace()
    game = ns["DuelGame"]()
    report = run_contract(game, games=200, seed=1)
    assert report.games == 200 and report.finished == 200
    assert set(report.winners) <= {0, 1, None}


def test_toy_illegal_action_is_refused():
    game = load_doc_namespace()["DuelGame"]()
    s = game.new_state(seed=0).apply("swap").apply("swap")
    with pytest.raises(IllegalActionError, match="swap"):
        s.apply("swap")


def test_contract_catches_a_leaking_observation():
    ns = load_doc_namespace()
    game = ns["DuelGame"]()
    state = game.new_state(seed=0)

    class Leaky(type(state)):
        def observation(self, seat):
            return {"hands": self.hands}

    leaky = Leaky(game, state.deck, state.hands, state.swapped, 0, None, state.rng)
    with pytest.raises(ContractViolation, match="leaks"):
        check_state(game, leaky)
