"""Computer players thinking in child processes (issue 31: a thinking AI must not hold the
server's interpreter lock): the same decisions as in the server's own threads, a child that
dies is replaced and its game goes on, an undo is followed, the children's CPU counts as the
game's AI work, and no child outlives the service."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kassen.ai.players import make_player
from kassen.engine.protocol import CHANCE
from kassen.rulesets.registry import load_game
from kassen.web.service import GameService, LiveGame
from kassen.web.storage import Storage
from kassen.web.thinkers import Question, RemoteSeat, ThinkerPool


def until(check: Callable[[], bool], seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def service(tmp_path: Path, workers: int = 2) -> GameService:
    return GameService(Storage(f"sqlite:///{tmp_path / 'g.db'}"), ai_workers=workers, ai_processes=True)


def replayed_decisions(live: LiveGame) -> int:
    """Replays ``live``'s record with the same players made in this process and checks that
    every computer decision is the one the children made; returns how many there were."""
    s = live.stored
    state = load_game(s.ruleset).new_state(s.scenario, s.seed, **s.options)
    players = {i: make_player(seat.kind, seat.seed) for i, seat in live.players.items() if isinstance(seat, RemoteSeat)}
    checked = 0
    for action in s.actions:
        mover = state.to_move()
        if mover != CHANCE and mover in players:
            assert players[mover].choose(state, mover) == action, f"decision {checked} differs"
            checked += 1
        state = state.apply(action)
    return checked


def test_children_decide_as_the_servers_own_threads_would(tmp_path: Path) -> None:
    svc = service(tmp_path)
    try:
        live, _ = svc.create("clans", None, ["greedy", "random"])
        assert all(isinstance(p, RemoteSeat) for p in live.players.values())
        until(lambda: live.state.is_terminal())
        assert replayed_decisions(live) > 10
        assert live.work > 0  # the children's CPU seconds are the game's AI work
    finally:
        svc.close()


def test_a_planning_level_explains_its_turn_from_a_child(tmp_path: Path) -> None:
    svc = service(tmp_path)
    try:
        live, _ = svc.create("cc-samurai", None, ["normal", "random"])
        until(lambda: any(p["seat"] == 0 for p in live.plans) or live.state.is_terminal(), 120)
        assert any("plan" in p["text"] for p in live.plans if p["seat"] == 0)
    finally:
        svc.close()


def test_a_child_that_dies_is_replaced_and_its_game_goes_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    svc = service(tmp_path, workers=1)
    assert svc.thinkers is not None
    try:
        live, _ = svc.create("cc-samurai", None, ["random", "random"])
        until(lambda: live.version >= 5)
        (pid,) = svc.thinkers.pids()
        with caplog.at_level(logging.ERROR, logger="kassen.web"):
            os.kill(pid, signal.SIGKILL)
            seen = live.version
            until(lambda: live.version >= seen + 20 or live.state.is_terminal())
        (new,) = svc.thinkers.pids()
        assert new != pid
        assert any("started again" in r.getMessage() for r in caplog.records)
        # its players were made afresh in the new child (as after a server restart); every
        # decision was legal where it was made, and stored
        stored = svc.storage.load_game(live.stored.id)
        assert stored is not None and stored.actions[:seen + 20] == live.stored.actions[:seen + 20]
    finally:
        svc.close()


def test_a_child_follows_an_undo_by_replaying() -> None:
    game = load_game("clans")
    state = game.new_state(None, 5)
    history: list[str] = []
    decisions: list[tuple[int, int]] = []  # (actions before, seat) where a seat decides
    while len(decisions) < 8:
        mover = state.to_move()
        assert mover is not None
        if mover == CHANCE:
            action = state.chance_outcomes()[0][0]
        else:
            decisions.append((len(history), mover))
            action = state.legal_actions()[-1]
        history.append(action)
        state = state.apply(action)
    pool = ThinkerPool(1)
    try:
        for at, seat in (decisions[7], decisions[2], decisions[5]):  # forward, back (an undo), forward
            st = game.new_state(None, 5)
            for a in history[:at]:
                st = st.apply(a)
            action, _, _ = pool.ask(Question("g", "clans", None, 5, (), tuple(history[:at]), seat, "greedy", 1))
            assert action in st.legal_actions()
    finally:
        pool.close()


def test_an_error_in_a_child_is_told_and_the_child_stays(tmp_path: Path) -> None:
    pool = ThinkerPool(1)
    try:
        pool.ask(Question("g", "clans", None, 5, (), (), 0, "random", 1))
        (pid,) = pool.pids()
        with pytest.raises(RuntimeError, match="unknown game"):
            pool.ask(Question("g", "no-such-game", None, 1, (), (), 0, "greedy", 1))
        assert pool.pids() == [pid]
    finally:
        pool.close()


def test_no_child_outlives_the_service(tmp_path: Path) -> None:
    svc = service(tmp_path)
    assert svc.thinkers is not None
    assert svc.thinkers.pids() == []  # none before a computer seat is to move
    live, _ = svc.create("cc-samurai", None, ["random", "random"])
    until(lambda: live.version >= 3)
    pids = svc.thinkers.pids()
    assert len(pids) == 1  # one game at a time: one child was enough
    svc.close()
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left either


def test_a_sticky_pool_waits_for_the_games_own_child() -> None:
    """Under a test seed a game keeps its child (its players are never made afresh elsewhere)."""
    pool = ThinkerPool(2, sticky=True)
    try:
        q = Question("a", "clans", None, 5, (), (), 0, "random", 1)
        pool.ask(q)
        own = pool.last["a"]
        with pool.cond:
            own.busy = True  # its own child busy with another game; the other one free
        done = threading.Event()

        def again() -> None:
            pool.ask(q)
            done.set()

        threading.Thread(target=again, daemon=True).start()
        assert not done.wait(0.5)
        with pool.cond:
            own.busy = False
            pool.cond.notify_all()
        assert done.wait(30)
        assert pool.last["a"] is own
    finally:
        pool.close()


def test_children_think_at_a_lower_priority_than_the_server() -> None:
    pool = ThinkerPool(1, nice=5)
    try:
        pool.ask(Question("g", "clans", None, 5, (), (), 0, "random", 1))
        (pid,) = pool.pids()
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 5)
    finally:
        pool.close()
