"""Positions (issue 18, Formats): a battle file's ``[position]`` sets up any moment between two
phases of An Honourable Victory!, and ``kassen run`` loads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.engine.errors import FormatError
from kassen.rulesets.honourable_victory.data import BATTLE_DIR
from tests.rulesets.honourable_victory.helpers import GAME

AMBUSH = (BATTLE_DIR / "village_ambush.toml").read_text()


def battle_with(tmp_path: Path, position: str) -> str:
    path = tmp_path / "position.toml"
    path.write_text(AMBUSH + "\n" + position)
    return str(path)


MELEE = """
[position]
turn = 3
phase = "hand-to-hand"
initiative = "north"
daimyo = { north = "removed" }
contacts = [{ unit = "N2", target = "S4", facet = "left" }]

[position.units.S4]
zone = "C2"
hits = 1
stands = 3

[position.units.N2]
zone = "C2"

[position.units.N1]
status = "routed"
"""


def test_position_sets_units_markers_contacts_and_starts_at_the_hand_to_hand_phase(tmp_path: Path) -> None:
    s = GAME.new_state(battle_with(tmp_path, MELEE), 1, forced_dice=[2])
    s4, n2 = s.units["S4"], s.units["N2"]
    assert (s.turn, s.init) == (3, 1)
    assert s4.zone == n2.zone == "C2" and s4.stands == 3
    # the Hand-to-Hand Phase begins by giving every engaged unit one hit marker (001:436)
    assert s4.hits == 2 and n2.hits == 1
    assert s.contacts == [("N2", "front", "S4", "left")]
    assert n2.facing == 1  # its front against S4's left: S4 faces north, so N2 faces east
    assert s.daimyo[1] is None and s.tally == [0, 1]
    assert s.units["N1"].status == "routed"
    assert s.to_move() == 1 and s.legal_actions() == ["accept", "reroll 2"]


def test_position_movement_phase_of_the_side_without_the_initiative(tmp_path: Path) -> None:
    s = GAME.new_state(battle_with(tmp_path, """
[position]
turn = 5
phase = "movement"
initiative = "south"
mover = "north"
[position.units.N3]
facing = "E"
formation = "defensive"
fired = true
"""), 1)
    assert (s.turn, s.init, s.mover, s.to_move()) == (5, 0, 1, 1)
    n3 = s.units["N3"]
    assert (n3.facing, n3.form, n3.fired) == (1, "defensive", True)
    # the side without the initiative moves second: when it ends, the turn ends
    assert "end" in s.legal_actions()


def test_position_at_the_initiative_throw_obeys_forced_dice(tmp_path: Path) -> None:
    s = GAME.new_state(battle_with(tmp_path, "[position]\nturn = 4\n"), 1, forced_dice=[6, 6, 1, 1])
    assert s.turn == 4 and s.init == 1  # North threw 2, South 12: lowest wins


@pytest.mark.parametrize(("position", "message"), [
    ("[position.units.S99]\nzone = 'C2'", "position.units.S99: no unit 'S99'"),
    ("[position.units.S1]\nzone = 'Q9'", "position.units.S1.zone: Q9 is not a zone on the table"),
    ("[position.units.S1]\nstands = 9", "position.units.S1.stands: Oda Teppo has only"),
    ("[position.units.S4]\nformation = 'open'", "Long Pikes with 7 stands cannot be in open formation"),
    ("[position.units.S1]\nzone = 'C1'\n[position.units.S3]\nzone = 'C1'\n[position.units.S7]\nzone = 'C1'",
     "more than 4 units of one side in C1"),
    ("[position]\ncontacts = [{ unit = 'S1', target = 'N1' }]", "are not in one zone"),
    ("[position]\ncontacts = [{ unit = 'S1', target = 'S2' }]", "are on the same side"),
    ("[position]\nphase = 'firing'", "position.initiative: who holds the initiative"),
    ("[position]\ninitiative = 'south'", "decided by the initiative throw"),
    ("[position.units.S1]\nfacing = 'up'", "position.units.S1.facing"),
    ("[position.units.S5]\nzone = 'C2'", "a unit in reserve stands in one of B0, C0, D0"),
    ("[position.units.S4]\nzone = 'C2'\n[position.units.N2]\nzone = 'C2'\nfacing = 'N'\n"
     "[position]\ncontacts = [{ unit = 'N2', target = 'S4', facet = 'left' }]", "N2 faces N, but its front"),
])
def test_position_errors_name_the_field(tmp_path: Path, position: str, message: str) -> None:
    with pytest.raises(FormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GAME.new_state(battle_with(tmp_path, position), 1)


def test_kassen_run_loads_a_position_of_an_honourable_victory(tmp_path: Path) -> None:
    path = battle_with(tmp_path, MELEE)
    r = CliRunner().invoke(app, ["run", path, "--game", "honourable-victory", "--dice", "2", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["to_move"] == 1 and out["legal_actions"] == ["accept", "reroll 2"]
    assert out["state"]["turn"] == 3
