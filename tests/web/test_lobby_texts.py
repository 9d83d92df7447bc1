"""The lobby and the title bar speak in names, not ids (issue 18, item 18)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import new_game


def test_every_scenario_of_every_game_has_a_note_in_the_lobby(app_client: Any) -> None:
    client, _ = app_client
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    for gid in ("clans", "honourable-victory", "cc-samurai"):
        for row in games[gid]["scenarios"]:
            assert len(row["note"]) > 40, (gid, row["id"])
            assert row["name"] != row["id"], (gid, row["id"])
    teams = next(r for r in games["clans"]["scenarios"] if r["id"] == "4-players-teams")
    assert "play together against" in teams["note"]


def test_the_title_bar_shows_the_battle_s_name(app_client: Any) -> None:
    client, _ = app_client
    for ruleset, scenario, name in (("honourable-victory", "meeting-engagement", "meeting"),
                                    ("clans", "2-players", "2 players")):
        gid, seats = new_game(client, ["human", "human"], scenario=scenario, ruleset=ruleset)
        v = seats[0].view()
        assert v["scenario_name"] != scenario and name in v["scenario_name"].lower(), v["scenario_name"]
