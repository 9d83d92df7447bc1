"""The server under faults from outside (issue 31), over real HTTP (uvicorn in a thread): AI
work shared by counted work with a per-address bound, no stalled event loop, bounded request
bodies and heads, malformed HTTP answered in the error shape with the security headers,
forwarded headers believed only from named proxies, /docs working under the CSP."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from kassen.ai.players import Player, RandomPlayer
from kassen.engine.protocol import State
from kassen.testing.server import free_port
from kassen.web.app import create_app
from kassen.web.serve import make_config
from kassen.web.service import AiScheduler, GameService, Limits, LiveGame
from kassen.web.storage import Storage
from tests.web.test_limits import Recorder
from tests.web.test_storage_faults import Locker

CSP = "content-security-policy"


class Live:
    """The app served by uvicorn (Kassen's own configuration) in a thread of this process."""

    def __init__(self, svc: GameService, forwarded: str | None = None, header_seconds: float = 10.0) -> None:
        self.svc = svc
        self.port = free_port()
        app = create_app("unused", svc, allowed_hosts=("127.0.0.1",))
        self.server = uvicorn.Server(make_config(app, "127.0.0.1", self.port, forwarded, header_seconds))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.base = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Live:
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def raw(self, data: bytes, wait: float = 5.0, send_more: bytes | None = None) -> bytes:
        """Send ``data`` as is; everything the server answers until it closes (or ``wait``)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=wait) as s:
            s.sendall(data)
            if send_more is not None:
                with contextlib.suppress(OSError):  # the server may have answered and closed
                    s.sendall(send_more)
            out = b""
            try:
                while chunk := s.recv(65536):
                    out += chunk
            except (TimeoutError, ConnectionResetError):
                pass
            return out


def quick(kind: str, seed: int) -> Player:
    return RandomPlayer(seed)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    svc = GameService(Storage(f"sqlite:///{tmp_path / 'g.db'}"), player_factory=quick)
    with Live(svc) as srv:
        yield srv


def parse(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, body


def assert_shape(raw: bytes, status: int, code: str) -> dict[str, str]:
    import json

    got, headers, body = parse(raw)
    assert got == status, raw[:300]
    assert headers["content-type"] == "application/json" and "frame-ancestors 'none'" in headers[CSP], headers
    assert json.loads(body)["error"]["code"] == code, body
    return headers


# ------------------------------------------------------------------ finding 12: malformed HTTP
@pytest.mark.parametrize("request_bytes", [
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColonHere\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
], ids=["garbage request line", "header without colon", "content-length and chunked"])
def test_malformed_http_is_answered_in_the_error_shape_with_the_security_headers(live: Live,
                                                                                 request_bytes: bytes) -> None:
    """Issue 31, finding 12: uvicorn answered these with a text/plain 400, no CSP."""
    assert_shape(live.raw(request_bytes), 400, "bad_request")


def test_a_100_kb_request_line_is_refused_in_the_error_shape(live: Live) -> None:
    raw = live.raw(b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    status, _, _ = parse(raw)
    assert status in (400, 431)
    assert_shape(raw, status, "bad_request" if status == 400 else "error")


def test_a_connection_that_never_finishes_its_headers_is_closed(tmp_path: Path) -> None:
    """Issue 31, finding 12: connections that never finished their headers stayed open."""
    svc = GameService(Storage(f"sqlite:///{tmp_path / 'g.db'}"), player_factory=quick)
    with Live(svc, header_seconds=0.5) as srv:
        t0 = time.monotonic()
        raw = srv.raw(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", wait=20)
        assert time.monotonic() - t0 < 15  # closed by the server, not by our own wait
        assert_shape(raw, 408, "error")
        assert srv.raw(b"", wait=20) == b""  # a connection that sends nothing is closed too
        # a whole request is answered as usual
        assert httpx.get(srv.base + "/api/catalog").status_code == 200


# ------------------------------------------------------------------ finding 5: a body limit
def test_a_body_over_the_limit_is_413_before_it_is_read(live: Live) -> None:
    """Issue 31, finding 5: a 100 MB body was read whole (memory to 730 MB) and refused late.
    Now its Content-Length alone is enough: 413 comes without the body being sent."""
    raw = live.raw(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Content-Length: 100000000\r\n\r\n")
    headers = assert_shape(raw, 413, "too_large")
    assert "1000000 bytes" in raw.decode() and headers["connection"] == "close"


def test_a_chunked_body_over_the_limit_is_413(live: Live) -> None:
    chunk = b"a" * 600_000
    body = b"%x\r\n%s\r\n" % (len(chunk), chunk)
    raw = live.raw(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n" + body, send_more=body + b"0\r\n\r\n")
    assert_shape(raw, 413, "too_large")


def test_errors_cut_what_they_echo(app_client: Any) -> None:
    """Issue 31, finding 11: a 1 MB seat kind came back as a 976 KiB error."""
    client, _ = app_client
    r = client.post("/api/games", json={"seats": ["human", "x" * 500_000]})
    assert r.status_code == 400 and len(r.content) < 1000, len(r.content)
    assert "500000 characters" in r.json()["error"]["message"]


# ------------------------------------------------------------------ forwarded headers
def test_x_forwarded_for_is_not_believed_unless_the_proxy_is_named(tmp_path: Path) -> None:
    """Issue 31, finding 12: uvicorn believed X-Forwarded-For from 127.0.0.1, so a local
    client reset its --games-per-hour by naming another address each time."""
    body = {"seats": ["human", "human"]}
    for forwarded, second in ((None, 429), ("127.0.0.1", 201)):
        svc = GameService(Storage(f"sqlite:///{tmp_path / f'g{second}.db'}"), player_factory=quick,
                          limits=Limits(games_per_client_per_hour=1))
        with Live(svc, forwarded=forwarded) as srv:
            a = httpx.post(srv.base + "/api/games", json=body, headers={"X-Forwarded-For": "10.0.0.1"})
            b = httpx.post(srv.base + "/api/games", json=body, headers={"X-Forwarded-For": "10.0.0.2"})
            assert (a.status_code, b.status_code) == (201, second), (forwarded, b.text)


# ------------------------------------------------------------------ finding 3: no stalled loop
def test_static_files_and_health_answer_while_an_action_waits_on_a_locked_database(live: Live,
                                                                                   tmp_path: Path) -> None:
    """Issue 31, finding 3: storage ran on the event loop, so a held write lock stalled
    /static/app.js for as long. Now the action waits on a thread of its own: static files and
    health are answered while it waits, and the action is then a 503."""
    c = httpx.Client(base_url=live.base, timeout=30)
    created = c.post("/api/games", json={"seats": ["human", "human"]}).json()
    gid, token = created["game_id"], created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    action = c.get(f"/api/games/{gid}", headers=headers).json()["actions"][0]["action"]
    order: list[str] = []
    result: dict[str, Any] = {}

    def post() -> None:
        r = httpx.post(f"{live.base}/api/games/{gid}/actions", headers=headers, json={"action": action}, timeout=30)
        result["action"] = r
        order.append("action")

    with Locker(f"sqlite:///{tmp_path / 'g.db'}"):
        t = threading.Thread(target=post)
        t.start()
        time.sleep(0.1)  # the action is waiting for the lock now
        assert c.get("/static/app.js").status_code == 200
        order.append("static")
        assert c.get("/api/health").status_code == 503
        order.append("health")
        t.join(30)
    assert order[:2] == ["static", "health"], order
    assert result["action"].status_code == 503 and result["action"].json()["error"]["code"] == "storage_busy"
    assert c.post(f"/api/games/{gid}/actions", headers=headers, json={"action": action}).status_code == 200


# ------------------------------------------------------------------ finding 10: /docs
def test_the_api_docs_need_nothing_from_outside_and_no_inline_script(live: Live) -> None:
    page = httpx.get(live.base + "/docs")
    assert page.status_code == 200 and "script-src 'self'" in page.headers[CSP]
    html = page.text
    assert "<script>" not in html and "cdn" not in html.lower() and "http" not in html
    for path in ("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css", "/docs/init.js",
                 "/openapi.json"):
        assert httpx.get(live.base + path).status_code == 200, path
    assert httpx.get(live.base + "/docs/assets/index.html").status_code == 404


def test_the_api_docs_draw_under_the_csp_in_a_browser(live: Live) -> None:
    from tests.web.browsing import ARGS, CHROMIUM

    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `sudo apt-get install -y chromium` (make test does it as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(live.base + "/docs")
        page.locator(".swagger-ui .info .title").wait_for(timeout=20000)
        assert "Kassen" in page.locator(".swagger-ui .info .title").inner_text()
        assert page.locator(".opblock").count() >= 5  # the routes are listed
        assert not problems, problems
        browser.close()


# ------------------------------------------------------------------ finding 1: fair AI work
def fake_live(name: str, client: str | None, work: float, interactive: bool = True) -> LiveGame:
    from kassen.web.storage import StoredGame

    stored = StoredGame(name, "cc-samurai", "1", None, 0, {}, ["human", "greedy"])
    return LiveGame(stored, None, [], {}, interactive=interactive, client=client, work=work)  # type: ignore[arg-type]


def test_the_scheduler_takes_the_game_that_has_used_least_work() -> None:
    s = AiScheduler(per_client=2)
    for g in (fake_live("plans", "a", 30.0), fake_live("cheap", "b", 0.4), fake_live("middle", "c", 5.0)):
        s.add(g)
    order = []
    for _ in range(3):
        g = s.take()
        assert g is not None
        order.append(g.stored.id)
    assert order == ["cheap", "middle", "plans"]


def test_the_scheduler_puts_games_with_a_person_first() -> None:
    s = AiScheduler(per_client=2)
    s.add(fake_live("computers", None, 0.0, interactive=False))
    s.add(fake_live("person", None, 50.0))
    g = s.take()
    assert g is not None and g.stored.id == "person"


def test_one_address_has_at_most_its_bound_of_decisions_made_at_once() -> None:
    s = AiScheduler(per_client=2)
    for i in range(12):
        s.add(fake_live(f"a{i}", "attacker", 0.0))
    s.add(fake_live("person", "someone", 100.0))
    first = [s.take(), s.take()]
    assert all(g is not None and g.client == "attacker" for g in first)
    g = s.take()  # the attacker's other ten wait while two of its decisions are being made
    assert g is not None and g.stored.id == "person"
    s.done(first[0])  # type: ignore[arg-type]
    g = s.take()
    assert g is not None and g.client == "attacker"


def test_a_game_waiting_for_a_retry_waits_its_time() -> None:
    s = AiScheduler(per_client=2)
    later = fake_live("later", None, 0.0)
    later.retry_at = time.monotonic() + 0.3
    s.add(later)
    s.add(fake_live("now", None, 10.0))
    first = s.take()
    assert first is not None and first.stored.id == "now"
    t0 = time.monotonic()
    second = s.take()
    assert second is not None and second.stored.id == "later" and time.monotonic() - t0 >= 0.2


class Burner(Recorder):
    """Computer players that write down each decision they start; ``hard`` ones burn CPU for a
    while (counted work), ``greedy`` ones answer at once."""

    def work(self, kind: str) -> None:
        if kind == "hard":
            end = time.thread_time() + 0.03
            while time.thread_time() < end:
                pass


def test_one_address_s_ai_games_cannot_starve_a_person_s_game_against_greedy(tmp_path: Path) -> None:
    """Issue 31, finding 1: twelve games ["hard", "human"] from one address, played at once,
    counted as games with a person and took one decision each per round: a person's game
    against greedy got no answer in 30 s. Now the address has at most its bound of decisions
    made at once, and the game that has used least work goes first: greedy's decision starts
    before more than the decisions already in hand."""
    rec = Burner()
    svc = GameService(Storage(f"sqlite:///{tmp_path / 'g.db'}"), ai_workers=2, player_factory=rec,
                      limits=Limits(thinking_per_client=1))
    try:
        attacker = []
        for seed in range(12):
            live, _ = svc.create("cc-samurai", None, ["hard", "human"], seed=seed)  # no address: let them in
            live.client = "10.9.9.9"  # ... then count them as one address's
            attacker.append(live)
        time.sleep(0.3)
        with rec.lock:
            mark = len(rec.starts)
        mine, _ = svc.create("cc-samurai", None, ["greedy", "human"], seed=99, client="10.1.1.1")
        end = time.monotonic() + 20
        while mine.version == 0:
            assert time.monotonic() < end, "the person's game got no AI answer"
            time.sleep(0.01)
        with rec.lock:
            after = rec.starts[mark:]
        assert "greedy" in after and after.index("greedy") <= 2, after[:10]
    finally:
        svc.close()


def test_a_new_game_with_an_ai_beyond_the_address_s_thinking_bound_is_a_clear_429(tmp_path: Path) -> None:
    class Slow:
        def __call__(self, kind: str, seed: int) -> Player:
            class P(Player):
                name = kind

                def choose(self, state: State, seat: int) -> str:
                    time.sleep(0.5)
                    return RandomPlayer(seed).choose(state, seat)

            return P()

    svc = GameService(Storage(f"sqlite:///{tmp_path / 'g.db'}"), player_factory=Slow(),
                      limits=Limits(thinking_per_client=1))
    with TestClient(create_app("unused", svc, allowed_hosts=("testserver",))) as client:
        assert client.post("/api/games", json={"seats": ["greedy", "human"]}).status_code == 201
        r = client.post("/api/games", json={"seats": ["greedy", "human"]})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_requests"
        assert "--max-thinking-per-address 1" in r.json()["error"]["message"]
        assert client.post("/api/games", json={"seats": ["human", "human"]}).status_code == 201
        assert len(svc.created_by["testclient"]) == 2  # the refused creation spent no hourly slot
