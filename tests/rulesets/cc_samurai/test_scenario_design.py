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
    fields = [(4, "scenario.first", None), (18, "red.command", None), (38, "blue.pieces[0].blocks", "T9"),
              (38, "blue.pieces[0].colour", "T9")]
    # the field errors do not hide the board's: every one of EVERY_BOARD_ERROR's follows
    _, board = check_scenario_text(EVERY_BOARD_ERROR, "bad.toml")
    assert [(p.line, p.field, p.hex) for p in problems] == fields + [(p.line, p.field, p.hex) for p in board]
    assert problems[0].message == "bad.toml: field scenario.first: Input should be 'red' or 'blue'"
    assert not any(p.warning for p in problems)


def test_a_refused_piece_is_set_aside_and_the_rest_of_the_board_is_still_judged() -> None:
    """A piece pydantic refuses (no unit nor Leader) is skipped with everything about it; the
    piece beside it on a river is still named, and so is a refused tent's Commander nothing."""
    text = EVERY_BOARD_ERROR.replace('{ at = "F3", unit = "ASp" }', '{ at = "F3" }').replace(
        'tent = "L1"', 'tent = 7')
    scen, problems = check_scenario_text(text, "bad.toml")
    got = [(p.field, p.detail) for p in problems]
    assert scen is None
    assert ("red.pieces[1]", "field red.pieces.1: Value error, a piece needs a 'unit', a 'leader' or both") in got
    assert ("red.tent", "field red.tent: Input should be a valid string") in got
    assert ("red.pieces[2]", "field red.pieces[2]: B7 is a river hex") in got
    assert not any(f == "red.pieces[1]" and "occupied" in d for f, d in got)  # set aside: not on F3
    assert not any("command tent" in d for _, d in got)  # the tent refused: not judged
    # a refused edition: units and terrain cannot be judged, so only the field is named
    _, problems = check_scenario_text(EVERY_BOARD_ERROR.replace('first = "red"', 'first = "red"\nedition = "x"'),
                                      "bad.toml")
    assert [p.field for p in problems] == ["scenario.edition"]


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
    assert [p.detail for p in problems if not p.warning] == [] and scen == original
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
    # a warning is printed with its line, and the file still passes (kassen run plays it)
    warned = tmp_path / "warned.toml"
    warned.write_text(template().replace('{ at = "T3", unit = "ASp" }', '{ at = "P3", unit = "ASp" }'),
                      encoding="utf-8")
    r = runner.invoke(app, ["scenarios", "check", str(warned)])
    assert r.exit_code == 0, r.output
    first, last = [line for line in r.stdout.splitlines() if line]
    assert first.startswith(f"{warned}:45: field red.pieces: warning: Red has no unit or Leader in its right section")
    assert last.startswith(f"{warned}: no problems (1 warning): 'My Battle' (cc-samurai)")
    r = runner.invoke(app, ["scenarios", "new"])
    assert r.exit_code == 2 and "usage" in r.output


def _with_red_pieces(extra: str) -> str:
    return template().replace('pieces = [\n', 'pieces = [\n' + extra, 1)


def test_contents_more_blocks_of_a_type_than_the_box_holds_is_a_warning_not_an_error() -> None:
    """Rulebook, Contents and Applying the Stickers (000:45-50, 000:180; R48): 20 Samurai
    Infantry Spearmen blocks a side. The template's red has one SSp unit (4 blocks); four more
    make 20 (no warning), a fifth 24; a reduced unit counts its blocks."""
    four = "".join(f'  {{ at = "{h}", unit = "SSp" }},\n' for h in ("B5", "D5", "F5", "H5"))
    scen, problems = check_scenario_text(_with_red_pieces(four), "t.toml")
    assert scen is not None and problems == []
    scen, problems = check_scenario_text(_with_red_pieces(four + '  { at = "K6", unit = "SSp", blocks = 1 },\n'),
                                         "t.toml")
    assert scen is not None  # a warning: kassen run plays it
    [p] = problems
    assert p.warning and p.field == "red.pieces" and p.line is not None
    assert p.detail == ("field red.pieces: warning: Red has 21 Samurai Infantry Spearmen blocks; one box holds 20 "
                        "for each side (000:45-50, 000:180): a table with one box cannot set it up")


def test_contents_leaders_and_cavalry_blocks_beyond_the_box() -> None:
    """000:45-50: 68 medium cavalry blocks and 8 mounted Leaders in the box, half a side (R48)."""
    cav = "".join(f'  {{ at = "{c}{r}", unit = "SBC" }},\n' for r in (4, 6) for c in "CEGIKMOQS")  # short rows
    mounted = "".join(f'  {{ at = "{c}5", leader = "mounted" }},\n' for c in "DFHJ")  # a full row
    scen, problems = check_scenario_text(_with_red_pieces(cav + mounted), "t.toml")
    assert scen is not None
    assert [p.detail.split("; ")[0] for p in problems] == [
        "field red.pieces: warning: Red has 76 medium blocks for cavalry units",
        "field red.pieces: warning: Red has 5 mounted Leaders"]


def test_contents_the_zvezda_box_is_not_listed_so_it_sets_no_bound() -> None:
    """R48: no source lists the Zvezda box's figures, so a Zvezda design is never warned."""
    many = "".join(f'  {{ at = "{c}{r}", unit = "ASp" }},\n' for r, cs in ((4, "CEGIKMOQS"), (5, "BDFHJLNPR"),
                                                                         (6, "CEGIKMOQS")) for c in cs)
    text = template("zvezda").replace("pieces = [\n", "pieces = [\n" + many, 1)
    scen, problems = check_scenario_text(text, "t.toml")
    assert scen is not None and problems == []


def test_phase_1_play_a_command_card_a_section_with_nothing_of_a_side_is_a_warning() -> None:
    """000:606: a card that can order no unit skips to the draw, so a side with nothing in a
    section is legal (R49): a warning naming the cards that would order nothing, from that
    side's own point of view (blue at the top: its left is the board's right)."""
    text = template().replace('{ at = "T3", unit = "ASp" }', '{ at = "P3", unit = "ASp" }').replace(
        '{ at = "T9", unit = "SSp" }', '{ at = "L9", unit = "SSp" }').replace(
        '{ at = "R9", unit = "ASp", leader = "foot" }', '{ at = "J9", unit = "ASp", leader = "foot" }')
    scen, problems = check_scenario_text(text, "t.toml")
    assert scen is not None, [p.detail for p in problems]
    got = [(p.field, p.detail.split(":")[2].strip()) for p in problems]
    assert got == [("red.pieces", "Red has no unit or Leader in its right section"),
                   ("blue.pieces", "Blue has no unit or Leader in its left section")]  # R-Y, as red's right
    assert all(p.warning for p in problems)
    red = next(p for p in problems if p.field == "red.pieces")
    assert "10 Command cards order only there (Advance Right, Order One Unit Right, Order Three Units Right, " \
        "Order Two Units Right)" in red.detail
