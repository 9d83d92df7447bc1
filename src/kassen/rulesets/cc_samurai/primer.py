"""The page's rules primer for C&C (issue 30, item 4): the dice faces and what they hit, Honor &
Fortune, Leaders, the current scenario's victory conditions and each terrain's effects.

Rule sentences come from ``data/primer.toml`` (each with its rulebook line); the dice faces,
terrain effects and victory conditions are built from the engine's own tables, the scenario and
the observation of the seat asking, so nothing hidden goes in.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

from kassen.engine.dice import Face
from kassen.engine.errors import KassenError
from kassen.engine.protocol import Game, State
from kassen.rulesets.cc_samurai.combat import terrain_caps


@functools.cache
def _texts() -> dict[str, Any]:
    raw = (resources.files("kassen.rulesets.cc_samurai") / "data" / "primer.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)


def _lines(key: str, edition: str) -> list[str]:
    return [row["text"] for row in _texts()[key] if edition in row.get("editions", ("gmt", "zvezda"))]


def _first(*cases: tuple[bool, str]) -> list[str]:
    """The sentence of the first case that holds, or none: one effect of a terrain, said once."""
    return next(([said] for holds, said in cases if holds), [])


def terrain_effects(game: Game) -> dict[str, str]:
    """Each terrain's effects in words, from the engine's terrain table (the maxima the engine
    applies, ``combat.terrain_caps``, for a unit attacking from open countryside)."""
    tables: Any = getattr(game, "tables")  # noqa: B009  (a C&C game)
    inf = next(u for u in tables.units.values() if not u.cavalry)
    cav = next((u for u in tables.units.values() if u.cavalry), inf)
    flat = tables.terrain["countryside"]
    out: dict[str, str] = {}
    for slug, t in tables.terrain.items():
        said: list[str] = []
        said += _first((t.impassable, "impassable: no unit or Leader may enter it"))
        said += _first((t.stop, "a unit or Leader entering must stop"))
        said += _first((t.no_battle_on_entry == "all", "a unit entering may not battle this turn"),
                       (t.no_battle_on_entry == "cavalry", "cavalry entering may not battle this turn"))
        said += _first((t.hill, "a hill (line of sight over hills has its own rules): close combat against a unit "
                                "on it from below is at most 2 dice"),
                       (t.blocks_los, "blocks line of sight"))
        on = [(w, t.cap_on(k, c)) for w, k, c in (("infantry in close combat", "close", False),
                                                 ("cavalry in close combat", "close", True),
                                                 ("infantry firing", "ranged", False),
                                                 ("cavalry firing", "ranged", True))]
        for what, cap in on:
            if cap is not None:
                said.append(f"{what} on it: at most {cap} {'die' if cap == 1 else 'dice'}"
                            if cap else f"{what} on it: may not battle")
        for what, u, kind in (("close combat against it (infantry)", inf, "close"),
                              ("close combat against it (cavalry)", cav, "close"),
                              ("ranged combat against it", inf, "ranged")):
            caps = [c for c in terrain_caps(u, kind, flat, t) if not (t.hill and kind == "close" and c == 2)]
            if caps:
                cap = min(caps)
                said.append(f"{what}: at most {cap} {'die' if cap == 1 else 'dice'}" if cap else f"{what}: impossible")
        said += _first((t.ignore_flag_any, "a unit on it may ignore 1 flag"),
                       (t.ignore_flag_inf == "any", "infantry on it may ignore 1 flag"),
                       (t.ignore_flag_inf == "cavalry", "infantry on it may ignore 1 flag rolled by cavalry"))
        said += _first((t.no_inspiration, "no Leader inspiration"))
        out[slug] = "; ".join(said) if said else "open ground: no effect"
    return out


def primer(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """The primer of ``state`` as ``seat`` may see it (its observation only)."""
    edition = str(getattr(game, "edition", "gmt"))
    obs = state.observation(seat)
    texts = _texts()
    dice = [{"face": f.value, "text": texts["dice"][f.value]} for f in Face]
    banners = int(obs["victory_banners"])
    victory = [f"The first side to gain {banners} Victory Banners wins this battle, the moment it gains the last."]
    victory += _lines("victory", edition)
    try:
        scen = getattr(game, "load_scenario")(obs.get("scenario"))  # noqa: B009  (a C&C game)
        notes: list[str] = list(scen.rules.notes)
        tent_banners = int(scen.rules.tent_banners)
    except (KassenError, OSError, ValueError):  # a design of the editor: its notes are its own
        notes, tent_banners = [], 3
    for o in [] if notes else obs.get("objectives", []):  # the scenario's notes say them in its words
        who = "either side" if o["for"] == "both" else f"{o['for'].capitalize()}"
        kind = "for as long as it is held" if o["kind"] == "temporary" else "kept once gained"
        victory.append(f"{o['name']} ({', '.join(o['hexes'])}): {o['banners']} Victory Banner"
                       f"{'s' if o['banners'] != 1 else ''} to {who} holding it, {kind}.")
    if (obs.get("board") or {}).get("tents"):
        victory.append(f"A unit that starts a turn in the enemy's command tent removes it: {tent_banners} "
                       "Victory Banners.")
    victory += [n for n in notes if n not in victory]
    return {
        "sections": [
            {"id": "dice", "title": "The battle dice", "items": [d["text"] for d in dice], "faces": dice},
            {"id": "honor", "title": "Honor & Fortune", "items": _lines("honor", edition)},
            {"id": "leaders", "title": "Leaders", "items": _lines("leaders", edition)},
            {"id": "victory", "title": f"Victory: {state_name(state, obs)}", "items": victory},
        ],
        "terrain": terrain_effects(game),
        "banners": banners,
    }


def state_name(state: State, obs: dict[str, Any]) -> str:
    return str(getattr(state, "scenario_name", "") or obs.get("scenario") or "this battle")
