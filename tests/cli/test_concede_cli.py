"""``concede`` at the terminal (issue 30, item 4): asked first, then the other side wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.cli.tui import DEFAULT_SAVE
from tests.cli.test_tui import console, keyboard


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def run(game: str, scenario: str | None, players: str, *lines: str) -> tuple[str, list[str]]:
    from kassen.cli.tui import run_tui

    con = console()
    input_fn, prompts = keyboard(*lines)
    run_tui(game, scenario, players, 4, None, console=con, input_fn=input_fn)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out, prompts


def test_concede_asks_first_and_a_no_changes_nothing() -> None:
    out, prompts = run("cc-samurai", None, "human,random", "concede", "n", "q", "n")
    assert any(p.startswith("Concede the game? Blue wins.") for p in prompts)
    assert "Not conceded: the game goes on." in out and "Result:" not in out


def test_concede_ends_the_game_the_other_side_winning() -> None:
    out, _ = run("cc-samurai", None, "human,random", "concede", "y")
    assert "Red conceded" in out and "Result: Blue wins (Red conceded)" in out and "Defeat." in out
    assert not Path(DEFAULT_SAVE).exists()


def test_hot_seat_clans_of_three_concede_ruling_c26() -> None:
    """C26: in a clan game of three without teams the game ends, shared by the other two."""
    out, prompts = run("clans", "3-players-beginners", "human,human,human", "", "concede", "y")
    assert any("Concede the game? the game ends, shared by" in p for p in prompts)
    assert "Result: a draw (" in out and "conceded: the game ends, shared by" in out


def test_honourable_victory_keeps_its_rules_concession() -> None:
    """H23: where the rules offer ``concede`` it is the rules' action (recorded in the game)."""
    from kassen.engine.protocol import CHANCE
    from kassen.rulesets.registry import load_game

    game = load_game("honourable-victory")
    s = game.new_state(game.default_scenario(), 4)
    while "concede" not in s.legal_actions():
        s = s.apply(s.chance_outcomes()[0][0] if s.to_move() == CHANCE else s.legal_actions()[0])
    after = s.apply("concede")
    res = after.result()
    assert res is not None and "concedes defeat" in res.reason
