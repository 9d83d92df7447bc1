"""The page's rules primer for the Kensei companion (issue 30, item 4): preparing and the turn
sequence, the order roll and the orders, hand to hand combat, shooting, the damage roll, and how
a game ends (ruling K38).

The sheet is thin, so the primer says only what the quick-reference sheet or a ruling says.
Sentences come from ``data/primer.toml`` (each with its sheet line or ruling id), read on first
use; the order roll, command cards, orders, ranges, armour and every roll's modifiers are built
from the engine's own tables (``data/sheet.toml``, ``data/modifiers.toml``), the very values the
roll resolver applies, with "(inference)" where the table marks Kassen's reading. Nothing of a
seat's secret (the secondary mission roll) goes in: only the observation's public scenario.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

from kassen.engine.protocol import Game, State
from kassen.rulesets.kensei.common import RETREAT_SHARE, TURNS
from kassen.rulesets.kensei.data import Modifier, Tables, load_tables

#: the sections of the primer, in the order shown ("machines" only when an army has a war machine)
SECTIONS = ("sequence", "orders", "combat", "shooting", "damage", "armies", "machines", "victory")
ORDER_TYPES = ("movement", "combat", "support", "static", "spiritual")


@functools.cache
def texts() -> dict[str, Any]:
    """``data/primer.toml``, read once on first use."""
    raw = (resources.files("kassen.rulesets.kensei") / "data" / "primer.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)


def _rows(key: str, values: dict[str, Any], built: dict[str, list[str]]) -> list[str]:
    """The items of section ``key``: each row's text, or the items built for its ``table``."""
    out: list[str] = []
    for row in texts()[key]:
        if "table" in row:
            out.extend(built[str(row["table"])])
        else:
            out.append(str(row["text"]).format(**values))
    return out


def _mods(tables: Tables, roll: str) -> list[Modifier]:
    return [m for key, m in tables.modifiers.items() if key.split(".")[0] == roll]


def _mod_text(m: Modifier, dice: bool) -> str:
    said = m.name if dice and m.value == 0 else f"{m.value:+d}{'D6' if dice else ''} {m.name}"
    return said + (" (inference)" if m.inference else "")


def mod_list(tables: Tables, roll: str) -> str:
    """The modifiers of ``roll`` as the engine applies them, in words."""
    return "; ".join(_mod_text(m, roll.endswith("-dice")) for m in _mods(tables, roll))


#: the artillery damage roll's modifiers that are dice (003:286-287); the others change each die
ARTILLERY_DAMAGE_DICE = ("artillery-damage.power", "artillery-damage.miniature-affected")


def artillery_damage(tables: Tables) -> str:
    dice = [_mod_text(tables.modifiers[k], True) for k in ARTILLERY_DAMAGE_DICE]
    each = [_mod_text(m, False) for k, m in tables.modifiers.items()
            if k.startswith("artillery-damage.") and k not in ARTILLERY_DAMAGE_DICE]
    return f"Artillery damage roll dice: {'; '.join(dice)}; modifiers (to each die): {'; '.join(each)}."


def order_roll(tables: Tables) -> str:
    bands = []
    for b in tables.sheet.order_roll:
        at = f"{b.min}+" if b.max is None else f"{b.min}-{b.max}"
        said = {1: "one order", 2: "two orders"}.get(b.orders, f"{b.orders} orders")
        bands.append(f"{at} {said}" + (" and the troop's Ki ability active this turn" if b.ki else ""))
    return "Order roll: 1D6 + the active troop's INI: " + "; ".join(bands) + "."


def command_cards(tables: Tables) -> str:
    sheet = tables.sheet
    bands = [f"{c.min_points}-{c.max_points} army points {c.cards}" if c.max_points is not None
             else f"{c.min_points} or more {c.cards}" for c in sheet.command_cards]
    levels = [f"{c.name} {c.strategy:+d} to the Strategy Roll" + (f", {c.cards:+d} command card{'s' if c.cards != 1 else ''}"
                                                                  if c.cards else "") for c in sheet.commanders.values()]
    return "Command cards per turn: " + ", ".join(bands) + ". Commander level: " + "; ".join(levels) + "."


def orders(tables: Tables) -> list[str]:
    out = []
    for kind in ORDER_TYPES:
        of = [o for o in tables.sheet.orders.values() if o.type == kind]
        action = [o.name for o in of if o.kind in ("action", "both")]
        reaction = [o.name for o in of if o.kind in ("reaction", "both")]
        said = [f"{', '.join(action)} (action)"] if action else []
        said += [f"{', '.join(reaction)} (reaction)"] if reaction else []
        if said:
            out.append(f"{kind.capitalize()} orders: " + "; ".join(said) + ".")
    return out


def _range(r: Any) -> str:
    return f"{r.name} up to {r.max_cm} cm" if r.min_cm == 0 else f"{r.name} over {r.min_cm} to {r.max_cm} cm"


def _armour(a: Any) -> str:
    note = str(a.text).rstrip(".")
    return f"{a.name} {a.damage:+d}" + (f" ({note[:1].lower()}{note[1:]})" if note else "")


def armies(state: Any, obs: dict[str, Any]) -> dict[str, list[str]]:
    """The clans' special rules and the titles of the troops in play (both armies are on the
    table: the rosters are public), from the sheet's tables."""
    sheet = state.tables.sheet
    clans = []
    for s, roster in enumerate(state.rosters):
        clan = sheet.clans[roster.clan]
        clans.append(f"{obs['seats'][s]}: " + " ".join(f"{a.name}: {a.text}" for a in clan.abilities))
    titles: dict[str, Any] = {}
    for s, side in enumerate(obs["units"]):
        for u in side:
            t = state.profile(s, u["id"]).title
            titles.setdefault(t.name, t)
    said = [f"{name}: " + " ".join(str(r.text) for r in t.rules) for name, t in titles.items() if t.rules]
    ammo = {a for s, side in enumerate(obs["units"]) for u in side for a in state.profile(s, u["id"]).ammunition}
    impacts = [sheet.impacts[k] for k in sheet.impacts if any(sheet.ammunition[a].impact == k for a in ammo)]
    return {"clans": clans, "titles": said,
            "impacts": [f"{i.name} ammunition: {i.text}" for i in impacts]}


def built_items(tables: Tables) -> dict[str, list[str]]:
    """The items built from the engine's tables, by the name a ``table`` row gives."""
    sheet = tables.sheet
    return {
        "artillery_dice": [f"Artillery shoot roll dice: {mod_list(tables, 'artillery-dice')}."],
        "artillery_damage": [artillery_damage(tables)],
        "command_cards": [command_cards(tables)],
        "order_roll": [order_roll(tables)],
        "orders": orders(tables),
        "combat_dice": [f"Combat roll dice: {mod_list(tables, 'combat-dice')}."],
        "combat_hit": [f"Combat roll modifiers (to each die): {mod_list(tables, 'combat-hit')}."],
        "ranges": ["Shooting ranges: " + ", ".join(_range(r) for r in sheet.ranges.values()) + "."],
        "shoot_dice": [f"Shoot roll dice: {mod_list(tables, 'shoot-dice')}."],
        "shoot_hit": [f"Shoot roll modifiers (to each die): {mod_list(tables, 'shoot-hit')}."],
        "damage_modifiers": [f"Hand to hand damage modifiers (to each die): {mod_list(tables, 'melee-damage')}.",
                             f"Shooting damage modifiers (to each die): {mod_list(tables, 'shoot-damage')}.",
                             sheet.firearms.text],
        "armour": ["Armour (to the enemy's damage rolls): " + "; ".join(_armour(a) for a in sheet.armour.values())
                   + "."],
    }


def primer(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """The primer of ``state`` as ``seat`` may see it (its observation's scenario only)."""
    obs = state.observation(seat)
    tables: Tables = getattr(state, "tables", None) or load_tables()
    scen = str(obs.get("scenario") or "the scenario rolled").replace("-", " ")
    values: dict[str, Any] = {"difficulty": tables.difficulty.value, "turns": TURNS, "retreat": RETREAT_SHARE,
                              "scenario": scen}
    built = {**built_items(tables), **armies(state, obs)}
    titles = {"sequence": "Preparing and the turn", "orders": "Orders and reactions", "combat": "Hand to hand combat",
              "shooting": "Shooting", "damage": "The damage roll", "armies": "The armies: clan rules and titles",
              "machines": "War machines", "victory": f"Victory: {scen}"}
    machines = any(u.get("machine") for side in obs["units"] for u in side)
    return {"sections": [{"id": key, "title": titles[key], "items": _rows(key, values, built)} for key in SECTIONS
                         if key != "machines" or machines],
            "terrain": {}, "banners": None}
