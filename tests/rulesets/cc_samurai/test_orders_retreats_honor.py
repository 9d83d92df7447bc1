"""Rule tests: orders, movement, Leaders, retreats, Honor & Fortune, end of turn and victory.

Each test is named after the rulebook section (seed 000) it checks. Red is at the
bottom (baseline row 1, retreats toward lower rows), Blue at the top (baseline row
11, retreats toward higher rows). Every die is forced.
"""

from __future__ import annotations

from typing import Any

from kassen.engine.dice import parse_faces
from kassen.engine.events import Event
from kassen.rulesets.cc_samurai.state import POOL_TOTAL, CCState
from tests.rulesets.cc_samurai.helpers import act, leader, position, run, unit

RED, BLUE = 0, 1


# ---------------------------------------------------------------- helpers
def of_kind(evs: list[Event], kind: str) -> list[Event]:
    return [e for e in evs if e.kind == kind]


def card_for(hexname: str, side: int = RED) -> str:
    """An Order Three card of the section the hex is in (for the bottom player unless side is Blue)."""
    x = ord(hexname[0].upper()) - ord("A")
    sec = "left" if x < 8 else ("center" if x <= 16 else "right")
    if side == BLUE:
        sec = {"left": "right", "right": "left", "center": "center"}[sec]
    return f"order-three-{sec}"


def start_battle(
    s: CCState, att: str, tgt: str, dice: str, verb: str = "attack", card: str | None = None, side: int = RED
) -> tuple[CCState, list[Event]]:
    """Play a card, order ``att`` alone, skip movement and battle ``tgt`` with forced ``dice``."""
    s = act(s, f"play {card or card_for(att, side)}", f"order {att}")
    if "done" in s.legal_actions():
        s = act(s, "done")
    if "end-move" in s.legal_actions():
        s = act(s, "end-move")
    s = s.with_forced_dice(parse_faces(dice))
    s, evs = run(s, f"{verb} {att} {tgt}")
    if s.legal_actions() == ["inspire", "no-inspire"]:
        s, more = run(s, "no-inspire")
        evs += more
    return s, evs


def honor_total(s: CCState) -> int:
    return s.honor[RED] + s.honor[BLUE] + s.pool


def blue_target(piece: str, extra: str = "", red_extra: str = "", terrain: str = "") -> str:
    """A Red Ashigaru Spearmen unit at G6 facing a Blue piece at F7."""
    return f"""
        {terrain}
        [red]
        pieces = [{{ at = "G6", unit = "ASp" }}{red_extra}]
        [blue]
        pieces = [{piece}{extra}]
    """


# ============================================ PHASE 2 ORDER UNITS AND LEADERS
def test_order_phase_only_one_order_per_unit_or_leader():
    # "Only 1 order may be given to each unit or Leader during the course of a single game turn."
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp" }, { at = "H3", unit = "ASp" }, { at = "D5", leader = "foot" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order F3")
    assert "order F3" not in s.legal_actions()
    assert {"order H3", "order D5"} <= set(s.legal_actions())
    s = act(s, "order D5")
    assert "order D5" not in s.legal_actions()
    assert s.legal_actions() == ["order H3", "done"]


def test_order_phase_orders_beyond_available_units_in_the_section_are_lost():
    # "If a section Command card allows you to issue more orders in a given section ... than a
    # player currently has units and/or Leaders in that section, those additional orders are lost."
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp" }, { at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left")
    assert s.legal_actions() == ["order F3", "done"]  # the center unit L3 cannot take a left order
    s = act(s, "order F3")
    # the two remaining orders are lost: the order phase is over by itself
    assert "end-move" in s.legal_actions()
    assert not any(a.startswith("order") for a in s.legal_actions())
    assert not any(a.startswith("move L3") for a in s.legal_actions())


def test_order_phase_hex_on_dotted_section_line_is_orderable_from_either_section():
    # "Units and lone Leaders on a hex with a dotted line running through it may be ordered from
    # either section."  I2 lies on the left/center line, Q2 on the center/right line.
    body = """
        [red]
        pieces = [{ at = "I2", unit = "ASp" }, { at = "Q2", unit = "ASp" }, { at = "H3", unit = "ASp" },
                  { at = "J3", unit = "ASp" }, { at = "R3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """
    hand = ["order-one-left", "order-one-center", "order-one-right", "order-two-left", "order-two-right"]
    s = position(body, red_hand=hand)
    assert act(s, "play order-one-left").legal_actions() == ["order H3", "order I2", "done"]
    assert act(s, "play order-one-center").legal_actions() == ["order I2", "order J3", "order Q2", "done"]
    assert act(s, "play order-one-right").legal_actions() == ["order Q2", "order R3", "done"]


def test_order_phase_top_player_sections_are_mirrored_and_line_hexes_belong_to_both():
    # Blue sits at the top: his left is the high-x side. I10 is on the dotted line between
    # (his) right and center.
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "I10", unit = "ASp" }, { at = "D9", unit = "ASp" }, { at = "T9", unit = "ASp" }]
    """, active="blue", blue_hand=["order-one-left", "order-one-right", "order-one-center", "order-two-left", "order-two-right"])
    assert act(s, "play order-one-right").legal_actions() == ["order D9", "order I10", "done"]
    assert act(s, "play order-one-left").legal_actions() == ["order T9", "done"]
    assert act(s, "play order-one-center").legal_actions() == ["order I10", "done"]


def test_order_phase_no_unit_can_be_ordered_goes_straight_to_the_draw_phase():
    # PHASE 1: "If a player is ever in a situation where no unit can be ordered by the Command card
    # just played, disregard phases 2 through 4 of the game turn and go directly to the draw phase."
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """)
    s = act(s, "play order-three-right")
    assert s.to_move() == RED and s.legal_actions() == ["draw-dragon", "take-honor"]
    assert len(s.hands[RED]) == 5


def test_order_leader_and_his_unit_together_cost_a_single_order_and_move_together():
    # "A Leader and the unit he is leading can be ordered together as a single unit at the cost
    # of a single order." / "A Leader in the same hex as a friendly unit ordered to move must move
    # with the unit ..."
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp", leader = "foot" }, { at = "H3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """, red_hand=["order-one-left", "order-two-left", "order-three-left", "order-two-center", "order-one-center"])
    s = act(s, "play order-one-left", "order F3")
    # one order spent, the move phase begins; only the unit moves (carrying the Leader)
    assert not any("leader" in a for a in s.legal_actions())
    s = act(s, "move F3 E4")
    assert unit(s, "E4") is not None and leader(s, "E4") is not None
    assert leader(s, "F3") is None


def test_order_leader_split_from_unit_costs_one_order_and_unit_is_not_ordered():
    # "A Leader can be ordered to split from the unit he is leading at the cost of a single order.
    # The unit is not ordered when a Leader is given an order and splits from a unit."
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp", leader = "foot" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """, red_hand=["order-one-left", "order-two-left", "order-three-left", "order-two-center", "order-one-center"])
    s = act(s, "play order-one-left")
    assert s.legal_actions() == ["order F3", "order F3 leader", "done"]
    s = act(s, "order F3 leader")
    moves = [a for a in s.legal_actions() if a != "end-move"]
    assert moves and all(a.startswith("move F3 leader ") for a in moves)
    s = act(s, "move F3 leader D5")
    assert leader(s, "D5") is not None and unit(s, "D5") is None
    assert unit(s, "F3") is not None and leader(s, "F3") is None


def test_order_leader_and_his_unit_separately_cost_two_orders():
    # "For the cost of 2 orders a Leader can be ordered to split from the unit he is leading and
    # the unit can also be ordered separately."
    body = """
        [red]
        pieces = [{ at = "F3", unit = "ASp", leader = "foot" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """
    hand = ["order-one-left", "order-two-left", "order-three-left", "order-two-center", "order-one-center"]
    one = act(position(body, red_hand=hand), "play order-one-left", "order F3 leader")
    assert "order F3" not in one.legal_actions()  # only one order: the unit stays unordered
    s = act(position(body, red_hand=hand), "play order-two-left", "order F3 leader", "order F3")
    assert "move F3 leader D5" in s.legal_actions() and "move F3 G4" in s.legal_actions()
    s = act(s, "move F3 leader D5", "move F3 G4")
    assert leader(s, "D5") is not None and unit(s, "D5") is None
    assert unit(s, "G4") is not None and leader(s, "G4") is None


def test_order_leader_who_moves_and_joins_a_unit_may_not_move_again_with_it():
    # "A Leader may not move, join a unit, and move again with the unit he just joined."
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp", leader = "foot" }, { at = "H3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """, red_hand=["order-two-left", "order-one-left", "order-three-left", "order-two-center", "order-one-center"])
    s = act(s, "play order-two-left", "order F3 leader", "order H3", "move F3 leader H3")
    assert leader(s, "H3") is not None
    s = act(s, "move H3 H5")
    assert unit(s, "H5") is not None and leader(s, "H5") is None
    assert leader(s, "H3") is not None  # he stays behind


# ===================================================== PHASE 3 MOVEMENT
def test_leader_movement_foot_leader_may_not_join_cavalry_but_may_move_through_it():
    # "An infantry Leader may not move onto a hex with a friendly cavalry unit and stop in the hex"
    # "A Leader may move onto and through a hex occupied by a friendly unit."
    # "A cavalry Leader may move onto a hex with any friendly unit (infantry or cavalry)"
    s = position("""
        [red]
        pieces = [{ at = "F3", leader = "foot" }, { at = "H3", unit = "SSpC" }, { at = "D5", leader = "mounted" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order F3", "order D5", "done")
    legal = s.legal_actions()
    assert "move F3 H3" not in legal
    assert "move F3 J3" in legal  # through the cavalry hex, the only 2-hex path
    assert "move D5 H3" in legal
    s = act(s, "move D5 H3")
    assert leader(s, "H3").kind == "mounted"


def test_unit_movement_cavalry_may_not_join_a_lone_foot_leader_but_infantry_may():
    # "A cavalry unit may not move onto a hex containing a friendly lone infantry Leader."
    # "An infantry unit may move onto a hex containing a friendly lone Leader ... and join the Leader."
    # "A cavalry unit may move onto a hex containing a friendly lone cavalry Leader"
    s = position("""
        [red]
        pieces = [{ at = "D3", unit = "SSpC" }, { at = "E4", leader = "foot" }, { at = "C4", leader = "mounted" },
                  { at = "F3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order D3", "order F3", "done")
    legal = s.legal_actions()
    assert "move D3 E4" not in legal
    assert "move D3 C4" in legal
    assert "move F3 E4" in legal
    s = act(s, "move F3 E4")
    assert unit(s, "E4").type == "ASp" and leader(s, "E4").kind == "foot"


def test_unit_movement_unit_joining_a_lone_leader_must_stop():
    # "Upon moving onto the lone Leader's hex, the infantry unit must stop and join the Leader."
    # From H3, F5 (two hexes away) can only be reached through G4, where the Leader stands.
    s = position("""
        [red]
        pieces = [{ at = "H3", unit = "ASp" }, { at = "G4", leader = "foot" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order H3", "done")
    assert "move H3 G4" in s.legal_actions()
    assert "move H3 F5" not in s.legal_actions()


def test_leader_movement_lone_foot_leader_two_hexes_mounted_leader_three():
    # "An ordered foot (infantry) Leader, when not with a unit, may move up to 2 hexes on his own."
    # "An ordered mounted (cavalry) Leader, when not with a unit, may move up to 3 hexes on his own."
    for kind, reach in (("foot", 2), ("mounted", 3)):
        s = position(f"""
            [red]
            pieces = [{{ at = "L5", leader = "{kind}" }}]
            [blue]
            pieces = [{{ at = "X11", unit = "ASp" }}]
        """)
        s = act(s, "play order-three-center", "order L5")
        start = s.b.parse("L5")
        expected = {
            f"move L5 {s.b.name(h)}" for h in s.b
            if 1 <= s.b.distance(start, h) <= reach and not s.b.is_half(h)
        }
        assert set(s.legal_actions()) - {"end-move"} == expected


def test_leader_movement_through_but_not_ending_on_friendly_leaders():
    # "A Leader may move onto and through a hex occupied by a friendly unit with a Leader or a
    # friendly Leader alone in a hex but cannot end its movement in that hex."
    # "Only 1 Leader may occupy a hex at the end of movement."
    s = position("""
        [red]
        pieces = [{ at = "F3", leader = "foot" }, { at = "H3", unit = "ASp", leader = "foot" },
                  { at = "D3", leader = "mounted" }]
        [blue]
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order F3", "done")
    legal = s.legal_actions()
    assert "move F3 H3" not in legal and "move F3 D3" not in legal
    assert "move F3 J3" in legal and "move F3 B3" in legal  # only through H3 / D3


def test_leader_movement_never_through_or_onto_enemypieces():
    # "A Leader may not stop in or move through a hex with an enemy unit or an enemy Leader."
    # From F3, J3 is two hexes away only through H3.
    s = position("""
        [red]
        pieces = [{ at = "F3", leader = "foot" }]
        [blue]
        pieces = [{ at = "H3", unit = "ASp" }, { at = "D3", leader = "foot" }, { at = "X11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order F3")
    for dest in ("H3", "J3", "D3", "B3"):
        assert f"move F3 {dest}" not in s.legal_actions()
    assert "move F3 G4" in s.legal_actions()


def test_leader_movement_never_onto_a_half_hex():
    # "A Leader may never move onto any of the half-hexes that border the side of the battlefield."
    s = position("""
        [red]
        pieces = [{ at = "B5", leader = "foot" }, { at = "B3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order B5", "order B3")
    legal = s.legal_actions()
    assert "move B5 A4" not in legal and "move B5 A6" not in legal
    assert "move B5 C4" in legal
    assert "move B3 A4" in legal  # units are not barred from half-hexes


def test_leader_move_off_the_battlefield_from_own_baseline_costs_three_honor_and_gives_no_banner():
    # "an unattached lone Leader may move off a baseline hex provided he has enough movement. The
    # movement from a baseline hex off the battlefield is considered 1 hex movement ... 3 Honor and
    # Fortune tokens are lost" / "does not give the opponent a Victory Banner"
    s = position("""
        [red]
        pieces = [{ at = "E2", leader = "foot" }, { at = "L3", leader = "foot" }]
        [blue]
        pieces = [{ at = "X11", unit = "ASp" }]
    """, red_honor=5, red_hand=["order-one-left", "order-one-center", "order-two-left", "order-two-center", "order-three-left"])
    far = act(s, "play order-one-center", "order L3")
    assert "move L3 off" not in far.legal_actions()  # row 3: 2 hexes to the baseline plus 1 off = 3 > 2
    s = act(s, "play order-one-left", "order E2")
    assert "move E2 off" in s.legal_actions()  # E2 -> D1/F1 (1) -> off (2)
    s = act(s, "move E2 off")
    assert leader(s, "E2") is None and not any(ld.side == RED and s.b.row(h) == 0 for h, ld in s.leaders.items())
    assert s.honor[RED] == 2
    assert s.banners[BLUE] == 0
    assert honor_total(s) == POOL_TOTAL


def test_leader_move_off_the_battlefield_only_from_his_own_baseline():
    # "A Leader ordered to move off its army baseline hexes" -- not the enemy's baseline.
    s = position("""
        [red]
        pieces = [{ at = "F11", leader = "mounted" }]
        [blue]
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order F11")
    assert "move F11 off" not in s.legal_actions()


def test_unit_movement_may_not_move_through_friendly_or_enemy_units():
    # "the unit may not move onto or through a hex occupied by friendly units or enemy units and Leaders."
    free = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    free = act(free, "play order-three-left", "order F3")
    assert "move F3 F5" in free.legal_actions()
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "ASp" }, { at = "E4", unit = "ASp" }]
        [blue]
        pieces = [{ at = "G4", leader = "foot" }]
    """)
    s = act(s, "play order-three-left", "order F3", "done")
    legal = s.legal_actions()
    # F5, D5 and H5 can only be reached through E4 (friendly unit) or G4 (enemy Leader)
    for dest in ("F5", "D5", "H5", "E4", "G4"):
        assert f"move F3 {dest}" not in legal
    assert "move F3 E2" in legal


def test_terrain_forest_stops_movement():
    # Forest: a unit entering must stop (Battlefield Terrain; "Some terrain features impact movement").
    s = position("""
        [terrain]
        forest = ["E4", "G4"]
        [red]
        pieces = [{ at = "F3", unit = "ASp" }, { at = "L5", leader = "foot" }]
        [blue]
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order F3")
    assert "move F3 E4" in s.legal_actions() and "move F3 G4" in s.legal_actions()
    assert "move F3 F5" not in s.legal_actions()


def test_terrain_river_is_impassable():
    s = position("""
        [terrain]
        river = ["E4", "G4"]
        [red]
        pieces = [{ at = "F3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order F3")
    for dest in ("E4", "G4", "F5"):
        assert f"move F3 {dest}" not in s.legal_actions()


def test_leader_movement_lone_leader_obeys_the_same_terrain_limitations():
    # "A Leader, moving on his own, is subject to the same movement rules and terrain limitations"
    s = position("""
        [terrain]
        forest = ["E4", "G4"]
        [red]
        pieces = [{ at = "F3", leader = "foot" }]
        [blue]
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-left", "order F3")
    assert "move F3 E4" in s.legal_actions()
    assert "move F3 F5" not in s.legal_actions()


# ================================================= LEADER CASUALTY CHECK
RANGED_AT_LEADER = """
    [red]
    pieces = [{ at = "F3", unit = "SB" }]
    [blue]
    pieces = [{ at = "F5", unit = "ASp", leader = "foot"%s }]
"""


def test_leader_casualty_check_ranged_unit_survives_two_dice_need_two_swords():
    # "if the unit loses 1 or more blocks but the unit is not eliminated, the Leader Casualty Check
    # is made with 2 battle dice. To hit and eliminate the Leader, 2 sword symbols must be rolled."
    s, evs = start_battle(position(RANGED_AT_LEADER % ""), "F3", "F5", "t c c x h", verb="fire")
    check = of_kind(evs, "casualty_check")
    assert len(check) == 1 and len(check[0].data["faces"]) == 2
    assert unit(s, "F5").blocks == 3 and leader(s, "F5") is not None
    assert s.banners[RED] == 0
    # HONOR & FORTUNE: "Rolling an Honor & Fortune symbol during ... a Leader Casualty Check ...
    # will not gain Honor & Fortune tokens for a player."
    assert s.honor == [5, 5]
    s, evs = start_battle(position(RANGED_AT_LEADER % ""), "F3", "F5", "t c c x x", verb="fire")
    assert unit(s, "F5").blocks == 3 and leader(s, "F5") is None
    assert s.banners[RED] == 1


def test_leader_casualty_check_ranged_unit_eliminated_one_die():
    # "When a Leader is with a unit and all the blocks in the unit are eliminated during a ranged
    # combat attack ... the Leader Casualty Check is made with 1 battle die."
    s, evs = start_battle(position(RANGED_AT_LEADER % ", blocks = 1"), "F3", "F5", "t c c x", verb="fire")
    check = of_kind(evs, "casualty_check")
    assert len(check) == 1 and len(check[0].data["faces"]) == 1
    assert unit(s, "F5") is None and leader(s, "F5") is None
    assert s.banners[RED] == 2  # the unit and the Leader
    # not hit: he must retreat 1, 2 or 3 hexes, or commit seppuku
    s, evs = start_battle(position(RANGED_AT_LEADER % ", blocks = 1"), "F3", "F5", "t c c c", verb="fire")
    assert leader(s, "F5") is not None
    assert s.to_move() == BLUE and "seppuku" in s.legal_actions()
    assert "retreat E6" in s.legal_actions()


def test_leader_casualty_check_close_combat_one_die():
    # "During a close combat attack, when a Leader is with a unit and the unit loses 1 or more
    # blocks and the unit is not eliminated, the Leader Casualty Check is made with ONE battle die."
    s = position(blue_target('{ at = "F7", unit = "ASp", leader = "foot" }'))
    s, evs = start_battle(s, "G6", "F7", "t c c x")
    check = of_kind(evs, "casualty_check")
    assert len(check) == 1 and len(check[0].data["faces"]) == 1
    assert unit(s, "F7").blocks == 3 and leader(s, "F7") is None
    assert s.banners[RED] == 1


def test_leader_casualty_check_close_combat_unit_eliminated_flags_no_effect_leader_retreats_then_gain_ground():
    # "When a unit with an attached leader loses its last block during a close combat attack, the
    # lone leader remaining in the hex makes a Leader Casualty Check with one battle die." "When a
    # unit is eliminated, any flags rolled during the combat will have no effect on the lone Leader."
    # "After a Leader retreats ... the unit that was attacking ... may gain ground onto the vacated hex."
    s = position(blue_target('{ at = "F7", unit = "ASp", leader = "foot", blocks = 1 }'))
    s, evs = start_battle(s, "G6", "F7", "t f f c")
    check = of_kind(evs, "casualty_check")
    assert len(check) == 1 and len(check[0].data["faces"]) == 1
    assert unit(s, "F7") is None and leader(s, "F7") is not None
    assert s.to_move() == BLUE and "seppuku" in s.legal_actions()
    assert {"retreat E8", "retreat F9", "retreat I10"} <= set(s.legal_actions())  # 1 to 3 hexes, flags aside
    s = act(s, "retreat F9")
    assert s.honor[BLUE] == 2
    assert s.to_move() == RED and s.legal_actions() == ["advance", "stay"]
    s = act(s, "advance")
    assert unit(s, "F7") is not None and unit(s, "F7").side == RED


def test_leader_casualty_check_not_made_for_blocks_lost_to_a_blocked_retreat():
    # Note 1: "When a unit with a Leader loses 1 or more blocks because it fails to complete a
    # retreat movement ... these situations will not cause a Leader Casualty Check."
    s = position("""
        [red]
        pieces = [{ at = "G10", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F11", unit = "ASp", leader = "foot" }]
    """)
    s, evs = start_battle(s, "G10", "F11", "f f c x x")
    assert s.legal_actions() == ["ignore 0", "ignore 1"]
    s, more = run(s, "ignore 0")
    evs += more
    assert unit(s, "F11").blocks == 2  # two retreat hexes at the baseline: two blocks
    assert not of_kind(evs, "casualty_check")
    assert leader(s, "F11") is not None
    assert s.forced == ["swords", "swords"]  # no die was rolled for the Leader
    # BATTLE BACK: "A defending unit may still battle back when it is unable to fulfill a required retreat"
    assert s.to_move() == BLUE and s.legal_actions() == ["battle-back", "no-battle-back"]


def test_leader_casualty_check_not_made_for_blocks_lost_to_lack_of_honor():
    # Note 1 (Leader Casualty Check) and Lack of Honor Note 1: "When a unit with a Leader loses a
    # block, there is no Leader Casualty Check."
    s = position("""
        [red]
        pieces = [{ at = "G8", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp", leader = "foot" }]
    """, blue_honor=0)
    s, evs = start_battle(s, "G8", "F9", "f c c t t t c c h")
    s, more = run(s, "ignore 0", "retreat E10")
    evs += more
    loh = of_kind(evs, "lack_of_honor")
    assert len(loh) == 1 and len(loh[0].data["faces"]) == 6  # 1 hex x (1 + 1 for the Leader) = 2 short
    assert unit(s, "E10").blocks == 1
    assert leader(s, "E10") is not None
    assert not of_kind(evs, "casualty_check")


# ============================================ Combat Against a Leader Alone in a Hex
def test_combat_against_lone_leader_any_sword_eliminates_him():
    # "When one or more sword symbols are rolled, the Leader is hit and eliminated."
    s = position(blue_target('{ at = "F7", leader = "foot" }'))
    s, evs = start_battle(s, "G6", "F7", "c x t")
    assert leader(s, "F7") is None
    assert s.banners[RED] == 1
    assert not of_kind(evs, "casualty_check")
    # "the unit that was attacking the lone Leader in close combat may gain ground"
    assert s.legal_actions() == ["advance", "stay"]


def test_combat_against_lone_leader_close_combat_collects_no_honor_ruling_r26():
    """R26: the close combat reference table gives "-" for Honor & Fortune against a lone Leader
    (while its unit columns say "Collect 1 H&F Token"); the table wins over the general text."""
    s = position(blue_target('{ at = "F7", leader = "foot" }'))
    s, _ = start_battle(s, "G6", "F7", "h h c")
    assert s.honor[RED] == 5


def test_combat_against_lone_leader_bow_collects_no_honor_in_ranged_combat_ruling_r26():
    """R26: the ranged combat reference table gives "-" for Honor & Fortune against a lone Leader."""
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "SB" }]
        [blue]
        pieces = [{ at = "F5", leader = "foot" }]
    """)
    s, _ = start_battle(s, "F3", "F5", "h c c", verb="fire")
    assert s.honor[RED] == 5


def test_combat_against_lone_leader_bow_scores_a_hit_with_a_sword_in_ranged_combat():
    # "Bow units normally do not score a hit in ranged combat, but when attacking a lone leader
    # will score a hit against a lone leader."
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "SB" }]
        [blue]
        pieces = [{ at = "F5", leader = "foot" }]
    """)
    s, _ = start_battle(s, "F3", "F5", "c x c", verb="fire")
    assert leader(s, "F5") is None
    assert s.banners[RED] == 1


def test_combat_against_lone_leader_flags_have_no_effect_he_retreats_one_to_three_hexes_or_seppuku():
    # "Any flags rolled during the combat will have no effect on the lone Leader. Instead the lone
    # Leader must retreat 1, 2, or 3 hexes, or commit seppuku."
    s = position(blue_target('{ at = "F7", leader = "foot" }'))
    s, _ = start_battle(s, "G6", "F7", "f f c")
    assert s.to_move() == BLUE
    assert set(s.legal_actions()) == {
        "retreat E8", "retreat G8", "retreat D9", "retreat F9", "retreat H9",
        "retreat C10", "retreat E10", "retreat G10", "retreat I10", "seppuku",
    }
    s = act(s, "retreat G10")
    assert leader(s, "G10") is not None and leader(s, "F7") is None
    assert s.legal_actions() == ["advance", "stay"]  # Red may gain ground


def test_leader_retreat_may_pass_friendly_units_but_not_enemies():
    # "A Leader may retreat through a hex that contains a friendly unit ... A retreating Leader may
    # not retreat through a hex with enemy unit or enemy Leader." "An infantry Leader may retreat
    # onto a hex with a friendly infantry unit that does not have a Leader and ... join the unit."
    s = position(blue_target('{ at = "F7", leader = "foot" }',
                             extra=', { at = "E8", unit = "ASp" }, { at = "F9", unit = "SSpC" }',
                             red_extra=', { at = "G8", unit = "ASp" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    assert set(s.legal_actions()) == {
        "retreat E8", "retreat D9", "retreat C10", "retreat E10", "retreat G10", "seppuku",
    }  # not G8 (enemy) nor beyond it via G8 (H9), not F9 (friendly cavalry: a foot Leader may not end there)


def test_leader_retreat_lone_leader_on_his_own_baseline_must_commit_seppuku():
    # "When a lone Leader is on its friendly baseline hex and has to retreat, the Leader must commit seppuku."
    s = position("""
        [red]
        pieces = [{ at = "G10", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F11", leader = "foot" }]
    """)
    s, evs = start_battle(s, "G10", "F11", "c f t")
    assert of_kind(evs, "seppuku")
    assert leader(s, "F11") is None
    assert s.to_move() == RED and s.legal_actions() == [f"pick {i}" for i in range(1, 6)]


def test_leader_retreat_lone_leader_who_cannot_retreat_one_hex_must_commit_seppuku():
    # "If a lone Leader cannot retreat at least 1 hex, the Leader must commit seppuku."
    s = position(blue_target('{ at = "F7", leader = "foot" }', terrain='[terrain]\nriver = ["E8", "G8"]'))
    s, evs = start_battle(s, "G6", "F7", "c c t")
    assert of_kind(evs, "seppuku")
    assert leader(s, "F7") is None


def test_leader_seppuku_five_tokens_opponent_picks_a_command_card_and_draws_a_dragon_card():
    # "the owning player removes the Leader block ... and gains 5 Honor & Fortune tokens, but the
    # player must lose 1 Command card from his hand of cards, selected at random by his opponent.
    # ... The loss of this card reduces the owning player's command by one. A Leader that commits
    # seppuku will not give the opponent a Victory Banner, but the opposition player does draw 1
    # Dragon card"
    s = position(blue_target('{ at = "F7", leader = "foot" }'), blue_honor=5)
    s, _ = start_battle(s, "G6", "F7", "f c c")
    hand_before = list(s.hands[BLUE])
    s = act(s, "seppuku")
    assert leader(s, "F7") is None
    assert s.honor[BLUE] == 10
    assert s.to_move() == RED and s.legal_actions() == [f"pick {i}" for i in range(1, 6)]
    assert len(s.dragons[RED]) == 1
    s = act(s, "pick 3")
    assert len(s.hands[BLUE]) == 4
    lost = [c for c in hand_before if c not in s.hands[BLUE]]
    assert len(lost) == 1 and lost[0] in s.cmd_discard
    assert s.command[BLUE] == 4
    assert s.banners[RED] == 0
    assert honor_total(s) == POOL_TOTAL


def test_leader_seppuku_reduces_command_so_an_advance_card_orders_one_unit_fewer():
    # "The loss of this card reduces the owning player's command by one." Player's Command:
    # Advance Left, Center and Right order as many units as the player's command.
    s = position("""
        [red]
        pieces = [{ at = "G10", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F11", leader = "foot" }, { at = "J9", unit = "ASp" }, { at = "L9", unit = "ASp" },
                  { at = "N9", unit = "ASp" }, { at = "J11", unit = "ASp" }, { at = "N11", unit = "ASp" }]
    """, blue_hand=["advance-center", "advance-center", "order-two-center", "order-three-center", "order-two-left"],
        red_hand=["order-three-left", "order-three-right", "order-two-right", "order-one-left", "order-one-right"])
    assert s.command[BLUE] == 5
    s, _ = start_battle(s, "G10", "F11", "c c c")  # on his baseline: seppuku
    s = act(s, "pick 3", "stay", "keep-dragons", "take-honor")
    assert s.command[BLUE] == 4 and s.active == BLUE
    s = act(s, "play advance-center", "order J9", "order L9", "order N9")
    assert "order J11" in s.legal_actions()
    s = act(s, "order J11")
    assert not any(a.startswith("order") for a in s.legal_actions())  # the fifth order is gone


# =============================================================== RETREATS
def test_retreat_toward_own_baseline_owner_chooses_one_of_two_hexes():
    # "A unit must always retreat toward its controlling player's baseline side ... There are
    # usually 2 hexes of choice ... The retreating player may choose either of these 2 hexes"
    s = position(blue_target('{ at = "F7", unit = "ASp" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    assert s.to_move() == BLUE
    assert s.legal_actions() == ["retreat E8", "retreat G8"]
    s = act(s, "retreat G8")
    assert unit(s, "G8") is not None and unit(s, "F7") is None


def test_retreat_bottom_player_retreats_toward_row_one():
    s = position("""
        [red]
        pieces = [{ at = "F7", unit = "ASp" }]
        [blue]
        pieces = [{ at = "G8", unit = "ASp" }]
    """, active="blue")
    s, _ = start_battle(s, "G8", "F7", "f c c", side=BLUE)
    assert s.to_move() == RED
    assert s.legal_actions() == ["retreat E6", "retreat G6"]


def test_retreat_never_sideways_blocked_hex_costs_a_block_and_no_honor():
    # "A unit may never retreat sideways." "A unit may not retreat onto, or through, a hex
    # containing another unit regardless if friend or foe." "A unit that cannot retreat, which
    # results in blocks lost, will not lose Honor & Fortune tokens"
    s = position(blue_target('{ at = "F7", unit = "ASp" }', red_extra=', { at = "E8", unit = "ASp" }, { at = "G8", unit = "ASp" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    assert unit(s, "F7").blocks == 3  # D7 and H7 are free but sideways
    assert s.honor[BLUE] == 5


def test_retreat_blocked_path_costs_one_block_per_hex():
    # "1 hit is scored on the unit and 1 block is removed from the unit for each retreat hex of
    # movement that cannot be completed."
    s = position(blue_target('{ at = "F7", unit = "ASp" }', red_extra=', { at = "E8", unit = "ASp" }, { at = "G8", unit = "ASp" }'))
    s, _ = start_battle(s, "G6", "F7", "f f c")
    assert unit(s, "F7").blocks == 2
    assert s.honor[BLUE] == 5
    # blocked after one hex: one hex moved (1 token), one block lost
    s = position(blue_target('{ at = "F7", unit = "ASp" }', red_extra=', { at = "D9", unit = "ASp" }, { at = "F9", unit = "ASp" }, { at = "G8", unit = "ASp" }'))
    s, _ = start_battle(s, "G6", "F7", "f f c")
    assert unit(s, "E8").blocks == 3
    assert s.honor[BLUE] == 4


def test_retreat_terrain_has_no_effect_but_impassable_terrain_blocks():
    # "Terrain has no effect on a unit's retreat movement, therefore a retreating unit may retreat
    # through, for example, a forest terrain ... without stopping. However, impassable terrain may
    # not be retreated onto or through during a retreat move."
    s = position(blue_target('{ at = "F7", unit = "ASp" }', terrain='[terrain]\nforest = ["E8", "G8"]'))
    s, _ = start_battle(s, "G6", "F7", "f f c")
    s = act(s, "retreat E8", "retreat D9")
    assert unit(s, "D9") is not None and unit(s, "D9").blocks == 4
    s = position(blue_target('{ at = "F7", unit = "ASp" }', terrain='[terrain]\nriver = ["E8", "G8"]'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    assert unit(s, "F7").blocks == 3
    assert s.honor[BLUE] == 5


def test_retreat_at_own_baseline_costs_one_block_per_hex():
    # "When a unit cannot retreat because it is at its army's baseline, 1 hit is scored on the unit
    # and 1 block is removed from unit for each retreat hex of movement that cannot be completed."
    s = position("""
        [red]
        pieces = [{ at = "G10", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F11", unit = "ASp" }]
    """)
    s, _ = start_battle(s, "G10", "F11", "f f c")
    assert unit(s, "F11").blocks == 2
    assert s.honor[BLUE] == 5


def test_retreat_must_take_a_loss_free_path_when_one_exists():
    # "When a unit can retreat legally, toward its controlling player's baseline, without taking
    # block losses, it must take this retreat path instead of a retreat path where a block loss would occur."
    # Via E8 the second hex is blocked (D9, F9); via G8 it is free (H9).
    s = position(blue_target('{ at = "F7", unit = "ASp" }', red_extra=', { at = "D9", unit = "ASp" }, { at = "F9", unit = "ASp" }'))
    s, _ = start_battle(s, "G6", "F7", "f f c")
    assert unit(s, "H9") is not None and unit(s, "H9").blocks == 4
    assert s.honor[BLUE] == 3


def test_retreat_levy_two_hexes_per_flag_and_flat_two_tokens():
    # "levy irregular infantry units must retreat 2 hexes for each flag rolled against the unit"
    # "Levies ... Only lose 2 Honor & Fortune tokens no matter the number of hexes"
    s = position(blue_target('{ at = "F7", unit = "LI" }'))
    s, _ = start_battle(s, "G6", "F7", "f t t")
    s = act(s, "retreat E8")
    assert s.to_move() == BLUE and s.legal_actions() == ["retreat D9", "retreat F9"]
    s = act(s, "retreat D9")
    assert unit(s, "D9").type == "LI"
    assert s.honor[BLUE] == 3
    s = position(blue_target('{ at = "F7", unit = "LI" }'))
    s, _ = start_battle(s, "G6", "F7", "f f t")
    s = act(s, "retreat E8", "retreat D9", "retreat E10", "retreat F11")
    assert unit(s, "F11").type == "LI"
    assert s.honor[BLUE] == 3


def test_retreat_unit_stops_when_it_joins_a_friendly_lone_leader():
    # "An infantry unit may retreat onto a hex containing a friendly lone foot or mounted Leader ...
    # the infantry unit must stop and join the Leader, even if the unit has not fulfilled its
    # entire retreat movement. The unit will ignore any additional retreat movement."
    s = position(blue_target('{ at = "F7", unit = "ASp" }', extra=', { at = "E8", leader = "foot" }',
                             red_extra=', { at = "G8", unit = "ASp" }'))
    s, _ = start_battle(s, "G6", "F7", "f f c")
    assert unit(s, "E8").blocks == 4 and leader(s, "E8") is not None
    assert s.honor[BLUE] == 4  # one hex retreated


def test_retreat_cavalry_may_not_retreat_onto_a_lone_foot_leader():
    # "A cavalry unit may retreat onto a hex containing a friendly lone mounted Leader." (only mounted)
    s = position(blue_target('{ at = "F7", unit = "SSpC" }', extra=', { at = "E8", leader = "foot" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    s = act(s, "ignore 0")
    assert unit(s, "G8") is not None and unit(s, "G8").type == "SSpC"
    assert unit(s, "E8") is None and leader(s, "E8") is not None
    assert s.honor[BLUE] == 3  # Samurai cavalry: 2 tokens per hex


# =========================================================== Bolster Morale
def test_bolster_morale_two_supporting_units_ignore_one_flag():
    # "When supported by 2 friendly units. Support units may be in any 2 hexes that are adjacent to the unit."
    s = position(blue_target('{ at = "F7", unit = "ASp" }', extra=', { at = "D7", unit = "AB" }, { at = "H7", unit = "AB" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    assert s.to_move() == BLUE and s.legal_actions() == ["ignore 0", "ignore 1"]
    s = act(s, "ignore 1")
    assert unit(s, "F7").blocks == 4
    assert s.honor[BLUE] == 5
    assert s.legal_actions() == ["battle-back", "no-battle-back"]


def test_bolster_morale_lone_leader_acts_as_a_supporting_hex():
    # "A Leader block, when alone in a hex, may act as an adjacent hex of support"
    s = position(blue_target('{ at = "F7", unit = "ASp" }', extra=', { at = "D7", unit = "AB" }, { at = "H7", leader = "foot" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    assert s.legal_actions() == ["ignore 0", "ignore 1"]


def test_bolster_morale_one_supporting_unit_is_not_enough():
    s = position(blue_target('{ at = "F7", unit = "ASp" }', extra=', { at = "D7", unit = "AB" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    assert s.legal_actions() == ["retreat E8", "retreat G8"]


def test_bolster_morale_attached_leader_ignores_one_flag():
    # "A Leader with a unit will allow a unit to ignore 1 flag."
    s = position(blue_target('{ at = "F7", unit = "ASp", leader = "foot" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    assert s.legal_actions() == ["ignore 0", "ignore 1"]


def test_bolster_morale_red_square_unit_ignores_one_flag():
    # "A unit with a red square symbol may ignore 1 flag."
    s = position(blue_target('{ at = "F7", unit = "SSp" }'))
    s, _ = start_battle(s, "G6", "F7", "f f c")
    assert s.legal_actions() == ["ignore 0", "ignore 1"]
    s = act(s, "ignore 1")
    assert s.legal_actions() == ["retreat E8", "retreat G8"]


def test_bolster_morale_at_most_two_flags_ignored_owner_chooses_how_many():
    # "Important Note: A unit may only ignore a maximum of 2 flags during a combat roll."
    # "When 2 flag results can be ignored, the owning player can choose to ignore 1 and accept 1."
    body = blue_target('{ at = "F7", unit = "SSp", leader = "foot" }',
                       extra=', { at = "D7", unit = "AB" }, { at = "H7", unit = "AB" }')
    s, _ = start_battle(position(body, blue_honor=10), "G6", "F7", "f f f")
    assert s.legal_actions() == ["ignore 0", "ignore 1", "ignore 2"]
    s = act(s, "ignore 2")
    assert s.legal_actions() == ["retreat E8", "retreat G8"]  # the third flag must be taken
    s, _ = start_battle(position(body, blue_honor=10), "G6", "F7", "f f f")
    s = act(s, "ignore 1", "retreat E8")
    assert s.legal_actions() == ["retreat D9", "retreat F9"]  # two flags taken: two hexes
    s = act(s, "retreat D9")
    assert unit(s, "D9").type == "SSp" and leader(s, "D9") is not None


def test_bolster_morale_leader_casualty_check_comes_before_flags():
    # "Note: A Leader Casualty Check takes place prior to determining if a unit must retreat.
    # Therefore, when a Leader is eliminated by the Leader Casualty Check, the unit may not be able
    # to ignore a flag because a Leader is no longer with the unit."
    s = position(blue_target('{ at = "F7", unit = "ASp", leader = "foot" }'))
    s, _ = start_battle(s, "G6", "F7", "t f c x")
    assert leader(s, "F7") is None
    assert s.legal_actions() == ["retreat E8", "retreat G8"]


# ==================================================== Retreat & Loss of Honor
def test_retreat_loss_of_honor_circle_and_triangle_one_token_per_hex():
    # "A unit, with a green circle, must lose 1 ... for each hex it retreats." (triangle likewise)
    s = position(blue_target('{ at = "F7", unit = "ASp" }'))
    s, _ = start_battle(s, "G6", "F7", "f c c")
    s = act(s, "retreat E8")
    assert s.honor[BLUE] == 4
    s = position(blue_target('{ at = "F7", unit = "AB" }'))
    s, _ = start_battle(s, "G6", "F7", "f f t")
    s = act(s, "retreat E8", "retreat D9")
    assert s.honor[BLUE] == 3


def test_retreat_loss_of_honor_red_square_two_tokens_per_hex():
    # "A unit, with a red square, must lose 2 Honor & Fortune tokens for each hex it retreats."
    s = position(blue_target('{ at = "F7", unit = "SSp" }'), blue_honor=10)
    s, _ = start_battle(s, "G6", "F7", "f f c")
    s = act(s, "ignore 0", "retreat E8", "retreat D9")
    assert s.honor[BLUE] == 6


def test_retreat_loss_of_honor_attached_leader_adds_one_token_per_hex():
    # "A unit, with an attached Leader that retreats, will lose 1 additional Honor & Fortune token
    # for each hex ... a retreating unit with a triangle symbol with a Leader will lose 2 ... for each hex"
    s = position(blue_target('{ at = "F7", unit = "ASp", leader = "foot" }'), blue_honor=10)
    s, _ = start_battle(s, "G6", "F7", "f f c")
    s = act(s, "ignore 0", "retreat E8", "retreat D9")
    assert unit(s, "D9") is not None and leader(s, "D9") is not None
    assert s.honor[BLUE] == 6


def test_retreat_loss_of_honor_lone_leader_three_tokens_whatever_the_distance():
    # "A Leader that is alone in a hex when he retreats 1, 2 or 3 hexes must lose 3 Honor & Fortune
    # tokens. A Leader does not lose Honor & Fortune for each hex he retreats."
    for dest in ("E8", "I10"):
        s = position(blue_target('{ at = "F7", leader = "foot" }'), blue_honor=5)
        s, _ = start_battle(s, "G6", "F7", "f c c")
        s = act(s, f"retreat {dest}")
        assert s.honor[BLUE] == 2, dest


def test_honor_and_fortune_pool_of_thirty_is_conserved_and_gains_stop_when_it_runs_out():
    # "should the common Honor & Fortune token pool run out, no further Honor & Fortune tokens can
    # be gained ... Actions that normally grant Honor & Fortune tokens when the common pool is empty
    # will grant nothing" (30 tokens in the box)
    s = position(blue_target('{ at = "F7", unit = "ASp" }'), red_honor=20, blue_honor=10)
    assert s.pool == 0
    s, _ = start_battle(s, "G6", "F7", "h h f")
    assert s.honor[RED] == 20  # two honor symbols rolled, none to take
    s = act(s, "retreat E8")
    assert s.honor[BLUE] == 9 and s.pool == 1  # the retreat paid one token back to the pool
    s = act(s, "stay", "take-honor")
    assert s.honor[RED] == 21 and s.pool == 0  # only one token was left to take
    assert honor_total(s) == POOL_TOTAL


# =========================================================== LACK OF HONOR
def test_lack_of_honor_worked_example_samurai_one_token_short_rolls_five_dice():
    # "Example: A player only has 1 Honor & Fortune token in his reserve pool, but the Samurai unit
    # must retreat 1 hex, which requires a loss of 2 Honor & Fortune tokens. The Lack of Honor roll
    # therefore would be 4 dice, plus 1 die."
    s = position(blue_target('{ at = "F7", unit = "SSp" }'), blue_honor=1)
    s, evs = start_battle(s, "G6", "F7", "f f c s s x f h")
    s, more = run(s, "ignore 1", "retreat E8")
    evs += more
    loh = of_kind(evs, "lack_of_honor")
    assert len(loh) == 1 and len(loh[0].data["faces"]) == 5
    assert s.honor[BLUE] == 0
    # "Each symbol rolled, that matches the symbol on the retreating unit, will eliminate 1 block
    # in the unit that retreated." Swords, flags and Honor & Fortune have no effect.
    assert unit(s, "E8").blocks == 2
    assert honor_total(s) == POOL_TOTAL


def test_lack_of_honor_other_symbols_hit_the_nearest_unit_with_that_symbol_owner_chooses_ties():
    # "Each symbol rolled, that does not match the retreating unit, will cause 1 block loss to the
    # nearest unit in the army with a matching symbol. The controlling player will choose which
    # unit will lose blocks, when 2 or more units are the same distance"
    s = position(blue_target('{ at = "F7", unit = "ASp" }',
                             extra=', { at = "B9", unit = "AB" }, { at = "H9", unit = "AB" }, '
                                   '{ at = "L9", unit = "AB" }, { at = "P9", unit = "SSp" }'),
                 blue_honor=0)
    s, _ = start_battle(s, "G6", "F7", "f c c c s t x f")
    s = act(s, "retreat E8")
    # first face: a circle; B9 and H9 are both 2 hexes from E8 (L9 is farther)
    assert s.to_move() == BLUE and s.legal_actions() == ["hit B9", "hit H9"]
    s = act(s, "hit H9")
    assert unit(s, "H9").blocks == 3 and unit(s, "B9").blocks == 4 and unit(s, "L9").blocks == 4
    assert unit(s, "P9").blocks == 3  # the square: the only square unit
    assert unit(s, "E8").blocks == 3  # the triangle: the retreated unit


def test_lack_of_honor_swords_flags_and_honor_symbols_have_no_effect():
    # "A sword, flag or an Honor & Fortune symbol rolled during a Lack of Honor roll will not have
    # any effect." / "Rolling an Honor & Fortune symbol during ... Lack of Honor roll ... will not
    # gain Honor & Fortune tokens"
    s = position(blue_target('{ at = "F7", unit = "ASp" }'), blue_honor=0)
    s, _ = start_battle(s, "G6", "F7", "f c c x f h x h")
    s = act(s, "retreat E8")
    assert unit(s, "E8").blocks == 4
    assert s.honor[BLUE] == 0


def test_lack_of_honor_unit_eliminated_gives_the_opponent_a_banner():
    # "When the last block in the unit is removed, the opposition player collects a Victory Banner."
    s = position(blue_target('{ at = "F7", unit = "ASp", blocks = 1 }'), blue_honor=0)
    s, _ = start_battle(s, "G6", "F7", "f c c t c c c c")
    s = act(s, "retreat E8")
    assert unit(s, "E8") is None
    assert s.banners[RED] == 1


def test_lack_of_honor_lone_leader_retreat_a_sword_eliminates_him():
    # "1 or more sword symbols rolled on the Lack of Honor roll will eliminate the Leader and the
    # opposition player collects a Victory Banner." "Each symbol rolled will cause 1 block loss to
    # the nearest unit in the army with a matching symbol."
    s = position(blue_target('{ at = "F7", leader = "foot" }', extra=', { at = "P9", unit = "AB" }'),
                 blue_honor=1)
    s, evs = start_battle(s, "G6", "F7", "f c c x c f h t s")
    s, more = run(s, "retreat E8")
    evs += more
    loh = of_kind(evs, "lack_of_honor")
    assert len(loh) == 1 and len(loh[0].data["faces"]) == 6  # 3 tokens due, 1 paid, 2 short
    assert leader(s, "E8") is None
    assert s.banners[RED] == 1
    assert unit(s, "P9").blocks == 3


# ===================================================== PHASE 5 END OF TURN
QUIET = """
    [red]
    pieces = [{ at = "L3", unit = "ASp" }]
    [blue]
    pieces = [{ at = "L9", unit = "ASp" }]
"""


def test_end_of_turn_played_card_discarded_new_card_drawn_then_dragon_or_two_tokens():
    # "the active player discards the Command card just played ... and draws a new Command card.
    # The active player now also has the choice of drawing 1 Dragon card or gaining 2 Honor & Fortune tokens."
    s = position(QUIET, command_deck=["order-three-right"])
    played = next(c for c in s.hands[RED] if s.t.command_ids[c] == "order-two-center")
    s = act(s, "play order-two-center", "order L3", "end-move")
    assert s.to_move() == RED and s.legal_actions() == ["draw-dragon", "take-honor"]
    assert played in s.cmd_discard
    assert len(s.hands[RED]) == 5
    assert "order-three-right" in [s.t.command_ids[c] for c in s.hands[RED]]
    s = act(s, "take-honor")
    assert s.honor[RED] == 7
    assert s.to_move() == BLUE and s.active == BLUE


def test_end_of_turn_order_one_card_draw_two_keep_one():
    # Order One Unit: "When drawing a new Command card, draw 2, choose 1 and discard the other."
    s = position(QUIET, red_hand=["order-one-center", "order-two-center", "order-three-left", "order-three-right", "advance-center"],
                 command_deck=["order-two-left", "cranes-wing"])
    s = act(s, "play order-one-center", "order L3", "end-move")
    assert s.legal_actions() == ["keep cranes-wing", "keep order-two-left"]
    s = act(s, "keep cranes-wing")
    slugs = [s.t.command_ids[c] for c in s.hands[RED]]
    assert "cranes-wing" in slugs and "order-two-left" not in slugs
    assert len(slugs) == 5
    assert "order-two-left" in [s.t.command_ids[c] for c in s.cmd_discard]


def test_end_of_turn_draw_a_dragon_card_instead_of_two_tokens():
    s = position(QUIET)
    s = act(s, "play order-two-center", "order L3", "end-move", "draw-dragon")
    assert len(s.dragons[RED]) == 1
    assert s.honor[RED] == 5


def test_end_of_turn_discard_a_dragon_card_for_one_token_only_one():
    # "if the active player did not play a Dragon card during his turn, 1 Dragon card may be
    # discarded from his hand and 1 Honor & Fortune token can be collected." "No more than 1
    # Dragon card may be drawn or discarded"
    s = position(QUIET, red_dragons=["brave-leader", "panic"])
    s = act(s, "play order-two-center", "pass", "order L3", "end-move")  # "pass": Red may play Panic
    assert s.legal_actions() == ["discard-dragon brave-leader", "discard-dragon panic", "keep-dragons"]
    s = act(s, "discard-dragon panic")
    assert s.honor[RED] == 6
    assert [s.t.dragon_ids[d] for d in s.dragons[RED]] == ["brave-leader"]
    assert s.legal_actions() == ["draw-dragon", "take-honor"]  # no second discard


def test_end_of_turn_dragon_card_drawn_this_turn_cannot_be_discarded():
    # "A Dragon card drawn at the end of a player's turn cannot be discarded in the turn it was drawn."
    s = position(QUIET)
    s = act(s, "play order-two-center", "order L3", "end-move")
    assert not any(a.startswith("discard-dragon") for a in s.legal_actions())
    s = act(s, "draw-dragon")
    assert len(s.dragons[RED]) == 1
    assert s.active == BLUE and s.legal_actions()[0].startswith("play ")


# ================================================= END GAME & VICTORY
def test_victory_banner_for_each_unit_and_leader_eliminated():
    # "A Victory Banner is gained for each enemy Army Commander, Leader and enemy unit eliminated."
    # "Victory is decided the instant the last banner required is gained."
    s = position(blue_target('{ at = "F7", unit = "ASp", leader = "foot", blocks = 1 }'), victory=2)
    s, _ = start_battle(s, "G6", "F7", "t c c x")
    assert s.banners[RED] == 2
    assert s.result() is not None and s.result().winner == RED
    assert s.legal_actions() == []


def test_victory_game_ends_the_moment_the_banner_is_gained_even_on_a_battle_back():
    # "This means that a game might even end on a successful battle back, with the victory going
    # to the active player's opponent."
    s = position("""
        [red]
        pieces = [{ at = "G6", unit = "ASp", blocks = 1 }]
        [blue]
        pieces = [{ at = "F7", unit = "ASp" }]
    """, victory=1)
    assert unit(s, "G6").blocks == 1
    s, _ = start_battle(s, "G6", "F7", "c c c t c c")
    s = act(s, "battle-back")
    assert s.result() is not None and s.result().winner == BLUE


def test_victory_player_starting_his_turn_with_one_command_card_surrenders():
    # "If a player's hand of Command cards is ever reduced to a single Command card at the start of
    # a player's turn, the player must surrender and victory goes to his opponent."
    s = position("""
        [red]
        pieces = [{ at = "G10", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F11", leader = "foot" }, { at = "X11", unit = "ASp" }]
    """, blue_hand=["order-two-center", "order-three-center"])
    s, _ = start_battle(s, "G10", "F11", "c c c")  # forced seppuku on the baseline
    s = act(s, "pick 1")
    assert len(s.hands[BLUE]) == 1
    s = act(s, "stay", "keep-dragons", "take-honor")
    assert s.result() is not None and s.result().winner == RED and s.result().reason == "surrender"


# ============================================ Army Commander & Bodyguards
def tent_position(bg_blocks: int = 4, red: str = '{ at = "L9", unit = "ASp" }', **kw: Any) -> CCState:
    return position(f"""
        [red]
        pieces = [{red}]
        [blue]
        tent = "M10"
        pieces = [{{ at = "M10", unit = "BG", leader = "commander", blocks = {bg_blocks} }}, {{ at = "X11", unit = "ASp" }}]
    """, **kw)


def test_army_commander_with_bodyguards_may_not_move_and_never_splits():
    # "When ordered, an Army Commander with his Bodyguards may not move from the command tent hex.
    # Their only option is to battle in close combat."
    s = tent_position(active="blue", blue_honor=0)
    s = act(s, "play order-three-center")
    assert s.legal_actions() == ["order M10", "done"]
    s = act(s, "order M10")
    assert s.legal_actions() == ["attack M10 L9", "end-battle"]


def test_army_commander_bodyguards_roll_one_die_per_block_and_reroll_swords_once():
    # "The Bodyguards ... will battle in close combat with 1 die for each Bodyguard block."
    # "Bodyguards in close combat will reroll all swords one time for additional results."
    s = tent_position(bg_blocks=3, active="blue", blue_honor=0)
    s, evs = start_battle(s, "M10", "L9", "x c c x x", side=BLUE)
    assert unit(s, "L9").blocks == 2  # 1 sword + 1 rerolled sword (the reroll is not rerolled)
    assert s.forced == ["swords"]
    rolls = of_kind(evs, "roll")
    assert rolls and rolls[-1].data["dice"] == 3


def test_army_commander_rank_and_stature_do_not_apply_against_bodyguards():
    # "Rank and Stature do not apply to any close combat involving a Bodyguard unit."
    s = tent_position(red='{ at = "L9", unit = "SSpC" }', active="blue", blue_honor=0)
    s, _ = start_battle(s, "M10", "L9", "x x c c c c", side=BLUE)
    assert unit(s, "L9").blocks == 2


def test_army_commander_bodyguards_hit_only_by_swords_in_close_combat():
    # "Bodyguards are only hit when attacked in close combat by rolling a sword."
    s = tent_position(red='{ at = "L9", unit = "SSp" }')
    s, _ = start_battle(s, "L9", "M10", "s t c x c c")
    assert unit(s, "M10").blocks == 3


def test_army_commander_bodyguards_cannot_be_targeted_in_ranged_combat():
    # "Bodyguards cannot be targeted in ranged combat."
    s = position("""
        [red]
        pieces = [{ at = "M8", unit = "SB" }]
        [blue]
        tent = "M10"
        pieces = [{ at = "M10", unit = "BG", leader = "commander" }, { at = "Q8", unit = "ASp" }]
    """)
    s = act(s, "play order-three-center", "order M8", "end-move")
    assert "fire M8 Q8" in s.legal_actions()
    assert "fire M8 M10" not in s.legal_actions()


def test_army_commander_casualty_check_two_dice_when_a_bodyguard_block_falls():
    # "A casualty check on the Army Commander with 2 dice is required when 1 or more Bodyguard
    # blocks are eliminated." (2 swords needed, as in every 2-die Leader Casualty Check)
    s, evs = start_battle(tent_position(), "L9", "M10", "x c c x c")
    check = of_kind(evs, "casualty_check")
    assert len(check) == 1 and len(check[0].data["faces"]) == 2
    assert leader(s, "M10") is not None and unit(s, "M10").blocks == 3


def test_army_commander_killed_bodyguards_surrender_and_one_banner():
    # "When an Army Commander is hit and eliminated, gain 1 Victory Banner. If the Army Commander
    # is eliminated, any remaining Bodyguard blocks surrender and are also removed"
    s, _ = start_battle(tent_position(), "L9", "M10", "x x c x x")
    assert leader(s, "M10") is None and unit(s, "M10") is None
    assert s.banners[RED] == 1


def test_army_commander_with_bodyguards_must_ignore_all_flags():
    # "An Army Commander with his Bodyguards MUST ignore all flags"
    s, _ = start_battle(tent_position(), "L9", "M10", "f f f")
    assert unit(s, "M10").blocks == 4 and leader(s, "M10") is not None
    assert s.honor[BLUE] == 5
    assert s.to_move() == BLUE and s.legal_actions() == ["battle-back", "no-battle-back"]


def test_army_commander_bodyguards_give_no_banner_then_commander_retreats_as_foot_leader():
    # "When all Bodyguard blocks are eliminated or surrender, the Bodyguards do not count as a
    # Victory Banner." "When all Bodyguard blocks are eliminated, an Army Commander (after making a
    # successful casualty check) must retreat or commit seppuku. Retreat: The Army Commander must
    # lose 3 Honor & Fortune and may retreat 1, 2 or 3 hexes. After an Army Commander retreats from
    # the command tent, it is treated as a foot Leader"
    s, _ = start_battle(tent_position(bg_blocks=2), "L9", "M10", "x x c c c")
    assert unit(s, "M10") is None and leader(s, "M10") is not None
    assert s.banners[RED] == 0
    assert s.to_move() == BLUE and s.legal_actions() == ["retreat L11", "retreat N11", "seppuku"]
    s = act(s, "retreat N11")
    assert leader(s, "N11").kind == "foot"
    assert s.honor[BLUE] == 2


# ===================================================== Enemy Command Tent
def test_enemy_command_tent_captured_by_a_unit_present_at_the_start_of_a_turn():
    # "When a player's unit occupies an enemy's command tent hex at the start of the turn, the enemy
    # command tent hex is removed ... worth 3 victory banners ... one opponent's Command card is
    # selected at random and discarded."
    s = position("""
        [red]
        pieces = [{ at = "K10", unit = "ASp" }]
        [blue]
        tent = "L11"
        pieces = [{ at = "X11", unit = "ASp" }]
    """, victory=5)
    s = act(s, "play order-three-center", "order K10")
    assert "move K10 L11" in s.legal_actions()
    s = act(s, "move K10 L11")
    assert s.banners[RED] == 0  # entering is not enough
    assert BLUE in s.tents
    blue_hand = list(s.hands[BLUE])
    s = act(s, "take-honor")  # Red's turn ends; Blue's turn starts with the Red unit in the tent
    assert s.banners[RED] == 3
    assert BLUE not in s.tents
    assert len(s.hands[BLUE]) == 4
    lost = [c for c in blue_hand if c not in s.hands[BLUE]]
    assert len(lost) == 1 and lost[0] in s.cmd_discard
    assert s.result() is None


def test_enemy_command_tent_is_not_captured_by_a_lone_leader():
    # "When a player's unit occupies an enemy's command tent hex" -- a Leader is not a unit.
    s = position("""
        [red]
        pieces = [{ at = "L11", leader = "mounted" }, { at = "F3", unit = "ASp" }]
        [blue]
        tent = "L11"
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    assert s.banners[RED] == 0 and BLUE in s.tents
    assert len(s.hands[BLUE]) == 5


def test_enemy_command_tent_captured_when_the_unit_is_already_there_at_the_start_of_the_turn():
    s = position("""
        [red]
        pieces = [{ at = "L11", unit = "ASp" }]
        [blue]
        tent = "L11"
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    assert s.banners[RED] == 3 and BLUE not in s.tents
    assert len(s.hands[BLUE]) == 4 and len(s.cmd_discard) == 1


def test_command_tent_unoccupied_stops_a_unit_entering_it():
    # COMMAND TENT: "when the command tent is not occupied, a unit or Leader that enters a command
    # tent hex must stop and may move no further this turn."
    s = position("""
        [red]
        pieces = [{ at = "K8", unit = "ASp" }]
        [blue]
        tent = "L9"
        pieces = [{ at = "X11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-center", "order K8")
    assert "move K8 L9" in s.legal_actions()
    # M10 lies two hexes away, only through L9
    assert "move K8 M10" not in s.legal_actions()


def test_end_of_turn_draw_two_keep_one_is_asked_even_when_both_cards_are_alike_r32():
    # whether the player is asked must not tell the opponent that the two cards drawn are alike
    s = position(QUIET, red_hand=["order-one-center", "order-two-center", "order-three-left", "order-three-right", "advance-center"],
                 command_deck=["order-two-left", "order-two-left"])
    s = act(s, "play order-one-center", "order L3", "end-move")
    assert s.to_move() == RED and s.legal_actions() == ["keep order-two-left"]
    s = act(s, "keep order-two-left")
    assert [s.t.command_ids[c] for c in s.cmd_discard].count("order-two-left") == 1
