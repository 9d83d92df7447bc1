"""The plan search (kassen.ai.evaltree): legal, reproducible, blind to hidden information,
and spending exactly its counted budget (strength runs live in benchmarks/)."""

from __future__ import annotations

import pytest

from kassen.ai.evaltree import PlanSearchPlayer
from kassen.ai.evaluate import load_weights
from kassen.rulesets.registry import load_game
from tests.ai.helpers import play_legal
from tests.ai.test_planner import _state_at
from tests.ai.test_players import _with_other_hidden_information

WEIGHTS = load_weights()
PLANNER = {"battle_samples": 2, "card_rollouts": 2, "card_beam": 2}


def small(seed: int, iterations: int = 12) -> PlanSearchPlayer:
    return PlanSearchPlayer(seed, iterations=iterations, weights=WEIGHTS, planner=PLANNER)


def _play(game_id: str, seed: int, decisions: int) -> list[str]:
    s = load_game(game_id).new_state(None, seed)
    players = [small(seed), small(seed + 1)]
    return play_legal(s, players, decisions)


@pytest.mark.parametrize("game_id", ["cc-samurai", "cc-samurai-zvezda"])
def test_plan_search_plays_only_legal_actions_and_fights(game_id):
    actions = _play(game_id, 3, 120)
    assert any(a.startswith(("attack ", "fire ")) for a in actions)
    assert any(a.startswith("move ") for a in actions)


def test_plan_search_is_deterministic_for_a_seed():
    assert _play("cc-samurai", 5, 40) == _play("cc-samurai", 5, 40)


@pytest.mark.parametrize("decision", ["play", "order", "move", "battle"])
def test_plan_search_never_reads_the_opponents_hand_the_decks_or_the_dice(decision):
    s = _state_at(decision)
    seat = s.to_move()
    other = _with_other_hidden_information(s, seat)
    assert small(9).choose(s, seat) == small(9).choose(other, seat)


@pytest.mark.parametrize("budget", [1, 7, 40])
def test_plan_search_spends_exactly_its_iterations(budget, monkeypatch):
    """The budget is counted: a clock jumping 1,000 s a reading changes neither the work nor the move."""
    import time

    s = _state_at("move")
    seat = s.to_move()
    calm = small(4, budget)
    a = calm.choose(s, seat)
    assert calm.work == budget
    ticks = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    rushed = small(4, budget)
    assert rushed.choose(s, seat) == a and rushed.work == budget


def test_plan_search_takes_a_winning_attack():
    from tests.rulesets.cc_samurai.helpers import act, position

    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SSp" }, { at = "F3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }, { at = "V9", unit = "ASp" }]
    """, victory=1)
    s = act(s, "play order-three-center", "order L3", "end-move")
    assert small(1, 60).choose(s, 0) == "attack L3 M4"


def test_plan_search_explains_its_turn():
    p = small(2)
    s = _state_at("play")
    seat = s.to_move()
    for _ in range(40):
        if s.is_terminal() or s.to_move() != seat:
            break
        s = s.apply(p.choose(s, seat))
    assert p.explanation is not None and p.explanation.startswith("plansearch: plan play ")
