"""First Strike and a Dragon card answering the same declared close combat (issue 19, R47).

First Strike is played "after your opponent declares a close combat, but before he rolls his
dice" (000, First Strike card); Bravery and Practice of Aikido are played when the "enemy
declares close combat" (dragon-cards.md). One is a Command card, the other a Dragon card: the
defender may play both, in either order, each asked as its own decision. Ambush alone "cannot
be combined with, or answer, First Strike".
"""

from __future__ import annotations

from kassen.rulesets.cc_samurai.state import CCState
from tests.rulesets.cc_samurai.helpers import act, position, run, unit
from tests.rulesets.cc_samurai.test_dragon_cards import (
    DUEL,
    dragon_slugs,
    hand_slugs,
    of_kind,
    rolls,
)

RED, BLUE = 0, 1
BLUE_HAND = ["first-strike", "order-two-left", "order-two-center", "order-two-right", "advance-center"]


def declared(red: str, dragons: list[str]) -> CCState:
    """Red's unit at L3 declares a close combat on Blue's spearmen at M4; Blue holds First
    Strike and ``dragons``."""
    s = position(DUEL.format(red=red, blue="ASp"), blue_hand=BLUE_HAND, blue_dragons=dragons,
                 command_deck=["order-three-left", "order-three-right"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    return s.apply("attack L3 M4")


def test_first_strike_then_bravery_both_answer_the_declared_close_combat() -> None:
    s = declared("ASp", ["bravery"])
    assert s.to_move() == BLUE and s.legal_actions() == ["first-strike", "dragon bravery", "pass"]
    s = s.apply("first-strike")
    # the window stays open: Blue is asked about the Dragon card as a decision of its own
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon bravery", "pass"]
    # Blue strikes first and misses (c c c); Red then rolls two flags and a miss against Bravery
    s, evs = run(s, "dragon bravery", dice="c c c " + "f f c")
    roll_texts = [e.text for e in of_kind(evs, "roll")]
    assert len(roll_texts) == 2 and roll_texts[0].startswith("Blue") and roll_texts[1].startswith("Red")
    assert [c.data["role"] for c in of_kind(evs, "combat")] == ["first"]
    assert s.legal_actions() == ["ignore 0", "ignore 1", "ignore 2"]  # Bravery: every flag may be ignored
    s = act(s, "ignore 2")
    assert unit(s, "M4") is not None and unit(s, "M4").side == BLUE
    assert "battle-back" not in s.legal_actions()  # First Strike: no battle back afterwards
    assert "first-strike" not in hand_slugs(s, BLUE) and dragon_slugs(s, BLUE) == []


def test_bravery_then_first_strike_both_answer_the_declared_close_combat() -> None:
    s = declared("ASp", ["bravery"])
    s = s.apply("dragon bravery")
    assert s.to_move() == BLUE and s.legal_actions() == ["first-strike", "pass"]
    s, evs = run(s, "first-strike", dice="c c c " + "f f c")
    assert [e.text[:4] for e in of_kind(evs, "roll")] == ["Blue", "Red "]
    assert s.legal_actions() == ["ignore 0", "ignore 1", "ignore 2"]
    assert s.ti["dragon_played"][BLUE] and "first-strike" not in hand_slugs(s, BLUE)


def test_bravery_alone_still_lets_the_defender_pass_on_first_strike() -> None:
    s = declared("ASp", ["bravery"])
    s = s.apply("dragon bravery")
    s, evs = run(s, "pass", dice="f c c")
    assert [e.text[:3] for e in of_kind(evs, "roll")] == ["Red"]  # nobody struck first
    assert "first-strike" in hand_slugs(s, BLUE)
    assert s.legal_actions() == ["ignore 0", "ignore 1"]


def test_practice_of_aikido_with_first_strike_caps_the_attack_after_the_first_strike() -> None:
    # Red's samurai spearmen (4 dice) are held to 2 dice by Aikido, after Blue's First Strike (3 dice)
    s = declared("SSp", ["practice-of-aikido"])
    assert s.legal_actions() == ["first-strike", "dragon practice-of-aikido", "pass"]
    s = s.apply("first-strike")
    s, evs = run(s, "dragon practice-of-aikido", dice="c c c " + "c c c c")
    assert rolls(evs) == [3, 2]


def test_practice_of_aikido_then_first_strike() -> None:
    s = declared("SSp", ["practice-of-aikido"])
    s = s.apply("dragon practice-of-aikido")
    assert s.legal_actions() == ["first-strike", "pass"]
    s, evs = run(s, "first-strike", dice="c c c " + "c c c c")
    assert rolls(evs) == [3, 2]


def test_ambush_cannot_be_combined_with_first_strike_after_first_strike() -> None:
    s = declared("ASp", ["ambush"])
    assert s.legal_actions() == ["first-strike", "dragon ambush", "pass"]
    s, evs = run(s, "first-strike", dice="c c c " + "c c c")
    # no second question: Ambush may not follow First Strike, so the window closed at once
    assert [c.data["role"] for c in of_kind(evs, "combat")] == ["first"]
    assert rolls(evs) == [3, 3]  # First Strike's 3 dice, no Ambush extra die
    assert dragon_slugs(s, BLUE) == ["ambush"] and not s.ti["dragon_played"][BLUE]


def test_ambush_cannot_be_combined_with_first_strike_after_ambush() -> None:
    s = declared("ASp", ["ambush"])
    s, evs = run(s, "dragon ambush", dice="c c c c " + "c c c")
    assert rolls(evs) == [4, 3]  # Ambush: Blue strikes first with 1 extra die; then Red
    assert "first-strike" in hand_slugs(s, BLUE)  # never asked, never played
    assert s.ti["dragon_played"][BLUE]

