"""Playable through the terminal front end, `kassen battle` and `kassen bench`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.cli.tui import run_tui

runner = CliRunner()


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_a_person_plays_against_the_ai_in_the_terminal(tmp_path: Path):
    lines = ["S1 move", "S1 stop", "end", "b", "s game.json", "q", "n"]
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        if not lines:
            raise EOFError
        return lines.pop(0)

    con = Console(file=io.StringIO(), width=170)
    run_tui("honourable-victory", "meeting-engagement", "human,greedy", 5, None, console=con, input_fn=input_fn)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "A Meeting Engagement" in out and "C0 reserve" in out
    assert "choose a unit and what it does" in out
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["ruleset"] == "honourable-victory" and saved["actions"][:3] == ["S1 move", "S1 stop", "end"]


def test_battle_and_bench_commands_play_it():
    r = runner.invoke(app, ["battle", "honourable-victory", "village-ambush", "--players", "greedy,random",
                            "--games", "2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[r.output.index("{"):])
    assert data["games"] == 2
    r = runner.invoke(app, ["bench", "honourable-victory", "--games", "3", "--json"])
    assert r.exit_code == 0, r.output


def test_scenarios_lists_the_battles():
    r = runner.invoke(app, ["scenarios", "honourable-victory", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    assert [x["id"] for x in rows] == ["meeting-engagement", "village-ambush"]
    assert rows[1]["sides"] == ["Oda (South)", "Imagawa (North)"]
