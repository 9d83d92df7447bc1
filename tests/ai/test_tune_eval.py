"""``benchmarks/tune_eval.py`` (issue 33): the Texel-style logistic fit recovers known weights
from a small synthetic set of positions, writes them with the run's provenance, and the
evaluation it fits is the sum of its weighted features."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from kassen.ai.evaluate import LINEAR, evaluate, features, load_weights, weight
from tests.ai.test_players import _mid_game_state

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import tune_eval  # noqa: E402

#: the weights the synthetic outcomes are drawn with (the unit, block.triangle, stays 1.0)
TRUE = {"block.triangle": 1.0, "banner": 2.0, "honor": 0.6}
TRUE_K = 0.5


def _synthetic_games(n_games: int, per_game: int, seed: int) -> dict[int, dict[str, object]]:
    """Positions with three features and outcomes drawn from ``sigmoid(TRUE_K * TRUE · f)``."""
    rng = np.random.default_rng(seed)
    games: dict[int, dict[str, object]] = {}
    for g in range(n_games):
        positions = []
        for _ in range(per_game):
            f = {"block.triangle": float(rng.normal(0, 3)), "banner": float(rng.integers(-3, 4)),
                 "honor": float(rng.normal(0, 2))}
            z = TRUE_K * sum(TRUE[k] * v for k, v in f.items())
            y = float(rng.random() < 1 / (1 + math.exp(-z)))
            positions.append({"side": 0, "turn": 1, "at": "play", "f": f, "y": y})
        games[g] = {"seed": g, "winner": 0, "actions": 1, "cpu": 1.0, "positions": positions}
    return games


def test_the_fit_recovers_known_weights_from_a_tiny_synthetic_set():
    games = _synthetic_games(100, 60, 7)
    w = load_weights()  # starts from the shipped weights (banner 2.93, honor 0.35)
    assert (weight(w, "banner"), weight(w, "honor")) != (TRUE["banner"], TRUE["honor"])
    result = tune_eval.fit(games, w, ["banner", "honor"], prior=0.0, rounds=6)
    assert result["weights"]["banner"] == pytest.approx(TRUE["banner"], rel=0.12)
    assert result["weights"]["honor"] == pytest.approx(TRUE["honor"], rel=0.15)
    assert result["K"] == pytest.approx(TRUE_K, rel=0.12)
    # the held-out games (seeds that are multiples of 5) are predicted better than before
    assert result["held_out_positions"] == 20 * 60
    assert result["loss_after"]["held_out"] < result["loss_before"]["held_out"]
    assert [c["games"] for c in result["curve"]] == [20, 40, 60, 80]


def test_the_prior_keeps_weights_near_the_start_when_the_positions_say_little():
    games = _synthetic_games(10, 5, 3)
    w = load_weights()
    loose = tune_eval.fit(games, w, ["banner", "honor"], prior=0.0)
    tight = tune_eval.fit(games, w, ["banner", "honor"], prior=100.0)
    start = weight(w, "banner")
    assert abs(tight["weights"]["banner"] - start) < abs(loose["weights"]["banner"] - start)
    assert tight["weights"]["banner"] == pytest.approx(start, abs=0.05)


def test_fit_only_writes_the_weights_with_the_runs_provenance(tmp_path, capsys):
    work = tmp_path / "work"
    work.mkdir()
    with open(work / "positions.jsonl", "w", encoding="utf-8") as f:
        for g in _synthetic_games(40, 40, 11).values():
            f.write(json.dumps(g) + "\n")
        f.write('{"seed": 99, "posit')  # the torn line of a stopped run is ignored
    out = tmp_path / "tuned.json"
    assert tune_eval.main(["--fit-only", "--work", str(work), "--out", str(out), "--keys", "banner,honor",
                           "--prior", "0"]) == 0
    tuned = load_weights(out)  # a complete weights file
    assert tuned["banner"] == pytest.approx(TRUE["banner"], rel=0.25)
    prov = tuned["_tuning"]
    assert prov["games"] == 40 and prov["seeds"] == "0-39" and prov["keys"] == ["banner", "honor"]
    assert prov["cpu_hours"] == pytest.approx(40 / 3600, abs=1e-4) and prov["commit"]
    # the synthetic games record no generator: the fit says so rather than its own --noise
    assert prov["generator"] == [{"unrecorded": True}] and prov["ray"] is None
    assert "held-out" in capsys.readouterr().out


def test_fit_only_reports_the_settings_the_games_were_played_with():
    games = {1: {"generator": {"noise": 0.05}}, 2: {"generator": {"noise": 0.05}}, 3: {"generator": {"noise": 0.1}},
             4: {}}
    assert tune_eval.generators(games) == [{"noise": 0.05}, {"noise": 0.1}, {"unrecorded": True}]


def test_unknown_keys_are_refused_by_name():
    with pytest.raises(SystemExit, match="bogus"):
        tune_eval.usable_keys([], load_weights(), ["banner", "bogus"])


def test_the_evaluation_is_the_sum_of_its_weighted_features():
    s = _mid_game_state(6, 50)
    w = load_weights()
    for seat in (0, 1):
        f = features(s, seat, w)
        assert set(LINEAR) <= set(f)
        assert evaluate(s, seat, w) == pytest.approx(sum(weight(w, k) * v for k, v in f.items()))


def test_self_play_records_positions_with_their_outcome():
    from kassen.ai.series import GameSpec

    spec = GameSpec("cc-samurai", None, ("tune", "tune"), 5, max_actions=60)
    g = tune_eval.play_positions((spec, load_weights(), {"battle_samples": 1, "card_rollouts": 0}))
    assert g["seed"] == 5 and g["positions"] and g["generator"] == {"battle_samples": 1, "card_rollouts": 0}
    assert {p["side"] for p in g["positions"]} == {0, 1}
    assert {p["at"] for p in g["positions"]} == {"play", "battle"}
    # unfinished after 60 actions: a draw for both sides
    assert g["winner"] is None and {p["y"] for p in g["positions"]} == {0.5}


# ------------------------------------------------------------ An Honourable Victory!
def _hv_states(n: int = 6):
    """States of a seeded random An Honourable Victory! game, every few decisions."""
    from kassen.engine.protocol import CHANCE, sample_chance
    from kassen.engine.rng import Rng
    from kassen.rulesets.registry import load_game

    s, rng, out, steps = load_game("honourable-victory").new_state(None, 4), Rng(4), [], 0
    while not s.is_terminal() and len(out) < n:
        if s.to_move() == CHANCE:
            s = s.apply(sample_chance(s.chance_outcomes(), rng))
            continue
        legal = [a for a in s.legal_actions() if a != "concede"] or s.legal_actions()
        s = s.apply(legal[rng.randbelow(len(legal))])
        steps += 1
        if steps % 7 == 0:
            out.append(s)
    return out


def test_the_hv_evaluation_is_its_weighted_features_clamped():
    from kassen.ai.evaluate_games import HV_TERMS, evaluate_hv, hv_features, load_hv_weights

    w = load_hv_weights()
    assert set(w) == set(HV_TERMS)
    for s in _hv_states():
        for seat in (0, 1):
            f = hv_features(s, seat)
            assert set(f) == set(HV_TERMS)
            linear = sum(w[k] * f[k] for k in HV_TERMS)
            assert evaluate_hv(s, seat) == pytest.approx(max(-1.0, min(1.0, linear)), abs=1e-12)
            doubled = {k: 2 * v for k, v in w.items()}  # weights given as a dict or as their file
            assert evaluate_hv(s, seat, doubled) == pytest.approx(max(-1.0, min(1.0, 2 * linear)), abs=1e-12)


def test_an_hv_weights_file_missing_a_term_is_refused_by_name(tmp_path):
    from kassen.ai.evaluate_games import load_hv_weights

    bad = tmp_path / "w.json"
    bad.write_text(json.dumps({"material": 0.4}))
    with pytest.raises(ValueError, match="missing HV weights zones"):
        load_hv_weights(bad)


def test_an_hv_level_plays_with_the_weights_file_its_settings_name(tmp_path):
    from dataclasses import replace

    from kassen.ai.evaluate_games import evaluate_hv, hv_features, load_hv_weights
    from kassen.ai.players import halving_level
    from kassen.rulesets.registry import get

    mine = tmp_path / "w.json"
    mine.write_text(json.dumps({**load_hv_weights(), "material": 3.0}))
    spec = get("honourable-victory")
    levels = {"x": {**spec.ai.levels["normal"], "weights": str(mine)}}
    p = halving_level(replace(spec, ai=replace(spec.ai, levels=levels)), "x", 1)
    s = _hv_states(1)[0]
    next(u for u in s.units.values() if u.side == 1).hits = 2  # North has lost ground in stands
    assert hv_features(s, 0)["material"] > 0
    assert p.evaluation(s, 0) == evaluate_hv(s, 0, str(mine)) > evaluate_hv(s, 0)


def test_hv_self_play_records_every_decision_kind_once_a_turn_with_its_outcome():
    from kassen.ai.series import GameSpec

    tuned = tune_eval.tuned_game("honourable-victory")
    spec = GameSpec("honourable-victory", None, ("tune", "tune"), 70001, max_actions=400)
    g = tune_eval.play_positions((spec, tuned.load(None), {"playouts": 8, "end_playouts": 4}))
    assert g["seed"] == 70001 and g["positions"]
    assert {p["side"] for p in g["positions"]} == {0, 1}
    seen = [(p["turn"], p["at"], p["side"]) for p in g["positions"]]
    assert len(seen) == len(set(seen))  # once a turn and kind, for each side
    assert set().union(*(p["f"] for p in g["positions"])) <= set(tuned.keys)
    ys = {p["y"] for p in g["positions"]}
    assert ys == ({0.5} if g["winner"] is None else {0.0, 1.0})


def test_a_game_without_a_tuned_evaluation_is_named():
    with pytest.raises(SystemExit, match="'kensei'"):
        tune_eval.tuned_game("kensei")
