"""The scenario editor's API (issue 36): validation by the C&C loader with line and hex, a
design saved as the file the loader reads, designs per browser, and a game on a posted
scenario that replays after a restart."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from kassen.rulesets.cc_samurai.design import template
from kassen.web.app import create_app
from tests.web.conftest import Seat

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

BROWSER = {"X-Kassen-Browser": "b" * 22}
OTHER = {"X-Kassen-Browser": "o" * 22}


def test_check_a_text_and_a_design(app_client: tuple[TestClient, object]) -> None:
    client, _ = app_client
    r = client.get("/api/editor/palette?edition=zvezda")
    assert r.status_code == 200
    pal = r.json()
    assert [u["code"] for u in pal["units"]] == ["SN", "SC", "ASp", "AB", "AA", "BG"]
    assert "river" in [t["slug"] for t in pal["terrain"]] and "tent" not in [t["slug"] for t in pal["terrain"]]
    assert len(pal["board"]["hexes"]) == 6 * 12 + 5 * 13 and pal["template"]["ok"]
    design = client.get("/api/editor/palette").json()["template"]["design"]
    design["red"]["pieces"].append({"at": "B7", "unit": "XX"})
    r = client.post("/api/editor/check", json={"design": design, "name": "mine.toml"})
    body = r.json()
    assert r.status_code == 200 and body["ok"] is False
    [p] = body["problems"]
    assert p["hex"] == "B7" and p["field"] == "red.pieces[7].unit"
    assert p["message"].startswith("mine.toml: field red.pieces[7].unit: unknown unit 'XX'")
    assert body["text"].splitlines()[p["line"] - 1] == '  { at = "B7", unit = "XX" },'
    # the text it saved, checked as a text, says the same
    again = client.post("/api/editor/check", json={"text": body["text"], "name": "mine.toml"}).json()
    assert again["problems"] == body["problems"] and again["design"] == design
    for bad in ({}, {"text": "x", "design": {}}):
        r = client.post("/api/editor/check", json=bad)
        assert r.status_code == 400 and "either 'text'" in r.json()["error"]["message"]
    r = client.post("/api/editor/check", json={"text": "x" * 100_001})
    assert r.status_code == 422


def test_play_a_posted_scenario_and_it_replays_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    text = template().replace('name = "My Battle"', 'name = "Editor Battle"')
    with TestClient(create_app(url, allowed_hosts=("testserver",))) as client:
        r = client.post("/api/editor/play", json={"text": text.replace('"AB"', '"XX"', 1), "seats": ["human", "human"]})
        assert r.status_code == 422 and "line " in r.json()["error"]["message"]
        assert not (tmp_path / "designs").exists()  # nothing was written
        r = client.post("/api/editor/play", json={"text": text, "seats": ["human", "human"]})
        assert r.status_code == 201, r.text
        data = r.json()
        red = Seat(client, data["game_id"], data["seats"][0]["token"], 0)
        view = red.view()
        assert view["scenario_name"] == "Editor Battle"
        # the design's own id, never where the server keeps its file
        assert view["scenario"] == "my-battle" and str(tmp_path) not in json.dumps(view)
        assert "designs/" not in json.dumps(view) and "designs/" not in json.dumps(data)
        action = next(a["action"] for a in view["actions"] if a["action"].startswith("play "))
        assert red.act(action).status_code == 200
        assert len(list((tmp_path / "designs").glob("*.toml"))) == 1
    with TestClient(create_app(url, allowed_hosts=("testserver",))) as client:
        red = Seat(client, data["game_id"], data["seats"][0]["token"], 0)
        again = red.view()
        assert again["scenario_name"] == "Editor Battle" and again["version"] == view["version"] + 1


def test_designs_are_kept_per_browser(app_client: tuple[TestClient, object]) -> None:
    client, _ = app_client
    text = template()
    assert client.put("/api/editor/designs/d1", json={"name": "First", "text": text}, headers=BROWSER).status_code == 200
    assert client.get("/api/editor/designs", headers=BROWSER).json()["designs"][0]["name"] == "First"
    assert client.get("/api/editor/designs", headers=OTHER).json()["designs"] == []
    assert client.get("/api/editor/designs/d1", headers=OTHER).status_code == 404
    got = client.get("/api/editor/designs/d1", headers=BROWSER).json()
    assert got["text"] == text and got["ok"] is True
    r = client.get("/api/editor/designs", headers={"X-Kassen-Browser": "short"})
    assert r.status_code == 400 and "X-Kassen-Browser" in r.json()["error"]["message"]
    assert client.delete("/api/editor/designs/d1", headers=OTHER).status_code == 404
    assert client.delete("/api/editor/designs/d1", headers=BROWSER).status_code == 200
    assert client.get("/api/editor/designs", headers=BROWSER).json()["designs"] == []


def test_the_editor_page_is_served(app_client: tuple[TestClient, object]) -> None:
    client, _ = app_client
    r = client.get("/editor")
    assert r.status_code == 200 and '<script type="module" src="/static/editor.js">' in r.text
    assert 'href="/editor"' in client.get("/").text


def test_a_warning_is_shown_but_the_design_plays_and_field_errors_keep_the_board_s(
        app_client: tuple[TestClient, object]) -> None:
    client, _ = app_client
    text = template().replace('{ at = "T3", unit = "ASp" }', '{ at = "P3", unit = "ASp" }')
    body = client.post("/api/editor/check", json={"text": text}).json()
    assert body["ok"] is True
    [w] = body["problems"]
    assert w["warning"] is True and w["detail"].startswith("field red.pieces: warning: Red has no unit or Leader")
    assert client.post("/api/editor/play", json={"text": text, "seats": ["human", "human"]}).status_code == 201
    # a field error (blocks = 9) and a board error (a unit on the river) are both named
    bad = template().replace('{ at = "F3", unit = "SSp" }', '{ at = "F3", unit = "SSp", blocks = 9 }').replace(
        '[terrain]', '[terrain]\nriver = ["H3"]')
    body = client.post("/api/editor/check", json={"text": bad}).json()
    assert body["ok"] is False
    assert [(p["field"], p["hex"], p["warning"]) for p in body["problems"]] == [
        ("red.pieces[0].blocks", "F3", False), ("red.pieces[2]", "H3", False)]
