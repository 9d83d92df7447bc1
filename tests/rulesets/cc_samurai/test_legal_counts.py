"""Perft-style guard on the move generator: legal-action counts along seeded games.

The golden file was produced by this module's ``compute()``; regenerate it with
``python -m tests.rulesets.cc_samurai.test_legal_counts`` only after a rule change
that is meant to change the counts (and say so in the commit).
"""

from __future__ import annotations

import json
from pathlib import Path

from kassen.engine.rng import Rng
from tests.rulesets.cc_samurai.helpers import GAME, act, position

GOLDEN = Path(__file__).parent / "golden" / "legal_counts.json"
SEEDS = (1, 2, 3)
PLIES = 120


def perft(state, depth: int) -> int:
    """Leaves of the action tree ``depth`` plies deep (dice come from the state's RNG)."""
    if depth == 0 or state.is_terminal():
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def compute() -> dict[str, list[list[int]]]:
    out: dict[str, list[list[int]]] = {}
    for seed in SEEDS:
        s = GAME.new_state(None, seed)
        rng = Rng(seed)
        rows = []
        for ply in range(PLIES):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            rows.append([ply, len(legal), perft(s, 3) if ply % 20 == 0 else -1])
            s = s.apply(rng.choice(legal))
        out[str(seed)] = rows
    return out


def test_legal_action_counts_match_the_golden_file():
    expected = json.loads(GOLDEN.read_text())
    assert compute() == expected


def test_movement_ashigaru_spearmen_in_the_open_have_eighteen_destinations():
    # Infantry Unit Movement: ASp may move 2 hexes: 6 + 12 hexes within 2 of an open hex
    s = position("""
        [red]
        pieces = [{ at = "L5", unit = "ASp" }]
        [blue]
        pieces = [{ at = "L11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-center", "order L5")
    moves = [a for a in s.legal_actions() if a.startswith("move")]
    assert len(moves) == 18 and s.legal_actions()[-1] == "end-move"


def test_movement_forest_stops_and_units_block_destinations():
    # Forest: a unit entering must stop; no moving onto or through units
    s = position("""
        [terrain]
        forest = ["N5"]
        [red]
        pieces = [{ at = "L5", unit = "ASp" }, { at = "J5", unit = "ASp" }]
        [blue]
        pieces = [{ at = "L11", unit = "ASp" }]
    """)
    s = act(s, "play order-three-center", "order L5", "done")
    dests = {a.split()[2] for a in s.legal_actions() if a.startswith("move L5")}
    assert "N5" in dests  # the forest itself can be entered
    assert "P5" not in dests  # its only 2-hex path runs through the forest
    assert "J5" not in dests and "H5" not in dests  # occupied, and only reachable through J5
    assert "O6" in dests  # around the forest through M6

if __name__ == "__main__":
    data = compute()
    body = ",\n".join(
        f'"{k}": [\n' + ",\n".join("  " + json.dumps(r) for r in rows) + "\n]" for k, rows in data.items()
    )
    GOLDEN.write_text("{\n" + body + "\n}\n")
    print(f"wrote {GOLDEN}")
