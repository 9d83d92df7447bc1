"""Where the time of a uniform-random playout goes (C&C Samurai).

Two views, because cProfile's per-call overhead inflates functions that are
called very often (hex names, dictionary look-ups) several times over:

* ``--mode cprofile``: cProfile over ``--games`` games of ``kassen bench``'s
  playout loop; the top functions by own time and by cumulative time.
* ``--mode phases``: no profiler. The games are recorded, then every recorded
  decision is re-applied step by step with a timer around each part of
  ``CCState.apply``: the clone, the ``_act_<task>`` handler of the pending task,
  and each ``_auto_<task>`` step of ``advance`` (kassen.engine.tasks) (where the legal actions of the
  next decision are generated). Minimum of ``--repeat`` passes. This reaches into
  private methods of ``CCState`` on purpose; it is a measuring tool, not an API.

Usage (from the project root)::

    .venv/bin/python benchmarks/profile_playouts.py --games 20 --mode cprofile
    .venv/bin/python benchmarks/profile_playouts.py --games 6 --mode phases
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from collections import defaultdict
from typing import Any

from kassen.ai.players import RandomPlayer
from kassen.cli.bench import play_random
from kassen.rulesets.registry import load_game


def profile(game: Any, scenario: str | None, games: int, seed: int, top: int) -> None:
    game.new_state(scenario, seed)  # imports and tables outside the profile
    prof = cProfile.Profile()
    prof.enable()
    decisions = 0
    for i in range(games):
        decisions += play_random(game, scenario, seed + i)[1]
    prof.disable()
    out = io.StringIO()
    st = pstats.Stats(prof, stream=out)
    # own times summed, or the outermost cumulative time if larger (they differ by rounding)
    total = max(st.total_tt, max(v[3] for v in st.stats.values()))  # type: ignore[attr-defined]
    print(f"cProfile: {games} games, {decisions} decisions, {total:.2f}s profiled "
          f"({1e6 * total / decisions:.0f} us/decision under the profiler)")
    for key, title in (("tottime", "own time"), ("cumulative", "cumulative time")):
        print(f"\nTop {top} by {title} (share of the profiled total):")
        rows = sorted(st.stats.items(), key=lambda kv: kv[1][2 if key == "tottime" else 3], reverse=True)  # type: ignore[attr-defined]
        for (file, line, fn), (_cc, ncalls, tt, ct, _callers) in rows[:top]:
            where = file.split("/src/")[-1] if "/src/" in file else file.rsplit("/", 1)[-1]
            t = tt if key == "tottime" else ct
            print(f"  {100 * t / total:5.1f}%  {t:7.3f}s  {ncalls:9d} calls  {where}:{line}({fn})")


def phases(game: Any, scenario: str | None, games: int, seed: int, repeat: int) -> None:
    pairs = []
    for i in range(games):
        s = game.new_state(scenario, seed + i)
        players = [RandomPlayer((seed + i) * 7919 + k) for k in range(len(game.seats))]
        while not s.is_terminal():
            seat = s.to_move()
            a = players[seat].choose(s, seat)
            pairs.append((s, a))
            s = s.apply(a)
    n = len(pairs)
    pc = time.perf_counter

    def best(fn: Any) -> float:
        return min(fn() for _ in range(repeat))

    def t_apply() -> float:
        t = pc()
        for s, a in pairs:
            s.apply(a)
        return pc() - t

    def t_legal_copy() -> float:
        t = pc()
        for s, _ in pairs:
            s.legal_actions()
        return pc() - t

    def t_regen() -> float:
        t = pc()
        for s, _ in pairs:
            task = s.stack[-1]
            getattr(s, f"_legal_{task['t']}")(task)
        return pc() - t

    total = best(t_apply)
    print(f"phases: {games} games, {n} decisions; apply {1e6 * total / n:.1f} us/decision = "
          f"{n / total:,.0f} decisions/s (apply only, min of {repeat})")
    for label, fn in (("legal_actions() (the cached list, copied)", t_legal_copy),
                      ("legal actions regenerated from scratch", t_regen)):
        v = best(fn)
        print(f"  {label:44s} {1e6 * v / n:6.1f} us/decision")
    # the copy apply makes: the copy-on-write fork (and its tasks owned before a handler runs,
    # as CCState.run_action/advance do), or clone() in engines before it
    copy_label = "fork" if hasattr(pairs[0][0], "_fork") else "clone"

    def fork(s: Any) -> Any:
        return s._fork() if copy_label == "fork" else s.clone()

    def own_top(s: Any) -> Any:
        return s.own_top() if copy_label == "fork" else s.stack[-1]

    # one pass with a timer around each part of apply; the fastest of `repeat` passes is shown
    best_pass: tuple[float, dict[str, float], dict[str, int]] | None = None
    for _ in range(repeat):
        spent: dict[str, float] = defaultdict(float)
        calls: dict[str, int] = defaultdict(int)
        for s0, a in pairs:
            t = pc()
            s = fork(s0)
            spent[copy_label] += pc() - t
            calls[copy_label] += 1
            task = own_top(s)
            k = "act " + task["t"]
            t = pc()
            getattr(s, f"_act_{task['t']}")(task, a)
            spent[k] += pc() - t
            calls[k] += 1
            while s._result is None and s.stack:
                task = own_top(s)
                auto = getattr(s, f"_auto_{task['t']}", None)
                if auto is None:
                    break
                k = "auto " + task["t"] + (f"/{task['step']}" if task["t"] in ("end", "combat") else "")
                t = pc()
                more = auto(task)
                spent[k] += pc() - t
                calls[k] += 1
                if not more:
                    break
        pass_total = sum(spent.values())
        if best_pass is None or pass_total < best_pass[0]:
            best_pass = (pass_total, spent, calls)
    assert best_pass is not None
    pass_total, spent, calls = best_pass
    print(f"  timed parts of apply ({copy_label} + _act_<pending task> + the _auto_<task> steps of advance, where the "
          f"next legal actions are generated): {1e6 * pass_total / n:.1f} us/decision; share of that:")
    for k in sorted(spent, key=spent.__getitem__, reverse=True)[:16]:
        print(f"    {k:22s} {100 * spent[k] / pass_total:5.1f}%  {calls[k]:6d} calls  "
              f"{1e6 * spent[k] / calls[k]:6.1f} us/call  {1e6 * spent[k] / n:5.1f} us/decision")
    pending: dict[str, int] = defaultdict(int)
    for s, _ in pairs:
        task = s.stack[-1]
        pending[task["t"] + (f"/{task['step']}" if task["t"] == "end" else "")] += 1
    print("  decisions by pending task:", ", ".join(f"{k} {v}" for k, v in sorted(pending.items(), key=lambda kv: -kv[1])))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--scenario", default=None, help="default: the introductory battle")
    ap.add_argument("--mode", choices=("cprofile", "phases", "both"), default="both")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--repeat", type=int, default=3, help="passes of the phase timing (the minimum is kept)")
    args = ap.parse_args()
    game = load_game(args.game)
    if args.mode in ("cprofile", "both"):
        profile(game, args.scenario, args.games, args.seed, args.top)
    if args.mode in ("phases", "both"):
        if args.mode == "both":
            print()
        phases(game, args.scenario, args.games, args.seed, args.repeat)


if __name__ == "__main__":
    main()
