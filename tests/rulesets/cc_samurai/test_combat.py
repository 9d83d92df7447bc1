"""Rule tests for PHASE 4 BATTLE: ranged combat, close combat, Leader inspiration,
Honor & Fortune, battle back, gaining ground and bonus close combat, terrain
battle-dice maxima and line of sight, and Victory Banners (rulebook, seed 000).

Every roll is forced. Positions are written with ``setup``:

    setup(red="L3 SSp+foot, J3 +mounted", blue="M4 ASp:1", terrain={"forest": ["M4"]})

a piece is ``HEX UNIT[:blocks][+leader]``, or ``HEX +leader`` for a lone Leader.
Red is at the bottom and moves toward higher rows; Blue retreats toward higher rows.
Most combats are fought from L3 (the center section) against a Blue unit at M4.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.cc_samurai.helpers import act, leader, pieces, position, unit

RED, BLUE = 0, 1


# --------------------------------------------------------------------- helpers
def setup(
    red: str = "", blue: str = "", terrain: dict[str, list[str]] | None = None, **kw: Any
) -> Any:
    """A start-of-turn position, Red to play (see the module docstring)."""
    lines = []
    if terrain:
        lines.append("[terrain]")
        for slug, hexes in terrain.items():
            quoted = ", ".join(f'"{h}"' for h in hexes)
            lines.append(f"{slug} = [{quoted}]")
    lines += ["[red]", f"pieces = {pieces(red)}", "[blue]", f"pieces = {pieces(blue)}"]
    return position("\n".join(lines), **kw)


def battle(
    s: Any, *hexes: str, card: str = "order-three-center", moves: tuple[str, ...] = ()
) -> Any:
    """Play ``card``, order ``hexes``, make ``moves`` and go to the battle phase."""
    s = act(s, f"play {card}")
    for h in hexes:
        s = act(s, f"order {h}")
    if decision(s) == "order":
        s = act(s, "done")
    for m in moves:
        s = act(s, m)
    if decision(s) == "move":
        s = act(s, "end-move")
    return s


def decision(s: Any) -> str | None:
    p = s.pending_json()
    return None if p is None else p["decision"]


def step(s: Any) -> str | None:
    p = s.pending_json()
    return None if p is None else p.get("step")


def rolled(s: Any) -> list[int]:
    """How many dice each combat roll of the last action used."""
    return [e.data["dice"] for e in s.events if e.kind == "roll"]


def kinds(s: Any) -> list[str]:
    return [e.kind for e in s.events]


def blocks(s: Any, h: str) -> int:
    u = unit(s, h)
    return 0 if u is None else u.blocks


# ============================================================ CLOSE COMBAT
# "State the base number of battle dice the ordered unit is entitled to in close combat."
@pytest.mark.parametrize(
    ("attacker", "dice"),
    [("SSpC", 4), ("SBC", 3), ("SSp", 4), ("SB", 3), ("ASp", 3), ("AB", 2), ("AA", 2), ("LI", 2)],
)
def test_close_combat_base_dice_by_unit_type(attacker, dice):
    s = battle(setup(red=f"L3 {attacker}", blue="M4 SSp"), "L3")
    s = act(s, "attack L3 M4", dice=" ".join(["c"] * dice))
    assert rolled(s) == [dice]


# "In close combat, the unit attacking scores 1 hit for each dice symbol rolled that
#  matches the targeted unit symbol."
@pytest.mark.parametrize(
    ("target", "faces", "left"),
    [
        ("AB", "c t s", 3),  # circle unit: only the circle hits
        ("LI", "c c f", 2),
        ("ASp", "t c s", 3),  # triangle unit: only the triangle hits
        ("SSp", "s t c", 3),  # square unit: only the square hits
        ("SSpC", "s s h", 2),
    ],
)
def test_close_combat_hits_by_matching_symbol(target, faces, left):
    s = battle(setup(red="L3 ASp", blue=f"M4 {target}"), "L3")
    s = act(s, "attack L3 M4", dice=faces)
    assert blocks(s, "M4") == left


# "A sword rolled will normally score 1 hit in close combat" (with the rank/stature exceptions)
def test_close_combat_swords_hit_between_equal_ranks():
    s = battle(setup(red="L3 ASp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="x x x")
    assert blocks(s, "M4") == 1
    assert "ignore_swords" not in kinds(s)


def test_close_combat_swords_hit_for_bow_units_too():
    # bowmen in close combat are ordinary close combat units: swords hit
    s = battle(setup(red="L3 SB", blue="M4 SSp"), "L3")
    s = act(s, "attack L3 M4", dice="x x x")
    assert blocks(s, "M4") == 1


def test_close_combat_swords_always_hit_a_circle_unit():
    s = battle(setup(red="L3 SSp", blue="M4 AB"), "L3")
    s = act(s, "attack L3 M4", dice="x x x t")
    assert blocks(s, "M4") == 1


def test_close_combat_flag_and_honor_score_no_hit():
    s = battle(setup(red="L3 ASp", blue="M4 SSp"), "L3")
    s = act(s, "attack L3 M4", dice="f h c")
    assert blocks(s, "M4") == 4


# "Because of superior rank, a unit with a square symbol will ignore 1 sword rolled against
#  it when attacked in close combat by a unit with a [triangle] symbol."
def test_close_combat_square_ignores_one_sword_from_triangle_unit():
    s = battle(setup(red="L3 ASp", blue="M4 SSp"), "L3")
    s = act(s, "attack L3 M4", dice="x x x")
    assert blocks(s, "M4") == 2
    assert "ignore_swords" in kinds(s)


# "... will ignore 2 swords rolled against it when attacked in close combat by a unit with a
#  [circle] symbol."
def test_close_combat_square_ignores_two_swords_from_circle_unit():
    s = battle(setup(red="L3 AB", blue="M4 SSp"), "L3")
    s = act(s, "attack L3 M4", dice="x x")
    assert blocks(s, "M4") == 4


def test_close_combat_square_ignores_only_two_swords_from_an_inspired_circle_unit():
    # an inspired circle unit rolls 3 dice: 3 swords, 2 ignored, 1 hit
    s = battle(setup(red="L3 AB+foot", blue="M4 SSp"), "L3")
    s = act(s, "attack L3 M4")
    s = act(s, "inspire", dice="x x x")
    assert rolled(s) == [3]
    assert blocks(s, "M4") == 3


# "a unit with a triangle symbol will ignore 1 sword rolled against it when attacked in close
#  combat by a unit with a [circle] symbol."
def test_close_combat_triangle_ignores_one_sword_from_circle_unit():
    s = battle(setup(red="L3 LI", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="x x")
    assert blocks(s, "M4") == 3


def test_close_combat_triangle_takes_swords_from_square_unit():
    s = battle(setup(red="L3 SSp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="x x x c")
    assert blocks(s, "M4") == 1


# "Because of its superior stature, a cavalry unit will ignore 1 sword rolled against it when
#  attacked in close combat by an infantry unit."
def test_close_combat_superior_stature_cavalry_ignores_one_sword_from_foot():
    s = battle(setup(red="L3 SSp", blue="M4 SSpC"), "L3")
    s = act(s, "attack L3 M4", dice="x x x x")
    assert blocks(s, "M4") == 1


def test_close_combat_no_stature_between_cavalry_units():
    s = battle(setup(red="L3 SSpC", blue="M4 SBC"), "L3")
    s = act(s, "attack L3 M4", dice="x x x c")
    assert blocks(s, "M4") == 1


# "Note: Superior rank and stature are cumulative and will only apply to close combat"
def test_close_combat_rank_and_stature_cumulative_against_triangle():
    s = battle(setup(red="L3 ASp", blue="M4 SSpC"), "L3")
    s = act(s, "attack L3 M4", dice="x x x")
    assert blocks(s, "M4") == 3  # 1 for stature + 1 for rank ignored


def test_close_combat_rank_and_stature_cumulative_against_circle():
    s = battle(setup(red="L3 AB+mounted", blue="M4 SBC"), "L3")
    s = act(s, "attack L3 M4")
    s = act(s, "inspire", dice="x x x")
    assert rolled(s) == [3]
    assert blocks(s, "M4") == 4  # 1 for stature + 2 for rank ignored


def test_close_combat_rank_applies_to_a_battle_back_against_a_square_unit():
    s = battle(setup(red="L3 SSp", blue="M4 AB"), "L3")
    s = act(s, "attack L3 M4", dice="t t s s")
    assert s.legal_actions() == ["battle-back", "no-battle-back"]
    s = act(s, "battle-back", dice="x x")
    assert blocks(s, "L3") == 4


# "Note: Superior rank and stature ... will only apply to close combat, not ranged combat."
@pytest.mark.parametrize("target", ["SSp", "SSpC"])
def test_ranged_combat_no_superior_rank_or_stature(target):
    s = battle(setup(red="L3 AA", blue=f"L5 {target}"), "L3")
    s = act(s, "fire L3 L5", dice="x x")
    assert blocks(s, "L5") == 2


# ============================================================ RANGED COMBAT
# "When counting the range in hexes include the target unit's hex, but not the firing units
#  hex."  SB: range 3;  AA: range 4, "At 4 hexes to target roll 1 die".
def test_ranged_combat_range_counting_bow_reaches_three_hexes():
    s = battle(setup(red="L3 SB", blue="P3 ASp, K6 ASp, P7 ASp"), "L3")
    assert s.legal_actions() == ["fire L3 K6", "fire L3 P3", "end-battle"]


def test_ranged_combat_range_counting_arquebus_reaches_four_hexes():
    s = battle(setup(red="L3 AA", blue="P3 ASp, K6 ASp, P7 ASp"), "L3")
    assert s.legal_actions() == ["fire L3 K6", "fire L3 P3", "fire L3 P7", "end-battle"]


@pytest.mark.parametrize(
    ("firer", "target", "dice"),
    [
        ("SB", "P3", 3),
        ("SB", "K6", 3),
        ("AB", "P3", 2),
        ("AB", "K6", 2),
        ("AA", "P3", 2),
        ("AA", "K6", 2),
        ("AA", "P7", 1),
        ("SBC", "P3", 3),
        ("SBC", "K6", 3),
    ],
)
def test_ranged_combat_dice_by_unit_and_range(firer, target, dice):
    s = battle(setup(red=f"L3 {firer}", blue="P3 ASp, K6 ASp, P7 ASp"), "L3")
    s = act(s, f"fire L3 {target}", dice=" ".join(["c"] * dice))
    assert rolled(s) == [dice]


# "Ranged combat may not be used against an adjacent enemy unit."
def test_ranged_combat_no_fire_at_adjacent_enemy():
    s = battle(setup(red="L3 SB", blue="M4 ASp"), "L3")
    assert s.legal_actions() == ["attack L3 M4", "end-battle"]


# "A unit with ranged weapons adjacent to an enemy unit may not target and fire on another
#  more distant enemy unit."
def test_ranged_combat_adjacent_enemy_unit_forbids_firing_at_another_unit():
    s = battle(setup(red="L3 AA", blue="M4 ASp, P3 ASp, L5 ASp"), "L3")
    assert s.legal_actions() == ["attack L3 M4", "end-battle"]


# "An arquebus unit will also score 1 hit in ranged combat for each sword symbol rolled."
def test_ranged_combat_arquebus_swords_hit():
    s = battle(setup(red="L3 AA", blue="L5 ASp"), "L3")
    s = act(s, "fire L3 L5", dice="x t")
    assert blocks(s, "L5") == 2


# "A bow unit will not score a hit when a sword symbol is rolled in ranged combat."
@pytest.mark.parametrize(("bow", "faces"), [("SB", "x t x"), ("AB", "x t"), ("SBC", "x t x")])
def test_ranged_combat_bow_swords_do_not_hit(bow, faces):
    s = battle(setup(red=f"L3 {bow}", blue="L5 ASp"), "L3")
    s = act(s, "fire L3 L5", dice=faces)
    assert blocks(s, "L5") == 3


def test_ranged_combat_hits_by_matching_symbol():
    s = battle(setup(red="L3 SB", blue="L5 SSp"), "L3")
    s = act(s, "fire L3 L5", dice="s t c")
    assert blocks(s, "L5") == 3


# "Bow units normally do not score a hit in ranged combat, but when attacking a lone leader
#  will score a hit against a lone leader."
def test_ranged_combat_bow_sword_eliminates_a_lone_leader():
    s = battle(setup(red="L3 SB", blue="L5 +foot"), "L3")
    s = act(s, "fire L3 L5", dice="x c c")
    assert leader(s, "L5") is None
    assert s.banners[RED] == 1


# "A Leader inspired unit will add 1 die to a unit's close combat dice roll." -- not in ranged combat
def test_leader_inspiration_not_in_ranged_combat():
    s = battle(setup(red="L3 SB+foot", blue="L5 ASp"), "L3")
    s = act(s, "fire L3 L5", dice="t c c")
    assert rolled(s) == [3]
    assert s.honor[RED] == 5
    assert blocks(s, "L5") == 3


# "A unit with ranged weapons adjacent to an enemy unit may not ... fire"; "A Leader block is
#  not a unit": a lone enemy Leader next to the bowmen does not stop them firing.
def test_ranged_combat_adjacent_lone_enemy_leader_does_not_forbid_fire():
    s = battle(setup(red="L3 SB", blue="M4 +foot, P3 ASp"), "L3")
    assert s.legal_actions() == ["attack L3 M4", "fire L3 P3", "end-battle"]


# "A bow unit, in ranged combat, will collect 1 Honor & Fortune token for each Honor &
#  Fortune symbol rolled."
@pytest.mark.parametrize(
    ("bow", "faces", "gained"), [("SB", "h h t", 2), ("AB", "h t", 1), ("SBC", "h h t", 2)]
)
def test_ranged_combat_bows_collect_honor(bow, faces, gained):
    s = battle(setup(red=f"L3 {bow}", blue="L5 ASp"), "L3")
    s = act(s, "fire L3 L5", dice=faces)
    assert s.honor[RED] == 5 + gained
    assert s.pool == 20 - gained
    assert blocks(s, "L5") == 3


# "An arquebus unit will not collect a Honor & Fortune token when a Honor & Fortune symbol is
#  rolled in ranged combat"
def test_ranged_combat_arquebus_collects_no_honor():
    s = battle(setup(red="L3 AA", blue="L5 ASp"), "L3")
    s = act(s, "fire L3 L5", dice="h h")
    assert s.honor[RED] == 5
    assert s.pool == 20


# "When an SB unit moves and engages in ranged combat, the number of dice rolled is reduced
#  to 1 die."  (likewise AB and SBC)
def test_ranged_combat_bow_fires_full_dice_when_it_did_not_move():
    s = battle(setup(red="L1 SB", blue="M4 ASp"), "L1")
    assert "fire L1 M4" in s.legal_actions()
    s = act(s, "fire L1 M4", dice="c c c")
    assert rolled(s) == [3]


@pytest.mark.parametrize(
    ("bow", "start", "dest", "target"),
    [("SB", "L1", "M2", "M4"), ("AB", "L1", "L3", "L5"), ("SBC", "L1", "L3", "L5")],
)
def test_ranged_combat_bow_rolls_one_die_after_moving(bow, start, dest, target):
    s = battle(
        setup(red=f"{start} {bow}", blue=f"{target} ASp"), start, moves=(f"move {start} {dest}",)
    )
    assert f"fire {dest} {target}" in s.legal_actions()
    s = act(s, f"fire {dest} {target}", dice="t")
    assert rolled(s) == [1]
    assert blocks(s, target) == 3


# "Samurai Bowmen Cavalry, may stay in position, may move 1 or 2 hexes and close combat an adjacent
#  enemy unit with 3 battle dice." -- only ranged dice are reduced after moving.
@pytest.mark.parametrize(
    ("bow", "start", "dest", "dice"),
    [("SB", "K2", "L3", 3), ("SBC", "L1", "L3", 3), ("AB", "L1", "L3", 2)],
)
def test_close_combat_bow_units_keep_full_dice_after_moving(bow, start, dest, dice):
    s = battle(setup(red=f"{start} {bow}", blue="M4 ASp"), start, moves=(f"move {start} {dest}",))
    assert f"attack {dest} M4" in s.legal_actions()
    s = act(s, f"attack {dest} M4", dice=" ".join(["c"] * dice))
    assert rolled(s) == [dice]


# "When an AA unit moves it may not engage in ranged or close combat."
def test_ranged_combat_arquebus_cannot_fire_after_moving():
    s = setup(red="L1 AA, J3 ASp", blue="M6 ASp, I4 ASp")
    s = battle(s, "L1", "J3", moves=("move L1 M2",))
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


def test_close_combat_arquebus_cannot_attack_after_moving():
    s = setup(red="L1 AA, J3 ASp", blue="N3 ASp, I4 ASp")
    s = battle(s, "L1", "J3", moves=("move L1 M2",))
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


# "Ashigaru Infantry Spearmen may move 1 hex and battle, or 2 hexes and not battle."
def test_close_combat_ashigaru_spearmen_moving_two_hexes_cannot_battle():
    s = setup(red="L3 ASp, J3 ASp", blue="N5 ASp, I4 ASp")
    s = battle(s, "L3", "J3", moves=("move L3 O4",))
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


def test_close_combat_ashigaru_spearmen_moving_one_hex_may_battle():
    s = setup(red="L3 ASp, J3 ASp", blue="N5 ASp, I4 ASp")
    s = battle(s, "L3", "J3", moves=("move L3 M4",))
    assert s.legal_actions() == ["attack J3 I4", "attack M4 N5", "end-battle"]


def test_close_combat_ashigaru_bowmen_may_move_two_hexes_and_battle():
    s = setup(red="L3 AB, J3 ASp", blue="N5 ASp, I4 ASp")
    s = battle(s, "L3", "J3", moves=("move L3 O4",))
    assert "attack O4 N5" in s.legal_actions()


# ------------------------------------------------------------ line of sight
# "Obstructions include a unit or Leader, regardless if friend or foe, some terrain features
#  and the half-hexes that border the side of the battlefield."   L3 -> O6 crosses M4 and N5.
def test_ranged_combat_line_of_sight_clear():
    s = battle(setup(red="L3 SB", blue="O6 ASp, L5 ASp"), "L3")
    assert "fire L3 O6" in s.legal_actions()


@pytest.mark.parametrize(
    ("red", "blue"),
    [
        ("L3 SB, N5 ASp", "O6 ASp, L5 ASp"),  # a friendly unit
        ("L3 SB", "O6 ASp, L5 ASp, N5 ASp"),  # an enemy unit
        ("L3 SB, N5 +foot", "O6 ASp, L5 ASp"),  # a friendly lone Leader
        ("L3 SB", "O6 ASp, L5 ASp, N5 +mounted"),  # an enemy lone Leader
    ],
)
def test_ranged_combat_line_of_sight_blocked_by_unit_or_leader(red, blue):
    s = battle(setup(red=red, blue=blue), "L3")
    legal = s.legal_actions()
    assert "fire L3 L5" in legal
    assert "fire L3 O6" not in legal


@pytest.mark.parametrize(
    ("terrain", "blocked"),
    [
        ("forest", True),
        ("building", True),
        ("castle", True),
        ("hill", True),  # a hill between two lower units
        ("field", False),
        ("fence", False),
        ("palisade", False),
        ("ravine", False),
        ("ford", False),
        ("bridge", False),
        ("river", False),
    ],
)
def test_battlefield_terrain_line_of_sight(terrain, blocked):
    s = battle(setup(red="L3 SB", blue="O6 ASp, L5 ASp", terrain={terrain: ["N5"]}), "L3")
    assert "fire L3 L5" in s.legal_actions()
    assert ("fire L3 O6" not in s.legal_actions()) == blocked


# "The terrain in the target unit's hex does not block line of sight."
@pytest.mark.parametrize("terrain", ["forest", "building", "castle", "hill"])
def test_ranged_combat_target_hex_terrain_does_not_block(terrain):
    s = battle(setup(red="L3 SB", blue="O6 ASp", terrain={terrain: ["O6"]}), "L3")
    assert "fire L3 O6" in s.legal_actions()


# "If the imaginary line runs along the edge of 1 or more hexes that contain obstructions,
#  line of sight is not blocked, unless there are obstructions on both sides of the line."
#  L3 -> L5 runs along the edge between K4 and M4.
@pytest.mark.parametrize(
    ("red", "terrain", "blocked"),
    [
        ("L3 SB", {}, False),
        ("L3 SB", {"forest": ["K4"]}, False),
        ("L3 SB, M4 ASp", {}, False),
        ("L3 SB", {"forest": ["K4", "M4"]}, True),
        ("L3 SB, K4 ASp", {"building": ["M4"]}, True),
        ("L3 SB, K4 ASp, M4 AB", {}, True),
    ],
)
def test_ranged_combat_line_along_hex_edges_blocked_only_when_both_sides_obstruct(
    red, terrain, blocked
):
    s = battle(setup(red=red, blue="L5 ASp, P3 ASp", terrain=terrain), "L3")
    legal = s.legal_actions()
    assert "fire L3 P3" in legal
    assert ("fire L3 L5" not in legal) == blocked


def test_ranged_combat_half_hex_is_an_obstruction_on_one_side_of_an_edge():
    # B1 -> B3 runs between the half-hex A2 and C2: clear with C2 empty, blocked with a unit on C2
    open_ = battle(setup(red="B1 SB", blue="B3 ASp, F1 ASp"), "B1", card="order-three-left")
    assert "fire B1 B3" in open_.legal_actions()
    shut = battle(setup(red="B1 SB, C2 ASp", blue="B3 ASp, F1 ASp"), "B1", card="order-three-left")
    assert "fire B1 F1" in shut.legal_actions()
    assert "fire B1 B3" not in shut.legal_actions()


# HILL, Line of Sight
# "A unit on a lower level has line of sight onto the first hill hex and vice versa."
def test_terrain_hill_lower_unit_sees_the_first_hill_hex():
    s = battle(setup(red="L3 SB", blue="O6 ASp", terrain={"hill": ["O6", "P7"]}), "L3")
    assert "fire L3 O6" in s.legal_actions()


def test_terrain_hill_unit_on_first_hill_hex_sees_lower_unit():
    s = battle(setup(red="O6 SB", blue="L3 ASp", terrain={"hill": ["O6", "P7"]}), "O6")
    assert "fire O6 L3" in s.legal_actions()


# "A unit on a lower level does not have line of sight through 1 hill hex onto a second hill
#  hex with a unit and vice versa"
def test_terrain_hill_lower_unit_cannot_see_through_one_hill_hex_onto_a_second():
    s = battle(setup(red="L3 SB", blue="O6 ASp, L5 ASp", terrain={"hill": ["N5", "O6"]}), "L3")
    assert "fire L3 L5" in s.legal_actions()
    assert "fire L3 O6" not in s.legal_actions()


def test_terrain_hill_unit_on_hill_cannot_see_lower_unit_across_another_hill_hex():
    s = battle(setup(red="O6 SB", blue="L3 ASp, Q4 ASp", terrain={"hill": ["N5", "O6"]}), "O6")
    assert "fire O6 Q4" in s.legal_actions()
    assert "fire O6 L3" not in s.legal_actions()


# "A hill hex blocks line of sight to units behind a hill hex."
def test_terrain_hill_blocks_line_of_sight_to_units_behind_it():
    s = battle(setup(red="L3 SB", blue="O6 ASp, L5 ASp", terrain={"hill": ["N5"]}), "L3")
    assert "fire L3 L5" in s.legal_actions()
    assert "fire L3 O6" not in s.legal_actions()


# "Line of sight is not blocked between units on the same hill grouping, adjacent hill hexes
#  all at the same level. These hill hexes are considered to be a plateau."
def test_terrain_hill_plateau_does_not_block_line_of_sight():
    s = battle(setup(red="L3 SB", blue="O6 ASp", terrain={"hill": ["L3", "M4", "N5", "O6"]}), "L3")
    assert "fire L3 O6" in s.legal_actions()


def test_terrain_hill_plateau_still_blocked_by_a_unit_on_it():
    s = battle(
        setup(
            red="L3 SB, N5 ASp", blue="O6 ASp, L5 ASp", terrain={"hill": ["L3", "M4", "N5", "O6"]}
        ),
        "L3",
    )
    assert "fire L3 L5" in s.legal_actions()
    assert "fire L3 O6" not in s.legal_actions()


# "An enemy unit targeted by a ranged combat attack may not battle back."
def test_battle_back_not_after_a_ranged_attack():
    s = battle(setup(red="L3 SB, J3 SB", blue="L5 ASp, H5 ASp"), "L3", "J3")
    s = act(s, "fire L3 L5", dice="t c c")
    assert blocks(s, "L5") == 3
    assert s.to_move() == RED
    assert decision(s) == "battle"
    assert s.legal_actions() == ["fire J3 H5", "fire J3 L5", "end-battle"]


def test_ranged_combat_no_gaining_ground():
    s = battle(setup(red="L3 SB, J3 SB", blue="L5 ASp:1, H5 ASp"), "L3", "J3")
    s = act(s, "fire L3 L5", dice="t c c")
    assert unit(s, "L5") is None
    assert decision(s) == "battle"
    assert "advance" not in s.legal_actions()


# ======================================================= TERRAIN DICE MAXIMA
# Close combat from L3 against M4; the defender is an ASp that the circles cannot hurt.
@pytest.mark.parametrize(
    ("attacker", "terrain", "dice"),
    [
        # FOREST: "A unit attacking an enemy unit on a forest terrain hex battles with a maximum of 2 dice."
        ("SSp", {"forest": ["M4"]}, 2),
        ("SSpC", {"forest": ["M4"]}, 2),
        # "A unit on a forest terrain hex, battles with a maximum of 2 dice."
        ("SSp", {"forest": ["L3"]}, 2),
        ("AB", {"forest": ["L3"]}, 2),
        # HILL: "A unit not on a hill terrain hex attacking an enemy unit on a hill terrain hex, battles
        # in close combat with a maximum of 2 dice."
        ("SSp", {"hill": ["M4"]}, 2),
        ("SSpC", {"hill": ["M4"]}, 2),
        # "A unit on a hill terrain hex, battles in close combat with a maximum of 3 dice."
        ("SSp", {"hill": ["L3", "M4"]}, 3),
        ("SSp", {"hill": ["L3"]}, 3),
        ("ASp", {"hill": ["L3", "M4"]}, 3),
        # BUILDING: "A unit attacking an enemy unit on a building hex battles in close combat with a
        # maximum of 2 dice."
        ("SSp", {"building": ["M4"]}, 2),
        ("SSpC", {"building": ["M4"]}, 2),
        # "An infantry unit on a building hex, battles in close combat with a maximum of 2 dice."
        ("SSp", {"building": ["L3"]}, 2),
        # "A cavalry unit on a building hex, battles with a maximum of 1 die."
        ("SSpC", {"building": ["L3"]}, 1),
        # FIELD: "A cavalry unit attacking an enemy unit on a field terrain hex battles with a maximum of 2 dice."
        ("SSpC", {"field": ["M4"]}, 2),
        # "An infantry unit on a field terrain hex has no battle restrictions."
        ("SSp", {"field": ["M4"]}, 4),
        ("SSp", {"field": ["L3"]}, 4),
        # "A cavalry unit on a field terrain hex battles with a maximum of 2 dice."
        ("SSpC", {"field": ["L3"]}, 2),
        # FENCE / PALISADES: "A unit on a fence or palisade terrain hex, battles with a maximum of 2 dice."
        # "A unit attacking an enemy unit on a fence or palisade terrain hex battles with a maximum of 2 dice."
        ("SSp", {"fence": ["M4"]}, 2),
        ("SSpC", {"palisade": ["M4"]}, 2),
        ("SSp", {"palisade": ["L3"]}, 2),
        # RAVINE: "A unit on a ravine hex battles in close combat with a maximum of 1 die."
        ("SSp", {"ravine": ["L3"]}, 1),
        # "An infantry unit attacking an enemy unit on a ravine hex battles in close combat with a maximum of 2 dice."
        ("SSp", {"ravine": ["M4"]}, 2),
        # "A cavalry unit attacking an enemy unit on a ravine hex battles in close combat with a maximum of 1 die."
        ("SSpC", {"ravine": ["M4"]}, 1),
        # CASTLE: "An infantry unit on a castle hex, battles in close combat with a maximum of 3 dice."
        ("SSp", {"castle": ["L3"]}, 3),
        # "An infantry unit attacking an enemy unit on a castle hex, will battle in close combat with a maximum of 2 dice."
        ("SSp", {"castle": ["M4"]}, 2),
        # FORDABLE RIVER: "A unit on a fordable hex, battles with a maximum of 2 dice."
        ("SSp", {"ford": ["L3"]}, 2),
        ("SSp", {"ford": ["M4"]}, 2),
        # BRIDGE / COUNTRYSIDE: no battle restrictions
        ("SSp", {"bridge": ["M4"]}, 4),
        ("SSpC", {}, 4),
    ],
)
def test_terrain_close_combat_dice_maximum(attacker, terrain, dice):
    s = battle(setup(red=f"L3 {attacker}", blue="M4 ASp", terrain=terrain), "L3")
    s = act(s, "attack L3 M4", dice=" ".join(["c"] * dice))
    assert rolled(s) == [dice]


# Ranged combat from L3 against L5 (2 hexes).
@pytest.mark.parametrize(
    ("firer", "terrain", "dice"),
    [
        # FOREST: "A unit attacking an enemy unit on a forest terrain hex with ranged combat, battles with a maximum of 1 die."
        ("SB", {"forest": ["L5"]}, 1),
        ("AA", {"forest": ["L5"]}, 1),
        # "A unit on a forest terrain hex, battles with a maximum of 2 dice."
        ("SB", {"forest": ["L3"]}, 2),
        # HILL: "A unit's ranged combat is unaffected by a hill."
        ("SB", {"hill": ["L5"]}, 3),
        ("SB", {"hill": ["L3"]}, 3),
        # BUILDING: "An infantry unit on a building hex, battles in ranged combat with a maximum of 1 die."
        ("SB", {"building": ["L3"]}, 1),
        # "A unit attacking an enemy unit on a building hex, battles in ranged combat with a maximum of 1 die."
        ("SB", {"building": ["L5"]}, 1),
        # "A cavalry unit on a building hex, battles with a maximum of 1 die."
        ("SBC", {"building": ["L3"]}, 1),
        # FIELD: infantry unaffected; cavalry on or attacking into a field at most 2
        ("SB", {"field": ["L5"]}, 3),
        ("SBC", {"field": ["L5"]}, 2),
        ("SBC", {"field": ["L3"]}, 2),
        # FENCE / PALISADES: 2 dice on or into
        ("SB", {"fence": ["L5"]}, 2),
        ("SB", {"palisade": ["L3"]}, 2),
        # RAVINE: "A unit on a ravine hex battles with a maximum of 1 die in ranged combat."
        ("SB", {"ravine": ["L3"]}, 1),
        # "A unit attacking an enemy unit on a ravine hex battles in ranged combat with a maximum of 1 die."
        ("SB", {"ravine": ["L5"]}, 1),
        # CASTLE: "An infantry unit on a castle hex, battles in ranged combat with a maximum of 3 dice."
        ("SB", {"castle": ["L3"]}, 3),
        # "A unit attacking an enemy unit on a castle hex, will battle in ranged combat with a maximum of 1 die."
        ("SB", {"castle": ["L5"]}, 1),
        ("SBC", {"castle": ["L5"]}, 1),
        # FORDABLE RIVER: "A unit on a fordable hex, battles with a maximum of 1 die in ranged combat."
        ("SB", {"ford": ["L3"]}, 1),
        # "A unit attacking an enemy unit on a fordable hex battles with a maximum of 2 dice."
        ("SB", {"ford": ["L5"]}, 2),
    ],
)
def test_terrain_ranged_combat_dice_maximum(firer, terrain, dice):
    s = battle(setup(red=f"L3 {firer}", blue="L5 ASp", terrain=terrain), "L3")
    s = act(s, "fire L3 L5", dice=" ".join(["c"] * dice))
    assert rolled(s) == [dice]


def test_terrain_forest_caps_ranged_attack_into_forest_at_one_die():
    s = battle(setup(red="L3 SB", blue="L5 ASp", terrain={"forest": ["L5"]}), "L3")
    s = act(s, "fire L3 L5", dice="t")
    assert rolled(s) == [1]
    assert blocks(s, "L5") == 3


# CASTLE: "A cavalry unit may not attack an enemy unit on a castle hex in close combat."
def test_terrain_castle_cavalry_may_not_attack_into_castle():
    s = setup(red="L3 SSpC, J3 ASp", blue="M4 ASp, I4 ASp", terrain={"castle": ["M4"]})
    s = battle(s, "L3", "J3")
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


# CASTLE: "A cavalry unit on a castle hex may not combat."
def test_terrain_castle_cavalry_on_castle_may_not_combat():
    s = setup(red="L3 SBC, J3 ASp", blue="M4 ASp, L5 ASp, I4 ASp", terrain={"castle": ["L3"]})
    s = battle(s, "L3", "J3")
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


# CASTLE: "A unit on a castle hex will not retreat and will take hit for each flag it cannot ignore."
def test_terrain_castle_defender_takes_hits_for_flags_instead_of_retreating():
    s = battle(setup(red="L3 SSp", blue="M4 ASp", terrain={"castle": ["M4"]}), "L3")
    s = act(s, "attack L3 M4", dice="f f")
    # "An infantry unit on castle hex will ignore 1 flag."
    assert s.legal_actions() == ["ignore 0", "ignore 1"]
    s = act(s, "ignore 1")
    assert unit(s, "M4").blocks == 3


# "A unit entering a building hex may not battle this turn."
@pytest.mark.parametrize("terrain", ["building", "ravine", "castle"])
def test_terrain_entering_hex_forbids_battle(terrain):
    s = setup(red="L3 SSp, J3 ASp", blue="N5 ASp, I4 ASp", terrain={terrain: ["M4"]})
    s = battle(s, "L3", "J3", moves=("move L3 M4",))
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


# "A unit that moves onto a forest terrain hex, may still battle this turn."
@pytest.mark.parametrize("terrain", ["forest", "field", "ford"])
def test_terrain_entering_hex_allows_battle(terrain):
    s = setup(red="L3 SSp, J3 ASp", blue="N5 ASp, I4 ASp", terrain={terrain: ["M4"]})
    s = battle(s, "L3", "J3", moves=("move L3 M4",))
    assert "attack M4 N5" in s.legal_actions()


# FENCE: "A cavalry unit that moves onto a hex with fence or palisade, may not battle."
def test_terrain_fence_cavalry_entering_may_not_battle_infantry_may():
    s = setup(red="L3 SSpC, J3 SSp", blue="N5 ASp, J5 ASp", terrain={"fence": ["M4", "K4"]})
    s = battle(s, "L3", "J3", moves=("move L3 M4", "move J3 K4"))
    assert s.legal_actions() == ["attack K4 J5", "end-battle"]


# "Dice bonuses gained from Command cards, Dragon cards or inspired by a Leader are not subject
#  to this limit and will still add to the combat dice"
def test_terrain_inspiration_adds_on_top_of_the_cap():
    s = battle(setup(red="L3 SSp+foot", blue="M4 ASp", terrain={"forest": ["M4"]}), "L3")
    s = act(s, "attack L3 M4")
    s = act(s, "inspire", dice="t t t")
    assert rolled(s) == [3]
    assert blocks(s, "M4") == 1


def test_terrain_inspiration_allowed_against_a_unit_on_a_building():
    # only a unit standing ON a building may not be inspired
    s = battle(setup(red="L3 SSp+foot", blue="M4 ASp", terrain={"building": ["M4"]}), "L3")
    s = act(s, "attack L3 M4")
    assert s.legal_actions() == ["inspire", "no-inspire"]
    s = act(s, "inspire", dice="t c c")
    assert rolled(s) == [3]


def test_terrain_inspiration_adds_on_top_of_the_one_die_ravine_cap():
    s = battle(setup(red="L3 SSpC+mounted", blue="M4 ASp", terrain={"ravine": ["M4"]}), "L3")
    s = act(s, "attack L3 M4")
    s = act(s, "inspire", dice="t t")
    assert rolled(s) == [2]
    assert blocks(s, "M4") == 2


# ==================================================== LEADER INSPIRED CLOSE COMBAT
# "An infantry Leader (a Leader on foot) must be in the same hex as the unit he is going to inspire."
def test_leader_inspiration_foot_leader_inspires_unit_in_his_hex():
    s = battle(setup(red="L3 SSp+foot", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4")
    assert s.to_move() == RED
    assert s.legal_actions() == ["inspire", "no-inspire"]
    s = act(s, "inspire", dice="t c c c c")
    assert rolled(s) == [5]
    assert blocks(s, "M4") == 3
    # "The Honor & Fortune token spent is returned to the common pool."
    assert s.honor[RED] == 4
    assert s.pool == 21


def test_leader_inspiration_declined_costs_nothing():
    s = battle(setup(red="L3 SSp+foot", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4")
    s = act(s, "no-inspire", dice="t c c c")
    assert rolled(s) == [4]
    assert s.honor[RED] == 5


def test_leader_inspiration_foot_leader_cannot_inspire_adjacent_unit():
    s = battle(setup(red="L3 SSp, J3 +foot", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    # no inspire decision: the roll was made straight away
    assert rolled(s) == [4]
    assert blocks(s, "M4") == 3
    assert s.honor[RED] == 5


# "A cavalry Leader (a mounted Leader) can inspire a unit in his hex and may also inspire
#  friendly units in adjacent hexes."  "A cavalry Leader does not have to be ordered"
@pytest.mark.parametrize(
    "red", ["L3 SSp, J3 +mounted", "L3 SSpC, J3 +mounted", "L3 SSpC+mounted", "L3 ASp+mounted"]
)
def test_leader_inspiration_mounted_leader_inspires_own_and_adjacent_units(red):
    s = battle(setup(red=red, blue="M4 SSp"), "L3")
    s = act(s, "attack L3 M4")
    assert s.legal_actions() == ["inspire", "no-inspire"]
    base = unit(s, "L3")
    n = s.t.units[base.type].close + 1
    s = act(s, "inspire", dice=" ".join(["c"] * n))
    assert rolled(s) == [n]
    assert s.honor[RED] == 4


def test_leader_inspiration_mounted_leader_with_a_unit_inspires_an_adjacent_unit():
    s = battle(setup(red="L3 SSp, J3 ASp+mounted", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4")
    assert s.legal_actions() == ["inspire", "no-inspire"]
    s = act(s, "inspire", dice="t c c c c")
    assert rolled(s) == [5]


# "A maximum of 1 Honor & Fortune may be spent to inspire a unit during a close combat, therefore
#  a maximum of only 1 battle die may be gained when a unit is inspired."
def test_leader_inspiration_at_most_one_die_with_two_leaders():
    s = battle(setup(red="L3 SSp+foot, J3 +mounted", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4")
    assert s.legal_actions() == ["inspire", "no-inspire"]
    s = act(s, "inspire", dice="t c c c c")
    assert rolled(s) == [5]
    assert s.honor[RED] == 4
    assert decision(s) != "combat" or step(s) != "inspire"


def test_leader_inspiration_mounted_leader_two_hexes_away_cannot_inspire():
    s = battle(setup(red="L3 SSp, H3 +mounted", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="c c c c")
    assert rolled(s) == [4]


def test_leader_inspiration_needs_a_token_in_reserve():
    s = battle(setup(red="L3 SSp+foot", blue="M4 ASp", red_honor=0), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    assert rolled(s) == [4]
    assert s.honor[RED] == 0


# "When a player's unit was inspired and rolls the 1 additional dice in its close combat,
#  collect 1 less Honor & Fortune token than the number of Honor & Fortune symbols rolled."
@pytest.mark.parametrize(
    ("faces", "honor"), [("h h h c c", 5 - 1 + 2), ("h c c c c", 4), ("c c c c c", 4)]
)
def test_leader_inspiration_collects_one_token_fewer(faces, honor):
    s = battle(setup(red="L3 SSp+foot", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4")
    s = act(s, "inspire", dice=faces)
    assert s.honor[RED] == honor


# BUILDING: "A Leader may not impact a unit's close combat by inspiring the unit when the unit
#  is on a building hex."
@pytest.mark.parametrize("red", ["L3 SSp+foot", "L3 SSp, J3 +mounted"])
def test_leader_inspiration_not_on_a_building(red):
    s = battle(setup(red=red, blue="M4 ASp", terrain={"building": ["L3"]}), "L3")
    s = act(s, "attack L3 M4", dice="t c")
    assert rolled(s) == [2]
    assert s.honor[RED] == 5


# "A unit may be inspired when it is attacking in close combat and when the unit is battling back."
def test_leader_inspiration_when_battling_back():
    s = battle(setup(red="L3 ASp", blue="M4 SSp+foot"), "L3")
    s = act(s, "attack L3 M4", dice="c c c")
    s = act(s, "battle-back")
    assert s.to_move() == BLUE
    assert s.legal_actions() == ["inspire", "no-inspire"]
    s = act(s, "inspire", dice="t c c c c")
    assert rolled(s) == [5]
    assert s.honor[BLUE] == 4
    assert blocks(s, "L3") == 3


# "A Leader, when alone in a hex may not battle."
def test_leader_alone_may_not_battle():
    s = setup(red="L3 +mounted, J3 ASp", blue="M4 ASp, I4 ASp")
    s = battle(s, "L3", "J3")
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


# ======================================================== HONOR & FORTUNE
# "For each Honor & Fortune symbol rolled in close combat collect 1 Honor & Fortune token"
def test_honor_collected_in_close_combat():
    s = battle(setup(red="L3 ASp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="h h c")
    assert s.honor[RED] == 7
    assert s.pool == 18


# "When any Samurai Cavalry unit engages in close combat against a lower rank unit (blue
#  triangle or green circle), do not collect any Honor & Fortune tokens"
@pytest.mark.parametrize(
    ("cav", "target", "faces", "gained"),
    [
        ("SSpC", "ASp", "h h c c", 0),
        ("SSpC", "AB", "h h t t", 0),
        ("SBC", "LI", "h h t", 0),
        ("SSpC", "SSp", "h h c c", 2),
        ("SBC", "SBC", "h h c", 2),
    ],
)
def test_honor_cavalry_against_lower_rank_collects_none(cav, target, faces, gained):
    s = battle(setup(red=f"L3 {cav}", blue=f"M4 {target}"), "L3")
    s = act(s, "attack L3 M4", dice=faces)
    assert s.honor[RED] == 5 + gained


def test_honor_cavalry_battling_back_against_lower_rank_collects_none():
    s = battle(setup(red="L3 ASp", blue="M4 SSpC"), "L3")
    s = act(s, "attack L3 M4", dice="c c c")
    s = act(s, "battle-back", dice="h h h c")
    assert s.honor[BLUE] == 5


# "When attacking a levy irregular infantry, no attacking unit will collect any Honor & Fortune
#  tokens when Honor & Fortune symbols are rolled."
@pytest.mark.parametrize("attacker", ["ASp", "SSp", "LI"])
def test_honor_attack_on_levies_collects_none(attacker):
    s = battle(setup(red=f"L3 {attacker}", blue="M4 LI"), "L3")
    s = act(s, "attack L3 M4", dice="h h")
    assert s.honor[RED] == 5


def test_honor_levies_collect_when_they_attack():
    s = battle(setup(red="L3 LI", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="h h")
    assert s.honor[RED] == 7


# LI roster: "When an LI unit is attacked in close combat, the attacking unit does not collect
# any Honor & Fortune tokens" -- the exception is for close combat; a bow firing still collects.
def test_honor_bow_firing_at_levies_still_collects():
    s = battle(setup(red="L3 SB", blue="L5 LI"), "L3")
    s = act(s, "fire L3 L5", dice="h h c")
    assert s.honor[RED] == 7


# Close combat table, "Leader alone" column: a sword eliminates him, the Honor & Fortune row is "-".
def test_honor_none_collected_against_a_lone_leader():
    s = battle(setup(red="L3 ASp", blue="M4 +foot"), "L3")
    s = act(s, "attack L3 M4", dice="x h h")
    assert leader(s, "M4") is None
    assert s.banners[RED] == 1
    assert s.honor[RED] == 5


# "should the common Honor & Fortune token pool run out, no further Honor & Fortune tokens can
#  be gained ... Actions that normally grant Honor & Fortune tokens when the common pool is
#  empty will grant nothing for a player."
def test_honor_empty_pool_grants_nothing():
    s = battle(setup(red="L3 ASp", blue="M4 ASp", red_honor=15, blue_honor=15), "L3")
    assert s.pool == 0
    s = act(s, "attack L3 M4", dice="h h h")
    assert s.honor[RED] == 15
    assert s.pool == 0


def test_honor_pool_with_one_token_grants_one():
    s = battle(setup(red="L3 SB", blue="L5 ASp", red_honor=14, blue_honor=15), "L3")
    s = act(s, "fire L3 L5", dice="h h h")
    assert s.honor[RED] == 15
    assert s.pool == 0


# ============================================================= BATTLE BACK
# "the defending enemy unit may battle back against the attacking unit when 1 or more of the
#  defending unit's blocks survived the close combat attack and the defending unit did not
#  retreat from its original hex."
def test_battle_back_after_surviving_in_place():
    s = battle(setup(red="L3 SSp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t t t c")
    assert blocks(s, "M4") == 1
    assert s.to_move() == BLUE
    assert s.legal_actions() == ["battle-back", "no-battle-back"]
    s = act(s, "battle-back", dice="s x c")
    assert rolled(s) == [3]
    assert blocks(s, "L3") == 3  # the square hits; the triangle's sword is ignored by the square


def test_battle_back_declined():
    s = battle(setup(red="L3 SSp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    s = act(s, "no-battle-back")
    assert blocks(s, "L3") == 4
    assert s.to_move() == RED


# "No further battle back is possible after the defending unit's battle back."
def test_battle_back_no_further_battle_back():
    s = battle(setup(red="L3 SSp, J3 SSp", blue="M4 ASp, I4 ASp"), "L3", "J3")
    s = act(s, "attack L3 M4", dice="t c c c")
    s = act(s, "battle-back", dice="s c c")
    assert blocks(s, "L3") == 3
    assert s.to_move() == RED
    assert decision(s) == "battle"
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


# "A defending unit may not battle back when it is forced to retreat out of its original hex"
def test_battle_back_not_after_retreating_out():
    s = battle(setup(red="L3 ASp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="f c c")
    assert s.to_move() == BLUE
    assert s.legal_actions() == ["retreat L5", "retreat N5"]
    s = act(s, "retreat N5")
    assert blocks(s, "N5") == 4
    assert s.honor[BLUE] == 4
    # the attacker may gain ground; the defender gets no battle back
    assert s.to_move() == RED
    assert s.legal_actions() == ["advance", "stay"]
    s = act(s, "stay")
    # the combat is over: Red's turn goes on to its end
    assert s.to_move() == RED
    assert decision(s) == "end"


def test_battle_back_not_after_retreating_even_if_still_adjacent():
    # O4 attacks M4; M4 can only retreat to N5 (river on L5), which is still next to O4
    s = battle(setup(red="O4 ASp", blue="M4 ASp", terrain={"river": ["L5"]}), "O4")
    s = act(s, "attack O4 M4", dice="f c c")
    assert blocks(s, "N5") == 4
    assert s.legal_actions() == ["advance", "stay"]
    s = act(s, "stay")
    assert s.to_move() == RED
    assert decision(s) == "end"


# "A defending unit may still battle back when it is unable to fulfill a required retreat because
#  its retreat path is occupied ... as long as the unit still has 1 or more blocks remaining"
def test_battle_back_still_allowed_when_blocked_retreat_cost_blocks():
    s = battle(setup(red="L3 ASp", blue="M4 ASp", terrain={"river": ["L5", "N5"]}), "L3")
    s = act(s, "attack L3 M4", dice="f c c")
    assert blocks(s, "M4") == 3
    # "A unit that cannot retreat, which results in blocks lost, will not lose Honor & Fortune"
    assert s.honor[BLUE] == 5
    assert s.to_move() == BLUE
    assert s.legal_actions() == ["battle-back", "no-battle-back"]


def test_battle_back_blocked_by_units_behind():
    s = battle(setup(red="L3 ASp, L5 ASp, N5 ASp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="f c c")
    assert blocks(s, "M4") == 3
    assert s.legal_actions() == ["battle-back", "no-battle-back"]


def test_battle_back_none_when_blocked_retreat_eliminates_the_unit():
    s = battle(setup(red="L3 ASp", blue="M4 ASp:1", terrain={"river": ["L5", "N5"]}), "L3")
    s = act(s, "attack L3 M4", dice="f c c")
    assert unit(s, "M4") is None
    assert s.banners[RED] == 1
    assert s.to_move() == RED
    assert s.legal_actions() == ["advance", "stay"]


# "A unit battling back may not gain ground or a bonus close combat attack."
def test_battle_back_unit_may_not_gain_ground():
    s = battle(setup(red="L3 ASp:1, J3 ASp", blue="M4 SSpC+mounted, I4 ASp"), "L3", "J3")
    s = act(s, "attack L3 M4", dice="c c c")
    s = act(s, "battle-back")
    s = act(s, "no-inspire", dice="t c c c")
    assert unit(s, "L3") is None
    assert s.banners[BLUE] == 1
    assert s.to_move() == RED
    assert decision(s) == "battle"
    assert unit(s, "M4").type == "SSpC"


def test_battle_back_may_cause_the_attacker_to_retreat_without_gaining_ground():
    s = battle(setup(red="L3 ASp, J3 ASp", blue="M4 SSpC, I4 ASp"), "L3", "J3")
    s = act(s, "attack L3 M4", dice="c c c")
    s = act(s, "battle-back", dice="f c c c")
    # the Red ASp retreats toward its own baseline (K2 or M2)
    assert s.to_move() == RED
    assert s.legal_actions() == ["retreat K2", "retreat M2"]
    s = act(s, "retreat K2")
    assert unit(s, "K2").type == "ASp"
    # the battle-back unit stays put: no gain ground, Red's battle phase resumes
    assert unit(s, "M4").type == "SSpC"
    assert decision(s) == "battle"
    assert s.legal_actions() == ["attack J3 I4", "end-battle"]


# "During a battle back, the defending unit therefore determines the proper number of dice to
#  roll, including any terrain battle dice reduction"
@pytest.mark.parametrize(
    ("terrain", "dice"),
    [
        ({}, 4),
        ({"forest": ["M4"]}, 2),
        ({"hill": ["L3"]}, 2),
        ({"hill": ["M4"]}, 3),
        ({"forest": ["L3"]}, 2),
    ],
)
def test_battle_back_terrain_dice_maximum(terrain, dice):
    s = battle(setup(red="L3 AB", blue="M4 SSp", terrain=terrain), "L3")
    s = act(s, "attack L3 M4", dice="c c")
    s = act(s, "battle-back", dice=" ".join(["t"] * dice))
    assert rolled(s) == [dice]


# ============================================== GAINING GROUND / BONUS CLOSE COMBAT
# "When an active player's ordered unit attacks in close combat and eliminates or forces the
#  defending enemy unit to retreat from the hex it occupies ... The attacking unit may advance"
def test_gaining_ground_after_eliminating_the_defender():
    s = battle(setup(red="L3 SSp", blue="M4 ASp:1"), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    assert unit(s, "M4") is None
    assert s.to_move() == RED
    assert s.legal_actions() == ["advance", "stay"]
    s = act(s, "advance")
    assert unit(s, "M4").type == "SSp"
    assert unit(s, "L3") is None


def test_gaining_ground_after_the_defender_retreats():
    s = battle(setup(red="L3 ASp", blue="M4 ASp", terrain={"river": ["L5"]}), "L3")
    s = act(s, "attack L3 M4", dice="f c c")
    assert s.legal_actions() == ["advance", "stay"]
    s = act(s, "advance")
    assert unit(s, "M4").type == "ASp"


def test_gaining_ground_is_optional():
    s = battle(setup(red="L3 SSpC", blue="M4 ASp:1, O4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    s = act(s, "stay")
    # "if the unit does not gain ground, the victorious attacking unit forfeits the possible
    #  opportunity to make a bonus close combat"
    assert unit(s, "L3").type == "SSpC"
    assert not any(a.startswith("bonus") for a in s.legal_actions())
    assert decision(s) != "combat"


# "After a successful close combat, a cavalry unit or an infantry unit with an attached Leader
#  that gains ground is eligible to battle in close combat a second time."
def test_bonus_close_combat_cavalry_after_gaining_ground():
    s = battle(setup(red="L3 SSpC", blue="M4 ASp:1, O4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    s = act(s, "advance")
    assert s.to_move() == RED
    assert s.legal_actions() == ["bonus O4", "no-bonus"]
    s = act(s, "bonus O4", dice="t t c c")
    assert rolled(s) == [4]
    assert blocks(s, "O4") == 2


def test_bonus_close_combat_infantry_without_leader_not_allowed():
    s = battle(setup(red="L3 SSp", blue="M4 ASp:1, O4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    s = act(s, "advance")
    assert unit(s, "M4").type == "SSp"
    assert not any(a.startswith("bonus") for a in s.legal_actions())
    assert decision(s) != "combat"


def test_bonus_close_combat_infantry_with_leader_allowed():
    s = battle(setup(red="L3 SSp+foot", blue="M4 ASp:1, O4 ASp"), "L3")
    s = act(s, "attack L3 M4")
    s = act(s, "no-inspire", dice="t c c c")
    s = act(s, "advance")
    assert leader(s, "M4") is not None
    assert s.legal_actions() == ["bonus O4", "no-bonus"]


# "A unit that qualifies for a bonus close combat attack after gaining ground may choose to
#  battle any enemy unit in any adjacent hex. It does not have to battle the enemy unit that
#  just retreated from the hex."
def test_bonus_close_combat_any_adjacent_target():
    s = battle(setup(red="L3 SSpC", blue="M4 ASp, L5 AB"), "L3")
    s = act(s, "attack L3 M4", dice="f c c c")
    # L5 is occupied, so the ASp retreats to N5
    assert blocks(s, "N5") == 4
    s = act(s, "advance")
    assert s.legal_actions() == ["bonus L5", "bonus N5", "no-bonus"]
    s = act(s, "bonus L5", dice="c c c c")
    assert unit(s, "L5") is None


# "A unit that gains ground after a successful combat onto a terrain hex that prohibits combat
#  upon entry cannot make a bonus close combat."
@pytest.mark.parametrize(
    ("attacker", "terrain", "faces"),
    [
        ("SSpC", "building", "t c"),
        ("SSpC", "ravine", "t"),
        ("SSpC", "fence", "t c"),
        ("SSp+foot", "castle", "t c"),
    ],
)
def test_bonus_close_combat_not_onto_terrain_forbidding_battle_on_entry(attacker, terrain, faces):
    s = battle(
        setup(red=f"L3 {attacker}", blue="M4 ASp:1, O4 ASp", terrain={terrain: ["M4"]}), "L3"
    )
    s = act(s, "attack L3 M4", dice=faces)  # forced dice wait for the roll
    if s.legal_actions() == ["inspire", "no-inspire"]:
        s = act(s, "no-inspire")
    assert unit(s, "M4") is None
    assert s.legal_actions() == ["advance", "stay"]
    s = act(s, "advance")
    assert unit(s, "M4").side == RED
    assert not any(a.startswith("bonus") for a in s.legal_actions())
    assert decision(s) != "combat"


@pytest.mark.parametrize("terrain", ["forest", "field", "hill"])
def test_bonus_close_combat_allowed_onto_terrain_that_permits_battle(terrain):
    s = battle(setup(red="L3 SSpC", blue="M4 ASp:1, O4 ASp", terrain={terrain: ["M4"]}), "L3")
    s = act(s, "attack L3 M4", dice="t c")
    assert unit(s, "M4") is None
    s = act(s, "advance")
    assert s.legal_actions() == ["bonus O4", "no-bonus"]


# "When a unit's bonus close combat is successful, it may advance onto the vacated hex, but may
#  not battle again this turn."
def test_bonus_close_combat_no_third_combat():
    s = battle(setup(red="L3 SSpC", blue="M4 ASp:1, O4 ASp:1, P5 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    s = act(s, "advance")
    s = act(s, "bonus O4", dice="t c c c")
    assert unit(s, "O4") is None
    assert s.banners[RED] == 2
    assert s.legal_actions() == ["advance", "stay"]
    s = act(s, "advance")
    assert unit(s, "O4").type == "SSpC"
    assert not any(a.startswith("bonus") for a in s.legal_actions())
    assert not any(a.startswith("attack O4") for a in s.legal_actions())
    assert decision(s) != "combat"


def test_bonus_close_combat_defender_may_battle_back():
    s = battle(setup(red="L3 SSpC", blue="M4 ASp:1, O4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    s = act(s, "advance")
    s = act(s, "bonus O4", dice="t c c c")
    assert s.to_move() == BLUE
    assert s.legal_actions() == ["battle-back", "no-battle-back"]


# =========================================================== VICTORY BANNERS
# "A Victory Banner is gained for each enemy Army Commander, Leader and enemy unit eliminated."
def test_banner_for_a_unit_eliminated_in_close_combat():
    s = battle(setup(red="L3 SSp", blue="M4 ASp:2"), "L3")
    s = act(s, "attack L3 M4", dice="t t c c")
    assert unit(s, "M4") is None
    assert s.banners == [1, 0]
    assert "banner" in kinds(s)
    assert s.result() is None


def test_banner_for_a_unit_eliminated_in_ranged_combat():
    s = battle(setup(red="L3 AA", blue="L5 SSp:1"), "L3")
    s = act(s, "fire L3 L5", dice="x c")
    assert unit(s, "L5") is None
    assert s.banners == [1, 0]


def test_banner_only_for_the_last_block():
    s = battle(setup(red="L3 SSp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t t t c")
    assert s.banners == [0, 0]


# "Victory is decided the instant the last banner required is gained."
def test_banner_instant_win_at_the_target():
    s = battle(setup(red="L3 SSpC", blue="M4 ASp:1, O4 ASp", victory=1), "L3")
    s = act(s, "attack L3 M4", dice="t c c c")
    assert s.result() is not None
    assert s.result().winner == RED
    assert s.legal_actions() == []
    assert s.to_move() is None


# "This means that a game might even end on a successful battle back, with the victory going to
#  the active player's opponent."
def test_banner_instant_win_on_a_battle_back():
    s = battle(setup(red="L3 ASp:1", blue="M4 SSp", victory=1), "L3")
    s = act(s, "attack L3 M4", dice="c c c")
    s = act(s, "battle-back", dice="t c c c")
    assert s.banners == [0, 1]
    assert s.result() is not None
    assert s.result().winner == BLUE
    assert s.legal_actions() == []
