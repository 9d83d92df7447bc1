"""An Honourable Victory!, the clan game and Kensei laid out by their rulebooks (issue 15): each
decision pending is a typed task on the engine's task machine, every kind has its handlers,
and no rules module grows past ~800 lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_type_hints

import pytest

from kassen.engine.errors import FormatError
from kassen.engine.rng import Rng
from kassen.engine.tasks import TaskMachine
from kassen.rulesets.clans import tasks as clan_tasks
from kassen.rulesets.clans.state import ClansState
from kassen.rulesets.honourable_victory import tasks as hv_tasks
from kassen.rulesets.honourable_victory.state import HVState
from kassen.rulesets.kensei import tasks as kensei_tasks
from kassen.rulesets.kensei.state import KenseiState
from kassen.rulesets.registry import load_game

RECORDS: dict[str, dict[str, Any]] = {
    "honourable-victory": {get_type_hints(r)["t"].__args__[0]: r for r in hv_tasks.HVTask.__args__},
    "clans": {get_type_hints(r)["t"].__args__[0]: r
              for r in (*clan_tasks.PhaseTask.__args__, *clan_tasks.DecisionTask.__args__)},
    "kensei": {kind: r for r in kensei_tasks.KenseiTask.__args__ for kind in get_type_hints(r)["t"].__args__},
}
PACKAGES = {"honourable-victory": "honourable_victory", "clans": "clans", "kensei": "kensei"}
#: Kensei's kinds that run by themselves (no decision): an ``_auto_`` handler each
KENSEI_AUTO = {"setup", "turn_start", "turn_cleanup", "activation_round", "order_roll", "orders", "end_activation"}


def _played(gid: str, games: int) -> list[Any]:
    """Every state of ``games`` seeded random games of each set-up of ``gid``."""
    game = load_game(gid)
    out = []
    for scenario in game.scenarios():
        for seed in range(games):
            rosters = ("kuge-artillery,kuroi-te-horde" if seed % 3 == 2 else  # war machines (K49)
                       "kuroi-te-horde,buke-vanguard" if seed % 2 else None)
            s = game.new_state(scenario, seed, **({"rosters": rosters} if gid == "kensei" and rosters else {}))
            rng = Rng(seed)
            out.append(s)
            while s.to_move() is not None:
                legal = [a for a in s.legal_actions() if a != "concede"] or s.legal_actions()
                s = s.apply(legal[rng.randbelow(len(legal))])
                out.append(s)
    return out


@pytest.mark.parametrize("gid", sorted(RECORDS))
def test_every_task_in_play_matches_its_typed_record(gid: str) -> None:
    seen = set()
    for s in _played(gid, 6):
        assert isinstance(s, TaskMachine)
        for task in s.stack:
            record = RECORDS[gid][task["t"]]
            hints = get_type_hints(record)
            assert set(task) <= set(hints), (task, record.__name__)
            assert record.__required_keys__ <= set(task), (task, record.__name__)
            seen.add(task["t"])
        if s.to_move() is None:
            assert s.stack == [] and s.legal_actions() == []
        else:
            assert s.legal_actions() == s._handlers(s.stack[-1]["t"])[0](s, s.stack[-1])
    expected = {"honourable-victory": {"fire", "move", "act2", "react"}, "clans": {"draft", "deploy", "resolve"},
                "kensei": {"role", "duel", "first", "activate", "orders", "movement", "targeted", "table", "roll",
                           "honour", "artillery"}}[gid]
    assert expected <= seen


@pytest.mark.parametrize(("cls", "gid"), [(HVState, "honourable-victory"), (ClansState, "clans"),
                                          (KenseiState, "kensei")])
def test_every_task_kind_has_its_handlers(cls: type[TaskMachine], gid: str) -> None:
    for kind in RECORDS[gid]:
        legal, act, auto = cls._handlers(kind)
        if gid == "kensei" and kind in KENSEI_AUTO:
            assert auto is not None, kind
            if kind != "orders":
                continue
        assert legal is not None and act is not None, kind


def test_the_saved_shapes_of_the_decision_pending_are_kept() -> None:
    s = load_game("honourable-victory").new_state(None, 1)
    assert s.to_json()["pend"] == s.pend == {"step": s.stack[-1]["t"], "seat": s.stack[-1]["seat"]}
    s.pend = {"step": "fire", "seat": 1, "done": 1}
    assert s.stack == [{"t": "fire", "seat": 1, "done": 1}] and s.to_move() == 1
    assert s.legal_actions()[-1] == "done"
    c = load_game("clans").new_state("2-players", 1)
    assert c.phase == "deploy" and c.pending is None and c.stack == [{"t": "deploy"}]
    c.phase = "resolve"
    c.pending = {"kind": "supply", "seat": 1}
    assert c.stack == [{"t": "resolve"}, {"t": "supply", "seat": 1}] and c.phase == "supply" and c.to_move() == 1
    assert c.to_json()["pending"] == {"kind": "supply", "seat": 1}
    c.pending = None
    assert c.phase == "resolve" and c.stack == [{"t": "resolve"}]
    c.phase = "over"
    assert c.stack == [] and c.to_move() is None


def test_kenseis_saved_phase_pending_and_questions_are_read_from_the_tasks() -> None:
    s = load_game("kensei").new_state("border-wars", 2)
    assert s.stack == [{"t": "role"}] and s.to_json()["phase"] == "role" and s.to_move() == s.data["mover"]
    s._push({"seat": 1, "t": "movement", "mover": [0, "x"], "options": ["no reaction"], "text": "react?"})
    s._ask(0, "resolve", ["roll"], "roll", combat=True)
    s._ask(1, "honour", ["honour pass", "honour fail"], "honour?", unit="y")
    j = s.to_json()
    assert j["pending"] == {"seat": 1, "kind": "movement", "mover": [0, "x"], "options": ["no reaction"],
                            "text": "react?"}
    assert j["questions"] == [{"seat": 0, "key": "resolve", "options": ["roll"], "text": "roll", "combat": True},
                              {"seat": 1, "key": "honour", "options": ["honour pass", "honour fail"],
                               "text": "honour?", "unit": "y"}]
    assert [t["t"] for t in s.stack] == ["role", "movement", "honour", "roll"] and s.to_move() == 0
    assert s.prompt() == "roll" and s.pending_actions() == ["roll"]
    back = load_game("kensei").state_from_json(j)
    assert back.stack == s.stack and back.to_json() == j
    for field, bad in (("phase", "turn start"), ("pending", {"kind": "react", "seat": 0})):
        with pytest.raises(FormatError, match="unknown"):
            load_game("kensei").state_from_json({**j, field: bad})


@pytest.mark.parametrize("gid", sorted(PACKAGES))
def test_no_rules_module_is_over_800_lines(gid: str) -> None:
    import kassen.rulesets

    root = Path(kassen.rulesets.__file__).parent / PACKAGES[gid]
    sizes = {p.name: len(p.read_text().splitlines()) for p in root.glob("*.py")}
    assert len(sizes) >= 10
    assert max(sizes.values()) <= 800, sizes
