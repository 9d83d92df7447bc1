"""What the page knows per game, beyond the protocol: which view draws it and the scenario
notes for the lobby (both from the game's spec, :mod:`kassen.rulesets.registry`), and the unit
and terrain reference for hover cards (the exact odds of an attack come from
``State.action_odds``). Every number comes from the ruleset's own tables and functions.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from kassen.engine.errors import KassenError
from kassen.engine.protocol import Game, State
from kassen.rulesets.registry import get, hook


def view_for(game_id: str) -> str:
    """The JS view module under static/views/ that draws the game (``RulesetSpec.web_view``)."""
    try:
        return get(game_id).web_view
    except KassenError:  # a game no longer registered: the generic view shows it
        return "generic"


def scenario_info(game: Game, sid: str) -> dict[str, Any]:
    """Name, year, sides and historical note of a scenario, as far as the game tells, and the
    figure of its shipped balance report (``None`` if it has none)."""
    row = get(game.id).summary(game, sid)
    row["balance"] = balance_figure(game.id, sid)
    return row


#: the balance reports shipped with Kassen: static/balance/<game>/balance.json (``kassen balance``)
BALANCE_DIR = "balance"


@functools.cache
def _balance_report(game_id: str) -> dict[str, Any] | None:
    f = resources.files("kassen.web") / "static" / BALANCE_DIR / game_id / "balance.json"
    try:
        doc: dict[str, Any] = json.loads(f.read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return None
    return doc


def balance_figure(game_id: str, sid: str) -> dict[str, Any] | None:
    """What the lobby shows of a scenario's shipped balance report: the AI self-play series (players,
    games, date, command), each side's win rate with its 95% interval, and the plot's address."""
    doc = _balance_report(game_id)
    rep = (doc or {}).get("scenarios", {}).get(sid)
    if doc is None or rep is None:
        return None
    plots = doc.get("plots", {}).get(sid, [])
    svg = next((p for p in plots if p.endswith(".svg")), None)
    return {  # a scenario may carry its own run (date, command) when the report joins several
        "date": rep.get("date", doc["date"]),
        "players": doc["players"],
        "games": rep["games"],
        "command": rep.get("command", doc["command"]),
        "win_rate": {s: {"wins": w["wins"], "rate": w["rate"], "ci95": w["ci95"]}
                     for s, w in rep["win_rate_by_side"].items()},
        "draws": rep["draws"],
        "mean_turns": rep["length"]["turns"]["mean"],
        "plot": f"/static/{BALANCE_DIR}/{game_id}/{svg}" if svg else None,
    }


_NAMES: dict[tuple[str, str], str] = {}


def scenario_name(game: Game, sid: str | None) -> str | None:
    """The display name of a scenario (remembered: every view asks for it)."""
    if sid is None:
        return None
    key = (game.id, sid)
    if key not in _NAMES:
        try:
            _NAMES[key] = str(scenario_info(game, sid)["name"])
        except Exception:  # a position file or a scenario no longer shipped: its id will do
            _NAMES[key] = sid
    return _NAMES[key]


def reference(game: Game) -> dict[str, Any]:
    """Unit and terrain tables for hover cards (games whose spec says ``unit_reference``: C&C),
    else ``{}``."""
    try:
        if not get(game.id).unit_reference:
            return {}
    except KassenError:  # a game no longer registered
        return {}
    tables: Any = getattr(game, "tables")  # noqa: B009  (the spec says the game has them)
    units = {code: {"name": u.name, "symbol": u.symbol, "class": u.cls, "blocks": u.blocks, "move": u.move,
                    "battle_move": u.battle_move, "close": "1 per block" if u.dice_per_block else u.close,
                    "ranged": {str(k): v for k, v in sorted(u.ranged.items())}, "notes": u.notes}
             for code, u in tables.units.items()}
    terrain = {slug: {"name": t.name, "stop": t.stop, "impassable": t.impassable, "blocks_los": t.blocks_los,
                      "hill": t.hill}
               for slug, t in tables.terrain.items()}
    return {"units": units, "terrain": terrain}



def primer(game: Game, state: State, seat: int | None) -> dict[str, Any] | None:
    """The page's rules primer of the battle played, as ``seat`` may see it (``None``: a
    spectator): the spec's ``primer`` hook (``None`` for games without one)."""
    try:
        name = get(game.id).primer
    except KassenError:
        return None
    if name is None:
        return None
    out: dict[str, Any] = hook(name)(game, state, seat)
    return out
