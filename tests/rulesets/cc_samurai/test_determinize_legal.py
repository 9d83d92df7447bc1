"""A determinized copy for the seat to move keeps the state's legal actions without generating
them again (view.py ``determinize``): they must equal those generated on the copy's own data."""

from __future__ import annotations

import pytest

from kassen.ai.players import RandomPlayer
from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game


@pytest.mark.parametrize(("game_id", "scenario", "seed"), [
    ("cc-samurai", None, 0), ("cc-samurai", "sekigahara-1600", 1), ("cc-samurai-zvezda", None, 2),
    ("cc-samurai", "nagashino-1575", 3),
])
def test_determinized_legal_actions_equal_a_fresh_generation(game_id: str, scenario: str | None, seed: int) -> None:
    game = load_game(game_id)
    state = game.new_state(scenario, seed)
    players = [RandomPlayer(seed * 7919 + i) for i in range(2)]
    rng = Rng(seed)
    kept = 0
    for _ in range(400):
        seat = state.to_move()
        if seat is None:
            break
        state.legal_actions()  # as a player asks before it looks ahead
        for look in (seat, 1 - seat):
            det = state.determinize(look, rng)
            fresh = det.fork()  # the same data, no legal actions yet
            assert fresh._legal is None
            if look == seat:
                kept += det._legal is not None
            assert det.legal_actions() == fresh.legal_actions()
        state = state.apply(players[seat].choose(state, seat))
    assert kept > 100
