"""Replay An Honourable Victory! strength games (normal against greedy, the code on PYTHONPATH)
and print, at the start of each movement phase of turns 11 and 12, each side's uncontested zones,
spare units (unengaged, sharing a zone with a friend) and reserves: what decides the last turns.

Usage (a game is SEED:SEAT, SEAT being normal's seat in it, as in the strength JSON)::

    PYTHONPATH=src .venv/bin/python benchmarks/hv_spares.py 3:1 9:1 18:0

A replay is the strength run's game move for move only with the code that played it.
"""

from __future__ import annotations

import sys

from kassen.ai.players import make_player
from kassen.rulesets.honourable_victory.state import HVState
from kassen.rulesets.registry import load_game


def spares(s: HVState, side: int) -> tuple[int, int]:
    """``side``'s spare units on the table and its units in reserve."""
    count: dict[str, int] = {}
    for u in s.units.values():
        if u.side == side and u.status == "table":
            count[u.zone] = count.get(u.zone, 0) + 1
    spare = sum(1 for u in s.units.values() if u.side == side and u.status == "table"
                and count[u.zone] > 1 and not s.engaged(u.uid))
    return spare, sum(1 for u in s.units.values() if u.side == side and u.status == "reserve")


def replay(seed: int, seat: int) -> str:
    names = ["normal", "greedy"] if seat == 0 else ["greedy", "normal"]
    players = [make_player(n, seed * 7919 + i) for i, n in enumerate(names)]
    s: HVState = load_game("honourable-victory").new_state("meeting-engagement", seed)  # type: ignore[assignment]
    last: tuple[int, int] | None = None
    notes: list[str] = []
    while not s.is_terminal():
        mover = s.to_move()
        assert mover is not None
        if s.turn >= int(s.opts["turn_limit"]) - 1 and s.pend.get("step") == "move" and (s.turn, s.mover) != last:
            last = (s.turn, s.mover)
            (sm, rm), (so, ro) = spares(s, seat), spares(s, 1 - seat)
            who = "normal" if s.mover == seat else "greedy"
            notes.append(f"t{s.turn} {who} moves {'first' if s.mover == s.init else 'last'}: zones "
                         f"{s.uncontested(seat)}-{s.uncontested(1 - seat)} spare {sm}-{so} reserve {rm}-{ro}")
        s = s.apply(players[mover].choose(s, mover))
    res = s.result()
    assert res is not None
    out = "W" if res.winner == seat else "D" if res.winner is None else "L"
    return (f"seed {seed} normal={'SN'[seat]} {out} final {s.uncontested(seat)}-{s.uncontested(1 - seat)} | "
            + " | ".join(notes))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        a, b = arg.split(":")
        print(replay(int(a), int(b)), flush=True)
