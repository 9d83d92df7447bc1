"""Kensei's commands: rules, scenarios and odds (the hooks in src/kassen/cli/kensei.py that its
spec names), run through the one ``kassen`` app."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.kensei import read_engagement
from kassen.cli.main import app
from tests.rulesets.kensei.helpers import ARTILLERY

runner = CliRunner()


def _invoke(args: list[str]):
    """``kassen rules|scenarios ... kensei`` and ``kassen odds --game kensei ...``."""
    cmd, rest = args[0], args[1:]
    return runner.invoke(app, [cmd, "kensei", *rest] if cmd != "odds" else ["odds", "--game", "kensei", *rest])
SRC = str(Path(__file__).resolve().parents[3] / "src")

MELEE = """
kind = "hand-to-hand"

[attacker]
roster = "buke-vanguard"
troop = "yari-samurai"
charge = true
in_contact = 4
leader = "direct"
banner_front = true

[defender]
roster = "kuroi-te-horde"
troop = "undead-ashigaru"
in_contact = 4
"""


def _file(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "engagement.toml"
    p.write_text(text)
    return p


def test_cli_every_documented_way_of_naming_kensei_reaches_its_commands(tmp_path):
    f = str(_file(tmp_path, MELEE))
    assert json.loads(runner.invoke(app, ["rules", "kensei", "--json"]).output)["game"] == "kensei"
    assert json.loads(runner.invoke(app, ["rules", "--game", "kensei", "--json"]).output)["game"] == "kensei"
    for args in (["scenarios", "kensei", "--json"], ["scenarios", "--game", "kensei", "--json"],
                 ["scenarios", "--game=kensei", "--json"]):
        rows = json.loads(runner.invoke(app, args).output)
        assert [r["roll"] for r in rows] == [1, 2, 3, 4, 5, 6], args
    for args in (["odds", "--game", "kensei", f, "--json"], ["odds", f, "--game=kensei", "--json"]):
        assert json.loads(runner.invoke(app, args).output)["kind"] == "hand-to-hand", args
    assert json.loads(runner.invoke(app, ["rules", "clans", "--json"]).output)["game"] == "clans"
    r = runner.invoke(app, ["odds", "--attacker", "SSp", "--defender", "AB", "--json"])
    assert r.exit_code == 0 and "p_hit" in json.loads(r.output)
    r = runner.invoke(app, ["odds", f, "--game", "clans"])
    assert r.exit_code == 2 and "clans reads no engagement file" in " ".join(r.output.split())


def test_cli_rules_prints_every_table_with_its_sheet_line():
    r = _invoke(["rules"])
    assert r.exit_code == 0, r.output
    for text in ("Troop attributes", "Hand to hand weapons", "Blunt Weapons", "Ranged weapons", "Armour", "Titles",
                 "Clans", "Commander level", "War machines", "Ammunition", "Roll modifiers", "003:183"):
        assert text in r.output


def test_cli_rules_json_is_the_data_the_engine_loads():
    r = _invoke(["rules", "--json"])
    data = json.loads(r.output)
    assert data["classes"]["H"]["at"] == [4, 3]
    assert data["modifiers"]["combat-dice.used"]["value"] == -1


def test_cli_scenarios_lists_the_six_battles_by_roll():
    r = _invoke(["scenarios", "--json"])
    rows = json.loads(r.output)
    assert [x["roll"] for x in rows] == [1, 2, 3, 4, 5, 6] and rows[4]["name"] == "Village defense"
    assert "Strategic control" in _invoke(["scenarios"]).output


def test_cli_odds_hand_to_hand_json_sums_to_one(tmp_path):
    r = _invoke(["odds", str(_file(tmp_path, MELEE)), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    total = Fraction(data["a_wins"]["p"]) + Fraction(data["draw"]["p"]) + Fraction(data["b_wins"]["p"])
    assert total == 1
    assert data["a"]["plan"]["dice"] == 11
    assert sum(Fraction(v["p"]) for v in data["a"]["wounds"].values()) == 1


def test_cli_odds_prints_modifiers_with_sources(tmp_path):
    r = _invoke(["odds", str(_file(tmp_path, MELEE))])
    assert r.exit_code == 0, r.output
    assert "Hata-Jurushi" in r.output and "003:124" in r.output and "Who wins" in r.output


def test_cli_odds_shooting_and_artillery(tmp_path):
    shot = _file(tmp_path, MELEE.replace("hand-to-hand", "shooting").replace("yari-samurai", "yumi-ashigaru")
                 .replace("charge = true\n", "").replace('leader = "direct"\n', "").replace("banner_front = true\n", ""))
    data = read_engagement(shot)
    assert data["a"]["plan"]["kind"] == "shooting" and data["a"]["stuns"] == {"0": {"p": "1", "float": 1.0}}
    art = _file(tmp_path, ARTILLERY)
    data = read_engagement(art)
    assert data["impact"]["plan"]["dice"] == 1 and data["a"]["plan"]["dice"] == 6
    assert _invoke(["odds", str(art)]).exit_code == 0


@pytest.mark.parametrize(("text", "message"), [
    (MELEE.replace("banner_front = true\n", "banner_front = true\ncolour = 1\n"),
     "\\[attacker\\] troop 'yari-samurai': unknown field 'colour'"),
    (MELEE.replace('leader = "direct"', 'leader = "maybe"'), "\\[attacker\\] troop 'yari-samurai': field 'leader'"),
    (MELEE.replace('troop = "yari-samurai"', 'troop = "ninjas"'), "has no troop 'ninjas'"),
    (MELEE.replace('kind = "hand-to-hand"', 'kind = "duel"'), "field 'kind'"),
    (MELEE.replace("in_contact = 4\nleader", "in_contact = 40\nleader"), "0 to 9"),
])
def test_cli_odds_errors_say_what_is_wrong(tmp_path, text, message):
    r = _invoke(["odds", str(_file(tmp_path, text))])
    assert r.exit_code == 1
    assert __import__("re").search(message, " ".join(r.output.split())), r.output


def test_cli_hook_in_kassen_main_runs_the_kensei_commands(tmp_path):
    env = {**os.environ, "PYTHONPATH": SRC}
    p = subprocess.run([sys.executable, "-m", "kassen", "odds", "--game", "kensei", str(_file(tmp_path, MELEE)),
                        "--json"], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["kind"] == "hand-to-hand"
    p = subprocess.run([sys.executable, "-m", "kassen", "rules", "kensei"], capture_output=True, text=True,
                       timeout=120, env=env)
    assert p.returncode == 0 and "Troop attributes" in p.stdout


def test_cli_terminal_view_shows_troops_markers_and_the_table_question():
    from rich.console import Console

    from kassen.cli.kensei import render
    from kassen.rulesets.kensei.game import KenseiGame

    s = KenseiGame().new_state("border-wars", 2)
    while not s.d["questions"]:
        legal = s.legal_actions()
        s = s.apply(next((a for a in legal if a.startswith("charge ")), legal[-1]))
    con = Console(record=True, width=200)
    con.print(render(s.observation(0), 0))
    out = con.export_text()
    assert "Yari samurai" in out and "Undead samurai" in out and "ACTIVE" in out and "Table question" in out


def test_kassen_play_kensei_takes_the_two_rosters_and_seats_two_people(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    """Issue 17: `kassen play kensei ROSTER_A ROSTER_B` runs the companion for a table game."""
    from typer.testing import CliRunner

    from kassen.cli.main import app as main_app
    from kassen.rulesets.kensei import play_words

    monkeypatch.chdir(tmp_path)  # the end of input leaves a save here
    assert play_words(["buke-vanguard", "kuroi-te-horde"]) == (None, {"rosters": "buke-vanguard,kuroi-te-horde"})
    args = ["play", "kensei", "buke-vanguard", "kuroi-te-horde", "--seed", "2"]
    result = CliRunner().invoke(main_app, args, input="")
    assert "Buke vanguard (Buke) (human)  vs  Kuroi-Te horde (Kuroi-Te) (human)" in result.output, result.output


def test_cli_odds_shows_the_markers_left_after_conversion(tmp_path):
    """Issue 35: the joint law of wound and Stunned markers left on the target (003:142, 003:252)."""
    text = MELEE + "stunned = 2\n"  # on the undead defender: three Stunned markers make a wound
    r = _invoke(["odds", str(_file(tmp_path, text))])
    assert r.exit_code == 0, r.output
    assert "Markers left on Undead ashigaru" in r.output and "2 Stunned" in r.output
    data = read_engagement(_file(tmp_path, text))
    assert sum(Fraction(x["p"]) for x in data["a"]["left"]) == 1
    assert {x["stunned"] for x in data["a"]["left"]} == {0, 1, 2}
