"""benchmarks/ship_balance.py: a report joined from two runs says, scenario by scenario, which run
its figure comes from (the lobby shows that run's command and date)."""

from __future__ import annotations

import importlib.util
import json
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


def _game(seed: int, winner: int) -> dict[str, Any]:
    """One game as ``kassen.ai.balance.play_analysed`` records it (a 5-banner C&C win)."""
    banners = [5, 2] if winner == 0 else [3, 5]
    return {"seed": seed, "players": ["greedy", "greedy"], "winner_seat": winner, "winner_seats": [winner],
            "reason": "banners", "turns": 40 + seed, "actions": 400 + seed, "banners": banners, "first_seat": 0,
            "banner_log": [{"side": winner, "amount": 5, "cause": "Samurai Infantry eliminated", "card": "shogun",
                            "own_turn": True}],
            "decisive": {"side": winner, "cause": "Samurai Infantry eliminated", "card": "shogun"}}


def test_what_ships_is_the_figures_without_the_games_and_one_small_plot(tmp_path: Path) -> None:
    """Issue 32: the package ships each scenario's statistics and a small SVG; the games and the
    large plots stay with the run."""
    from kassen.ai.balance import scenario_report

    full = scenario_report("okehazama-1560", "Okehazama 1560", ["Red", "Blue"],
                           [_game(s, 0 if s % 4 else 1) for s in range(20)])
    assert len(full["results"]) == 20 and len(full["length"]["turns"]["values"]) == 20
    new, shipped = tmp_path / "run", tmp_path / "shipped"
    new.mkdir()
    shipped.mkdir()
    new_doc = {**_report("2026-11-27", "kassen balance merge RUN", {}), "scenarios": {"okehazama-1560": full}}
    (new / "balance.json").write_text(json.dumps(new_doc))
    old = _report("2026-11-24", "kassen balance cc-samurai --games 6", {"okehazama-1560": 6, "azukizaka-1542": 6})
    (shipped / "balance.json").write_text(json.dumps(old))
    assert ship.main([str(new), str(shipped), "--command", "kassen balance cc-samurai --games 20", "--seed", "0",
                      "--games-planned", "20"]) == 0
    doc = json.loads((shipped / "balance.json").read_text())
    rep = doc["scenarios"]["okehazama-1560"]
    assert "results" not in rep and "values" not in rep["length"]["turns"]
    assert rep["win_rate_by_side"] == full["win_rate_by_side"] and rep["games"] == 20
    assert rep["length"]["turns"]["mean"] == full["length"]["turns"]["mean"]
    assert doc["scenarios"]["azukizaka-1542"]["games"] == 6  # kept, as before
    assert doc["plots"]["okehazama-1560"] == ["okehazama-1560.svg"]
    svg = (shipped / "okehazama-1560.svg").read_text()
    assert svg.startswith("<?xml") and "<svg" in svg and "Okehazama 1560: 20 games" in svg
    assert len(svg.encode()) < 10_000
    assert not list(shipped.glob("*.png"))
