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

import math
from typing import TYPE_CHECKING

from kassen.engine.protocol import State

if TYPE_CHECKING:
    from kassen.rulesets.honourable_victory.state import HVState


def _terminal(state: State, seat: int) -> float | None:
    res = state.result()
    if res is None:
        return None
    if res.scores and len(res.scores) > seat:
        return 2.0 * res.scores[seat] - 1.0
    return 0.0 if res.winner is None else (1.0 if res.winner == seat else -1.0)


def evaluate_hv(state: State, seat: int) -> float:
    """How well ``seat`` stands in An Honourable Victory! (public facts only: the board,
    the tally, the Daimyo, the turn)."""
    done = _terminal(state, seat)
    if done is not None:
        return done
    s: HVState = state  # type: ignore[assignment]
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
    zone_term = (unc[me] - unc[op]) / len(zones)
    val = 0.45 * mat + (0.15 + 0.45 * progress * progress) * zone_term + 0.3 * (broken[op] - broken[me])
    val += 0.06 * ((s.daimyo[me] is not None) - (s.daimyo[op] is not None))
    # the side nearer its breakpoint decides the battle on zones soon: the zone lead then counts double
    if max(broken) >= 0.75:
        val += 0.15 * (1.0 if unc[me] > unc[op] else -1.0 if unc[me] < unc[op] else 0.0)
    for k, sign in ((me, -1.0), (op, 1.0)):
        if off[k] > on[k]:  # in general retreat at the next Determine Victory Phase
            val += 0.6 * sign
    return max(-1.0, min(1.0, val))


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


#: game id -> its evaluation (the others use the ruleset's heuristic)
EVALUATIONS = {"honourable-victory": evaluate_hv, "clans": evaluate_clans}
