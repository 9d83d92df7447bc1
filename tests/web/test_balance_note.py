"""The lobby shows each battle's shipped balance report next to its historical note (issue 16)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from kassen.web.extras import balance_figure


def test_every_cc_samurai_battle_carries_its_balance_figure(app_client: Any) -> None:
    client, _ = app_client
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    shipped = json.loads((resources.files("kassen.web") / "static/balance/cc-samurai/balance.json").read_text())
    for row in games["cc-samurai"]["scenarios"]:
        b = row["balance"]
        assert b is not None, row["id"]
        rep = shipped["scenarios"][row["id"]]
        # the scenario's own run when the report joins runs (the 200-game run where it has reached)
        assert b["date"] == rep.get("date", shipped["date"]) and b["games"] == rep["games"] > 0
        assert b["command"] == rep.get("command", shipped["command"])
        assert b["players"] == shipped["players"] and b["command"].startswith("kassen balance cc-samurai")
        assert set(b["win_rate"]) == {"Red", "Blue"}
        for side, w in b["win_rate"].items():
            assert w == {k: rep["win_rate_by_side"][side][k] for k in ("wins", "rate", "ci95")}
            # (a report written before wilson's ends were exact may end at 0.9999999999999999)
            assert 0 <= w["ci95"][0] <= w["rate"] + 1e-12 and w["rate"] <= w["ci95"][1] + 1e-12 <= 1 + 1e-12
        r = client.get(b["plot"])  # the plot is served with the page
        assert r.status_code == 200 and "<svg" in r.text, b["plot"]


@pytest.mark.parametrize("gid", ["clans", "honourable-victory"])
def test_the_other_games_scenarios_carry_their_balance_figures(app_client: Any, gid: str) -> None:
    """The clan game and An Honourable Victory! ship their reports too: every scenario shows its
    figure, with one win rate per seat (the clans of a 3- or 4-player game included)."""
    client, _ = app_client
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    shipped = json.loads((resources.files("kassen.web") / f"static/balance/{gid}/balance.json").read_text())
    assert shipped["game"] == gid
    for row in games[gid]["scenarios"]:
        b = row["balance"]
        assert b is not None, row["id"]
        rep = shipped["scenarios"][row["id"]]
        assert b["date"] == shipped["date"] and b["games"] == rep["games"] > 0
        assert b["command"].startswith("kassen balance")  # a run, or a merge of runs (kassen balance merge)
        assert list(b["win_rate"]) == rep["sides"] and len(rep["sides"]) >= 2
        for side, w in b["win_rate"].items():
            assert w == {k: rep["win_rate_by_side"][side][k] for k in ("wins", "rate", "ci95")}
            assert 0 <= w["ci95"][0] <= w["rate"] <= w["ci95"][1] <= 1
        r = client.get(b["plot"])
        assert r.status_code == 200 and "<svg" in r.text, b["plot"]


def test_a_battle_without_a_report_has_no_balance_figure(app_client: Any) -> None:
    client, _ = app_client
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    assert all(row["balance"] is None for row in games["cc-samurai-zvezda"]["scenarios"])
    assert balance_figure("cc-samurai", "no-such-battle") is None
