"""Copy-on-write of the Battlefields' sides (ClansState._fork): ``apply``'s copy shares each side's
list of cards with the state it was applied to until the rules change that side (``own_side``).
Applying any action must never change the state it was applied to: at every decision of seeded
random games (every scenario), *every* legal action is applied and the state must still
serialise and list its actions exactly as before. ``clone`` shares nothing it may change."""

import json

import pytest

from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game

SCENARIOS = list(load_game("clans").scenarios())


def snapshot(s):
    return json.dumps(s.to_json()), s.legal_actions()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_apply_changes_the_state_it_was_applied_to(scenario):
    game = load_game("clans")
    for seed in (1, 2):
        s = game.new_state(scenario, seed)
        rng = Rng(seed)
        while not s.is_terminal():
            before = snapshot(s)
            children = [s.apply(a) for a in s.legal_actions()]
            for c in children:  # the children's own changes, once more, must not reach the parent
                if not c.is_terminal():
                    c.apply(c.legal_actions()[-1])
            assert snapshot(s) == before
            s = rng.choice(children)


def test_a_side_unchanged_by_an_action_is_shared_and_a_changed_one_is_not():
    """After a deploy, the side that got the card is a new list, every other side the parent's own
    object (what the env's observer skips by identity); a clone shares none."""
    game = load_game("clans")
    s = game.new_state("2-players", 3)
    rng = Rng(3)
    deploys = 0
    while not s.is_terminal() and deploys < 30:
        a = rng.choice(s.legal_actions())
        t = s.apply(a)
        if a.startswith(("deploy ", "deploy-down ")) and len(t.tiles) == len(s.tiles):
            tile = a.split()[-1]
            i = s.tiles.index(tile)
            changed = [(k, j) for k in range(len(s.tiles)) for j in (0, 1) if t.stacks[k][j] is not s.stacks[k][j]]
            if any(e.kind == "battle" for e in t.events):  # Combat followed: it reveals cards
                assert not a.startswith("deploy ") or (i, s.side_of(i, s.turn)) in changed
            else:
                if a.startswith("deploy ") or changed:  # a Regular face down is removed, no side changes
                    assert changed == [(i, s.side_of(i, s.turn))]
                deploys += 1
        c = t.clone()
        assert all(c.stacks[k][j] is not t.stacks[k][j] and c.stacks[k][j] == t.stacks[k][j]
                   for k in range(len(t.tiles)) for j in (0, 1))
        s = t
    assert deploys >= 10
