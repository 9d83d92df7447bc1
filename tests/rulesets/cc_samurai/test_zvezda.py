"""Rule tests: Samurai Battles (Zvezda, 2012), the earlier edition, as the game ``cc-samurai-zvezda``.

Every difference from the GMT rules is shown in the same position (same hexes, same forced
dice) under both editions, citing seed 004 and facts.md, with the rulings R36-R46.
Red is at the bottom (baseline row 1), Blue at the top (baseline row 11).
"""

from __future__ import annotations

import pytest

from kassen.engine.errors import FormatError
from kassen.rulesets.cc_samurai import honor
from kassen.rulesets.cc_samurai.data import load_tables
from kassen.rulesets.cc_samurai.state import POOL_TOTAL
from kassen.rulesets.registry import load_game
from tests.rulesets.cc_samurai.helpers import (
    GAME,
    ZVEZDA,
    act,
    leader,
    position,
    run,
    skip_pass,
    unit,
)
from tests.rulesets.cc_samurai.test_orders_retreats_honor import of_kind, start_battle

RED, BLUE = 0, 1
EDITIONS = pytest.mark.parametrize("game", [GAME, ZVEZDA], ids=["gmt", "zvezda"])


def both(body: str, **kw):
    """The same position under the GMT and the Zvezda rules."""
    return position(body, game=GAME, **kw), position(body, game=ZVEZDA, **kw)


# ------------------------------------------------------------------ the game
def test_zvezda_edition_is_the_game_cc_samurai_zvezda():
    game = load_game("cc-samurai-zvezda")
    assert game.name == "Samurai Battles (Zvezda)"
    assert game.seats == ("Red", "Blue")
    state = game.new_state(None, 3)
    assert state.scenario_name == "First Samurai Skirmish (Zvezda)"
    assert state.legal_actions()  # Red plays a card


# ------------------------------------------------------------ units (facts.md)
def test_zvezda_units_roster_naginata_mounted_samurai_yari_bow_arquebus_and_commanders_unit():
    # facts.md: "Ashigaru spearmen (triangle), Ashigaru bowmen and arquebusiers (circle), Samurai
    # infantry with naginata (square), mounted Samurai (square) ... No Samurai bowmen, bow cavalry or levies."
    z = load_tables("zvezda").units
    assert set(z) == {"SN", "SC", "ASp", "AB", "AA", "BG"}
    assert (z["SN"].symbol, z["SN"].cavalry) == ("square", False)
    assert (z["SC"].symbol, z["SC"].cavalry) == ("square", True)
    assert z["ASp"].symbol == "triangle"
    assert z["AB"].symbol == z["AA"].symbol == "circle"
    gmt = load_tables("gmt").units
    assert {"SB", "SBC", "LI"} <= set(gmt) and not {"SB", "SBC", "LI"} & set(z)


def test_zvezda_battle_dice_by_rank_circle_two_triangle_three_square_four():
    # 004: "A unit with a circle on its standard rolls 2 dice / triangle ... 3 dice / square ... 4 dice"
    z = load_tables("zvezda").units
    for code, ut in z.items():
        if not ut.bodyguard:
            assert ut.close == {"circle": 2, "triangle": 3, "square": 4}[ut.symbol], code
    # GMT's Samurai bowmen carry a square but roll 3: the rank rule is Zvezda's.
    assert load_tables("gmt").units["SB"].close == 3


def test_zvezda_movement_by_rank():
    # 004 "Announce Close Combat": circle infantry moves 1-2 and battles; triangle moves 1 and battles
    # or 2 without battle; square infantry 1 and battles; square cavalry 1-2 and battles.
    z = load_tables("zvezda").units
    assert (z["AB"].move, z["AB"].battle_move) == (2, 2)
    assert (z["ASp"].move, z["ASp"].battle_move) == (2, 1)
    assert (z["SN"].move, z["SN"].battle_move) == (1, 1)
    assert (z["SC"].move, z["SC"].battle_move) == (2, 2)
    # the arquebus: "When an Ashigaru infantry harquebus unit moves, it may not engage in ranged combat."
    assert z["AA"].battle_move == 0


def test_zvezda_ranged_dice_bow_range_three_two_dice_one_after_moving_arquebus_range_four():
    # 004: bow "(two hexes to target, 2 dice) (three hexes to target, 2 dice) ... moves ... one die";
    # arquebus "(two hexes, 2 dice) (three hexes, 2 dice) (four hexes, 1 die)".
    z = load_tables("zvezda").units
    assert z["AB"].ranged == {2: 2, 3: 2} and z["AB"].ranged_moved == 1
    assert z["AA"].ranged == {2: 2, 3: 2, 4: 1} and z["AA"].ranged_sword_hits


def test_zvezda_mounted_samurai_collects_honor_against_lower_ranks_gmt_cavalry_does_not():
    """R37. 004 "For each honor & fortune symbol rolled in close combat collect one honor & fortune
    token" has no cavalry exception; GMT's Samurai cavalry collects none against triangle or circle."""
    body = """
        [red]
        pieces = [{{ at = "G6", unit = "{cav}" }}]
        [blue]
        pieces = [{{ at = "F7", unit = "ASp" }}]
    """
    g = position(body.format(cav="SSpC"), game=GAME)
    z = position(body.format(cav="SC"), game=ZVEZDA)
    g, _ = start_battle(g, "G6", "F7", "h h c c")
    z, _ = start_battle(z, "G6", "F7", "h h c c")
    assert g.honor[RED] == 5
    assert z.honor[RED] == 7


# ---------------------------------------------------------------- ranged combat
def test_zvezda_bow_cannot_hit_a_lone_leader_at_range_gmt_bow_can():
    """R36. 004 "Leader Alone in a Hex": "A range weapon bow unit cannot hit a lone leader in ranged
    combat, because it does not score a hit when it rolls a sword". 000:985: a bow "when attacking a
    lone leader will score a hit"."""
    body = """
        [red]
        pieces = [{ at = "F3", unit = "AB" }]
        [blue]
        pieces = [{ at = "F5", leader = "foot" }]
    """
    g, z = both(body)
    g, _ = start_battle(g, "F3", "F5", "x x", verb="fire")
    z, evs = start_battle(z, "F3", "F5", "x x", verb="fire")
    assert leader(g, "F5") is None and g.banners[RED] == 1
    assert leader(z, "F5") is not None and z.banners[RED] == 0
    assert of_kind(evs, "no_sword_hits")
    # not hit, the lone Leader must still retreat or commit seppuku
    assert z.to_move() == BLUE and "seppuku" in z.legal_actions()


@EDITIONS
def test_zvezda_arquebus_hits_a_lone_leader_at_range_in_both_editions(game):
    # 004: "A arquebus unit can hit a lone leader in ranged combat, because it does score a hit when it
    # rolls a sword symbol in ranged combat."
    s = position("""
        [red]
        pieces = [{ at = "F3", unit = "AA" }]
        [blue]
        pieces = [{ at = "F5", leader = "foot" }]
    """, game=game)
    s, _ = start_battle(s, "F3", "F5", "x c", verb="fire")
    assert leader(s, "F5") is None and s.banners[RED] == 1


# ------------------------------------------------------------------- retreats
def test_zvezda_units_never_retreat_onto_side_half_hexes_gmt_units_may():
    """R40. 004: "A unit may never retreat onto any half-hexes that border the side of the
    battlefield." GMT (R5): units may retreat onto half-hexes. B9's way back is A10 (half-hex) or C10
    (taken), so the GMT unit retreats to A10 and the Zvezda unit loses a block instead."""
    body = """
        [red]
        pieces = [{ at = "C8", unit = "ASp" }]
        [blue]
        pieces = [{ at = "B9", unit = "ASp" }, { at = "C10", unit = "ASp" }]
    """
    g, z = both(body)
    g, _ = start_battle(g, "C8", "B9", "f c c")
    z, evs = start_battle(z, "C8", "B9", "f c c")
    assert unit(g, "A10") is not None and unit(g, "B9") is None and unit(g, "A10").blocks == 4
    assert unit(z, "A10") is None and unit(z, "B9").blocks == 3
    assert of_kind(evs, "retreat_blocked")


def test_zvezda_baseline_half_hexes_are_not_legal_retreat_hexes_ruling_r40():
    """R40: on Kassen's board (R1) the baselines are full rows; the only half-hexes are those of the
    side edges, which no Zvezda retreat may enter. A unit on its baseline cannot retreat at all."""
    s = position("""
        [red]
        pieces = [{ at = "C10", unit = "ASp" }]
        [blue]
        pieces = [{ at = "B11", unit = "ASp" }]
    """, game=ZVEZDA)
    assert not any(s.b.is_half(h) and s.b.row(h) in (0, s.b.rows - 1) for h in s.b)
    s, _ = start_battle(s, "C10", "B11", "f c c")
    assert unit(s, "B11").blocks == 3


# ---------------------------------------------------------------- lone Leaders
def test_zvezda_lone_leader_on_his_baseline_may_retreat_off_to_save_his_standard_gmt_must_commit_seppuku():
    """R41. 004 "Leader Retreat from the Battlefield": "a leader not with a unit may retreat off his
    side of the battlefield ... does not give the opponent a victory banner". 000:990 "When a lone
    Leader is on its friendly baseline hex and has to retreat, the Leader must commit seppuku."
    004: "When a lone leader is at the friendly map edge hex, he must retreat off the battlefield or
    commit Seppuku." """
    body = """
        [red]
        pieces = [{ at = "G10", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F11", leader = "foot" }]
    """
    g, z = both(body, blue_honor=5)
    g, gev = start_battle(g, "G10", "F11", "c f t")
    z, _ = start_battle(z, "G10", "F11", "c f t")
    assert of_kind(gev, "seppuku") and leader(g, "F11") is None
    assert z.to_move() == BLUE and z.legal_actions() == ["retreat off", "seppuku"]
    z = act(z, "retreat off")
    assert leader(z, "F11") is None
    assert z.banners[RED] == 0  # no Victory Banner for the enemy
    assert z.honor[BLUE] == 2  # a lone Leader who retreats loses 3 Honor & Fortune
    assert {"side": BLUE, "piece": z.removed[-1]["piece"], "cause": "off", "type": "foot"} == z.removed[-1]
    assert z.legal_actions() == ["advance", "stay"]  # the attacker may gain ground


def test_zvezda_lone_leader_may_retreat_off_within_his_three_retreat_hexes():
    # 004: "provided he has enough retreat movement. The retreat move off of his side of the board from a
    # hex adjacent to the board side is considered one hex of retreat movement."
    g, z = both("""
        [red]
        pieces = [{ at = "G8", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F9", leader = "foot" }]
    """)
    g, _ = start_battle(g, "G8", "F9", "c f t")
    z, _ = start_battle(z, "G8", "F9", "c f t")
    assert "retreat off" not in g.legal_actions()
    assert "retreat off" in z.legal_actions() and "retreat E10" in z.legal_actions()
    # three rows from the baseline, the step off would be his fourth hex: not allowed
    far = position("""
        [red]
        pieces = [{ at = "G6", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F7", leader = "foot" }]
    """, game=ZVEZDA)
    far, _ = start_battle(far, "G6", "F7", "c f t")
    assert "retreat off" not in far.legal_actions() and "retreat G10" in far.legal_actions()


# --------------------------------------------------------------- Lack of Honor
def test_zvezda_lack_of_honor_is_a_flat_four_dice_thrown_by_the_opponent_gmt_adds_a_die_per_token_short():
    """R39. 004: "The opposition player will roll a 'Lack of Honor' roll of 4 dice". 000:1076: "4 dice,
    plus 1 additional die for each Honor & Fortune token that could not be paid." Two flags, no tokens:
    the Ashigaru retreat costs 2 tokens it cannot pay."""
    body = """
        [red]
        pieces = [{ at = "G6", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F7", unit = "ASp" }]
    """
    g, z = both(body, blue_honor=0)
    dice = "f f c h h h h h h"
    g, gev = start_battle(g, "G6", "F7", dice)
    z, zev = start_battle(z, "G6", "F7", dice)
    g, more = run(g, "retreat E8", "retreat D9")
    gl = of_kind(gev + more, "lack_of_honor")
    z, more = run(z, "retreat E8", "retreat D9")
    zl = of_kind(zev + more, "lack_of_honor")
    assert len(gl[0].data["faces"]) == 6
    assert len(zl[0].data["faces"]) == 4
    assert "Red rolls 4 dice against it" in zl[0].text
    assert g.honor[BLUE] == z.honor[BLUE] == 0
    assert g.honor[BLUE] + g.honor[RED] + g.pool == POOL_TOTAL == z.honor[BLUE] + z.honor[RED] + z.pool


@EDITIONS
def test_zvezda_lack_of_honor_from_dragon_card_play_dice(game):
    # 004 "Lack of Honor Roll": "the player must lose what tokens he has ... The opposition player will
    # roll a 'Lack of Honor' roll of 4 dice" -- for a retreat "or caused by the action of a Dragon card".
    s = position("""
        [red]
        pieces = [{ at = "G6", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F7", unit = "ASp" }]
    """, game=game)
    assert honor.loh_dice(s, 3) == (7 if game is GAME else 4)


# ----------------------------------------------------------------- inspiration
@EDITIONS
def test_zvezda_inspired_unit_ignores_its_first_honor_symbol_same_count_as_gmt_ruling_r43(game):
    """R43. 004: "the first honor & fortune symbol rolled during the combat will not gain the player an
    honor & fortune token"; 000:888 "collect 1 less Honor & Fortune token than the number ... rolled".
    The two wordings give the same count: both editions collect one token fewer."""
    s = position("""
        [red]
        pieces = [{ at = "G6", unit = "ASp", leader = "foot" }]
        [blue]
        pieces = [{ at = "F7", unit = "ASp" }]
    """, game=game)
    s = act(s, "play order-three-left", "order G6", "done", "end-move")
    s = skip_pass(s.apply("attack G6 F7"))  # First Strike's question: Blue holds none
    assert "inspire" in s.legal_actions()
    s = act(s, "inspire", dice="h h c c")
    # 5 tokens, 1 spent to inspire, 2 symbols rolled, the first ignored: 5 - 1 + 1
    assert s.honor[RED] == 5


# --------------------------------------------------------------- command tent
def test_zvezda_command_tent_left_empty_is_removed_at_once_gmt_waits_for_an_enemy_unit_in_it():
    """R42. facts.md: "Command tent: always occupied, hence impassable; when left empty the enemy
    removes it (3 banners and a random Command card discard)". 000:547: removed when an enemy unit
    occupies it at the start of a turn. The last bodyguard falls, the Army Commander survives his
    check and retreats out of the tent."""
    body = """
        [red]
        pieces = [{ at = "K8", unit = "ASp" }]
        [blue]
        tent = "L9"
        pieces = [{ at = "L9", unit = "BG", leader = "commander", blocks = 1 }, { at = "X11", unit = "ASp" }]
    """
    g, z = both(body, victory=6)
    dice = "x c c c c"  # one sword kills the last bodyguard; the casualty check (2 dice) misses
    g, _ = start_battle(g, "K8", "L9", dice)
    z, _ = start_battle(z, "K8", "L9", dice)
    g = act(g, "retreat M10")
    blue_hand = list(z.hands[BLUE])
    z = act(z, "retreat M10")
    assert BLUE in g.tents and g.banners[RED] == 0 and len(g.hands[BLUE]) == 5
    assert BLUE not in z.tents and z.banners[RED] == 3
    assert len(z.hands[BLUE]) == 4 and len(set(blue_hand) - set(z.hands[BLUE])) == 1
    # the hex is plain ground again: the attacker may gain ground onto it
    assert z.legal_actions() == ["advance", "stay"]


def test_zvezda_command_tent_is_always_occupied_scenario_without_its_commander_is_refused():
    # facts.md: "always occupied"; a GMT tent may stand empty (000:1444 "when the command tent is not occupied").
    body = """
        [red]
        pieces = [{ at = "K8", unit = "ASp" }]
        [blue]
        tent = "L9"
        pieces = [{ at = "X11", unit = "ASp" }]
    """
    assert BLUE in position(body, game=GAME).tents
    with pytest.raises(FormatError, match="always occupied"):
        position(body, game=ZVEZDA)


def test_zvezda_command_tent_is_impassable():
    assert load_tables("zvezda").terrain["tent"].impassable
    assert not load_tables("gmt").terrain["tent"].impassable


# ------------------------------------------------------------------ decks
def test_zvezda_command_deck_forty_section_with_five_order_two_center_and_twenty_tactic():
    """R44. facts.md: "60 Command cards (40 Section with Order Two Center x5, 20 Tactic)"."""
    for edition, section, tactic, o2c, shogun in (("gmt", 39, 21, 4, 1), ("zvezda", 40, 20, 5, 0)):
        t = load_tables(edition)
        slugs = list(t.command_ids.values())
        assert len(slugs) == 60
        assert sum(t.command[s].kind == "section" for s in slugs) == section, edition
        assert sum(t.command[s].kind == "tactic" for s in slugs) == tactic, edition
        assert slugs.count("order-two-center") == o2c
        assert slugs.count("shogun") == shogun


def test_zvezda_dragon_deck_thirty_eight_cards_every_title_kept_ruling_r45():
    """R45. facts.md: "38 Dragon cards"; the two left out are second copies (Brave Leader, Tactical
    Decision), so every title stays in the deck."""
    g, z = load_tables("gmt"), load_tables("zvezda")
    assert len(g.dragon_ids) == 40 and len(z.dragon_ids) == 38
    assert set(z.dragon) == set(g.dragon)
    zs = list(z.dragon_ids.values())
    assert zs.count("brave-leader") == 1 and zs.count("tactical-decision") == 1
    state = ZVEZDA.new_state(None, 1)
    assert len(state.dr_deck) + sum(len(d) for d in state.dragons) == 38


# ------------------------------------------------------------ scenario files
def test_zvezda_a_gmt_battle_is_refused_with_the_game_to_play_it_in():
    with pytest.raises(FormatError, match="play it as the game cc-samurai"):
        ZVEZDA.load_scenario("src/kassen/rulesets/cc_samurai/scenarios/nagashino_1575.toml")
    with pytest.raises(FormatError, match="unknown scenario 'nagashino-1575'"):
        ZVEZDA.new_state("nagashino-1575")


def test_zvezda_a_gmt_unit_code_in_a_zvezda_battle_names_the_known_units():
    with pytest.raises(FormatError, match=r"unknown unit 'SSp' \(known: SN, SC, ASp, AB, AA, BG\)"):
        position("""
            [red]
            pieces = [{ at = "K8", unit = "SSp" }]
            [blue]
            pieces = [{ at = "K10", unit = "ASp" }]
        """, game=ZVEZDA)


def test_the_tables_carry_each_editions_rule_flags():
    """The compiled tables keep the edition's flags (``rules``) and a native copy of the one
    read before every automatic step."""
    gmt, zv = load_tables("gmt"), load_tables("zvezda")
    assert (gmt.edition, zv.edition) == ("gmt", "zvezda")
    assert gmt.rules.tent_removed_when_empty is False and zv.rules.tent_removed_when_empty is True
    for t in (gmt, zv):
        assert t.tent_removed_when_empty is t.rules.tent_removed_when_empty
        assert t.command_ids and set(t.command_ids.values()) <= set(t.command)
