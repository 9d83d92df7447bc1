"""The arithmetic of one C&C Samurai combat roll, shared by the rules and the odds calculator.

Pure functions of unit types and terrain: how many dice (base dice, move-and-fire
reduction, terrain maxima, then the additions that ignore the maxima), and what a
roll scores (matching symbols, sword hits and the swords ignored for rank and
stature, flags, Honor & Fortune collected).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from kassen.engine.dice import FACES, Face
from kassen.rulesets.cc_samurai.data import TerrainType, UnitType

SYMBOL_FACE = {"circle": Face.CIRCLE, "triangle": Face.TRIANGLE, "square": Face.SQUARE}


def base_dice(ut: UnitType, kind: str, distance: int, moved: bool, blocks: int) -> int:
    """Step 1: the dice the unit type rolls (bodyguards: one per block)."""
    if kind == "close":
        return blocks if ut.dice_per_block else ut.close
    n = ut.ranged.get(distance, 0)
    if moved and ut.ranged_moved is not None:
        n = min(n, ut.ranged_moved)
    return n


def terrain_caps(ut: UnitType, kind: str, on: TerrainType, into: TerrainType) -> list[int]:
    """Step 2: the terrain maxima that apply (attacker's hex, defender's hex, hill from below)."""
    caps = [c for c in (on.cap_on(kind, ut.cavalry), into.cap_into(kind, ut.cavalry)) if c is not None]
    if kind == "close" and into.hill and not on.hill:
        caps.append(2)
    return caps


def dice_count(ut: UnitType, kind: str, distance: int, moved: bool, blocks: int,
               on: TerrainType, into: TerrainType, bonus: int) -> int:
    """Steps 1-3: base dice, capped by terrain, then ``bonus`` dice (inspiration, cards) on top."""
    n = base_dice(ut, kind, distance, moved, blocks)
    for c in terrain_caps(ut, kind, on, into):
        n = min(n, c)
    return n + bonus


def swords_ignored(att: UnitType, tgt: UnitType) -> int:
    """Close combat: swords the target ignores for superior rank and stature (cumulative)."""
    if att.bodyguard or tgt.bodyguard:
        return 0
    n = 1 if tgt.cavalry and not att.cavalry else 0
    if tgt.symbol == "square":
        n += {"triangle": 1, "circle": 2}.get(att.symbol, 0)
    elif tgt.symbol == "triangle" and att.symbol == "circle":
        n += 1
    return n


@dataclass(frozen=True)
class Score:
    hits: int
    flags: int
    honor: int
    swords_ignored: int


def score_roll(counts: dict[Face, int], att: UnitType, tgt: UnitType, kind: str, inspired: int = 0) -> Score:
    """Score a roll against a unit: hits, flags, and the Honor & Fortune the attacker collects."""
    swords = counts.get(Face.SWORDS, 0)
    ignored = 0
    if tgt.bodyguard:
        hits = swords if kind == "close" else 0
    else:
        hits = counts.get(SYMBOL_FACE[tgt.symbol], 0)
        if kind == "close":
            if att.bodyguard:
                hits += swords
            else:
                ignored = min(swords, swords_ignored(att, tgt))
                hits += swords - ignored
        elif att.ranged_sword_hits:
            hits += swords
    honor = counts.get(Face.HONOR, 0)
    if kind == "close":
        honor = max(0, honor - inspired)
        if not att.close_honor_vs_lower and tgt.symbol in ("triangle", "circle"):
            honor = 0
        if tgt.levy:
            honor = 0
    elif not att.collects_ranged_honor:
        honor = 0
    return Score(hits, counts.get(Face.FLAG, 0), honor, ignored)


def roll_distribution(n: int) -> list[tuple[dict[Face, int], Fraction]]:
    """Every multiset of faces ``n`` dice can show, with its exact probability."""
    out: list[tuple[dict[Face, int], Fraction]] = []
    total = Fraction(1, 6**n)

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i == len(FACES) - 1:
            ks = [*acc, left]
            ways = factorial(n)
            for k in ks:
                ways //= factorial(k)
            out.append(({f: k for f, k in zip(FACES, ks) if k}, ways * total))
            return
        for k in range(left + 1):
            rec(i + 1, left - k, [*acc, k])

    rec(0, n, [])
    return out


def bodyguard_roll_distribution(n: int) -> list[tuple[dict[Face, int], Fraction]]:
    """Bodyguards roll ``n`` dice and roll one more die for every sword (once): the combined faces."""
    out: dict[tuple[int, ...], Fraction] = {}
    for first, p in roll_distribution(n):
        extra_n = first.get(Face.SWORDS, 0)
        for extra, q in roll_distribution(extra_n):
            combined = tuple(first.get(f, 0) + extra.get(f, 0) for f in FACES)
            out[combined] = out.get(combined, Fraction(0)) + p * q
    return [({f: k for f, k in zip(FACES, key) if k}, p) for key, p in out.items()]
