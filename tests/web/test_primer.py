"""The rules primer (issue 30, item 4): every game's primer from the API, built from its data and
the battle played (the scenario's own banner count, its notes), with nothing hidden in it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from kassen.engine.protocol import Game
from kassen.rulesets.cc_samurai.facts import TerrainType
from kassen.rulesets.cc_samurai.primer import terrain_effects
from kassen.rulesets.registry import load_game
from tests.web.conftest import Seat


def primer_of(client: Any, ruleset: str, scenario: str | None, seats: int = 2) -> tuple[dict[str, Any], Any]:
    r = client.post("/api/games", json={"ruleset": ruleset, "scenario": scenario, "seats": ["human"] * seats})
    assert r.status_code == 201, r.text
    data = r.json()
    s = Seat(client, data["game_id"], data["seats"][0]["token"], 0)
    ref = client.get(f"/api/games/{data['game_id']}/reference", headers=s.headers)
    assert ref.status_code == 200, ref.text
    return ref.json()["primer"], data


@pytest.mark.parametrize("ruleset", ["cc-samurai", "cc-samurai-zvezda"])
def test_cc_primer_states_each_scenarios_own_banner_count(app_client: Any, ruleset: str) -> None:
    client, _ = app_client
    game: Any = load_game(ruleset)
    for sid in game.scenarios():
        p, _ = primer_of(client, ruleset, sid)
        banners = game.load_scenario(sid).scenario.victory_banners
        assert p["banners"] == banners
        victory = next(s for s in p["sections"] if s["id"] == "victory")
        assert f"The first side to gain {banners} Victory Banners wins" in victory["items"][0]
        for note in game.load_scenario(sid).rules.notes:  # the scenario's own notes, in its words
            assert note in victory["items"]
        ids = [s["id"] for s in p["sections"]]
        assert ids == ["dice", "honor", "leaders", "victory"] and all(s["items"] for s in p["sections"])


def test_cc_primer_dice_and_terrain_come_from_the_engine_tables(app_client: Any) -> None:
    client, _ = app_client
    p, _ = primer_of(client, "cc-samurai", "first-samurai-skirmish")
    dice = next(s for s in p["sections"] if s["id"] == "dice")
    assert [f["face"] for f in dice["faces"]] == ["circle", "triangle", "square", "flag", "honor", "swords"]
    assert "green circle" in dice["faces"][0]["text"]
    game: Any = load_game("cc-samurai")
    assert set(p["terrain"]) == set(game.tables.terrain)
    # the forest's maxima as the engine's table has them (into_ranged 1, on_close 2)
    assert "ranged combat against it: at most 1 die" in p["terrain"]["forest"]
    assert "infantry in close combat on it: at most 2 dice" in p["terrain"]["forest"]
    assert p["terrain"]["river"].startswith("impassable")



def test_cc_primer_says_the_first_of_alternative_terrain_effects_only() -> None:
    """Where a terrain's effects exclude each other, the primer says the strongest: a hill that
    also blocks line of sight is said a hill (its own sight rules), a unit that may ignore a flag
    whatever rolled it is not said again for infantry, entry stopping all battle not again for
    cavalry."""
    game: Any = load_game("cc-samurai")
    hill = game.tables.terrain["hill"]
    both = TerrainType(hill.model.model_copy(update={
        "blocks_los": True, "ignore_flag_any": True, "ignore_flag_inf": "cavalry", "no_battle_on_entry": "all"}))
    tables = SimpleNamespace(units=game.tables.units, terrain={"countryside": game.tables.terrain["countryside"],
                                                               "odd": both})
    said = terrain_effects(cast(Game, SimpleNamespace(tables=tables)))["odd"].split("; ")
    assert said[0] == "a unit entering may not battle this turn"
    assert said[1].startswith("a hill (line of sight over hills has its own rules)")
    assert "blocks line of sight" not in said and "cavalry entering may not battle this turn" not in said
    assert [x for x in said if "flag" in x] == ["a unit on it may ignore 1 flag"]
    real = terrain_effects(game)
    assert "infantry on it may ignore 1 flag" in real["palisade"].split("; ")
    assert "infantry on it may ignore 1 flag rolled by cavalry" in real["fence"].split("; ")

def test_zvezda_primer_keeps_to_its_own_edition(app_client: Any) -> None:
    client, _ = app_client
    gmt, _ = primer_of(client, "cc-samurai", None)
    zv, _ = primer_of(client, "cc-samurai-zvezda", None)
    lead = {p: next(s for s in x["sections"] if s["id"] == "leaders")["items"] for p, x in (("g", gmt), ("z", zv))}
    assert any("at most one per combat" in t for t in lead["z"]) and not any("at most one per combat" in t
                                                                              for t in lead["g"])


@pytest.mark.parametrize("ruleset, scenario, seats, words", [
    ("honourable-victory", None, 2, "Breakpoint"),
    ("clans", "2-players", 2, "most Victory Points wins"),
    ("clans", "4-players-teams", 4, "partners add their points"),
    ("kensei", None, 2, "turns the army that lost the smaller share"),
])
def test_every_game_has_a_primer_with_its_victory(app_client: Any, ruleset: str, scenario: str | None, seats: int,
                                                  words: str) -> None:
    client, _ = app_client
    p, _ = primer_of(client, ruleset, scenario, seats)
    victory = next(s for s in p["sections"] if s["id"] == "victory")
    assert any(words in t for t in victory["items"]), victory


def test_hv_primer_numbers_are_the_battles(app_client: Any) -> None:
    client, svc = app_client
    p, data = primer_of(client, "honourable-victory", None)
    obs = svc.get(data["game_id"]).state.observation(0)
    items = next(s for s in p["sections"] if s["id"] == "victory")["items"]
    assert any(f"after losing {obs['breakpoint'][0]} (its Breakpoint)" in t for t in items)
    assert any(f"after turn {obs['turn_limit']}" in t for t in items)


def test_the_primer_tells_no_hidden_card(app_client: Any) -> None:
    client, svc = app_client
    for ruleset, scenario in (("cc-samurai", None), ("clans", "2-players")):
        p, data = primer_of(client, ruleset, scenario)
        text = str(p)
        for seat in (None, 0, 1):
            for secret in svc.get(data["game_id"]).state.secrets(seat):
                assert secret not in text
