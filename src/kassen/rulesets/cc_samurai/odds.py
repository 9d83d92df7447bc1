"""Exact odds of one C&C Samurai attack, by enumerating every roll.

>>> r = attack_odds("ASp", "ASp")
>>> r["dice"], round(r["p_eliminated"], 6)
(3, 0.0)
>>> round(r["hits"]["1"], 6)  # 3 dice, each hits on triangle or sword: 1/3
0.444444
"""

from __future__ import annotations

from typing import Any

from kassen.engine.errors import KassenError
from kassen.rulesets.cc_samurai import close_ranged
from kassen.rulesets.cc_samurai.combat import base_dice, dice_count, marginals, terrain_caps
from kassen.rulesets.cc_samurai.data import load_tables

#: command-line terrain names (lowercase rulebook names) -> terrain table slugs
TERRAIN_NAMES = {
    "countryside": "countryside", "forest": "forest", "hill": "hill", "building": "building",
    "fordable": "ford", "ford": "ford", "field": "field", "fence": "fence", "palisade": "palisade",
    "ravine": "ravine", "castle": "castle", "bridge": "bridge", "tent": "tent",
}


def _terrain(name: str, who: str, edition: str = "gmt") -> Any:
    key = name.strip().lower()
    if key == "river":
        raise KassenError(f"no unit stands on a river hex ({who})")
    if key not in TERRAIN_NAMES:
        raise KassenError(f"unknown terrain {name!r} for the {who}; use one of: {', '.join(sorted(set(TERRAIN_NAMES) - {'ford'}))}")
    return load_tables(edition).terrain[TERRAIN_NAMES[key]]


def attack_odds(
    attacker: str,
    defender: str,
    *,
    ranged: bool = False,
    range_: int | None = None,
    attacker_on: str = "countryside",
    defender_on: str = "countryside",
    moved: bool = False,
    inspired: bool = False,
    bonus: int = 0,
    defender_blocks: int | None = None,
    attacker_blocks: int = 4,
    edition: str = "gmt",
) -> dict[str, Any]:
    """The exact distribution of hits, flags and Honor & Fortune of one attack under the
    ``edition``'s units ("gmt" or "zvezda").

    Raises ``KassenError`` with a one-line reason for an attack the rules forbid.
    """
    t = load_tables(edition)
    units = t.units
    by_case = {code.lower(): code for code in units}  # unit codes in any case: sspc is SSpC
    attacker = by_case.get(attacker.strip().lower(), attacker)
    defender = by_case.get(defender.strip().lower(), defender)
    if attacker not in units:
        raise KassenError(f"unknown attacker {attacker!r}; codes: {', '.join(units)}")
    if defender not in units:
        raise KassenError(f"unknown defender {defender!r}; codes: {', '.join(units)}")
    au, du = units[attacker], units[defender]
    on, into = _terrain(attacker_on, "attacker", edition), _terrain(defender_on, "defender", edition)
    kind = "ranged" if ranged else "close"
    blocks = defender_blocks if defender_blocks is not None else du.blocks
    if not 1 <= blocks <= du.blocks:
        raise KassenError(f"--defender-blocks must be 1..{du.blocks}")
    if bonus < 0:
        raise KassenError("--bonus cannot be negative")
    if moved and au.battle_move == 0:
        raise KassenError(f"{au.name} may not battle after moving" if au.move else f"{au.name} never move")
    if ranged:
        if not au.ranged:
            raise KassenError(f"{au.name} have no ranged weapons")
        if range_ is None:
            range_ = min(au.ranged)
        if range_ <= 1:
            raise KassenError("an adjacent target is attacked in close combat, not ranged combat")
        if range_ not in au.ranged:
            raise KassenError(f"{au.name} cannot fire at range {range_} (range {min(au.ranged)}-{au.max_range})")
        if du.bodyguard:
            raise KassenError("bodyguards cannot be targeted in ranged combat")
        if inspired:
            raise KassenError("a Leader inspires only in close combat")
    else:
        if range_ not in (None, 1):
            raise KassenError("--range is for ranged combat (--ranged)")
        range_ = 1
        if inspired and on.no_inspiration:
            raise KassenError(f"a Leader may not inspire a unit on a {on.name.lower()} hex")
    if on.cap_on(kind, au.cavalry) == 0:
        raise KassenError(f"{au.name} may not battle from a {on.name.lower()} hex")
    if into.cap_into(kind, au.cavalry) == 0:
        raise KassenError(f"{au.name} may not attack a unit on a {into.name.lower()} hex in {kind} combat")
    n = dice_count(au, kind, range_, moved, attacker_blocks, on, into, bonus + (1 if inspired else 0))
    m = marginals(n, au, du, kind, 1 if inspired else 0)
    base = base_dice(au, kind, range_, moved, attacker_blocks)
    caps = terrain_caps(au, kind, on, into)

    def as_json(d: dict[int, int]) -> dict[str, float]:
        return {str(k): p for k, p in m.p(d).items()}

    return {
        "attacker": attacker,
        "defender": defender,
        "kind": kind,
        "range": range_,
        "attacker_on": TERRAIN_NAMES[attacker_on.lower()],
        "defender_on": TERRAIN_NAMES[defender_on.lower()],
        "dice": n,
        "hits": as_json(m.hits),
        "flags": as_json(m.flags),
        "honor": as_json(m.honor),
        "defender_blocks": blocks,
        "p_eliminated": m.p_at_least(m.hits, blocks),
        "p_hit": m.p_at_least(m.hits, 1),
        "p_hit_or_retreat": 1 - m.quiet / m.total,
        # how the dice count was reached: the unit's dice, the terrain maximum, then additions
        "dice_breakdown": {"base": base, "terrain_max": min(caps) if caps else None,
                           "after_terrain": min([base, *caps]), "inspired": 1 if inspired else 0,
                           "cards": bonus},
        "expected_hits": sum(k * w for k, w in m.hits.items()) / m.total,
        "expected_flags": sum(k * w for k, w in m.flags.items()) / m.total,
    }


def action_odds(state: Any, action: str) -> dict[str, Any] | None:
    """Odds of ``attack A B`` / ``fire A B`` in a C&C state: the state's own dice count
    (terrain, movement, cards in play) and the exact counts of :func:`combat.marginals`."""

    words = action.split()
    if words and words[0] in PENDING_ODDS:
        return _pending_odds(state, action)
    if len(words) != 3 or words[0] not in ("attack", "fire"):
        return None
    kind = "close" if words[0] == "attack" else "ranged"
    s = state
    try:
        ah, dh = s.b.parse(words[1]), s.b.parse(words[2])
        au = s.units[ah]
        if dh not in s.units and dh in s.leaders:
            return _lone_leader_odds(s, action, kind, ah, dh)
        du = s.units[dh]
    except (KeyError, ValueError, AttributeError):
        return None
    at, dt = s.ut(au), s.ut(du)
    n = int(close_ranged.combat_dice(s, kind, ah, dh, False))
    m = marginals(n, at, dt, kind, 0)
    hits, flags = m.p(m.hits), m.p(m.flags)
    p_elim = m.p_at_least(m.hits, du.blocks)
    return {
        "action": action, "kind": kind, "dice": n,
        "attacker": {"hex": words[1], "type": au.type, "name": at.name, "blocks": au.blocks},
        "defender": {"hex": words[2], "type": du.type, "name": dt.name, "blocks": du.blocks},
        "hits": {str(k): hits[k] for k in sorted(hits)},
        "flags": {str(k): flags[k] for k in sorted(flags)},
        "expected_hits": sum(k * p for k, p in hits.items()),
        "p_hit": sum(p for k, p in hits.items() if k > 0),
        "p_hit_or_retreat": 1 - m.quiet / m.total,
        "p_eliminated": p_elim,
        "note": "before Leader inspiration, First Strike and Dragon cards played in answer",
    }


def _lone_leader_odds(s: Any, action: str, kind: str, ah: Any, dh: Any) -> dict[str, Any]:
    """Combat Against a Leader Alone in a Hex: any sword kills him (but a Zvezda bow's swords at
    range, R36); flags do nothing: if not hit he retreats or commits seppuku."""
    words = action.split()
    au, ld = s.units[ah], s.leaders[dh]
    at = s.ut(au)
    n = int(close_ranged.combat_dice(s, kind, ah, dh, False))
    blank = kind == "ranged" and not at.ranged_sword_hits and not s.t.rules.bow_hits_lone_leader
    p = 0.0 if blank else 1.0 - (5 / 6) ** n
    return {
        "action": action, "kind": kind, "dice": n,
        "attacker": {"hex": words[1], "type": au.type, "name": at.name, "blocks": au.blocks},
        "defender": {"hex": words[2], "type": "leader", "name": f"lone {ld.kind} Leader", "blocks": 1},
        "hits": {"0": 1.0 - p, "1": p} if p else {"0": 1.0},
        "flags": {"0": 1.0},
        "expected_hits": p,
        "p_hit": p,
        "p_hit_or_retreat": 1.0,  # not hit, a lone Leader retreats (or commits seppuku)
        "p_eliminated": p,
        "note": ("a bow scores no hit with a sword at range: he cannot be hit (Zvezda)" if blank else
                 "any sword kills him; flags do nothing: if he is not hit he retreats or commits seppuku"),
    }


#: decisions inside a combat whose odds are those of the combat they lead to (issue 30, item 2)
PENDING_ODDS = frozenset({"inspire", "no-inspire", "battle-back", "first-strike", "pass", "dragon"})


def _pending_odds(s: Any, action: str) -> dict[str, Any] | None:
    """The odds of the combat a decision inside a combat leads to, with the dice as they stand
    now (after inspiration, Dragon cards and First Strike already played): ``battle-back`` and
    ``first-strike`` the defender's close combat against the attacker; ``inspire`` the attack
    with one more die; ``no-inspire``, ``pass`` and a Dragon card's window the attack as it is."""
    if not s.stack:
        return None
    cx = s.stack[-1]
    if cx.get("t") != "combat":
        return None
    words = action.split()
    try:
        ah, dh = cx["att"], cx["tgt"]
        if words[0] in ("battle-back", "first-strike"):
            back_from = s.b.parse(words[1]) if len(words) > 1 else ah
            if dh not in s.units or back_from not in s.units:
                return None
            n = int(close_ranged.combat_dice(s, "close", dh, back_from, False))
            who = "your battle back" if words[0] == "battle-back" else "your First Strike"
            return _odds_dict(s, action, "close", dh, back_from, n, 0, f"{who}, before Leader inspiration and Dragon cards")
        if dh not in s.units or ah not in s.units:
            return None
        atts = close_ranged._present_attackers(s, cx)
        inspired = list(cx.get("inspired", []))
        n = sum(int(close_ranged.combat_dice(s, cx["kind"], h, dh, h in inspired)) for h in atts)
        extra = 0
        if words[0] == "inspire":
            n += 1
            extra = 1
        n += int(cx.get("extra_dice", 0))
        if "dice_override" in cx:
            n = int(cx["dice_override"])
        if "max_dice" in cx:
            n = min(n, int(cx["max_dice"]))
    except (KeyError, ValueError, AttributeError, IndexError):
        return None
    note = ("the attack with the Leader's inspiration (+1 die)" if extra else
            "the attack as the dice stand now (inspiration and Dragon cards played so far counted)")
    return _odds_dict(s, action, cx["kind"], ah, dh, n, len(inspired) + extra, note)


def _odds_dict(s: Any, action: str, kind: str, ah: Any, dh: Any, n: int, inspired: int, note: str) -> dict[str, Any]:
    au, du = s.units[ah], s.units[dh]
    at, dt = s.ut(au), s.ut(du)
    m = marginals(n, at, dt, kind, inspired)
    hits, flags = m.p(m.hits), m.p(m.flags)
    return {
        "action": action, "kind": kind, "dice": n,
        "attacker": {"hex": s.name(ah), "type": au.type, "name": at.name, "blocks": au.blocks},
        "defender": {"hex": s.name(dh), "type": du.type, "name": dt.name, "blocks": du.blocks},
        "hits": {str(k): hits[k] for k in sorted(hits)},
        "flags": {str(k): flags[k] for k in sorted(flags)},
        "expected_hits": sum(k * p for k, p in hits.items()),
        "p_hit": sum(p for k, p in hits.items() if k > 0),
        "p_hit_or_retreat": 1 - m.quiet / m.total,
        "p_eliminated": m.p_at_least(m.hits, du.blocks),
        "note": note,
    }
