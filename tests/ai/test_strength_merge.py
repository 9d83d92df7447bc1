"""``benchmarks/ai_strength.py --merge``: a strength series split by seed across processes and
sessions is counted as one (issue 14: "benchmarks/ai_strength.py merges partial results")."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import ai_strength  # noqa: E402

PAIR = ["hard", "mcts@1600it"]


def _game(seed: int, winner: int) -> dict[str, Any]:
    players = PAIR if seed % 2 == 0 else PAIR[::-1]  # seats alternate: odd seeds swap
    return {"seed": seed, "players": players, "winner_seat": winner, "winner_seats": [winner], "reason": "banners",
            "actions": 100, "turns": 20, "banners": [5, 3] if winner == 0 else [3, 5], "seconds": 10.0,
            "decisions_by_seat": [50, 50], "searched_by_seat": [40, 40], "think_seconds_by_seat": [4.0, 5.0],
            "think_cpu_by_seat": [4.0, 5.0]}


def _file(tmp: Path, name: str, games: list[dict[str, Any]]) -> str:
    path = tmp / name
    pairing = {"pairing": " vs ".join(PAIR), "player": PAIR[0], "opponent": PAIR[1], "results": games}
    path.write_text(json.dumps({"args": {"game": "cc-samurai"}, "pairings": [pairing]}))
    return str(path)


def test_merge_counts_each_seed_once_across_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # hard wins seeds 0 (as Red), 1 (as Blue), 2 (as Red); mcts wins seed 3; seed 2 is in both files
    a = _file(tmp_path, "a.json", [_game(0, 0), _game(1, 1), _game(2, 0)])
    b = _file(tmp_path, "b.json", [_game(2, 0), _game(3, 0)])
    out = tmp_path / "merged.json"
    assert ai_strength.merge([a, b], str(out), check=False) == 0
    merged = json.loads(out.read_text())["pairings"][0]
    assert [r["seed"] for r in merged["results"]] == [0, 1, 2, 3]
    assert (merged["games"], merged["wins"]) == (4, 3)
    assert merged["target"] == 0.75 and merged["met"] and not merged["met_with_confidence"]
    assert "4 games merged from 2 file(s), seeds 0–3" in capsys.readouterr().out


def test_merge_refuses_a_seed_with_two_results(tmp_path: Path) -> None:
    a = _file(tmp_path, "a.json", [_game(0, 0)])
    b = _file(tmp_path, "b.json", [_game(0, 1)])
    with pytest.raises(SystemExit, match="seed 0 .* another result"):
        ai_strength.merge([a, b], None, check=False)


def test_a_series_file_merges_as_its_part_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32: the parts of a series live in one file (``benchmarks/series.py pack``), which
    ``--merge`` counts as it counts the part files, logs and load kept beside the games."""
    import series

    a = _file(tmp_path, "results-x-seeds0.json", [_game(0, 0), _game(1, 1)])
    b = _file(tmp_path, "results-x-seeds2.json", [_game(2, 0), _game(3, 0)])
    (tmp_path / "results-x-seeds0.log").write_text("== hard vs mcts@1600it\n  game 1/2 seed 0 hard vs mcts: hard\n"
                                                   "  hard won 2/2\n")
    (tmp_path / "results-x-seeds0.uptime").write_text(" 01:00:00 up 1:00,  load average: 1.00, 1.00, 1.00\n")
    packed = tmp_path / "results" / "x.jsonl"
    assert series.pack(str(packed), [a, b, str(tmp_path / "results-x-seeds0.log"),
                                     str(tmp_path / "results-x-seeds0.uptime")], "two parts") == 0
    parts = [json.loads(line) for line in packed.read_text().splitlines() if '"type":"part"' in line]
    assert [p["part"] for p in parts] == ["seeds0", "seeds2"]
    assert parts[0]["log"] == ["== hard vs mcts@1600it", "  hard won 2/2"]  # the game's line is in the JSON
    assert parts[0]["uptime"] == ["01:00:00 up 1:00,  load average: 1.00, 1.00, 1.00"]
    assert [doc for _, doc in series.docs(str(packed))] == [json.loads(Path(p).read_text()) for p in (a, b)]
    capsys.readouterr()
    from_parts, from_series = tmp_path / "p.json", tmp_path / "s.json"
    assert ai_strength.merge([a, b], str(from_parts), check=False) == 0
    assert ai_strength.merge([str(packed)], str(from_series), check=False) == 0
    assert json.loads(from_parts.read_text())["pairings"] == json.loads(from_series.read_text())["pairings"]
    assert "4 games merged" in capsys.readouterr().out


def test_a_series_continued_later_is_packed_from_its_file_and_the_new_parts(tmp_path: Path) -> None:
    """Issue 33: the first parts' files are gone once packed; the packed file stands for them."""
    import series

    a = _file(tmp_path, "results-x-seeds0.json", [_game(0, 0), _game(1, 1)])
    b = _file(tmp_path, "results-x-seeds2.json", [_game(2, 0), _game(3, 0)])
    (tmp_path / "results-x-seeds2.uptime").write_text("02:00:00 up 2:00,  load average: 3.00, 2.00, 1.00\n")
    first = tmp_path / "first" / "x.jsonl"
    assert series.pack(str(first), [a], "one part") == 0
    again = tmp_path / "results" / "x.jsonl"
    assert series.pack(str(again), [str(first), b, str(tmp_path / "results-x-seeds2.uptime")], "two parts") == 0
    assert [doc for _, doc in series.docs(str(again))] == [json.loads(Path(p).read_text()) for p in (a, b)]
    parts = [json.loads(line) for line in again.read_text().splitlines() if '"type":"part"' in line]
    assert [p["part"] for p in parts] == ["seeds0", "seeds2"]
    assert parts[1]["uptime"] == ["02:00:00 up 2:00,  load average: 3.00, 2.00, 1.00"]
    # a part met twice is refused, and nothing is written
    with pytest.raises(SystemExit, match="part 'seeds0' is already in this pack"):
        series.pack(str(tmp_path / "twice.jsonl"), [str(first), str(again)], "twice")
    assert not (tmp_path / "twice.jsonl").exists()


def test_merge_counts_every_pairing_and_reads_merged_files_that_name_no_game(tmp_path: Path) -> None:
    """Issue 33's series file: two pairings in merged parts written before merged files named
    their game. The second pairing was counted as 0 games (the first one's seeds filtered it)."""
    other = {"pairing": "normal vs greedy", "player": "normal", "opponent": "greedy",
             "results": [dict(_game(s, 0), players=["normal", "greedy"] if s % 2 == 0 else ["greedy", "normal"])
                         for s in (40, 41, 42)]}
    doc = json.loads(Path(_file(tmp_path, "a.json", [_game(0, 0), _game(1, 1)])).read_text())
    doc["args"] = {"merge": ["old-part.json"]}  # a merged file: no "game"
    doc["pairings"].append(other)
    (tmp_path / "m.json").write_text(json.dumps(doc))
    out = tmp_path / "out.json"
    assert ai_strength.merge([str(tmp_path / "m.json")], str(out), check=False) == 0
    merged = json.loads(out.read_text())
    assert [(p["pairing"], p["games"], p["wins"]) for p in merged["pairings"]] == [
        ("hard vs mcts@1600it", 2, 2), ("normal vs greedy", 3, 2)]
    assert merged["args"]["game"] == "cc-samurai"  # now named, for the next merge
    # a range of seeds asked for holds for every pairing
    assert ai_strength.merge([str(tmp_path / "m.json")], str(out), check=False, seeds=(1, 41)) == 0
    assert [p["games"] for p in json.loads(out.read_text())["pairings"]] == [1, 2]
    # a pairing with no game in the range is left out (a series file holds many pairings)
    assert ai_strength.merge([str(tmp_path / "m.json")], str(out), check=False, seeds=(40, 42)) == 0
    assert [(p["pairing"], p["games"]) for p in json.loads(out.read_text())["pairings"]] == [("normal vs greedy", 3)]
    with pytest.raises(SystemExit, match="no game of .*m.json has a seed in 100-199"):
        ai_strength.merge([str(tmp_path / "m.json")], str(out), check=False, seeds=(100, 199))


def test_a_label_changes_one_planning_weight_of_a_level() -> None:
    import strength

    from kassen.ai.evaluate import WEIGHTS_FILE, load_weights

    shipped = load_weights(WEIGHTS_FILE.with_name("weights_cc_hard.json"))
    player = strength.make("hard+w.contact_reach=0.3", 0)
    assert player.w == {**shipped, "contact_reach": 0.3}  # type: ignore[attr-defined]
    assert player.judge is player.w  # type: ignore[attr-defined]  (hard judges with its planning weights)
    normal = strength.make("normal+w.vulnerable=1.5", 0)
    assert normal.w["vulnerable"] == 1.5  # type: ignore[attr-defined]
    assert normal.judge == load_weights(WEIGHTS_FILE.with_name("weights_cc_normal_judge.json"))  # type: ignore[attr-defined]
