"""Rule tests: the last twelve Dragon cards (shared/rules/dragon-cards.md, docs/rulings.md R35).

Ambush, Hollow Victory, Legendary Combat, Spirit of the Wind, Brave Messenger, Tactical
Decision, Insult, Ninja Thief, Personal Challenge, Turncoat, Wild Winds and Wise Advisor:
at least two tests per card, named after the card and what its text makes it do.

Red is at the bottom and plays first; Blue sits at the top. Every die is forced. Where a
card's text could be read two ways the test says which reading it checks; where a position
could make two readings give different dice (Honor & Fortune compared before or after the
card's cost is paid), the reserves are chosen so that both readings agree.
"""

from __future__ import annotations

import json
import textwrap
import tomllib
from typing import Any

import pytest

from kassen.engine.dice import parse_faces
from kassen.engine.events import Event
from kassen.rulesets.cc_samurai.scenario import parse_scenario
from kassen.rulesets.cc_samurai.state import POOL_TOTAL, CCState
from tests.rulesets.cc_samurai.helpers import DEFAULT_HAND, GAME, act, leader, position, unit
from tests.rulesets.cc_samurai.test_dragon_cards import (
    DUEL,
    dragon_actions,
    dragon_slugs,
    finish_turn,
    hand_slugs,
    hf_total,
    of_kind,
    rolls,
    run,
)

RED, BLUE = 0, 1


# ---------------------------------------------------------------- helpers
def position_with_banners(body: str, *, red_banners: int = 0, blue_banners: int = 0, red_honor: int = 5,
                          blue_honor: int = 5, red_dragons: list[str] | None = None,
                          blue_dragons: list[str] | None = None) -> CCState:
    """``helpers.position`` with Victory Banners already won (a position file's ``banners``)."""
    data: dict[str, Any] = tomllib.loads(textwrap.dedent(body))
    for side, honor in (("red", red_honor), ("blue", blue_honor)):
        army = data.setdefault(side, {})
        army.setdefault("pieces", [])
        army.setdefault("command", 5)
        army.setdefault("dragon", 0)
        army.setdefault("honor", honor)
    data["scenario"] = {"id": "test", "name": "test position", "first": "red", "bottom": "red", "victory_banners": 9}
    data["position"] = {
        "red": {"hand": list(DEFAULT_HAND), "dragons": red_dragons or [], "banners": red_banners},
        "blue": {"hand": list(DEFAULT_HAND), "dragons": blue_dragons or [], "banners": blue_banners},
    }
    return GAME.setup(parse_scenario(data, "test position"), 0)


def orderable(s: CCState) -> set[str]:
    """The hexes the active player may still order."""
    return {a.split()[1] for a in s.legal_actions() if a.startswith("order ")}


def card_slug(s: CCState) -> str:
    """The Command card the active player is playing this turn."""
    return s.t.command_ids[s.ti["card"]]


def walk(s: CCState, action: str, seen: list[list[str]], dice: str | None = None) -> tuple[CCState, list[Event]]:
    """Apply ``action``, then answer ``pass`` to every question that offers it, noting what each
    question offered; returns the state and every event.

    Works whether a window is asked with nothing to play in it (a ``pass``-only question) or
    skipped: a test that a card is *not offered* looks at every question on the way."""
    if dice is not None:
        s = s.with_forced_dice(parse_faces(dice))
    s = s.apply(action)
    evs = list(s.events)
    while "pass" in s.legal_actions():
        seen.append(s.legal_actions())
        s = s.apply("pass")
        evs.extend(s.events)
    return s, evs


def offered(seen: list[list[str]], slug: str) -> bool:
    return any(a.split()[:2] == ["dragon", slug] for la in seen for a in la)


def stolen(s: CCState) -> str:
    """The id of the Dragon card Ninja Thief took this turn (still unplayed)."""
    return s.ti["thief"][1]


# =================================================================== Ambush
def test_dragon_ambush_defender_battles_first_with_one_extra_die_and_does_not_battle_back():
    # "Your unit battles first, with 1 extra die. If the attacker is then neither eliminated nor
    # forced out of its hex, it battles as ordered, and your unit does not battle back."
    s = position(DUEL.format(red="ASp", blue="ASp"), blue_dragons=["ambush"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = s.apply("attack L3 M4")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon ambush", "pass"]
    s, evs = run(s, "dragon ambush", dice="c c c c " + "c c c")
    # Blue's Ashigaru strike first with 3 + 1 dice, then Red's attack rolls its 3 dice
    assert rolls(evs) == [3 + 1, 3]
    combats = of_kind(evs, "combat")
    assert [c.data["role"] for c in combats] == ["first"] and combats[0].data["att"] == "M4"
    assert of_kind(evs, "no_battle_back")
    assert not any(a.startswith("battle-back") for a in s.legal_actions())
    assert s.honor[BLUE] == 5 - 2
    assert unit(s, "L3").blocks == 4 and unit(s, "M4").blocks == 4


def test_dragon_ambush_attacker_eliminated_by_the_ambush_does_not_battle():
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp", blocks = 1 }, { at = "D3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """
    s = position(body, blue_dragons=["ambush"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s, evs = run(s.apply("attack L3 M4"), "dragon ambush", dice="t c c c " + "x x x")
    assert rolls(evs) == [4]  # Red's attack never rolls
    assert unit(s, "L3") is None and s.banners[BLUE] == 1
    # the ambushing unit does not gain ground (it is not an attack of the active player)
    assert unit(s, "M4") is not None and unit(s, "M4").side == BLUE
    assert unit(s, "M4").blocks == 4


def test_dragon_ambush_attacker_forced_out_of_its_hex_does_not_battle():
    s = position(DUEL.format(red="ASp", blue="ASp"), blue_dragons=["ambush"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s, evs = run(s.apply("attack L3 M4"), "dragon ambush", dice="f c c c " + "x x x")
    assert rolls(evs) == [4]
    assert s.to_move() == RED and s.legal_actions() == ["retreat K2", "retreat M2"]
    s, evs = run(s, "retreat K2")
    assert rolls(evs) == []  # after the retreat the attack is over: no roll, no battle back
    assert unit(s, "K2") is not None and unit(s, "M4").blocks == 4


def test_dragon_ambush_is_not_offered_against_a_levy_swarm():
    # R35: "Ambush cannot answer a levy swarm (it is the defending unit's strike, like First Strike)"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "LI" }, { at = "N3", unit = "LI" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """
    s = position(body, blue_dragons=["ambush"])
    s = act(s, "play order-three-center", "order L3", "order N3", "end-move")
    assert "attack L3+N3 M4" in s.legal_actions()
    seen: list[list[str]] = []
    s, evs = walk(s, "attack L3+N3 M4", seen, dice="c c c c")
    assert not offered(seen, "ambush")
    assert rolls(evs) == [2 + 2]  # the swarm rolled, nobody struck first
    assert dragon_slugs(s, BLUE) == ["ambush"] and not s.ti["dragon_played"][BLUE]


def test_dragon_ambush_cannot_answer_first_strike():
    # "Cannot be combined with, or answer, First Strike": Red holds Ambush; Blue's First Strike
    # is a close combat against Red's unit, yet Red is never offered Ambush against it
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["ambush"],
                 blue_hand=["first-strike", "order-three-left", "order-three-right", "order-two-center",
                            "advance-center"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = s.apply("attack L3 M4")
    assert s.to_move() == BLUE and s.legal_actions() == ["first-strike", "pass"]
    seen: list[list[str]] = []
    s, evs = walk(s, "first-strike", seen, dice="c c c " + "c c c")
    assert [c.data["role"] for c in of_kind(evs, "combat")] == ["first"]
    assert not offered(seen, "ambush")
    assert not s.ti["dragon_played"][RED] and dragon_slugs(s, RED) == ["ambush"]


# =========================================================== Hollow Victory
def test_dragon_hollow_victory_enemy_may_not_gain_ground_or_bonus_and_loses_two_tokens():
    # "after an enemy's successful close combat, that enemy unit: it may not gain ground or make a
    # bonus close combat; the enemy also loses 2 Honor & Fortune"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp", leader = "foot" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }, { at = "O4", unit = "ASp" }]
    """

    def won(dragons: list[str]) -> CCState:
        s = position(body, blue_dragons=dragons)
        s = act(s, "play order-three-center", "order L3", "done", "end-move", "attack L3 M4")
        return act(s, "no-inspire", dice="t c c")

    plain = won([])
    assert plain.to_move() == RED and plain.legal_actions() == ["advance", "stay"]
    assert act(plain, "advance").legal_actions() == ["bonus O4", "no-bonus"]  # a unit with a Leader

    s = won(["hollow-victory"])
    assert unit(s, "M4") is None  # R35: asked when the close combat has emptied his hex
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon hollow-victory", "pass"]
    s, evs = run(s, "dragon hollow-victory")
    assert not of_kind(evs, "gain_ground") and not any(e.kind == "combat" for e in evs)
    assert unit(s, "L3") is not None and leader(s, "L3") is not None and unit(s, "M4") is None
    assert s.honor == [5 - 2, 5 - 1]
    assert hf_total(s) == POOL_TOTAL


def test_dragon_hollow_victory_after_a_retreat_denies_the_vacated_hex():
    # a combat that forces the defender out is successful too
    body = """
        [red]
        pieces = [{ at = "L3", unit = "SSpC" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }, { at = "F9", unit = "ASp" }]
    """
    s = position(body, blue_dragons=["hollow-victory"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(s, "attack L3 M4", dice="f c c c")
    assert s.to_move() == BLUE and s.legal_actions() == ["retreat L5", "retreat N5"]
    s = act(s, "retreat N5")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon hollow-victory", "pass"]
    s, evs = run(s, "dragon hollow-victory")
    assert unit(s, "M4") is None and unit(s, "L3").side == RED
    assert not of_kind(evs, "gain_ground")
    assert s.honor[RED] == 5 - 2


def test_dragon_hollow_victory_shortfall_is_a_lack_of_honor_from_dragon_card_play():
    # R35: "its 2 tokens, if he cannot pay them, are a Lack of Honor from Dragon card play":
    # 4 dice + 1 per token not paid; each unit symbol costs a block of a unit bearing it
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }, { at = "P3", unit = "SSp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }, { at = "F9", unit = "ASp" }]
    """
    s = position(body, blue_dragons=["hollow-victory"], red_honor=1)
    s = act(s, "play order-three-center", "order L3", "done", "end-move")
    s = act(s, "attack L3 M4", dice="t c c")
    assert s.to_move() == BLUE and "dragon hollow-victory" in s.legal_actions()
    s, evs = run(s, "dragon hollow-victory", dice="t s c f h")
    assert s.honor[RED] == 0
    loh = of_kind(evs, "lack_of_honor")
    assert len(loh) == 1 and len(loh[0].data["faces"]) == 4 + 1
    assert unit(s, "L3").blocks == 3 and unit(s, "P3").blocks == 3
    assert unit(s, "M4") is None and unit(s, "L3") is not None  # and no gain ground
    assert hf_total(s) == POOL_TOTAL


# ========================================================= Legendary Combat
def test_dragon_legendary_combat_infantry_without_leader_gains_ground_and_makes_a_bonus_combat():
    # "After a successful close combat it may gain ground and make a bonus close combat even
    # without a Leader" -- an Ashigaru unit alone never gets a bonus close combat otherwise
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }, { at = "O4", unit = "ASp", blocks = 1 },
                  { at = "P5", unit = "ASp" }, { at = "F9", unit = "ASp" }]
    """

    def rolled(dragon: str) -> CCState:
        s = position(body, red_dragons=["legendary-combat"])
        s = act(s, "play order-three-center", "order L3", "end-move")
        s = act(s, "attack L3 M4", dice="t c c")
        assert s.to_move() == RED and s.legal_actions() == ["dragon legendary-combat", "pass"]
        return act(s, dragon)

    plain = act(rolled("pass"), "advance")
    assert unit(plain, "M4").side == RED and not any(a.startswith("bonus") for a in plain.legal_actions())

    s = rolled("dragon legendary-combat")
    assert s.honor[RED] == 5 - 1
    s = act(s, "advance")
    assert unit(s, "M4") is not None and unit(s, "M4").side == RED
    assert s.legal_actions() == ["bonus O4", "no-bonus"]
    s, evs = run(s, "bonus O4", dice="t c c")
    assert rolls(evs) == [3] and unit(s, "O4") is None
    # it did not qualify on its own: one bonus close combat, no second (R35)
    s = act(s, "advance")
    assert unit(s, "O4").side == RED and not any(a.startswith("bonus") for a in s.legal_actions())


def test_dragon_legendary_combat_qualified_unit_gets_a_second_bonus_combat_but_never_a_third():
    # "if it already qualified, it may make a second bonus close combat" -- cavalry qualifies
    body = """
        [red]
        pieces = [{ at = "L3", unit = "SSpC" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }, { at = "O4", unit = "ASp", blocks = 1 },
                  { at = "P5", unit = "ASp", blocks = 1 }, { at = "Q6", unit = "ASp" }]
    """

    def after_first_bonus(dragon: str) -> CCState:
        s = position(body, red_dragons=["legendary-combat"], victory=9)
        s = act(s, "play order-three-center", "order L3", "end-move")
        s = act(s, "attack L3 M4", dice="x c c c")
        s = act(s, dragon, "advance")
        assert s.legal_actions() == ["bonus O4", "no-bonus"]
        s = act(s, "bonus O4", dice="x c c c")
        if dragon == "pass":  # the card is offered again on the bonus roll: not played at all
            assert s.legal_actions() == ["dragon legendary-combat", "pass"]
            s = act(s, "pass")
        return act(s, "advance")

    plain = after_first_bonus("pass")
    assert unit(plain, "O4").side == RED and not any(a.startswith("bonus") for a in plain.legal_actions())

    s = after_first_bonus("dragon legendary-combat")
    assert s.legal_actions() == ["bonus P5", "no-bonus"]
    s, evs = run(s, "bonus P5", dice="x c c c")
    assert rolls(evs) == [4] and unit(s, "P5") is None
    s = act(s, "advance")
    # Q6 is next to P5, but there is no third bonus close combat
    assert unit(s, "P5").side == RED and unit(s, "Q6") is not None
    assert not any(a.startswith("bonus") for a in s.legal_actions())


def test_dragon_legendary_combat_is_not_offered_after_a_ranged_roll():
    # "After a successful close combat": a ranged attack is no close combat
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SB" }]
        [blue]
        pieces = [{ at = "L5", unit = "ASp", blocks = 1 }, { at = "F9", unit = "ASp" }]
    """, red_dragons=["legendary-combat"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    seen: list[list[str]] = []
    s, _ = walk(s, "fire L3 L5", seen, dice="t c c")
    assert not offered(seen, "legendary-combat")
    assert unit(s, "L5") is None and not s.ti["dragon_played"][RED]
    assert dragon_slugs(s, RED) == ["legendary-combat"]


# ======================================================= Spirit of the Wind
SPIRIT = """
    [red]
    pieces = [{ at = "L3", unit = "ASp" }, { at = "K4", unit = "ASp" }, { at = "N3", leader = "foot" }]
    [blue]
    pieces = [{ at = "M4", unit = "ASp" }, { at = "N5", leader = "foot" }]
"""


def test_dragon_spirit_of_the_wind_moves_one_more_hex_through_units_and_may_still_battle():
    # "Moves 1 hex more than normal, may still battle, and may pass through other units"
    s = position(SPIRIT, red_dragons=["spirit-of-the-wind"])
    s = act(s, "play order-three-center", "order L3", "done")
    # K4 (Red) and M4 (Blue) close every way to L5
    assert "move L3 L5" not in s.legal_actions()
    assert "dragon spirit-of-the-wind L3" in s.legal_actions()
    s = act(s, "dragon spirit-of-the-wind L3")
    assert s.honor[RED] == 5 - 1
    moves = set(s.legal_actions())
    assert "move L3 L5" in moves  # through K4 or M4
    assert {"move L3 K6", "move L3 M6", "move L3 O6"} <= moves  # 3 hexes: Ashigaru Spearmen move 2
    s = act(s, "move L3 L5")
    # 2 hexes, 1 more than its battle move: it still battles
    assert "attack L5 M4" in s.legal_actions()


def test_dragon_spirit_of_the_wind_never_ends_in_an_occupied_hex():
    # "may pass through other units, but not end in an occupied or impassable hex";
    # R35: "passes through any units and Leaders but ends in an empty hex"
    plain = position(SPIRIT, red_dragons=["spirit-of-the-wind"])
    plain = act(plain, "play order-three-center", "order L3", "done")
    assert "move L3 N3" in plain.legal_actions()  # without the card it may join its lone Leader
    s = act(plain, "dragon spirit-of-the-wind L3")
    dests = {a.split()[2] for a in s.legal_actions() if a.startswith("move L3 ")}
    # Reading tested: a hex holding a lone Leader (friend or foe) is occupied, as R35 says
    assert not dests & {"K4", "M4", "N3", "N5"}
    assert "L5" in dests and "O4" in dests  # O4 lies beyond N3/N5/M4


def test_dragon_spirit_of_the_wind_three_hexes_is_beyond_the_battle_move():
    # Reading of "may still battle" (as for Move as the Wind): the extra hex does not cost the
    # battle, so the unit battles after 1 + 1 hexes; after 2 + 1 it does not.
    s = position(SPIRIT, red_dragons=["spirit-of-the-wind"])
    s = act(s, "play order-three-center", "order L3", "done", "dragon spirit-of-the-wind L3")
    s = act(s, "move L3 M6")  # 3 hexes, next to the Blue Leader at N5
    assert not any(a.startswith("attack") for a in s.legal_actions())


# =========================================================== Brave Messenger
ROW_OF_UNITS = """
    [red]
    pieces = [{ at = "B3", unit = "ASp" }, { at = "D3", unit = "ASp" }, { at = "F3", unit = "ASp" },
              { at = "H3", unit = "ASp" }, { at = "J3", unit = "ASp" }, { at = "L3", unit = "ASp" },
              { at = "N3", unit = "ASp" }, { at = "P3", unit = "ASp" }, { at = "R3", unit = "ASp" },
              { at = "T3", unit = "ASp" }, { at = "V3", unit = "ASp" }, { at = "X3", unit = "ASp" }]
    [blue]
    pieces = [{ at = "L9", unit = "ASp" }]
"""
LEFT, CENTER, RIGHT = {"B3", "D3", "F3", "H3"}, {"J3", "L3", "N3", "P3"}, {"R3", "T3", "V3", "X3"}
SECTION_HAND = ["order-two-center", "out-flanked", "leadership", "serpent-command", "order-triangle"]


def test_dragon_brave_messenger_orders_one_more_unit_in_the_section():
    # "Order 1 more unit or Leader in each section the card names" -- Order Two Center orders 3
    s = position(ROW_OF_UNITS, red_dragons=["brave-messenger"], red_hand=SECTION_HAND)
    s = act(s.apply("play order-two-center"), "dragon brave-messenger")
    assert s.honor[RED] == 5 - 1
    assert orderable(s) == CENTER
    s = act(s, "order J3", "order L3")
    assert orderable(s) == {"N3", "P3"}
    s = act(s, "order N3")
    assert s.stack[-1]["t"] == "move" and len(s.ti["orders"]) == 3


def test_dragon_brave_messenger_adds_an_order_in_each_section_the_card_names():
    # Out-flanked: 2 left and 2 right; with Brave Messenger 3 left and 3 right, none in the center
    s = position(ROW_OF_UNITS, red_dragons=["brave-messenger"], red_hand=SECTION_HAND)
    s = act(s.apply("play out-flanked"), "dragon brave-messenger")
    assert orderable(s) == LEFT | RIGHT
    s = act(s, "order B3", "order D3", "order F3")
    assert orderable(s) == RIGHT
    s = act(s, "order R3", "order T3", "order V3")
    assert s.stack[-1]["t"] == "move" and len(s.ti["orders"]) == 6


@pytest.mark.parametrize("tactic", ["leadership", "serpent-command", "order-triangle"])
def test_dragon_brave_messenger_is_not_playable_with_a_tactic_card(tactic):
    # "with Command (Section cards only)"
    s = position(ROW_OF_UNITS, red_dragons=["brave-messenger"], red_hand=SECTION_HAND)
    seen: list[list[str]] = []
    s, _ = walk(s, f"play {tactic}", seen, dice="c c c c c")
    assert not offered(seen, "brave-messenger")
    assert s.to_move() == RED and s.stack[-1]["t"] == "order"
    assert dragon_slugs(s, RED) == ["brave-messenger"] and s.honor[RED] == 5


# ========================================================= Tactical Decision
def test_dragon_tactical_decision_extra_orders_one_more_unit_anywhere():
    # "order 1 extra unit of your choice anywhere" -- R35: `dragon tactical-decision extra`
    s = position(ROW_OF_UNITS, red_dragons=["tactical-decision"], red_hand=SECTION_HAND)
    s = s.apply("play order-two-center")
    assert "dragon tactical-decision extra" in s.legal_actions()
    s = act(s, "dragon tactical-decision extra")
    assert s.honor[RED] == 5 - 1
    assert orderable(s) == LEFT | CENTER | RIGHT
    s = act(s, "order J3", "order L3")
    assert orderable(s) == LEFT | {"N3", "P3"} | RIGHT  # the third order goes anywhere
    s = act(s, "order T3")
    assert s.stack[-1]["t"] == "move" and len(s.ti["orders"]) == 3


def test_dragon_tactical_decision_moves_the_cards_orders_to_another_section():
    # "move your Section card's order to another section" -- R35: all the card's orders
    s = position(ROW_OF_UNITS, red_dragons=["tactical-decision"], red_hand=SECTION_HAND)
    s = act(s.apply("play order-two-center"), "dragon tactical-decision left")
    assert orderable(s) == LEFT
    s = act(s, "order B3", "order H3")
    assert s.stack[-1]["t"] == "move" and len(s.ti["orders"]) == 2


def test_dragon_tactical_decision_offers_only_another_section_than_the_cards():
    # "move your Section card's order to *another* section": moving Order Two Center's orders
    # to the center changes nothing and is no choice the card gives
    s = position(ROW_OF_UNITS, red_dragons=["tactical-decision"], red_hand=SECTION_HAND)
    s = s.apply("play order-two-center")
    assert {"dragon tactical-decision left", "dragon tactical-decision right"} <= set(s.legal_actions())
    assert "dragon tactical-decision center" not in s.legal_actions()


# ===================================================================== Insult
INSULT = """
    [red]
    pieces = [{ at = "L3", unit = "ASp", leader = "foot" }, { at = "J3", leader = "foot" },
              { at = "P3", unit = "ASp" }]
    [blue]
    pieces = [{ at = "M4", unit = "ASp" }]
"""


def test_dragon_insult_leader_and_his_unit_go_back_and_the_unit_may_not_battle():
    # "His order is cancelled and he goes back to the hex he started from; a unit he moved with
    # goes back too and may not battle this turn."
    s = position(INSULT, blue_dragons=["insult"])
    s = act(s, "play order-three-center", "order L3", "order J3", "order P3")
    s = s.apply("move L3 K4")  # 1 hex: the Ashigaru could still battle M4 from K4
    assert s.to_move() == BLUE and s.stack[-1]["w"] == "insult"
    assert s.legal_actions() == ["dragon insult", "pass"]

    plain = act(s, "pass", "end-move")
    assert "attack K4 M4" in plain.legal_actions()

    s, evs = run(s, "dragon insult")
    assert s.honor[BLUE] == 5 - 2
    assert unit(s, "L3") is not None and leader(s, "L3") is not None
    assert unit(s, "K4") is None and leader(s, "K4") is None
    assert not any(a.startswith("move L3 ") for a in s.legal_actions())  # the order is cancelled
    s = act(s, "end-move")
    # L3 is next to M4 and moved no farther than 1 hex, yet it may not battle
    assert not any(a.startswith("attack L3") for a in s.legal_actions())


def test_dragon_insult_a_lone_leader_goes_back_and_his_order_is_cancelled():
    s = position(INSULT, blue_dragons=["insult"])
    s = act(s, "play order-three-center", "order L3", "order J3", "order P3")
    # R35: asked after every move of an ordered Leader -- not after a unit without one
    moved = s.apply("move P3 P5")
    assert moved.to_move() == RED and moved.stack[-1]["t"] == "move"
    s = moved.apply("move J3 J5")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon insult", "pass"]
    s = act(s, "dragon insult")
    assert leader(s, "J3") is not None and leader(s, "J5") is None
    assert not any(a.startswith("move J3 ") for a in s.legal_actions())
    assert any(a.startswith("move L3 ") for a in s.legal_actions())  # the other orders stand


# ================================================================ Ninja Thief
def test_dragon_ninja_thief_stolen_card_is_played_the_same_turn_beyond_the_one_card_limit():
    # "Take 1 of his Dragon cards at random. You may play it this turn, beyond the one-card
    # limit, if you can pay its cost." -- his own other cards stay under the limit
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["ninja-thief", "cowardice"],
                 blue_dragons=["strike-fear"])
    s = s.apply("play order-three-center")
    assert "dragon ninja-thief" in s.legal_actions()
    s = act(s, "dragon ninja-thief")
    assert dragon_slugs(s, RED) == ["cowardice", "strike-fear"] and dragon_slugs(s, BLUE) == []
    assert s.honor[RED] == 5 - 2
    s = act(s, "order L3", "end-move")
    s = act(s, "attack L3 M4")
    # before the roll: Strike Fear (stolen) is offered, Cowardice (his own) is not
    assert s.to_move() == RED and s.legal_actions() == ["dragon strike-fear", "pass"]
    s, evs = run(s, "dragon strike-fear", dice="f c c")
    assert s.honor[RED] == 5 - 2 - 2
    assert any("must retreat 2 hexes" in e.text for e in of_kind(evs, "retreat_due"))


def test_dragon_ninja_thief_takes_a_random_card_never_seen_again_in_the_victims_observation():
    def steal(seed: int) -> CCState:
        s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["ninja-thief"],
                     blue_dragons=["bravery", "revenge"], seed=seed)
        return act(s.apply("play order-three-center"), "dragon ninja-thief")

    taken = set()
    for seed in range(8):
        s = steal(seed)
        (got,) = dragon_slugs(s, RED)
        assert sorted([got, *dragon_slugs(s, BLUE)]) == ["bravery", "revenge"]
        taken.add(got)
    assert taken == {"bravery", "revenge"}  # at random, not a fixed pick

    s = steal(0)
    did = stolen(s)
    assert [d["id"] for d in s.observation(RED)["dragons"]] == [did]
    assert did not in [d["id"] for d in s.observation(BLUE)["dragons"]]
    assert f'"{did}"' not in json.dumps(s.observation(BLUE))
    assert s.observation(BLUE)["dragon_counts"] == {"red": 1, "blue": 1}
    s = finish_turn(act(s, "order L3", "end-move"))
    assert s.active == BLUE and f'"{did}"' not in json.dumps(s.observation(BLUE))
    assert did in s.dragons[RED]


def test_dragon_ninja_thief_is_not_offered_when_the_enemy_holds_no_dragon_card():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["ninja-thief"])
    seen: list[list[str]] = []
    s, _ = walk(s, "play order-three-center", seen)
    assert not offered(seen, "ninja-thief")
    assert s.stack[-1]["t"] == "order" and dragon_slugs(s, RED) == ["ninja-thief"]


def test_dragon_ninja_thief_stolen_card_needs_its_cost():
    # "... if you can pay its cost": 3 tokens pay for the Thief (2) but not for Strike Fear (2)
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["ninja-thief"],
                 blue_dragons=["strike-fear"], red_honor=3)
    s = act(s.apply("play order-three-center"), "dragon ninja-thief", "order L3", "end-move")
    assert s.honor[RED] == 1 and dragon_slugs(s, RED) == ["strike-fear"]
    seen: list[list[str]] = []
    s, evs = walk(s, "attack L3 M4", seen, dice="f c c")
    assert not offered(seen, "strike-fear")
    assert dragon_slugs(s, RED) == ["strike-fear"]
    assert any("must retreat 1 hex" in e.text for e in of_kind(evs, "retreat_due"))


# ========================================================= Personal Challenge
CHALLENGE = """
    [red]
    pieces = [{{ at = "L3", unit = "ASp", leader = "{red}" }}]
    [blue]
    pieces = [{{ at = "M4", unit = "ASp", leader = "{blue}" }}]
"""


def test_dragon_personal_challenge_attacker_more_swords_kills_the_enemy_leader_without_banner():
    # dice: Command cards in hand (the card just played counts), +2 for the card's player, +1 for
    # more Honor & Fortune, +1 for the higher-ranked Leader; more swords kills the other Leader:
    # no Victory Banner, his owner discards 1 random Command card; H&F symbols are collected
    s = position(CHALLENGE.format(red="mounted", blue="foot"), red_dragons=["personal-challenge"], red_honor=8)
    s = act(s, "play order-three-center", "order L3", "done", "end-move", "attack L3 M4", "no-inspire")
    assert s.to_move() == RED and s.legal_actions() == ["dragon personal-challenge", "pass"]
    s, evs = run(s, "dragon personal-challenge", dice="x x h c c c c c c " + "x h h c c " + "c c c")
    # Red: 4 in hand + the card played + 2 + 1 (8 - 1 > 5 tokens) + 1 (mounted > foot) = 9;
    # Blue: 5 in hand. Then Red's close combat, 3 dice (no Leader left to matter for Blue)
    assert rolls(evs) == [4 + 1 + 2 + 1 + 1, 5, 3]
    assert leader(s, "M4") is None and leader(s, "L3") is not None
    assert s.banners == [0, 0]
    assert len(s.hands[BLUE]) == 4 and len(s.cmd_discard) == 1 and s.cmd_discard[0] not in s.hands[BLUE]
    assert s.command == [5, 5]  # R35: "without his command shrinking"
    assert s.honor == [8 - 1 + 1, 5 + 2]
    assert hf_total(s) == POOL_TOTAL


def test_dragon_personal_challenge_tie_kills_nobody_but_honor_is_collected():
    s = position(CHALLENGE.format(red="foot", blue="foot"), red_dragons=["personal-challenge"], red_honor=8)
    s = act(s, "play order-three-center", "order L3", "done", "end-move", "attack L3 M4", "no-inspire")
    # Red: 5 + 2 + 1 (more tokens) = 8, equal ranks; Blue: 5
    s, evs = run(s, "dragon personal-challenge", dice="x h h c c c c c " + "x h c c c " + "c c c")
    assert rolls(evs)[:2] == [8, 5]
    assert leader(s, "L3") is not None and leader(s, "M4") is not None
    assert len(s.hands[BLUE]) == 5 and len(s.hands[RED]) == 4 and s.cmd_discard == []
    assert s.honor == [8 - 1 + 2, 5 + 1]


def test_dragon_personal_challenge_defender_plays_it_when_the_combat_is_declared():
    # R35: "may be played by the defender when the close combat is declared"
    s = position(CHALLENGE.format(red="foot", blue="foot"), blue_dragons=["personal-challenge"], blue_honor=8)
    s = act(s, "play order-three-center", "order L3", "done", "end-move")
    s = s.apply("attack L3 M4")
    assert s.to_move() == BLUE and "dragon personal-challenge" in s.legal_actions()
    s, evs = run(s, "dragon personal-challenge", dice="c c c c c " + "x c c c c c c c " + "c c c")
    # Red: 4 in hand + the card just played = 5; Blue: 5 + 2 + 1 (8 - 1 > 5 tokens) = 8
    assert rolls(evs) == [5, 8, 3]
    assert leader(s, "L3") is None and leader(s, "M4") is not None
    assert s.banners == [0, 0]
    assert len(s.hands[RED]) == 4 - 1 and len(s.cmd_discard) == 1 and s.command == [5, 5]
    # Red's attack went on without its Leader (no inspiration question before its 3 dice)
    assert s.to_move() == BLUE and s.legal_actions() == ["battle-back", "no-battle-back"]


def test_dragon_personal_challenge_needs_a_leader_on_both_sides():
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp", leader = "foot" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """
    s = position(body, red_dragons=["personal-challenge"], blue_dragons=["personal-challenge"])
    s = act(s, "play order-three-center", "order L3", "done", "end-move")
    seen: list[list[str]] = []
    s, _ = walk(s, "attack L3 M4", seen)  # Blue's answer to the declared combat
    assert s.legal_actions() == ["inspire", "no-inspire"]
    s, _ = walk(s, "no-inspire", seen, dice="c c c")  # Red's roll
    assert not offered(seen, "personal-challenge")
    assert dragon_slugs(s, RED) == dragon_slugs(s, BLUE) == ["personal-challenge"]
    assert s.legal_actions() == ["battle-back", "no-battle-back"]


def test_dragon_personal_challenge_is_not_offered_before_a_ranged_combat():
    # "before a close combat in which both units have a Leader": bowmen with a Leader firing at a
    # unit with a Leader make no close combat
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SB", leader = "foot" }]
        [blue]
        pieces = [{ at = "L5", unit = "ASp", leader = "foot" }, { at = "F9", unit = "ASp" }]
    """, red_dragons=["personal-challenge"])
    s = act(s, "play order-three-center", "order L3", "done", "end-move")
    seen: list[list[str]] = []
    s, evs = walk(s, "fire L3 L5", seen, dice="c c c")
    assert not offered(seen, "personal-challenge")
    assert rolls(evs) == [3] and dragon_slugs(s, RED) == ["personal-challenge"]


# ================================================================== Turncoat
TURNCOAT = """
    [red]
    pieces = [{ at = "L3", unit = "ASp" }]
    [blue]
    pieces = [{ at = "N5", unit = "ASp" }, { at = "L9", unit = "SSp", leader = "foot" }]
"""


def test_dragon_turncoat_more_honor_symbols_decide_and_a_defector_is_not_ordered_this_turn():
    # "Both sides roll 3 dice; the side with more Victory Banners adds 1 die, the side with more
    # Honor & Fortune adds 2. The side rolling more H&F symbols decides whether the unit changes
    # sides ... A defecting unit is not ordered by this card."
    s = position_with_banners(TURNCOAT, red_banners=1, red_honor=10, blue_honor=2, red_dragons=["turncoat"])
    s = s.apply("play order-three-center")
    # "1 enemy unit without a Leader": L9 carries one
    assert dragon_actions(s) == ["dragon turncoat N5"]
    s, evs = run(s, "dragon turncoat N5", dice="h h c c c c " + "h c c")
    assert rolls(evs) == [3 + 1 + 2, 3]
    assert s.to_move() == RED and s.legal_actions() == ["defect", "stay"]
    s = act(s, "defect")
    assert unit(s, "N5").side == RED and unit(s, "N5").blocks == 4
    assert s.honor == [10 - 3, 2]
    assert "order N5" not in s.legal_actions() and "order L3" in s.legal_actions()


def test_dragon_turncoat_a_tie_in_honor_symbols_keeps_the_unit_loyal():
    s = position_with_banners(TURNCOAT, red_honor=10, blue_honor=2, red_dragons=["turncoat"])
    s = s.apply("play order-three-center")
    s, evs = run(s, "dragon turncoat N5", dice="h c c c c " + "h c c")
    assert rolls(evs) == [3 + 2, 3]
    assert not any(a in ("defect", "stay") for a in s.legal_actions())
    assert unit(s, "N5").side == BLUE and s.to_move() == RED


def test_dragon_turncoat_the_enemy_decides_when_he_rolls_more_honor_symbols():
    # Blue has more banners (+1), Red more tokens (+2); Blue rolls more H&F and keeps the unit
    s = position_with_banners(TURNCOAT, blue_banners=1, red_honor=10, blue_honor=2, red_dragons=["turncoat"])
    s = s.apply("play order-three-center")
    s, evs = run(s, "dragon turncoat N5", dice="h c c c c " + "h h c c")
    assert rolls(evs) == [3 + 2, 3 + 1]
    assert s.to_move() == BLUE and s.legal_actions() == ["defect", "stay"]
    s = act(s, "stay")
    assert unit(s, "N5").side == BLUE and s.to_move() == RED


# ================================================================ Wild Winds
WINDS = """
    [red]
    pieces = [{ at = "D3", unit = "ASp" }, { at = "L3", unit = "ASp" }]
    [blue]
    pieces = [{ at = "L9", unit = "ASp" }]
"""
WINDS_HAND = ["order-three-center", "order-two-left", "order-two-left", "order-two-left", "advance-left"]


def winds(seed: int, card: str = "order-three-center", hand: list[str] | None = None) -> tuple[CCState, list[Event]]:
    s = position(WINDS, blue_dragons=["wild-winds"], red_dragons=["ashigaru-attack"], red_hand=hand or WINDS_HAND,
                 seed=seed)
    s = act(s.apply(f"play {card}"), "pass")  # Red passes his "with Command" window
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon wild-winds", "pass"]
    return run(s, "dragon wild-winds")


def test_dragon_wild_winds_card_goes_back_and_a_random_card_of_the_hand_is_played_instead():
    # "Before it acts, it goes back to his hand; draw 1 of his cards at random: he must play that
    # one this turn." -- R35: it may be the same card
    drawn = set()
    for seed in range(8):
        s, evs = winds(seed)
        new = card_slug(s)
        drawn.add(new)
        assert new in WINDS_HAND
        # the hand is the five cards less the one now played
        left = list(WINDS_HAND)
        left.remove(new)
        assert hand_slugs(s, RED) == sorted(left)
        # the orders follow the new card; no new Dragon window for Red (R35)
        assert s.to_move() == RED and s.stack[-1]["t"] == "order"
        assert orderable(s) == ({"L3"} if new == "order-three-center" else {"D3"})
        plays = [e.data["slug"] for e in of_kind(evs, "play")]
        assert plays == [new]
    assert "order-three-center" in drawn and drawn - {"order-three-center"}


def test_dragon_wild_winds_replaced_card_does_not_act():
    # "Before it acts": a Shogun card sent back to the hand has rolled no dice and collected no
    # Honor & Fortune for its player
    hand = ["shogun", "order-two-left", "order-two-left", "order-two-left", "advance-left"]
    s = position(WINDS, blue_dragons=["wild-winds"], red_hand=hand)
    s, evs = run(s, "play shogun", dice="h h h h h")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon wild-winds", "pass"]
    s, more = run(s, "dragon wild-winds")
    evs += more
    assert card_slug(s) != "shogun"
    assert rolls(evs) == []
    assert s.honor == [5, 5 - 2]


# =============================================================== Wise Advisor
def test_dragon_wise_advisor_takes_the_card_just_played_from_the_discard_instead_of_drawing():
    # "Instead of drawing a Command card, take any card from the Command discard pile."
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "L9", unit = "ASp" }]
    """, red_dragons=["wise-advisor"], command_deck=["order-one-left", "order-one-right"])
    deck = len(s.cmd_deck)
    s = act(s, "play order-three-center", "order L3", "end-move")
    assert s.to_move() == RED and s.stack[-1]["step"] == "wise"
    assert s.legal_actions() == ["dragon wise-advisor", "pass"]
    s = act(s, "dragon wise-advisor")
    assert s.honor[RED] == 5 - 3
    assert s.legal_actions() == ["take order-three-center"]  # the card just played is in the pile
    s, evs = run(s, "take order-three-center")
    assert hand_slugs(s, RED) == sorted(DEFAULT_HAND)
    assert len(s.cmd_deck) == deck and s.cmd_discard == []  # nothing drawn
    assert not of_kind(evs, "draw")


def test_dragon_wise_advisor_may_take_any_card_of_the_discard_pile():
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "L9", unit = "ASp" }]
    """
    s = position(body, red_dragons=["wise-advisor"], command_deck=["order-one-left", "order-one-right"])
    s = finish_turn(act(s, "play order-three-center", "order L3", "end-move"))  # Red passes Wise Advisor
    s = finish_turn(act(s, "play order-two-center", "order L9", "end-move"))
    assert s.active == RED and "order-one-left" in hand_slugs(s, RED)
    deck = len(s.cmd_deck)
    s = act(s, "play order-three-left")  # no unit on the left: straight to the end of the turn
    assert s.stack[-1]["step"] == "wise"
    s = act(s, "dragon wise-advisor")
    assert s.legal_actions() == ["take order-three-center", "take order-three-left", "take order-two-center"]
    s = act(s, "take order-two-center")  # Blue's card
    assert "order-two-center" in hand_slugs(s, RED) and len(s.hands[RED]) == 5
    assert len(s.cmd_deck) == deck
    assert sorted(s.t.command_ids[c] for c in s.cmd_discard) == ["order-three-center", "order-three-left"]


def test_dragon_wise_advisor_is_not_offered_without_three_tokens():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["wise-advisor"], red_honor=2)
    s = act(s, "play order-three-center", "order L3", "end-move")
    seen: list[list[str]] = []
    s, _ = walk(s, "end-battle", seen)
    assert not offered(seen, "wise-advisor")
    assert s.stack[-1]["t"] == "end" and s.stack[-1]["step"] == "discard"  # the draw was made


def test_dragon_legendary_combat_is_not_offered_after_a_roll_that_scored_nothing():
    # "After a successful close combat": a roll with no hit and no flag cannot make one (R32,
    # issue 30: a card whose condition cannot hold is never offered)
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }, { at = "F9", unit = "ASp" }]
    """, red_dragons=["legendary-combat"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    seen: list[list[str]] = []
    s, _ = walk(s, "attack L3 M4", seen, dice="c c h")  # circles and Honor: no hit, no flag
    assert not offered(seen, "legendary-combat")
    assert dragon_slugs(s, RED) == ["legendary-combat"]


def test_dragon_legendary_combat_is_offered_after_a_roll_that_scored():
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }, { at = "F9", unit = "ASp" }]
    """, red_dragons=["legendary-combat"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    seen: list[list[str]] = []
    walk(s, "attack L3 M4", seen, dice="t c h")
    assert offered(seen, "legendary-combat")
