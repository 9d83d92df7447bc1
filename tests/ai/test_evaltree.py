"""The plan search (kassen.ai.evaltree): spending exactly its counted budget, taking what wins,
explaining its turn. Legality, reproducibility and blindness to hidden information are checked with
the planner's in test_planner.py (strength runs live in benchmarks/)."""

from __future__ import annotations

import pytest

from tests.ai.test_planner import _state_at
from tests.ai.test_planner import small_search as small


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


def test_plan_search_explains_its_turn():
    p = small(2)
    s = _state_at("play")
    seat = s.to_move()
    for _ in range(40):
        if s.is_terminal() or s.to_move() != seat:
            break
        s = s.apply(p.choose(s, seat))
    assert p.explanation is not None and p.explanation.startswith("plansearch: plan play ")
