"""``kassen serve`` as a real process: live updates by server-sent events, and a kill -9
in the middle of games after which every game continues exactly where it was."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kassen.engine.record import GameRecord, replay
from kassen.rulesets.registry import load_game
from kassen.testing.server import ServedKassen, free_port
from kassen.web.storage import Storage

PREFER = ("attack ", "fire ", "play ", "order ", "move ", "done", "end-move", "end-battle", "pass")


def pick(actions: list[str]) -> str:
    """A simple string-only player: battle first, then the usual order of a turn."""
    for p in PREFER:
        for a in actions:
            if a.startswith(p) or a == p:
                return a
    return actions[0]


class Server(ServedKassen):
    """The test server: seeded deals and dice (``KASSEN_TEST_SEED=7``), killed when done. Its
    computer players think at the tests' own priority (``--ai-nice 0``): beside the other test
    worker they would otherwise get a tenth of a core and the tests waiting for them time out."""

    def __init__(self, db: str, port: int) -> None:
        super().__init__(db, port, seed=7, args=("--ai-nice", "0"))

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path / 'games.db'}", free_port())
    srv.start()
    yield srv
    srv.stop()


def view(srv: Server, gid: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{srv.base}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def act(srv: Server, gid: str, token: str, action: str, at: int) -> dict[str, Any]:
    r = httpx.post(f"{srv.base}/api/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                   json={"action": action, "at": at}, timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def play(srv: Server, gid: str, tokens: list[str], n: int) -> dict[str, Any]:
    """``n`` actions by whichever human seat is to move (waiting for AI seats)."""
    last: dict[str, Any] = {}
    done = 0
    deadline = time.monotonic() + 60
    while done < n:
        assert time.monotonic() < deadline
        for t in tokens:
            v = view(srv, gid, t)
            if v["result"]:
                return v
            if v["your_turn"]:
                last = act(srv, gid, t, pick([a["action"] for a in v["actions"]]), v["version"])
                done += 1
                break
        else:
            time.sleep(0.05)
    return last


def new(srv: Server, seats: list[str]) -> tuple[str, list[str]]:
    r = httpx.post(f"{srv.base}/api/games", json={"seats": seats}, timeout=10)
    assert r.status_code == 201, r.text
    d = r.json()
    return d["game_id"], [s["token"] for s in d["seats"]]


def test_kill_and_restart_every_game_continues(server: Server) -> None:
    pvp, pvp_tokens = new(server, ["human", "human"])
    pve, pve_tokens = new(server, ["human", "random"])
    play(server, pvp, pvp_tokens, 25)
    play(server, pve, pve_tokens[:1], 15)
    last = play(server, pvp, pvp_tokens, 1)  # an action accepted just before the kill
    before = {(g, t): view(server, g, t) for g, toks in ((pvp, pvp_tokens), (pve, pve_tokens)) for t in toks}
    server.kill9()
    stored = Storage(server.db).load_game(pvp)
    assert stored is not None and len(stored.actions) == last["version"], "every accepted action was stored"
    server.start()
    for (g, t), old in before.items():
        new_view = view(server, g, t)
        if g == pvp:
            assert new_view["version"] == old["version"]
            assert new_view["observation"] == old["observation"] and new_view["log"] == old["log"]
            assert new_view["actions"] == old["actions"]
        else:  # the AI seat may have moved on after the restart, from exactly where it was
            assert new_view["version"] >= old["version"]
            assert new_view["log"][: len(old["log"])] == old["log"]
    # both games go on
    v = play(server, pvp, pvp_tokens, 10)
    assert v["version"] == before[(pvp, pvp_tokens[0])]["version"] + 10
    v = play(server, pve, pve_tokens[:1], 5)
    assert v["version"] > before[(pve, pve_tokens[0])]["version"]
    # a token of the dead server's games still works, a wrong one still does not
    r = httpx.get(f"{server.base}/api/games/{pvp}", headers={"Authorization": "Bearer nope"}, timeout=10)
    assert r.status_code == 401


def test_live_updates_reach_the_other_seat_and_leak_nothing(server: Server) -> None:
    gid, (red, blue) = new(server, ["human", "human"])
    messages: list[str] = []
    opened = threading.Event()

    def listen() -> None:
        try:
            _listen()
        except httpx.HTTPError as exc:
            messages.append(f"error: {exc!r}")

    def _listen() -> None:
        with httpx.stream("GET", f"{server.base}/api/games/{gid}/events", params={"token": blue},
                          timeout=httpx.Timeout(20, read=20)) as r:
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
            opened.set()
            for line in r.iter_lines():
                if line.startswith("data: "):
                    messages.append(line[6:])
                    if json.loads(line[6:])["version"] >= 3:
                        return

    t = threading.Thread(target=listen, daemon=True)
    t.start()
    assert opened.wait(10)
    play(server, gid, [red, blue], 3)
    t.join(15)
    assert messages and not messages[-1].startswith("error"), messages
    versions = [json.loads(m)["version"] for m in messages]
    assert versions[0] == 0 and versions[-1] == 3 and versions == sorted(versions)
    stored = Storage(server.db).load_game(gid)
    assert stored is not None
    game = load_game(stored.ruleset)
    state = replay(game, GameRecord(stored.ruleset, stored.rules_version, stored.scenario, stored.seed,
                                    stored.actions, stored.options))
    for m in messages:
        assert not [s for s in state.secrets(1) if s in m]
    # a wrong token gets no stream
    r = httpx.get(f"{server.base}/api/games/{gid}/events", params={"token": "wrong"}, timeout=10)
    assert r.status_code == 401


def test_serve_new_game_prints_the_link_when_no_browser_opens(tmp_path: Path) -> None:
    """What ``make play`` runs: a battle against the AI is created and its address printed."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from kassen.cli.main import main; main()", "serve", "--new-game", "--open",
         "--port", str(port), "--db", f"sqlite:///{tmp_path / 'p.db'}"],
        env={**env, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "No browser could be opened" in line:
                break
        text = "".join(lines)
        link = re.search(r"Your battle against the AI: (http://127\.0\.0\.1:\d+/game/([0-9a-f]+)#(\S+))", text)
        assert link, text
        gid, token = link.group(2), link.group(3)
        v = httpx.get(f"{link.group(1).split('/game')[0]}/api/games/{gid}",
                      headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
        assert v["seats"] == [{"name": "Red", "kind": "human"}, {"name": "Blue", "kind": "normal"}]
        assert v["your_turn"] and v["scenario"] == "first-samurai-skirmish"
    finally:
        proc.kill()
        proc.wait(10)
