"""Nobody can stall the server (issue 13): AI work shared fairly between games, limits with
clear 429s, nothing loaded before it is asked for, idle games unloaded, abandoned ones expired."""

from __future__ import annotations

import threading
import time
import warnings
from collections import deque
from pathlib import Path
from typing import Any

from sqlalchemy import update

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from kassen.ai.players import Player, RandomPlayer
from kassen.engine.protocol import State
from kassen.web.app import create_app
from kassen.web.service import GameService, Limits
from kassen.web.storage import Storage, games_table
from tests.web.conftest import Seat


class Recorder:
    """Computer players that write down each decision they start; ``mcts`` ones take their time
    (sleeping, so the test does not load the CPU)."""

    def __init__(self, slow: float = 0.05) -> None:
        self.starts: list[str] = []
        self.lock = threading.Lock()
        self.slow = slow

    def __call__(self, kind: str, seed: int) -> Player:
        rec = self

        class P(Player):
            name = kind

            def __init__(self) -> None:
                self.inner = RandomPlayer(seed)

            def choose(self, state: State, seat: int) -> str:
                with rec.lock:
                    rec.starts.append(kind)
                rec.work(kind)
                return self.inner.choose(state, seat)

        return P()

    def work(self, kind: str) -> None:
        """What a decision of ``kind`` costs before its (random) answer."""
        if kind == "mcts":
            time.sleep(self.slow)


def wait_for(cond: Any, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_games_between_computers_cannot_starve_a_person_s_game(tmp_path: Path) -> None:
    """Issue 13, repro 3: six mcts-vs-mcts games used to hold every AI worker for good, and a
    new game against greedy got no move for 90 s. Now a person's game goes first: its AI starts
    before more than one decision of the busy games begins."""
    rec = Recorder()
    svc = GameService(Storage(f"sqlite:///{tmp_path / 'g.db'}"), ai_workers=2, limits=Limits(ai_only_games=6),
                      player_factory=rec)
    try:
        for seed in range(6):
            svc.create("cc-samurai", None, ["mcts", "mcts"], seed=seed)
        wait_for(lambda: len(rec.starts) >= 10)
        with rec.lock:
            mark = len(rec.starts)
        live, _ = svc.create("cc-samurai", None, ["greedy", "human"], seed=9)  # the AI (Red) moves first
        wait_for(lambda: live.version > 0)
        with rec.lock:
            after = rec.starts[mark:]
        assert "greedy" in after
        assert after.index("greedy") <= 2, after[:10]  # at most the decisions already in hand
        # and the busy games still take turns: every one of them has moved
        busy = [g for g in svc.games.values() if not g.interactive]
        wait_for(lambda: all(g.version > 0 for g in busy))
    finally:
        svc.close()


def app_with(tmp_path: Path, limits: Limits, rec: Recorder | None = None) -> tuple[TestClient, GameService]:
    svc = GameService(Storage(f"sqlite:///{tmp_path / 'g.db'}"), limits=limits, player_factory=rec or Recorder(0.05))
    return TestClient(create_app("unused", svc, allowed_hosts=("testserver",))), svc


def test_too_many_games_between_computers_is_a_clear_429(tmp_path: Path) -> None:
    client, svc = app_with(tmp_path, Limits(ai_only_games=2, thinking_per_client=10))
    with client:
        for _ in range(2):
            assert client.post("/api/games", json={"seats": ["mcts", "mcts"]}).status_code == 201
        r = client.post("/api/games", json={"seats": ["mcts", "mcts"]})
        assert r.status_code == 429 and r.headers["retry-after"] == "60"
        assert r.json()["error"]["code"] == "too_many_requests"
        assert "games between computer players" in r.json()["error"]["message"]
        # a game with a person is still welcome
        assert client.post("/api/games", json={"seats": ["human", "mcts"]}).status_code == 201


def test_one_client_may_create_only_so_many_games_an_hour(tmp_path: Path) -> None:
    client, _ = app_with(tmp_path, Limits(games_per_client_per_hour=3))
    with client:
        for _ in range(3):
            assert client.post("/api/games", json={"seats": ["human", "human"]}).status_code == 201
        r = client.post("/api/games", json={"seats": ["human", "human"]})
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
        assert "created 3 games in the last hour" in r.json()["error"]["message"]


def test_addresses_quiet_for_an_hour_are_forgotten(tmp_path: Path) -> None:
    _, svc = app_with(tmp_path, Limits(games_per_client_per_hour=3))
    old = time.monotonic() - 3601
    for i in range(50):  # fifty addresses that each created a game more than an hour ago
        svc.created_by[f"10.0.0.{i}"] = deque([old])
    svc._count_creation("10.0.1.1")
    assert list(svc.created_by) == ["10.0.1.1"]  # the table does not grow with every address ever seen


def test_start_up_loads_nothing_and_a_game_loads_when_asked_for(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'g.db'}"
    first = GameService(Storage(db), player_factory=Recorder(0.0))
    ai_game, _ = first.create("cc-samurai", None, ["random", "random"], seed=1)
    watch = first.new_watch_token(ai_game)
    person, tokens = first.create("cc-samurai", None, ["human", "human"], seed=2)
    first.close()
    time.sleep(0.1)
    stored_before = Storage(db).load_game(ai_game.stored.id)
    assert stored_before is not None
    rec = Recorder(0.0)
    svc = GameService(Storage(db), player_factory=rec)
    with TestClient(create_app(db, svc, allowed_hosts=("testserver",))) as client:
        time.sleep(0.2)
        assert svc.games == {} and rec.starts == []  # nothing replayed, no AI started
        seat = Seat(client, person.stored.id, tokens[0], 0)
        assert seat.view()["version"] == 0 and list(svc.games) == [person.stored.id]
        # the game between computers goes on when somebody opens it
        r = client.get(f"/api/games/{ai_game.stored.id}", headers={"Authorization": f"Bearer {watch}"})
        assert r.status_code == 200
        wait_for(lambda: len(rec.starts) > 0)


def test_idle_games_leave_memory_and_come_back_unchanged(app_client: Any) -> None:
    client, svc = app_client
    live, tokens = svc.create("cc-samurai", None, ["human", "human"], seed=4)
    seats = [Seat(client, live.stored.id, tokens[i], i) for i in (0, 1)]
    for _ in range(3):  # whoever is to move (a Dragon-card window may be the other seat's: R32)
        mover = next(st for st in seats if st.view()["actions"])
        mover.act(mover.view()["actions"][0]["action"])
    seat = seats[0]
    before = seat.view()
    assert svc.unload_idle(time.monotonic() + 1) == 0  # used a moment ago: kept
    assert svc.unload_idle(time.monotonic() + 10_000) == 1 and live.stored.id not in svc.games
    after = seat.view()
    assert after == before and live.stored.id in svc.games


def test_an_abandoned_game_expires_with_a_clear_message(app_client: Any) -> None:
    client, svc = app_client
    live, tokens = svc.create("cc-samurai", None, ["human", "human"], seed=5)
    with svc.storage.engine.begin() as conn:  # nobody has moved for 31 days
        conn.execute(update(games_table).where(games_table.c.id == live.stored.id)
                     .values(updated=int(time.time()) - 31 * 86400))
    svc.unload_idle(time.monotonic() + 10_000)
    r = client.get(f"/api/games/{live.stored.id}", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 410 and r.json()["error"]["code"] == "expired"
    assert "nobody moved in it for 31 days" in r.json()["error"]["message"]
