"""The battle log says what each die did (issue 18, item 10): what hit, what missed and why,
why a flag was ignored, and why Honor & Fortune was or was not collected. Dice are forced."""

from __future__ import annotations

from tests.rulesets.cc_samurai.helpers import act, texts
from tests.rulesets.cc_samurai.test_combat import battle, setup


def score_line(s: object) -> str:
    return next(t for t in texts(s) if " against " in t and ("hit" in t))  # type: ignore[arg-type]


def test_close_combat_log_names_hits_and_misses_of_each_face():
    s = battle(setup(red="L3 SSp", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="t t c s")
    line = score_line(s)
    assert "2 hits (2 triangles)" in line and "missed: 1 circle, 1 square" in line


def test_close_combat_log_says_swords_ignored_for_superior_rank():
    # "a unit with a square symbol will ignore 1 sword rolled against it ... by a unit with a triangle"
    s = battle(setup(red="L3 ASp", blue="M4 SSp"), "L3")
    s = act(s, "attack L3 M4", dice="x x x")
    assert "missed: 1 sword ignored (superior rank or stature)" in score_line(s)


def test_honor_and_fortune_not_collected_from_a_lower_rank_says_why():
    # 000:493: SSpC "When engaged in close combat against a lower rank ... do not collect any Honor & Fortune"
    s = battle(setup(red="L3 SSpC", blue="M4 ASp"), "L3")
    s = act(s, "attack L3 M4", dice="h c c c")
    line = score_line(s)
    assert "1 Honor & Fortune rolled, none collected" in line and "against a lower rank" in line


def test_a_flag_ignored_says_why():
    # Bolster Morale (000:1039-1052): "A Leader with a unit will allow a unit to ignore 1 flag."
    s = battle(setup(red="L3 SSp", blue="M4 ASp+foot"), "L3")
    s = act(s, "attack L3 M4", dice="f c c c")
    if "ignore 1" in s.legal_actions():
        s = act(s, "ignore 1")
    assert any("ignores 1 flag (a Leader is attached)" in t for t in texts(s)), texts(s)
