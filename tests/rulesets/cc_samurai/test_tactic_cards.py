"""Rule tests for the Tactic Command cards (rulebook, seed 000, "TACTIC CARDS (21 cards)").

Each test is named after the card and the rule it checks; the card text it relies on is
quoted above it. Every die is forced. Positions are written with ``setup``:

    setup(red="L3 SSp+foot, J3 +mounted", blue="M4 ASp:1", red_command=4)

a piece is ``HEX UNIT[:blocks][+leader]``, or ``HEX +leader`` for a lone Leader.
Red is at the bottom (left = low letters A-I, center I-Q, right Q-Y) and moves first
unless ``active="blue"``. Blue sits at the top: his left is Red's right.
See docs/rulings.md R7 (phases end by themselves), R25, R27 and R28.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from kassen.engine.events import Event
from tests.rulesets.cc_samurai.helpers import GAME, act, leader, pieces, position, run, unit

RED, BLUE = 0, 1

# Rulebook, COMMAND CARDS (60 cards): the copies of every card in the rules-section list.
RULES_LIST_COPIES = {
    "order-one-left": 2, "order-one-center": 2, "order-one-right": 2,
    "order-two-left": 3, "order-two-center": 4, "order-two-right": 3,
    "order-three-left": 3, "order-three-center": 3, "order-three-right": 3,
    "advance-left": 2, "advance-center": 2, "advance-right": 2,
    "cranes-wing": 2, "flying-geese": 2, "out-flanked": 2,
    "tiger-tail-left": 1, "tiger-tail-right": 1,
    "order-circle": 2, "order-triangle": 2, "order-square": 2,
    "cavalry-charge": 2, "counter-attack": 2, "first-strike": 2, "hold-and-shoot": 2,
    "infantry-onslaught": 2, "leadership": 2, "serpent-command": 2, "shogun": 1,
}
TACTIC = ("order-circle", "order-triangle", "order-square", "cavalry-charge", "counter-attack", "first-strike",
          "hold-and-shoot", "infantry-onslaught", "leadership", "serpent-command", "shogun")

# the ordinary "nothing more" answers, in the order a turn asks for them
PASS = ("done", "end-move", "end-battle", "no-inspire", "stay", "no-bonus", "no-battle-back",
        "keep-dragons", "take-honor", "pass")


# --------------------------------------------------------------------- helpers
def setup(red: str = "", blue: str = "X11 ASp", red_command: int | None = None,
          blue_command: int | None = None, **kw: Any) -> Any:
    """A start-of-turn position; ``*_command`` is the army's command (Command cards held)."""
    lines = ["[red]", f"pieces = {pieces(red)}"]
    if red_command is not None:
        lines.append(f"command = {red_command}")
    lines += ["[blue]", f"pieces = {pieces(blue)}"]
    if blue_command is not None:
        lines.append(f"command = {blue_command}")
    return position("\n".join(lines), **kw)


def hand(*cards: str) -> list[str]:
    """A 5-card hand starting with ``cards``, filled with section cards."""
    filler = ["order-two-center", "order-three-left", "order-three-right", "order-three-center", "advance-center"]
    out = list(cards)
    for c in filler:
        if len(out) >= 5:
            break
        if c not in out:
            out.append(c)
    return out


def rolls(evs: list[Event]) -> list[int]:
    """How many dice each roll (combat or Shogun) used."""
    return [e.data["dice"] for e in evs if e.kind == "roll"]


def decision(s: Any) -> str | None:
    p = s.pending_json()
    return None if p is None else p["decision"]


def orders(s: Any) -> list[str]:
    return [a for a in s.legal_actions() if a.startswith("order")]


def moves(s: Any) -> list[str]:
    return [a for a in s.legal_actions() if a.startswith("move")]


def finish_turn(s: Any) -> Any:
    """Pass through the rest of the active player's turn with the 'nothing more' answers."""
    side = s.active
    while s.active == side and s.result() is None:
        legal = s.legal_actions()
        # a question with one answer (R32: keep-one is asked even when both cards are alike)
        s = s.apply(legal[0] if len(legal) == 1 else next(a for a in PASS if a in legal))
    return s


def slug_of(s: Any, cid: str) -> str:
    return s.t.command_ids[cid]


# ============================================================ THE COMMAND DECK
def test_command_deck_card_data_matches_the_rules_list_copies():
    # "COMMAND CARDS (60 cards)": "SECTION CARDS (39 cards)", "TACTIC CARDS (21 cards)", with the
    # copies given after every card of the list.
    tables = GAME.tables
    copies = {slug: card.copies for slug, card in tables.command.items()}
    assert copies == RULES_LIST_COPIES
    assert sum(copies.values()) == 60
    assert sum(c for slug, c in copies.items() if slug in TACTIC) == 21
    assert sum(c for slug, c in copies.items() if slug not in TACTIC) == 39


def test_command_deck_holds_all_60_cards_in_the_rules_list_counts():
    # R25/R30: all 60 cards, First Strike included
    s = GAME.new_state()
    every = s.hands[RED] + s.hands[BLUE] + s.cmd_deck + s.cmd_discard
    assert len(every) == 60
    counts = Counter(slug_of(s, c) for c in every)
    assert dict(counts) == dict(RULES_LIST_COPIES)


# ============================================== ORDER UNITS WITH <SYMBOL> CARDS
# "For each Command card you have, including this one, issue an order to 1 unit with a green
#  circle symbol." / "... blue triangle ..." / "... red square ..." -- "When the location of units
#  is not specified on the card, the tactic card can be used to order units in any section(s)".
@pytest.mark.parametrize(
    ("card", "eligible"),
    [
        ("order-circle", ["D3", "L3", "T3"]),  # AB left, AA center, LI right
        ("order-triangle", ["F3", "R3"]),  # ASp left and right
        ("order-square", ["N3", "P5", "V3", "X3"]),  # SSp, SB, SSpC, SBC
    ],
)
def test_symbol_cards_order_only_units_of_that_symbol_in_any_section(card, eligible):
    s = setup(red="D3 AB, L3 AA, T3 LI, F3 ASp, R3 ASp, N3 SSp, P5 SB, V3 SSpC, X3 SBC, H3 +foot, J5 +mounted",
              blue="L9 ASp", red_hand=hand(card))
    s = act(s, f"play {card}")
    assert orders(s) == [f"order {h}" for h in eligible]  # never a lone Leader, never another symbol


def test_order_triangle_orders_one_triangle_unit_per_command_card_in_the_players_command():
    # "For each Command card you have, including this one, issue an order to 1 unit with a blue
    # triangle symbol" -- with a command of 5, the 6th triangle unit gets no order.
    red = "B3 ASp, D3 ASp, F3 ASp, L3 ASp, T3 ASp, X3 ASp"
    s = setup(red=red, blue="L9 ASp", red_hand=hand("order-triangle"))
    s = act(s, "play order-triangle", "order B3", "order D3", "order F3", "order L3")
    assert "order X3" in orders(s)
    s = act(s, "order T3")
    assert decision(s) == "move" and orders(s) == []
    assert not any(m.startswith("move X3") for m in moves(s))


@pytest.mark.parametrize(("card", "typ"), [("order-circle", "AB"), ("order-square", "SSp")])
def test_symbol_cards_order_count_equals_a_command_of_four(card, typ):
    # "Player's Command": "A player's command is equal to the number of Command cards that player
    # is allowed to hold as noted in the scenario's battle notes." Command 4: 4 orders.
    red = ", ".join(f"{h} {typ}" for h in ("B3", "D3", "F3", "L3", "T3", "X3"))
    s = setup(red=red, blue="L9 ASp", red_command=4,
              red_hand=[card, "order-two-center", "order-three-left", "order-three-right"])
    s = act(s, f"play {card}", "order B3", "order D3", "order F3")
    assert len(orders(s)) == 3
    s = act(s, "order L3")
    assert decision(s) == "move" and orders(s) == []


@pytest.mark.parametrize(
    ("card", "red"),
    [
        ("order-circle", "F3 ASp, L3 SSpC, T3 SSp"),
        ("order-triangle", "F3 AB, L3 SSpC, T3 SSp"),
        ("order-square", "F3 ASp, L3 LI, T3 AA"),
    ],
)
def test_symbol_cards_without_such_units_order_one_unit_of_your_choice(card, red):
    # "If you do not have any units with a <symbol> symbol, issue an order to 1 unit of your choice."
    s = setup(red=f"{red}, H3 +foot", blue="L9 ASp", red_hand=hand(card))
    s = act(s, f"play {card}")
    assert orders(s) == ["order F3", "order L3", "order T3"]  # any unit, any section; a Leader is not a unit
    s = act(s, "order T3")
    assert decision(s) == "move" and orders(s) == []


def test_order_triangle_count_follows_the_command_lost_to_a_seppuku():
    # "When the number of Command cards changes in a scenario, command will increase or decrease to
    # the new number of cards allowed to be held at the moment the card is played." Blue's Leader
    # commits seppuku on Red's turn (command 5 -> 4); on his next turn Blue's Order Triangle
    # orders 4 of his 5 triangle units.
    s = setup(red="L3 ASp", blue="M4 +foot, B9 ASp, F9 ASp, L9 ASp, T9 ASp, X9 ASp",
              blue_hand=["order-triangle", "order-two-center", "order-two-left", "order-two-right", "cranes-wing"])
    s = act(s, "play order-two-center", "order L3", "end-move")
    s = act(s, "attack L3 M4", dice="t t t")  # no sword: the lone Leader survives
    assert decision(s) == "lretreat"
    s = act(s, "seppuku")
    assert s.command[BLUE] == 4
    perm = s.stack[-1]["perm"]
    k = next(i for i, c in enumerate(perm) if slug_of(s, c) != "order-triangle")
    s = act(s, f"pick {k + 1}")
    s = finish_turn(s)
    assert s.active == BLUE and len(s.hands[BLUE]) == 4
    s = act(s, "play order-triangle", "order B9", "order F9", "order L9")
    assert orders(s) == ["order T9", "order X9"]
    s = act(s, "order T9")
    assert decision(s) == "move" and orders(s) == []


# ============================================================= CAVALRY CHARGE
def test_cavalry_charge_orders_four_or_less_cavalry_units_in_any_section():
    # "Issue an order to 4 or less cavalry units."
    s = setup(red="B3 SSpC, F3 SBC, L3 SSpC, T3 SBC, X3 SSpC, H3 ASp, N3 +mounted", blue="L9 ASp",
              red_hand=hand("cavalry-charge"))
    s = act(s, "play cavalry-charge")
    assert orders(s) == ["order B3", "order F3", "order L3", "order T3", "order X3"]
    s = act(s, "order B3", "order F3", "order L3", "order T3")
    assert decision(s) == "move" and orders(s) == []
    assert not any(m.startswith("move X3") or m.startswith("move H3") for m in moves(s))


def test_cavalry_charge_samurai_spearmen_cavalry_move_three_and_battle_with_an_extra_die():
    # "Cavalry units with a red square symbol may move 3 hexes and battle." / "Ordered units battle
    # in close combat with 1 additional die for the entire turn." SSpC: 4 dice + 1.
    body = {"red": "L3 SSpC", "blue": "L7 ASp"}
    plain = act(setup(**body), "play order-three-center", "order L3")
    assert "move L3 M6" not in plain.legal_actions()  # 2 hexes normally
    s = act(setup(**body, red_hand=hand("cavalry-charge")), "play cavalry-charge", "order L3")
    assert "move L3 M6" in s.legal_actions()  # 3 hexes
    s = act(s, "move L3 M6")
    assert "attack M6 L7" in s.legal_actions()
    s, evs = run(s, "attack M6 L7", dice="c c c c c")
    assert rolls(evs) == [5]


def test_cavalry_charge_samurai_bowmen_cavalry_still_move_two():
    # R28 / facts.md: "red square cavalry may move 3" is Samurai Spearmen Cavalry only (published
    # ruling); Samurai Bowmen Cavalry moves 2.
    s = setup(red="L3 SBC", blue="L9 ASp", red_hand=hand("cavalry-charge"))
    s = act(s, "play cavalry-charge", "order L3")
    assert "move L3 L5" in s.legal_actions()
    assert "move L3 M6" not in s.legal_actions()
    assert all(s.b.distance(s.b.parse("L3"), s.b.parse(m.split()[2])) <= 2 for m in moves(s))


def test_cavalry_charge_ordered_units_may_not_do_ranged_combat():
    # "Ordered units may not do ranged combat."  SBC at L3, target 3 hexes away at M6.
    body = {"red": "L3 SBC", "blue": "M6 ASp"}
    plain = act(setup(**body), "play order-three-center", "order L3", "end-move")
    assert "fire L3 M6" in plain.legal_actions()
    s = act(setup(**body, red_hand=hand("cavalry-charge")), "play cavalry-charge", "order L3", "end-move")
    assert not any(a.startswith("fire") for a in s.legal_actions())
    assert decision(s) == "end"  # nothing to battle with: the battle phase ended by itself (R7)


def test_cavalry_charge_samurai_bowmen_cavalry_close_combat_with_an_extra_die():
    # "Ordered units battle in close combat with 1 additional die" -- SBC: 3 dice + 1.
    s = setup(red="L3 SBC", blue="M4 ASp", red_hand=hand("cavalry-charge"))
    s = act(s, "play cavalry-charge", "order L3", "end-move")
    s, evs = run(s, "attack L3 M4", dice="c c c c")
    assert rolls(evs) == [4]


def test_cavalry_charge_extra_die_counts_for_the_entire_turn_including_a_bonus_close_combat():
    # "1 additional die for the entire turn" (R28: bonus close combats too).
    s = setup(red="L3 SSpC", blue="M4 ASp:1, N5 ASp", red_hand=hand("cavalry-charge"))
    s = act(s, "play cavalry-charge", "order L3", "end-move")
    s, evs = run(s, "attack L3 M4", dice="t c c c c")
    assert rolls(evs) == [5]
    assert unit(s, "M4") is None
    s = act(s, "advance")
    assert "bonus N5" in s.legal_actions()
    s, evs = run(s, "bonus N5", dice="c c c c c")
    assert rolls(evs) == [5]


def test_cavalry_charge_without_cavalry_orders_one_unit_of_your_choice():
    # "If you do not have any cavalry units, issue an order to 1 unit of your choice."
    s = setup(red="F3 ASp, L3 AB, T3 SSp, H3 +mounted", blue="L9 ASp", red_hand=hand("cavalry-charge"))
    s = act(s, "play cavalry-charge")
    assert orders(s) == ["order F3", "order L3", "order T3"]
    s = act(s, "order L3")
    assert decision(s) == "move" and orders(s) == []


# ============================================================== COUNTER ATTACK
def test_counter_attack_copies_order_two_left_as_order_two_right():
    # "it becomes a copy of the Command card your opponent played on his last turn. Follow the
    # instructions on that card ... except reverse any section references made on the card (left
    # section becomes right section and vice versa)."  Blue plays Order Two Units Left; Red's
    # Counter Attack orders 2 units in Red's right section.
    s = setup(red="F3 ASp, L3 ASp, R3 ASp, T3 ASp, V3 ASp", blue="T9 ASp, D9 ASp", active="blue",
              blue_hand=hand("order-two-left"), red_hand=hand("counter-attack"))
    s = act(s, "play order-two-left")
    assert orders(s) == ["order T9"]  # Blue's left is Red's right
    s = finish_turn(act(s, "order T9"))
    assert s.active == RED
    s, evs = run(s, "play counter-attack")
    assert [e.data.get("slug") for e in evs if e.kind == "counter_attack"] == ["order-two-right"]
    assert orders(s) == ["order R3", "order T3", "order V3"]
    s = act(s, "order R3", "order V3")
    assert decision(s) == "move" and orders(s) == []


def test_counter_attack_copies_the_draw_two_of_order_one():
    # Order One Unit Left: "When drawing a new Command card, draw 2, choose 1 and discard the
    # other." Red's Counter Attack becomes Order One Unit Right, draw-two included.
    s = setup(red="F3 ASp, T3 ASp", blue="T9 ASp", active="blue",
              blue_hand=["order-one-left", "order-three-center", "order-three-left", "order-three-right", "advance-left"],
              red_hand=hand("counter-attack"),
              command_deck=["order-two-center", "order-two-center", "flying-geese", "tiger-tail-left"])
    s = act(s, "play order-one-left", "order T9")
    s = finish_turn(s)  # Blue draws the two Order Two Center and keeps one
    assert s.active == RED
    s = act(s, "play counter-attack")
    assert orders(s) == ["order T3"]
    s = act(s, "order T3", "end-move")
    assert s.legal_actions() == ["keep flying-geese", "keep tiger-tail-left"]
    s = act(s, "keep tiger-tail-left")
    assert sorted(slug_of(s, c) for c in s.hands[RED]).count("tiger-tail-left") == 1
    assert "flying-geese" in [slug_of(s, c) for c in s.cmd_discard]
    assert len(s.hands[RED]) == 5


def test_counter_attack_with_nothing_to_copy_orders_nothing():
    # R27: the opponent has not played a Command card yet: Counter Attack may be played and orders
    # nothing; "If a player is ever in a situation where no unit can be ordered by the Command card
    # just played, disregard phases 2 through 4 of the game turn and go directly to the draw phase."
    s = setup(red="F3 ASp, L3 ASp, T3 ASp", blue="L9 ASp", red_hand=hand("counter-attack"))
    s, evs = run(s, "play counter-attack")
    assert not any(e.kind == "order" for e in evs)
    assert s.legal_actions() == ["draw-dragon", "take-honor"]
    assert len(s.hands[RED]) == 5  # one card drawn, not two
    assert {s.name(h) for h, u in s.units.items() if u.side == RED} == {"F3", "L3", "T3"}


def test_counter_attack_copies_a_tactic_card_with_its_effect():
    # "Follow the instructions on that card as though you were actually playing it": a copied
    # Cavalry Charge orders cavalry only and gives them +1 close combat die.
    s = setup(red="L3 SSpC, F3 ASp", blue="M4 ASp, X9 SSpC", active="blue",
              blue_hand=hand("cavalry-charge"), red_hand=hand("counter-attack"))
    s = finish_turn(act(s, "play cavalry-charge", "order X9"))
    s = act(s, "play counter-attack")
    assert orders(s) == ["order L3"]
    s = act(s, "order L3", "end-move")
    s, evs = run(s, "attack L3 M4", dice="c c c c c")
    assert rolls(evs) == [5]


def test_counter_attack_copies_what_an_opponents_counter_attack_became():
    # R27: a Counter Attack copying a Counter Attack copies what that one copied, mirrored.
    # Blue: Order Three Left; Red: Counter Attack = Order Three Right; Blue: Counter Attack =
    # Order Three Left again (Blue's left: T9, X9).
    s = setup(red="R3 ASp, F3 ASp", blue="T9 ASp, X9 ASp, D9 ASp, L9 ASp", active="blue",
              blue_hand=hand("order-three-left", "counter-attack"), red_hand=hand("counter-attack"))
    s = finish_turn(act(s, "play order-three-left", "order T9", "done"))
    s = act(s, "play counter-attack")
    assert orders(s) == ["order R3"]
    s = finish_turn(act(s, "order R3"))
    assert s.active == BLUE
    s, evs = run(s, "play counter-attack")
    assert [e.data.get("slug") for e in evs if e.kind == "counter_attack"] == ["order-three-left"]
    assert orders(s) == ["order T9", "order X9"]


# ============================================================== HOLD AND SHOOT
def test_hold_and_shoot_orders_four_or_fewer_ranged_units_not_adjacent_to_an_enemy():
    # "Issue an order to 4 or fewer units with ranged weapons. ... Ordered units may not be in an
    # adjacent hex to an enemy unit or Leader."  P5 is next to a Blue unit, D5 next to a lone Blue
    # Leader, H3 has no ranged weapon.
    s = setup(red="B3 AB, F3 AA, L3 SB, T3 SBC, X3 AB, P5 AB, D5 SB, H3 ASp", blue="Q6 ASp, E6 +foot",
              red_hand=hand("hold-and-shoot"))
    s = act(s, "play hold-and-shoot")
    assert orders(s) == ["order B3", "order F3", "order L3", "order T3", "order X3"]
    s = act(s, "order B3", "order F3", "order L3", "order T3")
    assert orders(s) == []
    assert decision(s) != "move" and moves(s) == []  # "Units may not move before or after combat."


def test_hold_and_shoot_units_do_not_move_and_fire_twice():
    # "Ordered units may fire twice." / "Units may not move before or after combat."
    s = setup(red="L3 AB", blue="L5 ASp", red_hand=hand("hold-and-shoot"))
    s = act(s, "play hold-and-shoot", "order L3")
    assert decision(s) == "battle" and moves(s) == []
    assert s.legal_actions() == ["fire L3 L5", "end-battle"]  # and no close combat
    s, evs = run(s, "fire L3 L5", dice="c c")
    assert rolls(evs) == [2]
    assert "fire L3 L5" in s.legal_actions()
    s, evs = run(s, "fire L3 L5", dice="c c")
    assert rolls(evs) == [2]
    assert decision(s) == "end"  # no third fire


def test_hold_and_shoot_an_ordinary_order_fires_only_once():
    # control for the test above: without the card a ranged unit battles once (PHASE 4 BATTLE)
    s = setup(red="L3 AB", blue="L5 ASp")
    s = act(s, "play order-three-center", "order L3", "end-move", "fire L3 L5", dice="c c")
    assert decision(s) == "end"


def test_hold_and_shoot_without_ranged_units_orders_one_unit_of_your_choice():
    # "If you do not have any ranged weapon units, order 1 unit of your choice."
    s = setup(red="F3 ASp, L3 SSp, T3 SSpC, H3 +foot", blue="L9 ASp", red_hand=hand("hold-and-shoot"))
    s = act(s, "play hold-and-shoot")
    assert orders(s) == ["order F3", "order L3", "order T3"]
    s = act(s, "order F3")
    assert orders(s) == [] and decision(s) == "move"


def test_hold_and_shoot_ranged_units_all_adjacent_to_enemies_order_nothing():
    # Reading tested (R28, literal text): the fallback is for a player with no ranged weapon unit
    # at all; a player whose ranged units all stand next to an enemy orders nothing and goes to
    # the draw phase ("no unit can be ordered by the Command card just played").
    s = setup(red="L3 AB, F3 ASp", blue="M4 ASp", red_hand=hand("hold-and-shoot"))
    s, evs = run(s, "play hold-and-shoot")
    assert any(e.kind == "no_orders" for e in evs)
    assert s.legal_actions() == ["draw-dragon", "take-honor"]


# ========================================================== INFANTRY ONSLAUGHT
def test_infantry_onslaught_orders_four_or_less_infantry_in_a_contiguous_group():
    # "Issue an order to 4 or less infantry units in a group (adjacent, linked, contiguous hexes)."
    # X3 is not linked to the group; G4 is cavalry; E4 is a lone Leader (not a unit).
    s = setup(red="F3 ASp, H3 SSp, J3 AB, L3 LI, N3 ASp, X3 ASp, G4 SSpC, E4 +foot", blue="L9 ASp",
              red_hand=hand("infantry-onslaught"))
    s = act(s, "play infantry-onslaught")
    assert orders(s) == ["order F3", "order H3", "order J3", "order L3", "order N3", "order X3"]
    s = act(s, "order F3")
    assert orders(s) == ["order H3"]  # neither X3 (not adjacent) nor the cavalry at G4
    s = act(s, "order H3", "order J3")
    assert orders(s) == ["order L3"]
    s = act(s, "order L3")
    assert orders(s) == [] and decision(s) == "move"
    assert not any(m.startswith("move N3") for m in moves(s))


def test_infantry_onslaught_a_non_adjacent_infantry_unit_cannot_join_the_group():
    s = setup(red="F3 ASp, L3 ASp", blue="L9 ASp", red_hand=hand("infantry-onslaught"))
    s = act(s, "play infantry-onslaught", "order F3")
    assert orders(s) == []
    assert decision(s) == "move"
    assert not any(m.startswith("move L3") for m in moves(s))


def test_infantry_onslaught_ashigaru_and_samurai_spearmen_move_two_and_still_close_combat():
    # "All ordered units, with a triangle and/or square symbol, may move 2 hexes and still engage
    # in close combat."  Normally ASp moves 2 without battle and SSp moves 1.
    body = {"red": "F3 ASp, H3 SSp", "blue": "E6 ASp, I6 ASp"}
    plain = act(setup(**body), "play order-three-left", "order F3", "order H3")
    assert "move H3 H5" not in plain.legal_actions()
    plain = act(plain, "move F3 F5", "end-move")
    assert "attack F5 E6" not in plain.legal_actions()
    s = act(setup(**body, red_hand=hand("infantry-onslaught")), "play infantry-onslaught", "order F3", "order H3")
    assert "move H3 H5" in s.legal_actions()
    s = act(s, "move F3 F5", "move H3 H5")
    assert {"attack F5 E6", "attack H5 I6"} <= set(s.legal_actions())
    s, evs = run(s, "attack F5 E6", dice="c c c")
    assert rolls(evs) == [3]  # no extra die
    s = act(s, "no-battle-back")
    s, evs = run(s, "attack H5 I6", dice="c c c c")
    assert rolls(evs) == [4]


def test_infantry_onslaught_ranged_units_ordered_but_may_not_battle_levies_may():
    # "Units with a circle symbol may be ordered, but ordered ranged weapon units may not engage in
    # close or ranged combat."  LI (circle, no ranged weapon) battles; AB and AA do not.
    body = {"red": "J3 LI, L3 AB, N3 AA", "blue": "K4 ASp, N7 ASp"}
    plain = act(setup(**body), "play order-three-center", "order J3", "order L3", "order N3", "end-move")
    assert {"attack J3 K4", "attack L3 K4", "fire N3 N7"} <= set(plain.legal_actions())
    s = act(setup(**body, red_hand=hand("infantry-onslaught")), "play infantry-onslaught",
            "order J3", "order L3", "order N3")
    assert decision(s) == "move"
    s = act(s, "end-move")
    assert s.legal_actions() == ["attack J3 K4", "end-battle"]


# ================================================================== LEADERSHIP
def test_leadership_orders_a_leaders_hex_and_up_to_four_linked_hexes():
    # "Issue an order to units under one Leader's command including the Leader hex and up to 4
    # adjacent, linked, contiguous hexes".  Reading tested (R28): each further hex is adjacent to
    # one already ordered (linked, contiguous), so H3 may follow J3.
    s = setup(red="L3 SSp+foot, J3 ASp, N3 ASp, K4 ASp, M4 AB, H3 ASp, X3 ASp", blue="L9 ASp",
              red_hand=hand("leadership"))
    s = act(s, "play leadership", "order L3")
    assert orders(s) == ["order J3", "order K4", "order M4", "order N3"]  # not X3, no split
    s = act(s, "order J3")
    assert "order H3" in orders(s)
    s = act(s, "order N3", "order K4", "order M4")
    assert orders(s) == [] and decision(s) == "move"  # 5 hexes: the Leader's and 4 more
    assert not any(m.startswith("move H3") or m.startswith("move X3") for m in moves(s))


def test_leadership_lone_leader_in_the_group_may_be_ordered():
    # "A Leader that is alone in a hex under the ordered Leader command, may be issued an order."
    s = setup(red="L3 SSp+foot, K2 +foot, N3 ASp", blue="L9 ASp", red_hand=hand("leadership"))
    s = act(s, "play leadership", "order L3")
    assert "order K2" in orders(s)
    s = act(s, "order K2", "order N3")
    assert any(m.startswith("move K2 ") for m in moves(s))


def test_leadership_leader_with_an_ordered_unit_may_not_split():
    # "A Leader with an ordered unit may not be ordered to split from the unit." (no helmet)
    s = setup(red="L3 SSp+foot, J3 ASp+mounted, N3 ASp", blue="L9 ASp", red_hand=hand("leadership"))
    s = act(s, "play leadership")
    assert not any(a.endswith(" leader") for a in s.legal_actions())
    s = act(s, "order L3")
    assert not any(a.endswith(" leader") for a in s.legal_actions())
    s = act(s, "order J3", "done")
    assert not any(" leader " in m for m in moves(s))
    s = act(s, "move J3 J5")
    assert unit(s, "J5") is not None and leader(s, "J5") is not None and leader(s, "J3") is None


def test_leadership_or_order_one_unit_of_your_choice():
    # "... or order 1 unit of your choice."  A first order to a unit without a Leader.
    s = setup(red="L3 SSp+foot, F3 ASp, H3 ASp", blue="L9 ASp", red_hand=hand("leadership"))
    s = act(s, "play leadership")
    assert orders(s) == ["order F3", "order H3", "order L3"]
    s = act(s, "order F3")
    assert orders(s) == [] and decision(s) == "move"
    assert all(m.startswith("move F3 ") for m in moves(s))


# ============================================================= SERPENT COMMAND
def test_serpent_command_orders_any_contiguous_group_including_lone_leaders():
    # "Issue an order to a group of units. The group is formed by units that are in adjacent,
    # linked, contiguous hexes without a limit to the number of hexes." / "A Leader alone in a hex
    # may be part of the group and be issued an order."
    chain = ["B3", "D3", "F3", "H3", "J3", "L3", "N3", "P3"]
    red = "B3 ASp, D3 SSp, F3 AB, H3 ASp+foot, J3 ASp, L3 SSpC, N3 LI, P3 AA, Q4 +foot, X3 ASp"
    s = setup(red=red, blue="L9 ASp", red_hand=hand("serpent-command"))
    s = act(s, "play serpent-command")
    assert {"order Q4", "order X3"} <= set(orders(s))
    for h in chain:
        s = act(s, f"order {h}")
        assert "order X3" not in orders(s)
        assert not any(a.endswith(" leader") for a in s.legal_actions())
    assert orders(s) == ["order Q4"]
    s = act(s, "order Q4")
    assert decision(s) == "move"
    assert len(s.ti["orders"]) == 9  # no limit of 4


def test_serpent_command_units_may_only_move_one_hex():
    # "Units in the group may only move 1 hex."  SSpC and ASp normally move 2.
    s = setup(red="J3 ASp, L3 SSpC, N3 AB", blue="L9 ASp", red_hand=hand("serpent-command"))
    s = act(s, "play serpent-command", "order J3", "order L3", "order N3")
    assert decision(s) == "move"
    start = {h: s.b.parse(h) for h in ("J3", "L3", "N3")}
    dests = [(m.split()[1], m.split()[2]) for m in moves(s)]
    assert dests and all(s.b.distance(start[a], s.b.parse(b)) == 1 for a, b in dests)
    assert "move L3 M4" in s.legal_actions() and "move L3 L5" not in s.legal_actions()


def test_serpent_command_ranged_combat_after_moving():
    # "After movement, a unit may engage in either ranged or close combat if eligible."
    # AB moves 1 hex and fires with its 1 die after moving.
    s = setup(red="L3 AB", blue="L7 ASp", red_hand=hand("serpent-command"))
    s = act(s, "play serpent-command", "order L3", "move L3 M4")
    assert "fire M4 L7" in s.legal_actions()
    s, evs = run(s, "fire M4 L7", dice="c")
    assert rolls(evs) == [1]


def test_serpent_command_close_combat_gain_ground_and_bonus_close_combat():
    # "A unit may gain ground after a successful close combat and may make a bonus close combat if
    # eligible."  No extra die with this card.
    s = setup(red="L3 SSpC", blue="N5 ASp:1, P5 ASp", red_hand=hand("serpent-command"))
    s = act(s, "play serpent-command", "order L3", "move L3 M4")
    s, evs = run(s, "attack M4 N5", dice="t c c c")
    assert rolls(evs) == [4]
    assert s.legal_actions() == ["advance", "stay"]
    s = act(s, "advance")
    assert unit(s, "N5") is not None and unit(s, "N5").side == RED
    assert "bonus P5" in s.legal_actions()
    s, evs = run(s, "bonus P5", dice="c c c c")
    assert rolls(evs) == [4]


# ====================================================================== SHOGUN
@pytest.mark.parametrize("command", [4, 5])
def test_shogun_rolls_one_die_per_command_card(command):
    # "For each Command card you have, including this one, roll 1 die." Swords order nothing.
    cards = ["shogun", "order-two-center", "order-three-left", "order-three-right", "order-three-center"]
    s = setup(red="L3 ASp, F3 AB, T3 SSp", blue="L9 ASp", red_command=command, red_hand=cards[:command])
    s, evs = run(s, "play shogun", dice="x" * command)
    assert rolls(evs) == [command]
    assert s.honor[RED] == 5
    assert not any(e.kind == "order" for e in evs)
    assert s.legal_actions() == ["draw-dragon", "take-honor"]  # nothing ordered: straight to the draw


def test_shogun_unit_symbols_order_units_of_that_symbol_in_any_section():
    # "For each unit symbol rolled, 1 unit with this symbol is ordered." / "Units may be ordered in
    # any sections."
    red = "B3 ASp, L3 ASp, T3 ASp, F3 AB, N3 SSp, H3 +foot"
    s = setup(red=red, blue="L9 ASp", red_hand=hand("shogun"))
    s = act(s, "play shogun", dice="t t x x x")
    assert orders(s) == ["order B3", "order L3", "order T3"]
    s = act(s, "order B3", "order T3")
    assert orders(s) == [] and decision(s) == "move"
    s = setup(red=red, blue="L9 ASp", red_hand=hand("shogun"))
    s = act(s, "play shogun", dice="c s x x x")
    assert orders(s) == ["order F3", "order N3"]


def test_shogun_flag_orders_a_unit_or_leader_of_your_choice_including_a_split():
    # "One unit or a Leader of your choice is ordered for each flag symbol rolled." / Note: "A flag
    # symbol may be used to order a Leader alone in a hex, order a Leader with a unit to split from
    # the unit, or order an attached Leader along with the unit he is leading."
    s = setup(red="L3 SSp+foot, F3 +mounted, T3 AB", blue="L9 ASp", red_hand=hand("shogun"))
    s = act(s, "play shogun", dice="f x x x x")
    assert orders(s) == ["order F3", "order L3", "order L3 leader", "order T3"]
    s = act(s, "order L3 leader")
    assert orders(s) == [] and decision(s) == "move"
    assert moves(s) and all(m.startswith("move L3 leader ") for m in moves(s))


def test_shogun_symbol_does_not_split_a_leader_but_a_flag_does():
    # a unit symbol orders "1 unit with this symbol" (with its Leader); only the flag may split
    s = setup(red="L3 SSp+foot", blue="L9 ASp", red_hand=hand("shogun"))
    s = act(s, "play shogun", dice="s x x x x")
    assert orders(s) == ["order L3"]


def test_shogun_honor_symbols_collect_honor_and_fortune():
    # "Collect 1 Honor & Fortune for each honor symbol rolled."
    s = setup(red="L3 ASp, F3 AB", blue="L9 ASp", red_hand=hand("shogun"))
    pool = s.pool
    s = act(s, "play shogun", dice="h h t x x")
    assert s.honor[RED] == 7 and s.pool == pool - 2
    assert orders(s) == ["order L3"]


def test_shogun_ordered_units_battle_with_an_extra_die_in_close_and_ranged_combat():
    # "Ordered units battle with 1 additional die for the entire turn."  ASp 3 + 1 close,
    # AB 2 + 1 ranged.
    s = setup(red="L3 ASp, T3 AB", blue="M4 SSp, T5 ASp", red_hand=hand("shogun"))
    s = act(s, "play shogun", dice="t c x x x")
    s = act(s, "order L3", "order T3", "end-move")
    s, evs = run(s, "attack L3 M4", dice="c c c c")
    assert rolls(evs) == [4]
    if "no-battle-back" in s.legal_actions():
        s = act(s, "no-battle-back")
    s, evs = run(s, "fire T3 T5", dice="c c c")
    assert rolls(evs) == [3]


def test_shogun_reshuffles_both_decks_with_their_discards_at_the_end_of_the_turn():
    # "Reshuffle the Command card deck and discard pile, also reshuffle the Dragon card deck and
    # discard pile." (R28: at the end of the turn, once the Shogun card itself is discarded)
    s = setup(red="L3 ASp", blue="L9 ASp", active="blue", blue_dragons=["bravery"],
              blue_hand=hand("order-two-center"), red_hand=hand("shogun"))
    s = act(s, "play order-two-center", "order L9", "end-move")
    assert decision(s) == "end"
    s = act(s, "discard-dragon bravery", "take-honor")
    assert s.active == RED
    blue_card = s.cmd_discard[-1]
    bravery = s.dr_discard[-1]
    assert slug_of(s, blue_card) == "order-two-center" and s.t.dragon_ids[bravery] == "bravery"
    shogun = next(c for c in s.hands[RED] if slug_of(s, c) == "shogun")
    s, evs = run(s, "play shogun", dice="x x x x x")
    assert any(e.kind == "reshuffle" for e in evs)
    assert s.cmd_discard == [] and s.dr_discard == []
    for cid in (blue_card, shogun):
        assert cid in s.cmd_deck or cid in s.hands[RED]
    assert bravery in s.dr_deck
    assert len(s.cmd_deck) + len(s.hands[RED]) + len(s.hands[BLUE]) == 60


def test_command_discards_stay_in_the_discard_pile_without_shogun():
    # control for the test above: an ordinary card is simply discarded
    s = setup(red="L3 ASp", blue="L9 ASp", red_hand=hand("order-two-center"))
    s = act(s, "play order-two-center", "order L3", "end-move")
    assert [slug_of(s, c) for c in s.cmd_discard] == ["order-two-center"]
