"""The Determine Victory Phase (001:870-925) and the turn limit (ruling H27)."""

from __future__ import annotations

from tests.rulesets.honourable_victory.helpers import act, foot, horse, light, position

ZONES = [f"{c}{r}" for r in (1, 2, 3) for c in "ABCDE"]


def test_victory_general_retreat_more_units_off_the_table_than_on_it():
    s = position([foot("S1", "C1"), foot("S2", "C0"), foot("S3", "B1", status="routed"),
                  foot("N1", "C3"), foot("N2", "B3")], start="victory")
    res = s.result()
    assert res is not None and res.winner == 1 and "South is in general retreat" in res.reason
    assert res.reason.startswith("An Honourable Victory!")


def test_victory_both_in_general_retreat_is_a_humiliating_loss_for_both():
    s = position([foot("S1", "C1"), foot("S2", "C0"), foot("S3", "B1", status="routed"),
                  foot("N1", "C3"), foot("N2", "B4"), foot("N3", "D4")], start="victory")
    res = s.result()
    assert res is not None and res.winner is None and res.reason.startswith("A Humiliating Loss for both sides!")


def test_victory_equal_off_and_on_is_not_general_retreat():
    s = position([foot("S1", "C1"), foot("S2", "C0"), foot("N1", "C3")], start="victory", dice=[1, 1, 6, 6])
    assert s.result() is None and s.turn == 2


def test_victory_red_and_yellow_markers_removed_green_hits_remain():
    s = position([light("S1", "C3", fired=True, hits=1), foot("N1", "C3")], start="victory", dice=[1, 1, 6, 6])
    assert s.pend["step"] == "fire" and s.turn == 2
    assert not s.u("S1").fired and s.u("S1").hits == 1


def test_victory_one_third_value_removes_the_daimyo():
    """31 units: 1/3 value 11, breakpoint 16 (001:877)."""
    s = position([foot("S1", "C1"), foot("N1", "C3")], start="move", start_units=(31, 31))
    assert s.values(0) == (11, 16)
    s = position([foot("S1", "C1"), foot("S2", "B1"), foot("N1", "C3")], start="victory", start_units=(9, 9),
                 tally=(3, 2), dice=[1, 1, 6, 6])
    assert s.result() is None
    assert s.daimyo == [None, "E3"]


def test_victory_without_a_daimyo_every_foot_unit_tests_to_engage():
    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S")], daimyo=(None, "E3"))
    assert s.engage_needs_test(s.u("S1"), s.u("N1"))
    assert not any(a.startswith("daimyo") or a.endswith("withdraw") for a in s.legal_actions())


def test_victory_breakpoint_ends_the_game_and_the_zone_count_decides_an_honourable_victory():
    units = [foot(f"S{i + 1}", z) for i, z in enumerate(ZONES[:10])] + [foot("N1", "A3"), foot("N2", "A3")]
    s = position(units, start="victory", start_units=(12, 20), tally=(2, 10))
    res = s.result()
    assert res is not None and res.winner == 0
    assert res.reason.startswith("An Honourable Victory!") and "10 zones" in res.reason


def test_victory_breakpoint_minor_victory_on_more_zones():
    units = [foot("S1", "A1"), foot("S2", "B1"), foot("S3", "C1"), foot("N1", "A3"), foot("N2", "C3")]
    s = position(units, start="victory", start_units=(6, 4), tally=(3, 1))
    res = s.result()
    assert res is not None and res.winner == 0 and res.reason.startswith("A Minor Victory")
    assert "South's morale breaks" in res.reason  # H29: the broken side may still win on zones


def test_victory_zone_count_draw_and_contested_zones_and_daimyos_do_not_count():
    units = [foot("S1", "A1"), foot("S2", "C2"), foot("N1", "C2"), foot("N2", "A3")]
    s = position(units, start="victory", start_units=(4, 4), tally=(2, 0), daimyo=("E1", "E2"))
    assert s.uncontested(0) == 1 and s.uncontested(1) == 1
    res = s.result()
    assert res is not None and res.winner is None and res.reason.startswith("A Draw")


def test_victory_honourable_zone_count_scales_with_width():
    """H26"""
    s = position([foot("S1", "C1"), foot("N1", "C3")], width=7)
    assert s.honourable_zones() == 14
    assert position([foot("S1", "C1"), foot("N1", "C3")]).honourable_zones() == 10


def test_victory_turn_limit_ends_the_game_by_zone_count():
    """H27"""
    s = position([horse("S1", "C1"), foot("S2", "C2"), foot("N1", "C3")], start="victory", turn=12)
    res = s.result()
    assert res is not None and "turn limit" in res.reason and res.winner == 0


def test_victory_concession_is_an_honourable_victory_for_the_other_side():
    """H23"""
    s = position([foot("S1", "C1"), foot("N1", "C3")], mover=0)
    s = act(s, "concede")
    res = s.result()
    assert res is not None and res.winner == 1 and res.reason.startswith("An Honourable Victory!")
    assert s.legal_actions() == [] and s.to_move() is None


def test_victory_concession_can_be_forbidden_by_the_concede_option():
    """H23: option ``concede = false`` (the research envs' default) takes ``concede`` away."""
    import pytest

    from kassen.engine.errors import IllegalActionError
    from kassen.rulesets.honourable_victory.game import HonourableVictoryGame

    s = position([foot("S1", "C1"), foot("N1", "C3")], mover=0, concede=False)
    assert "end" in s.legal_actions() and "concede" not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply("concede")
    game = HonourableVictoryGame()
    for seed in range(3):
        st = game.new_state(None, seed, concede=False)
        while st.result() is None and st.turn <= 2:
            legal = st.legal_actions()
            assert "concede" not in legal
            st = st.apply(legal[-1])
        assert "concede" not in st.to_json()["options"] or st.to_json()["options"]["concede"] is False
    assert "concede" in _first_move_legal(game.new_state(None, 0))
    assert "concede" not in game.new_state(None, 0).to_json()["options"]  # saves as before the option


def _first_move_legal(st):
    while st.pend.get("step") != "move":
        st = st.apply(st.legal_actions()[-1])
    return st.legal_actions()
