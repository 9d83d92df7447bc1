"""Organising Your Army, the table, setting up (001:20-240), and the data files."""

from __future__ import annotations

import textwrap
import tomllib
from pathlib import Path

import pytest

from kassen.engine.errors import FormatError
from kassen.rulesets.honourable_victory.data import (
    Options,
    builtin_battles,
    load_battle,
    load_clans,
    load_tables,
    parse_battle,
    parse_clans,
)
from kassen.rulesets.honourable_victory.table import Table
from tests.rulesets.honourable_victory.helpers import GAME

CLANS = load_clans()


def clan_toml(units: str, cid: str = "test") -> dict:
    return tomllib.loads(textwrap.dedent(f"""
        [[clan]]
        id = "{cid}"
        name = "Test"
        units = [
        {units}
        ]
    """))


def test_armies_ready_made_clans_and_battles_load():
    assert {"takeda", "uesugi", "oda", "imagawa"} <= set(CLANS)
    assert set(builtin_battles()) >= {"meeting-engagement", "village-ambush"}
    for b in builtin_battles():
        s = GAME.new_state(b, 1)
        assert s.turn == 1 and not s.is_terminal()


def test_armies_light_foot_bows_or_firearms_at_most_two_firearm_units_per_clan():
    parse_clans(clan_toml('{ name = "a", class = "light-foot", weapon = "firearm", stands = 3 },\n'
                          '{ name = "b", class = "light-foot", weapon = "firearm", stands = 3 },'), "x.toml")
    with pytest.raises(FormatError, match="x.toml: clan 'test': at most 2 units with firearms"):
        parse_clans(clan_toml("\n".join(f'{{ name = "{n}", class = "light-foot", weapon = "firearm", stands = 3 }},'
                                        for n in "abc")), "x.toml")
    with pytest.raises(FormatError, match=r"units\[0\] \(a\): a Light Foot unit is armed with one of bow, firearm"):
        parse_clans(clan_toml('{ name = "a", class = "light-foot", weapon = "spear", stands = 3 },'), "x.toml")


def test_armies_foot_weapons():
    for w in ("improvised", "spear", "hand-to-hand", "long-spear"):
        parse_clans(clan_toml(f'{{ name = "a", class = "foot", weapon = "{w}", stands = 3 }},'), "x.toml")
    with pytest.raises(FormatError, match="a Foot unit is armed with one of"):
        parse_clans(clan_toml('{ name = "a", class = "foot", weapon = "bow", stands = 3 },'), "x.toml")


def test_armies_mounted_at_most_two_per_clan():
    with pytest.raises(FormatError, match="at most 2 Mounted units per clan"):
        parse_clans(clan_toml("\n".join(f'{{ name = "{n}", class = "mounted", stands = 3 }},' for n in "abc")),
                    "x.toml")


@pytest.mark.parametrize(("cls", "weapon", "stands", "ok"), [
    ("foot", "spear", 1, False), ("foot", "spear", 2, True), ("foot", "spear", 9, True), ("foot", "spear", 10, False),
    ("light-foot", "bow", 9, True), ("mounted", None, 6, True), ("mounted", None, 7, False),
])
def test_armies_stands_per_unit_within_minimum_and_maximum(cls, weapon, stands, ok):
    w = f', weapon = "{weapon}"' if weapon else ""
    data = clan_toml(f'{{ name = "a", class = "{cls}"{w}, stands = {stands} }},')
    if ok:
        parse_clans(data, "x.toml")
    else:
        with pytest.raises(FormatError, match=r"x.toml: clan 'test' units\[0\] \(a\): stands must be"):
            parse_clans(data, "x.toml")


def test_armies_malformed_army_list_names_file_and_field():
    with pytest.raises(FormatError, match=r"x.toml: field clan.0.units.0.class"):
        parse_clans(clan_toml('{ name = "a", class = "ninja", stands = 3 },'), "x.toml")


def test_armies_bad_files_on_disk(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[[clan]\n")
    with pytest.raises(FormatError, match="bad.toml: not valid TOML"):
        load_clans(bad)
    battle = tmp_path / "b.toml"
    battle.write_text('[battle]\nid = "b"\nname = "B"\n[south]\nclan = "takeda"\ndaimyo = "C1"\ndeploy = []\n')
    with pytest.raises(FormatError, match=r"b.toml: field north: Field required"):
        load_battle(str(battle))


def test_the_table_fifteen_zones_five_across_three_deep_and_three_reserve_zones_a_side():
    t = Table()
    assert len(t.zones()) == 15 and t.zones()[0] == "A1" and t.zones()[-1] == "E3"
    assert t.reserve_zones(0) == ["B0", "C0", "D0"] and t.reserve_zones(1) == ["B4", "C4", "D4"]
    assert t.setup_zones(0) == ["B1", "C1", "D1"] and t.setup_zones(1) == ["B3", "C3", "D3"]
    assert Table(width=7).setup_zones(0) == ["C1", "D1", "E1"]


def test_the_table_width_option_must_be_odd():
    """H1"""
    with pytest.raises(ValueError):
        Options(width=4)
    s = GAME.new_state("meeting-engagement", 1, width=7)
    assert s.table.width == 7 and s.daimyo == ["D1", "D3"]  # the battle shifted one column east
    with pytest.raises(FormatError, match="option field width"):
        GAME.new_state("meeting-engagement", 1, width=6)


BATTLE = """
[battle]
id = "t"
name = "T"
[south]
clan = "takeda"
daimyo = "C1"
deploy = [
  {{ unit = "Red Riders", zone = "{z}" }},
  {{ unit = "Kai Horse", zone = "C1" }},
  {{ unit = "Yari Ashigaru", zone = "C1" }},
  {{ unit = "Samurai Foot", zone = "C1" }},
  {{ unit = "Spear Ashigaru", zone = "C1" }},
  {{ unit = "Kai Archers", zone = "B0" }},
  {{ unit = "Teppo", zone = "B0" }},
]
[north]
clan = "uesugi"
daimyo = "C3"
deploy = [
  {{ unit = "Echigo Horse", zone = "C3" }},
  {{ unit = "Hatamoto Riders", zone = "C3" }},
  {{ unit = "Long Yari", zone = "C3" }},
  {{ unit = "Naginata Foot", zone = "B3" }},
  {{ unit = "Levy Spears", zone = "D3" }},
  {{ unit = "Echigo Archers", zone = "D3", formation = "open" }},
  {{ unit = "Arquebusiers", zone = "B3", formation = "open" }},
]
"""


def test_setting_up_four_unit_limit_and_set_up_zones():
    with pytest.raises(FormatError, match=r"south.deploy\[4\].zone: more than 4 units in C1"):
        GAME.setup(parse_battle(tomllib.loads(BATTLE.format(z="C1")), "t"), CLANS, 1, "t")


def test_setting_up_other_rear_zones_only_once_the_set_up_zones_are_full():
    text = BATTLE.format(z="A1").replace('{ unit = "Spear Ashigaru", zone = "C1" }',
                                         '{ unit = "Spear Ashigaru", zone = "D1" }')
    with pytest.raises(FormatError, match="units in A1 before the set-up zones B1, C1, D1 are full"):
        GAME.setup(parse_battle(tomllib.loads(text), "t"), CLANS, 1, "t")


def test_setting_up_only_own_rear_or_reserve_zones_facing_forward():
    with pytest.raises(FormatError, match="C2 is neither a rear zone nor a reserve zone of South"):
        GAME.setup(parse_battle(tomllib.loads(BATTLE.format(z="C2").replace(
            '{ unit = "Spear Ashigaru", zone = "C1" }', '{ unit = "Spear Ashigaru", zone = "D1" }')), "t"),
            CLANS, 1, "t")
    s = GAME.new_state("meeting-engagement", 3)
    assert all(u.facing == (0 if u.side == 0 else 2) for u in s.units.values())


def test_setting_up_every_unit_must_be_deployed_once_with_a_valid_formation():
    text = BATTLE.format(z="D1").replace('  { unit = "Teppo", zone = "B0" },\n', "")
    with pytest.raises(FormatError, match="units not deployed.*Teppo"):
        GAME.setup(parse_battle(tomllib.loads(text), "t"), CLANS, 1, "t")
    text = BATTLE.format(z="D1").replace('{ unit = "Samurai Foot", zone = "C1" }',
                                         '{ unit = "Samurai Foot", zone = "D1", formation = "open" }')
    with pytest.raises(FormatError, match="Samurai Foot cannot be in open formation"):
        GAME.setup(parse_battle(tomllib.loads(text), "t"), CLANS, 1, "t")


def test_setting_up_the_daimyo_in_a_set_up_zone():
    """H4"""
    text = BATTLE.format(z="D1").replace('daimyo = "C1"', 'daimyo = "A1"')
    with pytest.raises(FormatError, match="south.daimyo"):
        GAME.setup(parse_battle(tomllib.loads(text), "t"), CLANS, 1, "t")


def test_armies_unit_tables_hold_the_combat_values():
    t = load_tables()
    assert {w: t.weapons[w].cv for w in t.weapons} == {
        "bow": 2, "firearm": 2, "improvised": 2, "spear": 3, "hand-to-hand": 3, "long-spear": 4, "mounted": 3}
    assert t.classes["mounted"].actions == 2 and t.classes["foot"].actions == 1


def test_a_battle_file_may_carry_its_own_army_lists(tmp_path: Path):
    own = BATTLE.format(z="D1").replace('clan = "takeda"', 'clan = "mine"') + textwrap.dedent("""
        [[clan]]
        id = "mine"
        name = "My Clan"
        units = [
          { name = "Red Riders", class = "mounted", stands = 2 },
          { name = "Kai Horse", class = "mounted", stands = 2 },
          { name = "Yari Ashigaru", class = "foot", weapon = "long-spear", stands = 9 },
          { name = "Samurai Foot", class = "foot", weapon = "hand-to-hand", stands = 2 },
          { name = "Spear Ashigaru", class = "foot", weapon = "spear", stands = 2 },
          { name = "Kai Archers", class = "light-foot", weapon = "bow", stands = 2 },
          { name = "Teppo", class = "light-foot", weapon = "firearm", stands = 2 },
        ]
    """)
    path = tmp_path / "mine.toml"
    path.write_text(own)
    s = GAME.new_state(str(path), 1)
    assert s.clans[0] == "My Clan" and s.u("S3").stands == 9


def test_forced_dice_must_be_one_to_six():
    s = GAME.new_state(None, 1)
    with pytest.raises(FormatError, match="1..6"):
        s.with_forced_dice([7])
    with pytest.raises(FormatError, match="numbers 1..6"):
        s.with_forced_dice(["x"])
    assert s.with_forced_dice(["3", 4]).forced == [3, 4]
