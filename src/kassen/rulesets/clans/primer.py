"""The page's rules primer for the clan game (issue 30, item 4): the order of play, what a player
decides, how a Battlefield is won, every Army card and the Battlefields of the set-up played,
and how the game is won.

Rule sentences come from ``data/primer.toml`` (each with its rulebook line or ruling id), read
on first use. Their numbers are filled from the engine's own constants and the game's card table
(each card's Strength, each Battlefield's Victory Points), so the primer cannot disagree with
the rules played. The Battlefields and teams are the seat's observation; the card table is
public. No hand, face-down card or removed card goes in.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

from kassen.engine.protocol import Game, State
from kassen.rulesets.clans.common import (
    BRIDGE_LIMIT,
    COWARDICE,
    FORTRESS_CARDS,
    LORD_BONUS,
    PALACE_PENALTY,
    PEASANT_BONUS,
    ROUNDS,
    TEMPLE_MARGIN,
)
from kassen.rulesets.clans.data import CARD_TYPES, TILES, CardTable, load_table

#: the sections of the primer, in the order shown (the Battlefields' section only lists those in play)
SECTIONS = ("sequence", "decisions", "combat", "cards", "battlefields", "victory")


@functools.cache
def texts() -> dict[str, Any]:
    """``data/primer.toml``, read once on first use."""
    raw = (resources.files("kassen.rulesets.clans") / "data" / "primer.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)


def numbers(table: CardTable, players: int) -> dict[str, int]:
    """The values the sentences name, from the engine's constants and ``table``."""
    return {
        "rounds": ROUNDS, "cowardice": COWARDICE, "lord_bonus": LORD_BONUS, "peasant_bonus": PEASANT_BONUS,
        "bridge_limit": BRIDGE_LIMIT, "palace_penalty": PALACE_PENALTY, "temple_margin": TEMPLE_MARGIN,
        "fortress_cards": FORTRESS_CARDS, "per_card_after": table.lord.per_card_after,
        "peasant": table.strength("peasant"), "rice_peasant": table.rice_field.peasant_strength,
        "village_from": table.village.from_strength, "village_to": table.village.to_strength,
        "players_plus_one": players + 1,
    }


def _rows(key: str, values: dict[str, Any], flags: set[str]) -> list[str]:
    return [str(row["text"]).format(**values) for row in texts()[key] if row.get("when") is None or row["when"] in flags]


def _card(slug: str, table: CardTable, values: dict[str, Any]) -> str:
    name, kind, copies = CARD_TYPES[slug]
    c = table.cards[slug]
    strength = f"Strength {c.strength}" + (" (default value)" if c.default else "")
    return (f"{name} ({kind.capitalize()} Unit, {copies} per clan), {strength}: "
            + str(texts()["cards"][slug]["text"]).format(**values))


def primer(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """The primer of ``state`` as ``seat`` may see it: its observation and the public card table."""
    obs = state.observation(seat)
    table: CardTable = getattr(state, "table", None) or load_table()
    players = len(obs.get("seats") or [])
    teams = bool(obs.get("teams"))
    scenario = str(obs.get("scenario") or "")
    flags = {"teams"} if teams else set()
    if teams or "experienced" in scenario:
        flags.add("chosen")
    values: dict[str, Any] = {**numbers(table, players),
                              "who": "team (partners add their points)" if teams else "player"}
    drafting = obs.get("phase") == "draft"  # Battlefields still being chosen: all ten are told
    tiles = list(TILES) if drafting else [b["tile"] for b in obs.get("board") or []]
    fields = [f"{TILES[t][0]} ({table.vp(t)} VP, {TILES[t][1]}): "
              + texts()["battlefields"][t]["text"].format(**values) for t in tiles]
    cards = [_card(slug, table, values) for slug in CARD_TYPES]
    if any(c.default for c in table.cards.values()):
        cards.append(texts()["card_note"]["text"])
    return {
        "sections": [
            {"id": "sequence", "title": "The order of play", "items": _rows("sequence", values, flags)},
            {"id": "decisions", "title": "What you decide", "items": _rows("decisions", values, flags)},
            {"id": "combat", "title": "Combat Resolution: who conquers a Battlefield",
             "items": _rows("combat", values, flags)},
            {"id": "cards", "title": "The Army cards (13 per clan)", "items": cards},
            {"id": "battlefields", "title": "The Battlefields" if drafting else "The Battlefields of this game",
             "items": fields},
            {"id": "victory", "title": f"Victory: {players} players" + (", teams" if teams else ""),
             "items": _rows("victory", values, flags)},
        ],
        "terrain": {},
        "banners": None,
    }
