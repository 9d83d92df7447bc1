"""Fixtures of the web tests: an app over a fresh database (SQLite, and PostgreSQL started by the
tests for the modules of ``BOTH_DATABASES``), and seat helpers."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
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


#: run the PostgreSQL tests against a server of your own instead of the one the tests start:
#: ``KASSEN_TEST_DB=postgresql+psycopg://user@host/db`` (its Kassen tables are dropped before
#: every test: use a database of its own)
TEST_DB = os.environ.get("KASSEN_TEST_DB")
#: the test modules whose storage, API and leak tests run on SQLite and on PostgreSQL
BOTH_DATABASES = {"test_api", "test_leaks", "test_storage_faults", "test_concede"}
#: the session's PostgreSQL: ``stop`` and ``start`` it (a fault test restarts it)
PG: dict[str, Any] = {}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_url" in metafunc.fixturenames and metafunc.module.__name__.rsplit(".", 1)[-1] in BOTH_DATABASES:
        metafunc.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)


def _empty_test_db(url: str) -> None:
    from sqlalchemy import create_engine

    from kassen.web.storage import metadata

    engine = create_engine(url)
    metadata.drop_all(engine)
    engine.dispose()


def _pg_bindir() -> Path | None:
    """Where PostgreSQL's server programs are (Debian: /usr/lib/postgresql/<version>/bin)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
                   if p.parent.parent.name.isdigit() else 0)
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for this test session: initdb in a temporary directory,
    started by pg_ctl on a unix socket there (no TCP port), as the ``postgres`` user (or
    ``nobody``) when the tests run as root, which PostgreSQL refuses; stopped and removed at the
    end. Skipped, saying why, only where PostgreSQL or its driver is not installed (``make test``
    installs both where it can)."""
    if TEST_DB:
        yield TEST_DB
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("the PostgreSQL driver psycopg is not installed (pip install -r requirements.lock)")
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed: 'make postgresql' installs it (apt-get install postgresql, "
                    "as root)")
    root = Path(tempfile.mkdtemp(prefix="kassen-pg-"))
    os.chmod(root, 0o755)
    prefix: list[str] = []
    if os.geteuid() == 0:
        import pwd

        user = "postgres" if _has_user("postgres") else "nobody"
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
        prefix = ["runuser", "-u", user, "--"]
    data = root / "data"
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    started = False
    try:
        subprocess.run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "kassen", "--auth=trust",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True, env=env, timeout=120)
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60",
                        "-o", f"-k {root} -c listen_addresses='' -c fsync=off -c max_connections=200", "start"],
                       check=True, capture_output=True, env=env, timeout=120)
        started = True
        ctl = [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-w", "-t", "60"]
        PG["data"] = data
        PG["stop"] = lambda: subprocess.run([*ctl, "-m", "fast", "stop"], check=True, capture_output=True, env=env)
        PG["start"] = lambda: subprocess.run([*ctl, "-l", str(root / "log"), "-o",
                                              f"-k {root} -c listen_addresses='' -c fsync=off -c max_connections=200",
                                              "start"], check=True, capture_output=True, env=env)
        yield f"postgresql+psycopg://kassen@/postgres?host={root}"
    except subprocess.CalledProcessError as exc:
        log = (root / "log").read_text(errors="replace")[-2000:] if (root / "log").exists() else ""
        pytest.fail(f"PostgreSQL did not start: {exc.stderr.decode(errors='replace')[-2000:]} {log}")
    finally:
        PG.clear()
        if started:
            subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                           capture_output=True, env=env, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def _has_user(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database for one test: an SQLite file, or (parametrized in the modules of
    ``BOTH_DATABASES``) the session's PostgreSQL with Kassen's tables dropped."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("pg_server")
    _empty_test_db(url)
    return url


@pytest.fixture
def app_client(db_url: str) -> Iterator[tuple[TestClient, GameService]]:
    app = create_app(db_url, allowed_hosts=("testserver",))
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


# ------------------------------------------------------------------ the page in a real browser
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright, one per test module (``make test`` installs it)."""
    from tests.web.browsing import ARGS, CHROMIUM

    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `sudo apt-get install -y chromium` (make test does it as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``kassen serve`` in its own process on a fresh SQLite file, one per test module."""
    from kassen.testing.server import free_port
    from tests.web.test_restart import Server

    name = request.module.__name__.rsplit(".", 1)[-1]
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp(name) / 'games.db'}", free_port())
    srv.start()
    yield srv
    srv.stop()
