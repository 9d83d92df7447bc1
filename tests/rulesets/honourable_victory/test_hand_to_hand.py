"""The Hand-to-Hand Combat Resolution Phase (001:337-455) and the Remove Losses Phase (001:455-490)."""

from __future__ import annotations

import pytest

from kassen.engine.errors import IllegalActionError
from tests.rulesets.honourable_victory.helpers import act, foot, horse, light, position, texts


def worked_example():
    """001:435-455: two depleted three-stand foot units (initiative) against a five-stand
    unit; S2 overlaps it (on its left flank); North's Daimyo is in the zone."""
    return position(
        [foot("S1", "C2", stands=3), foot("S2", "C2", stands=3, facing="E"),
         foot("N1", "C2", stands=5, facing="S")],
        contacts=(("S1", "front", "N1", "front"), ("S2", "front", "N1", "left")),
        daimyo=("A1", "C2"), init=0, start="h2h")


def test_hand_to_hand_worked_example_two_depleted_units_and_an_overlap():
    s = worked_example()
    # the very first thing: one hit marker on every engaged unit
    assert [s.u(u).hits for u in ("S1", "S2", "N1")] == [1, 1, 1]
    # the overlapped enemy unit allocates everything against the overlapping unit
    assert s.to_move() == 1 and "alloc N1 S1=0 S2=5" in s.legal_actions()
    s = act(s, "alloc N1 S1=0 S2=5", dice=[2, 5, 6, 4, 5, 6, 4, 6, 1, 4, 4, 5, 6, 3, 4, 5, 6, 6])
    # S1 threw one hit and has no re-throw; S2 threw no hits and may re-throw up to two dice
    assert s.pend["step"] == "reroll" and s.to_move() == 0
    assert "reroll 5 6" in s.legal_actions() and "reroll 4 5 6" not in s.legal_actions()
    s = act(s, "reroll 5 6")
    # no South Daimyo in the zone: the throw stands; North's 5D6 got one hit: Daimyo's re-throw
    assert s.pend["step"] == "daimyo" and s.to_move() == 1
    assert [s.u(u).hits for u in ("S1", "S2", "N1")] == [1, 1, 2]
    s = act(s, "daimyo")
    hits = [e.data["hits"] for e in s.events if e.kind == "attack-hits"]
    assert hits == [1]  # the re-thrown five dice: one hit again
    losses = {e.data["unit"]: e for e in s.events if e.kind == "losses"}
    # S1 ended with one hit (a leftover marker), S2 with two (one stand), N1 with two (one stand)
    assert "1 leftover hit marker removed" in losses["S1"].text  # singular (issue 18, item 10)
    assert (s.u("S1").stands, s.u("S2").stands, s.u("N1").stands) == (3, 2, 4)
    assert s.forced == []


def test_hand_to_hand_first_hit_marker_on_every_engaged_unit_only():
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S"), foot("S2", "B2"), foot("N2", "B2")],
                 contacts=(("S1", "front", "N1", "front"),), start="h2h", dice=[6] * 8)
    ev = [e.data["unit"] for e in s.events if e.kind == "h2h-marker"]
    assert sorted(ev) == ["N1", "S1"]


@pytest.mark.parametrize(
    ("attacker", "target", "cv"),
    [
        (light("S1", "C2"), foot("N1", "C2"), 2),                                  # light hand-to-hand weapons
        (foot("S1", "C2", weapon="improvised"), foot("N1", "C2"), 2),              # H10
        (foot("S1", "C2", weapon="spear"), foot("N1", "C2"), 3),                   # H10
        (foot("S1", "C2"), foot("N1", "C2"), 3),
        (foot("S1", "C2", weapon="long-spear"), foot("N1", "C2"), 4),
        (horse("S1", "C2"), horse("N1", "C2"), 3),
        (horse("S1", "C2", mounted=False), foot("N1", "C2"), 3),                   # dismounted
        (light("S1", "C2", form="open"), foot("N1", "C2"), 1),                     # 1) open order -1
        (foot("S1", "C2", form="defensive"), foot("N1", "C2"), 2),                 # 2) defensive vs foot -1
        (foot("S1", "C2", form="defensive"), horse("N1", "C2"), 3),                # 2) only against foot
        (foot("S1", "C2", weapon="long-spear", form="defensive"), foot("N1", "C2"), 4),  # 2) not long spears
        (horse("S1", "C2"), light("N1", "C2", form="open"), 4),                    # 3) H11
        (horse("S1", "C2"), horse("N1", "C2", mounted=False, form="open", stands=2), 4),  # 3) dismounted open
        (horse("S1", "C2"), foot("N1", "C2"), 3),                                  # 3) H11: not attack formation
        (horse("S1", "C2"), foot("N1", "C2", form="defensive"), 2),                # 4) -1
        (horse("S1", "C2"), foot("N1", "C2", weapon="long-spear", form="defensive"), 1),  # 4) -2
        (horse("S1", "C2", form="open"), foot("N1", "C2", weapon="long-spear", form="defensive"), 1),  # limit 1
    ],
)
def test_hand_to_hand_combat_values_modifiers_and_limits(attacker, target, cv):
    """H10 (spears, improvised weapons) and H11 (mounted +1 only against open order)."""
    s = position([attacker, target], start="move")
    assert s.combat_value(s.u("S1"), s.u("N1")) == cv


def test_hand_to_hand_a_hit_on_each_die_of_the_combat_value_or_less():
    s = position([foot("S1", "C2", weapon="long-spear", stands=4), foot("N1", "C2", stands=6, facing="S")],
                 contacts=(("S1", "front", "N1", "front"),), start="h2h",
                 dice=[4, 5, 1, 6, 6, 6, 6, 6, 6, 6])
    hits = {e.data["attacker"]: e.data["hits"] for e in s.events if e.kind == "attack-hits"}
    assert hits == {"S1": 2, "N1": 0}


def test_hand_to_hand_stand_allocation_and_splitting_uses_every_stand():
    s = position([foot("S1", "C2", stands=3), foot("N1", "C2", facing="S"), foot("N2", "C2", facing="W")],
                 contacts=(("N1", "front", "S1", "front"), ("N2", "front", "S1", "left")), start="h2h")
    assert s.to_move() == 0
    assert s.legal_actions() == ["alloc S1 N1=3 N2=0", "alloc S1 N1=2 N2=1", "alloc S1 N1=1 N2=2",
                                 "alloc S1 N1=0 N2=3"]
    with pytest.raises(IllegalActionError):
        act(s, "alloc S1 N1=1 N2=1")
    s = act(s, "alloc S1 N1=2 N2=1", dice=[6] * 20)
    attacks = [(e.data["attacker"], e.data["target"], e.data["stands"]) for e in s.events if e.kind == "attack"]
    assert ("S1", "N1", 2) in attacks and ("S1", "N2", 1) in attacks


def test_hand_to_hand_allocations_are_hidden_until_both_sides_allocated():
    """H12: the initiative side allocates first; the other side does not see it."""
    s = position([foot("S1", "C2", stands=3), foot("S2", "C2"), foot("N1", "C2", facing="S"),
                  foot("N2", "C2", facing="W", stands=2)],
                 contacts=(("N1", "front", "S1", "front"), ("N2", "front", "S1", "left"),
                           ("S2", "front", "N2", "right")), init=0, start="h2h")
    s = act(s, "alloc S1 N1=1 N2=2")
    assert s.to_move() == 1
    assert "alloc S1 N1=1 N2=2" in s.secrets(1)
    assert "S1" not in s.observation(1)["allocations"]
    assert s.observation(0)["allocations"]["S1"] == {"N1": 1, "N2": 2}


def test_hand_to_hand_outflank_rerolls_any_dice_overlap_up_to_two():
    """H13: dice are picked by their faces."""
    s = position([foot("S1", "C2", stands=3), foot("N1", "C2", facing="N", stands=6)],
                 contacts=(("S1", "front", "N1", "rear"),), start="h2h", dice=[4, 5, 6])
    assert s.pend["step"] == "reroll"
    assert "reroll 4 5 6" in s.legal_actions() and "accept" in s.legal_actions()
    s = act(s, "reroll 4 5 6", dice=[1, 2, 3, 6, 6, 6, 6, 6, 6])
    assert any("outflanking re-throw" in t for t in texts(s))
    assert [e.data["hits"] for e in s.events if e.kind == "attack-hits"][0] == 3


def test_hand_to_hand_defensive_formation_cannot_be_overlapped_or_outflanked():
    s = position([foot("S1", "C2", stands=3), foot("N1", "C2", facing="N", form="defensive")],
                 contacts=(("S1", "front", "N1", "rear"),), start="move")
    assert s.reroll_kind(s.u("S1"), s.u("N1")) is None


def test_hand_to_hand_daimyo_rethrow_once_per_unit_even_when_splitting():
    s = position([foot("S1", "C2", stands=2), foot("N1", "C2", facing="S"), foot("N2", "C2", facing="W")],
                 contacts=(("N1", "front", "S1", "front"), ("N2", "front", "S1", "right")),
                 daimyo=("C2", "E3"), init=0, start="h2h")
    s = act(s, "alloc S1 N1=1 N2=1", dice=[6, 6, 6])
    assert s.pend["step"] == "daimyo" and s.att["t"] == "N1"
    s = act(s, "daimyo", dice=[6, 6, 6, 6, 6, 6, 6, 6, 6, 6])
    # S1's second attack (against N2) is offered no second Daimyo's re-throw; next is N2,
    # which is engaged with S1's flank: its overlapping re-throw
    assert s.pend["step"] == "reroll" and s.to_move() == 1 and s.att["a"] == "N2"
    assert sum(1 for e in s.events if e.kind == "attack") == 3
    s = act(s, "accept")
    assert s.pend["step"] == "move"


def test_hand_to_hand_daimyo_rethrow_needs_the_daimyo_in_the_zone_even_for_mounted():
    """H14"""
    s = position([horse("S1", "C2"), foot("N1", "C2", facing="S")], contacts=(("S1", "front", "N1", "front"),),
                 daimyo=("C1", "E3"), start="h2h", dice=[6] * 8)
    assert s.pend["step"] == "move"


def test_hand_to_hand_rerolls_come_before_the_daimyo_rethrow():
    s = position([foot("S1", "C2", stands=2), foot("N1", "C2", facing="E", stands=6)],
                 contacts=(("S1", "front", "N1", "left"),), daimyo=("C2", "E3"), start="h2h", dice=[6, 6])
    assert s.pend["step"] == "reroll"
    s = act(s, "accept")
    assert s.pend["step"] == "daimyo"


def test_remove_losses_two_hits_per_stand_and_order_by_stands_non_initiative_first():
    s = position([foot("S1", "C2", stands=3, hits=2), foot("N1", "C2", stands=3, hits=3),
                  foot("S2", "B2", stands=2, hits=1), foot("N2", "B2", stands=5, hits=4)],
                 init=0, start="h2h")
    order = [e.data["unit"] for e in s.events if e.kind == "losses"]
    assert order == ["S2", "N1", "S1", "N2"]  # 2 stands, then 3 (North first), then 5
    assert [s.u(u).stands for u in ("S1", "N1", "S2", "N2")] == [2, 2, 2, 3]
    assert all(u.hits == 0 for u in s.units.values())


def test_remove_losses_rout_when_reduced_to_a_single_stand():
    s = position([foot("S1", "C2", stands=2, hits=2), foot("N1", "C2", stands=2, hits=1)], start="h2h")
    assert s.u("S1").status == "routed" and s.tally == [1, 0]
    assert s.u("N1").status == "table" and s.u("N1").stands == 2


def test_remove_losses_single_stand_unit_with_one_hit_does_not_rout():
    s = position([foot("S1", "C2", stands=1, form="open", hits=1, start=1), foot("N1", "C3")], start="h2h")
    assert s.u("S1").status == "table" and s.u("S1").hits == 0


def test_remove_losses_overkill_is_lost_and_routed_contacts_are_broken():
    s = position([foot("S1", "C2", stands=2, hits=9), foot("N1", "C2", facing="S")],
                 contacts=(("S1", "front", "N1", "front"),), start="move")
    s._remove_losses()
    assert s.u("S1").status == "routed" and s.u("S1").stands == 0
    assert s.contacts == [] and s.u("N1").hits == 0


def test_remove_losses_defensive_formation_reduced_to_one_stand_routs():
    """H6: a defensive formation of one stand is invalid (and single-stand: it routs)."""
    s = position([foot("S1", "C2", stands=3, form="defensive", hits=4), foot("N1", "C3")], start="move")
    s._remove_losses()
    assert s.u("S1").status == "routed" and s.tally == [1, 0]


def test_remove_losses_rout_on_invalid_formation():
    """H6: the check after removing stands. With stands abstract no reachable position breaks
    a formation without the single-stand rule, so the position is built by hand: a three-stand
    Foot unit in open order (001:147 allows open order under three stands only)."""
    s = position([foot("S1", "C2", stands=3, form="open", hits=1), foot("N1", "C3")], start="move")
    s._remove_losses()
    assert s.u("S1").status == "routed"
    assert any("no longer in a valid open formation" in e.text for e in s._ev)


def test_hand_to_hand_terrain_advantage_subtracts_two_dice_cumulative():
    """Appendix A, H15: a hill and rough ground: four dice fewer against foot; none against mounted."""
    s = position([foot("S1", "C2", stands=6), foot("N1", "C2"), horse("N2", "C2")],
                 terrain={"C2": ("hill", "rough")}, start="move")
    assert s.attack_dice(s.u("S1"), s.u("N1"), 6) == 2
    assert s.attack_dice(s.u("S1"), s.u("N2"), 6) == 6
    assert s.attack_dice(s.u("S1"), s.u("N1"), 3) == 0


def test_hand_to_hand_green_and_veteran_adjust_hits():
    """Appendix B: Green -1 hit; Veteran +1 when it scores any."""
    s = position([foot("S1", "C2", stands=3, quality="green"), foot("N1", "C2", facing="S", stands=3,
                  quality="veteran")], contacts=(("S1", "front", "N1", "front"),), quality="chosen",
                 start="h2h", dice=[1, 2, 6, 1, 6, 6])
    hits = {e.data["attacker"]: e.data["hits"] for e in s.events if e.kind == "attack-hits"}
    assert hits == {"S1": 1, "N1": 2}
    s = position([foot("S1", "C2", stands=3, quality="veteran"), foot("N1", "C2", facing="S", stands=3,
                  quality="green")], contacts=(("S1", "front", "N1", "front"),), quality="chosen",
                 start="h2h", dice=[6, 6, 6, 1, 6, 6])
    hits = {e.data["attacker"]: e.data["hits"] for e in s.events if e.kind == "attack-hits"}
    assert hits == {"S1": 0, "N1": 0}


def test_remove_losses_owner_may_break_contact_by_the_stands_he_removes():
    """001:465-469: "The player controlling the unit chooses which stands to remove" and
    "Breaking contact with an enemy unit (or units) by removing stands is allowed" (H6): a unit
    that lost stands and is still engaged asks its owner to hold or break contact."""
    s = position([foot("S1", "C2", stands=4, hits=2), foot("N1", "C2", facing="S", hits=1)],
                 contacts=(("S1", "front", "N1", "front"),), init=0, start="move")
    s._remove_losses()
    assert s.pend["step"] == "breakoff" and s.to_move() == 0
    assert s.legal_actions() == ["S1 hold", "S1 break"]
    broken = act(s, "S1 break")
    assert broken.contacts == [] and not broken.engaged("N1")
    assert any("breaks contact with N1" in t for t in texts(broken))
    assert broken.pend["step"] == "move" and broken.to_move() == 0  # then the movement phases
    held = act(s, "S1 hold")
    assert held.contacts == [("S1", "front", "N1", "front")] and held.pend["step"] == "move"


def test_remove_losses_no_break_off_question_without_lost_stands_or_contact():
    # N1 lost no stand (one leftover hit marker); S2 lost a stand but is engaged with nobody
    s = position([foot("S1", "C2", stands=4, hits=1), foot("N1", "C2", facing="S", hits=1),
                  foot("S2", "B2", stands=4, hits=2)],
                 contacts=(("S1", "front", "N1", "front"),), init=0, start="move")
    s._remove_losses()
    assert s.pend["step"] == "move" and s.u("S2").stands == 3


def test_remove_losses_break_off_questions_follow_the_order_losses_were_removed():
    # three-stand N1 removes first (fewer stands), then five-stand S1: North is asked first
    s = position([foot("S1", "C2", stands=5, hits=2), foot("N1", "C2", stands=3, facing="S", hits=2)],
                 contacts=(("S1", "front", "N1", "front"),), init=0, start="move")
    s._remove_losses()
    assert s.to_move() == 1 and s.legal_actions() == ["N1 hold", "N1 break"]
    s = act(s, "N1 hold")
    assert s.to_move() == 0 and s.legal_actions() == ["S1 hold", "S1 break"]
    s = act(s, "S1 break")
    assert s.contacts == [] and s.pend["step"] == "move"
