"""What the page knows per game family, beyond the protocol: which view draws it, the
scenario notes for the lobby, the unit and terrain reference for hover cards, and the
exact odds of an attack. Every number comes from the ruleset's own tables and
functions; games not listed here get the generic view and no odds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kassen.engine.protocol import Game, State

#: game id -> JS view module under static/views/ (others: "generic")
VIEWS: dict[str, str] = {"cc-samurai": "cc", "cc-samurai-zvezda": "cc", "clans": "clans", "honourable-victory": "hv"}


def view_for(game_id: str) -> str:
    return VIEWS.get(game_id, "generic")


def scenario_info(game: Game, sid: str) -> dict[str, Any]:
    """Name, year, sides and historical note of a scenario, as far as the game tells."""
    row: dict[str, Any] = {"id": sid, "name": sid, "year": None, "sides": list(game.seats), "note": "",
                           "first": None, "banners": None}
    summary = getattr(game, "scenario_summary", None)
    if callable(summary):
        row.update({k: v for k, v in summary(sid).items() if k in row})
        return row
    loader = getattr(game, "load_scenario", None)
    if callable(loader):
        m = loader(sid).scenario
        row.update({"name": m.name, "year": m.year, "sides": [m.red_name, m.blue_name], "note": m.note,
                    "first": m.first, "banners": m.victory_banners})
    return row


def reference(game: Game) -> dict[str, Any]:
    """Unit and terrain tables for hover cards (C&C games), else ``{}``."""
    tables = getattr(game, "tables", None)
    if tables is None or not hasattr(tables, "units"):
        return {}
    units = {code: {"name": u.name, "symbol": u.symbol, "class": u.cls, "blocks": u.blocks, "move": u.move,
                    "battle_move": u.battle_move, "close": "1 per block" if u.dice_per_block else u.close,
                    "ranged": {str(k): v for k, v in sorted(u.ranged.items())}, "notes": u.notes}
             for code, u in tables.units.items()}
    terrain = {slug: {"name": t.name, "stop": t.stop, "impassable": t.impassable, "blocks_los": t.blocks_los,
                      "hill": t.hill}
               for slug, t in tables.terrain.items()}
    return {"units": units, "terrain": terrain}


def cc_odds(state: State, action: str) -> dict[str, Any] | None:
    """Odds of ``attack A B`` / ``fire A B`` in a C&C state: the state's own dice count
    (terrain, movement, cards in play) and the exact roll distribution of ``combat``."""
    from kassen.rulesets.cc_samurai.combat import marginals

    words = action.split()
    if len(words) != 3 or words[0] not in ("attack", "fire"):
        return None
    kind = "close" if words[0] == "attack" else "ranged"
    s: Any = state
    try:
        ah, dh = s.b.parse(words[1]), s.b.parse(words[2])
        au = s.units[ah]
        if dh not in s.units and dh in s.leaders:
            return _lone_leader_odds(s, action, kind, ah, dh)
        du = s.units[dh]
    except (KeyError, ValueError, AttributeError):
        return None
    at, dt = s.ut(au), s.ut(du)
    n = int(s.combat_dice(kind, ah, dh, False))
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
        "p_eliminated": p_elim,
        "note": "before Leader inspiration, First Strike and Dragon cards played in answer",
    }


def _lone_leader_odds(s: Any, action: str, kind: str, ah: Any, dh: Any) -> dict[str, Any]:
    """Combat Against a Leader Alone in a Hex: any sword kills him (but a Zvezda bow's swords at
    range, R36); flags do nothing: if not hit he retreats or commits seppuku."""
    words = action.split()
    au, ld = s.units[ah], s.leaders[dh]
    at = s.ut(au)
    n = int(s.combat_dice(kind, ah, dh, False))
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
        "p_eliminated": p,
        "note": ("a bow scores no hit with a sword at range: he cannot be hit (Zvezda)" if blank else
                 "any sword kills him; flags do nothing: if he is not hit he retreats or commits seppuku"),
    }


ODDS: dict[str, Callable[[State, str], dict[str, Any] | None]] = {
    "cc-samurai": cc_odds,
    "cc-samurai-zvezda": cc_odds,
}


def odds_for(game_id: str) -> Callable[[State, str], dict[str, Any] | None] | None:
    return ODDS.get(game_id)
