"""The page's odds of an attack on a lone Leader (Combat Against a Leader Alone in a Hex)."""

from __future__ import annotations

import pytest

from kassen.rulesets.cc_samurai.odds import action_odds
from tests.rulesets.cc_samurai.helpers import GAME, ZVEZDA, position

BODY = """
    [red]
    pieces = [{ at = "F3", unit = "AB" }, { at = "K4", unit = "ASp" }]
    [blue]
    pieces = [{ at = "F5", leader = "foot" }, { at = "L5", leader = "mounted" }]
"""


@pytest.mark.parametrize(("game", "p_fire"), [(GAME, 1 - (5 / 6) ** 2), (ZVEZDA, 0.0)], ids=["gmt", "zvezda"])
def test_odds_against_a_lone_leader_any_sword_kills_him_but_a_zvezda_bow_at_range(game, p_fire):
    s = position(BODY, game=game)
    fire = action_odds(s, "fire F3 F5")
    assert fire is not None and fire["dice"] == 2
    assert abs(fire["p_eliminated"] - p_fire) < 1e-12 and fire["defender"]["type"] == "leader"
    # in close combat (an Ashigaru spear unit, 3 dice) a sword kills him in both editions
    close = action_odds(s, "attack K4 L5")
    assert close is not None and abs(close["p_eliminated"] - (1 - (5 / 6) ** 3)) < 1e-12
    assert abs(sum(close["hits"].values()) - 1) < 1e-12
