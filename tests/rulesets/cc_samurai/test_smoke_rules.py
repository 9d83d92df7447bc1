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
