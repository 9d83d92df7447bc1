"""benchmarks/ship_balance.py: a report joined from two runs says, scenario by scenario, which run
its figure comes from (the lobby shows that run's command and date)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "ship_balance", Path(__file__).resolve().parents[2] / "benchmarks" / "ship_balance.py")
assert _SPEC is not None and _SPEC.loader is not None
ship = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(ship)


def _report(date: str, command: str, games: dict[str, int], players: list[str] | None = None) -> dict[str, Any]:
    return {"game": "cc-samurai", "date": date, "command": command, "players": players or ["greedy", "greedy"],
            "games_per_scenario": 6, "seed": 1,
            "scenarios": {sid: {"scenario": sid, "games": n} for sid, n in games.items()},
            "plots": {sid: [f"{sid}.png", f"{sid}.svg"] for sid in games}, "runs": [{"date": date, "command": command}]}


def test_scenarios_with_enough_new_games_take_the_new_run_the_others_keep_theirs() -> None:
    old = _report("2026-11-24", "kassen balance cc-samurai --games 6", {"a": 6, "b": 6, "c": 6})
    new = _report("2026-11-25", "kassen balance merge RUN", {"a": 200, "b": 12, "c": 0})
    out, taken = ship.join(new, old, "kassen balance cc-samurai --games 200", 20, 0, 200)
    assert taken == ["a"]
    a, b = out["scenarios"]["a"], out["scenarios"]["b"]
    assert (a["games"], a["command"], a["date"], a["seed"], a["games_planned"]) == (
        200, "kassen balance cc-samurai --games 200", "2026-11-25", 0, 200)
    assert (b["games"], b["command"], b["date"], b["seed"], b["games_planned"]) == (
        6, "kassen balance cc-samurai --games 6", "2026-11-24", 1, 6)
    assert out["games_per_scenario"] is None and out["seed"] is None  # they differ by scenario now


def test_reports_of_other_players_are_not_joined() -> None:
    old = _report("2026-11-24", "x", {"a": 6})
    new = _report("2026-11-25", "y", {"a": 200}, players=["normal", "greedy"])
    with pytest.raises(SystemExit, match="different game or players"):
        ship.join(new, old, "y", 20, 0, 200)
