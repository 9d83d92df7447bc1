"""Fixtures of the web tests: an app over a fresh SQLite file, and seat helpers."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from kassen.web.app import create_app
from kassen.web.service import GameService


class Seat:
    """One seat of a game, as a client holding its token."""

    def __init__(self, client: TestClient, game_id: str, token: str, index: int) -> None:
        self.client, self.game_id, self.token, self.index = client, game_id, token, index

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, since: int = 0) -> Any:
        r = self.client.get(f"/api/games/{self.game_id}?since={since}", headers=self.headers)
        assert r.status_code == 200, r.text
        return r

    def view(self, since: int = 0) -> dict[str, Any]:
        data: dict[str, Any] = self.get(since).json()
        return data

    def act(self, action: str, at: int | None = None) -> Any:
        body: dict[str, Any] = {"action": action}
        if at is not None:
            body["at"] = at
        return self.client.post(f"/api/games/{self.game_id}/actions", headers=self.headers, json=body)


#: run the API tests against another database, e.g. PostgreSQL:
#: ``KASSEN_TEST_DB=postgresql+psycopg://user@host/db make test`` (its Kassen tables are
#: dropped before every test: use a database of its own)
TEST_DB = os.environ.get("KASSEN_TEST_DB")


def _empty_test_db(url: str) -> None:
    from sqlalchemy import create_engine

    from kassen.web.storage import metadata

    engine = create_engine(url)
    metadata.drop_all(engine)
    engine.dispose()


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[TestClient, GameService]]:
    if TEST_DB:
        _empty_test_db(TEST_DB)
    app = create_app(TEST_DB or f"sqlite:///{tmp_path / 'games.db'}", allowed_hosts=("testserver",))
    with TestClient(app) as client:
        yield client, app.state.service


def new_game(client: TestClient, seats: list[str], scenario: str | None = None,
             ruleset: str = "cc-samurai") -> tuple[str, list[Seat]]:
    r = client.post("/api/games", json={"ruleset": ruleset, "scenario": scenario, "seats": seats})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["game_id"], [Seat(client, data["game_id"], s["token"], s["seat"]) for s in data["seats"]]


def seeded_game(client: TestClient, svc: GameService, seats: list[str], seed: int,
                scenario: str | None = None) -> tuple[str, list[Seat]]:
    """A game with a known seed (the API never takes one), and its seats."""
    live, tokens = svc.create("cc-samurai", scenario, seats, seed=seed)
    gid = live.stored.id
    return gid, [Seat(client, gid, t, i) for i, t in enumerate(tokens)]


def play_until(svc: GameService, game_id: str, stop: Any, limit: int = 5000) -> None:
    """Play the aggressive policy for every human seat until ``stop(live)``; AI seats play themselves."""
    import time

    from tests.web.policy import aggressive

    live = svc.get(game_id)
    deadline = time.monotonic() + 60
    while not stop(live):
        assert time.monotonic() < deadline and live.version < limit, "the game did not get there"
        s = live.state
        mover = s.to_move()
        if mover is None:
            return
        if mover in live.players:
            time.sleep(0.005)
            continue
        svc.act(live, mover, aggressive(s), None)
