"""The scenario editor's "How balanced?" (issue 36): a design played N times between computer
players on the server's AI workers, its progress and its figure; the server's limits on games
between computers apply; a bad design is refused; and a person's game against the AI is
still answered first while a check runs."""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from kassen.rulesets.cc_samurai.design import template
from kassen.web.app import create_app
from kassen.web.balance_check import BalanceChecks
from kassen.web.service import GameService, Limits, WebError
from kassen.web.storage import Storage
from tests.web.test_limits import Recorder, wait_for

#: the template's armies face to face, one banner to win: a greedy game lasts a few turns
CLOSE = template().replace("victory_banners = 5", "victory_banners = 1").replace(
    "name = \"My Battle\"", "name = \"Close Quarters\"")
for far, near in (('"T9"', '"T5"'), ('"M10"', '"M6"'), ('"R9"', '"R5"'), ('"P9"', '"P5"'), ('"N9"', '"N5"'),
                  ('"K10"', '"K4"'), ('"F9"', '"F5"')):
    CLOSE = CLOSE.replace(far, near)


def client_of(tmp_path: Path, limits: Limits | None = None, **kw: Any) -> tuple[TestClient, GameService]:
    svc = GameService(Storage(f"sqlite:///{tmp_path / 'g.db'}"), ai_workers=2, limits=limits, test_seed=36, **kw)
    return TestClient(create_app("unused", svc, allowed_hosts=("testserver",))), svc


def poll(client: TestClient, job: str, seconds: float = 120.0) -> list[dict[str, Any]]:
    """Every distinct progress the check reported until it finished."""
    seen: list[dict[str, Any]] = []
    end = time.monotonic() + seconds
    while True:
        r = client.get(f"/api/editor/balance/{job}")
        assert r.status_code == 200, r.text
        body = r.json()
        if not seen or body["done"] != seen[-1]["done"] or body["state"] != seen[-1]["state"]:
            seen.append(body)
        if body["state"] != "running":
            return seen
        assert time.monotonic() < end, f"the check did not finish: {body}"
        time.sleep(0.05)


def test_a_balance_check_reports_progress_then_the_lobby_s_figure_and_plot(tmp_path: Path) -> None:
    client, svc = client_of(tmp_path)
    with client:
        r = client.post("/api/editor/balance", json={"text": CLOSE, "games": 6})
        assert r.status_code == 202, r.text
        job = r.json()
        assert job["state"] == "running" and job["games"] == 6 and job["players"] == ["greedy", "greedy"]
        assert job["figure"] is None
        assert client.get(f"/api/editor/balance/{job['id']}/plot.svg").status_code == 409
        seen = poll(client, job["id"])
        last = seen[-1]
        assert last["state"] == "done" and last["done"] == 6 and last["error"] is None
        assert [s["done"] for s in seen] == sorted(s["done"] for s in seen)  # progress only goes on
        fig = last["figure"]
        rates = fig["win_rate"]
        assert set(rates) == {"Red", "Blue"} and fig["games"] == 6
        assert sum(w["wins"] for w in rates.values()) + fig["draws"] + fig["unfinished"] == 6
        for w in rates.values():
            assert w["ci95"][0] <= w["rate"] <= w["ci95"][1]
        assert fig["command"].startswith("kassen balance cc-samurai DESIGN.toml --players greedy,greedy --games 6")
        svg = client.get(fig["plot"])
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        assert "Close Quarters: 6 games" in svg.text
        # the design's file is never named
        assert str(tmp_path) not in str(seen)
        assert svc.ai_only_games() == 0  # its games no longer count


def test_with_the_ai_in_child_processes_a_check_thinks_there_and_plays_the_same_series(tmp_path: Path) -> None:
    """``kassen serve`` runs the AI in child processes (kassen.web.thinkers): a check's decisions are
    made there, never in the server's interpreter, and the series is the one the threads play."""
    figures = {}
    for mode in ("threads", "processes"):
        extra: dict[str, Any] = {"ai_processes": True, "ai_nice": 0} if mode == "processes" else {}
        (tmp_path / mode).mkdir()
        client, svc = client_of(tmp_path / mode, **extra)
        with client:
            r = client.post("/api/editor/balance", json={"text": CLOSE, "games": 4})
            assert r.status_code == 202, r.text
            last = poll(client, r.json()["id"])[-1]
            assert last["state"] == "done", last
            fig = last["figure"]
            figures[mode] = (fig["win_rate"], fig["draws"], fig["unfinished"], fig["mean_turns"], fig["command"])
            if mode == "processes":
                assert svc.thinkers is not None and svc.thinkers.pids()  # a child was started and asked
            else:
                assert svc.thinkers is None
    assert figures["processes"] == figures["threads"]


def test_a_bad_design_or_bad_players_are_refused_and_nothing_starts(tmp_path: Path) -> None:
    client, svc = client_of(tmp_path)
    with client:
        r = client.post("/api/editor/balance", json={"text": CLOSE.replace('"AB"', '"XX"', 1)})
        assert r.status_code == 422
        assert r.json()["error"]["message"].startswith("the scenario has problems: line ")
        assert "unknown unit 'XX'" in r.json()["error"]["message"]
        r = client.post("/api/editor/balance", json={"text": CLOSE, "players": ["human", "greedy"]})
        assert r.status_code == 400 and "'human' is not one" in r.json()["error"]["message"]
        r = client.post("/api/editor/balance", json={"text": CLOSE, "games": 201})
        assert r.status_code == 422 and "games" in r.json()["error"]["message"]
        assert client.get("/api/editor/balance/nope").status_code == 404
        assert svc.ai_only_games() == 0 and not (tmp_path / "designs").exists()


def test_a_balance_check_counts_against_the_games_between_computers(tmp_path: Path) -> None:
    """--max-ai-games 2: a running check is one game between computers, so the lobby may start
    one more and no more (429 naming the games), and another address's check is a 429 naming
    the bound; the same address gets one check at a time."""
    rec = Recorder(0.05)  # its mcts players sleep: the games last while the test looks
    client, svc = client_of(tmp_path, Limits(ai_only_games=2, thinking_per_client=10), player_factory=rec)
    with client:
        r = client.post("/api/editor/balance", json={"text": CLOSE, "players": ["mcts", "mcts"], "games": 4})
        assert r.status_code == 202
        assert svc.ai_only_games() == 1
        r = client.post("/api/editor/balance", json={"text": CLOSE, "players": ["mcts", "mcts"]})
        assert r.status_code == 429 and "one at a time per address" in r.json()["error"]["message"]
        assert client.post("/api/games", json={"seats": ["mcts", "mcts"]}).status_code == 201
        r = client.post("/api/games", json={"seats": ["mcts", "mcts"]})
        assert r.status_code == 429 and "2 games between computer players" in r.json()["error"]["message"]
        # another address: the server's bound, named
        with pytest.raises(WebError) as err:
            BalanceChecks(svc).start("cc-samurai", "x.toml", "x", ["mcts", "mcts"], 4, "10.0.0.9")
        assert err.value.status == 429 and "at most 2 are allowed together (--max-ai-games)" in err.value.message
        assert client.post("/api/games", json={"seats": ["human", "mcts"]}).status_code == 201  # people welcome


def test_a_person_s_game_is_answered_first_while_a_balance_check_runs(tmp_path: Path) -> None:
    """The fairness of the AI scheduler holds with a check in progress, in decisions (work units),
    not seconds: one worker, a check of slow players keeping it busy; after a person's move the
    game's greedy answer starts before more than one more decision of the check begins (the one
    already in hand), and its whole reply (every decision up to the person's next) likewise."""
    rec = Recorder(0.05)
    svc = GameService(Storage(f"sqlite:///{tmp_path / 'one.db'}"), ai_workers=1,
                      limits=Limits(ai_only_games=4, thinking_per_client=10), player_factory=rec, test_seed=36)
    client = TestClient(create_app("unused", svc, allowed_hosts=("testserver",)))
    with client:
        r = client.post("/api/editor/balance", json={"text": CLOSE, "players": ["mcts", "mcts"], "games": 40})
        assert r.status_code == 202
        wait_for(lambda: len(rec.starts) >= 5)
        live, _ = svc.create("cc-samurai", None, ["human", "greedy"], seed=9)  # the person (Red) first
        replies = 0
        for _ in range(300):  # the person's decisions until the AI has answered three of them
            wait_for(lambda: (live.state.to_move() == 0 and not live.ai_running) or live.state.is_terminal(), 60)
            if live.state.is_terminal() or replies == 3:
                break
            action = next(a for a in live.state.legal_actions() if not a.startswith(("concede", "resign")))
            with rec.lock:
                mark = len(rec.starts)
            svc.act(live, 0, action, None)
            wait_for(lambda: (live.state.to_move() == 0 and not live.ai_running) or live.state.is_terminal(), 60)
            with rec.lock:
                after = rec.starts[mark:]
            mine = [k for k, kind in enumerate(after) if kind == "greedy"]
            if not mine:
                continue  # the person's move did not hand the turn over: nothing to answer
            replies += 1
            assert mine[0] <= 1, after[:10]  # at most the check's decision already in hand
            assert all(kind == "greedy" for kind in after[mine[0]:mine[-1] + 1])  # the reply is never cut
        assert replies == 3
        # and the check went on meanwhile
        assert client.get(f"/api/editor/balance/{r.json()['id']}").json()["state"] == "running"
