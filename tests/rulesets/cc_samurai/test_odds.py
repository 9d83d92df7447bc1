"""kassen odds: exact probabilities checked against hand computations."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.engine.errors import KassenError
from kassen.rulesets.cc_samurai.odds import attack_odds

EPS = 1e-12


def close(a: float, b: F) -> bool:
    return abs(a - float(b)) < EPS


def test_close_combat_matching_symbol_and_sword_each_hit_one_third():
    r = attack_odds("ASp", "ASp")  # 3 dice, triangle or sword hits
    assert r["dice"] == 3
    assert close(r["hits"]["0"], F(8, 27)) and close(r["hits"]["1"], F(12, 27))
    assert close(r["hits"]["2"], F(6, 27)) and close(r["hits"]["3"], F(1, 27))


def test_close_combat_superior_rank_square_ignores_one_sword_from_triangle():
    r = attack_odds("ASp", "SSp")
    # no hit: no square, and at most one sword among 3 dice
    assert close(r["hits"]["0"], F(64 + 48, 216))


def test_close_combat_superior_rank_square_ignores_two_swords_from_circle():
    r = attack_odds("LI", "SSp")  # 2 dice, only squares hit
    assert close(r["hits"]["0"], F(25, 36)) and close(r["hits"]["1"], F(10, 36)) and close(r["hits"]["2"], F(1, 36))


def test_close_combat_stature_and_rank_are_cumulative():
    from math import comb

    r = attack_odds("ASp", "SSpC")  # 1 sword ignored for stature + 1 for rank: hits = squares + max(0, swords - 2)
    # no hit: no square and at most 2 swords among 3 dice (4 faces are neither)
    p0 = sum(comb(3, k) * F(1, 6) ** k * F(4, 6) ** (3 - k) for k in range(3))
    assert close(r["hits"]["0"], p0)


def test_close_combat_no_sword_ignored_in_ranged_combat():
    r = attack_odds("AA", "SSp", ranged=True, range_=2)  # arquebus: squares and swords hit, rank does not apply
    assert r["dice"] == 2 and close(r["hits"]["0"], F(16, 36))


def test_terrain_forest_caps_base_dice_and_inspiration_adds_on_top():
    r = attack_odds("SSp", "ASp", defender_on="forest")
    assert r["dice"] == 2 and close(r["hits"]["2"], F(1, 9))
    r2 = attack_odds("SSp", "ASp", defender_on="forest", inspired=True)
    assert r2["dice"] == 3
    r3 = attack_odds("SSp", "ASp", defender_on="forest", bonus=1)
    assert r3["dice"] == 3


def test_terrain_hill_from_below_two_dice_from_the_hill_three():
    assert attack_odds("SSpC", "ASp", defender_on="hill")["dice"] == 2
    assert attack_odds("SSpC", "ASp", attacker_on="hill", defender_on="hill")["dice"] == 3


def test_ranged_arquebus_at_range_four_rolls_one_die_hitting_on_circle_or_sword():
    r = attack_odds("AA", "AB", ranged=True, range_=4)
    assert r["dice"] == 1 and close(r["hits"]["1"], F(1, 3))


def test_ranged_bow_swords_do_not_hit_and_moving_reduces_to_one_die():
    r = attack_odds("AB", "ASp", ranged=True, range_=2)
    assert r["dice"] == 2 and close(r["hits"]["0"], F(25, 36))
    assert attack_odds("AB", "ASp", ranged=True, range_=3, moved=True)["dice"] == 1
    assert attack_odds("AB", "ASp", ranged=True, range_=2, defender_on="forest")["dice"] == 1


def test_honor_cavalry_against_lower_rank_and_attacks_on_levies_collect_nothing():
    assert attack_odds("SSpC", "ASp")["honor"] == {"0": 1.0}
    assert attack_odds("SSp", "LI")["honor"] == {"0": 1.0}
    r = attack_odds("ASp", "ASp")
    assert close(r["honor"]["1"], F(75, 216))


def test_honor_inspired_unit_collects_one_token_fewer():
    r = attack_odds("ASp", "ASp", inspired=True)  # 4 dice
    # one Honor symbol rolled -> none collected; two -> one
    assert close(r["honor"]["0"], F(5, 6) ** 4 + 4 * F(1, 6) * F(5, 6) ** 3)


def test_ranged_bows_collect_honor_arquebus_do_not():
    assert close(attack_odds("SB", "ASp", ranged=True)["honor"]["1"], 3 * F(1, 6) * F(5, 6) ** 2)
    assert attack_odds("AA", "ASp", ranged=True)["honor"] == {"0": 1.0}


def test_bodyguards_reroll_swords_once():
    r = attack_odds("BG", "ASp")
    # no hit only if the first 4 dice show neither triangle nor sword (no sword: nothing to reroll)
    assert close(r["hits"]["0"], F(4, 6) ** 4)
    assert r["dice"] == 4


def test_bodyguards_are_hit_only_by_swords():
    r = attack_odds("SSp", "BG")
    assert close(r["hits"]["0"], F(5, 6) ** 4)


def test_p_eliminated_counts_hits_against_the_remaining_blocks():
    r = attack_odds("SSp", "ASp", defender_blocks=1)
    assert close(r["p_eliminated"], 1 - F(4, 6) ** 4)


def test_probabilities_sum_to_one():
    r = attack_odds("SBC", "AB", ranged=True, range_=3, attacker_on="field")
    for key in ("hits", "flags", "honor"):
        assert abs(sum(r[key].values()) - 1) < EPS


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"attacker": "AB", "defender": "ASp", "ranged": True, "range_": 5}, "cannot fire at range 5"),
        ({"attacker": "AA", "defender": "ASp", "ranged": True, "moved": True}, "may not battle after moving"),
        ({"attacker": "SB", "defender": "BG", "ranged": True}, "bodyguards cannot be targeted"),
        ({"attacker": "SSpC", "defender": "ASp", "defender_on": "castle"}, "may not attack"),
        ({"attacker": "SSp", "defender": "ASp", "ranged": True}, "no ranged weapons"),
        ({"attacker": "XX", "defender": "ASp"}, "unknown attacker"),
    ],
)
def test_illegal_attacks_are_refused_with_a_reason(kwargs, reason):
    a, d = kwargs.pop("attacker"), kwargs.pop("defender")
    with pytest.raises(KassenError, match=reason):
        attack_odds(a, d, **kwargs)


def test_odds_command_json_and_errors():
    runner = CliRunner()
    r = runner.invoke(app, ["odds", "--attacker", "ASp", "--defender", "ASp", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["dice"] == 3 and set(out) >= {"hits", "flags", "honor", "p_eliminated"}
    bad = runner.invoke(app, ["odds", "--attacker", "AB", "--defender", "ASp", "--ranged", "--range", "5"])
    assert bad.exit_code == 2 and "range 5" in bad.output


def test_odds_zvezda_mounted_samurai_collects_honor_against_ashigaru_ruling_r37():
    """R37: the Zvezda mounted Samurai collects a token per Honor & Fortune symbol (4 dice:
    P(none) = (5/6)^4); GMT's Samurai cavalry collects none against a triangle unit."""
    z = attack_odds("SC", "ASp", edition="zvezda")
    assert z["dice"] == 4
    assert abs(z["honor"]["0"] - (5 / 6) ** 4) < 1e-12
    assert abs(z["honor"]["4"] - (1 / 6) ** 4) < 1e-12
    assert attack_odds("SSpC", "ASp")["honor"] == {"0": 1.0}
    with pytest.raises(KassenError, match="unknown attacker 'SSpC'"):
        attack_odds("SSpC", "ASp", edition="zvezda")
