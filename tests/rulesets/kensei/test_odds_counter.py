"""The odds counter of issue 35: the multinomial count of a roll's dice gives the very
fractions of the old die-by-die enumerator (tests/rulesets/kensei/oracle.py) and of brute
force, on small pools and on every pairing of the shipped rosters; the markers left after
Stunned markers are turned into wounds (003:142, 003:252); the size bound and CPU guard."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kassen.engine.errors import KassenError
from kassen.rulesets.kensei.counting import MAX_DICE, Budget, RollOdds, hand_to_hand, odds
from kassen.rulesets.kensei.rolls import (
    RollPlan,
    Situation,
    Target,
    plan_artillery_damage,
    plan_melee,
    plan_shot,
    resolve,
)
from kassen.rulesets.kensei.roster import profiles, read_roster
from tests.rulesets.kensei import oracle
from tests.rulesets.kensei.helpers import troop

S = Situation()
FIELDS = ("impacts", "wounds", "criticals", "fumbles", "stuns", "casualties", "leader_killed", "wiped_out",
          "pairs", "left")


def same(new: RollOdds, old: RollOdds) -> None:
    for name in FIELDS:
        assert getattr(new, name) == getattr(old, name), name


SMALL = [
    # (attacker, defender, attacker's situation, defender's situation)
    (dict(klass="E", miniatures=3, weapons=["Kanabo-tetsubo"]),
     dict(klass="W", miniatures=3, title="undead", armour="samurai"), S, Situation(stunned=1)),
    (dict(klass="H", miniatures=6, leader="H"), dict(klass="W", miniatures=6, leader="E"),
     Situation(in_contact=3, leader="direct", crits_to_leader=True), Situation(leader="direct", wounds=1,
                                                                             leader_wounds=1)),
    (dict(klass="H", miniatures=4), dict(klass="E", miniatures=4, leader="H"),
     Situation(in_contact=3, hunt_leader=True), Situation(stunned=1)),
    (dict(klass="W", miniatures=5, banner=True), dict(klass="P", title="peasant", miniatures=8),
     Situation(in_contact=4, charge=True, banner_front=True), Situation(in_contact=2)),
    (dict(klass="E", miniatures=2, leader="H"), dict(klass="H"), Situation(miniatures=1), Situation(wounds=2)),
    (dict(klass="W", miniatures=6, title="undead"), dict(klass="W", miniatures=6, title="undead", leader="E"),
     Situation(in_contact=5, position="rear"), Situation(in_contact=5, stunned=2, leader="direct")),
    # peasants on both sides, few miniatures: the margin often exceeds what is left (003:256)
    (dict(klass="P", title="peasant", miniatures=3, leader="E"), dict(klass="H", title="peasant", miniatures=4),
     Situation(in_contact=2, leader="direct", strengthen=True), Situation(in_contact=3, stunned=1)),
    (dict(klass="M", title="death"), dict(klass="E", miniatures=3, mounted=True, leader="H"),
     Situation(crits_to_leader=True), Situation(leader="direct", leader_wounds=2)),
]


@pytest.mark.parametrize(("ka", "kb", "sa", "sb"), SMALL)
def test_counter_equals_the_old_enumerator_on_small_melees(ka, kb, sa, sb):
    a, b = troop(**ka), troop(**kb)
    for plan in (plan_melee(a, b, sa, sb), plan_melee(b, a, sb, sa)):
        same(odds(plan), oracle.odds(plan))


@pytest.mark.parametrize(("ka", "kb", "sa", "sb"), SMALL)
def test_hand_to_hand_pairing_equals_the_old_pairing(ka, kb, sa, sb):
    a, b = troop(**ka), troop(**kb)
    m = hand_to_hand(a, b, sa, sb)
    old = oracle.hand_to_hand_results(oracle.odds(m.a.plan), oracle.odds(m.b.plan), a.title.loses_margin,
                                      b.title.loses_margin)
    assert (m.a_wins, m.draw, m.b_wins, m.a_casualties, m.b_casualties) == old
    assert m.a_wins + m.draw + m.b_wins == 1


def test_counter_equals_the_old_enumerator_for_shots_and_artillery():
    bows = troop(klass="W", miniatures=6, weapons=["Tanto", "Yumi"], leader="E")
    target = troop(klass="E", miniatures=4, leader="H", armour="samurai")
    plan = plan_shot(bows, target, Situation(in_contact=4, leader="direct"), Situation(leader="direct", wounds=1))
    same(odds(plan), oracle.odds(plan))
    art = plan_artillery_damage("explosive-ball", target, Situation(cover=True), 3)
    assert art.automatic
    same(odds(art), oracle.odds(art))


def _rosters() -> list:
    return [p for name in ("buke-vanguard", "kuroi-te-horde") for p in profiles(read_roster(name))]


def test_counter_equals_the_old_enumerator_on_every_pairing_of_the_shipped_rosters():
    """Every troop of the shipped rosters against every other, charging with its leader in
    support combat, its banner in front and two miniatures in contact (or all it has)."""
    troops = _rosters()
    for a, b in itertools.product(troops, troops):
        sa = Situation(charge=True, in_contact=min(2, a.rank_and_file) if a.miniatures > 1 else 0,
                       leader="support" if a.leader else "none", banner_front=a.troop.banner,
                       crits_to_leader=True)
        sb = Situation(in_contact=min(2, b.rank_and_file) if b.miniatures > 1 else 0,
                       leader="direct" if b.leader else "none", stunned=1)
        plan = plan_melee(a, b, sa, sb)
        same(odds(plan), oracle.odds(plan))
        if a.ranged is not None:
            shot = plan_shot(a, b, Situation(in_contact=min(2, a.rank_and_file - 1) if a.miniatures > 1 else 0), sb)
            same(odds(shot), oracle.odds(shot))


def test_markers_left_by_brute_force_two_stuns_make_a_wound():
    """Two dice on a 3-miniature W troop (WO 1) with one Stunned marker: every roll resolved."""
    plan = plan_melee(troop(klass="E", miniatures=3), troop(miniatures=3), Situation(in_contact=0),
                      Situation(stunned=1))
    left: dict[tuple[int, int], F] = {}
    for combat in itertools.product(range(1, 7), repeat=plan.dice):
        n = sum(1 for d in combat if d == 6 or (d != 1 and d + plan.hit >= 4))
        for dmg in itertools.product(range(1, 7), repeat=n):
            r = resolve(plan, list(combat), list(dmg)).damage.after
            left[(r.wounds, r.stunned)] = left.get((r.wounds, r.stunned), F(0)) + F(1, 6 ** (plan.dice + n))
    assert odds(plan).left == left
    assert set(left) == {(0, 0), (0, 1)}  # W troops have WO 1: no wound marker stays


def test_markers_left_undead_need_three_stunned_markers_per_wound():
    undead = troop(klass="E", miniatures=4, title="undead")   # WO 2, three markers a wound (003:252)
    plan = plan_melee(troop(klass="P"), undead, Situation(strengthen=True), Situation(stunned=2))
    o = odds(plan)
    # one die: miss 1/2; fumble 1/12; low (2-3) 1/6 -> the third marker makes a wound; wound/crit 1/4
    assert o.left == {(0, 2): F(7, 12), (1, 0): F(1, 6), (1, 2): F(1, 4)}


def test_largest_pools_are_counted_and_sum_to_one():
    a = troop(klass="H", miniatures=60, leader="H", banner=True)
    b = troop(klass="H", miniatures=60, leader="H", banner=True)
    sa = Situation(charge=True, in_contact=58, leader="direct", banner_front=True, complete_ranks=True,
                   strengthen=True, position="rear", crits_to_leader=True)
    m = hand_to_hand(a, b, sa, Situation(in_contact=58, leader="direct", complete_ranks=True, strengthen=True))
    assert m.a.plan.dice > 60
    assert sum(m.a.wounds.values()) == 1 and sum(m.a.left.values()) == 1
    assert m.a_wins + m.draw + m.b_wins == 1


def test_counter_refuses_more_dice_than_any_legal_engagement():
    p = plan_melee(troop(), troop(), S, S)
    big = RollPlan(**{**p.__dict__, "dice": MAX_DICE + 1})
    with pytest.raises(KassenError, match=f"at most {MAX_DICE}"):
        odds(big)


def test_cpu_guard_stops_a_count_over_its_budget():
    a = troop(klass="H", miniatures=60, leader="H")
    plan = plan_melee(a, a, Situation(in_contact=59, leader="direct"), S)
    with pytest.raises(KassenError, match="ms of CPU"):
        odds(plan, Budget(-1.0))


@st.composite
def plans(draw: st.DrawFn) -> RollPlan:
    """Any small roll on any target: dice, modifiers, wound values, markers, leader rules."""
    miniatures = draw(st.integers(1, 6))
    leader = miniatures > 1 and draw(st.booleans())
    wo, leader_wo = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    spw = draw(st.sampled_from([2, 3]))
    target = Target(name="T", miniatures=miniatures, wo=wo, leader=leader, leader_wo=leader_wo if leader else 0,
                    wounds=draw(st.integers(0, wo - 1)), stunned=draw(st.integers(0, spw - 1)),
                    leader_wounds=draw(st.integers(0, leader_wo - 1)) if leader else 0, single=miniatures == 1,
                    stuns_per_wound=spw, crits_to_leader=draw(st.booleans()), all_to_leader=draw(st.booleans()))
    automatic = draw(st.booleans())
    return RollPlan("artillery" if automatic else "hand-to-hand", "A", target, draw(st.integers(0, 6)), (),
                    0 if automatic else draw(st.integers(-3, 3)), (), draw(st.integers(-3, 3)), (),
                    stuns=not automatic and draw(st.booleans()), automatic=automatic)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(plans())
def test_counter_equals_the_old_enumerator_on_any_small_roll(plan):
    same(odds(plan), oracle.odds(plan))
