"""The terminal shows the other side's turn step by step (issue 30, item 6): each step of an AI
turn is one line, an attack or other roll with its dice, all before the board is drawn again."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from kassen.cli.tui import run_tui

BOARD = re.compile(r"^\s+Red left \| Blue right", re.M)  # the board's first line (Red at the bottom)


def test_an_ai_turn_is_told_one_line_a_step_with_its_dice_before_the_board(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the end of input saves the game here
    con = Console(file=io.StringIO(), width=400)  # wide enough that no step wraps
    typed = iter(["1"] * 30)

    def input_fn(prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    # seed 1: Blue (random) plays Advance Right, then Turncoat, whose dice both sides roll
    run_tui("cc-samurai", None, "human,random", 1, None, console=con, input_fn=input_fn)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    start = out.index("Turn 2: Blue to play")
    board = BOARD.search(out, start)
    assert board is not None
    steps = out[start:board.start()].splitlines()[1:]
    told = [ln for ln in steps if ln.strip()]
    # the wait is told under the turn's header, after what the person did and before Blue's steps
    assert told.pop(0) == "Blue (random) is thinking…"
    assert len(told) >= 4 and all(ln.startswith("  • ") for ln in told), told  # one line a step, no wrapping
    assert told[0].startswith("  • Blue plays Advance Right")
    assert "  • Turncoat: Red rolls 5 dice: crossed swords, flag, blue triangle, crossed swords, Honor & Fortune" in told
    assert "  • Turncoat: Blue rolls 3 dice: blue triangle, flag, flag" in told
    # the board of Red's view comes after the last of Blue's steps, never between them
    assert not BOARD.search(out, start, board.start())
