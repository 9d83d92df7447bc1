"""`kassen bench`: seeded random playouts, measured (no timing assertions)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kassen.cli.main import app

runner = CliRunner()


def test_bench_one_game_prints_json_with_sane_values():
    result = runner.invoke(app, ["bench", "--games", "1", "--seed", "6", "--json"])
    assert result.exit_code == 0, result.output
    r = json.loads(result.output)
    for key in ("decisions_per_second", "games_per_second", "peak_memory_mb", "games", "decisions",
                "seconds", "python", "machine"):
        assert key in r, key
    assert r["game"] == "cc-samurai" and r["scenario"] == "first-samurai-skirmish"
    assert r["games"] == 1 and r["seed"] == 6 and r["unfinished"] == 0
    assert r["decisions"] > 10 and r["mean_decisions_per_game"] == r["decisions"]
    assert r["seconds"] > 0 and r["decision_seconds"] <= r["seconds"]
    assert r["decisions_per_second"] > 0 and r["games_per_second"] > 0
    assert r["peak_memory_mb"] is None or r["peak_memory_mb"] > 1
    assert r["traced_peak_mb"] > 0
    assert r["python"].count(".") == 2
    assert {"processor", "machine", "cpu_count"} <= set(r["machine"])


def test_bench_is_reproducible_in_what_it_plays():
    from kassen.cli.bench import run_bench

    a = run_bench("cc-samurai", None, 1, 6, memory=False)
    b = run_bench("cc-samurai", None, 1, 6, memory=False)
    assert a["decisions"] == b["decisions"] and a["traced_peak_mb"] is None


def test_bench_table_and_bad_scenario():
    result = runner.invoke(app, ["bench", "cc-samurai", "first-samurai-skirmish", "--games", "1", "--seed", "6"])
    assert result.exit_code == 0, result.output
    assert "decisions / second" in result.output
    bad = runner.invoke(app, ["bench", "cc-samurai", "no-such-battle", "--games", "1"])
    assert bad.exit_code == 2
    assert "no-such-battle" in bad.output


def test_bench_json_reports_decisions_per_cpu_second_and_the_build() -> None:
    """Issue 15: the figure to compare on a shared machine, and which build ran."""
    from kassen.cli.bench import run_bench

    r = run_bench("cc-samurai", games=2, seed=3, memory=False)
    assert r["build"] in ("python", "compiled")
    assert r["decisions_per_cpu_second"] > 0
    assert abs(r["decisions_per_cpu_second"] - r["decisions"] / r["cpu_seconds"]) < 1e-6
