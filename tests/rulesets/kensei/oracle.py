"""The odds counter Kassen shipped before issue 35, kept as a test oracle for small pools.

It walks every joint count (impacts, low damage dice, wounds, criticals) die by die, with
``Fraction`` probabilities, and settles each count with the damage rules as they were
written then. Its cost grows about as dice**5, so tests use it only up to a dozen dice; the
shipped counter (:func:`kassen.rulesets.kensei.counting.odds`) must give the very same fractions.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from kassen.rulesets.kensei.counting import RollOdds
from kassen.rulesets.kensei.rolls import Damage, RollPlan, Target

Key = tuple[int, int, int, int]


def _die_faces(plan: RollPlan) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction]:
    if plan.automatic:
        hit = Fraction(1)
    else:
        hit = Fraction(sum(1 for d in range(1, 7) if d == 6 or (d != 1 and d + plan.hit >= plan.difficulty)), 6)
    fumble = Fraction(1, 6)
    crit = Fraction(1, 6)
    wound = Fraction(sum(1 for d in range(2, 6) if d + plan.damage >= plan.difficulty), 6)
    low = 1 - fumble - crit - wound
    return 1 - hit, hit * fumble, hit * low, hit * wound, hit * crit


def joint(plan: RollPlan) -> dict[Key, Fraction]:
    miss, fum, low, wnd, crit = _die_faces(plan)
    dist: dict[Key, Fraction] = {(0, 0, 0, 0): Fraction(1)}
    for _ in range(plan.dice):
        nxt: dict[Key, Fraction] = {}
        for (i, lo, w, c), p in dist.items():
            for key, q in (((i, lo, w, c), miss), ((i + 1, lo, w, c), fum), ((i + 1, lo + 1, w, c), low),
                           ((i + 1, lo, w + 1, c), wnd), ((i + 1, lo, w, c + 1), crit)):
                if q:
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
        dist = nxt
    return dist


def apply_damage(target: Target, impacts: int, low: int, wounds: int, criticals: int, stuns: bool) -> Damage:
    stuns_added = low if stuns else 0
    total_stuns = target.stunned + stuns_added
    stun_wounds = total_stuns // target.stuns_per_wound
    stunned = total_stuns % target.stuns_per_wound
    direct = wounds + criticals
    to_leader = 0
    if target.leader and target.all_to_leader:
        to_leader = direct
    elif target.leader and target.crits_to_leader:
        to_leader = criticals
    to_unit = direct - to_leader + stun_wounds
    leader, leader_w, casualties = target.leader, target.leader_wounds, 0
    if leader and to_leader:
        room = target.leader_wo - leader_w
        taken = min(room, to_leader)
        leader_w += taken
        to_unit += to_leader - taken
        if leader_w >= target.leader_wo:
            leader, casualties = False, 1
    rank = target.miniatures - (1 if target.leader else 0)
    w = target.wounds + to_unit
    dead = min(rank, w // target.wo)
    casualties += dead
    rank -= dead
    w = 0 if rank == 0 else w - dead * target.wo
    overflow = (target.wounds + to_unit) - dead * target.wo if rank == 0 else 0
    if rank == 0 and leader and overflow > 0:
        leader_w += overflow
        if leader_w >= target.leader_wo:
            leader, casualties = False, casualties + 1
    killed = target.leader and not leader
    left = target.miniatures - casualties
    after = replace(target, miniatures=left, wounds=w, stunned=stunned if left else 0, leader=leader,
                    leader_wounds=leader_w if leader else 0)
    return Damage(impacts, impacts - low - wounds - criticals, low, direct, criticals, stuns_added, stun_wounds,
                  casualties, killed, after)


def _add(d: dict[int, Fraction], k: int, p: Fraction) -> None:
    d[k] = d.get(k, Fraction(0)) + p


def odds(plan: RollPlan) -> RollOdds:
    """The old counter's distributions (and the markers left, from the same settled counts)."""
    out = RollOdds(plan)
    for (i, lo, w, c), p in joint(plan).items():
        dmg = apply_damage(plan.target, i, lo, w, c, plan.stuns)
        _add(out.impacts, i, p)
        _add(out.wounds, dmg.total_wounds, p)
        _add(out.criticals, c, p)
        _add(out.fumbles, dmg.fumbles, p)
        _add(out.stuns, dmg.stuns_added, p)
        _add(out.casualties, dmg.casualties, p)
        key = (dmg.total_wounds, dmg.casualties)
        out.pairs[key] = out.pairs.get(key, Fraction(0)) + p
        left = (dmg.after.wounds, dmg.after.stunned)
        out.left[left] = out.left.get(left, Fraction(0)) + p
        if dmg.leader_killed:
            out.leader_killed += p
        if dmg.after.miniatures == 0:
            out.wiped_out += p
    return out


def hand_to_hand_results(a_odds: RollOdds, b_odds: RollOdds, a_margin: bool, b_margin: bool
                         ) -> tuple[Fraction, Fraction, Fraction, dict[int, Fraction], dict[int, Fraction]]:
    """The old pairing of both sides of a melee: (a wins, draw, b wins, a's casualties, b's)."""
    b_target, a_target = a_odds.plan.target, b_odds.plan.target
    win = draw = lose = Fraction(0)
    ca: dict[int, Fraction] = {}
    cb: dict[int, Fraction] = {}
    for (wa, kb), pa in a_odds.pairs.items():
        for (wb, ka), pb in b_odds.pairs.items():
            p = pa * pb
            extra_a = extra_b = 0
            if wa > wb:
                win += p
                extra_b = min(wa - wb, b_target.miniatures - kb) if b_margin else 0
            elif wb > wa:
                lose += p
                extra_a = min(wb - wa, a_target.miniatures - ka) if a_margin else 0
            else:
                draw += p
            _add(ca, ka + extra_a, p)
            _add(cb, kb + extra_b, p)
    return win, draw, lose, ca, cb
