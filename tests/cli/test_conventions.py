"""The command line as people expect it (issue 18, items 1, 7 and 9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen import __version__
from kassen.cli.main import app
from kassen.cli.tui import run_tui
from kassen.rulesets.cc_samurai import honor
from tests.cli.test_saves import keyboard

runner = CliRunner()


@pytest.mark.parametrize("words", [["show", "village-ambush"], ["show", "honourable-victory", "village-ambush"],
                                   ["show", "village-ambush", "--game", "honourable-victory"]])
def test_scenarios_show_draws_an_honourable_victory_battle(words: list[str]) -> None:
    """Item 1: this crashed with "'HonourableVictoryGame' object has no attribute 'load_scenario'"."""
    r = runner.invoke(app, ["scenarios", *words])
    assert r.exit_code == 0, r.output
    assert "The Village by the Hill" in r.output and "Oda (South) against Imagawa (North)" in r.output
    assert "reserve" in r.output  # the zone table is drawn


def test_scenarios_show_draws_a_clans_set_up_and_the_flagship_by_default() -> None:
    r = runner.invoke(app, ["scenarios", "show", "clans", "2-players"])
    assert r.exit_code == 0 and "Kamiwashi against Hondo" in r.output and "Battlefield" in r.output
    r = runner.invoke(app, ["scenarios", "show", "first-samurai-skirmish"])
    assert r.exit_code == 0 and "First Samurai Skirmish" in r.output and "cc-samurai-zvezda" in r.output


def test_scenarios_show_errors_name_the_games() -> None:
    r = runner.invoke(app, ["scenarios", "show", "nope"])
    assert r.exit_code == 2 and "no battle 'nope' in any game" in r.output and "honourable-victory:" in r.output
    r = runner.invoke(app, ["scenarios", "show", "village-ambush", "--game", "clans"])
    assert r.exit_code == 2 and "clans has no battle 'village-ambush'" in r.output


def test_kassen_run_loads_a_game_saved_by_kassen_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 7: `kassen run` could not load a `kassen play` save."""
    monkeypatch.chdir(tmp_path)
    keys = keyboard("1", "1", "1")
    import io

    from rich.console import Console

    run_tui("clans", None, "human,random", 3, None, console=Console(file=io.StringIO()), input_fn=keys)
    save = tmp_path / "kassen-save.kassen.json"
    record = json.loads(save.read_text())
    r = runner.invoke(app, ["run", str(save), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    from kassen.engine.record import GameRecord, replay
    from kassen.rulesets.registry import load_game

    expected = replay(load_game("clans"), GameRecord.from_json(record))
    assert len(record["actions"]) >= 3
    assert out["state"] == json.loads(json.dumps(expected.to_json()))  # where the game was saved
    assert out["legal_actions"] == expected.legal_actions()
    r = runner.invoke(app, ["run", str(save), "--game", "cc-samurai"])
    assert r.exit_code == 2 and "is a saved game of clans, not cc-samurai" in r.output


def test_version_short_help_games_json_and_python_dash_m() -> None:
    """Item 9: --version, -h, --json on games, shell completion, python -m kassen."""
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"kassen {__version__}"
    r = runner.invoke(app, ["-h"])
    assert r.exit_code == 0 and "--install-completion" in r.output and "Commands" in r.output
    r = runner.invoke(app, ["play", "-h"])
    assert r.exit_code == 0 and "--players" in r.output
    r = runner.invoke(app, ["games", "--json"])
    assert r.exit_code == 0 and {g["id"] for g in json.loads(r.output)} >= {"cc-samurai", "clans"}
    p = subprocess.run([sys.executable, "-m", "kassen", "--version"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == f"kassen {__version__}"
    r = runner.invoke(app, ["no-such-command"])
    assert r.exit_code == 2


def test_meaningless_options_are_errors(tmp_path: Path) -> None:
    """Item 6: --no-tui, rules honourable-victory --cards, a C&C game option and unused --dice
    were accepted and ignored."""
    r = runner.invoke(app, ["play", "--no-tui"])
    assert r.exit_code == 2 and "kassen serve" in r.output
    r = runner.invoke(app, ["rules", "honourable-victory", "--cards"])
    assert r.exit_code == 2 and "has no cards" in r.output
    r = runner.invoke(app, ["play", "cc-samurai", "--option", "width=7", "--players", "random,random"])
    assert r.exit_code == 2 and "has no game options; got width" in r.output
    r = runner.invoke(app, ["rules", "clans", "--cards"])
    assert r.exit_code == 0 and "Army cards" in r.output and "Battlefield tiles" not in r.output
    from tests.cli.test_commands import POSITION

    pos = tmp_path / "pos.toml"
    pos.write_text(POSITION)
    moves = tmp_path / "m.txt"
    moves.write_text("play order-two-center\norder L3\nend-move\nattack L3 M4\npass\n")
    r = runner.invoke(app, ["run", str(pos), "--actions", str(moves), "--dice", "t,c,c,c,x,x"])
    assert r.exit_code == 2 and "2 of the forced dice were never rolled" in r.output


def test_rules_table_shows_the_hill_limit_the_engine_applies() -> None:
    """Item 5: the engine caps close combat into a hill from below at 2 dice; the table said
    nothing. The table is now made by the engine's own terrain_caps."""
    from kassen.rulesets.cc_samurai.combat import terrain_caps
    from kassen.rulesets.cc_samurai.data import load_tables

    t = load_tables("gmt")
    assert min(terrain_caps(t.units["SSp"], "close", t.terrain["countryside"], t.terrain["hill"])) == 2
    r = runner.invoke(app, ["rules", "cc-samurai"], env={"COLUMNS": "220"})
    assert r.exit_code == 0
    hill = next(line for line in r.output.splitlines() if line.strip("│ ").startswith("Hill"))
    assert "2|2 / -" in hill and "from below" in hill


def test_kassen_odds_says_at_least_one_hit_hit_or_retreat_and_how_the_dice_were_counted() -> None:
    """Item 11: samurai spearmen (4 dice) into a hill from below (at most 2), inspired (+1):
    3 dice, each hitting the ashigaru on a triangle or a sword (1/3) and flagging on 1/6."""
    r = runner.invoke(app, ["odds", "--attacker", "SSp", "--defender", "ASp", "--defender-on", "hill",
                            "--inspired", "--json"])
    out = json.loads(r.output)
    assert out["dice"] == 3
    assert out["dice_breakdown"] == {"base": 4, "terrain_max": 2, "after_terrain": 2, "inspired": 1, "cards": 0}
    assert abs(out["p_hit"] - (1 - (2 / 3) ** 3)) < 1e-12
    assert abs(out["p_hit_or_retreat"] - (1 - (1 / 2) ** 3)) < 1e-12
    text = runner.invoke(app, ["odds", "--attacker", "SSp", "--defender", "ASp", "--defender-on", "hill",
                               "--inspired"]).output
    assert "3 dice (4 of the unit, at most 2 for the terrain, +1 inspired)" in " ".join(text.split())
    assert "At least one hit: 70.37%" in text and "hit or retreat): 87.50%" in text


def test_the_terminal_menu_shows_the_odds_of_each_attack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 11: before `attack`, the terminal shows the exact odds, as the browser does."""
    import io

    from rich.console import Console

    from tests.cli.test_commands import POSITION

    monkeypatch.chdir(tmp_path)
    pos = tmp_path / "pos.toml"
    pos.write_text(POSITION)
    keys = keyboard("play order-two-center", "order L3", "end-move")
    con = Console(file=io.StringIO(), width=200)
    run_tui("cc-samurai", str(pos), "human,random", 1, None, console=con, input_fn=keys)
    out = " ".join(con.file.getvalue().split())  # type: ignore[attr-defined]
    # SSp (4 dice) against a 1-block ASp: each die hits on a triangle or a sword
    p = 1 - (2 / 3) ** 4
    assert "attack L3 M4" in out and f"[4 dice: hit {p:.0%}, hit or retreat" in out
    assert f"eliminate {p:.0%}]" in out


def test_texts_speak_plainly() -> None:
    """Item 10: "gains 0 Honor & Fortune (the pool had only 0)", "not a int"."""
    from kassen.engine.errors import FormatError
    from kassen.engine.record import GameRecord
    from kassen.rulesets.registry import load_game

    s = load_game("cc-samurai").new_state(None, 1).clone()  # type: ignore[attr-defined]
    s._ev = []
    s.pool = 0
    honor.gain_honor(s, 0, 2, "a test")
    assert s._ev[-1].text == "Red gains no Honor & Fortune: the pool is empty (a test)"
    s.pool = 1
    honor.gain_honor(s, 0, 2, "a test")
    assert s._ev[-1].text == "Red gains 1 Honor & Fortune (all the pool had left, of 2): a test"
    with pytest.raises(FormatError, match="field 'seed' is missing or not an integer"):
        GameRecord.from_json({"format": "kassen-game/1", "ruleset": "cc-samurai", "rules_version": "1",
                              "seed": "x", "actions": []})


def test_dragon_card_summaries_name_their_targets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 10: "Desperate Charge ... +1 die" without "a unit reduced to a single block"."""
    import io

    from rich.console import Console

    from tests.cli.test_commands import POSITION

    monkeypatch.chdir(tmp_path)
    pos = tmp_path / "pos.toml"
    pos.write_text(POSITION.replace("[position.red]\n", '[position.red]\ndragons = ["desperate-charge"]\n'))

    def keys(prompt: str) -> str:
        raise EOFError

    con = Console(file=io.StringIO(), width=200)
    run_tui("cc-samurai", str(pos), "human,random", 1, None, console=con, input_fn=keys)
    out = " ".join(con.file.getvalue().split())  # type: ignore[attr-defined]
    assert "Desperate Charge" in out and "1 of your units reduced to a single block: +1 close combat die." in out


def test_rules_json_and_exit_codes(tmp_path: Path) -> None:
    """Item 9: `rules --json`; exit code 1 for runtime errors, 2 for usage errors."""
    for game, key in (("cc-samurai", "units"), ("clans", "battlefields"), ("honourable-victory", "quality")):
        r = runner.invoke(app, ["rules", game, "--json"])
        assert r.exit_code == 0 and key in json.loads(r.output), game
    assert "dragon_cards" in json.loads(runner.invoke(app, ["rules", "cc-samurai", "--cards", "--json"]).output)
    assert runner.invoke(app, ["run", str(tmp_path / "missing.json")]).exit_code == 1
    assert runner.invoke(app, ["run", str(tmp_path / "missing.json"), "--nonsense"]).exit_code == 2
    assert runner.invoke(app, ["odds", "--attacker", "XX", "--defender", "ASp"]).exit_code == 2
