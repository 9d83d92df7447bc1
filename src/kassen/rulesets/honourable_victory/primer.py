"""The page's rules primer for An Honourable Victory! (issue 30, item 4): the Game Turn, firing,
hand-to-hand combat, losses, movement, reactions, the battle's terrain (and unit quality when it
is played) and its victory conditions.

Rule sentences come from ``data/primer.toml`` (each with its rule line or ruling id), read on
first use. Their numbers are the engine's own: the dice modifiers and Combat Values are asked of
the state's own ``fire_dice`` and ``combat_value`` on example units, the hit and test numbers are
the constants the rules use, the actions per unit are the unit table's, and the zones, limits,
terrain and victory values are the seat's observation. Fire declarations and allocations (the
only hidden things) never go in.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from math import ceil
from typing import Any

from kassen.engine.protocol import Game, State
from kassen.rulesets.honourable_victory.common import (
    CV_MAX,
    CV_MIN,
    ENGAGE_NEED,
    ENGAGE_NEED_QUALITY,
    FIRE_HIT,
    Unit,
)
from kassen.rulesets.honourable_victory.table import FEATURES

#: the sections of the primer, in the order shown ("quality" only when unit quality is played)
SECTIONS = ("sequence", "firing", "melee", "losses", "movement", "reactions", "terrain", "quality", "victory")


@functools.cache
def texts() -> dict[str, Any]:
    """``data/primer.toml``, read once on first use."""
    raw = (resources.files("kassen.rulesets.honourable_victory") / "data" / "primer.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)


def _unit(cls: str, weapon: str, form: str, zone: str, mounted: bool | None = None) -> Unit:
    u = Unit("X1", 0, "example", cls, weapon, 6, zone, 0, form)
    if mounted is not None:
        u.mounted = mounted
    return u


def numbers(state: Any) -> dict[str, Any]:
    """The values the sentences name, asked of the engine: its fire and Combat Value rules on
    example units in a zone without cover, its constants and its unit table."""
    zone = next((z for z in state.table.zones() if not state.table.cover(z)), state.table.zones()[0])
    bow, foot = _unit("light-foot", "bow", "attack", zone), _unit("foot", "hand-to-hand", "attack", zone)
    base = state.fire_dice(bow, foot)

    def fire(firer: Unit, target: Unit) -> int:
        return int(state.fire_dice(firer, target)) - int(base)

    def cv(a: Unit, t: Unit) -> int:
        return int(state.combat_value(a, t))

    rider = _unit("mounted", "mounted", "attack", zone)
    groups: dict[int, list[str]] = {}
    for slug, w in state.tables.weapons.items():
        if slug != "mounted":
            groups.setdefault(cv(_unit("foot", slug, "attack", zone), foot), []).append(w.name)
    groups.setdefault(cv(rider, foot), []).append("mounted stands")
    groups.setdefault(cv(_unit("mounted", "mounted", "attack", zone, mounted=False), foot), []).append(
        "dismounted stands")
    cv_table = "; ".join(f"{value} for {_join(names)}" for value, names in sorted(groups.items()))
    base_cv = cv(foot, foot)
    return {
        "firer_defensive": fire(_unit("light-foot", "bow", "defensive", zone), foot),
        "target_mounted": fire(bow, rider),
        "target_defensive": fire(bow, _unit("foot", "hand-to-hand", "defensive", zone)),
        "target_open": fire(bow, _unit("foot", "hand-to-hand", "open", zone)),
        "fire_hit": FIRE_HIT["seasoned"], "fire_green": FIRE_HIT["green"], "fire_veteran": FIRE_HIT["veteran"],
        "cv_table": cv_table,
        "open": cv(_unit("foot", "hand-to-hand", "open", zone), foot) - base_cv,
        "defensive": cv(_unit("foot", "hand-to-hand", "defensive", zone), foot) - base_cv,
        "mounted_vs_open": cv(rider, _unit("foot", "hand-to-hand", "open", zone)) - cv(rider, foot),
        "mounted_vs_defensive": cv(rider, _unit("foot", "hand-to-hand", "defensive", zone)) - cv(rider, foot),
        "mounted_vs_long_spears": cv(rider, _unit("foot", "long-spear", "defensive", zone)) - cv(rider, foot),
        "cv_min": CV_MIN, "cv_max": CV_MAX,
        "foot_actions": _actions(state.tables.classes["foot"].actions),
        "mounted_actions": _actions(state.tables.classes["mounted"].actions),
        "engage_attack": ENGAGE_NEED["attack"], "engage_open": ENGAGE_NEED["open"],
        "engage_green": ENGAGE_NEED_QUALITY["green"], "engage_veteran": ENGAGE_NEED_QUALITY["veteran"],
    }


def _actions(n: int) -> str:
    return "one action" if n == 1 else f"{n} actions"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _rows(key: str, values: dict[str, Any], flags: set[str]) -> list[str]:
    return [str(row["text"]).format(**values) for row in texts()[key]
            if not row.get("per_side") and (row.get("when") is None or row["when"] in flags)]


def _terrain(obs: dict[str, Any]) -> list[str]:
    rows = texts()["terrain"]
    where: dict[str, list[str]] = {}
    for zone, feats in sorted((obs.get("terrain") or {}).items()):
        for f in feats:
            where.setdefault(f, []).append(zone)
    edges = obs.get("escarpments") or []
    if not where and not edges:
        return [rows["clear"]["text"]]
    out = [f"{f.capitalize()} ({', '.join(where[f])}): {rows[f]['text']}" for f in FEATURES if f in where]
    if edges:
        out.append(f"Escarpments ({', '.join('-'.join(e) for e in edges)}): {rows['escarpments']['text']}")
    out.append(rows["effects"]["text"])
    return out


def primer(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """The primer of ``state`` as ``seat`` may see it (its observation and the battle's options)."""
    obs = state.observation(seat)
    opts: dict[str, Any] = getattr(state, "opts", {})
    values = {**numbers(state), "width": obs["width"], "limit": obs["limit"], "turn_limit": obs["turn_limit"]}
    flags = {"concede"} if opts.get("concede", True) else set()
    sides = list(obs.get("clans") or game.seats)
    zones = len(obs.get("zones") or [])
    values.update(need=ceil(2 * zones / 3), zones=zones)
    per_side = next(row for row in texts()["victory"] if row.get("per_side"))
    victory = _rows("victory", values, flags)
    victory[1:1] = [str(per_side["text"]).format(side=sides[s], units=obs["start_units"][s],
                                                 third=obs["third_value"][s], breakpoint=obs["breakpoint"][s])
                    for s in (0, 1)]
    sections = [
        {"id": "sequence", "title": "The Game Turn", "items": _rows("sequence", values, flags)},
        {"id": "firing", "title": "The Firing Phase", "items": _rows("firing", values, flags)},
        {"id": "melee", "title": "Hand-to-hand combat", "items": _rows("melee", values, flags)},
        {"id": "losses", "title": "Removing losses", "items": _rows("losses", values, flags)},
        {"id": "movement", "title": "The Movement Phases", "items": _rows("movement", values, flags)},
        {"id": "reactions", "title": "Reactions", "items": _rows("reactions", values, flags)},
        {"id": "terrain", "title": "Terrain of this battle", "items": _terrain(obs)},
    ]
    if opts.get("quality", "off") != "off":
        sections.append({"id": "quality", "title": "Unit quality", "items": _rows("quality", values, flags)})
    sections.append({"id": "victory", "title": f"Victory: {obs.get('battle_name') or 'this battle'}",
                     "items": victory})
    return {"sections": sections, "terrain": {}, "banners": None}
