"""The server under attack (issue 13): one error shape, foreign hosts refused, security
headers, read-only storage answered with 503, bad --db values in one line, web without cli."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from kassen.web.app import create_app
from kassen.web.serve import open_storage
from tests.web.conftest import new_game


def assert_error(r: Any, status: int, code: str, words: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code and words in body["error"]["message"], body


def test_every_error_has_one_shape(app_client: Any) -> None:
    client, _ = app_client
    gid, (red, _) = new_game(client, ["human", "human"])
    assert_error(client.get("/api/nothing-here"), 404, "not_found", "nothing at")
    assert_error(client.get("/static/nope.js"), 404, "not_found", "nothing at")
    assert_error(client.delete(f"/api/games/{gid}"), 405, "method_not_allowed", "DELETE is not allowed")
    assert_error(client.post("/api/games", json={"seats": "x"}), 422, "invalid", "malformed request")
    assert_error(client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}),
                 422, "invalid", "malformed request")
    assert_error(client.get(f"/api/games/{gid}"), 401, "unauthorized", "missing seat token")
    assert_error(red.act("dance"), 422, "invalid", "illegal action")
    assert_error(client.get("/api/games/0000/replay?step=0", headers=red.headers), 404, "not_found", "no game")


def test_a_foreign_host_header_is_refused(app_client: Any) -> None:
    """DNS rebinding: a hostile page's name resolving to 127.0.0.1 carries its own Host."""
    client, _ = app_client
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example"):
        assert_error(client.get("/api/catalog", headers={"host": host}), 400, "bad_host", "--allowed-host")
        assert_error(client.post("/api/games", json={"seats": ["human", "human"]}, headers={"host": host}),
                     400, "bad_host", "does not answer")
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "testserver", "192.168.1.5"):
        assert client.get("/api/catalog", headers={"host": host}).status_code == 200, host


def test_every_answer_has_a_content_security_policy_and_may_not_be_framed(app_client: Any) -> None:
    client, _ = app_client
    for path in ("/", "/static/app.js", "/api/catalog", "/api/nothing"):
        h = client.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"] and "script-src 'self'" in \
            h["content-security-policy"], path
        assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff", path


def test_the_page_needs_no_inline_script() -> None:
    """The CSP allows scripts from the server only: the page has no inline script or handler."""
    from importlib import resources

    static = resources.files("kassen.web") / "static"
    html = (static / "index.html").read_text()
    assert "<script>" not in html and " onclick=" not in html and " onload=" not in html


def test_read_only_storage_answers_503_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with TestClient(create_app(f"sqlite:///{db}", allowed_hosts=("testserver",))) as client:
        gid, (red, _) = new_game(client, ["human", "human"])
        assert client.get("/api/health").json()["ok"] is True
    url = f"sqlite:///file:{db}?mode=ro&uri=true"
    with TestClient(create_app(url, allowed_hosts=("testserver",))) as client:
        health = client.get("/api/health")
        assert health.status_code == 503 and health.json()["ok"] is False
        assert "readonly" in health.json()["storage"].replace("-", "").replace(" ", "")
        assert_error(client.post("/api/games", json={"seats": ["human", "human"]}), 503, "storage_unavailable",
                     "read-only")
        red.client = client
        before = red.view()
        assert_error(red.act(before["actions"][0]["action"]), 503, "storage_unavailable", "nothing was changed")
        assert red.view()["version"] == before["version"] == 0
    assert sqlite3.connect(db).execute("select count(*) from actions").fetchone()[0] == 0


@pytest.mark.parametrize("url", ["/dev/null/x.db", "nosuch://x", "sqlite:////dev/null/x.db", "sqlite:////tmp"])
def test_a_bad_db_url_is_one_line(url: str) -> None:
    with pytest.raises(SystemExit) as exc:
        open_storage(url)
    msg = str(exc.value)
    assert msg.startswith("error: cannot use the database") and "\n" not in msg and url in msg


def test_kassen_serve_with_a_bad_db_prints_one_line_and_exits_1() -> None:
    r = subprocess.run([sys.executable, "-m", "kassen.cli.main", "serve", "--db", "nosuch://x", "--port", "0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stderr.strip().count("\n") == 0 and "nosuch://x" in r.stderr, r.stderr


def test_the_web_layer_does_not_import_the_terminal_layer() -> None:
    code = "import sys, kassen.web.app, kassen.web.serve; print(sorted(m for m in sys.modules if m.startswith('kassen.cli')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stdout + out.stderr
