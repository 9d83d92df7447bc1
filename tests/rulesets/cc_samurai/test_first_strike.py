"""First Strike (Tactic card) and its reaction question (R30)."""

from __future__ import annotations

from tests.rulesets.cc_samurai.helpers import act, position, unit

BODY = """
    [red]
    pieces = [{ at = "L3", unit = "ASp" }]
    [blue]
    pieces = [{ at = "M4", unit = "ASp" }]
"""
BLUE_HAND = ["first-strike", "order-two-left", "order-two-center", "order-two-right", "advance-center"]


def _attack(**kw):
    s = position(BODY, blue_hand=BLUE_HAND, command_deck=["order-three-left", "order-three-right"], **kw)
    s = act(s, "play order-three-center", "order L3", "end-move")
    return s.apply("attack L3 M4")


def test_first_strike_is_offered_to_the_defender_after_the_close_combat_is_declared():
    s = _attack()
    assert s.to_move() == 1 and s.legal_actions() == ["first-strike", "pass"]


def test_first_strike_question_is_asked_whatever_the_hand_holds_r32():
    # R32 (issue 30): whether the defender is asked depends on public facts only, so the
    # question tells the attacker nothing; without the card his only answer is "pass"
    s = position(BODY)
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = s.with_forced_dice(["c", "c", "c"]).apply("attack L3 M4")
    assert s.to_move() == 1 and s.legal_actions() == ["pass"]
    assert s.prompt() == _attack().prompt()
    s = s.apply("pass")
    assert s.to_move() == 1 and s.legal_actions() == ["battle-back", "no-battle-back"]


def test_first_strike_defender_battles_first_and_an_eliminated_attacker_does_not_battle():
    s = position(BODY.replace('unit = "ASp" }]\n    [blue]', 'unit = "ASp", blocks = 1 }]\n    [blue]'),
                 blue_hand=BLUE_HAND)
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(s.apply("attack L3 M4"), "first-strike", dice="t c c")
    assert unit(s, "L3") is None and s.banners == [0, 1]
    rolls = [e.text for e in s.events if e.kind == "roll"]
    assert len(rolls) == 1 and rolls[0].startswith("Blue")


def test_first_strike_attacker_still_in_place_battles_and_the_defender_does_not_battle_back():
    s = _attack()
    s = act(s, "first-strike", dice="c c c t x c")  # Blue misses; Red hits twice
    assert unit(s, "L3").blocks == 4 and unit(s, "M4").blocks == 2
    assert "battle-back" not in s.legal_actions()
    assert any(e.kind == "no_battle_back" for e in s.events)


def test_first_strike_attacker_retreated_does_not_battle():
    s = _attack()
    s = act(s, "first-strike", dice="f c c")  # a flag: Red's spearmen retreat from L3
    s = act(s, "retreat K2") if "retreat K2" in s.legal_actions() else s
    assert unit(s, "M4").blocks == 4
    assert not any(e.kind == "roll" and "Red" in e.text for e in s.events)


def test_first_strike_player_draws_his_replacement_first_at_the_end_of_the_turn():
    s = _attack()
    s = act(s, "first-strike", dice="c c c c c c")
    # Red's turn ends: Blue draws the top card first, then Red
    while s.active == 0 and not s.is_terminal():
        s = act(s, s.legal_actions()[-1])
    hands = [[s.t.command_ids[c] for c in h] for h in s.hands]
    assert "order-three-left" in hands[1]  # the top card went to Blue, who drew first
    assert "order-three-right" in hands[0]
    assert "first-strike" not in hands[1]
