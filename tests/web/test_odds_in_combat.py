"""Odds on the decisions inside a combat (issue 30, item 2): battle back and First Strike give
the defender's close combat against the attacker; inspiration the attack with one more die;
passing the attack as its dice stand now."""

from __future__ import annotations

from kassen.rulesets.cc_samurai.odds import action_odds
from tests.rulesets.cc_samurai.helpers import act, position, skip_pass

BODY = """
    [red]
    pieces = [{ at = "F3", unit = "ASp", leader = "foot" }]
    [blue]
    pieces = [{ at = "G4", unit = "SSp" }]
"""


def test_battle_back_odds_are_the_defenders_close_combat_against_the_attacker() -> None:
    s = position(BODY)
    s = act(s, "play order-three-left", "order F3", "done", "end-move")
    attack = action_odds(s, "attack F3 G4")
    assert attack is not None
    s = skip_pass(s.apply("attack F3 G4"))  # First Strike's question first (R32)
    acts = s.legal_actions()
    assert "inspire" in acts and "no-inspire" in acts  # the foot Leader with the unit may inspire
    with_leader, without = action_odds(s, "inspire"), action_odds(s, "no-inspire")
    assert with_leader is not None and without is not None
    assert with_leader["dice"] == without["dice"] + 1 == attack["dice"] + 1
    assert with_leader["p_hit"] > without["p_hit"] and abs(without["p_hit"] - attack["p_hit"]) < 1e-12
    # circles score nothing on a Samurai unit: no hit, no flag, and the Samurai battle back
    s = act(s, "no-inspire", dice="c c c c c")
    assert "battle-back" in s.legal_actions(), s.legal_actions()
    back = action_odds(s, "battle-back")
    assert back is not None and back["attacker"]["hex"] == "G4" and back["defender"]["hex"] == "F3"
    assert back["kind"] == "close" and back["dice"] >= 1
    assert abs(sum(back["hits"].values()) - 1) < 1e-12 and abs(sum(back["flags"].values()) - 1) < 1e-12


def test_no_odds_outside_a_combat() -> None:
    s = position(BODY)
    assert action_odds(s, "pass") is None and action_odds(s, "inspire") is None
