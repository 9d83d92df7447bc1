"""The C&C Samurai planner plays a Dragon card when it clearly pays and keeps it when it
does not (constructed positions, every die forced)."""

from __future__ import annotations

from kassen.ai.planner import TurnPlanner
from tests.rulesets.cc_samurai.helpers import act, position, unit

BLUE = 1
#: Red's bowmen at L3 shoot at Blue's spearmen at L5 (two hexes away)
SHOOT = """
    [red]
    pieces = [{{ at = "L3", unit = "SB" }}]
    [blue]
    pieces = [{{ at = "L5", unit = "SSp", blocks = {blocks} }}, {{ at = "B9", unit = "ASp" }}]
"""


def _shot_at(blocks: int, dice: str):
    s = position(SHOOT.format(blocks=blocks), blue_dragons=["shot-proof-armor"], victory=3)
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(s, "fire L3 L5", dice=dice)
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon shot-proof-armor", "pass"]
    return s


def planner(seed: int, **kw: object) -> TurnPlanner:
    return TurnPlanner(seed, battle_samples=2, card_rollouts=0, dragon_samples=3, **kw)  # type: ignore[arg-type]


def test_planner_plays_shot_proof_armor_to_save_its_last_block():
    s = _shot_at(1, "s s c")  # two hits on a one-block unit: eliminated, a banner for Red
    for seed in (1, 2, 3):
        p = planner(seed)
        assert p.choose(s, BLUE) == "dragon shot-proof-armor"
        assert 0 < p.dragon_work <= 2 * p.dragon_samples  # counted: (cards + not playing) x samples
    after = act(s, "dragon shot-proof-armor")
    assert unit(after, "L5").blocks == 1


def test_planner_keeps_shot_proof_armor_when_the_shot_missed():
    s = _shot_at(4, "c c t")  # no die hits the square unit and no flag: the card would buy nothing
    for seed in (1, 2, 3):
        assert planner(seed).choose(s, BLUE) == "pass"


def test_planner_without_dragons_keeps_the_previous_policy():
    s = _shot_at(1, "s s c")
    p = planner(1, dragons=0)
    assert p.choose(s, BLUE) == "pass" and p.dragon_work == 0


def test_the_dragon_choice_does_not_see_the_opponents_hand_the_decks_or_the_dice():
    from tests.ai.test_players import _with_other_hidden_information

    for blocks, dice in ((1, "s s c"), (2, "s c c"), (4, "c c t")):
        s = _shot_at(blocks, dice)
        other = _with_other_hidden_information(s, BLUE)
        a, b = planner(7), planner(7)
        assert a.choose(s, BLUE) == b.choose(other, BLUE)
        assert a.dragon_work == b.dragon_work
