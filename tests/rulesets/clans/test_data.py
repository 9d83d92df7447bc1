"""The card table: the default values of facts.md, their labels, other tables, bad tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.engine.errors import FormatError
from kassen.rulesets.clans.data import DEFAULT_TABLE, load_table, read_table
from tests.rulesets.clans.helpers import GAME, H, K, outcome, position

FACTS = {"lord": 2, "archer": 2, "samurai": 4, "peasant": 0, "brute": 5,
         "scout": 1, "shugenja": 1, "general": 2, "assassin": 2, "ashigaru": 2}


def test_default_card_table_holds_the_values_of_facts_md_marked_as_defaults():
    """C24."""
    t = load_table()
    assert {slug: c.strength for slug, c in t.cards.items()} == FACTS
    assert all(c.default for c in t.cards.values())
    assert t.village.from_strength == 1 and t.village.to_strength == 2 and t.village.default
    assert t.lord.per_card_after == 1 and t.rice_field.peasant_strength == 1
    assert {k: v.vp for k, v in t.battlefields.items()} == {
        "bridge": 6, "sanctuary": 6, "palace": 6, "golden-temple": 6, "fortress": 6,
        "port": 4, "rice-field": 4, "village": 4, "supply-camp": 4, "torii": 4}


def test_default_values_are_labelled_in_the_observation():
    """C24."""
    s = GAME.new_state("2-players", 1)
    s = s.apply(f"deploy samurai {s.tiles[0]}")
    obs = s.observation(0)
    assert obs["card_table"]["label"] == "default value"
    brute = obs["card_table"]["cards"]["brute"]
    assert {k: v for k, v in brute.items() if k != "text"} == {"name": "Brute", "kind": "secret", "copies": 1,
                                                               "strength": 5, "default": True}
    assert brute["text"] == s.table.cards["brute"].text  # the ability, shown on the card in the page
    card = obs["board"][0]["sides"][s.side_of(0, 0)]["cards"][0]
    assert card["strength"] == 4 and card["default"] is True


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "table.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_a_game_can_load_another_card_table(tmp_path):
    """C24."""
    text = DEFAULT_TABLE.read_text(encoding="utf-8").replace(
        "[cards.brute]\nstrength = 5\ndefault = true", "[cards.brute]\nstrength = 7\ndefault = false")
    path = _write(tmp_path, text)
    s = GAME.new_state("2-players", 1, card_table=str(path))
    assert s.table.strength("brute") == 7 and not s.table.cards["brute"].default
    pos = position([("torii", 0, 1)], {"torii": ([f"{K}-brute"], [f"{H}-ashigaru"])})
    pos.table, pos.table_path = s.table, s.table_path
    done = pos.apply("resolve torii")
    assert outcome(done, "torii")["totals"] == [7, 2]
    back = GAME.state_from_json(done.to_json())
    assert back.table.strength("brute") == 7


def test_malformed_card_table_raises_format_error_naming_file_and_field(tmp_path):
    """C24."""
    bad = DEFAULT_TABLE.read_text(encoding="utf-8").replace("[cards.brute]\nstrength = 5", "[cards.brute]\nstrength = \"five\"")
    path = _write(tmp_path, bad)
    with pytest.raises(FormatError) as err:
        read_table(path)
    assert str(path) in str(err.value) and "cards.brute.strength" in str(err.value)
    missing = DEFAULT_TABLE.read_text(encoding="utf-8").replace("[cards.scout]", "[cards.ninja]")
    with pytest.raises(FormatError, match="'cards'.*missing scout"):
        read_table(_write(tmp_path, missing))
    with pytest.raises(FormatError, match="not valid TOML"):
        read_table(_write(tmp_path, "name = ["))
    with pytest.raises(FormatError, match="cannot read"):
        read_table(tmp_path / "nowhere.toml")
    sixes = DEFAULT_TABLE.read_text(encoding="utf-8").replace("[battlefields.torii]\nvp = 4", "[battlefields.torii]\nvp = 6")
    with pytest.raises(FormatError, match="battlefields"):
        read_table(_write(tmp_path, sixes))
