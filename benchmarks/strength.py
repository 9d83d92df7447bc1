"""AI strength: a seeded series between two players, sides swapped every game, with the
first player's win rate, its 95% Wilson interval and the thinking time per turn.

Usage (from the project root; one process, so one core)::

    PYTHONPATH=src .venv/bin/python benchmarks/strength.py normal greedy --games 100 --seed 0
    PYTHONPATH=src .venv/bin/python benchmarks/strength.py hard normal --games 20 --json out.json

Players are the names of :func:`kassen.ai.players.make_player` (random, greedy, mcts,
easy, normal, hard), or a C&C Samurai level with its planner settings changed, for
experiments: ``normal+card_rollouts=30+battle_samples=12`` (the keywords of
:class:`kassen.ai.planner.TurnPlanner`), and ``+weights=FILE`` for other weights; with
``--game honourable-victory`` or ``clans``, ``normal+playouts=100+depth=6`` (the keywords of
:class:`kassen.ai.lookahead.HalvingPlayer`; ``+weights=FILE``: the HV evaluation's weights). Game ``i`` uses seed ``seed + i``; in odd games the players swap
seats. A player's seed in game ``i`` is ``(seed + i) * 7919 + seat`` (as in
:func:`kassen.ai.series.play_one`). A draw or an unfinished game counts as not won.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from kassen.ai.players import Player, make_player
from kassen.ai.series import GameSpec, play_one, specs, wilson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_strength import Timed  # noqa: E402  (benchmarks/ is not a package)


def make(label: str, seed: int, game: str = "cc-samurai") -> Player:
    """``make_player(label)``, or ``level+key=value+...``: that level's planner (for An Honourable
    Victory! and the clan card game: its :class:`~kassen.ai.lookahead.HalvingPlayer`) with settings changed;
    for C&C, ``w.<weight>=<value>`` changes one of the weights it plans with (and judges with, unless the
    level judges with its own file): ``hard+w.contact_reach=0.3``."""
    if label.startswith("plansearch@"):
        from ai_strength import plansearch  # benchmarks/ is on sys.path when a script here runs

        return plansearch(label, seed)
    if "+" not in label:
        return make_player(label, seed)
    from kassen.ai.players import GAME_LEVELS

    if game in GAME_LEVELS:
        from dataclasses import replace

        from kassen.ai.players import halving_level
        from kassen.rulesets.registry import get

        base, *changes = label.split("+")
        settings = dict(GAME_LEVELS[game][base])
        for pair in changes:
            key, _, value = pair.partition("=")
            settings[key] = value if key == "weights" else int(value)
        spec = get(game)
        player = halving_level(replace(spec, ai=replace(spec.ai, levels={label: settings})), label, seed)
        return player
    from kassen.ai.evaluate import load_weights
    from kassen.ai.planner import TurnPlanner
    from kassen.ai.players import PLANNER_LEVELS

    level, *pairs = label.split("+")
    kwargs: dict[str, Any] = dict(PLANNER_LEVELS[level])
    changed: dict[str, float] = {}  # ``w.<weight>=<value>``: one planning weight changed
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key in ("weights", "judge_weights"):
            kwargs[key] = load_weights(value)
        elif key.startswith("w."):
            changed[key[2:]] = float(value)
        else:
            kwargs[key] = float(value) if "." in value else int(value)
    player = TurnPlanner(seed, name=label, **kwargs)
    if changed:  # on the weights the planner read (its level's file, or ``weights=``)
        weights = {**player.w, **changed}
        if player.judge is player.w:
            player.judge = weights
        player.w = weights
    return player


def play_game(spec: GameSpec) -> dict[str, Any]:
    start = time.perf_counter()
    players = [Timed(make(name, spec.seed * 7919 + i, spec.game_id)) for i, name in enumerate(spec.players)]
    out = play_one(spec, players=list(players))
    out["seconds"] = time.perf_counter() - start
    out["think_seconds"] = [p.seconds for p in players]
    out["own_turns"] = [p.turns for p in players]
    out["decisions"] = [p.decisions for p in players]
    out["worst_turn_seconds"] = [p.worst_turn for p in players]
    return out


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("player")
    ap.add_argument("opponent")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--scenario", default=None, help="default: the game's own (C&C: first-samurai-skirmish)")
    ap.add_argument("--json", dest="json_path", help="also write every game's summary to this file")
    args = ap.parse_args(argv)
    if args.scenario is None:
        from kassen.rulesets.registry import load_game

        args.scenario = load_game(args.game).default_scenario()
    for name in (args.player, args.opponent):
        make(name, 0, args.game)
    a, b = args.player, args.opponent
    labels = [a, b] if a != b else [a, f"{b}'"]
    commit = git_commit()  # the code this run imported (HEAD may move while it runs)
    print(f"== {a} vs {b}: {args.games} games of {args.game} {args.scenario}, seeds {args.seed}.."
          f"{args.seed + args.games - 1}, sides swapped, commit {commit}", flush=True)
    results: list[dict[str, Any]] = []
    wins = draws = unfinished = 0
    think = [0.0, 0.0]
    turns = [0, 0]
    decisions = [0, 0]
    game_turns = 0
    worst = [0.0, 0.0]
    start = time.perf_counter()
    for i, spec in enumerate(specs(args.game, args.scenario, [a, b], args.games, args.seed, swap=True)):
        r = play_game(spec)
        results.append(r)
        me = 0 if i % 2 == 0 else 1  # the seat of the first player
        if r["reason"] == "unfinished":
            unfinished += 1
        elif r["winner_seat"] is None:
            draws += 1
        elif r["winner_seat"] == me:
            wins += 1
        for k, seat in enumerate((me, 1 - me)):
            think[k] += r["think_seconds"][seat]
            turns[k] += r["own_turns"][seat]
            decisions[k] += r["decisions"][seat]
            worst[k] = max(worst[k], r["worst_turn_seconds"][seat])
        game_turns += r["turns"] or 0
        won = "draw" if r["winner_seat"] is None else r["players"][r["winner_seat"]]
        lo, hi = wilson(wins, i + 1)
        print(f"  game {i + 1} seed {r['seed']} {' vs '.join(r['players'])}: {won} ({r['reason']}, turn {r['turns']}, "
              f"banners {r['banners']}, {r['seconds']:.0f}s) -- {a} {wins}/{i + 1}, 95% {lo:.0%}-{hi:.0%}", flush=True)
    n = len(results)
    lo, hi = wilson(wins, n)
    summary = {
        "player": a, "opponent": b, "game": args.game, "scenario": args.scenario, "games": n,
        "seeds": [args.seed, args.seed + n - 1], "commit": commit, "wins": wins, "draws": draws,
        "unfinished": unfinished, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi],
        "mean_turns": sum(r["turns"] or 0 for r in results) / max(1, n),
        "seconds_per_turn": {labels[k]: think[k] / max(1, turns[k]) for k in (0, 1)},
        "worst_turn_seconds": {labels[k]: worst[k] for k in (0, 1)},
        "seconds_per_decision": {labels[k]: think[k] / max(1, decisions[k]) for k in (0, 1)},
        # a game turn is one of each side's turns (An Honourable Victory!) or deployment rounds (clans)
        "seconds_per_game_turn": {labels[k]: think[k] / max(1, game_turns) for k in (0, 1)},
        "wall_seconds": time.perf_counter() - start,
    }
    print(json.dumps(summary, indent=1), flush=True)
    if args.json_path:
        Path(args.json_path).write_text(json.dumps({"summary": summary, "games": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
