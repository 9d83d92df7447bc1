"""Game ids used by every command that takes a game, and how to load each."""

from __future__ import annotations

import importlib

from kassen.engine.errors import KassenError
from kassen.engine.protocol import Game

#: game id -> (module, class name, one-line description)
GAMES: dict[str, tuple[str, str, str]] = {
    "cc-samurai": (
        "kassen.rulesets.cc_samurai.game",
        "CCSamuraiGame",
        "Commands & Colors: Samurai Battles (GMT)",
    ),
    "cc-samurai-zvezda": (
        "kassen.rulesets.cc_samurai.game",
        "ZvezdaGame",
        "Samurai Battles (Zvezda, 2012): the earlier edition of the same system",
    ),
    "clans": ("kassen.rulesets.clans.game", "ClansGame", "The clan card game: 2-4 clans, Battlefield tiles, secret Army cards"),
    "honourable-victory": ("kassen.rulesets.honourable_victory.game", "HonourableVictoryGame", "An Honourable Victory! (zone-based miniatures rules)"),
    "kensei": ("kassen.rulesets.kensei.game", "KenseiGame", "Kensei (Zenit): a table companion for the miniatures game, exact dice odds"),
}


def available() -> list[str]:
    return list(GAMES)


def load_game(game_id: str) -> Game:
    """The game for ``game_id``; raises ``KassenError`` listing the known ids."""
    try:
        module, cls, _ = GAMES[game_id]
    except KeyError:
        raise KassenError(f"unknown game {game_id!r}; known games: {', '.join(GAMES)}") from None
    game: Game = getattr(importlib.import_module(module), cls)()
    return game
