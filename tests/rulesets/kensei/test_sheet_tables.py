"""The sheet's tables as data (seed 003): values and source lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kassen.engine.errors import FormatError
from kassen.rulesets.kensei.data import (
    MODIFIERS_FILE,
    SHEET_FILE,
    load_tables,
    parse_modifiers,
    parse_sheet,
    read_tables,
)

SEED = Path("/work/shared/seeds/003_4b8c02006cd0d287.txt")


def _line(source: str) -> str:
    n = int(source.split(":")[1])
    return SEED.read_text(encoding="utf-8").splitlines()[n - 1]


def test_troop_attributes_table_matches_the_sheet():
    t = load_tables().sheet
    assert list(t.classes) == ["H", "E", "W", "P", "O", "K", "C", "M", "I"]
    hero, colossal, peasant = t.classes["H"], t.classes["C"], t.classes["P"]
    assert (hero.mov, hero.at, hero.ini, hero.ho, hero.wo, hero.ki) == ((10, 15), (4, 3), 3, 5, 3, None)
    assert (colossal.mov, colossal.at, colossal.ini, colossal.ho, colossal.wo, colossal.ki) == ((15, 20), (6, 5), 4, 5, 4, 7)
    assert (peasant.at, peasant.ho) == ((0, 0), 2)
    assert t.classes["M"].ki == 5 and t.classes["I"].ki == 1


def test_hand_to_hand_weapons_types_zero_to_seven_with_their_weapons():
    tables = load_tables()
    assert [w.type for w in tables.sheet.weapon_types] == list(range(8))
    assert tables.melee_weapon_type("Yari") == 1
    assert tables.melee_weapon_type("naginata") == 2
    assert tables.melee_weapon_type("Katana") == 3
    assert tables.melee_weapon_type("No-Dachi") == 6
    assert tables.melee_weapon_type("Sais") == 7
    assert tables.melee_weapon_type("Farming equipment") == 0
    assert tables.melee_weapon_type("Yumi") is None


def test_ranged_weapons_bands_and_firearms():
    tables = load_tables()
    assert tables.ranged_weapon("Arquebus").firearm and tables.ranged_weapon("Arquebus").band == "mid"
    assert not tables.ranged_weapon("Yumi").firearm and tables.ranged_weapon("Yumi").max_cm == 60
    assert tables.ranged_weapon("Ishitsubute (sling)").band == "short"
    firearms = sorted(k for k, w in tables.sheet.ranged_weapons.items() if w.firearm)
    assert firearms == ["arquebus", "bo-hiya", "musket", "ozutsu", "teppo"]


def test_command_cards_depending_on_battle_size_and_commander_level():
    tables = load_tables()
    assert tables.command_cards(200, "hattamoto") == 4
    assert tables.command_cards(399, "taisho") == 5
    assert tables.command_cards(400, "hattamoto") == 5
    assert tables.command_cards(600, "daimyo") == 8
    assert tables.command_cards(150, "hattamoto") == 0


def test_order_roll_bands():
    tables = load_tables()
    assert tables.order_band(3).orders == 1
    assert tables.order_band(4).orders == 2 and not tables.order_band(5).ki
    assert tables.order_band(6).ki and tables.order_band(9).ki


def test_armour_table_creature_armours_are_worse_for_colossals():
    a = load_tables().sheet.armour
    assert [a[k].damage for k in ("samurai", "cavalry", "protective-aura", "monster-skin")] == [-1, -1, -1, -2]


def test_clans_each_have_two_abilities_and_a_war_machine_rule():
    clans = load_tables().sheet.clans
    assert list(clans) == ["kuge", "buke", "sohei", "otokodate", "kuroi-te", "hattori"]
    assert [a.id for a in clans["kuroi-te"].abilities] == ["death-fog", "from-the-depths"]


def test_titles_undead_need_three_stuns_and_cannot_flee():
    titles = load_tables().sheet.titles
    assert titles["undead"].stuns_per_wound == 3 and titles["samurai"].stuns_per_wound == 2
    assert set(titles["undead"].forbidden_orders) == {"run", "flee", "disengage"}
    assert titles["spectre"].forbidden_orders == ("flee",)
    assert titles["ashigaru"].flee_dice == 3
    for tid in ("samurai", "ashigaru", "ninja", "monk", "undead", "spectre", "peasant", "senshi", "komuso"):
        assert tid in titles


def test_war_machines_and_ammunition():
    s = load_tables().sheet
    assert s.war_machines["taiho"].bands == ("short", "mid", "long")
    assert s.war_machines["oo-dzutsu"].at == 6
    assert s.ammunition["solid-shot"].po == 4 and s.ammunition["solid-shot"].impact == "devastating"
    assert s.ammunition["shrapnel"].short_only


def test_battle_scenario_table_six_scenarios_by_roll():
    tables = load_tables()
    assert [tables.scenario(r).name for r in range(1, 7)] == [
        "Encounter and Annihilation", "Border wars", "Break the front", "Supply Lines",
        "Village defense", "Strategic control"]


@pytest.mark.skipif(not SEED.exists(), reason="the seed text is not on this machine")
def test_every_entry_names_the_sheet_line_it_comes_from():
    s = load_tables().sheet
    checks: list[tuple[str, str]] = []
    checks += [(c.source, c.name.split()[0]) for c in s.classes.values()]
    checks += [(w.source, w.name.split(" (")[0]) for w in s.ranged_weapons.values()]
    checks += [(w.source, w.category) for w in s.weapon_types]
    checks += [(c.source, c.name) for c in s.clans.values()]
    checks += [(c.war_machines_source, c.name) for c in s.clans.values()]
    checks += [(c.source, c.name) for c in s.commanders.values()]
    checks += [(m.source, m.name) for m in s.war_machines.values()]
    checks += [(a.source, a.name.split(" or ")[0]) for a in s.ammunition.values()]
    checks += [(sc.source, sc.name) for sc in s.scenarios]
    checks += [(t.source, t.name.split()[0].split("(")[0]) for t in s.titles.values() if not t.creature]
    checks += [(o.source, o.name.split()[0]) for o in s.orders.values()]
    for source, word in checks:
        assert word.lower() in _line(source).lower(), f"{source} does not mention {word!r}: {_line(source)!r}"


@pytest.mark.skipif(not SEED.exists(), reason="the seed text is not on this machine")
def test_every_modifier_source_line_carries_its_value():
    """A dice modifier's line shows its "+1D6"; a per-die one its "+1"/"-1"."""
    for m in load_tables().modifiers.values():
        line = _line(m.source)
        if m.value == 0 or m.inference or m.id.endswith("death-fog") or m.id.endswith("fire-template"):
            continue
        sign = "+" if m.value > 0 else "-"
        pattern = rf"{re.escape(sign)}{abs(m.value)}(D6)?\b"
        assert re.search(pattern, line), f"{m.id}: {m.source} {line!r}"


def test_a_bad_table_names_the_file_and_field():
    import tomllib

    data = tomllib.loads(SHEET_FILE.read_text())
    data["classes"]["H"]["wo"] = 0
    with pytest.raises(FormatError, match=r"x.toml: field 'classes.H.wo'"):
        parse_sheet(data, "x.toml")
    data = tomllib.loads(SHEET_FILE.read_text())
    data["clans"]["kuge"]["source"] = "line 12"
    with pytest.raises(FormatError, match="sheet line"):
        parse_sheet(data, "x.toml")
    mods = tomllib.loads(MODIFIERS_FILE.read_text())
    mods["combat-dice"]["used"]["value"] = "minus one"
    with pytest.raises(FormatError, match=r"combat-dice.used"):
        parse_modifiers(mods, "m.toml")
    with pytest.raises(FormatError, match="cannot read"):
        read_tables(Path("/nonexistent/sheet.toml"))
