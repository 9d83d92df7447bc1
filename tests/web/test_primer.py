"""The rules primer (issue 30, item 4): every game's primer from the API, built from its data and
the battle played (the scenario's own banner count, its notes), with nothing hidden in it."""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from kassen.engine.protocol import Game
from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai.facts import TerrainType
from kassen.rulesets.cc_samurai.primer import terrain_effects
from kassen.rulesets.clans.common import BRIDGE_LIMIT, COWARDICE, ROUNDS
from kassen.rulesets.clans.data import CARD_TYPES, TILES
from kassen.rulesets.honourable_victory.common import (
    CV_MAX,
    CV_MIN,
    ENGAGE_NEED,
    ENGAGE_NEED_QUALITY,
    FIRE_HIT,
)
from kassen.rulesets.honourable_victory.table import FEATURES
from kassen.rulesets.kensei.common import TURNS
from kassen.rulesets.registry import get, hook, load_game
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


# ---------------------------------------------------------------- the other games' full primers

PRIMER_DATA = {
    "clans": "kassen.rulesets.clans",
    "honourable-victory": "kassen.rulesets.honourable_victory",
    "kensei": "kassen.rulesets.kensei",
}
#: a source: a line (range) of a seed file, or a ruling id of docs/rulings.md
SOURCE = re.compile(r"^(00[0-4]:\d+(-\d+)?|[CHK]\d+)$")
RULINGS = (Path(__file__).resolve().parents[2] / "docs" / "rulings.md").read_text(encoding="utf-8")


def primer_rows(node: Any) -> Iterator[dict[str, Any]]:
    """Every row of a primer TOML: a table with a ``text`` (or a ``table`` built from the engine's)."""
    if isinstance(node, dict):
        if "text" in node or "table" in node:
            yield node
        else:
            for v in node.values():
                yield from primer_rows(v)
    elif isinstance(node, list):
        for v in node:
            yield from primer_rows(v)


def hook_primer(ruleset: str, state: Any, seat: int | None) -> dict[str, Any]:
    game = load_game(ruleset)
    out: dict[str, Any] = hook(get(ruleset).primer or "")(game, state, seat)
    return out


def items_of(p: dict[str, Any], section: str) -> list[str]:
    return list(next(s for s in p["sections"] if s["id"] == section)["items"])


@pytest.mark.parametrize("ruleset", sorted(PRIMER_DATA))
def test_every_primer_row_has_its_source(ruleset: str) -> None:
    raw = (resources.files(PRIMER_DATA[ruleset]) / "data" / "primer.toml").read_text(encoding="utf-8")
    rows = list(primer_rows(tomllib.loads(raw)))
    assert len(rows) >= 20
    for row in rows:
        assert row.get("source"), row
        for part in str(row["source"]).split(", "):
            assert SOURCE.match(part), (part, row)
            if part[0] in "CHK":  # a ruling the project has
                assert f"**{part}." in RULINGS, part
            else:
                lo, _, hi = part.split(":")[1].partition("-")
                assert not hi or int(hi) > int(lo), part


def test_every_card_battlefield_and_terrain_feature_has_its_row() -> None:
    """The rulebook's ten Army cards and ten Battlefields (002:280-535) and Appendix A's terrain
    features (001:994-1034) each have their sentence, whichever the game deals or the battle uses."""
    clans = (resources.files("kassen.rulesets.clans") / "data" / "primer.toml").read_text(encoding="utf-8")
    data = tomllib.loads(clans)
    assert set(data["cards"]) == set(CARD_TYPES) and set(data["battlefields"]) == set(TILES)
    hv = (resources.files("kassen.rulesets.honourable_victory") / "data" / "primer.toml").read_text(encoding="utf-8")
    assert set(FEATURES) | {"escarpments", "clear", "effects"} == set(tomllib.loads(hv)["terrain"])


@pytest.mark.parametrize("ruleset, scenario, seats, ids", [
    ("clans", "2-players", 2, ["sequence", "decisions", "combat", "cards", "battlefields", "victory"]),
    ("clans", "4-players-teams", 4, ["sequence", "decisions", "combat", "cards", "battlefields", "victory"]),
    ("honourable-victory", "meeting-engagement", 2,
     ["sequence", "firing", "melee", "losses", "movement", "reactions", "terrain", "victory"]),
    ("honourable-victory", "village-ambush", 2,
     ["sequence", "firing", "melee", "losses", "movement", "reactions", "terrain", "quality", "victory"]),
    ("kensei", None, 2, ["sequence", "orders", "combat", "shooting", "damage", "armies", "victory"]),
])
def test_each_games_primer_has_its_sections(app_client: Any, ruleset: str, scenario: str | None, seats: int,
                                            ids: list[str]) -> None:
    client, _ = app_client
    p, _ = primer_of(client, ruleset, scenario, seats)
    assert [s["id"] for s in p["sections"]] == ids
    for s in p["sections"]:
        assert s["title"] and s["items"], s
        for t in s["items"]:  # every field filled, every sentence a sentence
            assert "{" not in t and "}" not in t and len(t) > 10, t


def test_clans_primer_numbers_are_the_card_tables(tmp_path: Path) -> None:
    """Each card's Strength and each Battlefield's VP are the table played: another table, other numbers."""
    default = (resources.files("kassen.rulesets.clans") / "data" / "default.toml").read_text(encoding="utf-8")
    other = default.replace("[cards.samurai]\nstrength = 4", "[cards.samurai]\nstrength = 7")
    assert other != default
    (tmp_path / "t.toml").write_text(other, encoding="utf-8")
    game: Any = load_game("clans")
    for path, samurai in ((None, 4), (tmp_path / "t.toml", 7)):
        state = game.new_state("2-players", seed=3, **({"card_table": str(path)} if path else {}))
        p = hook_primer("clans", state, 0)
        cards = items_of(p, "cards")
        assert any(t.startswith(f"Samurai (Secret Unit, 1 per clan), Strength {samurai} (default value):")
                   for t in cards), cards
        for slug, (name, _, copies) in CARD_TYPES.items():
            assert any(t.startswith(f"{name} (") and f"{copies} per clan), Strength {state.table.strength(slug)}"
                       in t for t in cards), slug
        fields = items_of(p, "battlefields")
        assert len(fields) == len(state.tiles)
        for tile in state.tiles:
            assert any(t.startswith(f"{TILES[tile][0]} ({state.table.vp(tile)} VP") for t in fields), tile
    seq = " ".join(items_of(p, "sequence"))
    assert f"over {ROUNDS} rounds" in seq
    assert f"lose {COWARDICE} Victory Points" in " ".join(items_of(p, "decisions"))
    assert any(f"at most {BRIDGE_LIMIT} cards" in t for t in items_of(hook_primer(
        "clans", game.new_state("3-players-experienced", seed=1), 0), "battlefields"))


def test_hv_primer_dice_and_combat_values_are_the_engines() -> None:
    """The fire modifiers of 001:320-323, the CV table (001:384-389, H10) and the test to engage
    (001:602-603) as the engine applies them; a changed weapon table changes the primer."""
    game: Any = load_game("honourable-victory")
    state = game.new_state("village-ambush", seed=1)
    p = hook_primer("honourable-victory", state, 0)
    firing = " ".join(items_of(p, "firing"))
    assert ("-2D6 if the firer is in a defensive formation, +1D6 if the target is mounted, +2D6 if the target is in "
            "a defensive formation, -1D6 if the target is in open order") in firing
    assert f"Each die of {FIRE_HIT['seasoned']} or less scores one hit" in firing
    melee = " ".join(items_of(p, "melee"))
    assert "2 for bows, firearms and improvised weapons; 3 for spears, hand-to-hand weapons" in melee
    assert f"{state.tables.weapons['long-spear'].cv} for long spears" in melee
    assert "-1 attacking a defensive formation without long spears and -2 one with them" in melee
    assert f"never below {CV_MIN} nor above {CV_MAX}" in melee
    move = " ".join(items_of(p, "movement"))
    assert f"on {ENGAGE_NEED['attack']} or less in attack formation, on {ENGAGE_NEED['open']} in open order" in move
    assert f"Mounted units up to {state.tables.classes['mounted'].actions} actions" in move
    # the battle's own terrain, zone by zone (Appendix A)
    terrain = items_of(p, "terrain")
    for zone, feats in state.observation(0)["terrain"].items():
        for f in feats:
            assert any(t.startswith(f"{f.capitalize()} (") and zone in t.split(":")[0] for t in terrain), (zone, f)
    quality = " ".join(items_of(p, "quality"))
    assert f"firing on {FIRE_HIT['veteran']} or less, pass the test to engage on {ENGAGE_NEED_QUALITY['veteran']}" \
        in quality
    # another weapon table: the primer follows it
    weapons = dict(state.tables.weapons)
    weapons["long-spear"] = weapons["long-spear"].model_copy(update={"cv": 5})
    state.tables = state.tables.model_copy(update={"weapons": weapons})
    melee = " ".join(items_of(hook_primer("honourable-victory", state, 0), "melee"))
    assert "; 5 for long spears" in melee and "4 for long spears" not in melee
    clear = hook_primer("honourable-victory", game.new_state("meeting-engagement", seed=1), 0)
    assert items_of(clear, "terrain") == ["Every zone is clear terrain: no effect on movement, firing or hand-to-hand "
                                          "combat."]


def test_kensei_primer_rolls_are_the_sheet_tables() -> None:
    """The order roll (003:80-85), the difficulty (003:132) and every modifier of the combat and
    shoot rolls as the engine's tables hold them, with "(inference)" where they say so."""
    game: Any = load_game("kensei")
    state = game.new_state(None, seed=2)
    tables = state.tables
    p = hook_primer("kensei", state, 0)
    seq = " ".join(items_of(p, "sequence"))
    assert "Order roll: 1D6 + the active troop's INI: 1-3 one order; 4-5 two orders; 6+ two orders and the troop's " \
        "Ki ability active this turn." in seq
    assert [b.min for b in tables.sheet.order_roll] == [1, 4, 6]
    assert f"Taisho {tables.sheet.commanders['taisho'].strategy:+d} to the Strategy Roll, +1 command card" in seq
    text = " ".join(t for s in p["sections"] for t in s["items"])
    assert f"hits on {tables.difficulty.value}+" in text
    for key, m in tables.modifiers.items():
        roll = key.split(".")[0]
        if roll.startswith(("combat-", "shoot-", "melee-")):
            said = m.name if roll.endswith("-dice") and m.value == 0 else \
                f"{m.value:+d}{'D6' if roll.endswith('-dice') else ''} {m.name}"
            assert said + (" (inference)" if m.inference else "") in text, key
    for o in tables.sheet.orders.values():
        assert o.name in " ".join(items_of(p, "orders")), o.name
    assert f"After {TURNS} turns" in " ".join(items_of(p, "victory"))
    # the armies in play: each clan's two special rules, the titles of their troops (003:230-262)
    armies = " ".join(items_of(p, "armies"))
    for roster in state.rosters:
        for ability in tables.sheet.clans[roster.clan].abilities:
            assert f"{ability.name}: {ability.text}" in armies
    assert "Undead (including Undead Samurai and Undead Ashigaru): These troops must suffer 3" in armies
    assert "machines" not in [s["id"] for s in p["sections"]]
    # an army with a war machine: the artillery rolls (003:277-337), dice from the engine's table
    state = game.new_state(None, seed=2, rosters="kuge-artillery,kuroi-te-horde")
    p = hook_primer("kensei", state, 0)
    assert [s["id"] for s in p["sections"]][-3:] == ["armies", "machines", "victory"]
    machines = " ".join(items_of(p, "machines"))
    for key, m in tables.modifiers.items():
        if key.startswith("artillery-dice."):
            assert (m.name if m.value == 0 else f"{m.value:+d}D6 {m.name}") in machines, key
    assert "+1D6 each miniature affected by the impact area; modifiers (to each die): +1 explosive" in machines


def _hiding(ruleset: str, scenario: str | None, seed: int, **options: Any) -> tuple[Any, Any]:
    """A state reached by seeded random legal actions where what seat 0 cannot see matters (what
    another seat sees differs once it is resampled), and that state with what seat 0 cannot see
    resampled (``determinize``)."""
    game: Any = load_game(ruleset)
    state = game.new_state(scenario, seed=seed, **options)
    pick = random.Random(seed)
    for _ in range(2000):
        other = state.determinize(0, Rng(seed))
        if any(state.observation(s) != other.observation(s) for s in range(1, len(state.seat_names()))):
            return state, other
        assert state.to_move() is not None, "the game ended before anything was hidden from seat 0"
        state = state.apply(pick.choice(state.legal_actions()))
    raise AssertionError("nothing hidden from seat 0 in 2000 actions")


@pytest.mark.parametrize("ruleset, scenario, seed, options", [
    ("clans", "2-players", 11, {}),
    ("clans", "4-players-teams", 11, {}),
    # random play concedes at once (H23) and seldom fires: this seed reaches North's hidden fire
    ("honourable-victory", "village-ambush", 13, {"concede": False}),
    ("kensei", None, 11, {}),
])
def test_the_primer_is_the_same_whatever_a_seat_cannot_see(ruleset: str, scenario: str | None, seed: int,
                                                          options: dict[str, Any]) -> None:
    """Two states differing only in what seat 0 cannot see (other hands and face-down cards,
    hidden fire declarations, the other player's secret mission roll) give seat 0 the same
    primer, and none of seat 0's secrets is in it."""
    state, other = _hiding(ruleset, scenario, seed, **options)
    mine = hook_primer(ruleset, state, 0)
    assert hook_primer(ruleset, other, 0) == mine
    text = str(mine)
    for secret in state.secrets(0):
        assert secret not in text
