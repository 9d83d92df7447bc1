"""The terminal front end, driven with a scripted keyboard and a string console."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from kassen.ai.players import RandomPlayer, make_player
from kassen.cli.render import render_board
from kassen.cli.tui import DEFAULT_SAVE, run_tui
from kassen.engine.errors import KassenError
from kassen.engine.record import GameRecord, replay
from kassen.rulesets.cc_samurai.game import CCSamuraiGame
from kassen.rulesets.registry import load_game


def _game() -> CCSamuraiGame:
    game = load_game("cc-samurai")
    assert isinstance(game, CCSamuraiGame)
    return game


GAME = _game()


def console() -> Console:
    return Console(file=io.StringIO(), width=160)


def keyboard(*lines: str) -> tuple[Callable[[str], str], list[str]]:
    """An ``input_fn`` typing ``lines`` in order, then EOF; and the prompts it was shown."""
    todo = list(lines)
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        if not todo:
            raise EOFError
        return todo.pop(0)

    return input_fn, prompts


def play(players: str, seed: int, *lines: str, scenario: str | None = None, load: Path | None = None) -> str:
    con = console()
    input_fn, _ = keyboard(*lines)
    run_tui("cc-samurai", scenario, players, seed, load, console=con, input_fn=input_fn)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def saved(path: Path) -> GameRecord:
    return GameRecord.from_json(json.loads(path.read_text()))


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


# (a) ------------------------------------------------------------------------
def test_random_against_random_plays_to_the_end() -> None:
    t0 = time.perf_counter()
    out = play("random,random", 1)
    assert time.perf_counter() - t0 < 20
    assert re.search(r"Result: (Red|Blue) wins", out)
    assert "Turn 2: Blue to play" in out
    assert "rolls" in out  # dice are narrated
    assert not Path(DEFAULT_SAVE).exists()  # watching asks nothing and saves nothing


# (b) ------------------------------------------------------------------------
def test_illegal_input_is_asked_again_with_the_reason(tmp_path: Path) -> None:
    out = play("human,random", 1, "zzz", "999", "0", "s", "q", "n")
    assert "illegal action 'zzz'" in out
    assert "Red must now play a Command card" in out
    assert "There is no action 999" in out
    assert "There is no action 0" in out
    rec = saved(tmp_path / DEFAULT_SAVE)
    assert rec.actions == []  # nothing changed
    assert replay(GAME, rec).to_json() == GAME.new_state(None, 1).to_json()


def test_actions_by_number_or_text() -> None:
    s = GAME.new_state(None, 4)
    first, other = s.legal_actions()[0], s.legal_actions()[-1]
    out = play("human,random", 4, other.upper(), "s", "q", "n")
    assert saved(Path(DEFAULT_SAVE)).actions[0] == other
    assert "Red plays" in out
    play("human,random", 4, "1", "save one.json", "q", "n")
    assert saved(Path("one.json")).actions[0] == first


# (c) ------------------------------------------------------------------------
def test_save_then_load_reproduces_the_state(tmp_path: Path) -> None:
    seed = 5
    out = play("human,random", seed, "1", "1", "1", "save game.json", "q", "n")
    assert "Saved the game to" in out and "game.json" in out
    rec = saved(tmp_path / "game.json")
    # the record holds the person's three choices (menu item 1 each time) and the computer's
    state = GAME.new_state(rec.scenario, seed)
    mine = 0
    for action in rec.actions:
        if state.to_move() == 0 and state.legal_actions() != ["pass"]:  # a lone "pass" is answered by the TUI
            assert action == state.legal_actions()[0]
            mine += 1
        state = state.apply(action)
    assert mine == 3 and state.to_move() == 0
    assert replay(GAME, rec).to_json() == state.to_json()
    asked = [ln for ln in out.split("Saved the game to")[0].splitlines() if ln.startswith("Red: ")]
    assert asked[-1] == state.prompt()  # the state we played is the state saved

    out2 = play("human,random", 0, "s again.json", "q", "n", load=tmp_path / "game.json")
    assert "Resumed" in out2
    rec2 = saved(tmp_path / "again.json")
    assert rec2 == rec
    assert replay(GAME, rec2).to_json() == state.to_json()
    assert state.prompt() in out2  # the loaded game asks the same question


def test_load_of_a_bad_file_is_a_kassen_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(KassenError, match="not a saved game"):
        play("human,random", 1, load=bad)
    with pytest.raises(KassenError, match="cannot read"):
        play("human,random", 1, load=tmp_path / "missing.json")


def test_end_of_input_saves_to_the_default_file(tmp_path: Path) -> None:
    out = play("human,random", 1, "1")
    assert "Input ended: saving the game to kassen-save.kassen.json" in out
    assert len(saved(tmp_path / DEFAULT_SAVE).actions) == 1


def test_quit_offers_to_save() -> None:
    input_fn, prompts = keyboard("q", "")
    run_tui("cc-samurai", None, "human,random", 1, None, console=console(), input_fn=input_fn)
    assert prompts[-1].startswith("Save the game before quitting?")
    assert Path(DEFAULT_SAVE).exists()
    Path(DEFAULT_SAVE).unlink()
    play("human,random", 1, "q", "n")
    assert not Path(DEFAULT_SAVE).exists()
    play("human,random", 1, "quit", "mine.json")
    assert Path("mine.json").exists()


# undo -----------------------------------------------------------------------
POSITION = """
[scenario]
id = "undo-test"
name = "Undo test"
first = "red"
bottom = "red"
victory_banners = 5

[red]
command = 5
dragon = 0
honor = 5
pieces = [{ at = "F3", unit = "ASp" }, { at = "R3", unit = "ASp" }]

[blue]
command = 5
dragon = 0
honor = 5
pieces = [{ at = "G4", unit = "ASp" }, { at = "T9", unit = "ASp" }]

[position.red]
hand = ["order-one-left", "order-two-left", "order-three-left", "order-two-center", "advance-center"]
"""


def test_undo_goes_back_one_decision_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "undo.toml"
    path.write_text(POSITION)
    out = play("human,random", 3, "play order-two-left", "order F3", "u", "u", "u", "s", "q", "n",
               scenario=str(path))
    assert "Undone: order F3" in out
    assert "Undone: play order-two-left" in out
    assert "Nothing to undo" in out
    assert saved(tmp_path / DEFAULT_SAVE).actions == []


def test_undo_never_goes_back_past_a_die_roll(tmp_path: Path) -> None:
    path = tmp_path / "undo.toml"
    path.write_text(POSITION)
    out = play("human,random", 3, "play order-one-left", "order F3", "end-move", "attack F3 G4", "u", "s", "q", "n",
               scenario=str(path))
    assert "rolls" in out
    # the dice were rolled when Blue declined First Strike (R30), right after the attack
    assert "dice were rolled" in out and "Undone:" not in out
    assert "attack F3 G4" in saved(tmp_path / DEFAULT_SAVE).actions


# (d) ------------------------------------------------------------------------
@pytest.mark.parametrize("width", [160, 104, 100, 80])
def test_render_board_shows_letters_rows_and_units(width: int) -> None:
    obs = GAME.new_state(None, 1).observation(0)
    con = Console(file=io.StringIO(), width=width)
    con.print(render_board(obs))
    text = con.file.getvalue()  # type: ignore[attr-defined]
    lines = text.splitlines()
    assert all(len(ln) <= width for ln in lines)
    letters = next(ln for ln in lines if ln.strip().startswith("A "))
    assert letters.split() == [chr(ord("A") + i) for i in range(25)]
    rows = [ln for ln in lines if re.match(r"^\s?\d{1,2}\s", ln)]
    assert [int(r.split()[0]) for r in rows] == list(range(11, 0, -1))
    assert all(int(r.split()[-1]) == int(r.split()[0]) for r in rows)  # numbers at both sides
    for code in ("AB4", "ASp4", "AA4", "SSp4*", "SSpC4", "L^"):
        assert code in text
    # a unit stands under its column letter: F3 (x = 5) is centred under "F"
    row3 = next(r for r in rows if r.split()[0] == "3")
    col = letters.index("F")
    assert "AB4" in row3[col - 2: col + 3]


def test_render_board_terrain_highlight_and_colour() -> None:
    obs = GAME.new_state(None, 1).observation(None)
    view = render_board(obs, {"F3"})
    plain = view.plain
    assert "F " in plain and "H " in plain  # forest and hill marks
    assert "Terrain:" in plain and "forest" in plain and "hill" in plain
    con = Console(file=io.StringIO(), width=160, force_terminal=True, color_system="truecolor")
    con.print(view)
    ansi = con.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[1;7;38;2;255;95;95mAB4" in ansi  # F3: red, bold, reversed
    assert "38;2;111;168;255mab4" in ansi  # blue units: blue, and in lower case (issue 18, item 4)


# (e) ------------------------------------------------------------------------
def test_a_person_never_sees_the_other_hand(tmp_path: Path) -> None:
    out = play("human,random", 7, *(["1"] * 60), "s", "q", "n")
    rec = saved(tmp_path / DEFAULT_SAVE)
    assert len(rec.actions) > 60  # the computer played turns too
    state = GAME.new_state(None, 7)
    hidden = set(state.hands[1]) | set(state.dragons[1])
    for a in rec.actions:
        state = state.apply(a)
        hidden |= set(state.hands[1]) | set(state.dragons[1])
    assert hidden
    for card in hidden:
        assert card not in out, card
    assert "Your Command cards" in out
    assert "Blue draws a Command card" in out  # the redacted narration
    assert "Your Dragon cards" in out  # one's own Dragon cards: name, cost, when to play, whom and what
    for d in GAME.new_state(None, 7).observation(0)["dragons"]:
        assert f"{d['name']} (cost {d['cost']}; when: {d['window']}): {d['target']}: " in out, d


def test_hot_seat_passes_the_keyboard() -> None:
    s = GAME.new_state(None, 2)
    blue_hand = GAME.new_state(None, 2).observation(1)["hand"]
    red_turn = []
    recorded = []
    while s.active == 0 and not s.is_terminal():
        if s.legal_actions() == ["pass"]:  # Blue's First Strike question: answered by the front end
            recorded.append("pass")
            s = s.apply("pass")
            continue
        red_turn.append(s.legal_actions()[-1])
        recorded.append(red_turn[-1])
        s = s.apply(red_turn[-1])
    out = play("human,human", 2, *red_turn, "", "s", "q", "n")
    assert "Pass the keyboard to Blue" in out
    head, _, tail = out.partition("Pass the keyboard to Blue")
    assert "Red draws a Command card" in tail  # Blue is told what Red did, redacted
    assert " ".join(blue_hand[0]["text"].split()) in " ".join(tail.split())  # card texts wrap
    assert "you are Blue" in tail and "you are Red" not in tail
    assert saved(Path(DEFAULT_SAVE)).actions == recorded


# players --------------------------------------------------------------------
def test_players_are_checked() -> None:
    with pytest.raises(KassenError, match="known players: human, random, greedy, mcts"):
        make_player("alphazero", 1)
    with pytest.raises(KassenError, match="one player per seat"):
        play("human", 1)
    with pytest.raises(KassenError, match="unknown player 'robot'"):
        play("human,robot", 1)


def test_random_player_picks_legal_actions_reproducibly() -> None:
    s = GAME.new_state(None, 3)
    a, b = RandomPlayer(9), RandomPlayer(9)
    for _ in range(30):
        seat = s.to_move()
        assert seat is not None
        x = a.choose(s, seat)
        assert x == b.choose(s, seat) and x in s.legal_actions()
        s = s.apply(x)


def test_players_two_names_fill_every_seat_of_a_larger_game() -> None:
    # ``human,greedy`` against a three-seat game: you against two greedy players
    from kassen.ai.search import GreedyPlayer
    from kassen.cli.tui import parse_players

    seats = parse_players(("Kamiwashi", "Hondo", "Yasei"), "human,greedy", 1)
    assert seats[0] is None and all(isinstance(p, GreedyPlayer) for p in seats[1:])
    assert seats[1] is not seats[2]  # each seat its own player
    with pytest.raises(KassenError, match=r"one player per seat \(3: Kamiwashi, Hondo, Yasei\)"):
        parse_players(("Kamiwashi", "Hondo", "Yasei"), "human,random,random,random", 1)


def test_zvezda_edition_plays_in_the_terminal() -> None:
    con = console()
    input_fn, _ = keyboard()
    run_tui("cc-samurai-zvezda", None, "random,random", 5, None, console=con, input_fn=input_fn)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "First Samurai Skirmish (Zvezda)" in out
    assert re.search(r"(Red|Blue) wins", out)


def test_game_options_reach_the_game_and_the_save(tmp_path: Path) -> None:
    # the clan card game loads another card table: a Brute of Strength 9
    table = Path("src/kassen/rulesets/clans/data/default.toml")
    root = Path(__file__).resolve().parents[2]
    text = (root / table).read_text(encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace("[cards.brute]\nstrength = 5", "[cards.brute]\nstrength = 9"), encoding="utf-8")
    con = console()
    input_fn, _ = keyboard("s game.json", "q", "n")
    run_tui("clans", None, "human,random", 2, None, console=con, input_fn=input_fn,
            options={"card_table": str(mine)})
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Brute (secret) Strength 9" in " ".join(out.split())
    assert saved(tmp_path / "game.json").options == {"card_table": str(mine)}


def test_cli_option_values_read_as_json_when_they_can() -> None:
    from kassen.cli.main import parse_options

    assert parse_options(["width=7", "clans=hondo,jozu", "flag=true"]) == {
        "width": 7, "clans": "hondo,jozu", "flag": True}


def test_clans_hot_seat_passes_the_keyboard_before_each_clan_sees_its_cards() -> None:
    # issue 9: hot-seat on one screen hides the passing player's secrets behind a "pass" screen
    con = console()
    input_fn, prompts = keyboard("1", "1", "")
    run_tui("clans", None, "human,human", 4, None, console=con, input_fn=input_fn)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    flat = " ".join(out.split())
    assert "Pass the keyboard to Hondo" in flat
    # the screen Hondo is shown after the pass screen names none of Kamiwashi's face-down cards
    hondo_screen = flat.split("Pass the keyboard to Hondo", 1)[1]
    assert "Kamiwashi deploys" in hondo_screen
    assert "Kamiwashi Archer" not in hondo_screen and "Kamiwashi Lord" not in hondo_screen
    assert any("press Enter" in p for p in prompts)


def test_sides_are_told_apart_without_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, item 4: under NO_COLOR a Red and a Blue ASp3 looked the same. Blue's pieces
    are now in lower case, and the legend says so."""
    monkeypatch.setenv("NO_COLOR", "1")
    obs = GAME.new_state(None, 1).observation(0)
    con = Console(file=io.StringIO(), width=160)
    con.print(render_board(obs))
    text = con.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" not in text
    red = [u for u in obs["board"]["units"] if u["side"] == "red"]
    blue = [u for u in obs["board"]["units"] if u["side"] == "blue"]
    assert red and blue
    for u in red:
        assert f"{u['type']}{u['blocks']}" in text
    for u in blue:
        assert f"{u['type']}{u['blocks']}".lower() in text
    assert "blue in lower case" in " ".join(text.split())


def test_within_ones_turn_what_changed_is_said_and_the_board_not_redrawn() -> None:
    """Issue 18, item 10: at 80x24 the board was drawn again after every action, scrolling the
    news away. Within one's own turn a move is reported in one line; ``b`` draws the board."""
    con = Console(file=io.StringIO(), width=80, height=24)
    marks: list[int] = []
    lines = ["play order-three-center", "pass", "order J3", "order L3", "order M2", "move J3 H5", "b"]

    def input_fn(prompt: str) -> str:
        marks.append(len(con.file.getvalue()))  # type: ignore[attr-defined]
        if not lines:
            raise EOFError
        return lines.pop(0)

    run_tui("cc-samurai", None, "human,random", 3, None, console=con, input_fn=input_fn)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    letters = re.compile(r"^\s*A\s+B\s+C\s+D", re.M)  # the board's column letters
    after_move = out[marks[5]:marks[6]]
    assert "Changed: ASp J3→H5" in after_move
    assert not letters.search(after_move)
    assert len(after_move.splitlines()) <= 24  # the whole answer fits one 80x24 screen
    assert letters.search(out[marks[6]:])  # b: the board, in full


def test_explain_shows_a_computer_turn_s_plan_after_the_turn_and_thinking_is_said() -> None:
    """Issue 14, item 5: ``--explain`` shows, after an AI turn, the plan it chose and its
    estimate; item 3: the terminal says the AI is thinking (and for how long at timed levels)."""
    con = Console(file=io.StringIO(), width=200)
    run_tui("cc-samurai", None, "easy,random", 3, None, console=con, input_fn=lambda p: "", explain=True)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    lines = [ln for ln in out.splitlines() if "explains its turn" in ln]
    assert lines and all(ln.startswith("Red explains its turn: easy: plan play ") for ln in lines)
    flat = " ".join(out.split())
    assert re.search(r"Estimate [+-]\d+\.\d \(one block of Ashigaru spearmen = 1\.0; from the position after the planned "
                     r"turn, [+-]\d+\.\d over the next best of \d cards\)", flat)
    # the plan is told after the turn, never before: the first one follows Blue's first turn rule
    first_turn_of_blue = out.index("Blue")
    assert out.index(lines[0]) > first_turn_of_blue
    con2 = Console(file=io.StringIO(), width=200)
    input_fn, _ = keyboard("play order-three-center", "pass", "order J3", "order L3", "order M2", "end-move",
                           "end-battle")
    run_tui("cc-samurai", None, "human,normal", 3, None, console=con2, input_fn=input_fn)
    assert "Blue (normal) is thinking (up to 2 s a turn)…" in con2.file.getvalue()  # type: ignore[attr-defined]
