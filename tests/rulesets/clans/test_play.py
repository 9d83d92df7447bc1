"""Playing in the terminal: the table view, and a person against two AI clans."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from kassen.ai.series import GameSpec, play_one
from kassen.cli.render_clans import render
from kassen.cli.tui import run_tui
from kassen.engine.record import GameRecord, replay
from kassen.rulesets.registry import available, load_game
from tests.rulesets.clans.helpers import GAME, H, K, position


def text_of(renderable) -> str:
    con = Console(file=io.StringIO(), width=200, color_system=None)
    con.print(renderable)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_clans_is_a_registered_game():
    assert "clans" in available()
    g = load_game("clans")
    assert g.id == "clans" and g.default_scenario() == "2-players"
    assert g.scenarios() == ["2-players", "3-players-beginners", "4-players-beginners",
                             "3-players-experienced", "4-players-experienced", "4-players-teams"]


def test_table_view_shows_stacks_counts_own_secret_cards_and_default_labels():
    """C24: default values are labelled wherever cards are shown."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-samurai", f"{K}-ashigaru"], [f"{H}-lord", f"{H}-scout"])},
                 phase="deploy", hands=[[f"{K}-brute"], [f"{H}-brute"]])
    mine = text_of(render(s.observation(0), 0))
    assert "Torii" in mine and "4 VP" in mine
    assert "1. Samurai  4 (default value)" in mine and "2. Ashigaru  2 (default value)" in mine
    assert "1. ▮ face down" in mine and "2. Scout  1 (default value)" in mine
    assert "Lord" not in mine
    assert "2 cards, face-up Strength 2" in mine and "2 cards, face-up Strength 1" in mine
    assert "Your hand: Brute (secret) Strength 5 (default value)" in mine
    theirs = text_of(render(s.observation(1), 1))
    assert "Samurai" not in theirs and "Lord  3 (default value)" in theirs
    spectator = text_of(render(s.observation(None), None))
    assert "Samurai" not in spectator and "Lord" not in spectator


def test_table_view_of_a_finished_game_shows_the_conquests_and_points():
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-brute"], [f"{H}-scout"])}).apply("resolve torii")
    out = text_of(render(s.observation(None), None))
    assert "conquered by Kamiwashi (5 against 1)" in out and "Victory Points: Kamiwashi 4, Hondo 0" in out


@pytest.fixture()
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.usefixtures("_in_tmp")
def test_a_person_plays_against_two_ai_clans_in_the_terminal():
    con = Console(file=io.StringIO(), width=160, color_system=None)
    typed = iter(["1"] * 400)
    prompts: list[str] = []

    def keyboard(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    run_tui("clans", "3-players-beginners", "human,greedy,random", 3, None, console=con, input_fn=keyboard)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Result:" in out
    assert "Kamiwashi: deploy a card (round 1 of 7, card 1 of 2)" in out
    assert "Victory Points:" in out
    assert len(prompts) >= 13  # at least his thirteen cards


def test_ai_series_plays_every_seat_count():
    for scenario, players in (("2-players", ("greedy", "random")),
                              ("4-players-teams", ("random", "greedy", "random", "random"))):
        r = play_one(GameSpec("clans", scenario, players, 5))
        assert r["reason"] != "unfinished"


def test_a_saved_game_replays_with_its_options(tmp_path):
    table = tmp_path / "t.toml"
    from kassen.rulesets.clans.data import DEFAULT_TABLE

    table.write_text(DEFAULT_TABLE.read_text(encoding="utf-8").replace("strength = 5", "strength = 6"), encoding="utf-8")
    s = GAME.new_state("2-players", 4, card_table=str(table), clans="jozu,yasei")
    acts = [s.legal_actions()[0]]
    s = s.apply(acts[0])
    rec = GameRecord("clans", GAME.rules_version, "2-players", 4, acts, {"card_table": str(table), "clans": "jozu,yasei"})
    again = replay(GAME, GameRecord.from_json(rec.to_json()))
    assert again.to_json() == s.to_json() and again.table.strength("brute") == 6


def test_kassen_battle_and_bench_play_clans_from_the_command_line():
    from typer.testing import CliRunner

    from kassen.cli.main import app

    runner = CliRunner()
    r = runner.invoke(app, ["battle", "clans", "3-players-experienced", "--players", "greedy,random,random",
                            "--games", "2", "--json"])
    assert r.exit_code == 0, r.output
    stats = json.loads(r.output)
    assert stats["games"] == 2 and stats["unfinished"] == 0
    assert set(stats["wins_by_seat"]) == {"Kamiwashi", "Hondo", "Yasei"}
    r = runner.invoke(app, ["bench", "clans", "4-players-teams", "--games", "5"])
    assert r.exit_code == 0, r.output
    assert "5 (0)" in r.output  # five games, none unfinished
