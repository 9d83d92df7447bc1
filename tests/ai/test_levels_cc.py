"""Every C&C Samurai level (``easy``, ``normal``, ``hard``: the turn planner with the level's own
weights and settings) plays only legal actions, never concedes, and is blind: the same choice
when the opponent's cards, the decks and the dice to come differ (issue 33). The budgets are
cut (legality and blindness do not depend on them); every other setting is the level's."""

from __future__ import annotations

import pytest

from kassen.ai.planner import TurnPlanner
from kassen.ai.players import PLANNER_LEVELS, level_player
from kassen.rulesets.cc_samurai.state import CCState
from kassen.rulesets.registry import load_game
from tests.ai.helpers import play_legal
from tests.ai.test_planner import _state_at
from tests.ai.test_players import _with_other_hidden_information
from tests.rulesets.cc_samurai.helpers import act, position

LEVELS = ("easy", "normal", "hard")


def cheap(level: str, seed: int, game_id: str = "cc-samurai") -> TurnPlanner:
    """The level's planner with its counted budget cut: 2 battle samples, 2 rollouts of 2 cards,
    2 Dragon samples."""
    p = level_player(level, game_id, seed)
    assert isinstance(p, TurnPlanner)
    p.battle_samples = min(p.battle_samples, 2)
    p.card_rollouts = min(p.card_rollouts, 2)
    p.card_beam = min(p.card_beam, 2)
    p.dragon_samples = min(p.dragon_samples, 2)
    return p


def test_the_levels_keep_their_own_settings_when_cut():
    for level in LEVELS:
        p = cheap(level, 1)
        full = PLANNER_LEVELS[level]
        assert p.noise == full.get("noise", 0.0) and p.reply == bool(full.get("reply", False))
        assert p.dragon_hold == full["dragon_hold"]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", ["cc-samurai", "cc-samurai-zvezda"])
def test_every_cc_level_plays_only_legal_actions(level, game_id):
    s = load_game(game_id).new_state(None, 4)
    actions = play_legal(s, [cheap(level, 41, game_id), cheap(level, 42, game_id)], 90)
    assert any(a.startswith("play ") for a in actions) and any(a.startswith("move ") for a in actions)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("decision", ["play", "order", "move", "battle"])
def test_every_cc_level_is_blind_to_hidden_cards_and_future_dice(level, decision):
    s = _state_at(decision)
    seat = s.to_move()
    other = _with_other_hidden_information(s, seat)
    assert cheap(level, 9).choose(s, seat) == cheap(level, 9).choose(other, seat)


#: Red's bowmen shoot Blue's one-block spearmen with two hits: Blue may play Shot Proof Armor
SHOT = """
    [red]
    pieces = [{ at = "L3", unit = "SB" }]
    [blue]
    pieces = [{ at = "L5", unit = "SSp", blocks = 1 }, { at = "B9", unit = "ASp" }]
"""


def _dragon_window() -> CCState:
    s = position(SHOT, blue_dragons=["shot-proof-armor", "bravery"], victory=3)
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(s, "fire L3 L5", dice="s s c")
    assert "dragon shot-proof-armor" in s.legal_actions() and "pass" in s.legal_actions()
    return s


def _end_of_turn() -> CCState:
    s = position(SHOT, red_dragons=["cowardice", "bravery"])
    s = act(s, "play order-three-center", "done")
    assert s.legal_actions() and all(a.startswith(("discard-dragon", "keep-dragons")) for a in s.legal_actions())
    return s


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("where", ["dragon window", "end of turn"])
def test_every_cc_level_is_blind_at_dragon_windows_and_the_end_of_turn(level, where):
    s = _dragon_window() if where == "dragon window" else _end_of_turn()
    seat = s.to_move()
    other = _with_other_hidden_information(s, seat)
    assert cheap(level, 5).choose(s, seat) == cheap(level, 5).choose(other, seat)
