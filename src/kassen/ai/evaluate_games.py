"""Evaluations of An Honourable Victory! and clan card game positions, for
:class:`kassen.ai.lookahead.HalvingPlayer`.

They score *determinized* states (what the playouts reach), never the real one, and
return a value in [-1, 1] for ``seat`` (1: won).

An Honourable Victory! (001, Determine Victory Phase; ``HVState._victory``): a side
whose units off the table outnumber those on it is in general retreat and loses; at
one third of its units lost it loses its Daimyo, at half its morale breaks; when
morale breaks or the turn limit is reached, the side holding more zones uncontested
wins (ten of fifteen: an Honourable Victory). So the evaluation weighs stands and hit
markers (a unit reduced to one stand routs), the tally against the breakpoint, the
Daimyo, the uncontested zones -- more as the end draws near (the turn limit or a
breakpoint) -- and the threat of general retreat.

The clan card game (002, Scoring): at the end the exact score (win, tie, loss and the
Victory Point margin); before it, the ruleset's heuristic (the expected Victory Points
of every Battlefield from the cards as they stand, on the determinized cards).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kassen.ai.playout import playout_policy
from kassen.engine.protocol import CHANCE, State, sample_chance
from kassen.engine.rng import Rng
from kassen.rulesets.honourable_victory.table import FORWARD, parse_zone

if TYPE_CHECKING:
    from kassen.rulesets.honourable_victory.state import HVState


def _terminal(state: State, seat: int) -> float | None:
    res = state.result()
    if res is None:
        return None
    if res.scores and len(res.scores) > seat:
        return 2.0 * res.scores[seat] - 1.0
    return 0.0 if res.winner is None else (1.0 if res.winner == seat else -1.0)


#: the weights of An Honourable Victory!'s evaluation, by term (``weights_hv.json`` holds the
#: ones played; ``benchmarks/tune_eval.py --game honourable-victory`` fits them)
HV_WEIGHTS_FILE = Path(__file__).with_name("weights_hv.json")
HVWeights = dict[str, float]
#: the terms: the stands' share left (material), the uncontested zones and the zones within reach
#: (zones; zones_late grows with the end's nearness squared), the tally against the breakpoint, the
#: Daimyo, the zone lead once a side nears its breakpoint, general retreat, one unit short of it
HV_TERMS = ("material", "zones", "zones_late", "breakpoint", "daimyo", "zone_lead", "general_retreat",
            "retreat_danger")
_HV_LOADED: dict[str, HVWeights] = {}


def load_hv_weights(path: str | Path | None = None) -> HVWeights:
    """The HV evaluation weights in ``path`` (default :file:`weights_hv.json`), read once; raises
    ``ValueError`` naming a missing or unknown term."""
    key = str(path or HV_WEIGHTS_FILE)
    got = _HV_LOADED.get(key)
    if got is None:
        with open(key, encoding="utf-8") as f:
            data = json.load(f)
        missing = [k for k in HV_TERMS if not isinstance(data.get(k), (int, float))]
        if missing:
            raise ValueError(f"{key}: missing HV weights {', '.join(missing)}")
        got = _HV_LOADED[key] = {k: float(data[k]) for k in HV_TERMS}
    return got


@dataclass
class _HVTerms:
    mat: float
    zone_term: float
    progress: float
    broken: float
    daimyo: float
    #: a side is near its breakpoint, and the zone lead then counts (1, 0 or -1)
    near: bool
    lead: float
    #: per side at risk, in order (own first): (sign, general retreat, chance of it one unit short)
    retreat: list[tuple[float, bool, float]]


def _hv_terms(s: HVState, seat: int) -> _HVTerms:
    zones = s.table.zones()
    held: list[set[str]] = [set(), set()]
    on = [0, 0]
    off = [0, 0]
    strength = [0.0, 0.0]
    start = [0.0, 0.0]
    coming = expected_hits(s)
    for u in s.units.values():
        k = u.side
        start[k] += u.start
        if u.status == "table":
            on[k] += 1
            held[k].add(u.zone)
        else:
            off[k] += 1
        if u.status != "routed":
            hits = u.hits + coming.get(u.uid, 0.0)
            left = u.stands - 0.5 * hits
            # a unit reduced to one stand routs: a unit near it is worth less than its stands
            strength[k] += max(0.0, left) * (0.6 if left < 2.5 else 1.0)
    unc = [len(held[k] - held[1 - k]) for k in (0, 1)]
    me, op = seat, 1 - seat
    mat = strength[me] / max(1.0, start[me]) - strength[op] / max(1.0, start[op])
    broken = [min(1.0, s.tally[k] / max(1, s.values(k)[1])) for k in (0, 1)]
    limit = max(1, int(s.opts["turn_limit"]))
    progress = min(1.0, max(s.turn / limit, *broken))
    reach = zones_within_reach(s)
    zone_term = (unc[me] - unc[op] + REACH_WEIGHT * (reach[me] - reach[op])) / len(zones)
    # the side nearer its breakpoint decides the battle on zones soon: the zone lead then counts double
    lead = 0.0
    near = max(broken) >= 0.75
    if near:
        lead = 1.0 if unc[me] > unc[op] else -1.0 if unc[me] < unc[op] else 0.0
    retreat: list[tuple[float, bool, float]] = []
    for k, sign in ((me, -1.0), (op, 1.0)):
        if off[k] > on[k]:  # in general retreat at the next Determine Victory Phase
            retreat.append((sign, True, 1.0))
        elif on[k] - off[k] <= 1:  # one more unit off the table puts it in general retreat
            retreat.append((sign, False, rout_chance(s, k, coming)))
    return _HVTerms(mat, zone_term, progress, broken[op] - broken[me],
                    float((s.daimyo[me] is not None) - (s.daimyo[op] is not None)), near, lead, retreat)


def hv_features(state: State, seat: int) -> dict[str, float]:
    """The evaluation's terms for ``seat`` before their weights (:data:`HV_TERMS`): the evaluation
    of a position not over is ``sum(w[k] * f[k])``, clamped to [-1, 1] (the tuning's design matrix)."""
    s: HVState = state  # type: ignore[assignment]
    t = _hv_terms(s, seat)
    return {"material": t.mat, "zones": t.zone_term, "zones_late": t.progress * t.progress * t.zone_term, "breakpoint": t.broken,
            "daimyo": t.daimyo, "zone_lead": t.lead,
            "general_retreat": sum(sign for sign, general, _ in t.retreat if general),
            "retreat_danger": sum(sign * p for sign, general, p in t.retreat if not general)}


def evaluate_hv(state: State, seat: int, weights: HVWeights | str | Path | None = None) -> float:
    """How well ``seat`` stands in An Honourable Victory! (public facts only: the board,
    the tally, the Daimyo, the turn), with ``weights`` (or the file of them; default:
    :func:`load_hv_weights`)."""
    done = _terminal(state, seat)
    if done is not None:
        return done
    w = weights if isinstance(weights, dict) else load_hv_weights(weights)
    s: HVState = state  # type: ignore[assignment]
    t = _hv_terms(s, seat)
    val = (w["material"] * t.mat + (w["zones"] + w["zones_late"] * t.progress * t.progress) * t.zone_term
           + w["breakpoint"] * t.broken)
    val += w["daimyo"] * t.daimyo
    if t.near:
        val += w["zone_lead"] * t.lead
    for sign, general, p in t.retreat:
        val += w["general_retreat"] * sign if general else w["retreat_danger"] * sign * p
    return max(-1.0, min(1.0, val))


def rout_chance(s: HVState, side: int, coming: dict[str, float]) -> float:
    """Roughly, the chance that one of ``side``'s units on the table routs in the next Remove
    Losses Phase: two hit markers remove a stand, and a unit left with one stand routs."""
    keep = 1.0
    for u in s.on_table(side):
        hits = u.hits + coming.get(u.uid, 0.0)
        keep *= 1.0 - max(0.0, min(1.0, hits / 2.0 - (u.stands - 2)))
    return 1.0 - keep


#: how much a zone a spare unit can still take (or contest) counts, against a zone held now:
#: a spare foot unit one move from its zone counts 2.0 x 0.75 = 1.5 zones, so a spare is kept
#: for the last turn rather than spent on an empty zone early. With 1.0 and contests on normal
#: won 58 of 90 against greedy (branch hvai2), with 2.0 54 of its first 60 (branch hvai3)
REACH_WEIGHT = 2.0
#: the discount per game turn a unit needs to reach its zone
REACH_DISCOUNT = 0.75
#: whether a spare unit may also aim at a zone the other side holds alone (contesting it takes
#: it from the other side)
REACH_CONTESTS = True
#: the movement steps: a side's movement phase of this turn is under way or over
_MOVE_STEPS = frozenset({"move", "act2", "react", "recoiled"})


def phases_left(s: HVState, side: int) -> int:
    """How many movement phases ``side`` still has before the battle's turn limit (this
    turn's included while it has not ended)."""
    limit = int(s.opts["turn_limit"])
    later = max(0, limit - s.turn)
    if s.pend.get("step") not in _MOVE_STEPS:
        return later + 1
    mover = s.mover
    return later + (1 if side == mover or mover == s.init else 0)


def _zone_at(zone: str) -> tuple[int, int]:
    """``parse_zone``, remembered (the evaluation asks for the same few names all game)."""
    p = _ZONE_AT.get(zone)
    if p is None:
        q = parse_zone(zone)
        assert q is not None, zone
        p = _ZONE_AT[zone] = q
    return p


_ZONE_AT: dict[str, tuple[int, int]] = {}


def actions_to(s: HVState, col: int, row: int, facing: int, defensive: bool, zone: str) -> int:
    """Unit actions to reach the on-table ``zone`` from ``(col, row)`` facing ``facing``:
    the moves (one zone straight ahead each) and the turns between them (a defensive
    formation first changes formation, which sets any facing). Terrain is not counted."""
    p = _zone_at(zone)
    return _actions_to(col, row, facing, defensive, p[0], p[1])


def _actions_to(col: int, row: int, facing: int, defensive: bool, tc: int, tr: int) -> int:
    dc, dr = tc - col, tr - row
    need = (dr > 0) + (dc > 0) + (dr < 0) + (dc < 0)  # the directions to move in (N, E, S, W)
    if not need:
        return 0
    faces = (dr > 0) if facing == 0 else (dc > 0) if facing == 1 else (dr < 0) if facing == 2 else (dc < 0)
    turns = need - (1 if defensive or faces else 0) + (1 if defensive else 0)
    return abs(dc) + abs(dr) + turns


def zones_within_reach(s: HVState) -> list[float]:
    """Per side, the zones its spare units can still take before the turn limit, each
    discounted by the game turns it takes (:data:`REACH_DISCOUNT` per turn): empty zones,
    and with :data:`REACH_CONTESTS` the zones the other side holds alone (contesting one
    counts as much as taking one).

    A spare unit is an unengaged unit on the table that shares its zone with a friend (the
    zone keeps one), or a unit in reserve (one action to enter). Units and zones are paired
    greedily, nearest first, both sides together: a zone one side reaches sooner is not
    counted for the other (on equal terms each side is taken first once, and the two
    pairings averaged)."""
    table = s.table
    zones = table.zones()
    count: dict[tuple[int, str], int] = {}
    held: list[set[str]] = [set(), set()]
    for u in s.units.values():
        if u.status == "table":
            held[u.side].add(u.zone)
            count[u.side, u.zone] = count.get((u.side, u.zone), 0) + 1
    occupied = held[0] | held[1]
    empty = [z for z in zones if z not in occupied and not table.impassable(z)]
    targets = [empty + (sorted(held[1 - k] - held[k]) if REACH_CONTESTS else []) for k in (0, 1)]
    if not targets[0] and not targets[1]:
        return [0.0, 0.0]
    left = [phases_left(s, 0), phases_left(s, 1)]
    busy = s.pend.get("step") in _MOVE_STEPS
    current = s.cur.get("unit") if s.cur else None
    pairs: list[tuple[float, int, int, str, str]] = []  # (turns, actions, side, unit, zone)
    for u in s.units.values():
        if u.status == "routed" or (u.status == "table" and (count[u.side, u.zone] < 2 or s.engaged(u.uid))):
            continue
        extra = 0
        zone, facing, defensive = u.zone, u.facing, u.form == "defensive"
        if u.status == "reserve":
            zone, facing, defensive, extra = table.in_front_of_reserve(u.zone), FORWARD[u.side], False, 1
        p = _zone_at(zone)
        per = 2 if s.is_mounted(u) else 1
        # a unit already chosen in its side's movement phase under way acts again only next turn
        phases = left[u.side] - (1 if busy and u.side == s.mover and u.uid in s.chosen and u.uid != current else 0)
        for z in targets[u.side]:
            q = _zone_at(z)
            n = extra + _actions_to(p[0], p[1], facing, defensive, q[0], q[1])
            if -(-n // per) <= phases:
                pairs.append((n / per, n, u.side, u.uid, z))
    if not pairs:
        return [0.0, 0.0]
    out = [0.0, 0.0]
    for first in (0, 1):
        pairs.sort(key=lambda q: (q[0], q[1], q[2] != first, q[3], q[4]))
        used_units: set[str] = set()
        used_zones: set[str] = set()
        spare = {k: n - 1 for k, n in count.items()}
        for t, _, side, uid, z in pairs:
            if uid in used_units or z in used_zones:
                continue
            u = s.units[uid]
            if u.status == "table":
                if spare[side, u.zone] <= 0:
                    continue
                spare[side, u.zone] -= 1
            used_units.add(uid)
            used_zones.add(z)
            out[side] += 0.5 * REACH_DISCOUNT ** t
    return out


def expected_hits(s: HVState) -> dict[str, float]:
    """The hit markers each engaged unit can expect in the next Hand-to-Hand Combat Phase:
    one for being engaged, and the expected hits of its enemies' stands (each die hits on
    the Combat Value or less; an overlap or outflank re-throws the misses)."""
    out: dict[str, float] = {}
    for u in s.on_table():
        foes = s.enemies_engaged(u.uid)
        if not foes:
            continue
        out[u.uid] = out.get(u.uid, 0.0) + 1.0
        share = u.stands / len(foes)
        for f in foes:
            t = s.u(f)
            p = s.combat_value(u, t) / 6.0
            if s.reroll_kind(u, t) is not None:
                p = 1.0 - (1.0 - p) * (1.0 - p)
            dice = s.attack_dice(u, t, max(1, round(share)))
            out[f] = out.get(f, 0.0) + dice * p
    return out


def evaluate_clans(state: State, seat: int) -> float:
    """How well ``seat`` (and its partner) stands in the clan card game: the exact outcome
    and Victory Point margin at the end, else the ruleset's heuristic."""
    res = state.result()
    if res is None:
        return state.heuristic(seat)
    outcome = _terminal(state, seat) or 0.0
    vp = state.observation(None).get("vp") or {}
    names = list(state.seat_names())
    points = [float(vp.get(n, 0)) for n in names]
    n = len(names)
    teams = n == 4 and bool(state.observation(None).get("teams"))
    if teams:
        mine = points[seat] + points[(seat + 2) % 4]
        other = points[(seat + 1) % 4] + points[(seat + 3) % 4]
    else:
        mine = points[seat]
        other = max(points[k] for k in range(n) if k != seat)
    return 0.8 * outcome + 0.2 * math.tanh((mine - other) / 8.0)


# each game's spec names its evaluation (``AISpec.evaluation``: ``evaluate_hv``, ``evaluate_clans``);
# the other games use the ruleset's heuristic


# ---------------------------------------------------------------- the last movement phases
def hv_battle_ends_this_turn(s: HVState) -> bool:
    """Whether the coming Determine Victory Phase ends the battle and no combat comes
    before it: a movement phase of the last turn, or of a turn in which a side's tally
    has reached its Breakpoint Value (the tally never falls)."""
    if s.result() is not None or s.pend.get("step") not in _MOVE_STEPS:
        return False
    return s.turn >= int(s.opts["turn_limit"]) or any(s.tally[k] >= s.values(k)[1] for k in (0, 1))


#: the game turns, counted back from the turn limit, whose movement phases the endgame search
#: plays out to the result (1: only the last turn's; 2: also the turn before, its playouts going
#: through the last turn's combat, its dice sampled, and its movement phases)
ENDGAME_TURNS = 2


def hv_endgame_applies(s: HVState) -> bool:
    """Whether a movement decision is searched to the result: the battle ends at this turn's
    Determine Victory Phase (:func:`hv_battle_ends_this_turn`), or this is one of the last
    :data:`ENDGAME_TURNS` game turns."""
    if s.result() is not None or s.pend.get("step") not in _MOVE_STEPS:
        return False
    return hv_battle_ends_this_turn(s) or s.turn > int(s.opts["turn_limit"]) - ENDGAME_TURNS


def hv_policy_value(s: HVState, side: int) -> float:
    """What the endgame's zone policy maximizes: the zone margin (:func:`hv_zone_margin`), and
    before the last turn's movement phases also the zones within reach
    (:func:`zones_within_reach`, weighted by :data:`REACH_WEIGHT`): a unit that turns to face an
    empty zone it can take next turn is worth more than one that does not."""
    margin = hv_zone_margin(s, side)
    if s.result() is not None or hv_battle_ends_this_turn(s):
        return margin
    reach = zones_within_reach(s)
    return margin + REACH_WEIGHT * (reach[side] - reach[1 - side])


def hv_zone_margin(s: HVState, side: int) -> float:
    """``side``'s uncontested zones less the other side's, and the general retreat (off the
    table outnumbering on it) as a loss: what the Determine Victory Phase will see."""
    held: list[set[str]] = [set(), set()]
    on = [0, 0]
    off = [0, 0]
    for u in s.units.values():
        if u.status == "table":
            held[u.side].add(u.zone)
            on[u.side] += 1
        else:
            off[u.side] += 1
    margin = float(len(held[side] - held[1 - side]) - len(held[1 - side] - held[side]))
    retreat = [off[k] > on[k] for k in (0, 1)]
    if retreat[side] != retreat[1 - side]:
        margin += -100.0 if retreat[side] else 100.0
    return margin


def hv_own_movement(state: State, seat: int) -> bool:
    """Whether ``state`` is in ``seat``'s movement phase (its decisions or the reactions to
    them): a movement decision is judged when the phase is over, not after random replies."""
    s: HVState = state  # type: ignore[assignment]
    return s.result() is None and s.pend.get("step") in _MOVE_STEPS and s.mover == seat


#: the verbs that change who holds a zone in a movement phase (and a mounted unit's turn,
#: which its second action may follow with a move)
_ZONE_VERBS = frozenset({"move", "enter"})
#: the verbs that ready a unit for the next turn's moves (its facing, its formation)
_SETUP_VERBS = frozenset({"turn", "form"})


def hv_zone_policy(state: State, rng: Rng) -> str:
    """The policy of the last movement phases: the action that most improves the mover's
    zone margin (:func:`hv_zone_margin`), a mounted unit's two actions looked at together;
    among equals the first of ending the phase, stopping, no reaction, else at random."""
    s: HVState = state  # type: ignore[assignment]
    legal = [a for a in s.legal_actions() if a != "concede"] or s.legal_actions()
    seat = s.pend["seat"]
    step = s.pend.get("step")
    if step in ("move", "act2"):
        setup = _spare_units(s) if not hv_battle_ends_this_turn(s) else set()
        cands = [a for a in legal if _zone_action(s, a, setup)]
        passive = "end" if step == "move" else next(a for a in legal if a.endswith(" stop"))
    else:
        cands = legal
        passive = "none" if "none" in legal else ""
    best: list[str] = [passive] if passive else []
    best_value = hv_policy_value(s, seat) if passive else -math.inf
    for a in cands:
        if a == passive:
            continue
        v = _zone_value(s.apply(a), seat, 1)
        if v > best_value + 1e-9:
            best, best_value = [a], v
        elif v > best_value - 1e-9:
            best.append(a)
    if not best:
        return rng.choice(legal)
    return best[0] if best[0] == passive else rng.choice(best)


def _spare_units(s: HVState) -> set[str]:
    """The unengaged units on the table that share their zone with a friend: the units whose
    facing and formation count in :func:`zones_within_reach`."""
    count: dict[tuple[int, str], int] = {}
    for u in s.units.values():
        if u.status == "table":
            count[u.side, u.zone] = count.get((u.side, u.zone), 0) + 1
    return {u.uid for u in s.units.values()
            if u.status == "table" and count[u.side, u.zone] > 1 and not s.engaged(u.uid)}


def _zone_action(s: HVState, action: str, setup: set[str]) -> bool:
    """Whether the zone policy looks at ``action``: a move or an entry, a mounted unit's turn
    (a move may follow), and a turn or change of formation of a unit in ``setup`` (before the
    last turn: the spare units, readied for next turn's moves)."""
    words = action.split()
    if len(words) < 2 or words[0] not in s.units:
        return False
    if words[1] in _ZONE_VERBS or (words[1] in _SETUP_VERBS and words[0] in setup):
        return True
    u = s.units[words[0]]
    return words[1] == "turn" and s.pend.get("step") == "move" and s.is_mounted(u) \
        and not s.table.restricted(u.zone)


def _zone_value(s: HVState, seat: int, depth: int) -> float:
    """The policy's value after an action (:func:`hv_policy_value`), or after the best second
    action of the same unit."""
    value = hv_policy_value(s, seat)
    if depth > 0 and s.pend.get("step") == "act2" and s.pend.get("seat") == seat:
        setup = _spare_units(s) if not hv_battle_ends_this_turn(s) else set()
        for a in s.legal_actions():
            if _zone_action(s, a, setup):
                value = max(value, _zone_value(s.apply(a), seat, depth - 1))
    return value


def _in_movement(state: State) -> bool:
    s: HVState = state  # type: ignore[assignment]
    return s.pend.get("step") in _MOVE_STEPS


#: what a drawn end is worth in the endgame play-outs, between a loss (-1) and a win (1): below
#: the middle, so that the search takes a chance of winning over a safe draw
DRAW_VALUE = -0.4


class HVEndgame:
    """The movement phases of the last :data:`ENDGAME_TURNS` game turns of An Honourable
    Victory!, played out to the result: both sides follow :func:`hv_zone_policy` in movement
    phases and the playout policy elsewhere (fire, hand-to-hand, the Daimyo), the dice
    sampled, until the Determine Victory Phase ends the battle."""

    #: a bound on the actions of one play-out (two game turns' phases and their reactions)
    depth = 400

    def applies(self, state: State) -> bool:
        return hv_endgame_applies(state)  # type: ignore[arg-type]

    def chancy(self, state: State) -> bool:
        """Whether combat (dice, and the next turn's initiative) comes before the result: a
        turn before the last."""
        return not hv_battle_ends_this_turn(state)  # type: ignore[arg-type]

    def play(self, state: State, rng: Rng) -> State:
        for _ in range(self.depth):
            mover = state.to_move()
            if mover is None:
                break
            if mover == CHANCE:
                state = state.apply(sample_chance(state.chance_outcomes(), rng))
            elif _in_movement(state):
                state = state.apply(hv_zone_policy(state, rng))
            else:
                state = state.apply(playout_policy(state, state.legal_actions(), rng))
        return state

    def value(self, state: State, seat: int) -> float:
        """The result (1 won, :data:`DRAW_VALUE` drawn, -1 lost), and a little for the zone
        margin."""
        s: HVState = state  # type: ignore[assignment]
        done = _terminal(state, seat)
        base = 0.0 if done is None else DRAW_VALUE if done == 0.0 else done
        margin = hv_zone_margin(s, seat)
        return 0.9 * base + 0.1 * max(-1.0, min(1.0, margin / len(s.table.zones())))


#: An Honourable Victory!'s last-phase search (its spec's ``AISpec.endgame``;
#: :class:`kassen.ai.lookahead.HalvingPlayer` uses it there)
HV_ENDGAME = HVEndgame()
# A game's spec may name the phase whose decisions are judged at its end (``AISpec.horizon``, a
# ``Horizon``: playouts of a decision in it stop there). None by default: in a 20-game trial
# judging An Honourable Victory! movement decisions at the end of the phase (``hv_own_movement``)
# did worse than playing on until the seat decides again
