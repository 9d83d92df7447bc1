"""Copy-on-write (CCState.clone): a state shares most of its data with the state it was
applied to until it first writes it. Applying any action must never change the state it
was applied to, nor a state it shares data with: at every decision of seeded random games
(both editions, several scenarios), *every* legal action is applied and the state must
still serialise, list its actions and show its pieces exactly as before."""

import json
import os
import subprocess
import sys

import pytest

from kassen.ai.players import RandomPlayer
from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai.state import COW_ALL, CCState
from kassen.rulesets.registry import load_game

#: decisions per game; KASSEN_COW_DECISIONS raises it for a longer run by hand
DECISIONS = int(os.environ.get("KASSEN_COW_DECISIONS", "250"))


def snapshot(s: CCState) -> tuple[str, list[str], list[object], list[object], str]:
    """Everything an apply could disturb, in insertion order (dict order matters to the rules)."""
    return (json.dumps(s.to_json()), s.legal_actions(), list(s.units.items()), list(s.leaders.items()),
            json.dumps([e.to_json() for e in s.events]))


@pytest.mark.parametrize(("game_id", "scenario", "seed"), [
    ("cc-samurai", None, 11),
    ("cc-samurai", "sekigahara-1600", 12),
    ("cc-samurai", "nagashino-1575", 13),
    ("cc-samurai", "koriyama-castle-1540", 14),
    ("cc-samurai-zvezda", None, 15),
])
def test_no_apply_changes_the_state_it_was_applied_to(game_id, scenario, seed):
    game = load_game(game_id)
    state = game.new_state(scenario, seed)
    players = [RandomPlayer(seed * 7919 + i) for i in range(2)]
    rng = Rng(seed)
    shared = 0
    for _ in range(DECISIONS):
        seat = state.to_move()
        if seat is None:
            break
        before = snapshot(state)
        children = [state.apply(a) for a in state.legal_actions()]
        for child in children:  # the children's own later writes must not reach the parent either
            if not child.is_terminal():
                child.apply(child.legal_actions()[0])
        det = state.determinize(seat, rng)
        if not det.is_terminal():
            det.apply(det.legal_actions()[-1])
        assert snapshot(state) == before
        shared += sum(1 for c in children if c._cow == COW_ALL)
        state = state.apply(players[seat].choose(state, seat))
    assert shared > 0  # the mechanism is in use: some children wrote none of the shared groups


def test_a_fork_shares_until_written_and_then_owns_its_copy():
    state = load_game("cc-samurai").new_state(None, 1)
    child = state.fork()
    assert child.hands is state.hands and child.units is state.units and child.honor is state.honor
    child.own_cards()
    child.own_pieces()
    child.own_score()
    assert child.hands == state.hands and child.hands is not state.hands
    assert all(a is not b for a, b in zip(child.hands, state.hands))
    assert child.units == state.units and child.units is not state.units
    child.hands[0].append("x")
    child.honor[0] += 5
    assert "x" not in state.hands[0] and state.honor[0] + 5 == child.honor[0]
    top = child.own_top()
    assert top == state.stack[-1] and top is not state.stack[-1]


def test_clone_is_an_independent_copy():
    state = load_game("cc-samurai").new_state(None, 2)
    for _ in range(30):
        state = state.apply(state.legal_actions()[0])
    before = json.dumps(state.to_json())
    copy = state.clone()
    copy.hands[0].append("x")
    copy.cmd_deck.reverse()
    copy.units.clear()
    copy.honor[1] += 3
    copy.stack[-1]["seat"] = 7
    for v in copy.ti.values():
        if isinstance(v, list):
            v.append("x")
    assert json.dumps(state.to_json()) == before


def test_a_fork_sets_every_attribute_of_its_parent():
    """``fork`` copies attribute by attribute (the compiled build has no ``__dict__``): an
    attribute added to ``__init__`` but forgotten there would be missing from every child."""
    state = load_game("cc-samurai").new_state(None, 3)
    for _ in range(40):
        state = state.apply(state.legal_actions()[-1])
    if not hasattr(state, "__dict__"):
        # the compiled build's states have no __dict__: check it on the sources
        p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                            f"{__file__}::test_a_fork_sets_every_attribute_of_its_parent"],
                           env={**os.environ, "KASSEN_PURE_PYTHON": "1"}, capture_output=True, text=True)
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
        return
    assert set(vars(state.fork())) == set(vars(state))
