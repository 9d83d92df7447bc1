"""Exact odds counted with integers (issue 15) agree with the enumeration of every roll.

``marginals`` counts hits, flags and Honor & Fortune without listing rolls; here it is
checked against ``score_roll`` over ``roll_distribution`` (every multiset of faces) and its
bodyguard version, for every pair of unit types, both kinds of combat and inspiration.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from kassen.rulesets.cc_samurai.combat import (
    bodyguard_roll_distribution,
    marginals,
    roll_distribution,
    score_roll,
)
from kassen.rulesets.cc_samurai.data import load_tables


def enumerated(n: int, att, tgt, kind: str, inspired: int) -> tuple[dict, dict, dict]:
    dist = bodyguard_roll_distribution(n) if (att.bodyguard and kind == "close") else roll_distribution(n)
    out: tuple[dict, dict, dict] = ({}, {}, {})
    for counts, p in dist:
        sc = score_roll(counts, att, tgt, kind, inspired)
        for d, k in zip(out, (sc.hits, sc.flags, sc.honor)):
            d[k] = d.get(k, Fraction(0)) + p
    return out


def quiet(n: int, att, tgt, kind: str) -> Fraction:
    """P(no hit and no flag), by enumeration."""
    dist = bodyguard_roll_distribution(n) if (att.bodyguard and kind == "close") else roll_distribution(n)
    return sum((p for counts, p in dist if (sc := score_roll(counts, att, tgt, kind, 0)).hits == 0 and sc.flags == 0),
               Fraction(0))


@pytest.mark.parametrize("edition", ["gmt", "zvezda"])
def test_counted_odds_equal_the_enumerated_odds_for_every_pair_of_units(edition: str) -> None:
    units = load_tables(edition).units
    for att in units.values():
        for tgt in units.values():
            for kind in ("close", "ranged"):
                for n in (1, 3, 4):
                    for inspired in ((0, 1) if kind == "close" else (0,)):
                        m = marginals(n, att, tgt, kind, inspired)
                        for got, want in zip((m.hits, m.flags, m.honor), enumerated(n, att, tgt, kind, inspired)):
                            assert {k: Fraction(w, m.total) for k, w in got.items()} == \
                                {k: p for k, p in want.items() if p}, (att.code, tgt.code, kind, n, inspired)
                        assert Fraction(m.quiet, m.total) == quiet(n, att, tgt, kind), (att.code, tgt.code, kind, n)


def test_nine_dice_of_bodyguards_are_counted_exactly() -> None:
    """The 9-die bodyguard attack that took 1 s: each sword rolls one more die (once)."""
    u = load_tables("gmt").units
    bg = next(x for x in u.values() if x.bodyguard)
    m = marginals(9, bg, u["ASp"], "close", 0)
    assert m.total == 36**9 and sum(m.hits.values()) == m.total and max(m.hits) == 18
    assert m.hits[18] == 2**9  # every die a sword, and every extra die a sword or a triangle
    want = enumerated(5, bg, u["ASp"], "close", 0)[0]
    small = marginals(5, bg, u["ASp"], "close", 0)
    assert {k: Fraction(w, small.total) for k, w in small.hits.items()} == want

