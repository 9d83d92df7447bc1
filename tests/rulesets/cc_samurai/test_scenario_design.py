"""Scenario files for designers (issue 36): the loader lists every problem with its field,
line and hex; the editor's serialisation round-trips every shipped battle; the template
loads; ``kassen scenarios new`` / ``check``."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.engine.errors import FormatError
from kassen.rulesets.cc_samurai.design import check_scenario_text, template, to_toml
from kassen.rulesets.cc_samurai.scenario import (
    SCENARIO_DIR,
    Scenario,
    field_lines,
    load_scenario_file,
    parse_scenario,
)

SHIPPED = sorted(SCENARIO_DIR.glob("*.toml")) + sorted((SCENARIO_DIR / "zvezda").glob("*.toml"))

#: a hand-edited file with one problem of every board-level kind, and the line of each
EVERY_BOARD_ERROR = '''\
[scenario]
id = "bad"
name = "Bad"
first = "red"
bottom = "red"
victory_banners = 5

[terrain]
river = ["B7", "D7"]
swamp = ["F5"]
hill = ["E3",
        "B7"]

[[objective]]
hexes = ["D7"]

[red]
command = 5
dragon = 3
honor = 5
tent = "L1"
pieces = [
  { at = "F3", unit = "AB" },
  { at = "F3", unit = "ASp" },
  { at = "B7", unit = "XX" },
  { at = "A2", leader = "foot" },
  { at = "H3", unit = "SSpC", leader = "foot" },
  { at = "J3", unit = "BG" },
  { at = "N3", unit = "BG", leader = "commander" },
]
exits = ["F5"]

[blue]
command = 5
dragon = 3
honor = 5
pieces = [
  { at = "T9", unit = "AB", blocks = 2 },
  { at = "R9", leader = "mounted", blocks = 2 },
]
'''


def test_every_board_problem_is_listed_with_its_line_and_hex() -> None:
    scen, problems = check_scenario_text(EVERY_BOARD_ERROR, "bad.toml")
    assert scen is None
    got = [(p.line, p.field, p.hex) for p in problems]
    assert got == [
        (10, "terrain.swamp", None),
        (11, "terrain.hill[0]", None),
        (12, "terrain.hill[1]", "B7"),
        (24, "red.pieces[1]", "F3"),
        (25, "red.pieces[2].unit", "B7"),
        (25, "red.pieces[2]", "B7"),
        (26, "red.pieces[3]", "A2"),
        (27, "red.pieces[4]", "H3"),
        (28, "red.pieces[5]", "J3"),
        (29, "red.pieces[6]", "N3"),
        (31, "red.exits[0]", "F5"),
        (39, "blue.pieces[1].blocks", "R9"),
        (15, "objective[0].hexes[0]", "D7"),
    ]
    texts = [p.detail for p in problems]
    assert "field red.pieces[1]: F3 is already occupied by red pieces[0]" in texts
    assert "field red.pieces[6]: the Army Commander must start in his command tent (red.tent)" in texts
    assert all(p.message.startswith("bad.toml: field ") for p in problems)


def test_every_field_problem_is_listed_with_its_line() -> None:
    text = EVERY_BOARD_ERROR.replace('first = "red"', 'first = "green"').replace(
        "command = 5\ndragon = 3\nhonor = 5\ntent", "command = 0\ndragon = 3\nhonor = 5\ntent").replace(
        '{ at = "T9", unit = "AB", blocks = 2 }', '{ at = "T9", unit = "AB", blocks = 9, colour = 1 }')
    scen, problems = check_scenario_text(text, "bad.toml")
    assert scen is None
    assert [(p.line, p.field, p.hex) for p in problems] == [
        (4, "scenario.first", None),
        (18, "red.command", None),
        (38, "blue.pieces[0].blocks", "T9"),
        (38, "blue.pieces[0].colour", "T9"),
    ]
    assert problems[0].message == "bad.toml: field scenario.first: Input should be 'red' or 'blue'"


def test_the_loader_raises_every_problem_and_the_first_is_the_message_it_always_gave() -> None:
    data = tomllib.loads(EVERY_BOARD_ERROR)
    with pytest.raises(FormatError) as err:
        parse_scenario(data, "bad.toml")
    lines = str(err.value).splitlines()
    assert len(lines) == 13
    assert lines[0].startswith("bad.toml: field terrain.swamp: unknown terrain (known: forest, ")


def test_not_toml_is_one_problem_at_its_line() -> None:
    scen, problems = check_scenario_text('[scenario]\nid = "x"\nname = \n', "x.toml")
    assert scen is None and len(problems) == 1
    assert problems[0].line == 3 and problems[0].message.startswith("x.toml: not valid TOML: ")


def test_what_setting_up_refuses_is_a_problem_too() -> None:
    text = (SCENARIO_DIR / "first_samurai_skirmish.toml").read_text(encoding="utf-8") + \
        '\n[position.red]\nhand = ["out-flanked", "out-flanked", "out-flanked", "out-flanked"]\n'
    scen, problems = check_scenario_text(text, "p.toml")
    assert scen is None
    assert [p.detail for p in problems] == [
        "position: no Command card 'out-flanked' left in the deck (too many copies asked for?)"]


def test_field_lines_reads_the_grammar_not_the_look() -> None:
    text = '''# [red] in a comment
[scenario]
note = """a "quoted" [blue]
pieces = ["x"] \\""" still the note"""
name = 'lit # not a comment'   # a comment [x]
[red]
pieces = [ # first
  { at = "F3", unit = "AB" }, { at = "H3", unit = "ASp" },
  { at = "J3",
    unit = "AB" },   # not TOML (a newline in an inline table): located as far as it goes
]
"quoted key" = 1
'''
    lines = field_lines(text)
    assert lines["scenario"] == 2 and lines["scenario.note"] == 3 and lines["scenario.name"] == 5
    assert "blue" not in lines and "scenario.pieces" not in lines
    assert lines["red.pieces[0]"] == 8 and lines["red.pieces[1]"] == 8 and lines["red.pieces[1].unit"] == 8
    assert lines["red.pieces[2].at"] == 9 and "red.pieces[2].unit" not in lines
    assert field_lines('[red]\n"quoted key" = 1\n[[objective]]\n[[objective]]\nhexes = [\n "F3"]\n') == {
        "red": 1, "red.quoted key": 2, "objective[0]": 3, "objective[1]": 4, "objective[1].hexes": 5,
        "objective[1].hexes[0]": 6}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_battle_round_trips_through_the_editor(path: Path) -> None:
    """The editor holds a battle as its tables and saves them with ``to_toml``: the file saved
    loads to the same battle, and saving that again gives the same text."""
    original = load_scenario_file(path)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    saved = to_toml(data)
    scen, problems = check_scenario_text(saved, path.name)
    assert problems == [] and scen == original
    assert to_toml(tomllib.loads(saved)) == saved
    assert to_toml(original.model_dump(exclude_none=True)) == to_toml(
        Scenario.model_validate(tomllib.loads(saved)).model_dump(exclude_none=True))


def test_to_toml_writes_bad_values_for_the_loader_to_name() -> None:
    data = tomllib.loads(template())
    data["red"]["pieces"].append({"at": "B7", "unit": "XX"})
    data["scenario"]["note"] = 'line one\nline "two" \\ end'
    text = to_toml(data)
    assert tomllib.loads(text)["scenario"]["note"] == 'line one\nline "two" \\ end'
    _, problems = check_scenario_text(text, "t.toml")
    assert [p.field for p in problems] == ["red.pieces[7].unit"]
    assert problems[0].line == text.splitlines().index('  { at = "B7", unit = "XX" },') + 1


@pytest.mark.parametrize("edition", ["gmt", "zvezda"])
def test_the_template_is_a_battle_the_loader_accepts(edition: str) -> None:
    scen, problems = check_scenario_text(template(edition), "t.toml")
    assert problems == [] and scen is not None
    assert scen.scenario.edition == edition
    assert len(scen.red.pieces) >= 7 and len(scen.blue.pieces) >= 7
    assert template(edition).count("\n#") >= 10  # commented


def test_kassen_scenarios_new_and_check(tmp_path: Path) -> None:
    runner = CliRunner()
    f = tmp_path / "b.toml"
    r = runner.invoke(app, ["scenarios", "new", str(f), "--game", "cc-samurai-zvezda"])
    assert r.exit_code == 0, r.output
    assert f.read_text(encoding="utf-8") == template("zvezda")
    r = runner.invoke(app, ["scenarios", "new", str(f)])
    assert r.exit_code == 2 and "already exists" in r.output
    assert f.read_text(encoding="utf-8") == template("zvezda")  # nothing changed
    r = runner.invoke(app, ["scenarios", "check", str(f)])
    assert r.exit_code == 0 and "no problems" in r.output and "cc-samurai-zvezda" in r.output
    bad = tmp_path / "bad.toml"
    bad.write_text(EVERY_BOARD_ERROR, encoding="utf-8")
    r = runner.invoke(app, ["scenarios", "check", str(bad)])
    assert r.exit_code == 1
    out = [line for line in r.stdout.splitlines() if line]
    assert len(out) == 13
    assert out[0].startswith(f"{bad}:10: field terrain.swamp: unknown terrain")
    assert out[3] == f"{bad}:24: field red.pieces[1]: F3 is already occupied by red pieces[0]"
    r = runner.invoke(app, ["scenarios", "check", str(tmp_path / "none.toml")])
    assert r.exit_code == 1 and "cannot read" in r.output
    r = runner.invoke(app, ["scenarios", "new"])
    assert r.exit_code == 2 and "usage" in r.output
