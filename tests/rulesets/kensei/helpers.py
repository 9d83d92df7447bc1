"""Small troops for the Kensei tests, built through the roster format."""

from __future__ import annotations

from typing import Any

from kassen.rulesets.kensei.data import load_tables
from kassen.rulesets.kensei.roster import TroopProfile, parse_roster

TABLES = load_tables()


def troop(**kw: Any) -> TroopProfile:
    """One troop profile: ``troop(klass="W", title="senshi", miniatures=1, weapons=["Katana"])``."""
    entry: dict[str, Any] = {"name": kw.pop("name", "T"), "class": kw.pop("klass", "W"),
                             "title": kw.pop("title", "senshi"), "miniatures": kw.pop("miniatures", 1), **kw}
    r = parse_roster({"name": "test", "clan": "buke", "commander": "hattamoto", "points": 200, "troops": [entry]},
                     "test.toml")
    return TroopProfile(r.troops[0], TABLES)
