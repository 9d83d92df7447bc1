"""Tune the C&C Samurai evaluation weights by self-play (coordinate search).

For each weight named in ``--keys`` (in turn, for ``--passes`` passes), a candidate with
that weight multiplied by ``1 + step`` and one multiplied by ``1 - step`` each play a
seeded match against the current weights (``--games`` games, sides swapped, the
``planner`` settings below on both sides, one process). A candidate that scores at
least ``--accept`` of the points (a win 1, a draw 1/2) replaces the current weights;
the step shrinks by half after a pass without change. Nothing is written unless
``--out`` is given; the shipped file is :file:`src/kassen/ai/weights_cc.json`.

Usage (from the project root)::

    PYTHONPATH=src .venv/bin/python benchmarks/tune_eval.py --games 16 --passes 1 \\
        --keys engage,threat_next,threat_later,pending_attack --out /tmp/weights.json

Game ``i`` of every match uses seed ``seed + i`` (the same deals for every candidate,
so candidates are compared on the same battles). Each match's result is printed, and
the log of every accepted change is kept in the output file under ``_tuning``.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path
from typing import Any

from kassen.ai.evaluate import WEIGHTS_FILE, Weights, load_weights
from kassen.ai.planner import TurnPlanner
from kassen.ai.series import GameSpec, play_one, specs

#: the planner both sides use while tuning: the normal level without card rollouts (fast)
PLANNER: dict[str, Any] = {"battle_samples": 4, "card_rollouts": 0}


def match(cand: Weights, base: Weights, games: int, seed: int, game_id: str, scenario: str) -> float:
    """Points of ``cand`` against ``base`` (share of ``games``)."""
    points = 0.0
    for i, spec in enumerate(specs(game_id, scenario, ["cand", "base"], games, seed, swap=True)):
        me = 0 if i % 2 == 0 else 1
        ws = [cand, base] if me == 0 else [base, cand]
        players = [TurnPlanner(spec.seed * 7919 + k, weights=ws[k], name=spec.players[k], **PLANNER) for k in (0, 1)]
        r = play_one(GameSpec(spec.game_id, spec.scenario, spec.players, spec.seed, max_actions=6000), players=list(players))
        if r["winner_seat"] is None:
            points += 0.5
        elif r["winner_seat"] == me:
            points += 1.0
    return points / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", default=str(WEIGHTS_FILE), help="the starting weights")
    ap.add_argument("--keys", default="engage,threat_next,threat_later,reach_discount,pending_attack,support,honor,banner",
                    help="comma-separated weights to tune (scalars only)")
    ap.add_argument("--games", type=int, default=16, help="games per match (even: sides swapped)")
    ap.add_argument("--passes", type=int, default=1)
    ap.add_argument("--step", type=float, default=0.4, help="relative change tried (x(1+step) and x(1-step))")
    ap.add_argument("--accept", type=float, default=0.625, help="share of the points a candidate needs")
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--scenario", default="first-samurai-skirmish")
    ap.add_argument("--out", help="write the tuned weights here")
    args = ap.parse_args(argv)
    current = load_weights(args.weights)
    keys = [k.strip() for k in args.keys.split(",") if k.strip()]
    for k in keys:
        if not isinstance(current.get(k), (int, float)):
            ap.error(f"{k!r} is not a scalar weight")
    log: list[dict[str, Any]] = []
    step = args.step
    start = time.perf_counter()
    for p in range(args.passes):
        changed = False
        for k in keys:
            for factor in (1 + step, 1 - step):
                cand = copy.deepcopy(current)
                cand[k] = round(current[k] * factor, 4)
                score = match(cand, current, args.games, args.seed, args.game, args.scenario)
                print(f"pass {p + 1} {k}: {current[k]} -> {cand[k]}: {score:.3f} of the points "
                      f"({time.perf_counter() - start:.0f}s)", flush=True)
                if score >= args.accept:
                    log.append({"key": k, "from": current[k], "to": cand[k], "score": score, "games": args.games,
                                "seed": args.seed})
                    current = cand
                    changed = True
                    break
        if not changed:
            step /= 2
    print(json.dumps({k: current[k] for k in keys}, indent=1))
    if args.out:
        out = dict(current)
        out["_tuning"] = log
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
