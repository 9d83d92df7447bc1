"""The turn sequence (003:37-96): set-up, maintenance, initiative and duel, activation,
order roll, alternating orders, the five reaction cases, Used markers and the extra
activation. Forced dice only."""

from __future__ import annotations

import pytest

from kassen.engine.errors import FormatError, IllegalActionError, KassenError
from kassen.rulesets.kensei.game import KenseiGame
from kassen.rulesets.kensei.rolls import Situation, plan_melee, resolve
from tests.rulesets.kensei.helpers import ROSTER_A, ROSTER_B, play, rosters, start, texts

# secondary missions 3 and 4; Strategy rolls 5+1 against 2+1; terrain 4+1; initiative 6 against 1
SETUP = [3, 4, 5, 2, 4, 6, 1]


def activated(tmp_path, order_dice=(2, 5)):
    """Spears (1 order: 2+1) and Monks (2 orders and Ki: 5+1) are the active units; Spears first."""
    s = play(start(tmp_path, SETUP), "role attacker", "no duel", "first me", "activate spears")
    return s.with_forced_dice(list(order_dice)).apply("activate monks")


def test_preparing_for_battle_strategy_roll_adds_commander_level_and_winner_picks_role(tmp_path):
    s = start(tmp_path, SETUP)
    assert s.d["strategy"] == [6, 3] and s.to_move() == 0
    assert s.legal_actions() == ["role attacker", "role defender"]
    s = s.apply("role defender")
    assert s.d["roles"] == ["defender", "attacker"]


def test_preparing_for_battle_secondary_mission_is_secret_until_the_end(tmp_path):
    s = start(tmp_path, SETUP)
    assert s.observation(0)["secondary_mission_roll"] == [3, None]
    assert s.observation(1)["secondary_mission_roll"] == [None, 4]
    assert s.observation(None)["secondary_mission_roll"] == [None, None]


def test_preparing_for_battle_scenario_rolled_when_not_given(tmp_path):
    s = KenseiGame().new_state(None, 0, rosters=rosters(tmp_path), forced_dice=[5, 1, 1, 4, 3, 2])
    assert s.d["scenario"] == "village-defense"
    assert "Scenario roll 5: Village defense" in texts(s)


def test_initiative_roll_higher_wins_and_a_tie_rolls_again(tmp_path):
    s = start(tmp_path, [3, 4, 5, 2, 1, 4, 4, 2, 5]).apply("role attacker")
    assert s.d["initiative"] == 1 and "a tie, roll again" in texts(s)
    assert s.to_move() == 0 and s.legal_actions() == ["duel", "no duel"]  # the other player may duel


def test_command_duel_won_steals_the_initiative(tmp_path):
    s = play(start(tmp_path, SETUP), "role attacker")
    assert s.to_move() == 1
    s = play(s, "duel", "duel won")
    assert s.d["initiative"] == 1 and s.to_move() == 1 and s.legal_actions() == ["first me", "first opponent"]
    s = play(start(tmp_path, SETUP), "role attacker", "duel", "duel lost")
    assert s.d["initiative"] == 0 and s.to_move() == 0


def test_command_cards_depend_on_army_points_and_commander(tmp_path):
    s = play(start(tmp_path, SETUP, a=ROSTER_A.replace("points = 200", "points = 450").replace(
        '"hattamoto"', '"daimyo"')), "role attacker")
    assert s.d["cards"] == [7, 4]


def test_order_roll_one_two_orders_and_ki(tmp_path):
    s = activated(tmp_path)
    assert s.d["act"]["orders"] == [1, 2] and s.d["act"]["ki"] == [False, True]
    assert "2 + INI 1 = 3: 1 order(s)" in texts(s) and "Ki ability active" in texts(s)


def test_orders_alternate_starting_with_the_first_activator(tmp_path):
    s = activated(tmp_path, (4, 3))  # 2 orders each
    assert s.to_move() == 0
    s = play(s, "strengthen")
    assert s.to_move() == 1  # no reaction needed: the other player orders next
    s = play(s, "shelter")
    assert s.to_move() == 0
    s = play(s, "interact", "interact")
    assert s.d["phase"] == "first"  # next activation round
    assert s.unit(0, "spears")["used"] and s.unit(1, "monks")["used"]


def test_orders_only_one_action_combat_order_per_activation(tmp_path):
    s = activated(tmp_path, (4, 3))
    s = play(s, "charge hero", "reaction flee", "strengthen")
    assert not any(a.split()[0] in ("attack", "charge", "shoot", "disengage") for a in s.legal_actions())


def test_reactions_case_one_no_troop_affected_by_a_move(tmp_path):
    s = activated(tmp_path, (4, 3))
    s = s.apply("move")
    assert s.to_move() == 1 and s.legal_actions()[0] == "no reaction"
    s = s.apply("no reaction")
    assert s.to_move() == 1 and s.d["act"]["orders"] == [1, 2]  # the opponent uses an action order next


def test_reactions_case_five_reactive_troop_spends_an_order_of_the_active_unit(tmp_path):
    s = activated(tmp_path)
    s = s.apply("attack hero")  # the Hero is a reactive unit
    assert s.legal_actions() == ["reaction attack", "reaction flee"]
    s = s.apply("reaction flee")
    assert s.d["act"]["orders"] == [0, 1] and s.unit(1, "hero")["fleeing"]
    assert "hero" in s.d["act"]["ordered"][1]


def test_reactions_case_four_active_unit_may_answer_with_an_action_attack(tmp_path):
    s = activated(tmp_path)
    s = s.apply("charge monks")
    assert s.legal_actions() == ["action attack", "reaction attack", "reaction flee"]
    s = s.apply("action attack")
    assert s.d["act"]["orders"] == [0, 1] and s.d["act"]["combat"] == [True, True]
    assert s.d["combat"]["defence"] == "action"


def test_reactions_case_two_used_troop_must_fight_with_attack_reaction_after_active_units_order(tmp_path):
    s = activated(tmp_path, (4, 3))
    s = play(s, "interact", "interact", "interact", "interact")  # first activation round over
    s = play(s, "first me", "activate bows")
    s = s.with_forced_dice([3, 3]).apply("activate hero")
    s = s.apply("attack monks")  # the Monks carry a Used Unit marker
    assert "must fight with the Attack reaction" in texts(s)
    assert s.to_move() == 1 and "move" in s.legal_actions() and "attack spears" not in s.legal_actions()
    s = s.apply("strengthen")  # the Hero's action order, before the combat
    assert s.d["act"]["orders"] == [1, 1] and s.unit(1, "hero")["strengthen"]
    assert s.d["combat"]["defence"] == "forced"


def test_hand_to_hand_in_play_matches_the_forced_dice_resolver(tmp_path):
    s = activated(tmp_path)
    s = play(s, "attack hero", "reaction attack", "contact 3", "order formed", "position front", "cover no",
             "cover no")
    spears, hero = s.profile(0, "spears"), s.profile(1, "hero")
    sa = Situation(in_contact=3)
    sb = Situation(reaction_attack=True)
    pa, pb = plan_melee(spears, hero, sa, sb), plan_melee(hero, spears, sb, sa)
    assert (pa.dice, pb.dice) == (5, 4)  # the Hero's katana: +1D6 against a polearm, -1D6 reaction
    # spears: 5 dice, 3 impacts, damage 3 5 2; hero: 4 dice, 3 impacts, damage 6 3 1
    dice = [4, 4, 6, 1, 2, 3, 5, 2, 5, 2, 5, 6, 6, 3, 1]
    s = s.with_forced_dice(dice).apply("roll")
    a = resolve(pa, dice[:5], dice[5:8])
    b = resolve(pb, dice[8:12], dice[12:15])
    assert (a.damage.total_wounds, a.damage.stun_wounds) == (2, 1)
    assert (b.damage.wounds, b.damage.stuns_added) == (1, 1)
    assert s.unit(1, "hero")["left"] == a.damage.after.miniatures
    assert s.unit(1, "hero")["wounds"] == a.damage.after.wounds
    assert s.unit(0, "spears")["left"] == b.damage.after.miniatures
    assert not s.forced


def test_combat_resolution_loser_takes_an_honour_roll_and_samurai_may_stay(tmp_path):
    s = activated(tmp_path)
    s = play(s, "attack hero", "reaction attack", "contact 1", "order formed", "position front", "cover no",
             "cover no")
    # spears 3 dice all miss; hero 3 dice, 2 impacts: a wound (5) and a stun (2)... samurai armour -1: 5->4 wounds
    s = s.with_forced_dice([1, 2, 3, 4, 5, 1, 5, 2]).apply("roll")
    assert "Hero (Monks) wins the combat by 1" in texts(s)
    assert s.to_move() == 0 and s.legal_actions() == ["honour pass", "honour fail"]
    s = s.apply("honour fail")
    assert s.legal_actions() == ["samurai stay", "samurai withdraw"]
    w = s.apply("samurai withdraw")
    assert w.unit(0, "spears")["dishonoured"] and w.unit(0, "spears")["fleeing"]
    st = s.apply("samurai stay")
    assert st.unit(0, "spears")["left"] == 3  # one casualty in the combat, one for staying


def test_mark_used_units_and_the_extra_activation(tmp_path):
    b = ROSTER_B.split("[[troops]]\nid = \"hero\"")[0]  # the Monks alone
    s = play(start(tmp_path, SETUP, b=b), "role attacker", "no duel", "first me", "activate spears")
    s = s.with_forced_dice([1, 1]).apply("activate monks")
    s = play(s, "interact", "interact")
    assert s.unit(1, "monks")["used"]
    assert s.d["phase"] == "activate" and s.to_move() == 0 and s.d["act"]["solo"] == 0
    assert "extra activation" in texts(s)
    assert s.legal_actions() == ["activate bows"]
    s = s.with_forced_dice([1]).apply("activate bows")
    s = s.apply("interact")
    assert s.d["turn"] == 2 or s.d["phase"] in ("duel",)
    assert not s.unit(0, "bows")["used"]  # maintenance of turn 2 removed the markers


def test_maintenance_keeps_the_hattori_poison_stunned_marker(tmp_path):
    hattori = ROSTER_B.replace('clan = "sohei"', 'clan = "hattori"\nability = "poison"')
    s = play(start(tmp_path, SETUP, b=hattori), "role attacker")
    assert s.unit(0, "spears")["stunned"] == 1 and s.unit(0, "spears")["poisoned"]
    undead = ROSTER_A.replace('title = "samurai"', 'title = "undead"')
    s = play(start(tmp_path, SETUP, a=undead, b=hattori), "role attacker")
    assert s.unit(0, "spears")["stunned"] == 0  # undead are immune to poison (003:252)


def test_clan_ability_once_per_game_bushido_law_adds_two_ini(tmp_path):
    s = play(start(tmp_path, SETUP), "role attacker", "no duel", "first me")
    assert "use bushido-law" in s.legal_actions() and "use perfect-planning" in s.legal_actions()
    s = play(s, "use bushido-law", "first me")
    assert not any(a.startswith("use ") for a in s.legal_actions())
    s = s.apply("activate spears").with_forced_dice([1, 1]).apply("activate monks")
    assert "1 + INI 3 = 4: 2 order(s)" in texts(s)


def test_undead_cannot_run_flee_or_disengage(tmp_path):
    undead = ROSTER_B.replace('title = "monk"', 'title = "undead"')
    s = play(start(tmp_path, SETUP, b=undead), "role attacker", "no duel", "first opponent", "activate monks")
    s = s.with_forced_dice([4, 4]).apply("activate spears")
    assert s.to_move() == 1
    legal = s.legal_actions()
    assert "move" in legal and not {"run", "disengage"} & set(legal)
    s = play(s, "interact", "charge monks")
    assert s.legal_actions() == ["action attack", "reaction attack"]  # no flee


def test_illegal_actions_are_refused_and_change_nothing(tmp_path):
    s = activated(tmp_path)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply("shoot monks")  # the Spears have no ranged weapon
    assert s.to_json() == before


def test_bad_options_and_rosters_are_named(tmp_path):
    with pytest.raises(FormatError, match="needs two rosters"):
        KenseiGame().new_state(None, 0, rosters="buke-vanguard")
    with pytest.raises(FormatError, match="unknown kensei scenario"):
        KenseiGame().new_state("hastings", 0)
    with pytest.raises(FormatError, match="unknown option"):
        KenseiGame().new_state(None, 0, colour="red")
    with pytest.raises(KassenError, match="1 to 6"):
        activated(tmp_path).with_forced_dice([9])


def test_determinize_resamples_only_what_a_player_cannot_know(tmp_path):
    from kassen.engine.rng import Rng

    s = activated(tmp_path)
    seen = {s.determinize(0, Rng(k)).d["secondary"][1] for k in range(40)}
    assert len(seen) > 1 and all(s.determinize(0, Rng(k)).d["secondary"][0] == 3 for k in range(5))
    d = s.determinize(0, Rng(1))
    assert d.d["units"] == s.d["units"] and d.legal_actions() == s.legal_actions()


def test_preparing_for_battle_scenery_elements_one_d6_plus_one_and_commander_extras(tmp_path):
    s = start(tmp_path, SETUP, a=ROSTER_A.replace('"hattamoto"', '"daimyo"'))
    assert s.d["terrain"] == {"generic": 5, "extra": [2, 0]}
    assert "5 generic scenery elements" in texts(s)


def test_honour_roll_prompt_gives_the_honour_attribute(tmp_path):
    s = activated(tmp_path)
    s = play(s, "attack hero", "reaction attack", "contact 1", "order formed", "position front", "cover no",
             "cover no")
    s = s.with_forced_dice([1, 2, 3, 4, 5, 1, 5, 2]).apply("roll")
    assert "HO 3" in s.prompt()
