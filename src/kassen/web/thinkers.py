"""Computer players that think in child processes, so their computing never holds the server's
interpreter lock.

In one process, a thinking AI (pure Python, or mypyc-compiled code that seldom lets the lock
go) makes every request wait for the lock many times over: beside two `hard` players, people's
actions answered at p95 1.1 s instead of 47 ms (``benchmarks/load.py --attack 12``). Here each
AI worker thread of :class:`kassen.web.service.GameService` hands its decision to one of as many
child processes (``spawn``, lowered priority: people's requests go first when the cores are
busy) and waits for the answer without the lock.

A child keeps, per game, the state it last reached and the players of its computer seats, so a
planner's turn plan survives between its decisions as it does in one process: it is told the
game's record (ruleset, scenario, seed, options, the actions so far) and applies only the
actions it has not seen; an undo or a foreign history rebuilds the state by replay. A game goes
to the child that decided for it last when that one is free, else to any free one (which then
replays it, with its players made afresh; ``sticky`` waits instead). A child that dies is
started again; the decision it owed fails and the service tries it again
(:meth:`GameService._ai_failed`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger("kassen.web")

#: games one child keeps (the least recently asked for are dropped, and replayed if asked again)
KEPT_GAMES = 64


@dataclass(frozen=True)
class Question:
    """One decision asked of a child: the game's record up to now and the seat to decide for."""

    game_id: str
    ruleset: str
    scenario: str | None
    seed: int
    options: tuple[tuple[str, Any], ...]
    actions: tuple[str, ...]
    seat: int
    kind: str
    player_seed: int


@dataclass
class RemoteSeat:
    """A computer seat whose player lives in a child process: its level and seed, and the
    explanation of its last planned turn (sent back with each decision)."""

    kind: str
    seed: int
    explanation: str | None = None


class ThinkerLost(RuntimeError):
    """The child process died or could not be reached during a decision."""


@dataclass
class _Kept:
    header: tuple[Any, ...]
    actions: list[str]
    state: Any
    players: dict[int, tuple[str, int, Any]] = field(default_factory=dict)


def _child(conn: Connection, nice: int) -> None:
    """The child's loop: answer ``Question``s until told to stop (``None``) or the pipe closes."""
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    from kassen.ai.players import make_player
    from kassen.rulesets.registry import load_game

    games: OrderedDict[str, _Kept] = OrderedDict()
    while True:
        try:
            q = conn.recv()
        except (EOFError, OSError):
            return
        if q is None:
            return
        try:
            header = (q.ruleset, q.scenario, q.seed, q.options)
            kept = games.get(q.game_id)
            if kept is None or kept.header != header:
                kept = _Kept(header, [], load_game(q.ruleset).new_state(q.scenario, q.seed, **dict(q.options)))
            games[q.game_id] = kept
            games.move_to_end(q.game_id)
            while len(games) > KEPT_GAMES:
                games.popitem(last=False)
            known = len(kept.actions)
            if known > len(q.actions) or list(q.actions[:known]) != kept.actions:
                kept.state = load_game(q.ruleset).new_state(q.scenario, q.seed, **dict(q.options))
                kept.actions = []
            for action in q.actions[len(kept.actions):]:
                kept.state = kept.state.apply(action)
                kept.actions.append(action)
            have = kept.players.get(q.seat)
            if have is None or have[:2] != (q.kind, q.player_seed):
                have = (q.kind, q.player_seed, make_player(q.kind, q.player_seed))
                kept.players[q.seat] = have
            player = have[2]
            start = time.process_time()
            action = player.choose(kept.state, q.seat)
            spent = time.process_time() - start
            text = getattr(player, "explanation", None)
            conn.send(("ok", action, text if isinstance(text, str) else None, spent))
        except Exception as exc:  # told to the service, which logs it and tries again later
            games.pop(q.game_id, None)
            conn.send(("error", f"{type(exc).__name__}: {exc}", None, 0.0))


class _Slot:
    """One child process and the pipe to it."""

    def __init__(self, index: int, nice: int) -> None:
        self.index = index
        self.nice = nice
        self.busy = False
        self.closed = False
        self.process: Any = None
        self.conn: Connection | None = None  # started at its first decision (a server without AI seats has none)

    def start(self) -> None:
        # a fresh interpreter (``python -m kassen.web.thinkers FD NICE``), never a fork of a server
        # with threads, nor multiprocessing's spawn (which imports the parent's main module again)
        mine, theirs = socket.socketpair()
        proc = subprocess.Popen([sys.executable, "-m", "kassen.web.thinkers", str(theirs.fileno()), str(self.nice)],
                                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        self.process, self.conn = proc, Connection(mine.detach())

    def ask(self, q: Question) -> tuple[str, str | None, float]:
        if self.closed:
            raise ThinkerLost("the server is stopping")
        if self.process is not None and self.process.poll() is not None:
            log.error("AI process %d had stopped; it is started again", self.index)
            self.stop()
        if self.process is None or self.conn is None:
            self.start()
        assert self.conn is not None
        try:
            self.conn.send(q)
            status, value, text, spent = self.conn.recv()
        except (EOFError, OSError) as exc:
            if self.closed:
                raise ThinkerLost("the server is stopping") from None
            log.error("AI process %d stopped during a decision of game %s (%s); it is started again",
                      self.index, q.game_id, type(exc).__name__)
            self.stop()
            self.start()
            raise ThinkerLost(f"the AI process deciding for game {q.game_id} stopped") from None
        if status != "ok":
            raise RuntimeError(f"AI of seat {q.seat} ({q.kind}) in game {q.game_id}: {value}")
        return str(value), text, float(spent)

    def stop(self, wait: float = 0.0) -> None:
        conn, proc = self.conn, self.process
        self.conn = self.process = None
        if conn is not None:
            if wait:
                with contextlib.suppress(OSError):
                    conn.send(None)
            conn.close()
        if proc is not None:
            try:
                proc.wait(wait)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5.0)


class ThinkerPool:
    """Up to ``size`` child processes deciding for computer seats, each started when first
    needed; :meth:`ask` blocks (without the interpreter lock) until a child has answered. With
    as many children as AI worker threads, a worker always finds a free child."""

    def __init__(self, size: int, nice: int = 10, sticky: bool = False) -> None:
        """``sticky``: a game always waits for the child that decided for it first, so its players
        are never made afresh and the same seeds give the same games (a server under test)."""
        self.sticky = sticky
        self.cond = threading.Condition()
        self.slots = [_Slot(i, nice) for i in range(max(1, size))]
        self.last: OrderedDict[str, _Slot] = OrderedDict()
        self.closed = False

    def ask(self, q: Question) -> tuple[str, str | None, float]:
        """The action the seat's player chooses, its explanation, and the child's CPU seconds."""
        with self.cond:
            while True:
                if self.closed:
                    raise ThinkerLost("the server is stopping")
                free = [s for s in self.slots if not s.busy]
                known = self.last.get(q.game_id)
                if self.sticky and known is not None:
                    free = [known] if known in free else []
                if free:  # the game's own child, else one already running, else a new one
                    slot = known if known in free else min(free, key=lambda f: f.process is None)
                    slot.busy = True
                    self.last[q.game_id] = slot
                    self.last.move_to_end(q.game_id)
                    while len(self.last) > KEPT_GAMES * len(self.slots):
                        self.last.popitem(last=False)
                    break
                self.cond.wait()
        try:
            return slot.ask(q)
        finally:
            with self.cond:
                slot.busy = False
                self.cond.notify_all()

    def pids(self) -> list[int]:
        """The children's process ids (for tests and the log)."""
        return [s.process.pid for s in self.slots if s.process is not None]

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        for s in self.slots:
            s.closed = True
            s.stop(wait=2.0)


if __name__ == "__main__":  # the child: python -m kassen.web.thinkers FD NICE
    _child(Connection(int(sys.argv[1])), int(sys.argv[2]))
