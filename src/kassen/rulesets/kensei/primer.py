"""The page's rules primer for the Kensei companion (issue 30, item 4): how a game ends (rulings
K38), with the scenario rolled and the turns to play."""

from __future__ import annotations

from typing import Any

from kassen.engine.protocol import Game, State
from kassen.rulesets.kensei.common import RETREAT_SHARE, TURNS


def primer(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    obs = state.observation(seat)
    scen = str(obs.get("scenario") or "the scenario rolled").replace("-", " ")
    items = [
        f"An army with {RETREAT_SHARE:.0%} of its units lost or retreating is in retreat: the other wins.",
        "An army destroyed loses at once.",
        f"After {TURNS} turns the army that lost the smaller share of its miniatures wins; an equal share is a "
        f"draw. Score the missions of {scen} at the table.",
    ]
    return {"sections": [{"id": "victory", "title": f"Victory: {scen}", "items": items}], "terrain": {},
            "banners": None}
