"""The Movement Phases (001:490-720): actions, engaging, disengaging, withdrawal, the
Daimyo, and the reserve zones."""

from __future__ import annotations

import pytest

from kassen.engine.errors import IllegalActionError
from tests.rulesets.honourable_victory.helpers import act, foot, horse, light, position, texts


def unit_actions(s, uid):
    return [a for a in s.legal_actions() if a.split()[0] == uid]


def test_movement_foot_unit_performs_one_action():
    s = position([foot("S1", "C1"), foot("N1", "E3")])
    assert unit_actions(s, "S1") == ["S1 form defensive", "S1 turn E", "S1 turn S", "S1 turn W", "S1 move",
                                     "S1 reserve"]
    s = act(s, "S1 move")
    assert s.u("S1").zone == "C2" and s.pend["step"] == "move"
    assert unit_actions(s, "S1") == []  # chosen once per phase


def test_movement_moving_goes_directly_forward_keeping_formation_and_facing():
    s = position([light("S1", "C2", facing="E", form="open"), foot("N1", "A3")])
    s = act(s, "S1 move")
    u = s.u("S1")
    assert (u.zone, u.facing, u.form) == ("D2", 1, "open")


def test_movement_no_move_off_the_table_edge():
    s = position([foot("S1", "C3"), foot("N1", "A3")])
    assert "S1 move" not in s.legal_actions()


def test_movement_mounted_unit_performs_up_to_two_actions():
    s = position([horse("S1", "C1"), foot("N1", "A3")])
    s = act(s, "S1 turn E")
    assert s.pend["step"] == "act2"
    assert "S1 move" in s.legal_actions() and "S1 stop" in s.legal_actions()
    s = act(s, "S1 move")
    assert s.u("S1").zone == "D1" and s.pend["step"] == "move"


def test_movement_mounted_move_then_move_again():
    s = position([horse("S1", "C1"), foot("N1", "A3")])
    s = act(s, "S1 move", "S1 move")
    assert s.u("S1").zone == "C3"


def test_movement_four_friendly_units_per_zone_limit():
    s = position([foot("S1", "C1"), foot("S2", "C2"), foot("S3", "C2"), foot("S4", "C2"), foot("S5", "C2"),
                  foot("N1", "A3")])
    assert "S1 move" not in s.legal_actions()
    s = position([foot("S1", "C1"), foot("S2", "C2"), foot("S3", "C2"), foot("S4", "C2"),
                  foot("N1", "C2"), foot("N2", "C2"), foot("N3", "C2"), foot("N4", "C2")])
    assert "S1 move" in s.legal_actions()  # enemy units do not count; the Daimyo neither


def test_formation_change_and_restrictions():
    s = position([foot("S1", "C1", stands=4), foot("N1", "A3")])
    assert [a for a in unit_actions(s, "S1") if " form " in a] == ["S1 form defensive"]  # no open order: 3+ stands
    s = act(s, "S1 form defensive")
    assert s.u("S1").form == "defensive"


def test_formation_defensive_cannot_move_or_turn_but_changes_out_with_any_facing():
    s = position([foot("S1", "C1", form="defensive"), foot("N1", "A3")])
    acts = unit_actions(s, "S1")
    assert not any(" move" in a or " turn " in a for a in acts)
    assert "S1 form attack W" in acts and "S1 form attack N" in acts
    s = act(s, "S1 form attack W")
    assert (s.u("S1").form, s.u("S1").facing) == ("attack", 3)


@pytest.mark.parametrize(
    ("u", "forms"),
    [
        (foot("S1", "C1", stands=3), {"attack", "defensive"}),
        (foot("S1", "C1", stands=2), {"attack", "defensive", "open"}),
        (light("S1", "C1", stands=7), {"attack", "defensive", "open"}),
        (horse("S1", "C1", stands=6), {"attack", "open"}),
        (horse("S1", "C1", stands=3, mounted=False), {"attack", "defensive"}),
        (horse("S1", "C1", stands=2, mounted=False), {"attack", "defensive", "open"}),
        (foot("S1", "C1", stands=1, form="open"), {"open"}),
        (light("S1", "C1", stands=1, form="open"), {"open"}),
    ],
)
def test_formations_who_may_use_attack_defensive_and_open_order(u, forms):
    s = position([u, foot("N1", "A3")])
    assert {f for f in ("attack", "defensive", "open") if s.can_form(s.u("S1"), f)} == forms


def test_movement_turning_keeps_the_formation():
    s = position([light("S1", "C1", form="open"), foot("N1", "A3")])
    s = act(s, "S1 turn W")
    assert (s.u("S1").facing, s.u("S1").form) == (3, "open")


def test_movement_dismount_and_mount_up():
    """H17: dismounting ends the mounted unit's movement; mounting is a dismounted unit's one action."""
    s = position([horse("S1", "C1"), foot("N1", "A3")])
    s = act(s, "S1 dismount")
    assert not s.u("S1").mounted and s.pend["step"] == "move"
    s = position([horse("S1", "C1", mounted=False), foot("N1", "A3")])
    s = act(s, "S1 mount")
    assert s.u("S1").mounted and s.pend["step"] == "move"


def test_movement_mount_and_dismount_keep_the_formation_valid():
    """H17"""
    s = position([horse("S1", "C1", form="open", stands=4), horse("S2", "B1", mounted=False, form="defensive"),
                  foot("N1", "A3")])
    assert "S1 dismount" not in s.legal_actions()
    assert "S2 mount" not in s.legal_actions()


def test_movement_engaged_foot_unit_does_nothing():
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S")], contacts=(("N1", "front", "S1", "front"),))
    assert unit_actions(s, "S1") == []


def test_engaging_test_to_engage_on_three_or_less_in_attack_formation():
    s = position([foot("S9", "A1"), foot("S1", "C2"), foot("N1", "C2", facing="S")], daimyo=("A1", "E3"))
    s1 = act(s, "S1 engage N1 front", "none", dice=[3])  # N1 may react (hasty defensive): it does not
    assert s1.contacts == [("S1", "front", "N1", "front")]
    s2 = act(s, "S1 engage N1 front", dice=[4])
    assert s2.contacts == [] and any("vacillates" in t for t in texts(s2))
    assert s2.pend["step"] == "move" and "S1" in s2.chosen


def test_engaging_test_to_engage_on_a_one_in_open_order():
    s = position([light("S1", "C2", form="open"), foot("N1", "C2", facing="S")], daimyo=("A1", "E3"))
    assert act(s, "S1 engage N1 front", "none", dice=[1]).contacts
    assert not act(s, "S1 engage N1 front", dice=[2]).contacts


def test_engaging_no_test_in_command_or_when_joining_in():
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S")], daimyo=("C2", "E3"))
    s = act(s, "S1 engage N1 front")
    assert not any(e.kind == "engage-test" for e in s.events)
    s = act(s, "none")
    assert s.contacts
    s = position([foot("S1", "C2"), foot("S2", "C2", facing="E"), foot("N1", "C2", facing="S")],
                 contacts=(("S1", "front", "N1", "front"),), daimyo=("A1", "E3"))
    s = act(s, "S2 engage N1 right")
    assert ("S2", "front", "N1", "right") in s.contacts
    assert not any(e.kind == "engage-test" for e in s.events)


def test_engaging_mounted_units_are_always_in_command():
    s = position([horse("S1", "C2"), foot("N1", "C2", facing="S", weapon="long-spear", stands=4)],
                 daimyo=("A1", "E3"))
    s = act(s, "S1 engage N1 front", "none")
    assert s.contacts and not any(e.kind == "engage-test" for e in s.events)


def test_engaging_defensive_formations_cannot_engage_but_can_be_engaged():
    s = position([foot("S1", "C2", form="defensive"), foot("N1", "C2", facing="S"), foot("S2", "C2")],
                 daimyo=("C2", "E3"))
    assert not any(a.startswith("S1 engage") for a in s.legal_actions())
    t = position([foot("S1", "C2"), foot("N1", "C2", facing="S", form="defensive")], daimyo=("C2", "E3"))
    assert "S1 engage N1 front" in t.legal_actions()


def test_engaging_same_zone_only():
    s = position([foot("S1", "C2"), foot("N1", "C3", facing="S")], daimyo=("C2", "E3"))
    assert not any(" engage " in a for a in s.legal_actions())


def test_engaging_unengaged_enemies_first():
    """H20"""
    s = position([foot("S1", "C2"), foot("S2", "C2"), foot("N1", "C2", facing="S"), foot("N2", "C2", facing="S")],
                 contacts=(("S2", "front", "N1", "front"),), daimyo=("C2", "E3"))
    assert [a for a in unit_actions(s, "S1") if " engage " in a] == ["S1 engage N2 front"]


@pytest.mark.parametrize(
    ("enemy_facing", "facet"),
    [("S", "front"), ("E", "right"), ("W", "left"), ("N", "rear")],
)
def test_engaging_facet_follows_relative_facing(enemy_facing, facet):
    s = position([foot("S1", "C2"), foot("N1", "C2", facing=enemy_facing, weapon="long-spear")], daimyo=("C2", "E3"))
    assert [a for a in unit_actions(s, "S1") if " engage " in a] == [f"S1 engage N1 {facet}"]


def test_engaging_priority_of_facings_front_then_flanks_then_rear():
    """H20: the player picks the flank."""
    base = [foot("S1", "C2", facing="S"), foot("S2", "C2"), foot("S3", "C2"), foot("N1", "C2", facing="S")]
    # S1 faces S like N1 would naturally take the rear; front taken by S2 (via contact)
    s = position(base, contacts=(("S2", "front", "N1", "front"),), daimyo=("C2", "E3"))
    s = act(s, "S3 engage N1 left")  # natural facet front is taken: a flank, the player's choice
    assert ("S3", "front", "N1", "left") in s.contacts and s.u("S3").facing == 3  # turned to face W
    s = position(base, contacts=(("S2", "front", "N1", "front"), ("S3", "front", "N1", "left")),
                 daimyo=("C2", "E3"))
    assert [a for a in unit_actions(s, "S1") if " engage " in a] == ["S1 engage N1 rear"]


def test_engaging_only_one_unit_per_facing():
    s = position([foot("S1", "C2"), foot("S2", "C2"), foot("S3", "C2"), foot("S4", "C2"), foot("S5", "C2"),
                  foot("N1", "C2", facing="S")],
                 contacts=(("S2", "front", "N1", "front"), ("S3", "front", "N1", "left"),
                           ("S4", "front", "N1", "right"), ("S5", "front", "N1", "rear")),
                 daimyo=("C2", "E3"), limit=5)
    assert [a for a in unit_actions(s, "S1") if " engage " in a] == []


def test_engaging_foot_may_engage_unengaged_mounted_only_with_long_spears_or_to_outflank():
    """H20"""
    s = position([foot("S1", "C2"), horse("N1", "C2", facing="S")], daimyo=("C2", "E3"))
    assert not any(" engage " in a for a in s.legal_actions())
    s = position([foot("S1", "C2", weapon="long-spear"), horse("N1", "C2", facing="S")], daimyo=("C2", "E3"))
    assert "S1 engage N1 front" in s.legal_actions()
    s = position([foot("S1", "C2"), horse("N1", "C2", facing="N")], daimyo=("C2", "E3"))
    assert "S1 engage N1 rear" in s.legal_actions()


def test_engaging_engage_is_the_whole_choice_no_turn_when_engaging():
    """H19: the engaging unit keeps its facing (unless the priorities turn it)."""
    s = position([foot("S1", "C2", facing="E"), foot("N1", "C2", facing="S")], daimyo=("C2", "E3"))
    s = act(s, "S1 engage N1 right", "none")  # N1 faces S: its right flank is its west side
    assert s.u("S1").facing == 1 and s.pend["step"] == "move"


def test_disengaging_mounted_unit_takes_a_hit_per_enemy_in_attack_formation():
    """H18: after disengaging, the second action."""
    s = position([horse("S1", "C2"), foot("N1", "C2", facing="S"), light("N2", "C2", facing="W", form="open"),
                  foot("N3", "C2", facing="E")],
                 contacts=(("N1", "front", "S1", "front"), ("N2", "front", "S1", "right"),
                           ("N3", "front", "S1", "left")))
    assert unit_actions(s, "S1") == ["S1 disengage"]
    s = act(s, "S1 disengage")
    assert s.u("S1").hits == 2 and s.contacts == []
    assert s.pend["step"] == "act2"  # its second action
    s = act(s, "S1 turn S", )
    assert s.u("S1").facing == 2


def test_disengaging_not_from_enemy_mounted_nor_when_all_four_facings_are_engaged():
    s = position([horse("S1", "C2"), horse("N1", "C2", facing="S")], contacts=(("N1", "front", "S1", "front"),))
    assert unit_actions(s, "S1") == []
    s = position([horse("S1", "C2"), foot("N1", "C2"), foot("N2", "C2"), foot("N3", "C2"), foot("N4", "C2")],
                 contacts=(("N1", "front", "S1", "front"), ("N2", "front", "S1", "right"),
                           ("N3", "front", "S1", "left"), ("N4", "front", "S1", "rear")))
    assert unit_actions(s, "S1") == []


def test_withdrawal_only_near_the_daimyo_and_counts_as_routed():
    """H28"""
    s = position([foot("S1", "C1"), foot("S2", "B1"), foot("N1", "A3")], daimyo=("C1", "E3"))
    assert "S1 withdraw" in s.legal_actions() and "S2 withdraw" not in s.legal_actions()
    s = act(s, "S1 withdraw")
    assert s.u("S1").status == "routed" and s.tally == [1, 0]


def test_the_daimyo_move_to_any_of_eight_zones_ends_the_phase():
    s = position([foot("S1", "C1"), foot("N1", "A3")], daimyo=("C2", "E3"))
    assert sorted(a for a in s.legal_actions() if a.startswith("daimyo")) == sorted(
        f"daimyo {z}" for z in ("B1", "C1", "D1", "B2", "D2", "B3", "C3", "D3"))
    s = act(s, "daimyo D3")
    assert s.daimyo[0] == "D3" and s.pend["seat"] == 1 and s.mover == 1


def test_movement_phase_ends_when_announced_then_the_other_side_moves():
    s = position([foot("S1", "C1"), foot("N1", "A3")], init=0)
    s = act(s, "end")
    assert s.mover == 1 and s.to_move() == 1


def test_reserve_zones_enter_the_table_directly_forward_and_do_no_more():
    s = position([foot("S1", "C0", facing="W", form="defensive"), foot("N1", "A3")])
    assert unit_actions(s, "S1") == ["S1 enter attack", "S1 shift B0", "S1 shift D0"]
    s = act(s, "S1 enter attack")
    u = s.u("S1")
    assert (u.zone, u.status, u.facing, u.form) == ("C1", "table", 0, "attack")
    assert unit_actions(s, "S1") == []


def test_reserve_zones_move_between_reserve_zones():
    s = position([horse("S1", "B0"), foot("N1", "A3")])
    s = act(s, "S1 shift D0")
    assert s.u("S1").zone == "D0" and s.u("S1").status == "reserve"


def test_reserve_zones_move_off_the_table_backwards_whatever_facing():
    s = position([foot("S1", "D1", facing="E", form="defensive"), foot("S2", "A1"), foot("N1", "A3")])
    assert "S1 reserve" in s.legal_actions() and "S2 reserve" not in s.legal_actions()
    s = act(s, "S1 reserve")
    assert (s.u("S1").zone, s.u("S1").status) == ("D0", "reserve")


def test_reserve_zones_never_the_enemy_reserve_and_the_limit_applies():
    s = position([foot("S1", "C3"), foot("N1", "A3")])
    assert "S1 reserve" not in s.legal_actions()
    s = position([foot("S1", "C1"), foot("S2", "C0"), foot("S3", "C0"), foot("S4", "C0"), foot("S5", "C0"),
                  foot("N1", "A3")])
    assert "S1 reserve" not in s.legal_actions()


def test_reserve_zones_can_be_disabled():
    """H2: option reserves = false."""
    s = position([foot("S1", "C1"), foot("N1", "A3")], reserves=False)
    assert "S1 reserve" not in s.legal_actions()


def test_movement_illegal_action_names_the_problem_and_changes_nothing():
    s = position([foot("S1", "C1"), foot("N1", "A3")])
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="N1 is a North unit; it is South.s decision"):
        s.apply("N1 move")
    with pytest.raises(IllegalActionError, match="S1 cannot do that now"):
        s.apply("S1 engage N1 front")
    assert s.to_json() == before


def test_movement_doing_nothing_is_leaving_the_unit_unchosen():
    """H16: no separate "do nothing" action; a unit never chosen does nothing."""
    s = position([foot("S1", "C1"), foot("N1", "A3")])
    verbs = {a.split()[1] for a in s.legal_actions() if a.split()[0] == "S1"}
    assert verbs == {"form", "turn", "move", "reserve"}
    s = act(s, "end")
    assert s.u("S1").zone == "C1" and s.chosen == []


def test_movement_phase_ends_when_the_player_has_no_more_units_to_choose():
    """H16"""
    s = position([foot("S1", "C1"), foot("S2", "B1"), foot("N1", "A3")], init=0)
    s = act(s, "S1 move")
    assert s.mover == 0
    s = act(s, "S2 turn E")
    assert s.mover == 1 and any("no more units to choose" in e.text for e in s.events)
