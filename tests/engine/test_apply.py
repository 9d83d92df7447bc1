"""The one ``apply`` (issue 32, item 2): every shipped ruleset's state applies an action by the
same steps, ``kassen.engine.tasks.TaskMachine.apply`` (C&C Samurai's compiled state by a native
copy of them over the same hooks): normalise, check, fork, run, advance, collect the events."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kassen.engine.errors import IllegalActionError
from kassen.engine.rng import Rng
from kassen.engine.tasks import TaskMachine
from kassen.rulesets import registry
from kassen.rulesets.cc_samurai.state import CCState

GAMES = [s.id for s in registry.specs()]


def _states(game_id: str, n: int) -> list[Any]:
    """The first ``n`` states of a seeded random game (concessions left out)."""
    state = registry.load_game(game_id).new_state(None, 5)
    rng = Rng(11)
    out = [state]
    while len(out) < n and not state.is_terminal():
        legal = [a for a in state.legal_actions() if a.split()[0] not in ("concede", "resign", "surrender")]
        if not legal:
            break
        state = state.apply(legal[rng.randbelow(len(legal))])
        out.append(state)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_every_ruleset_applies_by_the_task_machine(game_id: str) -> None:
    state = registry.load_game(game_id).new_state(None, 0)
    assert isinstance(state, TaskMachine)
    own = type(state).apply
    assert own is TaskMachine.apply or type(state) is CCState, f"{game_id} applies by its own method"


@pytest.mark.parametrize("game_id", GAMES)
def test_an_action_written_with_other_whitespace_is_the_same_action(game_id: str) -> None:
    checked = 0
    for state in _states(game_id, 40):
        legal = [a for a in state.legal_actions() if " " in a]
        if not legal:
            continue
        action = legal[0]
        spaced = "  " + action.replace(" ", " \t ") + " "
        a, b = state.apply(action), state.apply(spaced)
        assert json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)
        assert [e.text for e in a.events] == [e.text for e in b.events]
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("game_id", GAMES)
def test_an_illegal_action_names_why_and_changes_nothing(game_id: str) -> None:
    for state in _states(game_id, 15):
        before = json.dumps(state.to_json(), sort_keys=True)
        events = state.events
        with pytest.raises(IllegalActionError) as err:
            state.apply("no-such-action here")
        assert err.value.reason and "\n" not in str(err.value)
        assert err.value.action == "no-such-action here"
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert state.events is events


@pytest.mark.parametrize("game_id", GAMES)
def test_the_events_of_a_step_are_collected_and_none_are_left_over(game_id: str) -> None:
    states = _states(game_id, 30)
    assert len(states) > 5 and any(s.events for s in states[1:])
    for child in states[1:]:
        assert child._ev == []  # nothing left over for the next step
