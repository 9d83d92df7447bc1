"""No response ever shows a seat what it may not see.

Whole games are played through the HTTP API; after every action each seat's
responses (the acting seat's answer, the other seat's view, full logs, odds,
replays, pages) are searched for every string of ``state.secrets(seat)``: the
other side's Command and Dragon cards, the deck orders, the RNG state.
"""

from __future__ import annotations

from typing import Any

import pytest

from kassen.web.service import GameService, LiveGame
from tests.web.conftest import Seat, play_until, seeded_game
from tests.web.policy import aggressive


def assert_no_secret(body: str, secrets: set[str], what: str) -> None:
    assert secrets, "a C&C state always has hidden parts"
    leaked = sorted(s for s in secrets if s in body)
    assert not leaked, f"{what} leaks {leaked[:5]}"


def check_seat(seat: Seat, live: LiveGame, since: int, what: str) -> dict[str, Any]:
    r = seat.get(since)
    assert_no_secret(r.text, live.state.secrets(seat.index), f"{what}: view of seat {seat.index}")
    data: dict[str, Any] = r.json()
    return data


@pytest.mark.parametrize("seed", [21, 34])
def test_two_people_play_a_whole_game_and_nothing_leaks(app_client: Any, seed: int) -> None:
    client, svc = app_client
    svc_: GameService = svc
    gid, seats = seeded_game(client, svc_, ["human", "human"], seed=seed)
    live = svc_.get(gid)
    pages = [client.get(p).text for p in ("/", f"/game/{gid}", "/static/app.js", "/static/views/cc.js",
                                          "/openapi.json")]
    steps = 0
    odds_checked = 0
    while not live.state.is_terminal():
        state = live.state
        mover = seats[state.to_move()]
        other = seats[1 - mover.index]
        action = aggressive(state)
        if action.startswith(("attack ", "fire ")) and odds_checked < 20:
            r = client.get(f"/api/games/{gid}/odds", params={"action": action}, headers=mover.headers)
            assert r.status_code == 200, r.text
            assert_no_secret(r.text, state.secrets(mover.index), "odds")
            odds_checked += r.status_code == 200
        r = mover.act(action, at=live.version)
        assert r.status_code == 200, r.text
        assert_no_secret(r.text, live.state.secrets(mover.index), f"step {steps}: answer to {action!r}")
        full = steps % 40 == 0
        check_seat(other, live, 0 if full else live.version, f"step {steps}")
        if full:
            check_seat(mover, live, 0, f"step {steps}")
        steps += 1
        assert steps < 3000
    assert odds_checked > 0
    for seat in seats:
        v = check_seat(seat, live, 0, "final")
        assert v["result"] is not None and len(v["log"]) > steps
        for page in pages:
            assert_no_secret(page, live.state.secrets(seat.index), "a page")
        # the replay shows each step as this seat saw it then
        for k in range(0, len(live.history), 7):
            r = client.get(f"/api/games/{gid}/replay?step={k}", headers=seat.headers)
            assert r.status_code == 200
            assert_no_secret(r.text, live.history[k].secrets(seat.index), f"replay step {k}")
    # redaction really happened: the other seat was told of draws without the card
    texts = [e["text"] for e in seats[1].view()["log"] if e["kind"] == "draw"]
    assert texts and any("draws a card" in t or "draws a Command card" in t for t in texts), texts[:3]


def test_against_the_ai_the_human_never_sees_the_ai_cards(app_client: Any) -> None:
    client, svc = app_client
    gid, (red, blue) = seeded_game(client, svc, ["human", "greedy"], seed=8)
    live = svc.get(gid)
    seen = 0

    def check(lv: LiveGame) -> bool:
        nonlocal seen
        if lv.state.to_move() == 0 or lv.state.is_terminal():
            r = red.get(0)
            version = r.json()["version"]  # the AI may have moved on since: check that state's secrets
            assert_no_secret(r.text, lv.history[version].secrets(0), f"after {version} actions")
            seen += 1
        return lv.version >= 150 or lv.state.is_terminal()

    play_until(svc, gid, check)
    assert seen > 10 and live.version >= 150


def test_the_watch_link_sees_no_hand_and_cannot_act(app_client: Any) -> None:
    """A game's watch link is a spectator: observation(None), the public log, no decisions;
    it sees neither seat's hidden cards at any point of a whole game between two computers."""
    client, svc = app_client
    r = client.post("/api/games", json={"seats": ["random", "random"]})
    assert r.status_code == 201, r.text
    data = r.json()
    gid, watch = data["game_id"], data["watch"]["token"]
    assert data["watch"]["url"] == f"/game/{gid}#{watch}"
    headers = {"Authorization": f"Bearer {watch}"}
    live = svc.get(gid)
    checked = 0
    while not live.state.is_terminal() and checked < 60:
        v = client.get(f"/api/games/{gid}", headers=headers)
        assert v.status_code == 200
        body = v.json()
        version = body["version"]
        hidden = live.history[version].secrets(0) | live.history[version].secrets(1)
        assert_no_secret(v.text, hidden, f"watch view after {version} actions")
        assert body["watching"] and body["seat"] is None and body["actions"] == [] and not body["your_turn"]
        assert body["observation"] == live.history[version].observation(None)
        checked += 1
    # it may not act, undo or ask for odds
    for method, path, kw in (("post", f"/api/games/{gid}/actions", {"json": {"action": "pass"}}),
                             ("post", f"/api/games/{gid}/undo", {}),
                             ("get", f"/api/games/{gid}/odds", {"params": {"action": "attack F3 F5"}})):
        r = getattr(client, method)(path, headers=headers, **kw)
        assert r.status_code == 403 and "watch link" in r.json()["error"], r.text
    # a new game's seats are the players' only: the watch link is no seat
    stored = svc.storage.load_game(gid)
    assert stored is not None and stored.seat_kinds == ["random", "random"]
    assert checked > 0
