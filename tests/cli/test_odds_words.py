"""``kassen odds`` (issue 30, item 6): unit codes in any case, and "1 die" for one die."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kassen.cli.main import app

runner = CliRunner()


def test_kassen_odds_takes_unit_codes_in_any_case() -> None:
    lower = json.loads(runner.invoke(app, ["odds", "--attacker", "sspc", "--defender", "asp", "--json"]).output)
    exact = json.loads(runner.invoke(app, ["odds", "--attacker", "SSpC", "--defender", "ASp", "--json"]).output)
    assert lower == exact and lower["attacker"] == "SSpC" and lower["defender"] == "ASp"
    r = runner.invoke(app, ["odds", "--attacker", "xx", "--defender", "ASp"])
    assert r.exit_code != 0 and "unknown attacker 'xx'" in r.output


def test_kassen_odds_says_1_die() -> None:
    """Arquebusiers at range 4 roll one die."""
    text = " ".join(runner.invoke(app, ["odds", "--attacker", "aa", "--defender", "ASp", "--ranged",
                                        "--range", "4"]).output.split())
    assert "AA on countryside attacks ASp on countryside at range 4: 1 die (" in text
    assert "1 dice" not in text


def test_kassen_scenarios_never_cuts_an_id_at_80_columns() -> None:
    """Issue 30, item 6: the other columns wrap; every scenario id is printed whole."""
    from kassen.rulesets.registry import available, load_game

    out = runner.invoke(app, ["scenarios"], env={"COLUMNS": "80"}).output
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "…" not in out
    for gid in available():
        assert gid in out
        for sid in load_game(gid).scenarios():
            assert sid in out, sid
