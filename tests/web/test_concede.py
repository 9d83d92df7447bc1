"""Conceding a game through the API (issue 30, item 4): the other side wins, every seat sees it,
the replay opens, and the refusals (watch link, finished game, stale or foreign token, a
computer's seat) change nothing. Runs on SQLite and on PostgreSQL (``BOTH_DATABASES``)."""

from __future__ import annotations

from typing import Any

import pytest

from kassen.engine.concession import Conceded
from kassen.web.service import WebError
from kassen.web.storage import Storage
from tests.web.conftest import Seat, new_game, play_until, seeded_game


def concede(seat: Seat, at: int | None = None, token: str | None = None) -> Any:
    body = {} if at is None else {"at": at}
    headers = {"Authorization": f"Bearer {token}"} if token is not None else seat.headers
    return seat.client.post(f"/api/games/{seat.game_id}/concede", headers=headers, json=body)


def test_concede_gives_the_other_side_the_win_and_opens_the_replay(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, blue) = seeded_game(client, svc, ["human", "human"], seed=5)
    first = red.view()["actions"][0]["action"]
    assert red.act(first, at=0).status_code == 200
    # Blue concedes while it is Red's move: a concession needs no turn
    before = blue.view()
    assert not before["your_turn"]
    r = concede(blue, at=before["version"])
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["result"]["winner_name"] == "Red" and v["result"]["reason"] == "Blue conceded"
    assert v["actions"] == [] and v["to_move"] is None and v["version"] == 2
    seen = red.view()
    assert seen["result"] == v["result"] and seen["actions"] == [] and not seen["your_turn"]
    assert any(e["kind"] == "concede" and e["text"] == "Blue conceded" for e in seen["log"])
    # the replay: every step, the last one the concession
    total = seen["version"]
    last = client.get(f"/api/games/{gid}/replay?step={total}", headers=red.headers).json()
    assert last["total"] == total and last["action"] == "Blue conceded"
    step1 = client.get(f"/api/games/{gid}/replay?step=1", headers=blue.headers).json()
    assert step1["action"] and step1["observation"]["you"] == "blue"
    # nothing more: no action, no undo, no second concession
    assert red.act(first).status_code == 409
    assert client.post(f"/api/games/{gid}/undo", headers=red.headers).status_code == 409
    again = concede(red)
    assert again.status_code == 409 and "over" in again.json()["error"]["message"]
    # stored: the action log is the rules' alone, the concession beside it
    stored = svc.storage.load_game(gid)
    assert stored is not None and stored.actions == [first] and stored.conceded == 1 and stored.finished


def test_a_conceded_game_reloads_as_conceded(app_client: Any) -> None:
    """A restarted server (the game replayed from storage) shows the same result and replay."""
    client, svc = app_client
    gid, (red, _blue) = seeded_game(client, svc, ["human", "human"], seed=6)
    assert concede(red, at=0).status_code == 200
    with svc.games_lock:
        del svc.games[gid]
    live = svc.get(gid)
    assert isinstance(live.state, Conceded) and live.version == 1 and live.stored.actions == []
    v = red.view()
    assert v["result"]["winner_name"] == "Blue" and v["result"]["reason"] == "Red conceded"
    assert client.get(f"/api/games/{gid}/replay?step=1", headers=red.headers).json()["action"] == "Red conceded"


def test_concede_against_the_ai_stops_it(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, _) = new_game(client, ["human", "greedy"])
    assert concede(red).status_code == 200
    live = svc.get(gid)
    assert live.state.result() is not None and live.state.result().winner == 1
    play_until(svc, gid, lambda lv: not lv.ai_running)
    assert svc.get(gid).state.is_terminal() and red.view()["result"]["reason"] == "Red conceded"


@pytest.mark.parametrize("who, status, words", [
    ("watch", 403, "watch link"),
    ("stale", 409, "stale"),
    ("foreign", 403, "another game"),
    ("unknown", 401, "unknown seat token"),
    ("none", 401, "missing seat token"),
])
def test_refused_concessions_change_nothing(app_client: Any, who: str, status: int, words: str) -> None:
    client, svc = app_client
    r = client.post("/api/games", json={"seats": ["human", "human"]})
    data = r.json()
    gid = data["game_id"]
    red = Seat(client, gid, data["seats"][0]["token"], 0)
    _, (other, _) = new_game(client, ["human", "human"])
    if who == "watch":
        resp = concede(red, token=data["watch"]["token"])
    elif who == "stale":
        assert red.act(red.view()["actions"][0]["action"]).status_code == 200
        resp = concede(red, at=0)
    elif who == "foreign":
        resp = concede(red, token=other.token)
    elif who == "unknown":
        resp = concede(red, token="x" * 32)
    else:
        resp = client.post(f"/api/games/{gid}/concede", json={})
    assert resp.status_code == status, resp.text
    assert words in resp.json()["error"]["message"]
    stored = svc.storage.load_game(gid)
    assert stored is not None and stored.conceded is None
    assert red.view()["result"] is None


def test_a_computers_seat_cannot_concede(app_client: Any) -> None:
    """Only a person gives a game up (no AI level concedes while anything else is legal)."""
    client, svc = app_client
    gid, _ = new_game(client, ["human", "greedy"])
    live = svc.get(gid)
    for seat in (1, 5):
        with pytest.raises(WebError) as err:
            svc.concede(live, seat, None)
        assert err.value.status == 403 and "only a person" in err.value.message
    assert svc.storage.load_game(gid).conceded is None  # type: ignore[union-attr]


def test_a_finished_game_cannot_be_conceded(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, blue) = seeded_game(client, svc, ["human", "human"], seed=3)
    play_until(svc, gid, lambda lv: lv.state.is_terminal())
    result = red.view()["result"]
    r = concede(blue)
    assert r.status_code == 409 and "finished game cannot be conceded" in r.json()["error"]["message"]
    assert red.view()["result"] == result and svc.storage.load_game(gid).conceded is None  # type: ignore[union-attr]


@pytest.mark.parametrize("ruleset, scenario", [
    ("cc-samurai-zvezda", None), ("honourable-victory", None), ("kensei", None), ("clans", "2-players"),
])
def test_every_game_can_be_conceded(app_client: Any, ruleset: str, scenario: str | None) -> None:
    client, _ = app_client
    r = client.post("/api/games", json={"ruleset": ruleset, "scenario": scenario, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    data = r.json()
    first, second = (Seat(client, data["game_id"], s["token"], s["seat"]) for s in data["seats"])
    names = [s["name"] for s in data["seats"]]
    v = concede(second).json()
    assert v["result"]["winner"] == 0 and v["result"]["winner_name"] == names[0]
    assert v["result"]["reason"] == f"{names[1]} conceded"
    assert first.view()["result"] == v["result"]


def test_clan_game_of_three_and_teams_ruling_c26(app_client: Any) -> None:
    """C26: three players: the game ends shared by the others; teams: the other team wins."""
    client, _ = app_client
    for scenario, seats in (("3-players-beginners", 3), ("4-players-teams", 4)):
        r = client.post("/api/games", json={"ruleset": "clans", "scenario": scenario, "seats": ["human"] * seats})
        assert r.status_code == 201, r.text
        data = r.json()
        s1 = Seat(client, data["game_id"], data["seats"][1]["token"], 1)
        names = [s["name"] for s in data["seats"]]
        res = concede(s1).json()["result"]
        if seats == 3:
            assert res["winner"] is None and res["scores"] == [0.5, 0.0, 0.5]
            assert res["reason"] == f"{names[1]} conceded: the game ends, shared by {names[0]} and {names[2]}"
        else:
            assert res["winner"] == 0 and res["scores"] == [1.0, 0.0, 1.0, 0.0]
            assert res["reason"] == f"{names[1]} conceded: {names[0]} & {names[2]} win"


def test_schema_3_adds_the_concession_to_an_older_database(db_url: str) -> None:
    """A database of schema version 2 (before concessions) gains the column and keeps its games."""
    from sqlalchemy import inspect

    st = Storage(db_url)
    with st.engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE games DROP COLUMN conceded")
        conn.exec_driver_sql("UPDATE kassen_schema SET version = 2")
    st.close()
    st = Storage(db_url)
    with st.engine.connect() as conn:
        assert "conceded" in {c["name"] for c in inspect(conn).get_columns("games")}
    assert st.schema_version() == 3
    st.close()
