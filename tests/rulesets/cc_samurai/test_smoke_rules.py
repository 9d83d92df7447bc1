"""A first close combat, start to finish, with forced dice."""

from tests.rulesets.cc_samurai.helpers import act, position, unit


def test_close_combat_hits_by_matching_symbol_and_swords_then_battle_back():
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """)
    s = act(s, "play order-three-center", "order L3", "end-move")
    assert s.legal_actions() == ["attack L3 M4", "end-battle"]
    # Ashigaru spearmen roll 3 dice: triangle + swords = 2 hits, the circle misses
    s = act(s, "attack L3 M4", dice="t x c")
    assert unit(s, "M4").blocks == 2
    # the survivor stayed in place, so Blue may battle back
    assert s.to_move() == 1 and s.legal_actions() == ["battle-back", "no-battle-back"]
    s = act(s, "battle-back", dice="t t t")
    assert unit(s, "L3").blocks == 1


def test_levy_swarm_rolls_all_levies_dice_together_and_defender_picks_one_to_battle_back():
    s = position("""
        [red]
        pieces = [{ at = "K4", unit = "LI" }, { at = "M4", unit = "LI" }]
        [blue]
        pieces = [{ at = "L5", unit = "ASp" }]
    """)
    s = act(s, "play order-three-center", "order K4", "order M4", "end-move")
    assert "attack K4+M4 L5" in s.legal_actions()
    # 2 + 2 dice rolled at once: two swords hit (a triangle ignores one sword from a circle unit), a triangle hits
    s = act(s, "attack K4+M4 L5", dice="x x t c")
    assert unit(s, "L5").blocks == 2
    assert s.to_move() == 1
    assert s.legal_actions() == ["battle-back K4", "battle-back M4", "no-battle-back"]
    s = act(s, "battle-back M4", dice="c c c")
    assert unit(s, "M4").blocks == 1 and unit(s, "K4").blocks == 4
    # both levies have battled
    assert s.to_move() is None or all(not a.startswith("attack") for a in s.legal_actions())
