"""Orders: what the prompt tells the player about the card's orders (issue 18, item 10)."""

from __future__ import annotations

from kassen.rulesets.cc_samurai.state import CCState
from tests.rulesets.cc_samurai.helpers import position

#: Red's hand in these positions: the card played first, then the others in this order
HAND = ["order-three-left", "order-two-center", "order-three-right", "advance-center", "order-two-left"]


def _ordering(red_pieces: str, card: str) -> CCState:
    """Red's ``card`` played with Red's ASp at ``red_pieces`` (hex names) and one Blue ASp at M8:
    the order decision it opens."""
    pieces = ", ".join(f'{{ at = "{h}", unit = "ASp" }}' for h in red_pieces.split())
    body = f"""
        [red]
        pieces = [{pieces}]
        [blue]
        pieces = [{{ at = "M8", unit = "ASp" }}]
    """
    return position(body, red_hand=[card] + [c for c in HAND if c != card]).apply(f"play {card}")


def test_ordering_prompt_says_how_many_orders_the_card_gives() -> None:
    """Issue 18, item 10: "2 of 3 ordered" was never shown; the prompt now counts against the
    card (Order Two: 2)."""
    s = _ordering("L3 N3 P3", "order-two-center")
    assert s.prompt() == "Red: order units and Leaders (0 of 2 given)"
    s = s.apply("order L3")
    assert s.prompt() == "Red: order units and Leaders (1 of 2 given)"


def test_ordering_prompt_counts_only_the_pieces_that_can_take_an_order() -> None:
    """Issue 30, item 5: "0 of 3 given" on Order Three Left with one unit in the left section
    promised orders nobody could take; the count is of the pieces the card can order (section
    cards: Give ordres to N units in the section; there are only so many there)."""
    s = _ordering("B3 N3 P3", "order-three-left")
    assert s.prompt() == "Red: order units and Leaders (0 of 1 given)"
    assert [a for a in s.legal_actions() if a.startswith("order ")] == ["order B3"]
    s = s.apply("order B3")
    assert s.prompt() == "Red: move ordered units and Leaders"  # every order that can be given is


def test_ordering_prompt_keeps_the_cards_number_when_enough_pieces_can_take_it() -> None:
    s = _ordering("B3 D3 F3 C2", "order-three-left")
    assert s.prompt() == "Red: order units and Leaders (0 of 3 given)"
    assert s.apply("order B3").prompt() == "Red: order units and Leaders (1 of 3 given)"
