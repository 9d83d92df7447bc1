"""The page's rules primer for An Honourable Victory! (issue 30, item 4): the battle's victory
conditions (001:867-933, rulings H23, H26), with the numbers of the battle played: each side's
1/3 and Breakpoint values, the turn limit and the zones an Honourable Victory needs."""

from __future__ import annotations

from math import ceil
from typing import Any

from kassen.engine.protocol import Game, State


def primer(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    obs = state.observation(seat)
    sides = list(obs.get("clans") or game.seats)
    zones = len(obs.get("zones") or [])
    need = ceil(2 * zones / 3)
    third, half, limit = obs["third_value"], obs["breakpoint"], obs["turn_limit"]
    items = [
        "A side with more units off the table than on it is in general retreat: the other wins An Honourable "
        "Victory! (both at once: a Humiliating Loss for both).",
        *(f"{sides[s]} started with {obs['start_units'][s]} units: after losing {third[s]} its Daimyo is removed; "
          f"after losing {half[s]} (its Breakpoint) its morale breaks and the battle ends." for s in (0, 1)),
        f"Otherwise the battle ends after turn {limit}.",
        f"When it ends, a side holding {need} of the {zones} zones uncontested wins An Honourable Victory!; "
        "else the side holding more zones uncontested wins A Minor Victory; equal is a Draw.",
        "A side may concede defeat in its movement phase.",
    ]
    return {"sections": [{"id": "victory", "title": f"Victory: {obs.get('battle_name') or 'this battle'}",
                          "items": items}], "terrain": {}, "banners": None}
