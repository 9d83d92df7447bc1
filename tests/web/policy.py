"""A deterministic, aggressive test player: it seeks battle so that games end soon."""

from __future__ import annotations

import re

from kassen.engine.protocol import State

HEX = re.compile(r"^([A-Y])([0-9]{1,2})$")


def coords(word: str) -> tuple[int, int] | None:
    m = HEX.match(word)
    return (ord(m.group(1)) - 65, int(m.group(2))) if m else None


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dy + max(0, (dx - dy) // 2)


def aggressive(state: State) -> str:
    """Attack if possible, else play, order, close in on the nearest enemy, then end the step."""
    acts = state.legal_actions()
    seat = state.to_move()
    for prefix in ("attack ", "fire ", "bonus ", "play ", "order "):
        pick = next((a for a in acts if a.startswith(prefix)), None)
        if pick is not None:
            return pick
    obs = state.observation(seat)
    me = obs.get("you")
    enemies = [c for u in obs.get("board", {}).get("units", []) if u["side"] != me and (c := coords(u["hex"]))]

    def gain(action: str) -> int:
        hexes = [c for w in action.split() if (c := coords(w))]
        if len(hexes) != 2 or not enemies:
            return 0
        return min(distance(hexes[0], e) for e in enemies) - min(distance(hexes[1], e) for e in enemies)

    moves = [a for a in acts if a.startswith("move ")]
    if moves:
        best = max(moves, key=gain)
        if gain(best) > 0:
            return best
    for end in ("done", "end-move", "end-battle", "pass", "advance", "battle-back"):
        if end in acts:
            return end
    return acts[0]
