"""The Determine the Initiative Phase and the Firing Phase (001:241-337)."""

from __future__ import annotations

import pytest

from kassen.engine.errors import IllegalActionError
from tests.rulesets.honourable_victory.helpers import act, foot, horse, light, position, texts


def test_initiative_lowest_two_dice_total_wins():
    s = position([foot("S1", "C1"), foot("N1", "C3")], start="victory", dice=[6, 5, 1, 2])
    assert s.turn == 2 and s.init == 1
    assert any(t.startswith("North has the initiative") for t in texts(s))


def test_initiative_ties_are_rethrown():
    s = position([foot("S1", "C1"), foot("N1", "C3")], start="victory", dice=[3, 4, 2, 5, 1, 1, 6, 6])
    assert s.init == 0
    assert sum(1 for t in texts(s) if t.startswith("Turn 2: initiative dice")) == 2
    assert s.forced == []


def test_determine_the_initiative_phase_says_the_lower_total_wins_and_announces_a_ties_rethrow():
    """001:251-253 ("Players re-throw the dice on a tie"; "the lowest total ... has the
    initiative"): the log line of each throw says so, the tie's first."""
    s = position([foot("S1", "C1"), foot("N1", "C3")], start="victory", dice=[3, 4, 2, 5, 1, 1, 6, 6])
    lines = [t for t in texts(s) if t.startswith("Turn 2: initiative")]
    assert lines == ["Turn 2: initiative dice South 3+4 = 7, North 2+5 = 7: a tie, both sides throw again",
                     "Turn 2: initiative dice South 1+1 = 2, North 6+6 = 12: the lower total wins"]
    assert "South has the initiative (the lower total, 2 against 12)" in texts(s)


def test_firing_worked_example_five_bows_at_a_defensive_formation_throw_7d6():
    """001:327-333: 5 bow stands in attack formation at a defensive foot unit: 5D6 + 2D6 = 7D6;
    1, 2, 4, 4, 5, 5, 6 is two hits."""
    s = position([light("S1", "C2", stands=5), foot("N1", "C2", form="defensive")], start="fire")
    assert s.fire_dice(s.u("S1"), s.u("N1")) == 7
    s = act(s, "fire S1 N1", dice=[1, 2, 4, 4, 5, 5, 6])  # nothing else can fire: done is automatic
    assert s.u("N1").hits == 0  # two hits -> one stand lost in the Remove Losses Phase
    assert s.u("N1").stands == 3
    assert any("7D6 [1, 2, 4, 4, 5, 5, 6]: 2 hits" in t for t in texts(s))


@pytest.mark.parametrize(
    ("firer_form", "target", "expected"),
    [
        ("attack", foot("N1", "C2"), 4),
        ("defensive", foot("N1", "C2"), 2),
        ("attack", horse("N1", "C2"), 5),
        ("attack", horse("N1", "C2", form="open"), 4),
        ("attack", foot("N1", "C2", form="defensive"), 6),
        ("attack", light("N1", "C2", form="open"), 3),
        ("defensive", light("N1", "C2", form="open"), 1),
    ],
)
def test_firing_dice_per_stand_with_the_four_modifiers(firer_form, target, expected):
    s = position([light("S1", "C2", stands=4, form=firer_form), target], start="move")
    assert s.fire_dice(s.u("S1"), s.u("N1")) == expected


def test_firing_a_dismounted_unit_is_not_a_mounted_target():
    """H18: dismounted units are foot units."""
    s = position([light("S1", "C2", stands=4), horse("N1", "C2", mounted=False)], start="move")
    assert s.fire_dice(s.u("S1"), s.u("N1")) == 4


def test_firing_ones_and_twos_hit_and_hits_are_green_markers():
    s = position([light("S1", "C2", stands=3), foot("N1", "C2", stands=6)], start="fire")
    s = act(s, "fire S1 N1", dice=[2, 3, 1])
    assert [e.data["hits"] for e in s.events if e.kind == "fire"] == [2]
    assert s.u("N1").stands == 5


def test_firing_targets_unengaged_enemies_in_the_same_zone_only():
    s = position([light("S1", "C2"), foot("N1", "C2"), foot("N2", "C3"), foot("N3", "C2"), foot("S2", "C2")],
                 contacts=(("S2", "front", "N3", "front"),), start="fire")
    assert s.legal_actions() == ["fire S1 N1", "done"]


def test_firing_engaged_units_cannot_fire():
    s = position([light("S1", "C2"), foot("N1", "C2"), foot("N2", "C2")],
                 contacts=(("N2", "front", "S1", "front"),), start="fire")
    assert "fire S1 N1" not in s.legal_actions()


def test_firing_fire_spread_evenly_between_targets():
    s = position([light("S1", "C2"), light("S2", "C2"), light("S3", "C2"), foot("N1", "C2"), foot("N2", "C2")],
                 start="fire")
    s = act(s, "fire S1 N1")
    assert [a for a in s.legal_actions() if a.startswith("fire S2")] == ["fire S2 N2"]
    s = act(s, "fire S2 N2")
    assert [a for a in s.legal_actions() if a.startswith("fire S3")] == ["fire S3 N1", "fire S3 N2"]
    with pytest.raises(IllegalActionError):
        act(s, "fire S2 N1")  # a unit fires once


def test_firing_only_bows_firearms_and_mounted_fire_in_the_firing_phase():
    """H8: spears fire only as defensive fire; mounted units fire their bows."""
    s = position([foot("S1", "C2", weapon="spear"), foot("S2", "C2"), horse("S3", "C2"),
                  light("S4", "C2", weapon="firearm"), foot("N1", "C2")], start="fire")
    assert s.legal_actions() == ["fire S3 N1", "fire S4 N1", "done"]


def test_firing_no_fire_into_or_out_of_reserve_zones():
    s = position([light("S1", "C0"), foot("N1", "C1"), light("S2", "C1")], start="fire")
    assert s.legal_actions() == ["fire S2 N1", "done"]


def test_firing_is_simultaneous_and_the_second_side_does_not_see_the_first():
    """H7: the initiative side declares first, hidden, then the other side."""
    s = position([light("S1", "C2"), light("N1", "C2"), foot("N2", "C2")], start="fire", init=0)
    s = act(s, "fire S1 N1")
    assert s.to_move() == 1
    assert "fire S1 N1" in s.secrets(1)
    obs = str(s.observation(1))
    assert "S1 N1" not in obs
    assert "fire S1 N1" in str(s.observation(0))
    assert not s.events[0].for_seat(1)
    s2 = act(s, "fire N1 S1", dice=[1, 1, 1, 1, 1, 1, 1, 1])
    # both fired: each unit took its hits, and then lost stands
    assert s2.u("N1").stands == 2 and s2.u("S1").stands == 2


def test_firing_a_unit_fires_once_per_turn_red_marker():
    s = position([light("S1", "C2"), foot("N1", "C2"), foot("N2", "C2")], start="fire")
    s = act(s, "fire S1 N1", dice=[6, 6, 6, 6, 5, 5, 5, 5])
    assert s.u("S1").fired  # red marker until the Determine Victory Phase
    assert s.pend["step"] == "move"


def test_firing_zero_dice_fire_is_allowed():
    """H9: a defensive two-stand unit at open order throws no dice but has fired."""
    s = position([light("S1", "C2", stands=2, form="defensive"), foot("N1", "C2", stands=2, form="open")], start="fire")
    s = act(s, "fire S1 N1")
    assert s.u("S1").fired and any("0D6 []" in t for t in texts(s))
