"""``benchmarks/replay_game.py losses`` (issue 33: which banners a level gives away): a series game is
replayed from its seed and every unit a player lost is found, with how it stood."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import replay_game as banner_losses  # noqa: E402
from ai_strength import make  # noqa: E402

from kassen.rulesets.registry import load_game  # noqa: E402

GAME, SCENARIO, SEED = "cc-samurai", "first-samurai-skirmish", 3
PLAYERS = ["greedy", "greedy"]


@functools.cache
def _played() -> tuple[list[int], list[int]]:
    """The banners of the game the series would hold, and the units each seat lost in it (the
    scenario's units less those standing at the end)."""
    players = [make(label, SEED * 7919 + i) for i, label in enumerate(PLAYERS)]
    s = start = load_game(GAME).new_state(SCENARIO, SEED)
    while not s.is_terminal():
        seat = s.to_move()
        assert seat is not None
        s = s.apply(players[seat].choose(s, seat))
    lost = [sum(1 for u in start.units.values() if u.side == side) - sum(1 for u in s.units.values() if u.side == side)
            for side in (0, 1)]
    return list(s.banners), lost


def test_every_unit_lost_is_found_with_how_it_stood() -> None:
    banners, lost = _played()
    game = {"seed": SEED, "players": PLAYERS, "banners": banners}
    recs = banner_losses.losses(game, GAME, SCENARIO)
    assert len(recs) == sum(lost) > 0
    for r in recs:
        assert r["player"] == "greedy" and r["seed"] == SEED
        start = r["at_turn_start"]
        assert start is not None and 1 <= start["blocks"] <= 4 and 0.0 <= start["elimination"] <= 1.0
        if not r["in_own_turn"]:
            assert "moved_in_own_turn" in r
    counted = banner_losses.tally(recs)["greedy"]
    assert counted["units lost"] == sum(lost)
    assert counted["  in its own turn (an attack, a First Strike)"] + counted["  in the enemy's turn"] == sum(lost)


def test_a_game_that_replays_differently_is_refused() -> None:
    game = {"seed": SEED, "players": PLAYERS, "banners": [9, 9]}
    with pytest.raises(SystemExit, match="not the code"):
        banner_losses.losses(game, GAME, SCENARIO)


def test_a_weights_file_gone_is_read_from_benchmarks() -> None:
    label = "normal+weights=/no/such/dir/weights_cc_normal_e5b1536.json+dragon_hold=0.5"
    kept = Path(banner_losses.__file__).resolve().parent / "weights_cc_normal_e5b1536.json"
    assert banner_losses._here(label) == f"normal+weights={kept}+dragon_hold=0.5"
    assert banner_losses._here("normal+dragon_hold=0.5") == "normal+dragon_hold=0.5"
