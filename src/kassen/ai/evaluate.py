"""A static evaluation of a C&C Samurai position (both editions), for the turn planner.

``evaluate(state, seat, weights)`` is a score in "blocks" (one block of an Ashigaru
spear unit is about 1.0) of how well ``seat`` stands: positive is good for ``seat``.
Its weights are data, :file:`weights_cc.json` beside this module, read by
:func:`load_weights` when a player is made (never at import time).

**What it reads.** Only what ``seat`` may know: the board (units, blocks, Leaders,
terrain, tents), banners, Honor & Fortune, command sizes, the turn's orders and
moves, and ``seat``'s *own* hand. It never reads the opponent's hand, either deck
or the dice generator. Dice enter only as expectations, from the exact
distributions of :func:`kassen.rulesets.cc_samurai.combat.marginals`.

Terms (each a difference, ``seat`` minus the opponent):

* material: blocks weighted by the unit's symbol (square > triangle > circle),
  a little more for ranged and cavalry units, and a bonus per unit alive;
* banners and the distance to victory (a banner is worth more near the end);
* Honor & Fortune (with diminishing returns over a cap), command (cards in hand);
* Leaders attached to units, lone Leaders, the Army Commander;
* support: units with two or more friends around them ignore a flag;
* threats: for every unit, the best expected damage it could deal next turn
  (adjacent targets, and with a discount targets one move away; ranged targets
  in range), in blocks and eliminations (a banner); a side's best
  ``threat_units`` threats count (it orders only a few units a turn), and the
  side that moves next counts more;
* pending attacks: during a side's own turn, the expected damage of the attacks
  its ordered units can still make now (less the battle back a close combat risks, with the
  optional weight ``battle_back``);
* Dragon cards held (optional ``dragon_card``, 0 by default): each side's Dragon cards (their
  number is public) count while its Honor & Fortune could pay for them, ``dragon_cost`` a card;
* hand fit: how well ``seat``'s own section cards match where its units stand;
* engagement: ``seat``'s units closing the distance to the enemy, a little (an
  asymmetric taste for attack: a passive army gives the initiative away, and
  drawn-out games favour nobody).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai.board import sections_of
from kassen.rulesets.cc_samurai.combat import dice_count, marginals

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.data import TerrainType, UnitType
    from kassen.rulesets.cc_samurai.state import CCState

WEIGHTS_FILE = Path(__file__).with_name("weights_cc.json")
Weights = dict[str, Any]

#: the keys a weights file must hold
REQUIRED = ("block", "ranged_block_bonus", "cavalry_block_bonus", "unit_alive", "banner", "banner_near_victory",
            "win", "honor", "honor_cap", "honor_over_cap", "leader_attached", "leader_lone", "commander", "command",
            "support", "threat_next", "threat_later", "reach_discount", "pending_attack", "hand_fit", "engage",
            "engage_cap", "inspire_min_honor")


def load_weights(path: str | Path | None = None) -> Weights:
    """The evaluation weights in ``path`` (default: :file:`weights_cc.json`); raises ``ValueError``
    naming a missing key."""
    with open(path or WEIGHTS_FILE, encoding="utf-8") as f:
        w: Weights = json.load(f)
    missing = [k for k in REQUIRED if k not in w]
    if missing:
        raise ValueError(f"{path or WEIGHTS_FILE}: missing weights {', '.join(missing)}")
    return w


_DAMAGE: dict[tuple[Any, ...], tuple[tuple[float, float], ...]] = {}


def _damage_table(n: int, att: UnitType, tgt: UnitType, kind: str) -> tuple[tuple[float, float], ...]:
    """For a target of 1..4 blocks: (expected blocks lost, probability of elimination) of ``n`` dice."""
    # what scoring reads of the two types (editions share unit codes, not always their rules)
    key = (n, kind, att.symbol, att.cavalry, att.bodyguard, att.ranged_sword_hits,
           tgt.symbol, tgt.cavalry, tgt.bodyguard)
    got = _DAMAGE.get(key)
    if got is not None:
        return got
    m = marginals(n, att, tgt, kind)
    out = []
    for blocks in range(1, 5):
        exp = sum(min(k, blocks) * w for k, w in m.hits.items()) / m.total
        out.append((exp, m.p_at_least(m.hits, blocks)))
    got = _DAMAGE[key] = tuple(out)
    return got


def block_value(ut: UnitType, w: Weights) -> float:
    v = float(w["block"].get(ut.symbol, 1.0))
    if ut.ranged:
        v += w["ranged_block_bonus"]
    if ut.cavalry:
        v += w["cavalry_block_bonus"]
    return v


def _attack(s: CCState, ut: UnitType, blocks: int, kind: str, dist: int, on: TerrainType, into: Hex,
            moved: bool, w: Weights, bonus: int) -> tuple[float, float, float, int]:
    """:func:`expected_damage`'s value, with the blocks the target is expected to lose, the chance
    it is eliminated and the dice rolled."""
    tu = s.units[into]
    tt = s.ut(tu)
    n = dice_count(ut, kind, dist, moved, blocks, on, s.ter(into), bonus)
    if n <= 0:
        return 0.0, 0.0, 0.0, n
    exp, p_elim = _damage_table(n, ut, tt, kind)[tu.blocks - 1]
    value = exp * block_value(tt, w)
    if not tt.bodyguard:
        value += p_elim * (w["banner"] + w["unit_alive"])
    if into in s.leaders:
        value += p_elim * 0.5 * w["banner"]
    return value, exp, p_elim, n


def expected_damage(s: CCState, ut: UnitType, blocks: int, kind: str, dist: int, on: TerrainType, into: Hex,
                    moved: bool, w: Weights, bonus: int = 0) -> float:
    """Value (blocks and banners) of one attack of a unit of type ``ut`` on the unit at ``into``."""
    return _attack(s, ut, blocks, kind, dist, on, into, moved, w, bonus)[0]


def close_exchange(s: CCState, ut: UnitType, blocks: int, on: TerrainType, at: Hex, into: Hex, moved: bool,
                   w: Weights, bonus: int = 0) -> float:
    """Value of a close combat by the unit at ``at`` (type ``ut``, ``blocks``, on terrain ``on``) on
    the unit at ``into``: :func:`expected_damage`, less ``battle_back`` (optional weight, 0 by
    default) times the expected damage of the target's battle back when it survives with the
    blocks it is expected to keep (its flags and retreats are what the weight below 1 leaves for)."""
    value, exp, p_elim, n = _attack(s, ut, blocks, "close", 1, on, into, moved, w, bonus)
    bb = float(w.get("battle_back", 0.0))
    if not bb or n <= 0:
        return value
    tu = s.units[into]
    tt = s.ut(tu)
    left = tu.blocks - int(exp + 0.5)
    if left <= 0 or s.ter(into).cap_on("close", tt.cavalry) == 0 or on.cap_into("close", tt.cavalry) == 0:
        return value
    return value - bb * (1.0 - p_elim) * expected_damage(s, tt, left, "close", 1, s.ter(into), at, False, w)


def _threat(s: CCState, h: Hex, w: Weights) -> float:
    """The best expected damage the unit at ``h`` could deal on its side's next turn."""
    u = s.units[h]
    ut = s.ut(u)
    on = s.ter(h)
    b = s.b
    best = 0.0
    adjacent_enemy = False
    if ut.close > 0 or ut.dice_per_block:
        if on.cap_on("close", ut.cavalry) != 0:
            for n in b.neighbours(h):
                tu = s.units.get(n)
                if tu is not None and tu.side != u.side:
                    adjacent_enemy = True
                    if s.ter(n).cap_into("close", ut.cavalry) != 0:
                        best = max(best, expected_damage(s, ut, u.blocks, "close", 1, on, n, False, w))
        if ut.battle_move > 0 and not adjacent_enemy:
            # one move, then close combat: a discount for the hexes the move needs
            reach = 1 + ut.battle_move
            for n in b.within(h, reach):
                tu = s.units.get(n)
                if tu is not None and tu.side != u.side and b.distance(h, n) > 1:
                    v = expected_damage(s, ut, u.blocks, "close", 1, s.ter(n), n, True, w)
                    best = max(best, v * w["reach_discount"])
    if ut.ranged and not adjacent_enemy and on.cap_on("ranged", ut.cavalry) != 0:
        for n in b.within(h, ut.max_range):
            tu = s.units.get(n)
            if tu is None or tu.side == u.side or s.ut(tu).bodyguard:
                continue
            d = b.distance(h, n)
            if d < 2 or d not in ut.ranged:
                continue
            best = max(best, expected_damage(s, ut, u.blocks, "ranged", d, on, n, False, w) * 0.8)
    return best


def _pending(s: CCState, h: Hex, w: Weights) -> float:
    """The best expected damage of an attack the (ordered, active) unit at ``h`` can make now."""
    u = s.units[h]
    ut = s.ut(u)
    best = 0.0
    moved = s.ti["moved"].get(f"u:{u.uid}", 0) > 0
    for n in s.close_targets(h):
        if n in s.units:
            bonus = s.combat_dice("close", h, n, False) - dice_count(ut, "close", 1, moved, u.blocks, s.ter(h), s.ter(n), 0)
            best = max(best, close_exchange(s, ut, u.blocks, s.ter(h), h, n, moved, w, max(0, bonus)))
        else:
            best = max(best, 0.3 * w["banner"])  # a lone Leader: killed by any sword, else he retreats
    for n in s.ranged_targets(h):
        if n in s.units:
            d = s.b.distance(h, n)
            best = max(best, expected_damage(s, ut, u.blocks, "ranged", d, s.ter(h), n, moved, w))
    return best


def _hand_fit(s: CCState, seat: int, w: Weights) -> float:
    """How many of the orders of ``seat``'s own section cards would find a unit (0..1, averaged)."""
    t = s.t
    counts = {"left": 0, "center": 0, "right": 0}
    for h, u in s.units.items():
        if u.side == seat:
            for sec in sections_of(h, seat, s.bottom):
                counts[sec] += 1
    total = 0.0
    n = 0
    for cid in s.hands[seat]:
        card = t.command[t.command_ids[cid]]
        if card.kind != "section":
            continue
        want = 0
        got = 0
        for o in card.orders:
            k = s.command[seat] if o.count == "command" else int(o.count)
            want += k
            got += min(k, counts[o.section])
        if want:
            total += got / want
            n += 1
    return total / n if n else 0.0


def evaluate(s: CCState, seat: int, w: Weights) -> float:
    """How well ``seat`` stands, in blocks (see the module notes for what it reads)."""
    res = s.result()
    if res is not None:
        if res.winner is None:
            return 0.0
        return float(w["win"]) if res.winner == seat else -float(w["win"])
    opp = 1 - seat
    sign = {seat: 1.0, opp: -1.0}
    score = 0.0
    victory = max(1, s.victory)
    dragon_card = float(w.get("dragon_card", 0.0))
    dragon_cost = float(w.get("dragon_cost", 1.5))
    for side in (0, 1):
        bn = s.banners[side]
        score += sign[side] * (w["banner"] * bn + w["banner_near_victory"] * (bn / victory) ** 2)
        hon = s.honor[side]
        cap = w["honor_cap"]
        score += sign[side] * (w["honor"] * min(hon, cap) + w["honor_over_cap"] * max(0, hon - cap))
        score += sign[side] * w["command"] * s.command[side]
        if dragon_card:
            score += sign[side] * dragon_card * min(len(s.dragons[side]), hon / dragon_cost)
    active = s.active
    top = s.stack[-1]["t"] if s.stack else "end"
    own_turn_phase = top in ("order", "move", "battle", "combat", "retreat", "lretreat", "loh", "dloh", "dragon", "pick")
    # threats: the side that plays the next whole turn counts more
    next_side = active if top == "play" else 1 - active
    units = s.units
    leaders = s.leaders
    b = s.b
    enemy_hexes: list[list[Hex]] = [[], []]
    threats: list[list[float]] = [[], []]
    for h, u in units.items():
        enemy_hexes[1 - u.side].append(h)
    for h, u in units.items():
        ut = s.ut(u)
        sg = sign[u.side]
        score += sg * (block_value(ut, w) * u.blocks + w["unit_alive"])
        friends = 0
        for n in b.neighbours(h):
            fu = units.get(n)
            if (fu is not None and fu.side == u.side) or (fu is None and n in leaders and leaders[n].side == u.side):
                friends += 1
        if friends >= 2:
            score += sg * w["support"]
        ld = leaders.get(h)
        if ld is not None and ld.side == u.side:
            score += sg * (w["commander"] if ld.kind == "commander" else w["leader_attached"])
        threats[u.side].append(_threat(s, h, w))
        # engagement (``seat``'s own units only: the enemy closing in is no loss): distance to the
        # nearest enemy unit, capped
        foes = enemy_hexes[u.side]
        if u.side == seat and foes and not ut.bodyguard:
            d = min(b.distance(h, f) for f in foes)
            score -= w["engage"] * min(d, w["engage_cap"])
    for h, ld in leaders.items():
        if h not in units:
            score += sign[ld.side] * w["leader_lone"]
    # a side orders a few units a turn: its best ``threat_units`` threats count (0: all of them)
    k = int(w.get("threat_units", 0))
    for side in (0, 1):
        ts = sorted(threats[side], reverse=True)[:k] if k else threats[side]
        score += sign[side] * sum(ts) * (w["threat_next"] if side == next_side else w["threat_later"])
    if own_turn_phase and top != "play":
        orders = s.ti["orders"]
        pending = 0.0
        for key in orders:
            if key[0] != "u":
                continue
            h2 = s.key_hex(key)
            if h2 is None or units[h2].side != active or not s.can_battle(h2):
                continue
            pending += _pending(s, h2, w)
        score += sign[active] * w["pending_attack"] * pending
    score += w["hand_fit"] * _hand_fit(s, seat, w)
    return float(score)
