"""The arithmetic of one C&C Samurai combat roll, shared by the rules and the odds calculator.

Pure functions of unit types and terrain: how many dice (base dice, move-and-fire
reduction, terrain maxima, then the additions that ignore the maxima), and what a
roll scores (matching symbols, sword hits and the swords ignored for rank and
stature, flags, Honor & Fortune collected).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial
from typing import Final

from kassen.engine.dice import FACES, Face
from kassen.engine.events import plural
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


def swords_ignored(att: UnitType | _Scoring, tgt: UnitType | _Scoring) -> int:
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
    matched = 0 if tgt.bodyguard else counts.get(SYMBOL_FACE[tgt.symbol], 0)
    return _score(counts.get(Face.SWORDS, 0), matched, counts.get(Face.HONOR, 0), counts.get(Face.FLAG, 0),
                  att, tgt, kind, inspired)


_SWORDS: Final = Face.SWORDS
_HONOR: Final = Face.HONOR
_FLAG: Final = Face.FLAG


def score_faces(faces: list[Face], att: UnitType, tgt: UnitType, kind: str, inspired: int = 0) -> Score:
    """``score_roll`` of the faces as rolled: counted by identity (the rules' hot path; no
    ``Counter`` and no hash of the enum, whose ``__hash__`` runs interpreted)."""
    want = None if tgt.bodyguard else SYMBOL_FACE[tgt.symbol]
    swords = matched = honor = flags = 0
    for f in faces:
        if f is want:
            matched += 1
        elif f is _SWORDS:
            swords += 1
        elif f is _HONOR:
            honor += 1
        elif f is _FLAG:
            flags += 1
    return _score(swords, matched, honor, flags, att, tgt, kind, inspired)


def _score(swords: int, matched: int, honor: int, flags: int, att: UnitType, tgt: UnitType, kind: str,
           inspired: int) -> Score:
    ignored = 0
    if tgt.bodyguard:
        hits = swords if kind == "close" else 0
    else:
        hits = matched
        if kind == "close":
            if att.bodyguard:
                hits += swords
            else:
                ignored = min(swords, swords_ignored(att, tgt))
                hits += swords - ignored
        elif att.ranged_sword_hits:
            hits += swords
    if kind == "close":
        honor = max(0, honor - inspired)
        if not att.close_honor_vs_lower and tgt.symbol in ("triangle", "circle"):
            honor = 0
        if tgt.levy:
            honor = 0
    elif not att.collects_ranged_honor:
        honor = 0
    return Score(hits, flags, honor, ignored)


def explain_roll(counts: dict[Face, int], att: UnitType, tgt: UnitType, kind: str, inspired: int = 0) -> str:
    """The score of a roll against a unit in words: what hit, what missed and why, the flags,
    and why Honor & Fortune was or was not collected (000:880-930).

    >>> from kassen.rulesets.cc_samurai.data import load_tables
    >>> t = load_tables("gmt")
    >>> explain_roll({Face.TRIANGLE: 2, Face.SWORDS: 1, Face.CIRCLE: 1, Face.HONOR: 1}, t.units["SSpC"],
    ...              t.units["ASp"], "close")
    'against Ashigaru Infantry Spearmen: 3 hits (2 triangles, 1 sword); missed: 1 circle; 1 Honor & Fortune rolled, none collected (Samurai Spearmen Cavalry take none in close combat against a lower rank)'
    >>> explain_roll({Face.SQUARE: 1, Face.SWORDS: 2, Face.FLAG: 1}, t.units["ASp"], t.units["SSpC"], "close")
    'against Samurai Spearmen Cavalry: 1 hit (1 square); 1 flag; missed: 2 swords ignored (superior rank or stature)'
    >>> explain_roll({Face.CIRCLE: 2}, t.units["AB"], t.units["ASp"], "ranged")
    'against Ashigaru Infantry Spearmen: 0 hits; missed: 2 circles'
    """
    sc = score_roll(counts, att, tgt, kind, inspired)
    parts: list[str] = []
    hit_bits: list[str] = []
    missed: list[str] = []
    swords = counts.get(Face.SWORDS, 0)
    for face in (Face.CIRCLE, Face.TRIANGLE, Face.SQUARE):
        n = counts.get(face, 0)
        if not n:
            continue
        if not tgt.bodyguard and SYMBOL_FACE[tgt.symbol] is face:
            hit_bits.append(plural(n, face.value))
        else:
            missed.append(plural(n, face.value))
    if swords:
        sword_hits = sc.hits - sum(counts.get(f, 0) for f in SYMBOL_FACE.values()
                                   if not tgt.bodyguard and SYMBOL_FACE[tgt.symbol] is f)
        if sword_hits:
            hit_bits.append(plural(sword_hits, "sword"))
        if sc.swords_ignored:
            missed.append(f"{plural(sc.swords_ignored, 'sword')} ignored (superior rank or stature)")
        elif swords > sword_hits:
            why = "bodyguards are hit by swords in close combat only" if tgt.bodyguard else "swords score only in close combat"
            missed.append(f"{plural(swords - sword_hits, 'sword')} ({why})")
    parts.append(f"{plural(sc.hits, 'hit')}" + (f" ({', '.join(hit_bits)})" if hit_bits else ""))
    if sc.flags:
        parts.append(plural(sc.flags, "flag"))
    if missed:
        parts.append("missed: " + ", ".join(missed))
    rolled = counts.get(Face.HONOR, 0)
    if rolled:
        if sc.honor == rolled:
            parts.append(f"{plural(rolled, 'Honor & Fortune', 'Honor & Fortune')} collected")
        else:
            if kind != "close":
                why = f"{att.name} collect none in ranged combat"
            elif tgt.levy:
                why = "nobody collects any from a levy in close combat"
            elif not att.close_honor_vs_lower and tgt.symbol in ("triangle", "circle"):
                why = f"{att.name} take none in close combat against a lower rank"
            else:
                why = f"an inspired unit collects {plural(min(inspired, rolled), 'token')} fewer"
            got = "none collected" if sc.honor == 0 else f"{sc.honor} collected"
            parts.append(f"{plural(rolled, 'Honor & Fortune', 'Honor & Fortune')} rolled, {got} ({why})")
    return f"against {tgt.name}: " + "; ".join(parts)


@dataclass(frozen=True)
class Marginals:
    """The exact distributions of one attack's hits, flags and Honor & Fortune: integer
    weights over ``total`` equally likely outcomes (``6**n``, or ``36**n`` for bodyguards)."""

    total: int
    hits: dict[int, int]
    flags: dict[int, int]
    honor: dict[int, int]
    #: rolls with neither a hit nor a flag (1 - quiet/total: the target is hit or must retreat)
    quiet: int = 0

    def p(self, weights: dict[int, int]) -> dict[int, float]:
        return {k: weights[k] / self.total for k in sorted(weights)}

    def p_at_least(self, weights: dict[int, int], k: int) -> float:
        return sum(w for v, w in weights.items() if v >= k) / self.total


def _power(per_die: tuple[int, ...], n: int) -> dict[int, int]:
    """The distribution of the sum of ``n`` independent dice whose values 0, 1, 2, ... have
    integer weights ``per_die`` (a polynomial raised to the ``n``-th power)."""
    acc = [1]
    for _ in range(n):
        nxt = [0] * (len(acc) + len(per_die) - 1)
        for i, a in enumerate(acc):
            if a:
                for j, b in enumerate(per_die):
                    nxt[i + j] += a * b
        acc = nxt
    return {k: w for k, w in enumerate(acc) if w}


@cache
def _trinomial(n: int, other: int) -> tuple[tuple[int, int, int], ...]:
    """(a, b, ways): ``a`` dice show one face, ``b`` another, the rest any of ``other`` faces;
    ways counted over ``6**n``."""
    return tuple((a, b, comb(n, a) * comb(n - a, b) * other ** (n - a - b))
                 for a in range(n + 1) for b in range(n - a + 1))


def _honor(raw: dict[int, int], att: _Scoring, tgt: _Scoring, kind: str, inspired: int) -> dict[int, int]:
    """Honor & Fortune collected from the Honor faces rolled (the rules of :func:`score_roll`)."""
    zero = (kind == "close" and ((not att.close_honor_vs_lower and tgt.symbol in ("triangle", "circle"))
                                 or tgt.levy)) or (kind != "close" and not att.collects_ranged_honor)
    out: dict[int, int] = {}
    for h, w in raw.items():
        k = 0 if zero else (max(0, h - inspired) if kind == "close" else h)
        out[k] = out.get(k, 0) + w
    return out


def marginals(n: int, att: UnitType, tgt: UnitType, kind: str, inspired: int = 0) -> Marginals:
    """Exact hits, flags and Honor & Fortune of ``n`` dice of ``att`` against ``tgt``, counted
    with integers (the same scoring as :func:`score_roll` on every roll, without listing the
    rolls): flags and Honor faces are binomial; hits come from the joint count of the target's
    symbol and swords (rank and stature ignore some swords); a bodyguard's sword rolls one more
    die, so each of its dice is a compound die over 36 outcomes.

    >>> from kassen.rulesets.cc_samurai.data import load_tables
    >>> u = load_tables("gmt").units
    >>> m = marginals(3, u["ASp"], u["ASp"], "close")
    >>> m.total, m.hits[1], m.flags[0]  # 1 hit: 3 * 2 * 2 * 4 of 216 rolls; no flag: 5 ** 3
    (216, 96, 125)
    """
    return _marginals(n, _Scoring.of(att), _Scoring.of(tgt), kind, inspired)


@dataclass(frozen=True)
class _Scoring:
    """What scoring reads of a unit type (hashable, so results are remembered)."""

    symbol: str
    cavalry: bool
    bodyguard: bool
    levy: bool
    ranged_sword_hits: bool
    close_honor_vs_lower: bool
    collects_ranged_honor: bool

    @classmethod
    def of(cls, u: UnitType) -> _Scoring:
        return cls(u.symbol, u.cavalry, u.bodyguard, u.levy, u.ranged_sword_hits, u.close_honor_vs_lower,
                   u.collects_ranged_honor)


@cache
def _marginals(n: int, att: _Scoring, tgt: _Scoring, kind: str, inspired: int) -> Marginals:
    if att.bodyguard and kind == "close":
        total = 36**n
        # per die (over 36): a first sword hits and rolls once more (that die's sword does not)
        hits_die = (30, 5, 1) if tgt.bodyguard else (24, 10, 2)
        hits = _power(hits_die, n)
        flags = _power((29, 7), n)
        honor_raw = _power((29, 7), n)
        # no hit, no flag: the first face is neither a sword nor a flag, nor the symbol hit
        quiet = (24 if tgt.bodyguard else 18) ** n
    else:
        total = 6**n
        hits = {}
        for sym, swords, ways in _trinomial(n, 4):
            if tgt.bodyguard:
                h = swords if kind == "close" else 0
            elif kind == "close":
                h = sym + (swords if att.bodyguard else swords - min(swords, swords_ignored(att, tgt)))
            else:
                h = sym + (swords if att.ranged_sword_hits else 0)
            hits[h] = hits.get(h, 0) + ways
        flags = _power((5, 1), n)
        honor_raw = _power((5, 1), n)
        # no hit, no flag: no flag face, no face that hits (swords only up to those ignored)
        if tgt.bodyguard and kind != "close":
            quiet = 5**n  # nothing hits bodyguards at range: only a flag counts
        elif tgt.bodyguard or (kind != "close" and not att.ranged_sword_hits):
            quiet = 4**n  # the symbol (or, at range, the sword) does not hit: 4 harmless faces
        elif kind == "close" and not att.bodyguard:
            ig = swords_ignored(att, tgt)
            quiet = sum(comb(n, k) * 3 ** (n - k) for k in range(min(n, ig) + 1))
        else:
            quiet = 3**n
    return Marginals(total, hits, flags, _honor(honor_raw, att, tgt, kind, inspired), quiet)


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
