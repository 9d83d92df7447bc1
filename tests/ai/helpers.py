"""Shared by the AI tests: play a state forward with one player per seat, checking legality."""

from __future__ import annotations

from collections.abc import Sequence

from kassen.ai.players import Player
from kassen.engine.protocol import State


def play_legal(s: State, players: Sequence[Player], decisions: int) -> list[str]:
    """Up to ``decisions`` decisions from ``s``, each by its seat's player; every action must
    be legal and none a concession. Returns the actions played."""
    out: list[str] = []
    for _ in range(decisions):
        if s.is_terminal():
            break
        seat = s.to_move()
        assert seat is not None and seat >= 0, "the AI tests play games without chance nodes"
        legal = s.legal_actions()
        a = players[seat].choose(s, seat)
        assert a in legal, (a, legal)
        assert a != "concede"
        out.append(a)
        s = s.apply(a)
    return out
