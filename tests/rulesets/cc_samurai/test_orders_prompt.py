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
