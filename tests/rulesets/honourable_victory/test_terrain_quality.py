"""Appendix A (terrain) and Appendix B (unit quality) as battle options."""

from __future__ import annotations

import tomllib

import pytest

from kassen.engine.errors import FormatError
from kassen.engine.rng import Rng
from kassen.rulesets.honourable_victory.data import parse_battle
from tests.rulesets.honourable_victory.helpers import GAME, act, foot, horse, light, position


def test_terrain_hills_restrict_mounted_units_to_one_action_when_in_the_zone():
    s = position([horse("S1", "C2"), foot("N1", "A3")], terrain={"C2": ("hill",)})
    s = act(s, "S1 turn E")
    assert s.pend["step"] == "move"  # no second action


def test_terrain_restricted_zone_may_be_entered_only_as_the_one_action():
    """H21"""
    s = position([horse("S1", "C1"), foot("N1", "A3")], terrain={"C2": ("rough",)})
    s = act(s, "S1 move")
    assert s.u("S1").zone == "C2" and s.pend["step"] == "move"
    t = position([horse("S1", "B1"), foot("N1", "A3")], terrain={"C2": ("village",)})
    t = act(t, "S1 turn E")  # now facing C1, clear: moving on is fine
    assert "S1 move" in t.legal_actions()
    u = position([horse("S1", "C1", facing="E"), foot("N1", "A3")], terrain={"C2": ("village",)})
    u = act(u, "S1 turn N")
    assert "S1 move" not in u.legal_actions()  # entering the village as a second action


def test_terrain_restriction_only_for_mounted_units():
    s = position([horse("S1", "C2", mounted=False), foot("S2", "C1"), foot("N1", "A3")], terrain={"C3": ("hill",)})
    assert "S2 move" in s.legal_actions()


def test_terrain_woods_only_mounted_in_open_order_and_no_daimyo():
    """H30"""
    s = position([horse("S1", "C1"), horse("S2", "B1", form="open"), foot("N1", "A3")],
                 terrain={"C2": ("woods",), "B2": ("woods",)}, daimyo=("C1", "E3"))
    assert "S1 move" not in s.legal_actions() and "S2 move" in s.legal_actions()
    assert "daimyo C2" not in s.legal_actions() and "daimyo D2" in s.legal_actions()


def test_terrain_only_one_wood_village_and_bog_per_battle():
    text = ('[battle]\nid="t"\nname="T"\n[terrain]\nwoods=["B2","C2"]\n'
            '[south]\nclan="oda"\ndaimyo="C1"\ndeploy=[]\n[north]\nclan="oda"\ndaimyo="C3"\ndeploy=[]\n')
    with pytest.raises(FormatError, match="field terrain.woods"):
        parse_battle(tomllib.loads(text), "t.toml")


def test_terrain_cover_subtracts_two_dice_per_feature_for_foot_targets():
    s = position([light("S1", "C2", stands=6), foot("N1", "C2"), horse("N2", "C2")],
                 terrain={"C2": ("woods", "village")})
    assert s.fire_dice(s.u("S1"), s.u("N1")) == 2
    assert s.fire_dice(s.u("S1"), s.u("N2")) == 7  # mounted units claim no cover


def test_terrain_impassable_rough_ground_and_bog_cannot_be_entered():
    s = position([foot("S1", "C1"), foot("S2", "B1"), foot("N1", "A3")],
                 terrain={"C2": ("impassable",), "B2": ("bog",)}, daimyo=("C1", "E3"))
    assert "S1 move" not in s.legal_actions() and "S2 move" not in s.legal_actions()
    assert "daimyo C2" not in s.legal_actions() and "daimyo B2" not in s.legal_actions()


def test_terrain_escarpment_edges_cannot_be_crossed():
    s = position([foot("S1", "C1"), foot("N1", "A3")], escarpments=(("C1", "C2"),), daimyo=("C1", "E3"))
    assert "S1 move" not in s.legal_actions()
    assert "daimyo C2" not in s.legal_actions() and "daimyo B2" in s.legal_actions()


def test_terrain_daimyo_diagonal_blocked_only_when_both_routes_are():
    """H22"""
    s = position([foot("S1", "C1"), foot("N1", "A3")], escarpments=(("C1", "C2"), ("C1", "D1")),
                 daimyo=("C1", "E3"))
    assert "daimyo D2" not in s.legal_actions()
    s = position([foot("S1", "C1"), foot("N1", "A3")], escarpments=(("C1", "C2"),), daimyo=("C1", "E3"))
    assert "daimyo D2" in s.legal_actions()


def test_terrain_option_off_plays_on_clear_ground():
    """H30"""
    on = GAME.new_state("village-ambush", 1)
    off = GAME.new_state("village-ambush", 1, terrain=False)
    assert on.table.terrain and on.table.escarpments
    assert not off.table.terrain and not off.table.escarpments


def test_terrain_battle_validation_names_the_field():
    text = ('[battle]\nid="t"\nname="T"\n[terrain]\nescarpments=[["A1","C3"]]\n'
            '[south]\nclan="oda"\ndaimyo="C1"\ndeploy=[]\n[north]\nclan="oda"\ndaimyo="C3"\ndeploy=[]\n')
    with pytest.raises(FormatError, match="t.toml: terrain.escarpments: A1-C3 is not an edge"):
        GAME.setup(parse_battle(tomllib.loads(text), "t.toml"), {}, 1, "t.toml")


def test_quality_green_fires_on_a_one_veteran_on_three_or_less():
    s = position([light("S1", "C2", stands=3, quality="green"), foot("N1", "C2", stands=6)], quality="chosen",
                 start="fire")
    s = act(s, "fire S1 N1", dice=[1, 2, 3])
    assert [e.data["hits"] for e in s.events if e.kind == "fire"] == [1]
    s = position([light("S1", "C2", stands=3, quality="veteran"), foot("N1", "C2", stands=6)], quality="chosen",
                 start="fire")
    s = act(s, "fire S1 N1", dice=[1, 3, 4])
    assert [e.data["hits"] for e in s.events if e.kind == "fire"] == [2]


def test_quality_off_means_everyone_is_seasoned():
    """H31"""
    s = position([light("S1", "C2", stands=3, quality="green"), foot("N1", "C2", stands=6)], start="fire")
    s = act(s, "fire S1 N1", dice=[1, 2, 3])
    assert [e.data["hits"] for e in s.events if e.kind == "fire"] == [2]


@pytest.mark.parametrize(("quality", "form", "die", "ok"), [
    ("green", "attack", 1, True), ("green", "attack", 2, False),
    ("veteran", "open", 4, True), ("veteran", "attack", 5, False),
    ("seasoned", "attack", 3, True), ("seasoned", "open", 2, False),
])
def test_quality_test_to_engage(quality, form, die, ok):
    s = position([light("S1", "C2", quality=quality, form=form), foot("N1", "C2", facing="S")], quality="chosen")
    s = act(s, "S1 engage N1 front", dice=[die])
    assert (s.pend["step"] == "react") == ok


def test_quality_rolled_on_the_appendix_b_table():
    """H31"""
    table = {"light-foot": "VSSSGG", "foot": "VSSGGG", "mounted": "VVVSSG"}
    s = GAME.new_state("meeting-engagement", 42, quality="rolled")
    rng = Rng(42)
    expected = {}
    # rolled in the battle file's deployment order, South then North
    battle_order = ["S6", "S5", "S3", "S4", "S7", "S1", "S2", "N7", "N1", "N3", "N4", "N6", "N5", "N2"]
    for uid in battle_order:
        cls = s.u(uid).cls
        expected[uid] = {"V": "veteran", "S": "seasoned", "G": "green"}[table[cls][rng.randbelow(6)]]
    assert {uid: s.u(uid).quality for uid in battle_order} == expected


def test_quality_chosen_from_the_army_list():
    s = GAME.new_state("village-ambush", 1)
    assert s.opts["quality"] == "chosen"
    assert {u.name: u.quality for u in s.units.values()}["Hatamoto"] == "veteran"
