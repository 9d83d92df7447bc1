"""The roll engine: every sheet modifier, exact distributions against hand counts and brute
force, the forced-dice resolver, shooting and artillery. Forced dice only."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from kassen.engine.errors import KassenError
from kassen.rulesets.kensei.counting import hand_to_hand, odds
from kassen.rulesets.kensei.rolls import (
    ArtillerySituation,
    Situation,
    impact_odds,
    plan_artillery_damage,
    plan_impact,
    plan_melee,
    plan_shot,
    resolve,
    resolve_impact,
)
from tests.rulesets.kensei.helpers import troop

S = Situation()


def ids(plan):
    return [m.id for m in plan.modifiers()]


# ------------------------------------------------------------------ combat roll dice (003:118-128)
def test_hand_to_hand_charge_adds_one_die():
    a, b = troop(miniatures=5), troop(miniatures=5)
    base = plan_melee(a, b, Situation(in_contact=2), S).dice
    assert base == 2 + 2
    assert plan_melee(a, b, Situation(in_contact=2, charge=True), S).dice == base + 1


def test_hand_to_hand_mounted_charge_adds_two_dice():
    a, b = troop(miniatures=5, mounted=True), troop(miniatures=5)
    assert plan_melee(a, b, Situation(charge=True), S).dice == 2 + 2
    assert "combat-dice.charge-mounted" in ids(plan_melee(a, b, Situation(charge=True), S))


def test_hand_to_hand_charge_bonus_needs_start_outside_control_area_formation_and_no_skirmishers():
    a, b = troop(miniatures=5), troop(miniatures=5)
    assert plan_melee(a, b, Situation(charge=True, charge_from_outside=False), S).dice == 2
    assert plan_melee(a, b, Situation(charge=True, in_formation=False), S).dice == 2
    sk = troop(miniatures=5, skirmishers=True)
    assert plan_melee(sk, b, Situation(charge=True), S).dice == 2
    # a single miniature has no formation to keep
    assert plan_melee(troop(), b, Situation(charge=True, in_formation=False), S).dice == 3


def test_hand_to_hand_hata_jurushi_in_front_rank_adds_a_die_when_charging():
    a, b = troop(miniatures=5, banner=True), troop(miniatures=5)
    assert plan_melee(a, b, Situation(charge=True, banner_front=True), S).dice == 2 + 1 + 1
    assert plan_melee(a, b, Situation(banner_front=True), S).dice == 2


def test_hand_to_hand_each_miniature_in_contact_adds_a_die_only_in_units():
    a, b = troop(miniatures=6, leader="E"), troop()
    assert plan_melee(a, b, Situation(in_contact=5), S).dice == 2 + 5
    with pytest.raises(KassenError, match="0 to 5"):
        plan_melee(a, b, Situation(in_contact=6), S)  # the leader is not counted with them
    assert plan_melee(troop(), b, Situation(in_contact=3), S).dice == 2


def test_hand_to_hand_leader_direct_adds_his_attack_support_one_die():
    a, b = troop(miniatures=5, leader="H"), troop()
    assert plan_melee(a, b, Situation(leader="direct"), S).dice == 2 + 4
    assert plan_melee(a, b, Situation(leader="support"), S).dice == 2 + 1
    with pytest.raises(KassenError, match="no unit leader"):
        plan_melee(troop(miniatures=3), b, Situation(leader="direct"), S)


def test_hand_to_hand_formation_strengthen_and_penalties():
    a, b = troop(klass="H", miniatures=5), troop()
    assert plan_melee(a, b, Situation(complete_ranks=True, strengthen=True), S).dice == 4 + 2
    assert plan_melee(a, b, Situation(used=True, reaction_attack=True, out_of_cohesion=True), S).dice == 4 - 3
    # fleeing and sheltered: -2D6 once, not -4D6
    assert plan_melee(a, b, Situation(fleeing=True, sheltered=True), S).dice == 2
    assert plan_melee(troop(), b, Situation(fleeing=True, used=True), S).dice == 0  # never below zero


# ------------------------------------------------------------------ combat roll modifiers (003:132-136)
def test_combat_roll_modifiers_cover_flank_rear():
    a, unit, single = troop(), troop(miniatures=5), troop()
    assert plan_melee(a, unit, S, Situation(cover=True)).hit == -1
    assert plan_melee(a, unit, S, Situation(sheltered=True)).hit == -1
    assert plan_melee(a, unit, Situation(position="flank"), S).hit == 1
    assert plan_melee(a, single, Situation(position="flank"), S).hit == 0  # flank: multiple miniature units only
    assert plan_melee(a, single, Situation(position="rear"), S).hit == 2


def test_combat_roll_shooting_troop_receiving_a_charge_takes_minus_one():
    archers, foe = troop(miniatures=5, weapons=["Yumi"]), troop()
    assert plan_melee(archers, foe, S, Situation(charge=True)).hit == -1
    assert plan_melee(archers, foe, S, S).hit == 0


# ------------------------------------------------------------------ hand to hand weapons (003:221-228)
def test_hand_to_hand_weapons_polearm_vs_cavalry_and_charging_except_vs_polearms():
    yari = troop(weapons=["Yari"])
    assert plan_melee(yari, troop(mounted=True), S, S).dice == 3
    assert plan_melee(yari, troop(weapons=["Katana"]), Situation(charge=True), S).dice == 2 + 1 + 1
    assert plan_melee(yari, troop(weapons=["Naginata"]), Situation(charge=True), S).dice == 2 + 1


def test_hand_to_hand_weapons_bladed_polearm_charged_and_multiple_opponents():
    nag = troop(weapons=["Naginata"])
    assert plan_melee(nag, troop(weapons=["Katana"]), S, Situation(charge=True)).dice == 3
    assert plan_melee(nag, troop(weapons=["No-Dachi"]), S, Situation(charge=True)).dice == 2
    assert plan_melee(nag, troop(), Situation(multiple_opponents=True), S).dice == 3


def test_hand_to_hand_weapons_katana_vs_polearm_except_when_charging_and_plus_one_damage():
    kat = troop(weapons=["Katana"])
    p = plan_melee(kat, troop(weapons=["Yari"]), S, S)
    assert (p.dice, p.damage) == (3, 1)
    assert plan_melee(kat, troop(weapons=["Yari"]), Situation(charge=True), S).dice == 3  # +1 charge, no +1 vs yari


def test_hand_to_hand_weapons_blunt_minus_one_to_hit_plus_one_damage_plus_one_more_vs_undead():
    club = troop(weapons=["Kanabo-tetsubo"])
    p = plan_melee(club, troop(), S, S)
    assert (p.hit, p.damage) == (-1, 1)
    assert plan_melee(club, troop(title="undead"), S, S).damage == 2


def test_hand_to_hand_weapons_short_weapons_charged_and_vs_katana():
    sai = troop(weapons=["Sais"])
    assert plan_melee(sai, troop(weapons=["Katana"]), S, Situation(charge=True)).hit == -1 + 1
    assert plan_melee(sai, troop(weapons=["Yari"]), S, Situation(charge=True)).hit == 0
    assert plan_melee(sai, troop(weapons=["Katana"]), Situation(charge=True), S).hit == 0
    assert plan_melee(troop(weapons=["Tanto"]), troop(), S, S).damage == -1
    assert plan_melee(troop(weapons=["No-Dachi"]), troop(weapons=["Wakizashi"]), S, S).dice == 3


# ------------------------------------------------------------------ damage roll (003:140-151)
def test_damage_roll_armour_and_mounted_stack():
    p = plan_melee(troop(), troop(mounted=True), S, S)
    assert p.damage == -2 and ids(p) == ["combat-dice.attack", "melee-damage.armour", "melee-damage.mounted"]
    assert plan_melee(troop(), troop(klass="C"), S, S).damage == -2  # monster skin


def test_damage_roll_one_die_exact_distribution_by_hand():
    """One die: hits on 4-6 (1/2); damage 1 fumble, 2-3 stun, 4-5 wound, 6 critical."""
    p = plan_melee(troop(klass="P"), troop(klass="H"), Situation(strengthen=True), S)
    assert p.dice == 1
    o = odds(p)
    assert o.impacts == {0: F(1, 2), 1: F(1, 2)}
    assert o.wounds == {0: F(3, 4), 1: F(1, 4)}
    assert o.stuns == {0: F(5, 6), 1: F(1, 6)}
    assert o.criticals == {0: F(11, 12), 1: F(1, 12)}
    assert o.fumbles == {0: F(11, 12), 1: F(1, 12)}
    assert o.casualties == {0: F(1)}  # a Hero has 3 wounds


def test_damage_roll_natural_six_always_wounds_and_natural_one_always_fumbles():
    heavy = troop(klass="C")  # -2, and mounted would not apply
    p = plan_melee(troop(klass="P"), heavy, Situation(strengthen=True, position="rear"), S)
    assert p.damage == -2 and p.hit == 2
    o = odds(p)
    # hits on 2-6 (5/6, a natural 1 still misses); wounds only on a natural 6
    assert o.impacts[1] == F(5, 6)
    assert o.wounds[1] == F(5, 6) * F(1, 6)


def test_combat_roll_natural_six_hits_whatever_the_modifiers():
    p = plan_melee(troop(klass="P"), troop(miniatures=3), Situation(strengthen=True), Situation(cover=True))
    p2 = plan_melee(troop(klass="P", weapons=["Kanabo-tetsubo"]), troop(miniatures=3),
                    Situation(strengthen=True), Situation(cover=True))
    assert (p.hit, p2.hit) == (-1, -2)
    assert odds(p2).impacts[1] == F(1, 6)


def test_two_stunned_markers_make_a_wound_three_for_undead():
    a = troop(klass="P")
    plan = plan_melee(a, troop(miniatures=3), Situation(strengthen=True), Situation(stunned=1))
    out = resolve(plan, [4], [2])
    assert (out.damage.stuns_added, out.damage.stun_wounds, out.damage.casualties, out.damage.after.stunned) == (1, 1, 1, 0)
    undead = plan_melee(a, troop(miniatures=3, title="undead"), Situation(strengthen=True), Situation(stunned=1))
    out = resolve(undead, [4], [3])
    assert (out.damage.stun_wounds, out.damage.after.stunned) == (0, 2)
    out = resolve(plan_melee(a, troop(miniatures=3, title="undead"), Situation(strengthen=True), Situation(stunned=2)),
                  [5], [2])
    assert (out.damage.stun_wounds, out.damage.casualties) == (1, 1)


def test_damage_roll_wounds_fill_one_miniature_first():
    e = troop(klass="E", miniatures=3)  # WO 2
    plan = plan_melee(troop(klass="H"), e, S, Situation(wounds=1))
    out = resolve(plan, [4, 4, 4, 1], [4, 5, 4])
    assert out.damage.total_wounds == 3 and out.damage.casualties == 2 and out.damage.after.wounds == 0


def test_damage_roll_critical_on_leader_in_direct_combat():
    unit = troop(miniatures=4, leader="E")
    p = plan_melee(troop(klass="H"), unit, Situation(crits_to_leader=True), Situation(leader="direct"))
    out = resolve(p, [6, 6, 1, 1], [6, 6])
    assert out.damage.leader_killed and out.damage.casualties == 1 and out.damage.after.miniatures == 3
    p = plan_melee(troop(klass="H"), unit, Situation(crits_to_leader=True), Situation(leader="support"))
    assert not resolve(p, [6, 6, 1, 1], [6, 6]).damage.leader_killed  # not in direct combat: the unit takes them


def test_hunt_down_the_leader_puts_every_wound_on_him_then_the_unit():
    unit = troop(miniatures=4, leader="E")
    p = plan_melee(troop(klass="H"), unit, Situation(hunt_leader=True), S)
    out = resolve(p, [6, 6, 6, 1], [4, 5, 4])
    assert out.damage.leader_killed and out.damage.casualties == 2  # leader (2 wounds) + 1 warrior


def test_lone_leader_takes_every_wound():
    p = plan_melee(troop(klass="H"), troop(miniatures=2, leader="H"), S, Situation(miniatures=1))
    out = resolve(p, [5, 5, 5, 5], [4, 4, 4, 2])
    assert out.damage.leader_killed and out.damage.after.miniatures == 0


def test_exact_distribution_matches_brute_force_enumeration():
    a = troop(klass="E", miniatures=3, weapons=["Kanabo-tetsubo"])
    b = troop(klass="W", miniatures=3, title="undead", armour="samurai")
    plan = plan_melee(a, b, Situation(), Situation(stunned=1))
    assert plan.dice == 3
    o = odds(plan)
    wounds: dict[int, F] = {}
    cas: dict[int, F] = {}
    for combat in itertools.product(range(1, 7), repeat=3):
        n = sum(1 for d in combat if d == 6 or (d != 1 and d + plan.hit >= 4))
        for dmg in itertools.product(range(1, 7), repeat=n):
            p = F(1, 6 ** (3 + n))
            r = resolve(plan, list(combat), list(dmg)).damage
            wounds[r.total_wounds] = wounds.get(r.total_wounds, F(0)) + p
            cas[r.casualties] = cas.get(r.casualties, F(0)) + p
    assert o.wounds == wounds and o.casualties == cas and sum(o.wounds.values()) == 1


# ------------------------------------------------------------------ melee as a whole (003:97-101)
def test_hand_to_hand_winner_by_wounds_one_die_against_none():
    a, b = troop(klass="P"), troop(klass="P")
    m = hand_to_hand(a, b, Situation(strengthen=True), S)
    assert (m.a_wins, m.draw, m.b_wins) == (F(1, 4), F(3, 4), F(0))


def test_peasants_losing_remove_the_margin():
    a, peasants = troop(klass="P"), troop(klass="P", title="peasant", miniatures=5)
    m = hand_to_hand(a, peasants, Situation(strengthen=True), S)
    assert m.b_casualties == {0: F(3, 4), 2: F(1, 4)}  # one wound, lost by one: one more peasant


def test_forced_dice_resolver_refuses_the_wrong_dice():
    p = plan_melee(troop(), troop(), S, S)
    with pytest.raises(KassenError, match="needs 2 dice"):
        resolve(p, [4], [])
    with pytest.raises(KassenError, match="needs 1 dice"):
        resolve(p, [4, 1], [])
    with pytest.raises(KassenError, match="1 to 6"):
        resolve(p, [7, 1], [3])


# ------------------------------------------------------------------ shooting (003:153-178)
def test_shoot_roll_dice_edges_leader_and_range_bands():
    archers = troop(miniatures=6, leader="E", weapons=["Yumi"])
    p = plan_shot(archers, troop(miniatures=5), Situation(in_contact=4, leader="direct", range_band="long"), S)
    assert p.dice == 2 + 4 + 3 - 1
    assert plan_shot(archers, troop(miniatures=5), Situation(range_band="mid"), S).dice == 2
    slings = troop(miniatures=3, weapons=["Ishitsubute"])
    assert plan_shot(slings, troop(miniatures=5), S, S).dice == 3
    muskets = troop(miniatures=3, weapons=["Arquebus"])
    assert plan_shot(muskets, troop(miniatures=5), Situation(range_band="mid"), S).dice == 1
    with pytest.raises(KassenError, match="reaches 40 cm"):
        plan_shot(muskets, troop(), Situation(range_band="long"), S)
    with pytest.raises(KassenError, match="no ranged weapon"):
        plan_shot(troop(), troop(), S, S)


def test_shoot_roll_penalties_formation_sheltered_death_fog():
    archers = troop(klass="H", miniatures=3, weapons=["Yumi"])
    p = plan_shot(archers, troop(miniatures=5), Situation(in_formation=False, sheltered=True, strengthen=True), S)
    assert p.dice == 3 - 1 - 2 + 1
    assert plan_shot(archers, troop(miniatures=5), Situation(death_fog=True), S).dice == 0


def test_shoot_roll_modifiers_cover_single_ran_firearm_long():
    teppo = troop(miniatures=3, weapons=["Teppo"])
    p = plan_shot(teppo, troop(), Situation(range_band="long"), Situation(cover=True, ran=True))
    assert p.hit == -4


def test_ranged_damage_no_stuns_firearms_ignore_worn_armour_and_add_one():
    samurai = troop(armour="samurai", miniatures=3)
    bow = plan_shot(troop(weapons=["Yumi"]), samurai, S, S)
    gun = plan_shot(troop(weapons=["Teppo"]), samurai, S, S)
    assert (bow.damage, gun.damage) == (-1, 1)
    assert not bow.stuns and odds(bow).stuns == {0: F(1)}
    assert plan_shot(troop(weapons=["Teppo"]), troop(klass="C"), S, S).damage == -1  # skin is not worn armour
    assert plan_shot(troop(weapons=["Yumi"]), troop(mounted=True), S, S).damage == -2


# ------------------------------------------------------------------ artillery (003:264-337)
def test_artillery_shoot_roll_table():
    p = plan_impact(ArtillerySituation("oo-dzutsu", "solid-shot", range_band="long", gunpowder_bags=2, elevated=True,
                                       engineer=True, enemy_units_near_vertex=1, one_crew=True, shot_at=True))
    assert p.dice == 6 - 2 + 2 + 1 + 1 - 1 - 1 - 1 - 1
    assert plan_impact(ArtillerySituation("oo-dzutsu", "solid-shot", range_band="mid")).dice == 4
    with pytest.raises(KassenError, match="Parabolic"):
        plan_impact(ArtillerySituation("taiho", "solid-shot", line_of_sight=False))
    with pytest.raises(KassenError, match="short range"):
        plan_impact(ArtillerySituation("taiho", "shrapnel", range_band="mid"))
    with pytest.raises(KassenError, match="not artillery"):
        plan_impact(ArtillerySituation("taiho", "solid-shot", range_band="artillery"))


def test_artillery_engineer_reroll_exact_and_forced():
    p = plan_impact(ArtillerySituation("taiho", "explosive-ball", range_band="short"))
    assert p.dice == 1 and impact_odds(p) == {0: F(1, 2), 1: F(1, 2)}
    pe = plan_impact(ArtillerySituation("taiho", "explosive-ball", range_band="short", engineer=True))
    assert pe.dice == 2 and impact_odds(pe) == {0: F(1, 8), 1: F(3, 8), 2: F(1, 2)}
    r = resolve_impact(pe, [2, 5], rerolls=[(0, 4)])
    assert r.successes == 2 and "+10 cm" in r.effect
    with pytest.raises(KassenError, match="allows 1"):
        resolve_impact(pe, [2, 5], rerolls=[(0, 4)], ignore=1)
    fire = plan_impact(ArtillerySituation("taiho", "incendiary", range_band="short"))
    assert "5 cm impact area" in resolve_impact(fire, [4]).effect


def test_artillery_damage_power_miniatures_and_ammunition():
    samurai = troop(armour="samurai", miniatures=5)
    p = plan_artillery_damage("explosive-ball", samurai, Situation(cover=True), affected=2)
    assert (p.dice, p.damage) == (5, 1 - 1 - 1)
    solid = plan_artillery_damage("solid-shot", samurai, S, affected=1)
    assert (solid.dice, solid.damage) == (5, 1)  # devastating ignores armour
    out = resolve(solid, [], [1, 2, 3, 6, 4])
    assert out.damage.total_wounds == 3 and out.damage.stuns_added == 0
    fire = plan_artillery_damage("incendiary", samurai, S, affected=1, fire_template=True)
    assert fire.damage == -2
    with pytest.raises(KassenError, match="0 to 5"):
        plan_artillery_damage("grenade", samurai, S, affected=6)


def test_shoot_roll_edge_miniatures_never_count_leader_or_hata_jurushi():
    archers = troop(miniatures=6, leader="E", banner=True, weapons=["Yumi"])
    assert plan_shot(archers, troop(miniatures=5), Situation(in_contact=4), S).dice == 2 + 4
    with pytest.raises(KassenError, match="0 to 4"):
        plan_shot(archers, troop(miniatures=5), Situation(in_contact=5), S)


def test_a_troop_reduced_to_one_miniature_is_a_single_miniature():
    unit = troop(miniatures=5)
    assert plan_shot(troop(weapons=["Yumi"]), unit, S, Situation(miniatures=1)).hit == -1
    assert plan_melee(troop(), unit, Situation(position="flank"), Situation(miniatures=1)).hit == 0
    # a leader left alone fights with his own attack, not as a leader of nobody
    led = troop(miniatures=4, leader="H")
    p = plan_melee(led, troop(), Situation(miniatures=1, leader="direct", in_contact=0), S)
    assert p.dice == 4 and [m.id for m in p.dice_mods] == ["combat-dice.attack"]
