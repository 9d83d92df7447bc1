"""The terminal never loses a save, and hot-seat secrets do not survive in the scrollback (issue 18, items 2 and 3)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from kassen.cli.tui import DEFAULT_SAVE, run_tui
from kassen.engine.record import GameRecord


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def keyboard(*lines: str) -> Callable[[str], str]:
    todo = list(lines)

    def input_fn(prompt: str) -> str:
        if not todo:
            raise EOFError
        return todo.pop(0)

    return input_fn


def play(*lines: str, players: str = "human,random", seed: int = 1, game: str = "cc-samurai",
         load: Path | None = None, terminal: bool = False) -> str:
    # truecolor like the other tests: Rich caches a style's codes for the first colour system it meets
    con = Console(file=io.StringIO(), width=160, force_terminal=terminal, color_system="truecolor" if terminal else None)
    run_tui(game, None, players, seed, load, console=con, input_fn=keyboard(*lines))
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def a_long_save(path: Path, moves: int = 3) -> str:
    """A saved game of ``moves`` actions (another seed than the games played below)."""
    play(*["1"] * moves, seed=99)
    assert Path(DEFAULT_SAVE).exists()
    if path != Path(DEFAULT_SAVE):
        Path(DEFAULT_SAVE).rename(path)
    return path.read_text()


def actions_in(path: Path) -> int:
    return len(GameRecord.from_json(json.loads(path.read_text())).actions)


def test_end_of_input_with_no_move_never_replaces_a_save() -> None:
    """Repro: `kassen play < /dev/null` replaced a 159-action save with an empty game."""
    before = a_long_save(Path(DEFAULT_SAVE))
    out = play()  # input ends at once
    assert "nothing was played in this session, so nothing is saved" in out
    assert Path(DEFAULT_SAVE).read_text() == before


def test_end_of_input_never_overwrites_another_game_it_saves_beside_it() -> None:
    before = a_long_save(Path(DEFAULT_SAVE))
    out = play("1")  # one move in a new game, then the input ends
    flat = " ".join(out.split())
    assert "kassen-save.kassen.json holds another game (cc-samurai, first-samurai-skirmish, " in flat
    assert "actions): not overwriting it; saving to kassen-save-1.kassen.json instead" in flat
    assert Path(DEFAULT_SAVE).read_text() == before
    assert actions_in(Path("kassen-save-1.kassen.json")) == 1


def test_save_command_asks_before_overwriting_another_game_no_keeps_it() -> None:
    before = a_long_save(Path(DEFAULT_SAVE))
    out = play("1", "s", "n", "q", "n")
    assert "Overwrite it" not in out  # the question is asked through the prompt, not printed
    assert Path(DEFAULT_SAVE).read_text() == before
    assert actions_in(Path("kassen-save-1.kassen.json")) == 1


def test_save_command_overwrites_another_game_on_yes_and_keeps_a_backup() -> None:
    before = a_long_save(Path(DEFAULT_SAVE))
    play("1", "s", "y", "q", "n")
    assert actions_in(Path(DEFAULT_SAVE)) == 1
    assert Path(DEFAULT_SAVE + ".bak").read_text() == before


def test_saving_the_same_game_again_keeps_the_previous_save_as_a_backup() -> None:
    a_long_save(Path(DEFAULT_SAVE))
    before = Path(DEFAULT_SAVE).read_text()
    play("1", "s", "q", "n", load=Path(DEFAULT_SAVE))  # resumed, one more move, saved over itself
    assert actions_in(Path(DEFAULT_SAVE)) > 3 and Path(DEFAULT_SAVE + ".bak").read_text() == before
    assert not Path("kassen-save-1.kassen.json").exists()


def test_hot_seat_pass_screen_clears_the_scrollback_too() -> None:
    """Repro: the pass screen cleared the visible screen, but scrolling up showed the previous
    clan's hand and face-down deploy. On a terminal it now also erases the scrollback (ESC[3J)
    before the next clan is named."""
    out = play("1", "1", "", players="human,human", seed=4, game="clans", terminal=True)
    head, sep, _ = out.partition("Pass the keyboard to")
    assert sep and "\x1b[H\x1b[2J\x1b[3J" in head[-300:]
    cleared = out.rfind("\x1b[3J", 0, out.find("Pass the keyboard to"))
    kamiwashi_secrets = out[:cleared]
    assert "Kamiwashi" in kamiwashi_secrets  # what the erase takes away: Kamiwashi's screen
    assert "Kamiwashi Archer" not in out[cleared:] and "Kamiwashi Lord" not in out[cleared:]


def test_line_editing_completes_legal_actions_and_forgets_history_when_the_keyboard_passes() -> None:
    """Item 8: arrow keys arrived as "illegal action '\\x1b[A'": the prompt now has readline's
    history, editing and Tab completion of the legal actions; in hot-seat the history is wiped
    at every pass screen, so the next player cannot scroll back to a face-down deploy."""
    from kassen.cli.lineedit import LineEditor, load_readline

    class FakeReadline:
        def __init__(self) -> None:
            self.cleared = 0
            self.completer: object = None

        def set_completer_delims(self, d: str) -> None:
            assert d == ""

        def set_completer(self, fn: object) -> None:
            self.completer = fn

        def parse_and_bind(self, s: str) -> None:
            assert "complete" in s

        def clear_history(self) -> None:
            self.cleared += 1

    rl = FakeReadline()
    seen: list[list[str]] = []
    editor = LineEditor(lambda: seen[-1] if seen else [], rl)
    con = Console(file=io.StringIO(), width=160)
    run_tui("clans", None, "human,human", 4, None, console=con, input_fn=keyboard("1", "1", ""),
            line_editor=editor)
    assert rl.completer == editor.complete
    assert rl.cleared >= 1  # the pass screen to Hondo wiped Kamiwashi's typing
    seen.append(["deploy scout village", "deploy-down scout village", "pass"])
    assert editor.complete("deploy-", 0) == "deploy-down scout village" and editor.complete("deploy-", 1) is None
    assert editor.complete("sa", 0) == "save"
    assert load_readline() is not None  # this Python has readline: input() gets history and editing
