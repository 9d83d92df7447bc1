"""Reactions (001:720-870): every reaction, compulsory or optional, and the yellow markers."""

from __future__ import annotations

import pytest

from kassen.engine.errors import IllegalActionError
from tests.rulesets.honourable_victory.helpers import act, foot, horse, light, position, texts

CMD = ("C2", "E3")  # South's Daimyo in C2: no tests to engage


def test_reaction_counter_charge_is_compulsory_for_a_mounted_unit():
    """H24: no "none" for a mounted unit able to react."""
    s = position([horse("S1", "C2"), horse("N1", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front")
    assert s.to_move() == 1 and s.legal_actions() == ["N1 counter", "N1 recoil"]
    with pytest.raises(IllegalActionError):
        act(s, "none")


def test_reaction_counter_charge_engages_front_to_front_with_disorder():
    s = position([foot("S9", "A1"), horse("S1", "C2"), horse("N1", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front", "N1 counter")
    assert s.contacts == [("N1", "front", "S1", "front")]
    assert s.u("N1").hits == 1 and s.u("N1").reacted  # yellow marker
    assert s.pend["step"] == "move"


def test_reaction_counter_charge_that_turns_takes_another_hit():
    s = position([foot("S1", "C2", weapon="long-spear"), horse("N1", "C2", facing="E")], daimyo=CMD)
    s = act(s, "S1 engage N1 right", "N1 counter")  # N1 faces E: S1 comes at its right (south) flank
    assert s.u("N1").hits == 2 and s.u("N1").facing == 2  # turned to face S1 front to front
    assert s.contacts == [("N1", "front", "S1", "front")]


def test_reaction_recoil_to_the_closest_reserve_zone_foot_enemy_does_no_more():
    """H3"""
    s = position([foot("S9", "A1"), foot("S1", "A3", weapon="long-spear"), horse("N1", "A3", facing="S", hits=1)], daimyo=("A3", "E3"))
    s = act(s, "S1 engage N1 front", "N1 recoil")
    assert (s.u("N1").status, s.u("N1").zone, s.u("N1").hits) == ("reserve", "B4", 1)
    assert s.contacts == [] and s.pend["step"] == "move"
    assert "S1" in s.chosen


def test_reaction_recoil_from_mounted_enemy_who_engages_another_or_rallies():
    s = position([horse("S1", "C2"), horse("N1", "C2", facing="S"), foot("N2", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front", "N1 recoil")
    assert s.to_move() == 0 and s.pend["step"] == "recoiled"
    assert s.legal_actions() == ["S1 engage N2 front", "S1 rally N", "S1 rally E", "S1 rally S", "S1 rally W"]
    r = act(s, "S1 rally W")
    assert r.u("S1").facing == 3 and r.pend["step"] == "move" and not r.contacts
    e = act(s, "S1 engage N2 front")  # the enemy may react again, with another unit
    assert e.to_move() == 1 and "N2 defend" in e.legal_actions()
    e = act(e, "none")
    assert ("S1", "front", "N2", "front") in e.contacts


def test_reaction_recoil_impossible_when_the_reserve_zone_is_full():
    """H3"""
    s = position([horse("S1", "C3"), horse("N1", "C3", facing="S")] + [foot(f"N{i}", "C4") for i in range(2, 6)],
                 daimyo=("C3", "E3"))
    s = act(s, "S1 engage N1 front")
    assert s.legal_actions() == ["N1 counter"]


def test_reaction_defensive_fire_two_hits_flinch():
    s = position([foot("S9", "A1"), foot("S1", "C2"), light("N1", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front")
    assert s.legal_actions() == ["N1 fire", "N1 defend", "none"]
    s = act(s, "N1 fire", dice=[1, 2, 6, 6])
    assert s.contacts == [] and s.u("S1").hits == 2
    assert s.u("N1").fired and s.u("N1").reacted
    assert any("flinches" in t for t in texts(s))


def test_reaction_defensive_fire_one_hit_engages():
    s = position([foot("S1", "C2"), light("N1", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front", "N1 fire", dice=[1, 5, 6, 6])
    assert s.contacts == [("S1", "front", "N1", "front")]
    assert (s.u("S1").hits, s.u("N1").hits) == (1, 0)


def test_reaction_defensive_fire_no_hits_light_impact():
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S", weapon="spear")], daimyo=CMD)
    s = act(s, "S1 engage N1 front", "N1 fire", dice=[3, 5, 6, 6])
    assert s.contacts == [("S1", "front", "N1", "front")]
    assert (s.u("S1").hits, s.u("N1").hits) == (0, 1)


def test_reaction_defensive_fire_needs_no_red_marker_and_a_foot_enemy():
    s = position([foot("S1", "C2"), light("N1", "C2", facing="S", fired=True)], daimyo=CMD)
    s = act(s, "S1 engage N1 front")
    assert "N1 fire" not in s.legal_actions()
    s = position([horse("S1", "C2"), light("N1", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front")
    assert "N1 fire" not in s.legal_actions()
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front")
    assert "N1 fire" not in s.legal_actions()  # hand-to-hand weapons cannot fire


def test_reaction_hasty_defensive_formation_against_foot():
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front", "N1 defend")
    assert s.u("N1").form == "defensive" and s.u("N1").hits == 1
    assert s.contacts == [("S1", "front", "N1", "front")]


def test_reaction_hasty_defensive_formation_long_spears_mounted_pulls_up_short():
    s = position([foot("S9", "A1"), horse("S1", "C2"), foot("N1", "C2", facing="S", weapon="long-spear")], daimyo=CMD)
    s = act(s, "S1 engage N1 front", "N1 defend")
    assert s.contacts == [] and s.u("S1").hits == 1 and s.u("N1").hits == 1
    assert s.u("N1").reacted and s.pend["step"] == "move"


def test_reaction_hasty_defensive_formation_mounted_charges_home():
    s = position([horse("S1", "C2"), light("N1", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front", "N1 defend")
    assert s.contacts == [("S1", "front", "N1", "front")]
    assert s.u("N1").hits == 4 and s.u("S1").hits == 0  # disorder 1 + heavy impact 3


def test_reaction_hasty_defensive_formation_not_for_single_stands():
    s = position([foot("S1", "C2"), light("N1", "C2", facing="S", stands=1, form="open")], daimyo=CMD)
    s = act(s, "S1 engage N1 front")
    assert "N1 defend" not in s.legal_actions()


def test_reaction_evade_open_order_foot_from_foot():
    s = position([foot("S9", "A1"), foot("S1", "C2"), foot("N1", "C2", facing="S", stands=2, form="open")], daimyo=CMD)
    s = act(s, "S1 engage N1 front")
    assert "N1 evade" in s.legal_actions()
    s = act(s, "N1 evade")
    assert s.contacts == [] and s.u("N1").reacted and s.pend["step"] == "move"
    t = position([horse("S1", "C2"), light("N1", "C2", facing="S", form="open")], daimyo=CMD)
    t = act(t, "S1 engage N1 front")
    assert "N1 evade" not in t.legal_actions()  # not from mounted


def test_reaction_intercept_unit_moving_into_the_zone():
    s = position([foot("S1", "C1"), horse("N1", "C2", facing="S")])
    s = act(s, "S1 move")
    assert s.pend["trig"] == "enter" and s.legal_actions() == ["N1 intercept", "none"]
    s = act(s, "N1 intercept")
    assert s.u("S1").zone == "C2" and s.contacts == [("N1", "front", "S1", "front")]
    assert (s.u("N1").hits, s.u("S1").hits) == (1, 3)  # disorder; heavy impact on foot


def test_reaction_intercept_unit_trying_to_move_out_of_the_zone():
    s = position([horse("S1", "C2"), horse("N1", "C2", facing="E")])
    s = act(s, "S1 move")
    assert s.pend["trig"] == "leave"
    s = act(s, "N1 intercept")
    assert s.u("S1").zone == "C2" and s.u("S1").hits == 0  # mounted: no heavy impact
    assert s.u("N1").hits == 2  # disorder and a turn
    assert s.pend["step"] == "move"  # the mounted unit's second action is lost


def test_reaction_intercept_unit_engaging_another_friendly_unit():
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S"), horse("N2", "C2", facing="S")], daimyo=CMD)
    s = act(s, "S1 engage N1 front")
    assert "N2 intercept" in s.legal_actions()
    s = act(s, "N2 intercept")
    assert s.contacts == [("N2", "front", "S1", "front")]
    assert s.u("S1").hits == 3


def test_reaction_intercept_unit_that_has_just_disengaged():
    s = position([horse("S1", "C2"), foot("N1", "C2", facing="S", form="open", stands=2),
                  horse("N2", "C2", facing="S")],
                 contacts=(("N1", "front", "S1", "front"),))
    s = act(s, "S1 disengage")
    assert s.pend["trig"] == "disengaged" and s.u("S1").hits == 0
    s = act(s, "N2 intercept")
    assert s.contacts == [("N2", "front", "S1", "front")]


def test_reaction_intercept_unit_moving_off_the_table_and_onto_it():
    s = position([foot("S1", "C1"), horse("N1", "C1", facing="S")])
    s = act(s, "S1 reserve", "N1 intercept")
    assert s.u("S1").status == "table" and s.contacts
    s = position([foot("S1", "C0"), horse("N1", "C1", facing="S")])
    s = act(s, "S1 enter attack")
    assert s.pend["trig"] == "enter"
    s = act(s, "N1 intercept")
    assert s.u("S1").zone == "C1" and s.contacts


def test_reaction_intercept_only_by_unengaged_mounted_units_not_in_restricted_terrain():
    """H25: a dismounted unit is not mounted (H18); restricted terrain forbids intercepts."""
    s = position([foot("S1", "C1"), horse("N1", "C2", facing="S", mounted=False), horse("N2", "C2", facing="S")],
                 contacts=(), terrain={"C2": ("rough",)})
    s = act(s, "S1 move")
    assert s.pend["step"] == "move"  # no reaction possible: no window


def test_reaction_only_once_per_phase_yellow_markers_removed_at_its_end():
    s = position([horse("S2", "C1"), foot("S3", "C2"), foot("N9", "C2", facing="S"), horse("N1", "C2", facing="S"),
                  foot("N2", "A3")], daimyo=("C2", "E3"))
    s = act(s, "S2 move")
    assert s.legal_actions() == ["N1 intercept", "none"]
    s = act(s, "N1 intercept")
    assert s.u("N1").reacted
    s = act(s, "S3 engage N9 front")
    assert s.to_move() == 1 and s.legal_actions() == ["N9 defend", "none"]  # N1 has reacted already
    s = act(s, "none", "end")
    assert not s.u("N1").reacted and s.mover == 1


def test_reaction_engaged_units_cannot_react_nor_be_reacted_against():
    """H25"""
    s = position([foot("S1", "C1"), horse("N1", "C2", facing="S"), foot("S9", "C2")],
                 contacts=(("S9", "front", "N1", "front"),))
    s = act(s, "S1 move")
    assert s.pend["step"] == "move"
