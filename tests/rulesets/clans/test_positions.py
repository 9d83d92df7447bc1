"""Positions of the clan card game (issue 18, Formats): Battlefields, stacks, hands and the
turn in one file, checked against the turn order, and loaded by ``kassen run``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.engine.errors import FormatError
from kassen.rulesets.clans.game import ClansGame

GAME = ClansGame()

MIDGAME = """
[position]
round = 4
turn = "Hondo"
cards_left = 1

[[position.battlefield]]
tile = "golden-temple"
between = ["Kamiwashi", "Hondo"]
Kamiwashi = ["samurai", "scout", "peasant"]
Hondo = [{ card = "lord", face_up = true }, "archer"]

[[position.battlefield]]
tile = "bridge"
between = ["Hondo", "Kamiwashi"]
Hondo = ["assassin", "peasant"]
Kamiwashi = ["general"]

[[position.battlefield]]
tile = "palace"
between = ["Hondo", "Kamiwashi"]
Kamiwashi = ["brute", "ashigaru", "peasant"]
Hondo = [{ card = "samurai", seen_by = ["Kamiwashi"] }]

[[position.battlefield]]
tile = "rice-field"
between = ["Kamiwashi", "Hondo"]
Kamiwashi = ["lord"]
Hondo = ["peasant"]

[position.removed]
Hondo = ["scout"]
"""


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "position.toml"
    path.write_text(text)
    return str(path)


def test_position_places_stacks_hands_and_the_turn(tmp_path: Path) -> None:
    s = GAME.new_state(write(tmp_path, MIDGAME), 3)
    assert s.tiles == ["golden-temple", "bridge", "palace", "rice-field"]
    assert (s.round, s.turn, s.left, s.to_move()) == (4, 1, 1, 1)
    temple = s.stacks[0]
    # Secret cards lie face down, seen by their owner; Regular cards face up (002:160-170)
    assert temple[0] == [("kamiwashi-samurai", False, 1), ("kamiwashi-scout", True, 3),
                         ("kamiwashi-peasant-1", False, 1)]
    assert temple[1] == [("hondo-lord", True, 3), ("hondo-archer", False, 2)]
    assert s.stacks[2][0] == [("hondo-samurai", False, 3)]  # peeked by Kamiwashi
    # hands are the cards not yet placed: 13 less the 8 and the 7 placed or removed
    assert len(s.hands[0]) == 5 and len(s.hands[1]) == 6
    assert "hondo-scout" not in s.hands[1] and s.removed[0][0] == "hondo-scout"
    # Hondo's hand is its own: Kamiwashi sees its face-down cards only where it peeked
    obs = s.observation(0)
    assert "hondo-archer" not in json.dumps(obs) and "hondo-samurai" in json.dumps(obs)
    assert all(a.startswith(("deploy ", "deploy-down ")) for a in s.legal_actions())


def test_position_at_combat_resolves_the_automatic_battlefields(tmp_path: Path) -> None:
    text = """
[position]
phase = "combat"
[[position.battlefield]]
tile = "supply-camp"
between = ["Kamiwashi", "Hondo"]
Kamiwashi = ["samurai", "scout", "peasant", "peasant", "general"]
Hondo = ["lord", "archer", "peasant"]
[[position.battlefield]]
tile = "sanctuary"
between = ["Hondo", "Kamiwashi"]
Hondo = ["assassin", "peasant", "peasant", "brute"]
Kamiwashi = ["lord", "archer", "brute"]
[[position.battlefield]]
tile = "palace"
between = ["Hondo", "Kamiwashi"]
Hondo = ["samurai", "ashigaru", "general"]
Kamiwashi = ["peasant", "peasant", "ashigaru"]
[[position.battlefield]]
tile = "rice-field"
between = ["Kamiwashi", "Hondo"]
Kamiwashi = ["shugenja", "assassin"]
Hondo = ["shugenja", "peasant", "scout"]
"""
    s = GAME.new_state(write(tmp_path, text), 3)
    # the Supply Camp is resolved first, by itself (ruling C12)
    assert s.outcome[0] is not None and s.outcome[0]["done"]
    assert s.phase in ("resolve", "supply", "sanctuary")


@pytest.mark.parametrize(("edit", "message"), [
    (("turn = \"Hondo\"", "turn = \"Yasei\""), "position.turn: 'Yasei' is not a clan in this game"),
    (("tile = \"palace\"", "tile = \"castle\""), "position.battlefield[2].tile: no Battlefield 'castle'"),
    (("tile = \"palace\"", "tile = \"bridge\""), "the Bridge is placed twice"),
    (("Kamiwashi = [\"lord\"]", "Kamiwashi = [\"lord\", \"lord\"]"), "Kamiwashi has only 1 Lord card(s), all placed"),
    (("Hondo = [\"scout\"]", "Hondo = [\"scout\", \"shugenja\"]"), "Hondo has placed 8 cards"),
    (("Kamiwashi = [\"general\"]", "Kamiwashi = [{ card = \"general\", face_up = false }]"),
     "a Regular card deployed face down leaves the game"),
    (("Kamiwashi = [\"general\"]", "Kamiwashi = [\"ninja\"]"), "no card 'ninja'"),
    (("cards_left = 1", "cards_left = 3"), "position.cards_left"),
])
def test_position_errors_name_the_field(tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    assert edit[0] in MIDGAME
    text = MIDGAME.replace(edit[0], edit[1], 1)
    with pytest.raises(FormatError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
                       .replace("]", r"\]")):
        GAME.new_state(write(tmp_path, text), 3)


def test_kassen_run_loads_a_clans_position_and_plays_on(tmp_path: Path) -> None:
    path = write(tmp_path, MIDGAME)
    moves = tmp_path / "moves.txt"
    moves.write_text("deploy brute palace\n")
    r = CliRunner().invoke(app, ["run", path, "--game", "clans", "--actions", str(moves), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["to_move"] == 0 and out["state"]["round"] == 5  # Hondo's turn ended; round 5 begins
    assert ["hondo-brute", False, 2] in out["state"]["stacks"][2][0]
