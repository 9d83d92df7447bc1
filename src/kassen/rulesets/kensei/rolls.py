"""Kensei's dice: hand-to-hand, shooting and artillery, exactly.

A roll is first *planned*: :func:`plan_melee`, :func:`plan_shot` and
:func:`plan_artillery_damage` turn two troops and their :class:`Situation` into a
:class:`RollPlan` (dice, per-die to-hit and damage modifiers, difficulty, stuns), listing
every modifier used with its name and sheet line. A plan is then either

- counted: :mod:`kassen.rulesets.kensei.counting` gives the exact distributions
  (fractions, no sampling) of impacts, wounds, Stunned markers, casualties and the markers
  left, and pairs both sides of a melee (they roll at the same time, 003:99-100; K12);
- or resolved with given dice: :func:`resolve` (dice typed by players, or forced in tests).

Artillery's impact roll has its own plan (:func:`plan_impact`, :func:`impact_odds`,
:func:`resolve_impact`). Rules used (sheet 003:116-178, 003:286-337; rulings K10-K24 in
``docs/rulings.md (Kensei)``):

- a combat or shoot die hits on 4+ after its modifiers; a natural 1 always misses and a
  natural 6 always hits (K10, inference);
- a damage die: a natural 1 is a fumble and is ignored; a natural 6 is a critical and always
  wounds; otherwise the modified result wounds at 4+ and, in hand-to-hand only, puts a
  Stunned marker below that (003:141-144);
- two Stunned markers make an extra wound, three for undead (003:142, 003:252).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from kassen.engine.errors import KassenError
from kassen.rulesets.kensei.data import BANDS, Band, Tables, load_tables
from kassen.rulesets.kensei.roster import TroopProfile

Position = Literal["front", "flank", "rear"]
LeaderRole = Literal["none", "direct", "support"]


@dataclass(frozen=True)
class Situation:
    """One troop's circumstances in a roll: what it does, and what it is.

    The attacking side's own fields shape its dice; the target's fields (``cover``,
    ``sheltered``, ``charge``, ``ran``, its wounds and markers) shape the enemy's roll on it.
    """

    # --- what the troop does
    charge: bool = False                 # it declared a charge (003:123)
    charge_from_outside: bool = True     # ... and began it out of the enemy's control area
    in_formation: bool = True            # a unit: in formation (charge, 003:123); shooting (003:160)
    complete_ranks: bool = False         # closed formation with two complete ranks (003:121)
    strengthen: bool = False             # Strengthen order used (003:122, 003:159, 003:331)
    used: bool = False                   # Used Unit marker (003:125)
    reaction_attack: bool = False        # fights with the Attack reaction order (003:126)
    out_of_cohesion: bool = False        # (003:127)
    fleeing: bool = False                # Fleeing Unit marker (003:128)
    sheltered: bool = False              # Sheltered marker (003:128, 003:133, 003:163, 003:168)
    banner_front: bool = False           # Hata-Jurushi in the front rank (003:124)
    leader: LeaderRole = "none"          # unit leader: direct combat / support; shooting: on the edge with LOS
    in_contact: int = 0                  # melee: miniatures in contact; shooting: on the edges with LOS
    multiple_opponents: bool = False     # a miniature fights several opponents (weapon type 2)
    position: Position = "front"         # where it attacks the enemy (003:135-136)
    range_band: Band = "short"           # shooting distance band (003:111-114)
    death_fog: bool = False              # Kuroi-Te Death fog on this shooter (003:238)
    crits_to_leader: bool = False        # it puts critical wounds on the enemy leader when allowed (003:144)
    hunt_leader: bool = False            # Otokodate Hunt down the leader (003:237)
    # --- what the troop is (as a target)
    cover: bool = False                  # behind cover (003:133, 003:168, 003:289)
    ran: bool = False                    # it ran this turn (003:170)
    miniatures: int | None = None        # miniatures left (default: the roster's)
    wounds: int = 0                      # wound markers on its damaged miniature
    stunned: int = 0                     # Stunned markers on it
    leader_alive: bool = True
    leader_wounds: int = 0
    wo_bonus: int = 0                    # Buke Bushido Law (+2 WO for the turn, 003:235)


@dataclass(frozen=True)
class Applied:
    """A modifier used in a roll: dice added, or the amount added to each die."""

    id: str
    name: str
    value: int
    source: str
    inference: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "value": self.value, "source": self.source,
                "inference": self.inference}


@dataclass(frozen=True)
class Target:
    """What the damage falls on: miniatures, wound values and markers."""

    name: str
    miniatures: int          # miniatures left, the leader included
    wo: int
    leader: bool             # a living unit leader among them
    leader_wo: int
    wounds: int = 0
    stunned: int = 0
    leader_wounds: int = 0
    single: bool = False     # a troop of one miniature: every wound is its own (003:143)
    stuns_per_wound: int = 2
    crits_to_leader: bool = False
    all_to_leader: bool = False

    @property
    def rank_and_file(self) -> int:
        return self.miniatures - (1 if self.leader else 0)


@dataclass(frozen=True)
class RollPlan:
    kind: Literal["hand-to-hand", "shooting", "artillery"]
    attacker: str
    target: Target
    dice: int
    dice_mods: tuple[Applied, ...]
    hit: int
    hit_mods: tuple[Applied, ...]
    damage: int
    damage_mods: tuple[Applied, ...]
    difficulty: int = 4
    stuns: bool = True
    #: artillery damage: every die is an impact (no hit roll)
    automatic: bool = False

    def modifiers(self) -> list[Applied]:
        return [*self.dice_mods, *self.hit_mods, *self.damage_mods]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "attacker": self.attacker, "target": self.target.name, "dice": self.dice,
                "hit_modifier": self.hit, "damage_modifier": self.damage, "difficulty": self.difficulty,
                "stuns": self.stuns, "dice_modifiers": [m.to_json() for m in self.dice_mods],
                "hit_modifiers": [m.to_json() for m in self.hit_mods],
                "damage_modifiers": [m.to_json() for m in self.damage_mods]}


@dataclass(frozen=True)
class Damage:
    """What a damage roll did to its target, and the target after it."""

    impacts: int
    fumbles: int
    low: int
    wounds: int            # direct wounds, criticals included
    criticals: int
    stuns_added: int       # Stunned markers placed (hand-to-hand only)
    stun_wounds: int       # extra wounds from Stunned markers swapped
    casualties: int        # miniatures removed, the leader included
    leader_killed: bool
    after: Target

    @property
    def total_wounds(self) -> int:
        return self.wounds + self.stun_wounds


# ------------------------------------------------------------------ helpers
def _band_index(b: str) -> int:
    return BANDS.index(b)


def _use(t: Tables, mid: str, value: int | None = None, name: str | None = None) -> Applied:
    m = t.mod(mid)
    return Applied(m.id, name or m.name, m.value if value is None else value, m.source, m.inference)


def target_of(p: TroopProfile, s: Situation, attacker: Situation) -> Target:
    """The damage target ``p`` in situation ``s``, hit by a troop in ``attacker``."""
    left = p.miniatures if s.miniatures is None else s.miniatures
    if left < 1 or left > p.miniatures:
        raise KassenError(f"{p.name}: miniatures left must be 1 to {p.miniatures}, got {left}")
    if min(s.wounds, s.stunned, s.leader_wounds, s.wo_bonus) < 0:
        raise KassenError(f"{p.name}: wounds, Stunned markers, leader wounds and WO bonus are counts of 0 or more")
    leader = p.leader is not None and s.leader_alive
    exposed = leader and s.leader in ("direct",)
    return Target(
        name=p.name, miniatures=left, wo=p.wo + s.wo_bonus, leader=leader,
        leader_wo=(p.leader_wo + s.wo_bonus) if p.leader else 0, wounds=s.wounds, stunned=s.stunned,
        leader_wounds=s.leader_wounds, single=p.single, stuns_per_wound=p.title.stuns_per_wound,
        crits_to_leader=exposed and attacker.crits_to_leader, all_to_leader=leader and attacker.hunt_leader)


def _weapon_effects(t: Tables, me: TroopProfile, foe: TroopProfile, mine: Situation, theirs: Situation
                    ) -> list[tuple[str, Applied]]:
    """The hand-to-hand weapon effects of ``me`` against ``foe`` (003:221-228): (roll, modifier)."""
    if me.melee_type is None:
        return []
    wt = t.weapon_type(me.melee_type)
    out: list[tuple[str, Applied]] = []
    for e in wt.effects:
        if foe.melee_type is not None and foe.melee_type in e.except_vs:
            continue
        if e.except_charging and mine.charge:
            continue
        ok = {
            "always": True,
            "charging": mine.charge,
            "charged": theirs.charge,
            "vs-cavalry": foe.mounted,
            "vs-types": foe.melee_type is not None and foe.melee_type in e.vs,
            "multiple-opponents": mine.multiple_opponents,
            "vs-undead": foe.title.undead,
        }[e.when]
        if ok:
            out.append((e.roll, Applied(f"weapon-type-{wt.type}.{e.when}", f"{wt.category} ({me.melee_weapon}): "
                                        f"{e.text}", e.value, e.source or wt.source)))
    return out


#: the only WO bonus of the sheet: Buke Bushido Law, +2 WO for the turn (003:235)
WO_BONUSES = (0, 2)
#: at most this many enemy units can stand near a war machine's vertex (a roster's most troops)
MAX_NEAR_VERTEX = 60


def check_situation(p: TroopProfile, s: Situation) -> None:
    """Refuse a situation that cannot stand on the table for troop ``p``: a ``KassenError``
    naming the field (``field 'stunned': ...``), the first one wrong."""
    def bad(name: str, why: str) -> KassenError:
        return KassenError(f"field {name!r}: {why}, got {getattr(s, name)!r}")

    if s.wo_bonus not in WO_BONUSES:
        raise bad("wo_bonus", "the only WO bonus is Bushido Law's +2 (003:235): 0 or 2")
    if s.miniatures is not None and not 1 <= s.miniatures <= p.miniatures:
        raise bad("miniatures", f"miniatures left must be 1 to {p.miniatures}")
    if not s.leader_alive and p.leader is None:
        raise bad("leader_alive", f"{p.name} has no unit leader to lose")
    if not s.leader_alive and s.miniatures is not None and s.miniatures > p.miniatures - 1:
        raise bad("miniatures", f"with its leader dead, {p.name} has at most {p.miniatures - 1} miniatures left")
    wo = p.wo + s.wo_bonus
    if not 0 <= s.wounds < wo:
        raise bad("wounds", f"wound markers on the damaged miniature must be 0 to {wo - 1} (a miniature of "
                            f"{p.name} has WO {wo}; the {wo}th wound removes it, 003:143)")
    spw = p.title.stuns_per_wound
    if not 0 <= s.stunned < spw:
        raise bad("stunned", f"Stunned markers must be 0 to {spw - 1} ({spw} make a wound for {p.troop.title} "
                             f"troops, 003:142, 003:252)")
    if s.leader_wounds and (p.leader is None or not s.leader_alive):
        raise bad("leader_wounds", f"{p.name} has no living unit leader to carry wounds")
    if s.leader_wounds and not 0 <= s.leader_wounds < p.leader_wo + s.wo_bonus:
        raise bad("leader_wounds", f"the leader's wound markers must be 0 to {p.leader_wo + s.wo_bonus - 1}")
    if s.in_contact < 0:
        raise bad("in_contact", "a count of miniatures is 0 or more")
    if s.banner_front and not p.troop.banner:
        raise bad("banner_front", f"{p.name} has no Hata-Jurushi (roster: banner = false)")
    if s.leader != "none" and p.leader is None:
        raise bad("leader", f"{p.name} has no unit leader")


def check_artillery(s: ArtillerySituation) -> None:
    """Refuse counts a war machine's shot cannot have: ``KassenError`` naming the field."""
    if not 0 <= s.enemy_units_near_vertex <= MAX_NEAR_VERTEX:
        raise KassenError(f"field 'enemy_units_near_vertex': a count of enemy units (each removes 1D6, 003:333) "
                          f"must be 0 to {MAX_NEAR_VERTEX}, got {s.enemy_units_near_vertex!r}")
    if not 0 <= s.gunpowder_bags <= 2:
        raise KassenError(f"field 'gunpowder_bags': 0 to 2 (003:329), got {s.gunpowder_bags!r}")


# ------------------------------------------------------------------ plans
def _left(p: TroopProfile, s: Situation) -> int:
    return p.miniatures if s.miniatures is None else s.miniatures


def _rank(p: TroopProfile, s: Situation) -> int:
    """Rank-and-file miniatures left (not the leader)."""
    return _left(p, s) - (1 if p.leader is not None and s.leader_alive else 0)


def _profile_attack(p: TroopProfile, s: Situation, ranged: bool) -> tuple[str, int]:
    """The attack attribute a troop rolls: its class's, or its leader's when he is all that is left."""
    if p.leader is not None and s.leader_alive and _left(p, s) == 1:
        return p.leader.name, p.leader.at[1 if ranged else 0]
    return p.cls.name, p.cls.at[1 if ranged else 0]


def plan_melee(a: TroopProfile, b: TroopProfile, sa: Situation, sb: Situation, tables: Tables | None = None
               ) -> RollPlan:
    """``a``'s combat and damage rolls against ``b`` in hand-to-hand combat (003:116-151)."""
    t = tables or load_tables()
    unit = _left(a, sa) > 1  # 003:119: units of more than one miniature
    if sa.in_contact < 0 or (unit and sa.in_contact > _rank(a, sa)):
        raise KassenError(f"{a.name}: miniatures in contact must be 0 to {_rank(a, sa)} (the leader is "
                          f"counted apart), got {sa.in_contact}")
    if sa.leader != "none" and a.leader is None:
        raise KassenError(f"{a.name} has no unit leader (leader = {sa.leader!r})")
    who, at = _profile_attack(a, sa, ranged=False)
    dm: list[Applied] = [_use(t, "combat-dice.attack", at, f"{who} melee attack (AT {at})")]
    if unit and sa.in_contact:
        dm.append(_use(t, "combat-dice.miniature-in-contact", sa.in_contact,
                       f"{sa.in_contact} miniature(s) in hand to hand combat"))
    if sa.leader == "direct" and a.leader is not None and sa.leader_alive and unit:
        dm.append(_use(t, "combat-dice.leader-direct", a.leader.melee,
                       f"unit leader ({a.leader.name}) in direct combat: his attack {a.leader.melee}"))
    elif sa.leader == "support" and sa.leader_alive and unit:
        dm.append(_use(t, "combat-dice.leader-support"))
    if unit and sa.complete_ranks:
        dm.append(_use(t, "combat-dice.formation"))
    if sa.strengthen:
        dm.append(_use(t, "combat-dice.strengthen"))
    if sa.charge and sa.charge_from_outside and (not unit or sa.in_formation) and not a.troop.skirmishers:
        dm.append(_use(t, "combat-dice.charge-mounted" if a.mounted else "combat-dice.charge-foot"))
    if sa.charge and sa.banner_front and a.troop.banner:
        dm.append(_use(t, "combat-dice.hata-jurushi"))
    if sa.used:
        dm.append(_use(t, "combat-dice.used"))
    if sa.reaction_attack:
        dm.append(_use(t, "combat-dice.attack-reaction"))
    if unit and sa.out_of_cohesion:
        dm.append(_use(t, "combat-dice.out-of-cohesion"))
    if sa.fleeing or sa.sheltered:
        dm.append(_use(t, "combat-dice.fleeing-or-sheltered"))
    hm: list[Applied] = []
    if sb.cover or sb.sheltered:
        hm.append(_use(t, "combat-hit.cover"))
    if sb.charge and a.ranged is not None:
        hm.append(_use(t, "combat-hit.shooting-troop-charged"))
    if sa.position == "flank" and _left(b, sb) > 1:
        hm.append(_use(t, "combat-hit.flank"))
    if sa.position == "rear":
        hm.append(_use(t, "combat-hit.rear"))
    gm: list[Applied] = []
    if b.armour is not None:
        gm.append(_use(t, "melee-damage.armour", b.armour.damage, f"attacked troop wears {b.armour.name}"))
    if b.mounted:
        gm.append(_use(t, "melee-damage.mounted"))
    for roll, ap in _weapon_effects(t, a, b, sa, sb):
        {"dice": dm, "hit": hm, "damage": gm}[roll].append(ap)
    return RollPlan("hand-to-hand", a.name, target_of(b, sb, sa), max(0, sum(m.value for m in dm)), tuple(dm),
                    sum(m.value for m in hm), tuple(hm), sum(m.value for m in gm), tuple(gm),
                    t.difficulty.value, stuns=True)


def plan_shot(a: TroopProfile, b: TroopProfile, sa: Situation, sb: Situation, tables: Tables | None = None
              ) -> RollPlan:
    """``a`` shooting ``b`` (003:153-178)."""
    t = tables or load_tables()
    w = a.ranged
    if w is None:
        raise KassenError(f"{a.name} has no ranged weapon")
    if sa.range_band == "artillery" or _band_index(sa.range_band) > _band_index(w.band):
        raise KassenError(f"{a.name}'s {w.name} reaches {w.max_cm} cm ({w.band} range); the target is at "
                          f"{sa.range_band} range")
    unit = _left(a, sa) > 1
    # 003:156: neither the leader nor the Hata-Jurushi bearer counts among the edge miniatures
    edge = _rank(a, sa) - (1 if a.troop.banner else 0)
    if sa.in_contact < 0 or (unit and sa.in_contact > edge):
        raise KassenError(f"{a.name}: miniatures on the edges with line of sight (not the leader nor the "
                          f"Hata-Jurushi) must be 0 to {edge}, got {sa.in_contact}")
    if sa.leader == "support":
        raise KassenError("shooting: the leader either shoots (leader = \"direct\") or not (\"none\")")
    if sa.leader == "direct" and a.leader is None:
        raise KassenError(f"{a.name} has no unit leader")
    who, at = _profile_attack(a, sa, ranged=True)
    dm: list[Applied] = [_use(t, "shoot-dice.attack", at, f"{who} ranged attack (AT {at})")]
    if unit and sa.in_contact:
        dm.append(_use(t, "shoot-dice.edge-miniature", sa.in_contact,
                       f"{sa.in_contact} miniature(s) on the front or flank edges with line of sight"))
    if sa.leader == "direct" and a.leader is not None and sa.leader_alive and unit:
        dm.append(_use(t, "shoot-dice.leader", a.leader.ranged,
                       f"unit leader ({a.leader.name}) with line of sight: his ranged attack {a.leader.ranged}"))
    if w.band == "short":
        dm.append(_use(t, "shoot-dice.short-weapon"))
    if sa.strengthen:
        dm.append(_use(t, "shoot-dice.strengthen"))
    if unit and not sa.in_formation:
        dm.append(_use(t, "shoot-dice.out-of-formation"))
    if w.band == "mid" and sa.range_band == "mid":
        dm.append(_use(t, "shoot-dice.mid-at-mid"))
    if w.band == "long" and sa.range_band == "long":
        dm.append(_use(t, "shoot-dice.long-at-long"))
    if sa.sheltered:
        dm.append(_use(t, "shoot-dice.sheltered"))
    if sa.death_fog:
        dm.append(_use(t, "shoot-dice.death-fog"))
    hm: list[Applied] = []
    if sb.cover or sb.sheltered:
        hm.append(_use(t, "shoot-hit.cover"))
    if _left(b, sb) == 1:
        hm.append(_use(t, "shoot-hit.single-miniature"))
    if sb.ran:
        hm.append(_use(t, "shoot-hit.target-ran"))
    if w.firearm and sa.range_band == "long":
        hm.append(_use(t, "shoot-hit.firearm-long"))
    gm: list[Applied] = []
    if b.armour is not None and not (b.armour.worn and (w.firearm or w.ignores_armour)):
        gm.append(_use(t, "shoot-damage.armour", b.armour.damage, f"target wears {b.armour.name}"))
    if b.mounted:
        gm.append(_use(t, "shoot-damage.mounted"))
    if w.firearm:
        gm.append(_use(t, "shoot-damage.firearm", t.sheet.firearms.damage))
    # Hunt down the leader is for the hand to hand Damage Roll only (003:237)
    return RollPlan("shooting", a.name, target_of(b, sb, replace(sa, hunt_leader=False)), max(0, sum(m.value for m in dm)), tuple(dm),
                    sum(m.value for m in hm), tuple(hm), sum(m.value for m in gm), tuple(gm),
                    t.difficulty.value, stuns=False)


# ------------------------------------------------------------------ damage
def _settle(target: Target, low: int, wounds: int, criticals: int, stuns: bool
            ) -> tuple[int, int, int, bool, int, int, int]:
    """A damage roll's results put on ``target`` (003:142-144; K13-K16): (Stunned markers
    placed, wounds from Stunned markers, casualties, leader alive, his wounds, wound markers
    left, Stunned markers left)."""
    stuns_added = low if stuns else 0
    stun_wounds, stunned = divmod(target.stunned + stuns_added, target.stuns_per_wound)
    casualties, leader, leader_w, w = put_wounds(target, stun_wounds, wounds, criticals)
    return (stuns_added, stun_wounds, casualties, leader, leader_w, w,
            stunned if casualties < target.miniatures else 0)


def put_wounds(target: Target, stun_wounds: int, wounds: int, criticals: int) -> tuple[int, bool, int, int]:
    """Wounds put on ``target``: (casualties, leader alive, his wounds, wound markers left)."""
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
        to_unit += to_leader - taken  # K15: wounds beyond the leader's go to the unit
        if leader_w >= target.leader_wo:
            leader, casualties = False, 1
    rank = target.miniatures - (1 if target.leader else 0)
    w = target.wounds + to_unit
    dead = min(rank, w // target.wo)
    casualties += dead
    rank -= dead
    overflow = w - dead * target.wo if rank == 0 else 0
    w = 0 if rank == 0 else w - dead * target.wo
    if rank == 0 and leader and overflow > 0:  # K15: with the rank and file gone the leader takes the rest
        leader_w += overflow
        if leader_w >= target.leader_wo:
            leader, casualties = False, casualties + 1
    return casualties, leader, leader_w if leader else 0, w


def apply_damage(target: Target, impacts: int, low: int, wounds: int, criticals: int, stuns: bool) -> Damage:
    """Put a damage roll's results on ``target`` (003:142-144; K13-K16)."""
    stuns_added, stun_wounds, casualties, leader, leader_w, w, stunned = _settle(target, low, wounds, criticals,
                                                                                 stuns)
    after = replace(target, miniatures=target.miniatures - casualties, wounds=w, stunned=stunned, leader=leader,
                    leader_wounds=leader_w)
    return Damage(impacts, impacts - low - wounds - criticals, low, wounds + criticals, criticals, stuns_added,
                  stun_wounds, casualties, target.leader and not leader, after)


# ------------------------------------------------------------------ forced dice
def _check_dice(dice: Sequence[int], what: str) -> None:
    bad = [d for d in dice if not isinstance(d, int) or not 1 <= d <= 6]
    if bad:
        raise KassenError(f"{what}: dice must be 1 to 6, got {bad[0]!r}")


@dataclass(frozen=True)
class Outcome:
    """A roll resolved with given dice."""

    plan: RollPlan
    combat_dice: tuple[int, ...]
    damage_dice: tuple[int, ...]
    damage: Damage

    def to_json(self) -> dict[str, Any]:
        d = self.damage
        return {"plan": self.plan.to_json(), "combat_dice": list(self.combat_dice),
                "damage_dice": list(self.damage_dice), "impacts": d.impacts, "fumbles": d.fumbles,
                "wounds": d.wounds, "criticals": d.criticals, "stuns": d.stuns_added, "stun_wounds": d.stun_wounds,
                "total_wounds": d.total_wounds, "casualties": d.casualties, "leader_killed": d.leader_killed,
                "miniatures_left": d.after.miniatures}


def hits(plan: RollPlan, dice: Iterable[int]) -> int:
    """Impacts among combat dice (K10: natural 1 misses, natural 6 hits)."""
    if plan.automatic:
        return len(list(dice))
    return sum(1 for d in dice if d == 6 or (d != 1 and d + plan.hit >= plan.difficulty))


def resolve(plan: RollPlan, combat_dice: Sequence[int], damage_dice: Sequence[int]) -> Outcome:
    """Resolve ``plan`` with the dice the players threw: ``combat_dice`` (the combat or shoot
    roll; empty for artillery damage) and then one ``damage_dice`` die per impact."""
    if plan.automatic:
        if combat_dice:
            raise KassenError("artillery damage has no hit roll: give only the damage dice")
        impacts = plan.dice
    else:
        _check_dice(combat_dice, "combat roll")
        if len(combat_dice) != plan.dice:
            raise KassenError(f"the {'shoot' if plan.kind == 'shooting' else 'combat'} roll needs {plan.dice} dice, "
                              f"got {len(combat_dice)}")
        impacts = hits(plan, combat_dice)
    _check_dice(damage_dice, "damage roll")
    if len(damage_dice) != impacts:
        raise KassenError(f"the damage roll needs {impacts} dice (one per impact), got {len(damage_dice)}")
    low = wounds = crits = 0
    for d in damage_dice:
        if d == 1:
            continue
        if d == 6:
            crits += 1
        elif d + plan.damage >= plan.difficulty:
            wounds += 1
        else:
            low += 1
    dmg = apply_damage(plan.target, impacts, low, wounds, crits, plan.stuns)
    return Outcome(plan, tuple(combat_dice), tuple(damage_dice), dmg)


# ------------------------------------------------------------------ artillery
@dataclass(frozen=True)
class ArtillerySituation:
    """A war machine's shot (003:277-337)."""

    machine: str
    ammunition: str
    range_band: Band = "mid"
    gunpowder_bags: int = 0
    elevated: bool = False
    strengthen: bool = False
    engineer: bool = False
    enemy_units_near_vertex: int = 0
    one_crew: bool = False
    shot_at: bool = False
    line_of_sight: bool = True
    parabolic: bool = False
    sohei: bool = False          # Sohei: reroll one die of the shooting roll (003:309)
    kuroi_te: bool = False       # Kuroi-Te: infectious ammunition in any machine (003:311)


@dataclass(frozen=True)
class ImpactPlan:
    machine: str
    ammunition: str
    impact: str
    dice: int
    dice_mods: tuple[Applied, ...]
    rerolls: int
    difficulty: int = 4

    def to_json(self) -> dict[str, Any]:
        return {"machine": self.machine, "ammunition": self.ammunition, "impact": self.impact, "dice": self.dice,
                "rerolls": self.rerolls, "dice_modifiers": [m.to_json() for m in self.dice_mods]}


def plan_impact(s: ArtillerySituation, tables: Tables | None = None) -> ImpactPlan:
    """The artillery shoot (impact) roll: the machine's AT dice and the table 003:328-337 (K20)."""
    t = tables or load_tables()
    m = t.sheet.war_machines.get(s.machine)
    if m is None:
        raise KassenError(f"unknown war machine {s.machine!r}; known: {', '.join(t.sheet.war_machines)}")
    ammo = t.sheet.ammunition.get(s.ammunition)
    if ammo is None:
        raise KassenError(f"unknown ammunition {s.ammunition!r}; known: {', '.join(t.sheet.ammunition)}")
    if s.range_band not in m.bands:
        raise KassenError(f"the {m.name} shoots at {', '.join(m.bands)} range, not {s.range_band} (003:268)")
    if ammo.short_only and s.range_band != "short":
        raise KassenError(f"{ammo.name} can only be shot within the short range (003:324)")
    check_artillery(s)
    if not s.line_of_sight and not s.parabolic:
        raise KassenError("a target out of line of sight needs a machine with Parabolic shot (003:337)")
    dm = [_use(t, "artillery-dice.attack", m.at, f"{m.name} attack (AT {m.at})"), _use(t, "artillery-dice.base")]
    if s.gunpowder_bags:
        dm.append(_use(t, "artillery-dice.gunpowder-bag", s.gunpowder_bags, f"{s.gunpowder_bags} Gunpowder Bag(s)"))
    for flag, mid in ((s.elevated, "elevated"), (s.strengthen, "strengthen"), (s.engineer, "engineer")):
        if flag:
            dm.append(_use(t, f"artillery-dice.{mid}"))
    if s.enemy_units_near_vertex:
        dm.append(_use(t, "artillery-dice.enemy-near-vertex", -s.enemy_units_near_vertex,
                       f"{s.enemy_units_near_vertex} enemy unit(s) within 20 cm of the vertex"))
    if s.range_band == m.bands[-1]:
        dm.append(_use(t, "artillery-dice.maximum-range"))
    if s.one_crew:
        dm.append(_use(t, "artillery-dice.one-crew"))
    if s.shot_at:
        dm.append(_use(t, "artillery-dice.shot-at"))
    if not s.line_of_sight:
        dm.append(_use(t, "artillery-dice.no-line-of-sight"))
    rerolls = int(s.engineer) + int(s.sohei)
    return ImpactPlan(m.name, ammo.name, ammo.impact, max(0, sum(a.value for a in dm)), tuple(dm), rerolls,
                      t.difficulty.value)


def impact_odds(plan: ImpactPlan) -> dict[int, Fraction]:
    """Exact distribution of the impact roll's successes (4+); each reroll is spent on a
    failed die not rerolled before (K21)."""
    p = Fraction(1, 2)
    dist: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}  # successes, failures that may be rerolled
    for _ in range(plan.dice):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (s, f), q in dist.items():
            for key, r in (((s + 1, f), p), ((s, f + 1), 1 - p)):
                nxt[key] = nxt.get(key, Fraction(0)) + q * r
        dist = nxt
    for _ in range(plan.rerolls):
        nxt = {}
        for (s, f), q in dist.items():
            outcomes = [((s, f), Fraction(1))] if f == 0 else [((s + 1, f - 1), p), ((s, f - 1), 1 - p)]
            for key, r in outcomes:
                nxt[key] = nxt.get(key, Fraction(0)) + q * r
        dist = nxt
    out: dict[int, Fraction] = {}
    for (s, _f), q in dist.items():
        out[s] = out.get(s, Fraction(0)) + q
    return out


def impact_effect(t: Tables, impact: str, successes: int) -> str:
    """What ``successes`` do for this impact type (003:301-303)."""
    imp = t.sheet.impacts[impact]  # type: ignore[index]
    if imp.grows == "diameter":
        return f"+{imp.cm_per_success * successes} cm to the impact area's diameter"
    if imp.grows == "advance":
        return f"the ball advances {imp.cm_per_success * successes} cm further from the Impact marker"
    return (f"a {imp.template_cm} cm impact area over the Impact marker" if successes else
            "no impact area (no success)")


@dataclass(frozen=True)
class ImpactOutcome:
    plan: ImpactPlan
    dice: tuple[int, ...]
    successes: int
    effect: str


def resolve_impact(plan: ImpactPlan, dice: Sequence[int], rerolls: Sequence[tuple[int, int]] = (),
                   ignore: int | None = None, tables: Tables | None = None) -> ImpactOutcome:
    """Resolve an impact roll with given dice; ``rerolls`` are (index, new value) pairs (engineer
    or Sohei), ``ignore`` the index of a die the engineer ignores (003:294-297)."""
    t = tables or load_tables()
    _check_dice(dice, "impact roll")
    if len(dice) != plan.dice:
        raise KassenError(f"the impact roll needs {plan.dice} dice, got {len(dice)}")
    if len(rerolls) + (ignore is not None) > plan.rerolls:
        raise KassenError(f"this shot allows {plan.rerolls} reroll(s) or ignored die (engineer: one; Sohei: one)")
    final = list(dice)
    for i, v in rerolls:
        if not 0 <= i < len(final):
            raise KassenError(f"reroll: no die number {i}")
        _check_dice([v], "reroll")
        final[i] = v
    kept = [d for j, d in enumerate(final) if j != ignore]
    succ = sum(1 for d in kept if d >= plan.difficulty)
    return ImpactOutcome(plan, tuple(final), succ, impact_effect(t, plan.impact, succ))


def plan_artillery_damage(ammunition: str, target: TroopProfile, st: Situation, affected: int,
                          fire_template: bool = False, tables: Tables | None = None) -> RollPlan:
    """The damage roll of an artillery impact (003:284-290): PO + 1D6 per miniature affected."""
    t = tables or load_tables()
    ammo = t.sheet.ammunition.get(ammunition)
    if ammo is None:
        raise KassenError(f"unknown ammunition {ammunition!r}; known: {', '.join(t.sheet.ammunition)}")
    left = target.miniatures if st.miniatures is None else st.miniatures
    if not 0 <= affected <= left:
        raise KassenError(f"miniatures affected by the impact area: 0 to {left}, got {affected}")
    imp = t.sheet.impacts[ammo.impact]
    dm = [_use(t, "artillery-damage.power", ammo.po, f"{ammo.name} Power (PO {ammo.po})")]
    if affected:
        dm.append(_use(t, "artillery-damage.miniature-affected", affected, f"{affected} miniature(s) affected"))
    gm: list[Applied] = []
    if imp.damage:
        gm.append(_use(t, "artillery-damage.ammunition", imp.damage))
    if st.cover:
        gm.append(_use(t, "artillery-damage.cover"))
    if target.armour is not None and not imp.ignores_armour:
        gm.append(_use(t, "artillery-damage.armour", target.armour.damage, f"target wears {target.armour.name}"))
    if fire_template:
        if ammo.impact != "fire":
            raise KassenError("only incendiary ammunition leaves a fire template (003:303)")
        gm.append(_use(t, "artillery-damage.fire-template", imp.template_damage))
    return RollPlan("artillery", ammo.name, target_of(target, st, Situation()), max(0, sum(m.value for m in dm)),
                    tuple(dm), 0, (), sum(m.value for m in gm), tuple(gm), t.difficulty.value, stuns=False,
                    automatic=True)
