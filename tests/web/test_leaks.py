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
        assert r.status_code == 403 and "watch link" in r.json()["error"]["message"], r.text
    # a new game's seats are the players' only: the watch link is no seat
    stored = svc.storage.load_game(gid)
    assert stored is not None and stored.seat_kinds == ["random", "random"]
    assert checked > 0


# ---------------------------------------------------------------------------------------------
# Every step of another seat that was hidden from a viewer (a card kept, a card laid face
# down, a shuffle) must reach that viewer only as its log told it: never as the raw action,
# in no response (view, undo, replay, watch). Walked over whole games of every game id.

GAME_SETUPS = [("cc-samurai", None), ("cc-samurai-zvezda", None), ("clans", "2-players"),
               ("clans", "3-players-experienced"), ("clans", "4-players-teams"),
               ("honourable-victory", "meeting-engagement")]


def hidden_steps(live: LiveGame, viewer: int | None) -> set[str]:
    """The raw actions of other seats (or chance) that ``viewer`` saw only as redacted events
    (a step with a public event, such as a Command card played, is public)."""
    out: set[str] = set()
    h = live.history
    for k, action in enumerate(live.stored.actions):
        events = h[k + 1].events
        if h[k].to_move() == viewer or " " not in action or not events:
            continue
        if all(e.visible_to is not None and (viewer is None or viewer not in e.visible_to) for e in events):
            out.add(action)
    return out


def assert_hides(body: str, live: LiveGame, version: int, viewer: int | None, what: str) -> None:
    """No secret of the state ``viewer`` saw, no hidden step of another seat, in ``body``
    (the seat's own legal actions left out: they are its own to see)."""
    import json

    data = json.loads(body)
    if isinstance(data, dict):
        data.pop("actions", None)
    text = json.dumps(data)
    secrets = live.history[version].secrets(viewer)
    leaked = sorted(s for s in secrets if s in text)
    assert not leaked, f"{what} leaks {leaked[:5]}"
    h = live.history
    own = {a for k, a in enumerate(live.stored.actions) if h[k].to_move() == viewer}  # the same words
    if viewer is not None and h[version].to_move() == viewer:  # may name the viewer's own choices
        own |= set(h[version].legal_actions())
    steps = sorted(a for a in hidden_steps(live, viewer) - own if a in text)
    at = [text[max(0, text.find(a) - 150):text.find(a) + 60] for a in steps[:1]]
    assert not steps, f"{what} names another seat's hidden choices {steps[:5]} in {at}"


def web_game(client: Any, svc: GameService, ruleset: str, scenario: str | None, kinds: list[str] | None,
             seed: int) -> tuple[LiveGame, list[Seat], dict[str, str]]:
    from kassen.rulesets.registry import load_game

    g = load_game(ruleset)
    n = len(g.new_state(scenario or g.default_scenario(), 0).seat_names())
    live, tokens = svc.create(ruleset, scenario, kinds or ["human"] * n, seed=seed)
    gid = live.stored.id
    watch = {"Authorization": f"Bearer {svc.new_watch_token(live)}"}
    return live, [Seat(client, gid, t, i) for i, t in enumerate(tokens)], watch


@pytest.mark.parametrize(("ruleset", "scenario"), GAME_SETUPS)
def test_undo_text_never_names_the_ai_hidden_choices(app_client: Any, ruleset: str, scenario: str | None) -> None:
    """Issue 13, repro 1: a person against computer players; the view's ``undo.text`` (the
    Undo button's tooltip) and the answer to an undo name the AI's decisions only as the
    person's log does ("Blue keeps one card"), never as ``keep order-three-left``."""
    import random
    import time

    client, svc = app_client
    from kassen.rulesets.registry import load_game

    g = load_game(ruleset)
    n = len(g.new_state(scenario or g.default_scenario(), 0).seat_names())
    live, seats, _ = web_game(client, svc, ruleset, scenario, ["human"] + ["greedy"] * (n - 1), seed=5)
    me = seats[0]
    pick = random.Random(5)
    decisions = undos = 0
    deadline = time.monotonic() + 60
    while decisions < 40 and not live.state.is_terminal():
        assert time.monotonic() < deadline, "the AI did not answer"
        if live.ai_running or live.state.to_move() != 0:
            time.sleep(0.002)
            continue
        r = me.get(0)
        assert_hides(r.text, live, r.json()["version"], 0, f"{ruleset} view after {live.version} actions")
        if decisions % 4 == 3 and r.json()["undo"]["possible"]:
            u = client.post(f"/api/games/{live.stored.id}/undo", headers=me.headers)
            if u.status_code == 200:
                assert_hides(u.text, live, u.json()["version"], 0, f"{ruleset} undo answer")
                undos += 1
                continue
        acts = live.state.legal_actions()
        act = pick.choice([a for a in acts if not a.startswith("concede")] or acts)
        assert me.act(act, at=live.version).status_code == 200
        decisions += 1
    assert decisions > 5


@pytest.mark.parametrize(("ruleset", "scenario"), GAME_SETUPS)
def test_replay_shows_each_viewer_only_what_it_saw(app_client: Any, ruleset: str, scenario: str | None) -> None:
    """Issue 13, repro 2: a finished game's replay, step by step, for every seat and the watch
    link: each ``action`` and event as that viewer saw it then; no hidden choice of another seat
    ("keep leadership", "deploy lord village" face down) and no secret of that moment."""
    import random

    client, svc = app_client
    live, seats, watch = web_game(client, svc, ruleset, scenario, None, seed=11)
    pick = random.Random(11)
    while not live.state.is_terminal():
        assert live.version < 4000, "the game did not end"
        acts = live.state.legal_actions()
        attacks = [a for a in acts if a.startswith(("attack ", "fire ", "play "))]
        act = pick.choice(attacks or [a for a in acts if not a.startswith("concede")] or acts)
        svc.act(live, live.state.to_move(), act, None)
    total = live.version
    viewers: list[tuple[int | None, dict[str, str]]] = [(s.index, s.headers) for s in seats] + [(None, watch)]
    for viewer, headers in viewers:
        hidden = hidden_steps(live, viewer)
        h = live.history
        # every step that followed a hidden choice of another seat, and a sample of the rest
        steps = {k + 1 for k, a in enumerate(live.stored.actions) if a in hidden and h[k].to_move() != viewer}
        for k in sorted(steps | set(range(0, total + 1, 10))):
            r = client.get(f"/api/games/{live.stored.id}/replay?step={k}", headers=headers)
            assert r.status_code == 200, r.text
            assert_hides(r.text, live, k, viewer, f"{ruleset} replay step {k} for {viewer}")
        v = client.get(f"/api/games/{live.stored.id}", headers=headers)
        assert_hides(v.text, live, total, viewer, f"{ruleset} final view for {viewer}")
        if viewer is not None and ruleset != "honourable-victory":
            assert hidden, f"{ruleset}: the other seats made no hidden choice, so this test shows nothing"
