"""Roster files (TOML): the shipped examples load, and every mistake is named."""

from __future__ import annotations

import tomllib

import pytest

from kassen.engine.errors import FormatError
from kassen.rulesets.kensei.roster import (
    ROSTER_DIR,
    parse_roster,
    profiles,
    read_roster,
    shipped_rosters,
)


def _base() -> dict:
    return tomllib.loads((ROSTER_DIR / "buke-vanguard.toml").read_text())


def test_two_shipped_rosters_of_two_different_clans():
    names = shipped_rosters()
    assert len(names) >= 2
    clans = {read_roster(n).clan for n in names}
    assert len(clans) >= 2


def test_roster_profiles_resolve_classes_weapons_and_armour():
    r = read_roster("buke-vanguard")
    p = {x.id: x for x in profiles(r)}
    yari = p["yari-samurai"]
    assert yari.cls.name == "Warrior" and yari.melee_type == 1 and yari.leader.name == "Elite"
    assert yari.armour.name == "Samurai Armour" and yari.rank_and_file == 9
    teppo = p["teppo-ashigaru"]
    assert teppo.melee_type == 0 and teppo.ranged.firearm and teppo.armour is None
    cav = p["mounted-samurai"]
    assert cav.mounted and cav.armour.name == "Cavalry Armour"  # 003:214: all mounted units wear it
    oni = {x.id: x for x in profiles(read_roster("kuroi-te-horde"))}["oni"]
    assert oni.armour.damage == -1 and oni.single  # Major creature: protective aura (003:215)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("clan",), "takeda", "field 'clan': unknown clan 'takeda'"),
        (("commander",), "shogun", "field 'commander'"),
        (("ability",), "poison", "'poison' is not a Buke ability"),
        (("troops", 0, "class"), "X", "troops\\[0\\] \\('Yari samurai'\\): field 'class': unknown class 'X'"),
        (("troops", 0, "title"), "ronin", "field 'title': unknown title 'ronin'"),
        (("troops", 0, "weapons"), ["Yari", "Katana"], "at most one hand-to-hand"),
        (("troops", 0, "weapons"), ["Bazooka"], "unknown weapon 'Bazooka'"),
        (("troops", 0, "miniatures"), 0, "troops.0.miniatures.*\\(troop 'Yari samurai'\\)"),
        (("troops", 5, "leader"), "E", "a unit leader needs a unit of at least 2"),
        (("troops", 4, "armour"), "samurai", "mounted troop wears cavalry armour"),
        (("troops", 1, "id"), "yari-samurai", "used by another troop"),
        (("troops", 0, "colour"), "red", "colour"),
    ],
)
def test_roster_errors_name_what_is_wrong(path, value, message):
    data = _base()
    cur = data
    for key in path[:-1]:
        cur = cur[key]
    cur[path[-1]] = value
    with pytest.raises(FormatError, match=message):
        parse_roster(data, "my.toml")


def test_roster_creatures_wear_no_armour():
    data = tomllib.loads((ROSTER_DIR / "kuroi-te-horde.toml").read_text())
    data["troops"][4]["armour"] = "samurai"
    with pytest.raises(FormatError, match="creatures wear no armour"):
        parse_roster(data, "k.toml")


def test_roster_missing_file_lists_the_shipped_rosters():
    with pytest.raises(FormatError, match="buke-vanguard"):
        read_roster("no-such-roster")
