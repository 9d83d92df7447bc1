"""Tune the C&C Samurai evaluation weights on self-play positions (Texel-style logistic fit).

**Positions** (``generate``). Self-play games of the First Samurai Skirmish (``--scenario``),
one Ray task a game (a Ray started on this machine by default, ``--ray ADDRESS`` joins a
cluster, ``--ray none`` plays in this process), both sides the turn planner with the weights
being tuned and the cheap settings of :data:`PLANNER` (the ``normal`` level without card
rollouts; ``--noise`` adds random orders and moves for variety). At the start of every turn
(the ``play`` decision) and at its first battle decision, the features of the evaluation
(:func:`kassen.ai.evaluate.features`, one number per weight of :data:`kassen.ai.evaluate.LINEAR`)
are recorded from both sides' point of view; when the game ends each record gets its outcome
for that side (1 won, 0 lost, 1/2 a draw or an unfinished game). Game ``i`` is dealt with seed
``--seed + i``; each game is appended to ``WORK/positions.jsonl`` as it finishes, so a run
stopped at any moment resumes where it was (the games already there are not played again).

**Fit** (``fit``). The evaluation is linear in those weights: ``eval = w · f``. The model is
``P(win) = sigmoid(K * w · f)``. As in Texel tuning, ``K`` is first fitted with the current
weights (it turns blocks into odds), then the weights named by ``--keys`` (default: every
linear weight but ``block.triangle``, the unit, and the ones whose feature never varies) are
fitted by Newton's method on the mean log loss plus ``--prior`` times the squared relative
change from the current weights (a Gaussian prior: few positions move a weight little);
``K`` and the weights are fitted in turn ``--rounds`` times (the weights not fitted, the unit
above all, keep the scale). The
games whose seed is a multiple of 5 are held out: their loss is the validation figure. The
learning curve (``--plot``) is the held-out loss of fits on growing shares of the games.

**Output** (``--out``): the starting weights file with the fitted values, and under
``_tuning`` the run's provenance: commit, games and seeds, positions, CPU hours of the
games, ``K``, the losses before and after, the keys, the prior and the generator settings (as
each game recorded them in the positions file: a ``--fit-only`` run reports the games' settings).

Usage (from the project root)::

    PYTHONPATH=src .venv/bin/python benchmarks/tune_eval.py --games 400 --seed 50000 \\
        --work /tmp/tune --out benchmarks/weights_cc_tuned.json --plot /tmp/tune/curve.png
    # later, more games: the same command with --games 800 plays only the 400 new ones
    PYTHONPATH=src .venv/bin/python benchmarks/tune_eval.py --fit-only --work /tmp/tune --out ...

``--ray auto`` or ``--ray HOST:6379`` plays the games on a running cluster (``benchmarks/ray.md``).

**An Honourable Victory!** (``--game honourable-victory``): the same, over the terms of
:func:`kassen.ai.evaluate_games.evaluate_hv` (:data:`~kassen.ai.evaluate_games.HV_TERMS`, the
shipped ``weights_hv.json``; ``material`` sets the scale), with both sides the ``normal`` level
playing with the weights being tuned, a position recorded at the first decision of each kind in
every game turn, on the meeting engagement by default. A level plays with a fitted file through
its settings' ``weights`` (``benchmarks/strength.py normal+weights=FILE normal --game
honourable-victory``).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kassen.ai.evaluate import LINEAR, WEIGHTS_FILE, Weights, features, load_weights, weight
from kassen.ai.planner import TurnPlanner
from kassen.ai.series import GameSpec

#: the planner both sides use to make positions: the normal level without card rollouts (fast)
PLANNER: dict[str, Any] = {"battle_samples": 4, "card_rollouts": 0}
#: the weight that sets the unit (one block of Ashigaru spearmen), never fitted by default
ANCHOR = "block.triangle"
#: held-out games: those whose seed is a multiple of this
HOLD_OUT = 5
#: the An Honourable Victory! players that make positions: the normal level (its playouts are cheap)
HV_GENERATOR = "normal"


@dataclass(frozen=True)
class Tuned:
    """What the tuning needs of one game's evaluation: its linear weights (``keys``; ``anchor``
    sets the scale and is not fitted by default), the shipped weights file, how to read one
    weight and write fitted ones back, the features of a position, the players of self-play
    and the decisions where a position is recorded."""

    game_id: str
    scenario: str
    keys: tuple[str, ...]
    anchor: str
    weights_file: Path
    load: Callable[[str | None], Any]
    weight: Callable[[Any, str], float]
    features: Callable[[Any, int, Any], dict[str, float]]
    record_at: tuple[str, ...] | None  # decisions recorded once a turn (None: every kind, once a turn)


def _cc_features(state: Any, side: int, w: Any) -> dict[str, float]:
    return features(state, side, w)


def _hv_features(state: Any, side: int, w: Any) -> dict[str, float]:
    from kassen.ai.evaluate_games import hv_features

    return hv_features(state, side)


def _hv_load(path: str | None) -> Any:
    from kassen.ai.evaluate_games import load_hv_weights

    return dict(load_hv_weights(path))


def _hv_tuned() -> Tuned:
    from kassen.ai.evaluate_games import HV_TERMS, HV_WEIGHTS_FILE

    return Tuned("honourable-victory", "meeting-engagement", HV_TERMS, "material", HV_WEIGHTS_FILE, _hv_load,
                 lambda w, k: float(w.get(k, 0.0)), _hv_features, None)


CC = Tuned("cc-samurai", "first-samurai-skirmish", tuple(LINEAR), ANCHOR, WEIGHTS_FILE, load_weights, weight,
           _cc_features, ("play", "battle"))


def tuned_game(game_id: str) -> Tuned:
    """The tuning of ``game_id`` (C&C Samurai, An Honourable Victory!); SystemExit names the others."""
    if game_id == CC.game_id:
        return CC
    if game_id == "honourable-victory":
        return _hv_tuned()
    raise SystemExit(f"--game: no tuned evaluation for {game_id!r} (cc-samurai, honourable-victory)")


def _players(spec: GameSpec, w: Any, settings: dict[str, Any]) -> list[Any]:
    if spec.game_id == CC.game_id:
        return [TurnPlanner(spec.seed * 7919 + k, weights=w, **settings) for k in (0, 1)]
    import functools
    from dataclasses import replace

    from kassen.ai.evaluate_games import evaluate_hv
    from kassen.ai.players import halving_level
    from kassen.rulesets.registry import get

    g = get(spec.game_id)
    level = {**g.ai.levels[HV_GENERATOR], **settings}
    made = []
    for k in (0, 1):
        p = halving_level(replace(g, ai=replace(g.ai, levels={"tune": level})), "tune", spec.seed * 7919 + k)
        p.evaluation = functools.partial(evaluate_hv, weights=w)
        made.append(p)
    return made


# ------------------------------------------------------------------ self-play positions
def play_positions(task: tuple[GameSpec, Weights, dict[str, Any]]) -> dict[str, Any]:
    """One self-play game (a Ray task): its recorded positions with their outcome, and its CPU time."""
    from kassen.engine.protocol import CHANCE, sample_chance
    from kassen.engine.rng import Rng
    from kassen.rulesets.registry import load_game

    spec, w, settings = task
    tuned = tuned_game(spec.game_id)
    start = time.process_time()
    state = load_game(spec.game_id).new_state(spec.scenario, spec.seed)
    players = _players(spec, w, settings)
    chance = Rng(spec.seed * 31 + 7)
    records: list[dict[str, Any]] = []
    turn_seen: set[tuple[int, str]] = set()
    actions = 0
    while not state.is_terminal() and actions < spec.max_actions:
        seat = state.to_move()
        if seat == CHANCE:
            state = state.apply(sample_chance(state.chance_outcomes(), chance))
            continue
        assert seat is not None
        decision = str(state.pending_kind())
        turn = int(state.observation(None).get("turn") or 0)
        if (tuned.record_at is None or decision in tuned.record_at) and (turn, decision) not in turn_seen:
            turn_seen.add((turn, decision))
            for side in (0, 1):
                records.append({"side": side, "turn": turn, "at": decision,
                                "f": {k: round(v, 6) for k, v in tuned.features(state, side, w).items() if v}})
        state = state.apply(players[seat].choose(state, seat))
        actions += 1
    res = state.result()
    for r in records:
        r["y"] = 0.5 if res is None or res.winner is None else (1.0 if res.winner == r["side"] else 0.0)
    return {"seed": spec.seed, "winner": None if res is None else res.winner, "actions": actions,
            "cpu": time.process_time() - start, "generator": settings, "positions": records}


def generators(games: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The generator settings the games were played with, each once (a game written before the
    positions file recorded them counts as ``{"unrecorded": True}``): a ``--fit-only`` run's
    provenance is the games', not its own command line's."""
    out: list[dict[str, Any]] = []
    for g in games.values():
        s = g.get("generator", {"unrecorded": True})
        if s not in out:
            out.append(s)
    return out


def read_games(path: Path) -> dict[int, dict[str, Any]]:
    """The games already in a positions file (a line a game), by seed; a torn last line is dropped."""
    games: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return games
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                g = json.loads(line)
            except json.JSONDecodeError:
                continue  # the line a stopped run was writing
            games[int(g["seed"])] = g
    return games


def generate(work: Path, w: Weights, games: int, seed: int, scenario: str, ray: str, settings: dict[str, Any],
             num_cpus: int | None, max_actions: int = 6000, game_id: str = "cc-samurai") -> dict[int, dict[str, Any]]:
    """Play the games of seeds ``seed .. seed+games-1`` not yet in ``work``, appending each as it ends."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    work.mkdir(parents=True, exist_ok=True)
    path = work / "positions.jsonl"
    done = read_games(path)
    todo = [(GameSpec(game_id, scenario, ("tune", "tune"), s, max_actions=max_actions), w, settings)
            for s in range(seed, seed + games) if s not in done]
    with Progress(TextColumn("[bold]self-play"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  TextColumn("{task.fields[positions]} positions")) as bar:
        task = bar.add_task("games", total=games, completed=games - len(todo),
                            positions=sum(len(g["positions"]) for g in done.values()))
        with open(path, "a", encoding="utf-8") as out:
            def keep(g: dict[str, Any]) -> None:
                out.write(json.dumps(g) + "\n")
                out.flush()
                done[int(g["seed"])] = g
                bar.update(task, advance=1, positions=sum(len(x["positions"]) for x in done.values()))

            if ray == "none":
                for t in todo:
                    keep(play_positions(t))
            elif todo:
                from kassen.ai.distributed import ray_map

                ray_map(play_positions, todo, ray, num_cpus=num_cpus, on_item=keep)
    return {s: done[s] for s in range(seed, seed + games) if s in done}


# ------------------------------------------------------------------ the logistic fit
def design(games: Sequence[dict[str, Any]], keys: Sequence[str]) -> tuple[Any, Any]:
    """The feature matrix (a row a position, a column a key) and the outcomes."""
    import numpy as np

    rows = [[p["f"].get(k, 0.0) for k in keys] for g in games for p in g["positions"]]
    ys = [p["y"] for g in games for p in g["positions"]]
    return np.asarray(rows, dtype=float).reshape(len(rows), len(keys)), np.asarray(ys, dtype=float)


def sigmoid(z: Any) -> Any:
    """``1 / (1 + exp(-z))`` without overflow."""
    import numpy as np

    return 0.5 * (1.0 + np.tanh(0.5 * z))


def log_loss(z: Any, y: Any) -> float:
    """Mean log loss of outcomes ``y`` (0..1) under ``P = sigmoid(z)``."""
    import numpy as np

    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit_scale(x: Any, y: Any, w: Any) -> float:
    """Texel's ``K``: the scale that turns ``x @ w`` into the best log odds (Newton, 1-D)."""
    import numpy as np

    e = x @ w
    k = 1.0 / max(1e-9, float(np.std(e))) if len(e) else 1.0
    for _ in range(50):
        p = sigmoid(k * e)
        g = float(np.mean((p - y) * e))
        h = float(np.mean(p * (1 - p) * e * e)) + 1e-12
        step = g / h
        k = max(1e-6, k - step)
        if abs(step) < 1e-10 * max(1.0, k):
            break
    return k


def fit_weights(x: Any, y: Any, w0: Any, k: float, prior: float, scale: Any, fixed: Any = None,
                iterations: int = 30, on_step: Callable[[int, Any], None] | None = None) -> Any:
    """Weights minimising the mean log loss of ``sigmoid(k * x @ w)`` plus ``prior`` times the sum of
    ``((w - w0) / scale) ** 2``; ``fixed`` (booleans) keeps those weights at ``w0``. Newton's method
    (the loss is convex); ``on_step(i, w)`` after each step."""
    import numpy as np

    n, m = x.shape
    free = np.ones(m, dtype=bool) if fixed is None else ~np.asarray(fixed, dtype=bool)
    w = np.array(w0, dtype=float)
    inv = 1.0 / np.asarray(scale, dtype=float) ** 2
    for i in range(iterations):
        z = k * (x @ w)
        p = sigmoid(z)
        grad = k * (x.T @ (p - y)) / max(1, n) + 2.0 * prior * inv * (w - w0)
        d = p * (1 - p)
        hess = (k * k) * (x.T * d) @ x / max(1, n) + np.diag(2.0 * prior * inv)
        g, hf = grad[free], hess[np.ix_(free, free)]
        step = np.linalg.solve(hf + 1e-9 * np.eye(len(g)), g)
        w[free] -= step
        if on_step is not None:
            on_step(i, w)
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return w


def usable_keys(games: Sequence[dict[str, Any]], w: Weights, requested: Sequence[str] | None,
                tuned: Tuned = CC) -> list[str]:
    """The keys to fit: those requested (default every linear weight but the game's anchor) whose
    feature is not always 0 in the positions."""
    seen = {k for g in games for p in g["positions"] for k in p["f"]}
    keys = list(requested) if requested else [k for k in tuned.keys if k != tuned.anchor]
    bad = [k for k in keys if k not in tuned.keys]
    if bad:
        raise SystemExit(f"--keys: {', '.join(bad)} not a linear weight (known: {', '.join(tuned.keys)})")
    return [k for k in keys if k in seen]


def fit(games: dict[int, dict[str, Any]], w: Weights, keys: Sequence[str], prior: float,
        rounds: int = 3, tuned: Tuned = CC) -> dict[str, Any]:
    """Texel fit on the games (held-out: seeds that are multiples of :data:`HOLD_OUT`): ``K`` for
    the starting weights, then ``rounds`` times the weights for ``K`` and ``K`` for the weights;
    the fitted weights, the losses before and after, and the learning curve."""
    import numpy as np

    cols = [k for k in tuned.keys if k in keys or any(k in p["f"] for g in games.values() for p in g["positions"])]
    train = [g for s, g in sorted(games.items()) if s % HOLD_OUT]
    held = [g for s, g in sorted(games.items()) if not s % HOLD_OUT]
    xt, yt = design(train, cols)
    xv, yv = design(held, cols)
    w0 = np.array([tuned.weight(w, k) for k in cols])
    scale = np.maximum(np.abs(w0), 0.1)
    fixed = np.array([k not in keys for k in cols])
    k0 = fit_scale(xt, yt, w0)
    steps: list[dict[str, float]] = []

    def alternate(x: Any, y: Any, log: bool) -> tuple[float, Any]:
        """``rounds`` times: ``K`` for the weights, then the weights for ``K`` (the fixed weights,
        :data:`ANCHOR` above all, set the scale)."""
        k, wv = k0, w0
        for _ in range(rounds):
            k = fit_scale(x, y, wv)

            def step(i: int, wi: Any, k: float = k) -> None:
                if log:
                    steps.append({"step": len(steps) + 1, "train": log_loss(k * (xt @ wi), yt),
                                  "held_out": log_loss(k * (xv @ wi), yv) if len(yv) else float("nan")})

            wv = fit_weights(x, y, w0, k, prior, scale, fixed, on_step=step)
        return fit_scale(x, y, wv), wv

    k, wf = alternate(xt, yt, True)
    curve = []
    for share in (0.25, 0.5, 0.75, 1.0):
        part = train[: max(1, int(len(train) * share))]
        xp, yp = design(part, cols)
        kp, wp = alternate(xp, yp, False)
        curve.append({"games": len(part), "held_out": log_loss(kp * (xv @ wp), yv) if len(yv) else float("nan")})
    return {
        "K": k, "K_start": k0, "columns": cols, "weights": {c: float(v) for c, v in zip(cols, wf) if c in keys},
        "train_positions": int(len(yt)), "held_out_positions": int(len(yv)),
        "loss_before": {"train": log_loss(k0 * (xt @ w0), yt),
                        "held_out": log_loss(k0 * (xv @ w0), yv) if len(yv) else float("nan")},
        "loss_after": {"train": log_loss(k * (xt @ wf), yt),
                       "held_out": log_loss(k * (xv @ wf), yv) if len(yv) else float("nan")},
        "steps": steps, "curve": curve,
    }


def apply_fit(w: Weights, fitted: dict[str, float]) -> Weights:
    """``w`` with the fitted values (``block.<symbol>`` into ``block``), rounded to 4 places."""
    out = json.loads(json.dumps(w))
    for k, v in fitted.items():
        if k.startswith("block."):
            out["block"][k[6:]] = round(v, 4)
        else:
            out[k] = round(v, 4)
    return out


def plot(result: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    steps = result["steps"]
    ax[0].plot([s["step"] for s in steps], [s["train"] for s in steps], "o-", label="training games")
    ax[0].plot([s["step"] for s in steps], [s["held_out"] for s in steps], "s-", label="held-out games")
    ax[0].axhline(result["loss_before"]["held_out"], color="grey", ls="--", label="held-out, weights before")
    ax[0].set_xlabel("Newton step")
    ax[0].set_ylabel("mean log loss")
    ax[0].legend()
    curve = result["curve"]
    ax[1].plot([c["games"] for c in curve], [c["held_out"] for c in curve], "o-")
    ax[1].axhline(result["loss_before"]["held_out"], color="grey", ls="--")
    ax[1].set_xlabel("training games")
    ax[1].set_ylabel("held-out mean log loss")
    ax[1].set_title("learning curve")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True, cwd=Path(__file__).resolve().parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _ranges(seeds: list[int]) -> str:
    out: list[list[int]] = []
    for s in sorted(seeds):
        if out and s == out[-1][1] + 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default=CC.game_id, help="cc-samurai (default) or honourable-victory")
    ap.add_argument("--weights", help="the starting weights (default: the game's shipped file)")
    ap.add_argument("--keys", help="comma-separated linear weights to fit (default: all but the anchor: "
                    "block.triangle, HV's material)")
    ap.add_argument("--games", type=int, default=200, help="self-play games (seeds --seed .. --seed+games-1)")
    ap.add_argument("--seed", type=int, default=50000)
    ap.add_argument("--scenario", help="default: the First Samurai Skirmish, HV's meeting engagement")
    ap.add_argument("--work", default="tune-work", help="directory of the positions file (resumable)")
    ap.add_argument("--ray", default="local", help="'local' (a Ray on this machine, the default), a cluster "
                    "address (auto, HOST:6379, ray://HOST:10001), or 'none' (this process)")
    ap.add_argument("--num-cpus", type=int, help="CPUs of the local Ray (default: the machine's)")
    ap.add_argument("--max-actions", type=int, default=6000,
                    help="a game stopped after this many actions counts as a draw (smoke runs: a few hundred)")
    ap.add_argument("--noise", type=float, default=0.0,
                    help="the C&C generator's chance of a random order or move (HV: variety from its playouts)")
    ap.add_argument("--prior", type=float, default=0.01,
                    help="weight of the squared relative change from the starting weights")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of K, then the weights, fitted in turn")
    ap.add_argument("--fit-only", action="store_true", help="play nothing: fit the games already in --work")
    ap.add_argument("--out", help="write the tuned weights (with the run's provenance) here")
    ap.add_argument("--plot", help="write the learning curve (PNG) here")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    tuned = tuned_game(args.game)
    w = tuned.load(args.weights)
    scenario = args.scenario or tuned.scenario
    settings = dict(PLANNER, noise=args.noise) if tuned is CC else {}
    work = Path(args.work)
    if args.fit_only:
        games = read_games(work / "positions.jsonl")
        if not games:
            ap.error(f"--fit-only: no games in {work / 'positions.jsonl'}")
    else:
        games = generate(work, w, args.games, args.seed, scenario, args.ray, settings, args.num_cpus,
                         args.max_actions, tuned.game_id)
    requested = [k.strip() for k in args.keys.split(",") if k.strip()] if args.keys else None
    keys = usable_keys(list(games.values()), w, requested, tuned)
    result = fit(games, w, keys, args.prior, args.rounds, tuned)
    before, after = result["loss_before"], result["loss_after"]
    print(f"{len(games)} games, {result['train_positions']} training and {result['held_out_positions']} held-out "
          f"positions; K = {result['K']:.4f}")
    print(f"mean log loss, training {before['train']:.4f} -> {after['train']:.4f}, "
          f"held-out {before['held_out']:.4f} -> {after['held_out']:.4f}")
    for k, v in result["weights"].items():
        print(f"  {k:24} {tuned.weight(w, k):9.4f} -> {v:9.4f}")
    if args.plot:
        plot(result, args.plot)
        print(f"learning curve written to {args.plot}")
    if args.out:
        out = apply_fit(w, result["weights"])
        cpu = sum(float(g.get("cpu", 0.0)) for g in games.values())
        out["_tuning"] = {
            "method": "texel logistic fit on self-play positions (benchmarks/tune_eval.py)",
            "commit": _commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "game": tuned.game_id, "games": len(games), "seeds": _ranges(list(games)), "scenario": scenario,
            "positions": result["train_positions"] + result["held_out_positions"],
            "cpu_hours": round(cpu / 3600, 4), "ray": None if args.fit_only else args.ray,
            "generator": generators(games) if tuned is CC else {"level": HV_GENERATOR},
            "start_weights": args.weights or str(tuned.weights_file), "keys": keys, "prior": args.prior, "rounds": args.rounds,
            "K": result["K"], "K_start": result["K_start"],
            "loss_before": before, "loss_after": after, "curve": result["curve"],
        }
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
        print(f"written to {args.out}")
    if math.isnan(after["held_out"]):
        print("note: no held-out game (seeds that are multiples of 5): the held-out loss is not measured")
    return 0


if __name__ == "__main__":
    sys.exit(main())
