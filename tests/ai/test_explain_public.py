"""The look-ahead levels' explanation of their turns (issue 30, item 5: "Explain the AI's turns"
in An Honourable Victory! and the clan game) tells nothing a seat may not see: two states that
differ only in what the AI's seat cannot see (the opponent's face-down cards, the dice to come,
secret fire declarations) give the same words, and the words never name the action."""

from __future__ import annotations

import pytest

from kassen.ai.lookahead import explain_notes
from kassen.ai.players import level_player
from kassen.engine.rng import Rng
from tests.ai.test_levels import _cheap, _clans_position_with_a_secret, _hv_position


def test_clans_explanation_is_the_same_whatever_the_opponents_hidden_cards() -> None:
    s, t, seat = _clans_position_with_a_secret()
    a, b = _cheap(level_player("easy", "clans", 5)), _cheap(level_player("easy", "clans", 5))
    chosen = a.choose(s, seat)
    assert chosen == b.choose(t, seat)
    text = a.explanation  # type: ignore[attr-defined]
    assert isinstance(text, str) and text == b.explanation  # type: ignore[attr-defined]
    assert "playouts" in text and chosen not in text and chosen.split()[1] not in text


@pytest.mark.parametrize("step", ["move", "fire"])
def test_honourable_victory_explanation_is_the_same_whatever_the_hidden_dice_and_declarations(step: str) -> None:
    s = _hv_position(step, need_declared=step == "fire")
    seat = s.to_move()
    t = s.clone()
    t.events = s.events
    t.rng = Rng(424242)
    if step == "fire":
        other = 1 - seat
        t.fire_decl[other] = [] if s.fire_decl[other] else t.fire_decl[other]
    a, b = _cheap(level_player("easy", "honourable-victory", 3)), _cheap(level_player("easy", "honourable-victory", 3))
    chosen = a.choose(s, seat)
    assert chosen == b.choose(t, seat)
    text = a.explanation  # type: ignore[attr-defined]
    assert isinstance(text, str) and text == b.explanation  # type: ignore[attr-defined]
    assert chosen not in text


def test_explanation_groups_a_turns_decisions_by_their_question() -> None:
    notes = [("North: fire?", 16, False, 0.5, 0.25), ("North: fire?", 16, False, 0.25, None),
             ("North: move?", 8, True, -1.0, 0.5)]
    assert explain_notes("easy", 3, notes) == (
        "easy, turn 3: North: fire? (2 decisions, 32 playouts on resampled hidden facts): the last choice estimated "
        "+0.25; North: move? (1 decision, 8 playouts to the result): the choice estimated -1.00, +0.50 over the next "
        "best.")
