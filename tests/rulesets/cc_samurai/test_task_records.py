"""C&C Samurai's pending decisions as typed task records (issue 15): one TypedDict per kind the
state dispatches (and no record without its handlers), and every task met in play, or in the
saves made before the records were typed, has exactly the fields and types of its record."""

from __future__ import annotations

import json
import re
import types
from pathlib import Path
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

import pytest

from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai import state as state_module
from kassen.rulesets.cc_samurai import tasks
from kassen.rulesets.cc_samurai.board import NAMES, board
from kassen.rulesets.cc_samurai.state import CCState
from kassen.rulesets.registry import load_game

RECORDS: dict[str, Any] = {get_args(get_type_hints(r)["t"])[0]: r for r in get_args(tasks.CCTask)}
SRC = Path(tasks.__file__).with_suffix(".py").parent
SAVES = Path(__file__).parents[1] / "saves" / "cc_pending_saves.json"
BOARD = board()
NAMES_OF = set(NAMES)


def _fits(value: Any, hint: Any) -> bool:
    """``value`` (JSON) is of type ``hint`` (the records' types: scalars, literals, lists, unions)."""
    origin = get_origin(hint)
    if origin is NotRequired:
        return _fits(value, get_args(hint)[0])
    if origin is Literal:
        return value in get_args(hint)
    if origin in (Union, types.UnionType):
        return any(_fits(value, h) for h in get_args(hint))
    if origin is list:
        return type(value) is list and all(_fits(v, get_args(hint)[0]) for v in value)
    if hint is type(None):
        return value is None
    return type(value) is hint


def _check(task: dict[str, Any]) -> None:
    record = RECORDS[task["t"]]
    hints = get_type_hints(record)
    assert set(task) <= set(hints), (task, record.__name__)
    assert record.__required_keys__ <= set(task), (task, record.__name__)
    for k, v in task.items():
        assert _fits(v, hints[k]), (k, v, record.__name__)
    # a hex (``Hex``, an ``int``) is a hex of the board, never a name
    for k in tasks.HEX_FIELDS:
        if task.get(k) is not None:
            assert task[k] in BOARD, (k, task[k], record.__name__)
    for k in tasks.HEX_LIST_FIELDS:
        assert all(h in BOARD for h in task.get(k, [])), (k, task[k], record.__name__)


def test_one_record_per_kind_and_a_kind_per_record() -> None:
    assert len(RECORDS) == len(get_args(tasks.CCTask)) == len(tasks.KINDS)
    assert set(RECORDS) == set(tasks.KINDS)
    for kind, record in RECORDS.items():
        assert record.__required_keys__ >= {"t", "seat"}, kind
        assert get_type_hints(record)["seat"] is int


def test_every_kind_the_dispatcher_knows_has_its_record_and_handlers() -> None:
    # the kinds with handlers in the rule modules, and those of the one dispatch table
    handled = {m.group(2) for mod in state_module.RULE_MODULES for name in dir(mod)
               if (m := re.fullmatch(r"_(legal|act|auto)_(\w+)", name))}
    assert handled == set(RECORDS) == set(state_module.TASK_HANDLERS)
    for kind in RECORDS:  # every kind is a decision: its legal actions and how to apply one
        legal, act, auto = state_module.TASK_HANDLERS[kind]
        assert legal is not None and act is not None, kind
        assert legal.__name__ == f"_legal_{kind}" and act.__name__ == f"_act_{kind}", kind
        assert auto is None or auto.__name__ == f"_auto_{kind}", kind
    # no rule handler is left on the state class itself
    assert not [n for n in dir(CCState) if re.fullmatch(r"_(legal|act|auto)_\w+", n)]
    # the state's three dispatches read nothing but the table (no kind dispatched by hand)
    state_src = (SRC / "state.py").read_text()
    assert not re.findall(r'\bt == "(\w+)"', state_src)


def test_a_task_kind_without_its_handlers_stops_the_table() -> None:
    with pytest.raises(TypeError, match="'siege' has no _legal_siege or _act_siege handler"):
        state_module.task_handlers(state_module.RULE_MODULES, (*tasks.KINDS, "siege"))


def test_a_task_kind_handled_in_two_modules_stops_the_table() -> None:
    from kassen.rulesets.cc_samurai import battle, turn
    with pytest.raises(TypeError, match="'play' has its _legal_ handler in two modules"):
        state_module.task_handlers((turn, battle, turn), tasks.KINDS)


def test_the_kinds_without_automatic_steps_are_decisions_advance_stops_on() -> None:
    """``play``, ``turncoat`` and ``pick`` have no ``_auto_`` handler: ``advance`` stops on them."""
    table = state_module.task_handlers(state_module.RULE_MODULES, tasks.KINDS)
    assert {k for k, h in table.items() if h[2] is None} == {"play", "turncoat", "pick"}
    s = load_game("cc-samurai").new_state(None, 0)
    assert s.stack[-1]["t"] == "play"
    before = list(s.stack)
    s.advance()
    assert s.stack == before and s.legal_actions()


def test_every_builder_of_the_stack_goes_through_a_record() -> None:
    for path in sorted(SRC.glob("*.py")):
        text = path.read_text()
        assert not re.search(r'stack\.append\(\{"t"|stack\[-1\] = \{"t"|stack = \[\{"t"', text), path.name


@pytest.mark.parametrize("gid", ["cc-samurai", "cc-samurai-zvezda"])
def test_every_task_in_play_matches_its_record(gid: str) -> None:
    game = load_game(gid)
    seen: set[str] = set()
    for scenario in game.scenarios()[:4]:
        for seed in range(2):
            s = game.new_state(scenario, seed)
            rng = Rng(seed + 11)
            while s.to_move() is not None:
                for task in s.stack:
                    _check(task)
                    seen.add(task["t"])
                legal = [a for a in s.legal_actions() if a != "concede"] or s.legal_actions()
                dragon = [a for a in legal if a.startswith("dragon ")]
                s = s.apply((dragon or legal)[rng.randbelow(len(dragon or legal))])
    assert {"play", "order", "move", "battle", "end", "combat", "retreat", "dragon"} <= seen


def test_every_task_of_the_old_saves_matches_its_record() -> None:
    saves = json.loads(SAVES.read_text())
    kinds = set()
    for cases in saves.values():
        for case in cases:
            for state in (case["state"], case["after"]):
                for task in state["stack"]:
                    # a save names its hexes; the state holds the board's hexes
                    assert all(isinstance(task.get(k, ""), str) for k in tasks.HEX_FIELDS), task
                    held = tasks.task_from_json(task, BOARD.parse)
                    _check(held)
                    assert tasks.task_json(held, BOARD.name) == task
                    kinds.add(task["t"])
    assert kinds == set(RECORDS)


def test_a_saved_state_names_the_hexes_of_its_tasks_and_reads_them_back() -> None:
    """The stack of ``to_json`` is the JSON of before the tasks held hexes (names), and
    ``from_json`` gives the same tasks back: a state saved mid-combat reloads to the same game."""
    game = load_game("cc-samurai")
    s, rng, seen = game.new_state(None, 3), Rng(5), 0
    while s.to_move() is not None and seen < 40:
        if s.pending_kind() in ("combat", "retreat", "lretreat", "loh", "turncoat") or any(
                k in s.stack[-1] for k in tasks.HEX_FIELDS):
            d = s.to_json()
            assert json.loads(json.dumps(d)) == d  # plain JSON: no tuple in it
            for task in d["stack"]:
                for k in tasks.HEX_FIELDS:
                    if k in task:
                        assert task[k] in NAMES_OF, (k, task)
            back = CCState.from_json(game, d)
            assert back.stack == s.stack and back.legal_actions() == s.legal_actions()
            assert back.to_json() == d
            seen += 1
        legal = [a for a in s.legal_actions() if a != "concede"] or s.legal_actions()
        s = s.apply(legal[rng.randbelow(len(legal))])
    assert seen >= 10


def test_a_task_that_does_not_fit_its_record_is_told() -> None:
    with pytest.raises(AssertionError):
        _check({"t": "retreat", "seat": 0, "uid": "u1", "at": "C4", "left": "2", "moved": 0, "leader": False, "by": 1})
    with pytest.raises(AssertionError):
        _check({"t": "move", "seat": 0, "extra": 1})
    with pytest.raises(AssertionError):  # a hex name where the state holds a hex
        _check({"t": "lretreat", "seat": 0, "lid": "l1", "at": "C4"})
    with pytest.raises(AssertionError):  # a number that is no hex of the board
        _check({"t": "lretreat", "seat": 0, "lid": "l1", "at": BOARD.ncells})
    _check({"t": "lretreat", "seat": 0, "lid": "l1", "at": BOARD.parse("C4")})
