"""Rule tests: the Dragon cards (shared/rules/dragon-cards.md, docs/rulings.md R32-R34).

One or more tests per card of ``dragons.CARDS`` that the release implements, named after
the card and what its text makes it do, then the general rules of Dragon card play
(000, "Dragon Cards"): cost paid onto the card, one card per player per turn, the
windows asked whatever the hand holds, the second of two contradicting cards wins.

Red is at the bottom and plays first; Blue sits at the top. Every die is forced.
"""

from __future__ import annotations

import pytest

from kassen.engine.dice import parse_faces
from kassen.engine.events import Event
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.state import POOL_TOTAL, CCState
from tests.rulesets.cc_samurai.helpers import act, leader, position, run, skip_pass, unit

RED, BLUE = 0, 1

#: attacker at L3, defender at M4 (adjacent), both in the center section
DUEL = """
    [red]
    pieces = [{{ at = "L3", unit = "{red}" }}]
    [blue]
    pieces = [{{ at = "M4", unit = "{blue}" }}]
"""


# ---------------------------------------------------------------- helpers
def rolls(evs: list[Event]) -> list[int]:
    """The dice count of every roll event, in order."""
    return [e.data["dice"] for e in evs if e.kind == "roll"]


def of_kind(evs: list[Event], kind: str) -> list[Event]:
    return [e for e in evs if e.kind == kind]


def hf_total(s: CCState) -> int:
    return s.pool + sum(s.honor) + s.dragon_tokens


def dragon_slugs(s: CCState, side: int) -> list[str]:
    return sorted(s.t.dragon_ids[d] for d in s.dragons[side])


def hand_slugs(s: CCState, side: int) -> list[str]:
    return sorted(s.t.command_ids[c] for c in s.hands[side])


def declare(s: CCState, att: str, tgt: str) -> CCState:
    """Declare a close combat; the defender's reaction question is answered when it is only ``pass``."""
    s = s.apply(f"attack {att} {tgt}")
    if s.stack[-1].get("step") == "react" and s.legal_actions() == ["pass"]:
        s = s.apply("pass")
    return s


def dragon_actions(s: CCState) -> list[str]:
    return [a for a in s.legal_actions() if a.startswith("dragon ")]


def finish_turn(s: CCState, evs: list[Event] | None = None) -> CCState:
    """End the active player's turn: no more battles, no Wise Advisor, keep the Dragon cards,
    take 2 Honor & Fortune. Only the end-of-turn questions are answered."""
    side = s.active
    while s.active == side and not s.is_terminal():
        la = s.legal_actions()
        for a in ("end-battle", "end-move", "pass", "keep-dragons", "take-honor"):
            if a in la:
                break
        else:
            raise AssertionError(f"not an end-of-turn question: {la}")
        s = s.apply(a)
        if evs is not None:
            evs.extend(s.events)
    return s


def with_command(s: CCState, card: str, dragon: str = "pass") -> CCState:
    """Play ``card`` and answer the active player's "with Command" window."""
    s = s.apply(f"play {card}")
    assert s.to_move() == s.active and s.stack[-1].get("w") == "with-command"
    return act(s, dragon)


# =================================================== the cards, one by one
def test_dragon_ashigaru_attack_ordered_ashigaru_spearmen_roll_one_more_close_combat_die():
    # "all your ordered Ashigaru Spearmen: +1 close combat die for the whole turn"
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }, { at = "P3", unit = "SSp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }, { at = "O4", unit = "ASp" }]
    """, red_dragons=["ashigaru-attack"])
    s = with_command(s, "order-three-center", "dragon ashigaru-attack")
    s = act(s, "order L3", "order P3", "end-move")
    s, evs = run(s, "attack L3 M4", "battle-back", "attack P3 O4", "battle-back", dice="c" * 14)
    # the Ashigaru Spearmen roll 3 + 1; the Samurai Spearmen 4 (no bonus); Blue's battle backs 3
    assert rolls(evs) == [4, 3, 4, 3]


def test_dragon_ashigaru_attack_does_not_add_a_die_to_ranged_combat():
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }, { at = "P3", unit = "SB" }]
        [blue]
        pieces = [{ at = "P5", unit = "SSp" }, { at = "L9", unit = "SSp" }]
    """, red_dragons=["ashigaru-attack"])
    s = with_command(s, "order-three-center", "dragon ashigaru-attack")
    s = act(s, "order L3", "order P3", "end-move")
    s, evs = run(s, "fire P3 P5", dice="c c c")
    assert rolls(evs) == [3]


def test_dragon_fire_arrows_ordered_bow_units_roll_one_more_ranged_die():
    # "all your ordered bow units (SB, AB, SBC): +1 ranged combat die"; arquebusiers are not bows
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SB" }, { at = "P3", unit = "AA" }]
        [blue]
        pieces = [{ at = "L5", unit = "SSp" }, { at = "P5", unit = "SSp" }]
    """, red_dragons=["fire-arrows"])
    s = with_command(s, "order-three-center", "dragon fire-arrows")
    s = act(s, "order L3", "order P3", "end-move")
    s, evs = run(s, "fire L3 L5", "fire P3 P5", dice="c" * 6)
    assert rolls(evs) == [3 + 1, 2]


def test_dragon_fire_arrows_does_not_add_a_close_combat_die():
    s = position(DUEL.format(red="SB", blue="ASp"), red_dragons=["fire-arrows"])
    s = with_command(s, "order-three-center", "dragon fire-arrows")
    s = act(s, "order L3", "end-move")
    s, evs = run(s, "attack L3 M4", dice="c c c")
    assert rolls(evs)[0] == 3


def test_dragon_fire_in_the_rain_ordered_arquebusiers_roll_one_more_ranged_die():
    # "all your ordered arquebus units: +1 ranged combat die"; bows are not arquebuses
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SB" }, { at = "P3", unit = "AA" }]
        [blue]
        pieces = [{ at = "L5", unit = "SSp" }, { at = "P5", unit = "SSp" }]
    """, red_dragons=["fire-in-the-rain"])
    s = with_command(s, "order-three-center", "dragon fire-in-the-rain")
    s = act(s, "order L3", "order P3", "end-move")
    s, evs = run(s, "fire L3 L5", "fire P3 P5", dice="c" * 6)
    assert rolls(evs) == [3, 2 + 1]


def test_dragon_panic_enemy_units_may_not_ignore_flags_this_turn():
    # "all enemy units: may not ignore any flag this turn" -- Samurai Spearmen may ignore 1 by nature
    def after_flag(dragon: str) -> CCState:
        s = position(DUEL.format(red="ASp", blue="SSp"), red_dragons=["panic"])
        s = with_command(s, "order-three-center", dragon)
        s = act(s, "order L3", "end-move")
        return act(s, "attack L3 M4", dice="f c c")

    assert after_flag("pass").legal_actions() == ["ignore 0", "ignore 1"]
    s = after_flag("dragon panic")
    assert not any(a.startswith("ignore") for a in s.legal_actions())
    assert s.to_move() == BLUE and all(a.startswith("retreat ") for a in s.legal_actions())


def test_dragon_followers_of_bishamon_all_your_units_may_ignore_every_flag():
    # "all your units: ignore every flag for the rest of the turn" -- an Ashigaru alone ignores none
    s = position(DUEL.format(red="ASp", blue="ASp"), blue_dragons=["followers-of-bishamon"])
    s = act(s, "play order-three-center")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon followers-of-bishamon", "pass"]
    s = act(s, "dragon followers-of-bishamon", "order L3", "end-move")
    s = act(s, "attack L3 M4", dice="f f c")
    assert s.to_move() == BLUE and s.legal_actions() == ["ignore 0", "ignore 1", "ignore 2"]
    s = act(s, "ignore 2")
    assert unit(s, "M4") is not None and unit(s, "M4").side == BLUE


def test_dragon_white_fox_spirit_enemy_command_card_orders_only_one_unit():
    # "the enemy's Command card: it orders only 1 unit or Leader this turn"
    body = """
        [red]
        pieces = [{ at = "J3", unit = "ASp" }, { at = "L3", unit = "ASp" }, { at = "N3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "L9", unit = "ASp" }]
    """
    s = act(position(body, blue_dragons=["white-fox-spirit"]), "play order-three-center")
    assert s.legal_actions() == ["dragon white-fox-spirit", "pass"]
    plain = act(s, "pass", "order L3")
    assert "order J3" in plain.legal_actions()  # without the card the order phase goes on
    s = act(s, "dragon white-fox-spirit", "order L3")
    assert not any(a.startswith("order") for a in s.legal_actions())
    assert "end-move" in s.legal_actions()


def test_dragon_move_as_the_wind_ordered_infantry_move_one_more_hex_and_may_still_battle():
    # "all your ordered infantry: move 1 hex more than normal and may still battle"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M6", unit = "ASp" }]
    """
    plain = act(position(body, red_dragons=["move-as-the-wind"]), "play order-three-center", "pass", "order L3")
    assert "move L3 K6" not in plain.legal_actions()  # Ashigaru Spearmen move 2
    plain = act(plain, "move L3 L5")
    assert not any(a.startswith("attack") for a in plain.legal_actions())  # 2 hexes: no battle

    s = position(body, red_dragons=["move-as-the-wind"])
    s = with_command(s, "order-three-center", "dragon move-as-the-wind")
    s = act(s, "order L3")
    assert "move L3 K6" in s.legal_actions()  # 3 hexes
    moved2 = act(s, "move L3 L5")
    assert "attack L5 M6" in moved2.legal_actions()  # 2 hexes and still battles
    # Reading of "may still battle": the extra hex does not cost the battle, so the unit battles
    # after 1 + 1 hexes; after 2 + 1 (its no-battle move and the extra hex) it does not.
    moved3 = act(s, "move L3 K6")
    assert "attack K6 M6" not in moved3.legal_actions()


def test_dragon_move_as_the_wind_does_not_move_cavalry_farther():
    body = """
        [red]
        pieces = [{ at = "L3", unit = "SSpC" }]
        [blue]
        pieces = [{ at = "L9", unit = "ASp" }]
    """
    s = position(body, red_dragons=["move-as-the-wind"])
    s = with_command(s, "order-three-center", "dragon move-as-the-wind")
    s = act(s, "order L3")
    assert "move L3 L5" in s.legal_actions() and "move L3 K6" not in s.legal_actions()


def test_dragon_white_dragon_draws_a_command_card_and_command_rises_for_the_battle():
    # "Draw 1 Command card; your command (hand size) rises by 1 for the rest of the battle."
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["white-dragon"],
                 command_deck=["order-two-left", "order-two-right", "order-one-left"])
    assert s.command[RED] == 5
    s = with_command(s, "order-three-center", "dragon white-dragon")
    assert s.command[RED] == 6
    assert len(s.hands[RED]) == 5 and "order-two-left" in hand_slugs(s, RED)
    s = finish_turn(act(s, "order L3", "end-move"))
    assert len(s.hands[RED]) == 6 and "order-two-right" in hand_slugs(s, RED)
    assert s.command[RED] == 6


def test_dragon_tea_ceremony_gains_one_honor_per_unit_symbol_on_a_die_per_card_in_hand():
    # "Roll as many dice as Command cards in your hand: gain 1 H&F for each unit symbol."
    # Reading: the hand after the Command card has been played (4 of the 5 cards).
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["tea-ceremony"])
    s = act(s, "play order-three-center")
    s, evs = run(s, "dragon tea-ceremony", dice="c t s h")
    assert rolls(evs) == [4]
    assert s.honor[RED] == 5 - 1 + 3  # circle, triangle, square; the H&F symbol gives nothing
    assert hf_total(s) == POOL_TOTAL


def test_dragon_rice_famine_enemy_loses_one_honor_per_unit_symbol_on_a_die_per_card_in_his_hand():
    # "Roll as many dice as Command cards in the enemy's hand: he loses 1 H&F for each unit symbol"
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["rice-famine"])
    s = act(s, "play order-three-center")
    s, evs = run(s, "dragon rice-famine", dice="c t s f h")
    assert rolls(evs) == [5]
    assert s.honor == [5 - 2, 5 - 3]
    assert hf_total(s) == POOL_TOTAL


def test_dragon_rice_famine_shortfall_is_a_lack_of_honor_roll_the_victim_chooses_the_unit():
    # "(Lack of Honor from Dragon card play if he cannot pay)": 4 dice + 1 per token not paid;
    # "each symbol ... 1 block loss to a unit ... with a matching symbol of the controlling player's choice"
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }, { at = "P9", unit = "ASp" }, { at = "L9", unit = "SSp" }]
    """, red_dragons=["rice-famine"], blue_honor=1)
    s = act(s, "play order-three-center")
    s, evs = run(s, "dragon rice-famine", dice="c t x x x " + "s t f h x")
    assert s.honor[BLUE] == 0
    loh = of_kind(evs, "lack_of_honor")
    assert len(loh) == 1 and len(loh[0].data["faces"]) == 4 + 1
    # the square hits the only square unit; the triangle is Blue's choice between two units
    assert unit(s, "L9").blocks == 3
    assert s.to_move() == BLUE and s.legal_actions() == ["hit F9", "hit P9"]
    s = act(s, "hit P9")
    assert unit(s, "P9").blocks == 3 and unit(s, "F9").blocks == 4
    assert hf_total(s) == POOL_TOTAL


def test_dragon_ninja_assassin_sword_eliminates_the_enemy_leader_for_a_banner():
    # "1 enemy Leader anywhere: roll 1 die: a sword eliminates the Leader (you gain its Victory Banner)"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", leader = "foot" }, { at = "P9", unit = "ASp", leader = "mounted" }]
    """
    s = act(position(body, red_dragons=["ninja-assassin"]), "play order-three-center")
    assert dragon_actions(s) == ["dragon ninja-assassin F9", "dragon ninja-assassin P9"]
    hit, evs = run(s, "dragon ninja-assassin P9", dice="x")
    assert rolls(evs) == [1]
    assert leader(hit, "P9") is None and unit(hit, "P9") is not None
    assert hit.banners == [1, 0]


def test_dragon_ninja_assassin_anything_but_a_sword_has_no_effect():
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", leader = "foot" }]
    """
    s = act(position(body, red_dragons=["ninja-assassin"]), "play order-three-center")
    s = act(s, "dragon ninja-assassin F9", dice="f")
    assert leader(s, "F9") is not None and s.banners == [0, 0]


def test_dragon_physician_gives_back_one_lost_block_and_the_unit_may_not_be_ordered():
    # "1 of your units: before orders, it gets back 1 lost block (never above its starting size);
    # it may not be ordered this turn."  Blue's M4 loses 2 blocks in Red's turn, then Blue heals it.
    body = """
        [red]
        pieces = [{ at = "L3", unit = "SSp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }, { at = "O4", unit = "ASp" }, { at = "M8", unit = "AB", blocks = 3 }]
    """
    s = position(body, blue_dragons=["physician"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(s, "attack L3 M4", dice="t t c c")
    s = act(s, "no-battle-back") if "no-battle-back" in s.legal_actions() else s
    assert unit(s, "M4").blocks == 2
    s = finish_turn(s)
    assert s.active == BLUE
    s = act(s, "play order-three-center")
    # a full-strength unit (O4, and M8 which started the battle with 3 blocks) is no target
    assert dragon_actions(s) == ["dragon physician M4"]
    s = act(s, "dragon physician M4")
    assert unit(s, "M4").blocks == 3
    assert "order M4" not in s.legal_actions() and "order O4" in s.legal_actions()


def test_dragon_physician_has_no_target_when_no_unit_has_lost_a_block():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["physician"])
    s = s.apply("play order-three-center")
    # R32 (issue 30): the window opens on public facts (other cards of the window could be
    # played), but Physician is no choice there
    assert s.stack[-1]["t"] == "dragon" and s.legal_actions() == ["pass"]


def test_dragon_blue_dragon_a_die_per_enemy_unit_by_water_its_symbol_removes_a_block_no_casualty_check():
    # "every enemy unit on or next to a river, stream or ford hex: roll 1 die against each target:
    # a die showing that unit's symbol removes 1 block ... No Leader Casualty Check."
    body = """
        [terrain]
        river = ["L7"]
        ford = ["P7"]
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M6", unit = "ASp", leader = "foot" }, { at = "P7", unit = "SSp" },
                  { at = "F9", unit = "ASp" }]
    """
    s = act(position(body, red_dragons=["blue-dragon"]), "play order-three-center")
    s, evs = run(s, "dragon blue-dragon", dice="t c")
    assert rolls(evs) == [1, 1]  # M6 (next to the river) and P7 (on the ford); F9 is dry
    assert unit(s, "M6").blocks == 3 and leader(s, "M6") is not None
    assert unit(s, "P7").blocks == 4 and unit(s, "F9").blocks == 4
    assert not of_kind(evs, "casualty_check")


def test_dragon_blue_dragon_is_not_offered_without_an_enemy_unit_by_water():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["blue-dragon"])
    s = s.apply("play order-three-center")
    # R32: the window opens on public facts (other cards of it could be played), but Blue
    # Dragon, without a target, is no choice there
    assert s.stack[-1]["t"] == "dragon" and s.legal_actions() == ["pass"]


def test_dragon_red_dragon_four_dice_each_unit_symbol_removes_a_block_no_casualty_check():
    # "roll 4 dice: each unit symbol removes 1 block from an enemy unit with that symbol ...
    # other symbols have no effect. No Leader Casualty Check."
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp", leader = "foot" }, { at = "P9", unit = "SSp" }]
    """
    s = act(position(body, red_dragons=["red-dragon"]), "play order-three-center")
    s, evs = run(s, "dragon red-dragon", dice="t s c x")
    assert rolls(evs) == [4]
    assert unit(s, "F9").blocks == 3 and unit(s, "P9").blocks == 3  # the circle finds no circle unit
    assert leader(s, "F9") is not None and not of_kind(evs, "casualty_check")
    assert s.honor[RED] == 5 - 3 and hf_total(s) == POOL_TOTAL


def test_dragon_red_dragon_the_enemy_chooses_which_unit_of_the_symbol_loses_the_block():
    # "... from an enemy unit with that symbol, of the enemy's choice"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", unit = "ASp" }, { at = "P9", unit = "ASp" }]
    """
    s = act(position(body, red_dragons=["red-dragon"]), "play order-three-center")
    s = act(s, "dragon red-dragon", dice="t f h x")
    assert s.to_move() == BLUE and s.legal_actions() == ["hit F9", "hit P9"]
    s = act(s, "hit F9")
    assert unit(s, "F9").blocks == 3 and unit(s, "P9").blocks == 4
    assert s.to_move() == RED and "order L3" in s.legal_actions()


def test_dragon_forced_march_the_unit_moves_one_more_hex_and_may_not_battle():
    # "your movement, 1 of your ordered units: moves 1 hex more than normal; it may not battle this turn"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }, { at = "P3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "L7", unit = "ASp" }]
    """
    s = position(body, red_dragons=["forced-march"])
    s = act(s, "play order-three-center", "order L3", "order P3")
    assert "move L3 K6" not in s.legal_actions()
    assert {"dragon forced-march L3", "dragon forced-march P3"} <= set(s.legal_actions())
    s = act(s, "dragon forced-march L3")
    assert "move L3 K6" in s.legal_actions()  # 3 hexes
    assert "move P3 O6" not in s.legal_actions()  # P3 still moves 2
    s = act(s, "move L3 K6", "end-move")
    assert "attack K6 L7" not in s.legal_actions()


def test_dragon_forced_march_unit_that_moved_one_hex_still_may_not_battle():
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "L5", unit = "ASp" }]
    """
    s = position(body, red_dragons=["forced-march"])
    s = act(s, "play order-three-center", "order L3", "dragon forced-march L3", "move L3 K4")
    assert "attack K4 L5" not in s.legal_actions()


def test_dragon_bravery_the_defending_unit_may_ignore_every_flag_of_the_combat():
    # "enemy declares close combat, 1 of your units: ignores every flag rolled against it in this combat"
    s = position(DUEL.format(red="ASp", blue="ASp"), blue_dragons=["bravery"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = s.apply("attack L3 M4")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon bravery", "pass"]
    s = act(s, "dragon bravery", dice="f f c")
    assert s.legal_actions() == ["ignore 0", "ignore 1", "ignore 2"]
    s = act(s, "ignore 2")
    assert unit(s, "M4") is not None and unit(s, "M4").side == BLUE


def test_dragon_bravery_lasts_only_for_that_combat():
    # the next combat against the same unit in the same turn gets no Bravery
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }, { at = "N3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """, blue_dragons=["bravery"])
    s = act(s, "play order-three-center", "order L3", "order N3", "end-move")
    s = act(s.apply("attack L3 M4"), "dragon bravery", dice="c c c " + "c c c")
    s = act(s, "battle-back")
    s = act(s, "attack N3 M4", dice="f c c")
    assert not any(a.startswith("ignore") for a in s.legal_actions())


def test_dragon_practice_of_aikido_the_attacker_rolls_at_most_two_dice():
    # "the attacking enemy unit: it rolls at most 2 dice in this combat"
    s = position(DUEL.format(red="SSp", blue="ASp"), blue_dragons=["practice-of-aikido"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = s.apply("attack L3 M4")
    assert "dragon practice-of-aikido" in s.legal_actions()
    s, evs = run(s, "dragon practice-of-aikido", dice="c c c c c c")
    assert rolls(evs)[0] == 2


def test_dragon_practice_of_aikido_caps_an_inspired_roll_with_ashigaru_attack_at_two():
    # "nothing, not even a Dragon card, raises that": 3 dice + Ashigaru Attack + a Leader's inspiration
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp", leader = "foot" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """
    s = position(body, red_dragons=["ashigaru-attack"], blue_dragons=["practice-of-aikido"])
    s = with_command(s, "order-three-center", "dragon ashigaru-attack")
    s = act(s, "order L3", "done", "end-move")
    s = act(s.apply("attack L3 M4"), "dragon practice-of-aikido")
    assert s.legal_actions() == ["inspire", "no-inspire"]
    s, evs = run(s, "inspire", dice="c c c c c c")
    assert rolls(evs)[0] == 2
    assert s.honor[RED] == 5 - 1 - 1  # Ashigaru Attack and the inspiration are still paid


def test_dragon_practice_of_aikido_is_not_raised_by_desperate_charge_played_after_it():
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SSp", blocks = 1 }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """, red_dragons=["desperate-charge"], blue_dragons=["practice-of-aikido"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(s.apply("attack L3 M4"), "dragon practice-of-aikido")
    assert s.to_move() == RED and s.legal_actions() == ["dragon desperate-charge", "pass"]
    s, evs = run(s, "dragon desperate-charge", dice="c c c c c c")
    assert rolls(evs)[0] == 2


def test_dragon_cowardice_the_enemy_unit_may_not_ignore_any_flag():
    # "before you roll, 1 enemy unit: may not ignore any flag for the rest of the turn"
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "SSp" }, { at = "F9", unit = "SSp" }]
    """, red_dragons=["cowardice"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = declare(s, "L3", "M4")
    assert s.to_move() == RED
    # R34: any enemy unit may be its target
    assert dragon_actions(s) == ["dragon cowardice F9", "dragon cowardice M4"]
    s = act(s, "dragon cowardice M4", dice="f c c")
    assert s.to_move() == BLUE and all(a.startswith("retreat ") for a in s.legal_actions())


def test_dragon_cowardice_beats_bravery_played_after_it():
    # Cowardice: "not even through a Dragon card" -- Bravery comes second but does not win.
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }, { at = "P3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }, { at = "O4", unit = "SSp" }]
    """, red_dragons=["cowardice"], blue_dragons=["bravery"])
    s = act(s, "play order-three-center", "order L3", "order P3", "end-move")
    s = act(s.apply("attack L3 M4"), "pass", "dragon cowardice O4", dice="c c c " + "c c c")
    s = act(s, "battle-back")
    s = s.apply("attack P3 O4")
    assert s.to_move() == BLUE and "dragon bravery" in s.legal_actions()
    s, evs = run(s, "dragon bravery", dice="f c c")
    assert any(e.kind == "dragon" and e.data["slug"] == "bravery" for e in evs)
    assert not any(a.startswith("ignore") for a in s.legal_actions())
    assert s.to_move() == BLUE and all(a.startswith("retreat ") for a in s.legal_actions())


def test_dragon_cowardice_beats_brave_leader_played_after_it():
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", leader = "foot" }]
    """, red_dragons=["cowardice"], blue_dragons=["brave-leader"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(skip_pass(s.apply("attack L3 M4")), "dragon cowardice M4", dice="f c c")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon brave-leader", "pass"]
    s = act(s, "dragon brave-leader")
    assert not any(a.startswith("ignore") for a in s.legal_actions())


def test_dragon_desperate_charge_a_single_block_unit_rolls_one_more_die():
    # "before you roll, 1 of your units reduced to a single block: +1 close combat die"
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp", blocks = 1 }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """, red_dragons=["desperate-charge"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = declare(s, "L3", "M4")
    assert s.to_move() == RED and s.legal_actions() == ["dragon desperate-charge", "pass"]
    s, evs = run(s, "dragon desperate-charge", dice="c c c c")
    assert rolls(evs)[0] == 3 + 1
    assert s.honor[RED] == 5  # it costs nothing


def test_dragon_desperate_charge_costs_nothing_and_is_offered_with_an_empty_reserve():
    # Cost 0: "Some Dragon cards have a zero Honor & Fortune cost to play."
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "ASp", blocks = 1 }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """, red_dragons=["desperate-charge"], red_honor=0)
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = declare(s, "L3", "M4")
    assert s.legal_actions() == ["dragon desperate-charge", "pass"]
    s = act(s, "dragon desperate-charge", dice="c c c c")
    assert s.honor[RED] == 0 and s.dragon_tokens == 0


def test_dragon_desperate_charge_a_single_block_unit_battling_back_rolls_one_more_die():
    # Reading: "before you roll" is also the defender's roll when he battles back (000: the battle
    # back "determines the proper number of dice ... including ... Dragon card dice adjustments").
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SSp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }]
    """, blue_dragons=["desperate-charge"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(s, "attack L3 M4", dice="c c c c")
    s = s.apply("battle-back")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon desperate-charge", "pass"]
    s, evs = run(s, "dragon desperate-charge", dice="c c c c")
    assert rolls(evs) == [3 + 1]


def test_dragon_desperate_charge_is_not_offered_to_a_unit_with_more_blocks():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["desperate-charge"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = declare(s.with_forced_dice(parse_faces("c c c")), "L3", "M4")
    assert not any(a.startswith("dragon") for a in s.legal_actions())  # the 4-block unit rolled at once


def test_dragon_strike_fear_each_flag_against_the_unit_counts_as_two():
    # "the enemy unit you attack: each flag rolled against it counts as 2 flags"
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["strike-fear"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = declare(s, "L3", "M4")
    s, evs = run(s, "dragon strike-fear", dice="f c c")
    due = of_kind(evs, "retreat_due")
    assert len(due) == 1 and "must retreat 2 hexes" in due[0].text


def test_dragon_strike_fear_doubled_flags_may_still_be_ignored_by_the_units_nature():
    s = position(DUEL.format(red="ASp", blue="SSp"), red_dragons=["strike-fear"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(declare(s, "L3", "M4"), "dragon strike-fear", dice="f c c")
    assert s.legal_actions() == ["ignore 0", "ignore 1"]
    s, evs = run(s, "ignore 1")
    assert any("must retreat 1 hex" in e.text for e in of_kind(evs, "retreat_due"))


def test_dragon_head_collector_each_honor_symbol_gains_two_tokens():
    # "1 ordered unit of yours with an attached Leader: each H&F symbol it rolls this turn gains 2"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp", leader = "foot" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp" }]
    """
    s = position(body, red_dragons=["head-collector"])
    s = act(s, "play order-three-center", "order L3", "done", "end-move")
    s = act(declare(s, "L3", "M4"), "no-inspire")
    assert s.to_move() == RED and s.legal_actions() == ["dragon head-collector", "pass"]
    s = act(s, "dragon head-collector", dice="h h c")
    assert s.honor[RED] == 5 - 1 + 2 * 2
    assert hf_total(s) == POOL_TOTAL


def test_dragon_head_collector_doubles_the_honor_of_the_units_bonus_close_combat_too():
    # "... each H&F symbol it rolls this turn": the bonus close combat after gaining ground as well
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp", leader = "foot" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }, { at = "O4", unit = "ASp" }]
    """
    s = position(body, red_dragons=["head-collector"], victory=9)
    s = act(s, "play order-three-center", "order L3", "done", "end-move")
    s = act(declare(s, "L3", "M4"), "no-inspire", "dragon head-collector", dice="x h c")
    assert unit(s, "M4") is None and s.honor[RED] == 5 - 1 + 2
    s = act(s, "advance")
    assert "bonus O4" in s.legal_actions()
    s = act(s, "bonus O4", dice="h c c")
    if s.legal_actions() == ["inspire", "no-inspire"]:
        s = act(s, "no-inspire")
    assert s.honor[RED] == 5 - 1 + 2 + 2
    assert hf_total(s) == POOL_TOTAL


def test_dragon_head_collector_is_not_offered_without_an_attached_leader():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["head-collector"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = declare(s.with_forced_dice(parse_faces("c c c")), "L3", "M4")
    assert not any(a.startswith("dragon") for a in s.legal_actions())


def test_dragon_spirit_of_hachiman_rerolls_all_the_dice_and_the_second_roll_stands():
    # "after you roll (close combat), your attacking unit: reroll all the dice; the second roll stands"
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["spirit-of-hachiman"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = skip_pass(s.with_forced_dice(parse_faces("c c c " + "t t x")).apply("attack L3 M4"))
    assert s.to_move() == RED and s.legal_actions() == ["dragon spirit-of-hachiman", "pass"]
    s, evs = run(s, "dragon spirit-of-hachiman")
    assert rolls(evs) == [3]  # the reroll, with as many dice
    assert unit(s, "M4").blocks == 1


def test_dragon_spirit_of_hachiman_is_not_offered_after_a_ranged_roll():
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SB" }]
        [blue]
        pieces = [{ at = "L5", unit = "SSp" }]
    """, red_dragons=["spirit-of-hachiman"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s, evs = run(s, "fire L3 L5", dice="c c c")
    assert rolls(evs) == [3] and not s.ti["dragon_played"][RED]
    assert dragon_slugs(s, RED) == ["spirit-of-hachiman"]


def test_dragon_brave_leader_a_unit_with_its_leader_ignores_every_flag_of_the_roll():
    # "after enemy rolls, 1 of your units with an attached Leader: ignores every flag of that roll"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", leader = "foot" }]
    """

    def rolled(dragon: str) -> CCState:
        s = position(body, blue_dragons=["brave-leader"])
        s = act(s, "play order-three-center", "order L3", "end-move")
        s = skip_pass(s.with_forced_dice(parse_faces("f f c")).apply("attack L3 M4"))
        assert s.to_move() == BLUE and s.legal_actions() == ["dragon brave-leader", "pass"]
        return act(s, dragon)

    assert rolled("pass").legal_actions() == ["ignore 0", "ignore 1"]  # the Leader's 1 flag
    assert rolled("dragon brave-leader").legal_actions() == ["ignore 0", "ignore 1", "ignore 2"]


def test_dragon_brave_leader_is_not_offered_to_a_unit_without_a_leader():
    s = position(DUEL.format(red="ASp", blue="ASp"), blue_dragons=["brave-leader"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = skip_pass(s.with_forced_dice(parse_faces("f f c")).apply("attack L3 M4"))  # no card fits: to the flags
    assert not any(a.startswith("dragon") for a in s.legal_actions()) and s.stack[-1]["t"] == "retreat"


def test_dragon_shot_proof_armor_ignores_every_die_of_a_ranged_attack():
    # "after enemy rolls (ranged), your unit under ranged fire: ignores every die of that attack"
    body = """
        [red]
        pieces = [{ at = "L3", unit = "SB" }]
        [blue]
        pieces = [{ at = "L5", unit = "SSp" }]
    """
    s = position(body, blue_dragons=["shot-proof-armor"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = act(s, "fire L3 L5", dice="s f h")
    assert s.to_move() == BLUE and s.legal_actions() == ["dragon shot-proof-armor", "pass"]
    s, evs = run(s, "dragon shot-proof-armor")
    assert unit(s, "L5").blocks == 4 and unit(s, "L5").side == BLUE  # no hit, no retreat
    assert s.honor == [5, 5 - 1]  # the bowmen's H&F symbol is ignored too
    assert not of_kind(evs, "retreat_due") and not of_kind(evs, "blocks")


def test_dragon_shot_proof_armor_after_the_second_hold_and_shoot_fire_cancels_both():
    # "against Hold and Shoot it may be played after the second shot to cancel both"
    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SB" }]
        [blue]
        pieces = [{ at = "L5", unit = "SSp" }]
    """, blue_dragons=["shot-proof-armor"],
        red_hand=["hold-and-shoot", "order-two-center", "order-three-left", "order-three-right", "advance-center"])
    s = act(s, "play hold-and-shoot", "order L3")
    s = act(s, "fire L3 L5", dice="s s c")
    assert s.legal_actions() == ["dragon shot-proof-armor", "pass"]
    s = act(s, "pass")
    assert unit(s, "L5").blocks == 2
    s = act(s, "fire L3 L5", dice="c c c")
    assert s.to_move() == BLUE and "dragon shot-proof-armor" in s.legal_actions()
    s = act(s, "dragon shot-proof-armor")
    assert unit(s, "L5").blocks == 4


def test_dragon_shot_proof_armor_is_not_offered_in_close_combat():
    s = position(DUEL.format(red="ASp", blue="ASp"), blue_dragons=["shot-proof-armor"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s = s.with_forced_dice(parse_faces("t c c")).apply("attack L3 M4")
    assert not any(a.startswith("dragon") for a in s.legal_actions()) and s.stack[-1].get("step") != "after_def"


def test_dragon_revenge_battles_back_with_as_many_dice_as_the_attacker_rolled():
    # "before battle back, your unit battling back: battles back with as many dice as the attacker rolled"
    s = position(DUEL.format(red="SSp", blue="ASp"), blue_dragons=["revenge"])
    s = act(s, "play order-three-center", "order L3", "end-move")
    s, evs = run(s, "attack L3 M4", dice="c c c c")
    assert rolls(evs) == [4]
    assert s.legal_actions() == ["battle-back", "dragon revenge", "no-battle-back"]
    s, evs = run(s, "dragon revenge", dice="c c c c")
    assert rolls(evs) == [4]  # an Ashigaru Spearmen unit battles back with 3


# ======================================================== general rules
def test_dragon_cost_is_paid_onto_the_card_and_returns_to_the_pool_at_the_end_of_the_turn():
    # "Remove the required number of H&F tokens out of your reserve, temporarily placing those
    # tokens on the Dragon card. At the end of the game turn, return the tokens ... to the pool"
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["panic"])
    pool = s.pool
    s = with_command(s, "order-three-center", "dragon panic")
    assert s.honor[RED] == 5 - 3 and s.dragon_tokens == 3 and s.pool == pool
    assert hf_total(s) == POOL_TOTAL
    evs: list[Event] = []
    s = finish_turn(act(s, "order L3", "end-move"), evs)  # takes 2 H&F at the end of the turn
    assert s.dragon_tokens == 0 and s.pool == pool + 3 - 2
    assert any("3 Honor & Fortune on the Dragon cards go back to the pool" in e.text for e in evs)
    assert hf_total(s) == POOL_TOTAL


def test_dragon_card_played_is_discarded_at_the_end_of_the_turn():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["panic", "tea-ceremony"])
    (did,) = [d for d in s.dragons[RED] if s.t.dragon_ids[d] == "panic"]
    s = with_command(s, "order-three-center", "dragon panic")
    assert dragon_slugs(s, RED) == ["tea-ceremony"]
    assert did not in s.dr_discard and did in s.ti["dragons_in_play"]
    s = finish_turn(act(s, "order L3", "end-move"))
    assert did in s.dr_discard and dragon_slugs(s, RED) == ["tea-ceremony"]


def test_dragon_defenders_card_is_discarded_and_its_tokens_return_at_the_end_of_the_active_turn():
    s = position(DUEL.format(red="ASp", blue="ASp"), blue_dragons=["followers-of-bishamon", "bravery"])
    (did,) = [d for d in s.dragons[BLUE] if s.t.dragon_ids[d] == "followers-of-bishamon"]
    s = act(s, "play order-three-center", "dragon followers-of-bishamon")
    assert s.honor[BLUE] == 5 - 3 and s.dragon_tokens == 3
    s = finish_turn(act(s, "order L3", "end-move"))
    assert s.active == BLUE and did in s.dr_discard and dragon_slugs(s, BLUE) == ["bravery"]
    assert s.dragon_tokens == 0 and s.honor[BLUE] == 5 - 3  # not replenished in Red's turn
    assert hf_total(s) == POOL_TOTAL


def test_dragon_one_card_per_player_per_turn_no_further_window_for_that_player():
    # "The active player may only play 1 Dragon card during the active player's turn.
    # The defending player may only play 1 Dragon card during the active player's game turn."
    body = """
        [red]
        pieces = [{ at = "L3", unit = "ASp", blocks = 1 }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", leader = "foot" }]
    """
    s = position(body, red_dragons=["ashigaru-attack", "desperate-charge", "spirit-of-hachiman"],
                 blue_dragons=["bravery", "brave-leader", "revenge"], red_honor=10, blue_honor=10)
    s = with_command(s, "order-three-center", "dragon ashigaru-attack")
    s = act(s, "order L3", "end-move")
    assert not dragon_actions(s)
    s = s.apply("attack L3 M4")
    assert s.to_move() == BLUE and "dragon bravery" in s.legal_actions()
    # Red is asked neither before nor after his roll; Blue not after the roll nor before battle back
    s, evs = run(s, "dragon bravery", dice="c c c c " + "c c c")
    assert rolls(evs) == [4]
    assert s.to_move() == BLUE and s.legal_actions() == ["battle-back", "no-battle-back"]
    assert dragon_slugs(s, RED) == ["desperate-charge", "spirit-of-hachiman"]
    assert dragon_slugs(s, BLUE) == ["brave-leader", "revenge"]
    assert s.ti["dragon_played"] == [True, True]


def test_dragon_card_cannot_be_played_without_enough_honor_and_fortune():
    # "Dragon cards cannot be played if there are insufficient Honor and Fortune tokens"
    poor = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["panic"], red_honor=2)
    poor = poor.apply("play order-three-center")
    assert poor.legal_actions() == ["pass"]  # Panic cannot be paid (R32: the window opens all the same)
    rich = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["panic"], red_honor=3)
    rich = rich.apply("play order-three-center")
    assert rich.legal_actions() == ["dragon panic", "pass"]


def test_dragon_window_opens_on_public_facts_and_offers_only_the_cards_that_fit():
    # R32 (issue 30): each window opens whatever the hand holds, so the question reveals
    # nothing; Red's Revenge and Blue's Shot Proof Armor (ranged only) fit none of these
    # windows, so their only answer is "pass"
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["revenge"], blue_dragons=["shot-proof-armor"])
    s = s.apply("play order-three-center")
    assert (s.stack[-1]["t"], s.to_move(), s.legal_actions()) == ("dragon", RED, ["pass"])
    s = act(s, "pass", "order L3", "end-move")
    s = s.with_forced_dice(parse_faces("c c c")).apply("attack L3 M4")
    asked = []
    while s.legal_actions() == ["pass"]:
        asked.append((s.to_move(), s.stack[-1].get("step")))
        s = s.apply("pass")
    # declared (Blue, with First Strike's question), before the roll (Red: Strike Fear could
    # fit), after it (Red: Spirit of Hachiman could); after the enemy's roll nothing of Blue's
    # could fit (Brave Leader needs an attached Leader, Shot Proof Armor ranged fire)
    assert asked == [(BLUE, "react"), (RED, "prep"), (RED, "after_att")]
    assert s.to_move() == BLUE and s.legal_actions() == ["battle-back", "no-battle-back"]


def test_dragon_window_is_not_asked_to_a_player_without_dragon_cards():
    s = position(DUEL.format(red="ASp", blue="ASp"), blue_dragons=["followers-of-bishamon"])
    s = s.apply("play order-three-center")
    assert s.to_move() == BLUE and s.stack[-1]["w"] == "after-enemy-command"  # Red was not asked
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["panic"])
    s = act(s.apply("play order-three-center"), "pass")
    assert s.to_move() == RED and s.legal_actions() == ["order L3", "done"]  # Blue was not asked


def test_dragon_followers_of_bishamon_played_second_overrides_panic():
    # "when two cards contradict, the one played second wins" -- Panic, then Followers of Bishamon
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["panic"], blue_dragons=["followers-of-bishamon"])
    s = with_command(s, "order-three-center", "dragon panic")
    s = act(s, "dragon followers-of-bishamon", "order L3", "end-move")
    s = act(s, "attack L3 M4", dice="f f c")
    assert s.to_move() == BLUE and s.legal_actions() == ["ignore 0", "ignore 1", "ignore 2"]
    assert hf_total(s) == POOL_TOTAL and s.dragon_tokens == 6


def test_dragon_bravery_played_second_overrides_panic():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["panic"], blue_dragons=["bravery"])
    s = with_command(s, "order-three-center", "dragon panic")
    s = act(s, "order L3", "end-move")
    s = act(s.apply("attack L3 M4"), "dragon bravery", dice="f c c")
    assert s.legal_actions() == ["ignore 0", "ignore 1"]


DECK_COSTS = {  # dragon-cards.md: cost and copies of every card the release implements
    "ashigaru-attack": (1, 1), "blue-dragon": (1, 1), "brave-leader": (1, 2), "bravery": (1, 1),
    "cowardice": (1, 1), "desperate-charge": (0, 1), "fire-arrows": (1, 1), "fire-in-the-rain": (1, 1),
    "followers-of-bishamon": (3, 1), "head-collector": (1, 1), "forced-march": (1, 1),
    "move-as-the-wind": (2, 1), "ninja-assassin": (2, 1), "panic": (3, 1), "physician": (1, 1),
    "practice-of-aikido": (1, 1), "red-dragon": (3, 1), "revenge": (1, 1), "rice-famine": (2, 1),
    "shot-proof-armor": (1, 1), "spirit-of-hachiman": (1, 1), "strike-fear": (2, 1), "tea-ceremony": (1, 1),
    "white-dragon": (2, 1), "white-fox-spirit": (3, 1),
}


@pytest.mark.parametrize("slug", sorted(DECK_COSTS))
def test_dragon_card_cost_and_copies_follow_the_ruling(slug):
    s = position(DUEL.format(red="ASp", blue="ASp"))
    card = s.t.dragon[slug]
    assert (card.cost, card.copies) == DECK_COSTS[slug]
    assert dragons.implemented(slug)


def test_dragon_deck_holds_exactly_the_implemented_cards():
    # R33: the Dragon deck holds the cards whose effects are implemented, with all their copies
    s = position(DUEL.format(red="ASp", blue="ASp"))
    dealt = s.dr_deck + s.dragons[RED] + s.dragons[BLUE]
    got = sorted(s.t.dragon_ids[d] for d in dealt)
    want = sorted(slug for slug in dragons.CARDS for _ in range(s.t.dragon[slug].copies))
    assert got == want
    assert set(DECK_COSTS) <= set(dragons.CARDS)


def test_dragon_honor_and_fortune_total_stays_thirty_through_a_turn_of_dragon_cards():
    s = position(DUEL.format(red="ASp", blue="ASp"), red_dragons=["rice-famine"],
                 blue_dragons=["bravery"], red_honor=4, blue_honor=2)
    states = [s]
    s = s.apply("play order-three-center")
    # 5 unit symbols: Blue pays 2 and rolls 4 + 3 dice of Lack of Honor; its triangle costs M4 a block
    s = act(s, "dragon rice-famine", dice="c c c c c " + "t f f f f f f")
    states.append(s)
    assert s.honor == [4 - 2, 0] and unit(s, "M4").blocks == 3
    s = act(s, "order L3", "end-move")
    s, evs = run(s, "attack L3 M4", dice="h h c")  # Blue cannot pay for Bravery any more
    assert any(e.kind == "honor" and e.data.get("amount") == 2 for e in evs)
    states.append(s)
    s = act(s, "no-battle-back")
    states.append(s)
    s = finish_turn(s)
    states.append(s)
    assert [hf_total(x) for x in states] == [POOL_TOTAL] * len(states)
    assert s.dragon_tokens == 0
