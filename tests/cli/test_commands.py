"""The non-interactive commands: run, rules, scenarios, games, --help."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app

runner = CliRunner()

POSITION = """
[scenario]
id = "cli-test"
name = "CLI test"
first = "red"
bottom = "red"
victory_banners = 1

[red]
command = 5
dragon = 0
honor = 5
pieces = [{ at = "L3", unit = "SSp" }]

[blue]
command = 5
dragon = 0
honor = 5
pieces = [{ at = "M4", unit = "ASp", blocks = 1 }]

[position.red]
hand = ["order-two-center", "order-two-left", "order-two-right", "order-three-center", "advance-center"]
"""


@pytest.mark.parametrize("command", [[], ["play"], ["run"], ["rules"], ["scenarios"], ["games"]])
def test_every_command_has_help(command):
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


def test_run_applies_actions_with_forced_dice_and_prints_json(tmp_path):
    pos = tmp_path / "pos.toml"
    pos.write_text(POSITION)
    moves = tmp_path / "moves.txt"
    # Blue is asked about First Strike whatever he holds (R32): he passes
    moves.write_text("# attack with the samurai\nplay order-two-center\norder L3\nend-move\nattack L3 M4\npass\n")
    result = runner.invoke(app, ["run", str(pos), "--actions", str(moves), "--dice", "t,c,c,c", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    # the triangle kills the last block: one banner, and one banner wins this position
    assert out["result"] == {"winner": 0, "reason": "banners", "scores": [1.0, 0.0]}
    assert any(e["kind"] == "eliminated" for e in out["events"])


def test_run_reports_the_illegal_action_by_number(tmp_path):
    pos = tmp_path / "pos.toml"
    pos.write_text(POSITION)
    moves = tmp_path / "moves.txt"
    moves.write_text("play order-two-center\nmove L3 Z9\n")
    result = runner.invoke(app, ["run", str(pos), "--actions", str(moves)])
    assert result.exit_code == 1  # a runtime error (issue 18, item 9); 2 is for usage errors
    assert "action 2 ('move L3 Z9')" in result.output


def test_run_names_the_file_and_field_of_a_bad_position(tmp_path):
    pos = tmp_path / "bad.toml"
    pos.write_text(POSITION.replace('at = "L3"', 'at = "E3"'))
    result = runner.invoke(app, ["run", str(pos)])
    assert result.exit_code == 1
    assert "bad.toml" in result.output and "red.pieces[0].at" in result.output and "is not a hex" in result.output


def test_run_rejects_unknown_dice_faces(tmp_path):
    pos = tmp_path / "pos.toml"
    pos.write_text(POSITION)
    result = runner.invoke(app, ["run", str(pos), "--dice", "x,q"])
    assert result.exit_code == 2 and "not a die face" in result.output


def test_rules_prints_unit_and_terrain_tables():
    result = runner.invoke(app, ["rules", "cc-samurai"])
    assert result.exit_code == 0
    for word in ("Samurai Infantry Spearmen", "Ashigaru Infantry Arquebusiers", "Forest", "Castle", "Bodyguard"):
        assert word in result.output


def test_scenarios_lists_the_first_samurai_skirmish_as_json():
    result = runner.invoke(app, ["scenarios", "cc-samurai", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    first = rows[0]
    assert first["id"] == "first-samurai-skirmish" and first["banners"] == 5 and first["first"] == "red"


def test_unknown_game_is_a_clear_error():
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 2 and "chess" in result.output


def test_battle_json_reports_games_draws_and_wins():
    result = runner.invoke(app, ["battle", "cc-samurai", "--players", "random,random", "--games", "2", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output[result.output.index("{"):])
    assert out["games"] == 2
    assert set(out["wins_by_seat"]) == {"Red", "Blue"}
    assert sum(out["wins_by_seat"].values()) + out["draws"] + out["unfinished"] == 2
    assert out["wins_by_player"] == {"random": sum(out["wins_by_seat"].values())}


def test_battle_reports_banners_only_for_a_game_that_has_them():
    """C&C counts Victory Banners; An Honourable Victory! has none, so its table shows no banner column
    (it showed a column of zeros)."""
    cc = runner.invoke(app, ["battle", "cc-samurai", "--players", "random,random", "--games", "2", "--seed", "3"])
    hv = runner.invoke(app, ["battle", "honourable-victory", "--players", "random,random", "--games", "2",
                             "--seed", "3"])
    hv_json = runner.invoke(app, ["battle", "honourable-victory", "--players", "random,random", "--games", "2",
                                  "--seed", "3", "--json"])
    assert cc.exit_code == hv.exit_code == hv_json.exit_code == 0, cc.output + hv.output + hv_json.output
    assert "mean banners" in cc.output
    assert "mean banners" not in hv.output and "random" in hv.output
    out = json.loads(hv_json.output[hv_json.output.index("{"):])
    assert out["mean_banners_by_player"] == {}


def test_battle_refuses_a_wrong_number_of_players():
    result = runner.invoke(app, ["battle", "--players", "random", "--games", "1"])
    assert result.exit_code == 2 and "one per seat" in result.output


def test_rules_cards_lists_all_one_hundred_cards_with_dragon_confidence():
    from kassen.rulesets.cc_samurai.data import load_tables

    result = runner.invoke(app, ["rules", "cc-samurai", "--cards"])
    assert result.exit_code == 0, result.output
    t = load_tables()
    assert sum(c.copies for c in t.command.values()) + sum(d.copies for d in t.dragon.values()) == 100
    flat = " ".join(result.output.split())
    for card in [*t.command.values(), *t.dragon.values()]:
        assert card.name.split()[0] in flat
    assert "Turncoat" in flat and "mostly reconstructed" in flat


def test_run_forces_d6_dice_by_number_for_a_d6_game():
    battle = "src/kassen/rulesets/honourable_victory/data/battles/meeting_engagement.toml"
    # turn 1's initiative obeys --dice (issue 18): South throws 1+1, North 6+6, lowest wins
    ok = runner.invoke(app, ["run", battle, "--game", "honourable-victory", "--dice", "1,1,6,6", "--json"])
    assert ok.exit_code == 0, ok.output
    out = json.loads(ok.output)
    init = [e for e in out["events"] if e["kind"] == "initiative"]
    assert init[0]["data"]["faces"] == [[1, 1], [6, 6]] and out["state"]["init"] == 0
    # the dice are taken as numbers; dice nothing rolls are a mistake (issue 18, item 6)
    unused = runner.invoke(app, ["run", battle, "--game", "honourable-victory", "--dice", "1,1,6,6,3", "--json"])
    assert unused.exit_code == 2 and "1 of the forced dice were never rolled" in unused.output
    bad = runner.invoke(app, ["run", battle, "--game", "honourable-victory", "--dice", "1,7"])
    assert bad.exit_code != 0 and "forced dice must be 1..6" in bad.output


def test_rules_clans_labels_the_default_card_values():
    result = runner.invoke(app, ["rules", "clans"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "5 (default value)" in flat  # the Brute's Strength is not in the rulebook
    assert "Torii" in flat and "Golden Temple" in flat


def test_rules_honourable_victory_prints_classes_weapons_and_quality():
    result = runner.invoke(app, ["rules", "honourable-victory"])
    assert result.exit_code == 0, result.output
    for word in ("Light Foot", "Mounted", "Combat Value", "veteran"):
        assert word in result.output
