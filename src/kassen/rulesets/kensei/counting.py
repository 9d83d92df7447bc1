"""Kensei's exact odds: the distributions of a planned roll (:mod:`kassen.rulesets.kensei.rolls`)
counted exactly, with no sampling.

One die's law (:func:`die_law`: miss, fumble, low, wound, critical, in 36ths) is convolved
over the roll's dice in closed form: the dice are alike, so the rolls with ``l`` low dice,
``d`` wounding dice and the rest missed or fumbled number ``n!/(l! d! o!) * L**l * D**d *
O**o`` out of ``36**n`` (a multinomial). Whole-number counts are gathered, settled once per
outcome that differs (:func:`kassen.rulesets.kensei.rolls.put_wounds`) and divided once, so
every probability is an exact fraction and the largest legal engagement counts in tens of
milliseconds (benchmarks/kensei_odds.py). The die-by-die enumerator this replaced (its cost
grew as dice**5) is the test oracle ``tests/rulesets/kensei/oracle.py``.

:func:`odds` gives one roll's impacts, wounds, Stunned markers, criticals, fumbles,
casualties and the markers left (K48); :func:`hand_to_hand` pairs both sides of a melee
(K12, 003:256). A :class:`Budget` stops a count that uses too much CPU (the roll resolver).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

from kassen.engine.errors import KassenError
from kassen.rulesets.kensei.data import Tables, load_tables
from kassen.rulesets.kensei.rolls import RollPlan, Situation, plan_melee, put_wounds
from kassen.rulesets.kensei.roster import TroopProfile

#: one die of a roll, in 36ths (its combat die, then its damage die): a miss, a hit whose damage
#: die fumbles, a hit that only stuns ("low"), a hit that wounds, a hit with a critical
DieLaw = tuple[int, int, int, int, int]

#: no roll of a legal engagement has more dice than this (the largest has 78, docs/rulings.md
#: (Kensei)); the counter refuses more, so that no request can make it work for long
MAX_DICE = 120


class Budget:
    """A CPU-time guard for one request: :meth:`check` raises ``KassenError`` once the calling
    thread has used more than ``seconds`` of CPU since the budget was made."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.thread_time() + seconds

    def check(self) -> None:
        if time.thread_time() > self.deadline:
            raise KassenError(f"the odds took more than the {self.seconds * 1000:.0f} ms of CPU allowed to one "
                              "request; ask for a smaller engagement")


def die_law(plan: RollPlan) -> DieLaw:
    """The law of one die of ``plan`` (003:130-144, K10): its five outcomes, counted in 36ths."""
    hit = 6 if plan.automatic else sum(1 for d in range(1, 7)
                                       if d == 6 or (d != 1 and d + plan.hit >= plan.difficulty))
    wound = sum(1 for d in range(2, 6) if d + plan.damage >= plan.difficulty)
    return (6 - hit) * 6, hit, hit * (4 - wound), hit * wound, hit


def _binomial(n: int, w: int, total: int) -> dict[int, int]:
    """How many of the ``total**n`` equally likely rolls have k dice of an outcome of weight ``w``."""
    return {k: c for k in range(n + 1) if (c := comb(n, k) * w ** k * (total - w) ** (n - k))}


def _fractions(counts: dict[Any, int], denominator: int) -> dict[Any, Fraction]:
    return {k: Fraction(v, denominator) for k, v in sorted(counts.items()) if v}


@dataclass
class RollOdds:
    """Exact distributions of one roll (values -> probability)."""

    plan: RollPlan
    impacts: dict[int, Fraction] = field(default_factory=dict)
    wounds: dict[int, Fraction] = field(default_factory=dict)          # direct + from Stunned markers
    criticals: dict[int, Fraction] = field(default_factory=dict)
    fumbles: dict[int, Fraction] = field(default_factory=dict)
    stuns: dict[int, Fraction] = field(default_factory=dict)            # Stunned markers placed
    casualties: dict[int, Fraction] = field(default_factory=dict)
    leader_killed: Fraction = Fraction(0)
    wiped_out: Fraction = Fraction(0)
    #: (total wounds, casualties) -> probability, for pairing the two sides of a melee
    pairs: dict[tuple[int, int], Fraction] = field(default_factory=dict)
    #: the joint law of the markers left on the target once Stunned markers are turned into
    #: wounds (003:142, 003:252): (wound markers, Stunned markers) -> probability
    left: dict[tuple[int, int], Fraction] = field(default_factory=dict)
    #: the same laws as whole counts of rolls out of ``denominator`` (exact, for pairing)
    denominator: int = 1
    pair_counts: dict[tuple[int, int], int] = field(default_factory=dict)

    def mean(self, name: str) -> Fraction:
        d: dict[int, Fraction] = getattr(self, name)
        return sum((k * p for k, p in d.items()), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        def dist(d: dict[int, Fraction]) -> dict[str, Any]:
            return {str(k): {"p": str(v), "float": float(v)} for k, v in sorted(d.items())}

        return {"plan": self.plan.to_json(), "impacts": dist(self.impacts), "wounds": dist(self.wounds),
                "criticals": dist(self.criticals), "fumbles": dist(self.fumbles), "stuns": dist(self.stuns),
                "casualties": dist(self.casualties), "leader_killed": str(self.leader_killed),
                "wiped_out": str(self.wiped_out),
                "left": [{"wounds": w, "stunned": s, "p": str(p), "float": float(p)}
                         for (w, s), p in sorted(self.left.items())],
                "expected": {n: float(self.mean(n)) for n in ("impacts", "wounds", "stuns", "casualties")}}


def odds(plan: RollPlan, budget: Budget | None = None) -> RollOdds:
    """Exact distributions of ``plan``'s impacts, wounds, stuns, criticals, casualties and the
    markers left.

    The dice of a roll are alike, so the n-fold convolution of one die's law (:func:`die_law`)
    is multinomial: the rolls with ``l`` low dice, ``d`` wounding dice and the rest missed or
    fumbled number ``n!/(l! d! o!) * L**l * D**d * O**o`` out of ``36**n``. Only the criticals
    that a leader can still take (K14: at most his wounds left) are told apart from the other
    wounds. Everything is counted in whole numbers and divided once: exact fractions, in
    O(dice**2) settled counts instead of the dice**5 of walking every joint count."""
    n = plan.dice
    if n > MAX_DICE:
        raise KassenError(f"{plan.attacker}: a roll of {n} dice is more than any legal engagement has "
                          f"(at most {MAX_DICE})")
    miss, fum, low, wnd, crit = die_law(plan)
    stun_law = _binomial(n, low, 36) if plan.stuns else {0: 36 ** n}
    if not plan.stuns:  # shots and artillery: a low damage die does nothing, like a fumble
        fum, low = fum + low, 0
    other, direct = miss + fum, wnd + crit
    t = plan.target
    room = t.leader_wo - t.leader_wounds if t.leader and t.crits_to_leader and not t.all_to_leader else 0
    denominator = 36 ** n
    p_low = [low ** k for k in range(n + 1)]
    p_dir = [direct ** k for k in range(n + 1)]
    p_oth = [other ** k for k in range(n + 1)]
    p_wnd = [wnd ** k for k in range(n + 1)]
    p_crit = [crit ** k for k in range(room + 1)]
    wounds: dict[int, int] = {}
    casualties: dict[int, int] = {}
    pairs: dict[tuple[int, int], int] = {}
    left: dict[tuple[int, int], int] = {}
    killed = wiped = 0
    # Gathered first, settled after: the outcome depends on the low dice only through the
    # wounds their Stunned markers make and the markers left, and on the wounding dice and
    # those wounds only through their sum (K15: criticals a leader takes are told apart),
    # except when every wound goes to the leader first (Hunt down the leader)
    hunt = t.leader and t.all_to_leader
    acc: dict[tuple[int, int, int, int], int] = {}
    for lo in range(n + 1):
        if budget is not None:
            budget.check()
        row = comb(n, lo) * p_low[lo]
        if not row:
            continue
        stun_wounds, stunned = divmod(t.stunned + lo, t.stuns_per_wound)
        for d in range(n - lo + 1):
            base = row * comb(n - lo, d) * p_oth[n - lo - d]
            cell = base * p_dir[d]
            if not cell:
                continue
            x, y = (d, stun_wounds) if hunt else (d + stun_wounds, 0)
            if room:
                rest = cell
                for k in range(min(d, room)):
                    c = base * comb(d, k) * p_wnd[d - k] * p_crit[k]
                    if c:
                        key = (x, y, k, stunned)
                        acc[key] = acc.get(key, 0) + c
                        rest -= c
                if rest:
                    key = (x, y, min(d, room), stunned)
                    acc[key] = acc.get(key, 0) + rest
            else:
                key = (x, y, 0, stunned)
                acc[key] = acc.get(key, 0) + cell
    seen: dict[tuple[int, int, int], tuple[int, bool, int, int]] = {}
    for (x, y, k, stunned), c in acc.items():
        got = seen.get((x, y, k))
        if got is None:  # x: wounding dice (and y the wounds from Stunned markers), or their sum
            got = seen[(x, y, k)] = put_wounds(t, y, x - k, k)
        cas, alive, _, w = got
        s = stunned if cas < t.miniatures else 0
        tw = x + y
        wounds[tw] = wounds.get(tw, 0) + c
        casualties[cas] = casualties.get(cas, 0) + c
        pairs[(tw, cas)] = pairs.get((tw, cas), 0) + c
        left[(w, s)] = left.get((w, s), 0) + c
        if t.leader and not alive:
            killed += c
        if cas == t.miniatures:
            wiped += c
    out = RollOdds(plan, denominator=denominator, pair_counts=pairs)
    out.impacts = _fractions(_binomial(n, 36 - miss, 36), denominator)
    out.criticals = _fractions(_binomial(n, crit, 36), denominator)
    out.fumbles = _fractions(_binomial(n, die_law(plan)[1], 36), denominator)
    out.stuns = _fractions(stun_law, denominator)
    out.wounds = _fractions(wounds, denominator)
    out.casualties = _fractions(casualties, denominator)
    out.pairs = _fractions(pairs, denominator)
    out.left = _fractions(left, denominator)
    out.leader_killed = Fraction(killed, denominator)
    out.wiped_out = Fraction(wiped, denominator)
    return out


@dataclass
class MeleeOdds:
    """Both sides of a hand-to-hand combat, and who wins it (K12)."""

    a: RollOdds
    b: RollOdds
    a_wins: Fraction
    draw: Fraction
    b_wins: Fraction
    #: casualties suffered by a (by b's roll, plus the peasant margin if a is peasants and loses)
    a_casualties: dict[int, Fraction]
    b_casualties: dict[int, Fraction]

    def to_json(self) -> dict[str, Any]:
        def dist(d: dict[int, Fraction]) -> dict[str, Any]:
            return {str(k): {"p": str(v), "float": float(v)} for k, v in sorted(d.items())}

        return {"a": self.a.to_json(), "b": self.b.to_json(),
                "a_wins": {"p": str(self.a_wins), "float": float(self.a_wins)},
                "draw": {"p": str(self.draw), "float": float(self.draw)},
                "b_wins": {"p": str(self.b_wins), "float": float(self.b_wins)},
                "a_casualties": dist(self.a_casualties), "b_casualties": dist(self.b_casualties)}


def peasant_margin(loser: TroopProfile, margin: int, left: int) -> int:
    """Extra peasants removed when a peasant troop loses by ``margin`` (003:256), at most ``left``."""
    return min(max(0, margin), left) if loser.title.loses_margin else 0


def _wound_counts(o: RollOdds) -> dict[int, int]:
    out: dict[int, int] = {}
    for (w, _), c in o.pair_counts.items():
        out[w] = out.get(w, 0) + c
    return out


def _casualties_of(loser: TroopProfile, own: RollOdds, foe: RollOdds, budget: Budget | None) -> dict[int, int]:
    """Casualties of the troop that ``foe``'s roll hits, out of both denominators: ``foe``'s
    casualties, plus the margin if ``loser`` is peasants and caused fewer wounds (003:256)."""
    out: dict[int, int] = {}
    if not loser.title.loses_margin:
        for (_, k), c in foe.pair_counts.items():
            out[k] = out.get(k, 0) + c * own.denominator
        return out
    mine = _wound_counts(own)
    top = max(mine) + 1
    at = [mine.get(w, 0) for w in range(top)]
    upto = [0] * (top + 1)            # upto[w]: own rolls with fewer than w wounds
    for w in range(top):
        upto[w + 1] = upto[w] + at[w]
    total = upto[top]
    size = foe.plan.target.miniatures
    for (wf, k), c in foe.pair_counts.items():
        if budget is not None:
            budget.check()
        cap = size - k                 # the margin removes at most the miniatures left
        lo = min(wf, top)
        out[k] = out.get(k, 0) + c * (total - upto[lo])      # no fewer wounds caused: no margin
        if cap <= 0:
            out[k] += c * upto[lo]
            continue
        full = min(max(wf - cap + 1, 0), top)                # a margin of cap or more: all gone
        if full:
            out[size] = out.get(size, 0) + c * upto[full]
        for wo in range(full, lo):                           # a margin of wf - wo (1 to cap - 1)
            if at[wo]:
                kk = k + peasant_margin(loser, wf - wo, cap)
                out[kk] = out.get(kk, 0) + c * at[wo]
    return out


def hand_to_hand(a: TroopProfile, b: TroopProfile, sa: Situation, sb: Situation, tables: Tables | None = None,
                 budget: Budget | None = None) -> MeleeOdds:
    """Both combat and damage rolls of a melee, counted exactly; the winner is the side that
    caused more wounds (K12); losing peasants remove the margin (003:256)."""
    t = tables or load_tables()
    oa = odds(plan_melee(a, b, sa, sb, t), budget)   # a's roll, wounds on b
    ob = odds(plan_melee(b, a, sb, sa, t), budget)   # b's roll, wounds on a
    wa, wb = _wound_counts(oa), _wound_counts(ob)
    denominator = oa.denominator * ob.denominator
    below = 0      # b's rolls with fewer wounds than the current a count
    win = draw = 0
    keys = sorted(set(wa) | set(wb))
    for w in keys:
        win += wa.get(w, 0) * below
        draw += wa.get(w, 0) * wb.get(w, 0)
        below += wb.get(w, 0)
    lose = denominator - win - draw
    ca = _fractions(_casualties_of(a, oa, ob, budget), denominator)
    cb = _fractions(_casualties_of(b, ob, oa, budget), denominator)
    return MeleeOdds(oa, ob, Fraction(win, denominator), Fraction(draw, denominator), Fraction(lose, denominator),
                     ca, cb)
