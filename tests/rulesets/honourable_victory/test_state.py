"""The protocol: immutability, JSON round-trips, observations, determinize, heuristic, views."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from kassen.cli.render_hv import render
from kassen.engine.errors import FormatError, IllegalActionError
from kassen.engine.record import GameRecord, replay
from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game
from tests.rulesets.honourable_victory.helpers import GAME, act, foot, horse, light, position


def test_registered_as_honourable_victory():
    g = load_game("honourable-victory")
    assert g.name == "An Honourable Victory!" and g.seats == ("South", "North")
    assert g.scenarios()[0] == "meeting-engagement" and "village-ambush" in g.scenarios()


def test_state_round_trips_through_json_mid_reaction_and_mid_combat():
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S"), horse("N2", "C2", facing="S")],
                 daimyo=("C2", "E3"))
    s = act(s, "S1 engage N1 front")
    assert s.pend["step"] == "react"
    for st in (s, position([foot("S1", "C2", stands=3), foot("N1", "C2", facing="E", stands=6)],
                           contacts=(("S1", "front", "N1", "left"),), start="h2h", dice=[6, 6, 6])):
        text = json.dumps(st.to_json(), sort_keys=True)
        back = GAME.state_from_json(json.loads(text))
        assert json.dumps(back.to_json(), sort_keys=True) == text
        assert back.legal_actions() == st.legal_actions()


def test_state_from_bad_json_is_a_format_error():
    with pytest.raises(FormatError, match="honourable-victory state"):
        GAME.state_from_json({"table": {}})


def test_apply_leaves_the_old_state_unchanged():
    s = position([foot("S1", "C1"), foot("N1", "A3")])
    before = json.dumps(s.to_json(), sort_keys=True)
    s.apply("S1 move")
    assert json.dumps(s.to_json(), sort_keys=True) == before
    with pytest.raises(IllegalActionError):
        s.apply("S1 fly")
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_saved_game_replays_identically():
    state = GAME.new_state("village-ambush", 7)
    rec = GameRecord(GAME.id, GAME.rules_version, "village-ambush", 7)
    rng = Rng(3)
    for _ in range(80):
        if state.is_terminal():
            break
        a = rng.choice([x for x in state.legal_actions() if x != "concede"])
        rec.actions.append(a)
        state = state.apply(a)
    assert replay(GAME, rec).to_json() == state.to_json()


def test_determinize_resamples_the_rng_and_the_hidden_fire_declarations():
    s = position([light("S1", "C2"), light("S2", "C2"), light("N1", "C2"), foot("N2", "C2")], start="fire")
    s = act(s, "fire S1 N1", "fire S2 N2")
    assert s.to_move() == 1
    seen = set()
    for i in range(30):
        d = s.determinize(1, Rng(i))
        assert d.fire_decl[1] == s.fire_decl[1] and d.rng != s.rng
        assert d.legal_actions() == s.legal_actions()
        seen.add(tuple(d.fire_decl[0]))
    assert len(seen) > 1  # North cannot know what South declared


def test_determinize_resamples_hidden_allocations():
    s = position([foot("S1", "C2", stands=3), foot("S2", "C2"), foot("N1", "C2", facing="S"),
                  foot("N2", "C2", facing="W", stands=2)],
                 contacts=(("N1", "front", "S1", "front"), ("N2", "front", "S1", "left"),
                           ("S2", "front", "N2", "right")), init=0, start="h2h")
    s = act(s, "alloc S1 N1=1 N2=2")
    allocs = {tuple(sorted(s.determinize(1, Rng(i)).alloc["S1"].items())) for i in range(20)}
    assert len(allocs) > 1


def test_heuristic_is_in_range_and_favours_the_stronger_side():
    s = position([foot("S1", "C1", stands=6), foot("S2", "C2", stands=6), foot("N1", "C3", stands=2, start=6)])
    assert 0 < s.heuristic(0) <= 1 and -1 <= s.heuristic(1) < 0
    done = act(position([foot("S1", "C1"), foot("N1", "C3")]), "concede")
    assert done.heuristic(1) == 1.0 and done.heuristic(0) == -1.0


def test_prompt_and_describe_action():
    s = position([light("S1", "C2", stands=4), foot("N1", "C2", form="defensive")], start="fire")
    assert s.prompt().startswith("South: declare fire")
    assert s.describe_action("fire S1 N1") == "S1 fires at N1 (6D6)"
    m = position([horse("S1", "C1"), foot("N1", "A3")])
    assert m.describe_action("S1 move") == "unit S1: move forward (N)"
    assert m.describe_action("daimyo B2") == "move the Daimyo to B2 (ends the phase)"


def test_observation_is_json_and_shows_the_table():
    s = GAME.new_state("village-ambush", 2)
    obs = s.observation(0)
    json.dumps(obs)
    assert obs["zones"][0] == "A1" and obs["terrain"]["C2"] == ["village"]
    assert {u["id"] for u in obs["board"]["units"]} == set(s.units)


def test_render_draws_zones_reserves_units_and_markers():
    s = position([foot("S1", "C2", hits=2), light("S2", "C0"), horse("N1", "C2", facing="S", form="open")],
                 contacts=(("N1", "front", "S1", "front"),), terrain={"B2": ("hill",)})
    con = Console(file=io.StringIO(), width=160)
    con.print(render(s.observation(0), 0))
    out = con.file.getvalue()
    for text in ("A3", "C0 reserve", "B2 hill", "S1 Ft/h2h", "▮▮▮▮", "2h", "⚔ F:N1", "N1 Mtd", "↓open", "★S"):
        assert text in out, text


def test_heuristic_counts_a_coming_general_retreat_against_the_side():
    s = position([foot("S1", "C1"), foot("S2", "C0"), foot("S3", "B0"), foot("N1", "C3"), foot("N2", "C4")])
    assert s.heuristic(0) < -0.4 and s.heuristic(1) > 0.4
