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
* Leader safety (optional ``leader_risk``, 0 by default): each Leader attached to a unit that
  the enemy can hit next turn risks the Leader Casualty Check (close combat: one die, a sword
  kills; ranged: two swords on two dice; a unit eliminated leaves its Leader one die; the Army
  Commander two swords on two dice), a lone Leader in an enemy unit's reach is killed by any
  sword of its dice (``lone_leader_risk``); each counts its chance times a banner and the
  Leader's worth; a close combat by a unit with a Leader also risks the check in the battle back;
* overextension (optional ``overextension``): a unit with no friend beside it, which more than
  one enemy unit can attack next turn, counts ``overextension`` for each attacker past the first
  (cavalry ``1 + overextension_cavalry`` times that); these risks count in full for the side
  about to be attacked and ``exposed_later`` of it for the side that moves next;
* banners handed over (optional ``vulnerable``, 0 by default): the chance that each unit is
  eliminated by the attacks the enemy can make on it next turn, a side's ``vulnerable_units``
  likeliest (default 2), counted like the risks above;
* reach from contact (optional ``contact_reach``, 0 by default): an enemy unit beside one of
  ``seat``'s may leave it to attack another within its move (nothing pins it), counted in the
  risks above with this chance (0: it fights where it stands);
* inspiration (optional ``inspired_dice``, off by default): the die a Leader adds to a close
  combat of a unit he may inspire, counted in threats, attacks, battle backs and these risks
  while the side holds ``inspire_min_honor`` Honor & Fortune;
* the chance to win now (optional ``win_chance``): during a side's own turn, the chance that the
  attacks its ordered units can still make eliminate the units and Leaders it needs for victory
  (:func:`win_chance`), times ``win_chance`` blocks;
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
from kassen.rulesets.cc_samurai.leaders import can_inspire

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.board import Unit
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


def _inspired(s: CCState, h: Hex, u: Unit, w: Weights) -> int:
    """The die a Leader adds to the close combats of the unit ``u`` at ``h`` (rule "Leader
    Inspired Close Combat": a Leader who may inspire it, 1 Honor & Fortune spent), when ``w``
    counts it (optional weight ``inspired_dice``) and its side holds the Honor & Fortune the
    levels keep before they inspire (``inspire_min_honor``); else 0."""
    if not w.get("inspired_dice") or s.honor[u.side] < w["inspire_min_honor"]:
        return 0
    return 1 if can_inspire(s, h, u) else 0


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
    blocks it is expected to keep (its flags and retreats are what the weight below 1 leaves for),
    and less ``leader_risk`` (optional, 0 by default) times the chance that the battle back kills
    the Leader attached to the attacker in its casualty check, in banners and the Leader's worth.
    With ``inspired_dice``, a unit a Leader may inspire rolls its die in the attack and in the
    battle back (:func:`_inspired`)."""
    au = s.units.get(at)
    if au is not None:
        bonus += _inspired(s, at, au, w)
    value, exp, p_elim, n = _attack(s, ut, blocks, "close", 1, on, into, moved, w, bonus)
    bb = float(w.get("battle_back", 0.0))
    lr = float(w.get("leader_risk", 0.0))
    if (not bb and not lr) or n <= 0:
        return value
    tu = s.units[into]
    tt = s.ut(tu)
    left = tu.blocks - int(exp + 0.5)
    if left <= 0 or s.ter(into).cap_on("close", tt.cavalry) == 0 or on.cap_into("close", tt.cavalry) == 0:
        return value
    back = _inspired(s, into, tu, w)
    if bb:
        value -= bb * (1.0 - p_elim) * expected_damage(s, tt, left, "close", 1, s.ter(into), at, False, w, back)
    ld = s.leaders.get(at)
    if lr and ld is not None and ld.side != tu.side:
        nb = dice_count(tt, "close", 1, False, left, s.ter(into), on, back)
        if nb > 0:
            table = _damage_table(nb, tt, ut, "close")
            hit, dead = table[0][1], table[min(blocks, 4) - 1][1]
            value -= lr * (1.0 - p_elim) * _leader_death(ld.kind, "close", hit, dead) * leader_worth(ld.kind, w)
    return value


#: the chance that one die rolls a sword (each of the six faces is as likely)
SWORD = 1.0 / 6.0


def _leader_death(kind: str, combat: str, hit: float, eliminated: float) -> float:
    """The chance that a Leader attached to a unit is killed by one attack on it: the attack hits
    its unit with chance ``hit`` and eliminates it with chance ``eliminated`` (rule "Leader
    Casualty Check": close combat, one die and a sword; ranged, two dice and two swords; the unit
    eliminated, one die for the Leader left alone; the Army Commander, two dice and two swords)."""
    if kind == "commander":
        return hit * SWORD * SWORD
    survived = SWORD if combat == "close" else SWORD * SWORD
    return (hit - eliminated) * survived + eliminated * SWORD


def leader_worth(kind: str, w: Weights, lone: bool = False) -> float:
    """What losing a Leader costs: the banner the enemy gains and the Leader's own worth (with a
    unit, or ``lone``)."""
    own = w["commander"] if kind == "commander" else (w["leader_lone"] if lone else w["leader_attached"])
    return float(w["banner"]) + float(own)


#: an enemy unit as :func:`_exposure` reads it: hex, unit, type, terrain, whether it is in contact
Foe = tuple[Hex, "Unit", "UnitType", "TerrainType", bool]


def foes_of(s: CCState, side: int, contact: set[Hex] | None = None) -> list[Foe]:
    """The units of ``side``'s enemy, for :func:`_exposure` (computed once per evaluation;
    ``contact``: the hexes of the units with an enemy beside them, when known)."""
    return [(e, eu, s.ut(eu), s.ter(e), _in_contact(s, e, eu.side) if contact is None else e in contact)
            for e, eu in s.units.items() if eu.side != side]


def _exposure(s: CCState, h: Hex, w: Weights, foes: list[Foe],
              elimination: bool = False) -> tuple[float, float, float]:
    """The enemy units (``foes``: :func:`foes_of` the piece's side) that can attack the piece at
    ``h`` (a unit, or a lone Leader) next turn, each counted by the chance it gets there (1 beside
    it, ``reach_discount`` one move away, 0.8 in range of its missiles; a unit beside one of ours
    may leave it to attack: ``contact_reach``, optional, 0 by default), the chance that their
    attacks kill the Leader at ``h``, and the chance that they eliminate the unit at ``h`` (each
    attack on the unit's blocks now, independent; 0 for a bodyguard or a lone Leader)."""
    u = s.units.get(h)
    ld = s.leaders.get(h)
    side = u.side if u is not None else (ld.side if ld is not None else 0)
    tt = s.ut(u) if u is not None else None
    here = s.ter(h)
    dist, base = s.b.dist, h * s.b.ncells
    attackers = 0.0
    alive = 1.0  # the chance the Leader at ``h`` survives every attack
    stands = 1.0  # the chance the unit at ``h`` survives every attack
    count_unit = elimination and u is not None and tt is not None and not tt.bodyguard
    reach = float(w["reach_discount"])
    reach_contact = float(w.get("contact_reach", 0.0))
    inspiring = bool(w.get("inspired_dice"))
    for e, eu, et, on, contact in foes:
        d = dist[base + e]
        if d > 4:
            continue
        chance = 0.0
        kind = "close"
        n = 0
        if (et.close > 0 or et.dice_per_block) and on.cap_on("close", et.cavalry) != 0 \
                and here.cap_into("close", et.cavalry) != 0:
            if d == 1:
                chance, n = 1.0, dice_count(et, "close", 1, False, eu.blocks, on, here,
                                            _inspired(s, e, eu, w) if inspiring else 0)
            elif d <= 1 + et.battle_move and (reach_contact or not contact):
                chance = reach_contact if contact else reach
                n = dice_count(et, "close", 1, True, eu.blocks, here, here, _inspired(s, e, eu, w) if inspiring else 0)
        if chance == 0.0 and et.ranged and d >= 2 and d in et.ranged and (tt is None or not tt.bodyguard) \
                and not contact and on.cap_on("ranged", et.cavalry) != 0:
            chance, kind = 0.8, "ranged"
            n = dice_count(et, "ranged", d, False, eu.blocks, on, here, 0)
        if chance == 0.0:
            continue
        attackers += chance
        if n <= 0:
            continue
        if count_unit:
            assert u is not None and tt is not None
            stands *= 1.0 - chance * _damage_table(n, et, tt, kind)[min(u.blocks, 4) - 1][1]
        if ld is None or ld.side != side:
            continue
        if tt is None or u is None:  # a lone Leader: any sword of the attacker's dice kills him
            death = 1.0 - (1.0 - SWORD) ** n
        else:
            table = _damage_table(n, et, tt, kind)
            death = _leader_death(ld.kind, kind, table[0][1], table[min(u.blocks, 4) - 1][1])
        alive *= 1.0 - chance * death
    return attackers, 1.0 - alive, (1.0 - stands) if count_unit else 0.0


def _exposed(s: CCState, h: Hex, side: int, w: Weights, contact: set[Hex], foe_lists: list[list[Foe] | None],
             exposed: dict[Hex, tuple[float, float, float]]) -> tuple[float, float, float]:
    """:func:`_exposure` of the piece of ``side`` at ``h``: from ``exposed`` when it holds it, else
    computed against ``foe_lists[side]`` (made on first use)."""
    got = exposed.get(h)
    if got is not None:
        return got
    fs = foe_lists[side]
    if fs is None:
        fs = foe_lists[side] = foes_of(s, side, contact)
    return _exposure(s, h, w, fs)


def _in_contact(s: CCState, h: Hex, side: int) -> bool:
    """Whether the unit of ``side`` at ``h`` has an enemy unit beside it (it fights there)."""
    units = s.units
    for n in s.b.neighbours(h):
        nu = units.get(n)
        if nu is not None and nu.side != side:
            return True
    return False


def _kills(s: CCState, h: Hex, w: Weights) -> list[tuple[Hex, float]]:
    """The targets an attack by the (ordered, active) unit at ``h`` can remove now for a banner
    (a unit eliminated, bodyguards excepted; a lone Leader hit by a sword), with the chance."""
    u = s.units[h]
    ut = s.ut(u)
    moved = s.moved(u)
    out: list[tuple[Hex, float]] = []
    for kind, targets in (("close", s.close_targets(h)), ("ranged", s.ranged_targets(h))):
        for n in targets:
            n_dice = s.combat_dice(kind, h, n, False)
            if n_dice <= 0:
                continue
            tu = s.units.get(n)
            if tu is None:
                out.append((n, 1.0 - (1.0 - SWORD) ** n_dice))
                continue
            tt = s.ut(tu)
            if tt.bodyguard:
                continue
            base = dice_count(ut, kind, s.b.distance(h, n), moved, u.blocks, s.ter(h), s.ter(n), 0)
            insp = _inspired(s, h, u, w) if kind == "close" else 0
            p = _attack(s, ut, u.blocks, kind, s.b.distance(h, n), s.ter(h), n, moved, w,
                        max(0, n_dice - base) + insp)[2]
            if p > 0:
                out.append((n, p))
    return out


def win_chance(s: CCState, w: Weights) -> float:
    """The chance that the active side wins in this turn's battle phase: its ordered units that
    may still battle each attack their likeliest kill (each target once, likeliest first; a unit
    left without a target of its own attacks again the one where it adds most), and eliminate at
    least the banners it lacks (units and lone Leaders; attacks independent; 0 outside its own
    turn)."""
    if s.pending_kind() not in ("order", "move", "battle") or s.is_terminal():
        return 0.0
    active = s.active
    needed = max(1, s.victory - s.banners[active])
    options: list[tuple[float, Hex, int]] = []
    for i, key in enumerate(s.orders_given()):
        if key[0] != "u":
            continue
        h = s.key_hex(key)
        if h is None or s.units[h].side != active or not s.can_battle(h):
            continue
        for n, p in _kills(s, h, w):
            options.append((p, n, i))
    options.sort(key=lambda o: -o[0])
    # each attacker on its likeliest kill, each target once; an attacker left without a target of
    # its own then tries again one that another attacker may have missed
    missed: dict[Hex, float] = {}  # target -> the chance it survives the attacks on it
    used_units: set[int] = set()
    for p, n, i in options:
        if n in missed or i in used_units:
            continue
        missed[n] = 1.0 - p
        used_units.add(i)
    for _, n, i in options:
        if i in used_units or n not in missed:
            continue
        best = max((o for o in options if o[2] == i and o[1] in missed), key=lambda o: missed[o[1]] * o[0])
        missed[best[1]] *= 1.0 - best[0]
        used_units.add(i)
    chances = [1.0 - m for m in missed.values()]
    if len(chances) < needed:
        return 0.0
    # the chance of at least ``needed`` successes among independent attacks
    dist = [1.0] + [0.0] * len(chances)
    for p in chances:
        for k in range(len(chances), 0, -1):
            dist[k] = dist[k] * (1.0 - p) + dist[k - 1] * p
        dist[0] *= 1.0 - p
    return float(sum(dist[needed:]))


def _threat(s: CCState, h: Hex, w: Weights, foes: list[Hex], adjacent: list[Hex]) -> float:
    """The best expected damage the unit at ``h`` could deal on its side's next turn (``foes``:
    the hexes of the enemy units, ``adjacent``: those beside it, in board direction order)."""
    units = s.units
    u = units[h]
    ut = s.ut(u)
    on = s.ter(h)
    b = s.b
    dist, base = b.dist, h * b.ncells
    best = 0.0
    adjacent_enemy = False
    insp = _inspired(s, h, u, w)
    if ut.close > 0 or ut.dice_per_block:
        if on.cap_on("close", ut.cavalry) != 0:
            for n in adjacent:
                adjacent_enemy = True
                if s.ter(n).cap_into("close", ut.cavalry) != 0:
                    best = max(best, expected_damage(s, ut, u.blocks, "close", 1, on, n, False, w, insp))
        if ut.battle_move > 0 and not adjacent_enemy:
            # one move, then close combat: a discount for the hexes the move needs
            reach = 1 + ut.battle_move
            discount = w["reach_discount"]
            for n in foes:
                d = dist[base + n]
                if 1 < d <= reach:
                    v = expected_damage(s, ut, u.blocks, "close", 1, s.ter(n), n, True, w, insp)
                    best = max(best, v * discount)
    if ut.ranged and not adjacent_enemy and on.cap_on("ranged", ut.cavalry) != 0:
        for n in foes:
            d = dist[base + n]
            if d < 2 or d > ut.max_range or d not in ut.ranged or s.ut(units[n]).bodyguard:
                continue
            best = max(best, expected_damage(s, ut, u.blocks, "ranged", d, on, n, False, w) * 0.8)
    return best


def _pending(s: CCState, h: Hex, w: Weights) -> float:
    """The best expected damage of an attack the (ordered, active) unit at ``h`` can make now."""
    u = s.units[h]
    ut = s.ut(u)
    best = 0.0
    moved = s.moved(u)
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


#: the weights :func:`features` counts linearly (``block.<symbol>``: the entries of ``block``); every
#: other weight (caps, discounts, ``contact_reach``, ``dragon_cost``, ``overextension_cavalry``, ``exposed_later``,
#: ``win``) shapes a feature, and the blocks and banners also value the damage inside threats
LINEAR = ("block.square", "block.triangle", "block.circle", "block.swords", "ranged_block_bonus",
          "cavalry_block_bonus", "unit_alive", "banner", "banner_near_victory", "honor", "honor_over_cap",
          "command", "dragon_card", "leader_attached", "commander", "leader_lone", "support", "threat_next",
          "threat_later", "pending_attack", "hand_fit", "engage", "leader_risk", "lone_leader_risk",
          "overextension", "vulnerable", "win_chance")


def weight(w: Weights, key: str) -> float:
    """The value of a linear weight (``block.square`` reads ``w["block"]["square"]``; an optional
    weight absent from ``w`` is 0)."""
    if key.startswith("block."):
        return float(w["block"].get(key[6:], 1.0))
    return float(w.get(key, 0.0))


def evaluate(s: CCState, seat: int, w: Weights) -> float:
    """How well ``seat`` stands, in blocks (see the module notes for what it reads): the sum of
    each weight of :data:`LINEAR` times its feature (:func:`features`), or ``±win`` (0 for a
    draw) when the game is over."""
    res = s.result()
    if res is not None:
        if res.winner is None:
            return 0.0
        return float(w["win"]) if res.winner == seat else -float(w["win"])
    f = features(s, seat, w)
    return float(sum(weight(w, k) * v for k, v in f.items()))


def features(s: CCState, seat: int, w: Weights) -> dict[str, float]:
    """The feature of each weight of :data:`LINEAR` in a game not over (``seat``'s point of view):
    :func:`evaluate` is their sum weighted. Weights that are 0 or absent are not computed (their
    feature is 0) unless ``w`` holds them; the tuning (``benchmarks/tune_eval.py``) reads these."""
    opp = 1 - seat
    sign = {seat: 1.0, opp: -1.0}
    f: dict[str, float] = dict.fromkeys(LINEAR, 0.0)
    victory = max(1, s.victory)
    dragon_cost = float(w.get("dragon_cost", 1.5))
    cap = w["honor_cap"]
    for side in (0, 1):
        sg = sign[side]
        bn = s.banners[side]
        f["banner"] += sg * bn
        f["banner_near_victory"] += sg * (bn / victory) ** 2
        hon = s.honor[side]
        f["honor"] += sg * min(hon, cap)
        f["honor_over_cap"] += sg * max(0, hon - cap)
        f["command"] += sg * s.command[side]
        if "dragon_card" in w:
            f["dragon_card"] += sg * min(len(s.dragons[side]), hon / dragon_cost)
    active = s.active
    top = s.pending_kind() or "end"
    own_turn_phase = top in ("order", "move", "battle", "combat", "retreat", "lretreat", "loh", "dloh", "dragon", "pick")
    # threats: the side that plays the next whole turn counts more
    next_side = active if top == "play" else 1 - active
    units = s.units
    leaders = s.leaders
    b = s.b
    dist, ncells = b.dist, b.ncells
    enemy_hexes: list[list[Hex]] = [[], []]
    threats: list[list[float]] = [[], []]
    alone: list[Hex] = []  # units with no friendly piece beside them
    contact: set[Hex] = set()  # units with an enemy unit beside them
    for h, u in units.items():
        enemy_hexes[1 - u.side].append(h)
    engage_cap = w["engage_cap"]
    engaged = 0.0  # the capped distances of ``seat``'s units to their nearest enemy
    # the per-unit sums, kept as locals (``f`` gets them after the loop)
    ranged_blocks = cavalry_blocks = alive = support = commanders = attached = 0.0
    damage = 0  # blocks lost by the units on the table
    for h, u in units.items():
        ut = s.ut(u)
        sg = sign[u.side]
        key = "block." + ut.symbol
        f[key] = f.get(key, 0.0) + sg * u.blocks
        if ut.ranged:
            ranged_blocks += sg * u.blocks
        if ut.cavalry:
            cavalry_blocks += sg * u.blocks
        alive += sg
        damage += ut.blocks - u.blocks
        friends = 0
        adjacent: list[Hex] = []
        for n in b.nbrs[h]:
            fu = units.get(n)
            if fu is not None and fu.side != u.side:
                contact.add(h)
                adjacent.append(n)
            elif (fu is not None and fu.side == u.side) or (fu is None and n in leaders and leaders[n].side == u.side):
                friends += 1
        if friends >= 2:
            support += sg
        elif friends == 0 and not ut.bodyguard:
            alone.append(h)
        ld = leaders.get(h)
        if ld is not None and ld.side == u.side:
            if ld.kind == "commander":
                commanders += sg
            else:
                attached += sg
        foes = enemy_hexes[u.side]
        threats[u.side].append(_threat(s, h, w, foes, adjacent))
        # engagement (``seat``'s own units only: the enemy closing in is no loss): distance to the
        # nearest enemy unit, capped
        if u.side == seat and foes and not ut.bodyguard:
            base = h * ncells
            d = dist[base + foes[0]]
            for e in foes:
                de = dist[base + e]
                if de < d:
                    d = de
            engaged += min(d, engage_cap)
    f["ranged_block_bonus"] = ranged_blocks
    f["cavalry_block_bonus"] = cavalry_blocks
    f["unit_alive"] = alive
    f["support"] = support
    f["commander"] = commanders
    f["leader_attached"] = attached
    # a quiet battle presses harder: past ``engage_grace`` turns, each turn in which no banner
    # (``engage_per_banner`` turns each) and no block (``engage_per_block``) was taken adds
    # ``engage_stall`` of the distance, up to ``engage_stall_cap`` times it (issue 33: a
    # defender who only waits must be attacked)
    stall = w.get("engage_stall", 0.0)
    if stall:
        quiet = (s.turn - w.get("engage_grace", 4) - w.get("engage_per_banner", 4) * (s.banners[0] + s.banners[1])
                 - w.get("engage_per_block", 2) * damage)
        if quiet > 0:
            engaged *= min(1.0 + stall * quiet, w.get("engage_stall_cap", 4.0))
    f["engage"] -= engaged
    for h, ld in leaders.items():
        if h not in units:
            f["leader_lone"] += sign[ld.side]
    # risks the side about to be attacked runs (in full), and the side that moves next (in part)
    if "leader_risk" in w or "lone_leader_risk" in w or "overextension" in w or "vulnerable" in w:
        later = float(w.get("exposed_later", 0.5))
        foe_lists: list[list[Foe] | None] = [None, None]
        # with ``vulnerable``, every unit's exposure once (its Leader's and its own risks read it too)
        exposed: dict[Hex, tuple[float, float, float]] = {}
        if "vulnerable" in w:
            for side in (0, 1):
                all_foes = foes_of(s, side, contact)
                foe_lists[side] = all_foes
                for h, u in units.items():
                    if u.side == side:
                        exposed[h] = _exposure(s, h, w, all_foes, True)
        for h, ld in leaders.items():
            if h in units and units[h].side != ld.side:
                continue
            death = _exposed(s, h, ld.side, w, contact, foe_lists, exposed)[1]
            if death:
                share = later if ld.side == next_side else 1.0
                lone = h not in units
                f["lone_leader_risk" if lone else "leader_risk"] -= \
                    sign[ld.side] * share * death * leader_worth(ld.kind, w, lone)
        if "overextension" in w:
            over_cav = float(w.get("overextension_cavalry", 0.0))
            for h in alone:
                u = units[h]
                k = _exposed(s, h, u.side, w, contact, foe_lists, exposed)[0]
                if k > 1.0:
                    share = later if u.side == next_side else 1.0
                    cav = 1.0 + over_cav if s.ut(u).cavalry else 1.0
                    f["overextension"] -= sign[u.side] * share * cav * min(k - 1.0, 3.0)
        if "vulnerable" in w:
            # the banners a side's weakest units hand over: the chance each is eliminated next
            # turn, its ``vulnerable_units`` likeliest (the enemy orders a few units a turn)
            top_k = int(w.get("vulnerable_units", 2))
            for side in (0, 1):
                chances = sorted((exposed[h][2] for h, u in units.items() if u.side == side), reverse=True)[:top_k]
                share = later if side == next_side else 1.0
                f["vulnerable"] -= sign[side] * share * sum(chances)
    # a side orders a few units a turn: its best ``threat_units`` threats count (0: all of them)
    n_threats = int(w.get("threat_units", 0))
    for side in (0, 1):
        ts = sorted(threats[side], reverse=True)[:n_threats] if n_threats else threats[side]
        f["threat_next" if side == next_side else "threat_later"] += sign[side] * sum(ts)
    if own_turn_phase and top != "play":
        orders = s.orders_given()
        pending = 0.0
        for key in orders:
            if key[0] != "u":
                continue
            h2 = s.key_hex(key)
            if h2 is None or units[h2].side != active or not s.can_battle(h2):
                continue
            pending += _pending(s, h2, w)
        f["pending_attack"] += sign[active] * pending
        if "win_chance" in w:
            f["win_chance"] += sign[active] * win_chance(s, w)
    f["hand_fit"] += _hand_fit(s, seat, w)
    return f
