"""The page's rules primer for the clan game (issue 30, item 4): how the game is won (002:258-275,
rulings C6, C19, C26), for the set-up played."""

from __future__ import annotations

from typing import Any

from kassen.engine.protocol import Game, State
from kassen.rulesets.clans.common import COWARDICE, LORD_BONUS, PEASANT_BONUS


def primer(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    obs = state.observation(seat)
    teams = bool(obs.get("teams"))
    who = "team (partners add their points)" if teams else "player"
    items = [
        "Each Battlefield conquered scores its Victory Points, +" + str(PEASANT_BONUS) + " with a Peasant on it, +"
        + str(LORD_BONUS) + " with a Lord; the Torii adds 1 for each other Battlefield its conqueror conquers; a "
        "Lord deployed as a player's last card costs " + str(COWARDICE) + ".",
        f"The {who} with the most Victory Points wins; equal points go to the one that conquered more "
        "Battlefields; equal again is a draw shared by them.",
    ]
    return {"sections": [{"id": "victory", "title": f"Victory: {len(obs.get('seats') or [])} players"
                          + (", teams" if teams else ""), "items": items}], "terrain": {}, "banners": None}
