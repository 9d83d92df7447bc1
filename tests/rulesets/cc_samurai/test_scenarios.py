"""Every built-in scenario: it loads, sets up as its file says, plays to the end under the
random-playout contract, and the command line lists and draws it."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.rulesets.cc_samurai.scenario import builtin_scenarios
from kassen.testing.contract import run_contract
from tests.rulesets.cc_samurai.helpers import GAME, ZVEZDA, act, position
from tests.rulesets.cc_samurai.test_contract import aggressive_policy, invariants

SCENARIOS = GAME.scenarios()
#: (game, scenario id) for every battle of both editions
BATTLES = [(g, sid) for g in (GAME, ZVEZDA) for sid in g.scenarios()]
BATTLE_IDS = [f"{g.id}:{sid}" for g, sid in BATTLES]
SIDES = ("red", "blue")
runner = CliRunner()


def test_the_historical_battles_are_shipped():
    assert {
        "first-samurai-skirmish",
        "kawanakajima-1561-phase-1",
        "kawanakajima-1561-takeda-pincer",
        "nagashino-1575",
        "okehazama-1560",
        "mikatagahara-1572",
        "sekigahara-1600",
        "azukizaka-1542",
    } <= set(SCENARIOS)
    assert {"arita-castle-1517", "koriyama-castle-1540"} & set(SCENARIOS)
    assert set(SCENARIOS) == set(builtin_scenarios())
    assert len(SCENARIOS) >= 9


def test_the_zvezda_first_samurai_skirmish_is_shipped_for_the_zvezda_edition():
    assert ZVEZDA.scenarios() == ["first-samurai-skirmish"]
    scen = ZVEZDA.load_scenario(None)
    assert scen.scenario.edition == "zvezda"
    codes = {p.unit for side in (scen.red, scen.blue) for p in side.pieces if p.unit}
    assert codes == {"ASp", "AB", "AA", "SN", "SC"}  # facts.md: the earlier edition's roster


@pytest.mark.parametrize(("game", "scenario_id"), BATTLES, ids=BATTLE_IDS)
def test_scenario_loads_validates_and_stays_within_the_design_ranges(game, scenario_id):
    scen = game.load_scenario(scenario_id)
    meta = scen.scenario
    assert meta.id == scenario_id
    assert meta.name and meta.note
    if meta.historical:
        assert meta.year is not None
        assert "Red" not in (meta.red_name, meta.blue_name)
    assert 5 <= meta.victory_banners <= 8
    for side in SIDES:
        army = scen.red if side == "red" else scen.blue
        assert 4 <= army.command <= 6, side
        assert 2 <= army.dragon <= 3, side
        assert 4 <= army.honor <= 10, side
        assert any(p.unit for p in army.pieces), side
    assert scen.red.honor + scen.blue.honor <= 30


@pytest.mark.parametrize(("game", "scenario_id"), BATTLES, ids=BATTLE_IDS)
def test_rivers_are_connected_chains_from_edge_to_edge(game, scenario_id):
    scen = game.load_scenario(scenario_id)
    b = game.new_state(scenario_id, 0).b
    water = {b.parse(h) for slug in ("river", "ford", "bridge") for h in scen.terrain.get(slug, [])}
    while water:
        stack = [water.pop()]
        chain = set(stack)
        while stack:
            for n in b.neighbours(stack.pop()):
                if n in water:
                    water.discard(n)
                    chain.add(n)
                    stack.append(n)
        edges = {e for x, r in map(b.xr, chain) for e, on in (
            ("bottom", r == 0), ("top", r == b.rows - 1), ("left", x <= 1), ("right", x >= 23)) if on}
        assert len(edges) >= 2, sorted(b.name(h) for h in chain)


@pytest.mark.parametrize(("game", "scenario_id"), BATTLES, ids=BATTLE_IDS)
def test_setup_matches_the_file(game, scenario_id):
    scen = game.load_scenario(scenario_id)
    state = game.new_state(scenario_id, 5)
    assert state.victory == scen.scenario.victory_banners
    assert state.active == SIDES.index(scen.scenario.first)
    assert state.bottom == SIDES.index(scen.scenario.bottom)
    assert state.banners == [0, 0]
    for i, side in enumerate(SIDES):
        army = scen.red if side == "red" else scen.blue
        units = {state.name(h): u.type for h, u in state.units.items() if u.side == i}
        assert units == {p.at: p.unit for p in army.pieces if p.unit}, side
        leaders = Counter(ld.kind for ld in state.leaders.values() if ld.side == i)
        assert leaders == Counter(p.leader for p in army.pieces if p.leader), side
        assert len(state.hands[i]) == army.command == state.command[i], side
        assert len(state.dragons[i]) == army.dragon, side
        assert state.honor[i] == army.honor, side
        if army.tent:
            assert state.name(state.tents[i]) == army.tent
        else:
            assert i not in state.tents
    for slug, hexes in scen.terrain.items():
        assert all(state.terrain[state.b.parse(h)] == slug for h in hexes), slug


@pytest.mark.parametrize(("game", "scenario_id"), BATTLES, ids=BATTLE_IDS)
def test_scenario_survives_two_hundred_seeded_random_games(game, scenario_id):
    """Issue 5: every scenario plays through the random-playout contract, 200 seeded games, with the
    invariants after every action and the full checks (JSON round trip, observations) every 40."""
    report = run_contract(
        game, scenario_id, games=200, seed=BATTLES.index((game, scenario_id)) + 100,
        invariants=(invariants,), full_checks_every=40, policy=aggressive_policy,
    )
    assert report.games == report.finished == 200
    assert set(report.winners) <= {0, 1}


def test_first_strike_a_second_one_in_one_turn_leaves_the_previous_state_alone():
    """Found by the azukizaka-1542 contract games: apply() must never change the state it is called on."""
    s = position(
        """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }, { at = "N3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }, { at = "O4", unit = "ASp" }]
        """,
        blue_hand=["first-strike", "first-strike", "order-two-left", "order-two-center", "advance-center"],
    )
    s = act(s, "play order-three-center", "order L3", "order N3", "end-move", "attack L3 M4")
    s = act(s, "first-strike", dice="c c c c c c")
    s = s.apply("attack N3 O4")
    before = json.dumps(s.to_json(), sort_keys=True)
    s.apply("first-strike")
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_cli_lists_every_scenario_with_name_year_sides_and_banners():
    result = runner.invoke(app, ["scenarios", "--json"])
    assert result.exit_code == 0, result.output
    games = {"cc-samurai": GAME, "cc-samurai-zvezda": ZVEZDA}
    rows = {(r["game"], r["id"]): r for r in json.loads(result.output) if r["game"] in games}
    assert set(rows) == {(g.id, sid) for g, sid in BATTLES}
    for (gid, sid), row in rows.items():
        meta = games[gid].load_scenario(sid).scenario
        assert row["name"] == meta.name
        assert row["year"] == meta.year
        assert row["sides"] == [meta.red_name, meta.blue_name]
        assert row["first"] == meta.first
        assert row["banners"] == meta.victory_banners


def test_cli_lists_one_games_scenarios():
    result = runner.invoke(app, ["scenarios", "cc-samurai-zvezda", "--json"])
    assert result.exit_code == 0, result.output
    assert [(r["game"], r["id"]) for r in json.loads(result.output)] == [("cc-samurai-zvezda", "first-samurai-skirmish")]


@pytest.mark.parametrize(("game", "scenario_id"), BATTLES, ids=BATTLE_IDS)
def test_cli_draws_every_scenario(game, scenario_id):
    result = runner.invoke(app, ["scenarios", "show", scenario_id, "--game", game.id])
    assert result.exit_code == 0, result.output
    assert game.load_scenario(scenario_id).scenario.name in result.output


def test_new_state_reads_a_builtin_scenario_once_and_no_game_changes_it():
    """new_state sets every game up from one validated model per scenario (read only);
    load_scenario still hands out a copy of its own."""
    from kassen.ai.players import RandomPlayer
    from kassen.rulesets.cc_samurai.scenario import load_scenario_file, shared_builtin

    game = GAME
    for sid in ("first-samurai-skirmish", "sekigahara-1600"):
        shared = shared_builtin(sid)
        assert shared_builtin(sid) is shared
        copy = game.load_scenario(sid)
        assert copy is not shared and copy.model_dump() == shared.model_dump()
        copy.red.pieces.clear()  # a caller's copy may be changed: the shared model is not
        for seed in (0, 1):
            state = game.new_state(sid, seed)
            players = [RandomPlayer(seed * 7919 + i) for i in range(2)]
            for _ in range(300):
                seat = state.to_move()
                if seat is None:
                    break
                state = state.apply(players[seat].choose(state, seat))
        fresh = load_scenario_file(builtin_scenarios()[sid])
        assert shared.model_dump() == fresh.model_dump()
        assert game.new_state(sid, 5).to_json() == game.setup(fresh, 5).to_json()
