"""Victory objectives, exits off the baseline, and the terrain that bolsters morale."""

from __future__ import annotations

from tests.rulesets.cc_samurai.helpers import act, position, unit

OBJECTIVE = """
[[objective]]
name = "the shrine"
hexes = ["L5"]
banners = 1
kind = "{kind}"
[red]
pieces = [{{ at = "L3", unit = "ASp" }}]
[blue]
pieces = [{{ at = "B11", unit = "ASp" }}]
"""


def _red_moves_onto_l5_and_ends_turn(s):
    # the only ordered unit has moved and nothing is in reach: the turn runs on to its end
    s = act(s, "play order-three-center", "order L3", "move L3 L5")
    return act(s, "take-honor")


def test_victory_temporary_objective_counts_while_held_and_is_lost_when_left():
    """R29: objectives are checked at the start of every turn; a temporary banner is lost when the hex is left."""
    s = position(OBJECTIVE.format(kind="temporary"))
    s = _red_moves_onto_l5_and_ends_turn(s)
    # start of Blue's turn: Red holds the shrine
    assert s.banners == [1, 0] and s.objectives == [1, 0]
    assert s.observation(1)["objectives"][0]["held_by"] == "red"
    s = act(s, "play order-three-right", "order B11", "end-move", "take-honor")  # B11 is on Blue's right
    # Red moves off again
    s = act(s, "play order-two-center", "order L5", "move L5 L3", "take-honor")
    assert s.banners == [0, 0] and s.objectives == [0, 0]


def test_victory_permanent_objective_is_kept_after_the_unit_leaves():
    s = position(OBJECTIVE.format(kind="permanent"))
    s = _red_moves_onto_l5_and_ends_turn(s)
    assert s.banners == [1, 0]
    s = act(s, "play order-three-right", "order B11", "end-move", "take-honor")  # B11 is on Blue's right
    s = act(s, "play order-two-center", "order L5", "move L5 L3", "take-honor")
    assert s.banners == [1, 0]


def test_victory_objective_gained_wins_the_battle_at_once():
    s = position(OBJECTIVE.format(kind="temporary"), victory=1)
    s = _red_moves_onto_l5_and_ends_turn(s)
    assert s.result().winner == 0 and s.is_terminal()


def test_unit_movement_leaving_by_an_exit_hex_when_the_scenario_allows():
    # "A unit may only move off the battlefield's baseline hexes when explicitly allowed by the scenario"
    s = position("""
        [red]
        pieces = [{ at = "L9", unit = "ASp" }]
        [blue]
        pieces = [{ at = "B11", unit = "ASp" }]
        exits = []
    """)
    s = act(s, "play order-three-center", "order L9")
    assert not any(a.endswith(" off") for a in s.legal_actions())
    s2 = position("""
        [red]
        pieces = [{ at = "L11", unit = "ASp" }]
        exits = ["L11"]
        [blue]
        pieces = [{ at = "B11", unit = "ASp" }]
    """)
    s2 = act(s2, "play order-three-center", "order L11")
    assert "move L11 off" in s2.legal_actions()
    s2 = act(s2, "move L11 off")
    assert unit(s2, "L11") is None and s2.banners == [1, 0] and s2.objectives == [1, 0]


def _flags_against(terrain: str, defender: str, attacker: str, at: str = "L5") -> list[str]:
    s = position(f"""
        [terrain]
        {terrain} = ["{at}"]
        [red]
        pieces = [{{ at = "L3", unit = "{attacker}" }}]
        [blue]
        pieces = [{{ at = "{at}", unit = "{defender}" }}]
    """)
    s = act(s, "play order-three-center", "order L3", "move L3 M4")
    s = act(s, "attack M4 L5", dice="f c c" if attacker != "SSpC" else "f c c c")
    if s.legal_actions() == ["inspire", "no-inspire"]:
        s = act(s, "no-inspire")
    return s.legal_actions()


def test_bolster_morale_bridge_lets_a_unit_ignore_one_flag():
    assert _flags_against("bridge", "ASp", "ASp") == ["ignore 0", "ignore 1"]


def test_bolster_morale_palisade_lets_infantry_ignore_one_flag_against_any_attacker():
    assert _flags_against("palisade", "ASp", "ASp") == ["ignore 0", "ignore 1"]


def test_bolster_morale_fence_lets_infantry_ignore_a_flag_only_against_cavalry():
    # "An infantry unit on a fence terrain hex may ignore 1 flag when attacked by an enemy cavalry unit."
    assert _flags_against("fence", "ASp", "SSpC") == ["ignore 0", "ignore 1"]
    # against infantry the flag cannot be ignored: Blue must retreat toward row 11
    assert _flags_against("fence", "ASp", "ASp") == ["retreat K6", "retreat M6"]


def test_scenario_rule_order_one_banner_nagashino():
    # facts.md, Nagashino: Red gains 1 permanent banner at the end of each turn in which it played
    # an "Order One Unit" card (not for its last banner).
    body = """
        [rules]
        order_one_banner = "red"
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "B11", unit = "ASp" }]
    """
    s = position(body, red_hand=["order-one-center", "order-one-left", "order-two-center", "order-two-left", "advance-center"],
                 victory=2, command_deck=["order-two-right", "order-two-left"])
    s = act(s, "play order-one-center", "order L3", "end-move")
    assert s.banners == [1, 0] and s.objectives == [1, 0]
    s = act(s, "keep order-two-left", "take-honor")
    s = act(s, "play order-three-right", "order B11", "end-move", "take-honor")  # Blue's turn
    # a second Order One card would give the winning banner: it does not
    s = act(s, "play order-one-left")  # L3 is not in Red's left: nothing to order, straight to the draw
    assert s.banners == [1, 0] and not s.is_terminal()
    assert any(e.kind == "no_banner" for e in s.events)
