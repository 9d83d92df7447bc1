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


ROSTER_A = """
name = "Spears"
clan = "buke"
commander = "hattamoto"
points = 200

[[troops]]
id = "spears"
name = "Spears"
class = "W"
title = "samurai"
miniatures = 5
weapons = ["Yari"]
armour = "samurai"

[[troops]]
id = "bows"
name = "Bows"
class = "W"
title = "ashigaru"
miniatures = 5
weapons = ["Tanto", "Yumi"]
"""

ROSTER_B = """
name = "Monks"
clan = "sohei"
commander = "hattamoto"
points = 200

[[troops]]
id = "monks"
name = "Monks"
class = "W"
title = "monk"
miniatures = 5
weapons = ["Naginata"]

[[troops]]
id = "hero"
name = "Hero"
class = "H"
title = "monk"
miniatures = 1
weapons = ["Katana"]
"""


def rosters(tmp_path: Any, a: str = ROSTER_A, b: str = ROSTER_B) -> str:
    pa, pb = tmp_path / "a.toml", tmp_path / "b.toml"
    pa.write_text(a)
    pb.write_text(b)
    return f"{pa},{pb}"


def start(tmp_path: Any, dice: list[int], a: str = ROSTER_A, b: str = ROSTER_B) -> Any:
    """A battle of the two small rosters, Border wars, with the set-up dice forced:
    secondary missions, Strategy rolls, the scenery roll, then (after ``role``) the initiative."""
    from kassen.rulesets.kensei.game import KenseiGame

    return KenseiGame().new_state("border-wars", 0, rosters=rosters(tmp_path, a, b), forced_dice=dice)


def play(state: Any, *actions: str) -> Any:
    for a in actions:
        state = state.apply(a)
    return state


def texts(state: Any) -> str:
    return "\n".join(e.text for e in state.events)


#: an artillery engagement (a taiho's solid shot at short range on two yari-samurai)
ARTILLERY = """
kind = "artillery"
affected = 2
[artillery]
machine = "taiho"
ammunition = "solid-shot"
range_band = "short"
[target]
roster = "buke-vanguard"
troop = "yari-samurai"
"""
