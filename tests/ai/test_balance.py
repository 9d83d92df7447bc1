"""Balance reports (kassen.ai.balance, ``kassen balance``) and series on Ray (``--ray``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.ai.balance import GAMES_FORMAT, play_analysed, run_balance, scenario_report
from kassen.ai.players import PLAYERS, RandomPlayer
from kassen.ai.series import GameSpec, play_one, wilson
from kassen.cli.main import app

SRC = str(Path(__file__).resolve().parents[2] / "src")
FAST = "okehazama-1560"  # the shortest battle of cc-samurai


@pytest.mark.parametrize(("wins", "n", "lo", "hi"), [
    # by hand: p = w/n, z = 1.96, d = 1 + z²/n, centre = (p + z²/2n)/d, half = z·sqrt(p(1-p)/n + z²/4n²)/d
    (0, 4, 0.0, 0.48990),     # d = 1.9604, centre = half = 0.48020/1.9604 = 0.24495
    (7, 10, 0.39677, 0.89221),  # d = 1.38416, centre = 0.64449, half = 0.24772
    (5, 10, 0.23659, 0.76341),  # d = 1.38416, centre = 0.5, half = 0.36460/1.38416 = 0.26341
    (20, 20, 0.83887, 1.0),    # d = 1.19208, centre = 0.91943, half = 0.08057
])
def test_wilson_interval_matches_hand_computed_values(wins, n, lo, hi):
    got = wilson(wins, n)
    assert got[0] == pytest.approx(lo, abs=5e-5)
    assert got[1] == pytest.approx(hi, abs=5e-5)


def test_wilson_of_no_games_is_the_whole_range():
    assert wilson(0, 0) == (0.0, 1.0)


def test_analysed_game_is_the_same_game_as_play_one():
    spec = GameSpec("cc-samurai", FAST, ("random", "random"), 3)
    a = play_analysed(spec)
    b = play_one(spec)
    assert {k: a[k] for k in b} == b
    assert a["first_seat"] in (0, 1)
    won = sum(x["amount"] for x in a["banner_log"] if x["side"] == a["winner_seat"])
    assert won == a["banners"][a["winner_seat"]]  # every banner of the winner is in the log
    assert a["decisive"]["side"] == a["winner_seat"]
    assert a["decisive"]["cause"]  # e.g. "Ashigaru Infantry Spearmen eliminated"


@pytest.fixture
def two_names(monkeypatch):
    """A second random player under another name, so that seats swapped can be seen."""
    monkeypatch.setitem(PLAYERS, "random2", RandomPlayer)
    return ["random", "random2"]


def test_report_shape_sides_swapped_and_determinism(two_names):
    reports = run_balance("cc-samurai", [FAST], two_names, games=4, seed=11)
    rep = reports[FAST]
    assert rep["games"] == 4 and rep["name"] == "Okehazama"
    assert rep["sides"] == ["Red", "Blue"] and len(rep["armies"]) == 2
    # sides swapped: game i uses seed + i, players alternate seats
    assert [r["players"] for r in rep["results"]] == [two_names, two_names[::-1]] * 2
    assert [r["seed"] for r in rep["results"]] == [11, 12, 13, 14]
    assert {p: rep["win_rate_by_player"][p]["games"] for p in two_names} == {"random": 4, "random2": 4}
    wins = sum(w["wins"] for w in rep["win_rate_by_side"].values())
    assert wins + rep["draws"] + rep["unfinished"] == 4
    for w in rep["win_rate_by_side"].values():
        assert list(w["ci95"]) == list(wilson(w["wins"], 4))
    assert rep["first_player"]["side"] == "Red" and rep["first_player"]["games"] == 4
    assert sum(rep["banners_at_end"]["Red"]["histogram"].values()) == 4
    assert len(rep["length"]["turns"]["values"]) == 4
    assert sum(rep["decisive_banner"]["cause"].values()) == wins
    json.dumps(rep)  # plain JSON
    # the same seed, the same report
    assert run_balance("cc-samurai", [FAST], two_names, games=4, seed=11)[FAST] == rep


def test_report_of_hand_made_results():
    res = [
        {"seed": s, "players": ["a", "b"] if s % 2 == 0 else ["b", "a"], "winner_seat": w, "reason": "banners",
         "turns": t, "actions": 10 * t, "banners": bn, "first_seat": 0,
         "banner_log": [{"side": w, "amount": 1, "cause": "Ashigaru Bow eliminated", "card": "order-one-left",
                         "own_turn": True, "turn": t}],
         "decisive": {"side": w, "amount": 1, "cause": "Ashigaru Bow eliminated", "card": "order-one-left",
                      "own_turn": True, "turn": t}}
        for s, w, t, bn in [(0, 0, 10, [5, 1]), (1, 0, 20, [5, 4]), (2, 1, 30, [2, 5])]
    ]
    rep = scenario_report("x", "X", ["Red", "Blue"], res)
    assert rep["win_rate_by_side"]["Red"]["wins"] == 2 and rep["win_rate_by_side"]["Red"]["rate"] == 2 / 3
    assert rep["win_rate_by_player"]["a"]["wins"] == 1  # a won game 0 in Red; b won game 1 in Red, game 2 in Blue
    assert rep["win_rate_by_player"]["b"]["wins"] == 2
    assert rep["first_player"]["wins"] == 2
    assert rep["banners_at_end"]["Red"] == {"mean": 4.0, "histogram": {"2": 1, "5": 2}}
    assert rep["banner_margin"]["histogram"] == {"-3": 1, "1": 1, "4": 1}
    assert rep["length"]["turns"]["median"] == 20
    assert rep["banners_by_cause"]["Red"] == {"Ashigaru Bow eliminated": 2}
    assert rep["decisive_banner"]["card"] == {"order-one-left": 3}


def test_balance_command_writes_json_and_plots(tmp_path):
    out = tmp_path / "bal"
    r = CliRunner().invoke(app, ["balance", "cc-samurai", FAST, "--players", "random,random", "--games", "2",
                                 "--seed", "3", "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "balance.json").read_text())
    assert doc["game"] == "cc-samurai" and doc["games_per_scenario"] == 2 and doc["date"]
    assert list(doc["scenarios"]) == [FAST]
    assert sorted(doc["plots"][FAST]) == [f"{FAST}.png", f"{FAST}.svg"]
    assert (out / f"{FAST}.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (out / f"{FAST}.svg").read_text()


def test_balance_command_takes_one_scenario_or_all_not_both(tmp_path):
    r = CliRunner().invoke(app, ["balance", "cc-samurai", FAST, "--all", "--out", str(tmp_path)])
    assert r.exit_code != 0 and "not both" in r.output


def test_balance_without_a_scenario_plays_the_introductory_one(tmp_path):
    """issue 34, D9: as battle and bench do (the clan game's: 2 players)."""
    from kassen.rulesets.registry import load_game

    r = CliRunner().invoke(app, ["balance", "clans", "--games", "2", "--players", "random,random", "--out",
                                 str(tmp_path), "--no-plots"])
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "balance.json").read_text())
    assert list(doc["scenarios"]) == [load_game("clans").default_scenario()]


def test_plots_draw_the_fair_share_and_a_length_that_varies():
    """issue 34, D9: three players' reference line is 1/3 (a team game's 1/2); a game whose turns
    never vary shows its length in actions."""
    from kassen.ai.balance import fair_share, length_unit

    res3 = [{"seed": s, "players": ["a", "b", "c"], "winner_seat": s % 3, "winner_seats": [s % 3],
             "reason": "score", "turns": 7, "actions": 40 + s, "banners": [], "first_seat": 0, "banner_log": [],
             "decisive": None} for s in range(6)]
    rep = scenario_report("c3", "C3", ["A", "B", "C"], res3)
    assert fair_share(rep) == pytest.approx(1 / 3)
    assert length_unit(rep) == "actions"
    teams = [{**r, "players": ["a"] * 4, "winner_seats": [0, 2] if r["seed"] % 2 else [1, 3]} for r in res3]
    assert fair_share(scenario_report("t", "T", ["A", "B", "C", "D"], teams)) == 0.5
    two = [{**r, "players": ["a", "b"], "winner_seats": [0], "turns": 5 + r["seed"]} for r in res3]
    rep2 = scenario_report("c2", "C2", ["A", "B"], two)
    assert fair_share(rep2) == 0.5 and length_unit(rep2) == "turns"


def test_a_bad_ray_address_fails_fast_in_one_line():
    """issue 34, D8: a refused port, a malformed address, without Ray's noise, before any game."""
    import time

    for addr, says in [("127.0.0.1:1", "cannot reach a Ray cluster at 127.0.0.1:1"),
                       ("garbage", "'garbage' is not a Ray address"), ("ray://head:99999", "is not a Ray address")]:
        t0 = time.monotonic()
        r = _kassen("battle", "--ray", addr, "--games", "1", "--players", "random,random")
        assert r.returncode != 0 and time.monotonic() - t0 < 10
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and says in lines[0], r.stderr


def _kassen(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "kassen", *args], capture_output=True, text=True, env=env,
                          timeout=600)


def test_battle_on_ray_gives_the_same_results_as_one_process():
    """``kassen battle ... --ray`` (a local Ray instance) and the same command without it agree."""
    cmd = ["battle", "cc-samurai", "--players", "random,random", "--games", "4", "--seed", "5", "--swap", "--json"]
    plain = _kassen(*cmd)
    assert plain.returncode == 0, plain.stderr
    on_ray = _kassen(*cmd, "--ray")
    assert on_ray.returncode == 0, f"Ray could not run the series:\n{on_ray.stderr}"
    assert json.loads(on_ray.stdout) == json.loads(plain.stdout)


def test_balance_on_ray_gives_the_same_report_as_one_process(tmp_path):
    """``kassen balance ... --ray`` (a local Ray instance) writes the report one process writes."""
    cmd = ["balance", "cc-samurai", FAST, "--games", "2", "--players", "random,random", "--seed", "7"]
    plain = _kassen(*cmd, "--out", str(tmp_path / "plain"))
    assert plain.returncode == 0, plain.stderr
    on_ray = _kassen(*cmd, "--ray", "--out", str(tmp_path / "ray"))
    assert on_ray.returncode == 0, f"Ray could not run the series:\n{on_ray.stderr}"
    reports = [json.loads((tmp_path / d / "balance.json").read_text()) for d in ("plain", "ray")]
    assert reports[0]["scenarios"] == reports[1]["scenarios"]
    assert reports[0]["scenarios"][FAST]["games"] == 2
    assert "--ray" in reports[1]["command"] and "--ray" not in reports[0]["command"]


def test_plots_of_a_one_sided_series(tmp_path):
    """A side that won every game: its interval ends at 1 up to rounding, and the plot still draws."""
    from kassen.ai.balance import write_plots

    res = [{"seed": s, "players": ["a", "b"], "winner_seat": 0, "reason": "banners", "turns": 10 + s,
            "actions": 50, "banners": [6, s % 3], "first_seat": 0, "banner_log": [], "decisive": None}
           for s in range(7)]
    rep = scenario_report("x", "X", ["Red", "Blue"], res)
    assert rep["win_rate_by_side"]["Red"]["rate"] == 1.0
    assert write_plots(rep, tmp_path) == ["x.png", "x.svg"]


def test_resume_keeps_the_scenarios_already_done(tmp_path):
    args = ["balance", "cc-samurai", FAST, "--players", "random,random", "--games", "1", "--seed", "3",
            "--no-plots", "--out", str(tmp_path)]
    assert CliRunner().invoke(app, args).exit_code == 0
    first = json.loads((tmp_path / "balance.json").read_text())
    shutil.rmtree(tmp_path / "games")  # as a run of an older Kassen left it: whole scenarios only
    r = CliRunner().invoke(app, [*args, "--resume"])
    assert r.exit_code == 0, r.output
    again = json.loads((tmp_path / "balance.json").read_text())
    assert again["scenarios"] == first["scenarios"] and len(again["runs"]) == 2
    r = CliRunner().invoke(app, [*args[:-4], "--games", "2", "--out", str(tmp_path), "--resume"])
    assert r.exit_code != 0  # another run's file is not mixed in


def test_team_game_credits_both_partners():
    """In the clan game's 4-player teams a game has two winners: both seats win it."""
    res = [{"seed": s, "players": ["g"] * 4, "winner_seat": w, "winner_seats": ws, "reason": "team",
            "turns": 7, "actions": 70, "banners": [0, 0, 0, 0], "first_seat": None, "banner_log": [],
            "decisive": None}
           for s, w, ws in [(0, 1, [1, 3]), (1, 0, [0, 2]), (2, 1, [1, 3])]]
    rep = scenario_report("teams", "Teams", ["A", "B", "C", "D"], res)
    assert [rep["win_rate_by_side"][s]["wins"] for s in "ABCD"] == [1, 2, 1, 2]
    assert rep["win_rate_by_player"]["g"]["wins"] == 3
    assert rep["results"][0]["winner_seats"] == [1, 3]


CLANS = ["balance", "clans", "2-players", "--players", "greedy,greedy", "--no-plots"]


def _report(path):
    doc = json.loads((path / "balance.json").read_text())
    return doc, doc["scenarios"]["2-players"]


def test_every_finished_game_is_on_disk_and_resume_goes_on_from_it(tmp_path):
    """A run stopped half-way (here: its games file cut to two games and a half-written line)
    resumes from its last finished game and ends with the report of an unbroken run."""
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert CliRunner().invoke(app, [*CLANS, "--games", "4", "--seed", "10", "--out", str(whole)]).exit_code == 0
    lines = (whole / "games" / "2-players.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["format"] == GAMES_FORMAT and len(lines) == 5
    assert [json.loads(x)["seed"] for x in lines[1:]] == [10, 11, 12, 13]
    (cut / "games").mkdir(parents=True)
    (cut / "games" / "2-players.jsonl").write_text("\n".join(lines[:3]) + "\n" + lines[3][:25])
    r = CliRunner().invoke(app, [*CLANS, "--games", "4", "--seed", "10", "--out", str(cut), "--resume"])
    assert r.exit_code == 0, r.output
    assert (cut / "games" / "2-players.jsonl").read_text() == (whole / "games" / "2-players.jsonl").read_text()
    assert _report(cut)[1] == _report(whole)[1]
    # another series' games are not mixed in
    r = CliRunner().invoke(app, [*CLANS, "--games", "4", "--seed", "11", "--out", str(cut), "--resume"])
    assert r.exit_code != 0 and "another run" in r.output


def test_merged_runs_report_as_one_run(tmp_path):
    one, a, b, m = (tmp_path / x for x in ("one", "a", "b", "merged"))
    assert CliRunner().invoke(app, [*CLANS, "--games", "6", "--seed", "0", "--out", str(one)]).exit_code == 0
    assert CliRunner().invoke(app, [*CLANS, "--games", "2", "--seed", "0", "--out", str(a)]).exit_code == 0
    assert CliRunner().invoke(app, [*CLANS, "--games", "4", "--seed", "2", "--out", str(b)]).exit_code == 0
    r = CliRunner().invoke(app, ["balance-merge", str(b), str(a), "--out", str(m), "--no-plots"])
    assert r.exit_code == 0, r.output
    doc, rep = _report(m)
    assert rep == _report(one)[1]
    assert doc["seed"] == 0 and doc["games_per_scenario"] == 6 and len(doc["merged_from"]) == 2
    assert (m / "games" / "2-players.jsonl").read_text() == (one / "games" / "2-players.jsonl").read_text()


def test_merge_refuses_overlapping_seeds_other_players_and_odd_splits(tmp_path):
    a, b, c, d = (tmp_path / x for x in "abcd")
    assert CliRunner().invoke(app, [*CLANS, "--games", "2", "--seed", "0", "--out", str(a)]).exit_code == 0
    assert CliRunner().invoke(app, [*CLANS, "--games", "2", "--seed", "1", "--out", str(b)]).exit_code == 0
    r = CliRunner().invoke(app, ["balance-merge", str(a), str(b), "--out", str(tmp_path / "m1")])
    assert r.exit_code != 0 and "seed 1 was played in both" in r.output
    other = ["balance", "clans", "2-players", "--players", "random,greedy", "--no-plots"]
    assert CliRunner().invoke(app, [*other, "--games", "2", "--seed", "2", "--out", str(c)]).exit_code == 0
    r = CliRunner().invoke(app, ["balance-merge", str(a), str(c), "--out", str(tmp_path / "m2")])
    assert r.exit_code != 0 and "different players" in r.output
    assert CliRunner().invoke(app, [*other, "--games", "2", "--seed", "5", "--out", str(d)]).exit_code == 0
    r = CliRunner().invoke(app, ["balance-merge", str(c), str(d), "--out", str(tmp_path / "m3")])
    assert r.exit_code != 0 and "even number of games" in r.output


def test_kassen_balance_merge_is_the_merge_command(tmp_path):
    """``kassen balance merge`` reaches the merge command (the group resolves it; nothing rewrites argv)."""
    r = CliRunner().invoke(app, ["balance", "merge", str(tmp_path), "--out", str(tmp_path / "m")])
    assert r.exit_code == 2 and "has no games/*.jsonl" in " ".join(r.output.split())


@pytest.mark.parametrize(("args", "address"), [
    (["--ray"], "local"),
    (["--ray", "--json"], "local"),
    (["--ray", "auto"], "auto"),
    (["--ray", "ray://head:10001"], "ray://head:10001"),
])
def test_a_bare_ray_flag_means_a_local_instance(monkeypatch, args, address):
    """``--ray`` takes an optional address: the command's own parser gives a bare one ``local``."""
    import kassen.ai.series as series
    from kassen.engine.errors import KassenError

    def refuse(*a, ray=None, **k):
        raise KassenError(f"ray={ray}")

    monkeypatch.setattr(series, "run_series", refuse)
    r = CliRunner().invoke(app, ["battle", "--ray", *args[1:], "cc-samurai", "--players", "random,random"]
                           if args[1:] != ["--json"] else ["battle", *args, "--players", "random,random"])
    # a remote address is checked before any game (issue 34, D8): the error names it as parsed
    assert f"ray={address}" in r.output or f"at {address} " in r.output, r.output
