"""The JSON API, endpoint by endpoint: what it answers, and the clear 4xx that changes nothing."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kassen.ai.players import Player, make_player
from kassen.engine.protocol import State
from kassen.web.app import create_app
from kassen.web.service import GameService
from kassen.web.storage import SCHEMA_VERSION, Storage
from tests.web.conftest import Seat, new_game, play_until, seeded_game


def stored_actions(svc: GameService, game_id: str) -> list[str]:
    g = svc.storage.load_game(game_id)
    assert g is not None
    return g.actions


def mover(seats: list[Seat]) -> tuple[Seat, dict[str, Any]]:
    for s in seats:
        v = s.view()
        if v["your_turn"]:
            return s, v
    raise AssertionError("nobody to move")


# ---------------------------------------------------------------- catalog, create
def test_health_and_catalog(app_client: Any) -> None:
    client, _ = app_client
    assert client.get("/api/health").json() == {"ok": True, "schema_version": SCHEMA_VERSION, "storage": "writable",
                                                 "games_in_memory": 0}
    cat = client.get("/api/catalog").json()
    cc = next(g for g in cat["games"] if g["id"] == "cc-samurai")
    assert cc["seats"] == ["Red", "Blue"] and cc["view"] == "cc"
    first = next(s for s in cc["scenarios"] if s["id"] == "first-samurai-skirmish")
    assert "Red moves first" in first["note"]
    assert any(s["year"] for s in cc["scenarios"]), "historical battles carry their year"
    assert {p["id"] for p in cat["players"]} >= {"human", "random", "greedy", "mcts"}


def test_create_returns_one_secret_link_per_seat(app_client: Any) -> None:
    client, svc = app_client
    r = client.post("/api/games", json={"seats": ["human", "human"]})
    assert r.status_code == 201
    data = r.json()
    tokens = [s["token"] for s in data["seats"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 24 for t in tokens)
    assert data["seats"][0]["url"] == f"/game/{data['game_id']}#{tokens[0]}"
    assert [s["name"] for s in data["seats"]] == ["Red", "Blue"]
    assert data["scenario"] == "first-samurai-skirmish"
    stored = svc.storage.load_game(data["game_id"])
    assert stored is not None and stored.seat_kinds == ["human", "human"] and stored.actions == []
    with svc.storage.engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT token_hash FROM seats").all()
    assert all(t not in {r[0] for r in rows} for t in tokens), "tokens are stored hashed"


@pytest.mark.parametrize("body, status, words", [
    ({"ruleset": "chess", "seats": ["human", "human"]}, 400, "unknown ruleset 'chess'"),
    ({"scenario": "no-such-battle", "seats": ["human", "human"]}, 400, "unknown scenario 'no-such-battle'"),
    ({"scenario": "/etc/passwd", "seats": ["human", "human"]}, 400, "unknown scenario '/etc/passwd'"),
    ({"seats": ["human"]}, 400, "'seats' needs 2 entries"),
    ({"seats": ["human", "deep-blue"]}, 400, "unknown seat kind 'deep-blue'"),
    ({"seats": "human,human"}, 422, "seats"),
    ({"seats": ["human", "human"], "seed": 3}, 422, "seed: Extra inputs are not permitted"),
    ({"ruleset": 5, "seats": ["human", "human"]}, 422, "ruleset"),
])
def test_create_rejects_bad_input(app_client: Any, body: dict[str, Any], status: int, words: str) -> None:
    client, svc = app_client
    r = client.post("/api/games", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]["message"]
    with svc.storage.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM games").scalar() == 0


def test_create_rejects_non_json(app_client: Any) -> None:
    client, _ = app_client
    r = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "malformed request" in r.json()["error"]["message"]


# -------------------------------------------------------------------- tokens
def test_tokens_wrong_missing_foreign(app_client: Any) -> None:
    client, _ = app_client
    gid, seats = new_game(client, ["human", "human"])
    gid2, seats2 = new_game(client, ["human", "human"])
    url = f"/api/games/{gid}"
    r = client.get(url)
    assert r.status_code == 401 and "missing seat token" in r.json()["error"]["message"]
    r = client.get(url, headers={"Authorization": "Bearer not-a-token"})
    assert r.status_code == 401 and "unknown seat token" in r.json()["error"]["message"]
    r = client.get(url, headers={"Authorization": "Basic abc"})
    assert r.status_code == 401 and "Bearer" in r.json()["error"]["message"]
    r = client.get(url, headers=seats2[0].headers)
    assert r.status_code == 403 and "another game" in r.json()["error"]["message"]
    r = client.post(f"{url}/actions", headers=seats2[0].headers, json={"action": "play cranes-wing"})
    assert r.status_code == 403
    r = client.get("/api/games/ffffffffffffffff", headers=seats[0].headers)
    assert r.status_code == 404 and "no game" in r.json()["error"]["message"]
    assert client.get(f"{url}?token={seats[1].token}").json()["seat"] == 1


def test_each_seat_sees_its_own_view(app_client: Any) -> None:
    client, _ = app_client
    _, (red, blue) = new_game(client, ["human", "human"])
    rv, bv = red.view(), blue.view()
    assert rv["seat_name"] == "Red" and bv["seat_name"] == "Blue"
    assert rv["your_turn"] and not bv["your_turn"]
    assert rv["actions"] and bv["actions"] == []
    assert rv["observation"]["you"] == "red" and bv["observation"]["you"] == "blue"
    assert {c["id"] for c in rv["observation"]["hand"]}.isdisjoint(c["id"] for c in bv["observation"]["hand"])
    assert "seed" not in rv and "rng" not in str(rv["observation"])


# -------------------------------------------------------------------- actions
def test_action_is_applied_and_stored(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, blue) = new_game(client, ["human", "human"])
    v = red.view()
    a = v["actions"][0]["action"]
    r = red.act(a, at=v["version"])
    assert r.status_code == 200, r.text
    nv = r.json()
    assert nv["version"] == 1 and stored_actions(svc, gid) == [a]
    assert any(e["kind"] == "play" for e in nv["log"])
    assert blue.view()["version"] == 1


@pytest.mark.parametrize("body, status, words", [
    ({"action": "fly to the moon"}, 422, "illegal action 'fly to the moon'"),
    ({"action": ""}, 422, "action"),
    ({"action": "x" * 201}, 422, "action"),
    ({}, 422, "action: Field required"),
    ({"action": ["play"]}, 422, "action"),
    ({"action": "play cranes-wing", "at": -1}, 422, "at"),
    ({"action": "play cranes-wing", "extra": 1}, 422, "extra: Extra inputs are not permitted"),
])
def test_bad_actions_change_nothing(app_client: Any, body: dict[str, Any], status: int, words: str) -> None:
    client, svc = app_client
    gid, (red, _) = new_game(client, ["human", "human"])
    before = red.view()
    r = client.post(f"/api/games/{gid}/actions", headers=red.headers, json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]["message"]
    after = red.view()
    assert after["version"] == before["version"] == 0 and after["observation"] == before["observation"]
    assert stored_actions(svc, gid) == []


def test_not_your_turn_and_stale_and_over(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, blue) = seeded_game(client, svc, ["human", "human"], seed=11)
    a = red.view()["actions"][0]["action"]
    r = blue.act(a)
    assert r.status_code == 409 and "not your turn: Red to move" in r.json()["error"]["message"]
    assert red.act(a, at=0).status_code == 200
    nxt = red.view()["actions"][0]["action"]
    r = red.act(nxt, at=0)
    assert r.status_code == 409 and "stale" in r.json()["error"]["message"]
    assert stored_actions(svc, gid) == [a]
    play_until(svc, gid, lambda live: live.state.is_terminal())
    r = red.act("done")
    assert r.status_code == 409 and "over" in r.json()["error"]["message"]


# ---------------------------------------------------------------- undo
def test_undo_only_against_the_ai(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, _) = seeded_game(client, svc, ["human", "human"], seed=5)
    red.act(red.view()["actions"][0]["action"])
    r = client.post(f"/api/games/{gid}/undo", headers=red.headers)
    assert r.status_code == 409 and "only possible against the AI" in r.json()["error"]["message"]
    assert len(stored_actions(svc, gid)) == 1


def test_undo_goes_back_to_the_last_decision_never_past_dice(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, _) = seeded_game(client, svc, ["human", "random"], seed=5)
    v = red.view()
    assert not v["undo"]["possible"]
    r = client.post(f"/api/games/{gid}/undo", headers=red.headers)
    assert r.status_code == 409 and "nothing to undo" in r.json()["error"]["message"]
    live = svc.get(gid)
    play_until(svc, gid, lambda lv: lv.state.to_move() == 0 and any(
        a.startswith("order ") for a in lv.state.legal_actions()))
    before = stored_actions(svc, gid)
    order = next(a for a in live.state.legal_actions() if a.startswith("order "))
    assert red.act(order).status_code == 200
    assert red.view()["undo"]["possible"]
    r = client.post(f"/api/games/{gid}/undo", headers=red.headers)
    assert r.status_code == 200 and r.json()["undone"] == [order]
    assert stored_actions(svc, gid) == before and live.version == len(before)
    # again: the card, and the AI's answer to it (a Dragon window, no dice), are taken back too
    card_at = max(i for i, a in enumerate(before) if a.startswith("play "))
    assert not any("faces" in e.data or e.visible_to for st in live.history[card_at + 1:] for e in st.events)
    for _ in range(len(before) - card_at):
        if live.version == card_at:
            break
        r = client.post(f"/api/games/{gid}/undo", headers=red.headers)
        assert r.status_code == 200, r.text
    assert stored_actions(svc, gid) == before[:card_at]
    assert red.view()["your_turn"] and live.state.to_move() == 0
    play_until(svc, gid, lambda lv: lv.version >= len(before))  # and play on as before
    # after a die roll undo is refused and changes nothing
    play_until(svc, gid, lambda lv: lv.state.to_move() == 0 and any("faces" in e.data for e in lv.state.events))
    n = live.version
    r = client.post(f"/api/games/{gid}/undo", headers=red.headers)
    assert r.status_code == 409 and "die roll" in r.json()["error"]["message"]
    # said in plain words (issue 18, item 14), in the view too, where the page shows it by the button
    assert "dice were rolled after your last decision" in r.json()["error"]["message"]
    assert red.view()["undo"]["text"] == r.json()["error"]["message"]
    assert live.version == n and len(stored_actions(svc, gid)) == n


# ------------------------------------------------------------ odds, replay, reference
def test_odds_of_an_attack(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, blue) = seeded_game(client, svc, ["human", "human"], seed=2)
    start = svc.get(gid).state  # playing a Command card has no odds
    r = client.get(f"/api/games/{gid}/odds", params={"action": start.legal_actions()[0]},
                   headers=(red, blue)[start.to_move()].headers)
    assert r.status_code == 404 and "no odds" in r.json()["error"]["message"]
    play_until(svc, gid, lambda lv: any(a.startswith("attack ") for a in lv.state.legal_actions()))
    live = svc.get(gid)
    seat = (red, blue)[live.state.to_move()]
    attack = next(a for a in live.state.legal_actions() if a.startswith("attack "))
    r = client.get(f"/api/games/{gid}/odds", params={"action": attack}, headers=seat.headers)
    assert r.status_code == 200, r.text
    o = r.json()
    assert o["kind"] == "close" and o["dice"] >= 1
    assert abs(sum(o["hits"].values()) - 1) < 1e-9 and 0 <= o["p_eliminated"] <= o["p_hit"] <= 1
    # the dice the odds count are the dice the attack rolls
    seat.act(attack)
    while not any(e.kind == "roll" for e in live.state.events):
        s = live.state
        svc.act(live, s.to_move(), "pass" if "pass" in s.legal_actions() else s.legal_actions()[0], None)
    roll = next(e for e in live.state.events if e.kind == "roll")
    assert roll.data["dice"] == o["dice"]
    other = (red, blue)[1 - seat.index]
    r = client.get(f"/api/games/{gid}/odds", params={"action": attack}, headers=other.headers)
    assert r.status_code == 409
    mover = (red, blue)[live.state.to_move()]
    r = client.get(f"/api/games/{gid}/odds", params={"action": "attack A1 B2"}, headers=mover.headers)
    assert r.status_code == 422 and "not one of your legal actions" in r.json()["error"]["message"]
    r = client.get(f"/api/games/{gid}/odds", headers=mover.headers)
    assert r.status_code == 422 and "action" in r.json()["error"]["message"]


def test_replay_of_a_finished_game(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, blue) = seeded_game(client, svc, ["human", "human"], seed=3)
    r = client.get(f"/api/games/{gid}/replay?step=0", headers=red.headers)
    assert r.status_code == 409 and "finished games" in r.json()["error"]["message"]
    play_until(svc, gid, lambda lv: lv.state.is_terminal())
    live = svc.get(gid)
    total = live.version
    r0 = client.get(f"/api/games/{gid}/replay?step=0", headers=red.headers).json()
    assert r0["total"] == total and r0["action"] is None and r0["observation"]["turn"] == 1
    r1 = client.get(f"/api/games/{gid}/replay?step=1", headers=blue.headers).json()
    assert r1["observation"]["you"] == "blue"
    # Red's first decision: Red sees it as played, Blue as its log told it (issue 13)
    assert client.get(f"/api/games/{gid}/replay?step=1", headers=red.headers).json()["action"] == \
        live.stored.actions[0]
    told = [e.text for e in live.history[1].events if e.visible_to is None]
    assert r1["action"] == "; ".join(told) and r1["action"] != live.stored.actions[0]
    last = client.get(f"/api/games/{gid}/replay?step={total}", headers=red.headers).json()
    assert last["observation"]["result"] is not None
    assert client.get(f"/api/games/{gid}/replay?step={total + 1}", headers=red.headers).status_code == 400
    assert client.get(f"/api/games/{gid}/replay?step=-1", headers=red.headers).status_code == 422
    v = red.view()
    assert v["result"]["winner_name"] in ("Red", "Blue") and v["actions"] == []


def test_reference_tables(app_client: Any) -> None:
    client, _ = app_client
    gid, (red, _) = new_game(client, ["human", "human"])
    ref = client.get(f"/api/games/{gid}/reference", headers=red.headers).json()
    assert ref["units"]["ASp"]["name"] == "Ashigaru Infantry Spearmen" and ref["terrain"]["forest"]["name"]
    assert client.get(f"/api/games/{gid}/reference").status_code == 401


def test_pages_and_openapi(app_client: Any) -> None:
    client, _ = app_client
    assert "<title>Kassen</title>" in client.get("/").text
    assert client.get("/game/abc").status_code == 200
    for f in ("app.js", "common.js", "style.css", "views/cc.js", "views/generic.js"):
        assert client.get(f"/static/{f}").status_code == 200, f
    schema = client.get("/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}/actions", "/api/games/{game_id}/events",
            "/api/games/{game_id}/undo", "/api/games/{game_id}/odds"} <= set(schema["paths"])


# ------------------------------------------------------------------------ AI
def test_ai_seat_moves_by_itself_without_blocking_other_games(db_url: str) -> None:
    # The AI's first decision waits at a gate the test opens: what the view says while it
    # thinks, and that another game answers meanwhile, are then seen every time (timing the
    # real search against PostgreSQL's latency was a race the fresh-clone CI lost twice).
    gate, thinking_started = threading.Event(), threading.Event()

    class Gated(Player):
        def __init__(self, name: str, seed: int) -> None:
            self.inner, self.name = make_player(name, seed), name

        def choose(self, state: State, seat: int) -> str:
            if not gate.is_set():
                thinking_started.set()
                assert gate.wait(60), "the test never opened the gate"
            return self.inner.choose(state, seat)

    svc = GameService(Storage(db_url), player_factory=Gated)
    with TestClient(create_app(db_url, service=svc, allowed_hosts=("testserver",))) as client:
        other, (o_red, _) = new_game(client, ["human", "human"])
        gid, seats = new_game(client, ["mcts", "human"])  # the AI (Red) moves first
        assert thinking_started.wait(30), "the AI never started thinking"
        thinking = seats[1].view()
        assert thinking["ai_thinking"] and not thinking["your_turn"], thinking["to_move"]
        assert thinking["ai_level"] == "tree search, slow"  # what thinks, how long
        o_red.act(o_red.view()["actions"][0]["action"])  # another game answers while the AI thinks
        assert o_red.view()["version"] == 1 and seats[1].view()["version"] == 0
        gate.set()
        deadline = time.monotonic() + 60
        while not seats[1].view()["your_turn"]:
            assert time.monotonic() < deadline, "the AI never finished its turn"
            time.sleep(0.1)
        v = seats[1].view()
        # the AI played on its own until Blue had a decision (its card at least; a Dragon card
        # window may come to Blue right after it)
        assert v["version"] >= 1 and not v["ai_thinking"]
        assert stored_actions(svc, gid) == svc.get(gid).stored.actions


def test_storage_schema_is_versioned(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    st = Storage(url)
    assert st.schema_version() == SCHEMA_VERSION
    assert Storage(url).migrate() == SCHEMA_VERSION  # reopening migrates nothing
    with st.engine.begin() as conn:
        conn.exec_driver_sql(f"UPDATE kassen_schema SET version = {SCHEMA_VERSION + 1}")
    with pytest.raises(RuntimeError, match="upgrade Kassen"):
        Storage(url)


def test_a_game_without_a_view_of_its_own_plays_through_the_generic_view(
        app_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.web.toy import register_duel

    register_duel(monkeypatch)
    client, svc = app_client
    duel = next(g for g in client.get("/api/catalog").json()["games"] if g["id"] == "duel")
    assert duel["view"] == "generic" and duel["seats"] == ["North", "South"] and duel["scenarios"] == []
    gid, (north, south) = new_game(client, ["human", "human"], ruleset="duel")
    v = north.view()
    assert v["view"] == "generic" and v["ruleset"] == "duel"
    assert [a["action"] for a in v["actions"]] == ["fight", "swap"]
    live = svc.get(gid)
    mine = live.state.observation(0)["hands"][0]
    assert v["observation"]["hands"] == [mine, None]
    r = north.act("swap")
    assert r.status_code == 200
    body = south.get().text
    assert not [s for s in live.state.secrets(1) if s in body]
    assert "throws away" in body
    assert not any(e["kind"] == "draw" for e in south.view()["log"])  # private to North
    assert any(e["kind"] == "draw" for e in north.view()["log"])
    assert south.act("fight").status_code == 200
    assert north.view()["result"]["reason"] == "fight"


def test_undo_takes_back_the_ai_answer_too_but_not_past_dice(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, _) = seeded_game(client, svc, ["human", "random"], seed=3)  # Blue has a Dragon answer to Red's card
    live = svc.get(gid)
    play_until(svc, gid, lambda lv: lv.state.to_move() == 0 and any(
        a.startswith("order ") for a in lv.state.legal_actions()))
    kinds = [live.history[i].to_move() for i in range(live.version)]
    assert 1 in kinds, "the AI decided between Red's card and Red's orders"
    while live.version:
        r = client.post(f"/api/games/{gid}/undo", headers=red.headers)
        assert r.status_code == 200, r.text
    assert stored_actions(svc, gid) == [] and live.state.to_move() == 0
    assert not red.view()["undo"]["possible"]


def test_the_kensei_roll_resolver_answers_exact_odds_and_names_bad_input(app_client: Any) -> None:
    client, _ = app_client
    r = client.post("/api/games", json={"ruleset": "kensei", "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    gid, token = r.json()["game_id"], r.json()["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    body = {"kind": "hand-to-hand", "attacker": {"seat": 0, "troop": "yari-samurai", "charge": True},
            "defender": {"seat": 1, "troop": "undead-ashigaru"}}
    ok = client.post(f"/api/games/{gid}/calculator", json=body, headers=auth)
    assert ok.status_code == 200, ok.text
    odds = ok.json()
    total = odds["a_wins"]["float"] + odds["draw"]["float"] + odds["b_wins"]["float"]
    assert abs(total - 1) < 1e-9  # exact distributions: the three outcomes cover every roll
    bad = client.post(f"/api/games/{gid}/calculator", json={**body, "attacker": {"seat": 0, "troop": "ninjas"}},
                      headers=auth)
    assert bad.status_code == 422 and "ninjas" in bad.json()["error"]["message"]
    cc = client.post("/api/games", json={"seats": ["human", "human"]}).json()
    none = client.post(f"/api/games/{cc['game_id']}/calculator", json=body,
                       headers={"Authorization": f"Bearer {cc['seats'][0]['token']}"})
    assert none.status_code == 404


def test_the_ai_explains_its_turn_after_it_and_names_no_card_of_its_hand(app_client: Any) -> None:
    """Issue 14, item 5 (web): after an AI turn the view carries its plan and estimate; it
    names the card it played and the units it moved, never the cards left in its hand."""
    client, svc = app_client
    gid, seats = new_game(client, ["easy", "human"])  # the AI (Red) plays first
    deadline = time.monotonic() + 60
    while not seats[1].view()["your_turn"]:
        assert time.monotonic() < deadline, "the AI never finished its turn"
        time.sleep(0.1)
    live = svc.get(gid)
    # a Dragon window may give Blue a decision inside Red's turn: play until Red's turn is over
    while live.state.observation(None).get("active") == "red" and not live.state.is_terminal():
        v = seats[1].view()
        if v["your_turn"]:
            acts = [a["action"] for a in v["actions"]]
            seats[1].act("pass" if "pass" in acts else acts[0])
        time.sleep(0.05)
        assert time.monotonic() < deadline
    plans = seats[1].view()["ai_plans"]
    assert len(plans) == 1 and plans[0]["seat"] == 0 and plans[0]["text"].startswith("easy: plan play ")
    played = plans[0]["text"].split("plan play ")[1].split(";")[0].split(".")[0]
    with live.lock:
        hand = set(live.state.hands[0])  # type: ignore[attr-defined]
    names = {svc.get(gid).game.tables.command_ids[c] for c in hand}  # type: ignore[attr-defined]
    assert not any(n in plans[0]["text"] for n in names - {played})
