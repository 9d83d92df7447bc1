"""Orders: what the prompt tells the player about the card's orders (issue 18, item 10)."""

from __future__ import annotations

from tests.rulesets.cc_samurai.helpers import position


def test_ordering_prompt_says_how_many_orders_the_card_gives() -> None:
    """Issue 18, item 10: "2 of 3 ordered" was never shown; the prompt now counts against the
    card (Order Two: 2)."""
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }, { at = "N3", unit = "ASp" }, { at = "P3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M8", unit = "ASp" }]
    """
    s = position(body, red_hand=["order-two-center", "order-three-left", "order-three-right", "advance-center",
                                 "order-two-left"])
    s = s.apply("play order-two-center")
    assert s.prompt() == "Red: order units and Leaders (0 of 2 given)"
    s = s.apply("order L3")
    assert s.prompt() == "Red: order units and Leaders (1 of 2 given)"


def test_ordering_prompt_counts_only_the_pieces_that_can_take_an_order() -> None:
    """Issue 30, item 5: "0 of 3 given" on Order Three Left with one unit in the left section
    promised orders nobody could take; the count is of the pieces the card can order (section
    cards: Give ordres to N units in the section; there are only so many there)."""
    body = """
        [red]
        pieces = [{ at = "B3", unit = "ASp" }, { at = "N3", unit = "ASp" }, { at = "P3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M8", unit = "ASp" }]
    """
    s = position(body, red_hand=["order-three-left", "order-two-center", "order-three-right", "advance-center",
                                 "order-two-left"])
    s = s.apply("play order-three-left")
    assert s.prompt() == "Red: order units and Leaders (0 of 1 given)"
    assert [a for a in s.legal_actions() if a.startswith("order ")] == ["order B3"]
    s = s.apply("order B3")
    assert s.prompt() == "Red: move ordered units and Leaders"  # every order that can be given is


def test_ordering_prompt_keeps_the_cards_number_when_enough_pieces_can_take_it() -> None:
    body = """
        [red]
        pieces = [{ at = "B3", unit = "ASp" }, { at = "D3", unit = "ASp" }, { at = "F3", unit = "ASp" },
                  { at = "C2", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M8", unit = "ASp" }]
    """
    s = position(body, red_hand=["order-three-left", "order-two-center", "order-three-right", "advance-center",
                                 "order-two-left"])
    s = s.apply("play order-three-left")
    assert s.prompt() == "Red: order units and Leaders (0 of 3 given)"
    assert s.apply("order B3").prompt() == "Red: order units and Leaders (1 of 3 given)"
