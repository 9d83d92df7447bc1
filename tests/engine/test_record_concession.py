"""A saved game keeps a concession (issue 30, item 4): the record says which seat gave the game
up after its last action, replays to the conceded end, and refuses a concession that cannot be."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kassen.engine.errors import FormatError
from kassen.engine.record import GameRecord, replay
from kassen.rulesets.registry import load_game


def record(conceded: int | None) -> GameRecord:
    g = load_game("cc-samurai")
    return GameRecord(g.id, g.rules_version, None, 3, [], {}, conceded)


def test_a_conceded_record_round_trips_and_an_unconceded_one_is_as_before() -> None:
    assert GameRecord.from_json(record(1).to_json()) == record(1)
    assert "conceded" not in record(None).to_json()  # files of games nobody gave up are unchanged


def test_replaying_a_conceded_record_ends_with_the_concession() -> None:
    state = replay(load_game("cc-samurai"), record(0))
    res = state.result()
    assert state.is_terminal() and res is not None
    assert res.winner == 1 and res.reason == "Red conceded"


@pytest.mark.parametrize("bad", ["1", -1, True, 2.0])
def test_a_malformed_concession_is_named(bad: object) -> None:
    data = record(None).to_json() | {"conceded": bad}
    with pytest.raises(FormatError, match="'conceded' must be a seat number"):
        GameRecord.from_json(data)


def test_a_concession_by_a_seat_the_game_lacks_is_refused() -> None:
    with pytest.raises(FormatError, match="concession by seat 5 cannot be: no seat 5"):
        replay(load_game("cc-samurai"), record(5))


def test_the_terminal_loads_a_conceded_save_as_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kassen.cli.tui import run_tui
    from tests.cli.test_tui import console, keyboard

    monkeypatch.chdir(tmp_path)
    save = tmp_path / "given-up.kassen.json"
    save.write_text(json.dumps(record(0).to_json()), encoding="utf-8")
    con = console()
    input_fn, _ = keyboard()
    run_tui("cc-samurai", None, "human,random", None, save, console=con, input_fn=input_fn)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Result: Blue wins (Red conceded)" in out
