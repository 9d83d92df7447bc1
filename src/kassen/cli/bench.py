"""``kassen bench``: throughput of seeded uniform-random playouts through the protocol.

Every decision is what a :class:`~kassen.ai.players.RandomPlayer` does: generate
``state.legal_actions()``, pick one uniformly, ``state.apply`` it. Game ``i`` of
the run is dealt with seed ``seed + i`` and its two random players use the seeds
:func:`kassen.ai.series.play_one` would give them, so a run is reproducible.

Timing and memory are measured separately, because tracing allocations slows
Python down several times:

* **timing** — one pass over all the games, nothing traced. ``seconds`` is the
  whole pass (setting up each game included); ``decisions_per_second`` divides by
  the time spent in the decisions only (legal actions + choice + apply). Wall-clock
  time: on a busy machine the figures drop; ``cpu_seconds`` and
  ``load_average_1min`` help to tell.
* **memory** — ``peak_memory_mb`` is the process's peak resident set size
  (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) after the timing pass: the
  interpreter, the imports and the playouts. ``traced_peak_mb`` is the
  ``tracemalloc`` peak of Python allocations while one more game (seed ``seed``)
  is set up and played, in a second, untimed pass.
"""

from __future__ import annotations

import os
import platform
import sys
import time
import tracemalloc
from typing import Any

from rich.table import Table

from kassen.ai.player import RandomPlayer
from kassen.engine.protocol import CHANCE, Game, State, sample_chance
from kassen.engine.rng import Rng
from kassen.rulesets.registry import default_game, load_game

#: a game still running after this many decisions is stopped and counted unfinished
MAX_DECISIONS = 20000


def machine_info() -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "processor": platform.processor() or _cpu_model() or "unknown",
        "machine": platform.machine(),
        "system": f"{platform.system()} {platform.release()}",
        "cpu_count": os.cpu_count(),
    }


def _cpu_model() -> str | None:
    """The CPU model from /proc/cpuinfo (``platform.processor()`` is empty on most Linuxes)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _load_average() -> float | None:
    """The 1-minute load average before the run: a busy machine gives lower figures."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def _peak_rss_mb() -> float | None:
    try:
        import resource
    except ImportError:  # Windows
        return None
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # kilobytes on Linux, bytes on macOS
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def play_random(game: Game, scenario: str | None, seed: int,
                max_decisions: int = MAX_DECISIONS) -> tuple[State, int, int, float]:
    """One seeded uniform-random game: (final state, decisions, chance steps, seconds in decisions).

    A ``CHANCE`` node (rulesets with explicit chance) is sampled from
    ``chance_outcomes()`` and counted as a chance step, not as a decision.
    """
    state = game.new_state(scenario, seed)
    players = [RandomPlayer(seed * 7919 + i) for i in range(len(state.seat_names()))]
    chance_rng = Rng(seed ^ 0x5EED)
    decisions = chance = 0
    clock = time.perf_counter
    start = clock()
    while decisions < max_decisions and chance < max_decisions:
        seat = state.to_move()
        if seat is None:
            break
        if seat == CHANCE:
            state = state.apply(sample_chance(state.chance_outcomes(), chance_rng))
            chance += 1
            continue
        state = state.apply(players[seat].choose(state, seat))
        decisions += 1
    return state, decisions, chance, clock() - start


def engine_build(game: Game) -> str:
    """``"compiled"`` when the game's rules run as compiled extension modules, else ``"python"``."""
    import sys

    module = sys.modules.get(type(game.new_state(None, 0)).__module__)
    path = getattr(module, "__file__", "") or ""
    return "compiled" if path.endswith((".so", ".pyd")) else "python"


def run_bench(game_id: str | None = None, scenario: str | None = None, games: int = 20, seed: int = 0,
              memory: bool = True) -> dict[str, Any]:
    """Play ``games`` seeded uniform-random games and measure throughput (and memory).

    ``game_id`` defaults to the default game. Raises ``KassenError`` for an unknown game or
    scenario (before anything is timed).
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    game = load_game(game_id) if game_id is not None else default_game().load()
    first = game.new_state(scenario, seed)  # bad scenario: fail now; also warms the caches
    scenario_id = getattr(first, "scenario_id", None) or scenario or game.default_scenario()

    decisions = chance = unfinished = 0
    decision_seconds = 0.0
    lengths: list[int] = []
    load = _load_average()
    cpu_start = time.process_time()
    start = time.perf_counter()
    for i in range(games):
        state, n, c, secs = play_random(game, scenario, seed + i)
        decisions += n
        chance += c
        decision_seconds += secs
        lengths.append(n)
        if not state.is_terminal():
            unfinished += 1
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start

    rss = _peak_rss_mb()
    traced = None
    if memory:
        was_tracing = tracemalloc.is_tracing()
        if not was_tracing:
            tracemalloc.start()
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        play_random(game, scenario, seed)
        _, peak = tracemalloc.get_traced_memory()
        if not was_tracing:
            tracemalloc.stop()
        traced = (peak - base) / (1024 * 1024)

    return {
        "game": game_id,
        "scenario": scenario_id,
        "games": games,
        "seed": seed,
        "decisions": decisions,
        "chance_steps": chance,
        "unfinished": unfinished,
        "mean_decisions_per_game": decisions / games,
        "min_decisions_per_game": min(lengths),
        "max_decisions_per_game": max(lengths),
        "seconds": seconds,
        "decision_seconds": decision_seconds,
        "setup_seconds": max(0.0, seconds - decision_seconds),
        "cpu_seconds": cpu_seconds,
        "decisions_per_second": decisions / decision_seconds if decision_seconds > 0 else 0.0,
        # CPU time, the figure to compare on a shared machine (set-up included: a little lower)
        "decisions_per_cpu_second": decisions / cpu_seconds if cpu_seconds > 0 else 0.0,
        "build": engine_build(game),
        "microseconds_per_decision": 1e6 * decision_seconds / decisions if decisions else 0.0,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
        "peak_memory_mb": rss,
        "peak_memory_method": "resource.getrusage(RUSAGE_SELF).ru_maxrss: peak RSS of the whole process, "
                              "measured after the timing pass",
        "traced_peak_mb": traced,
        "traced_peak_method": None if traced is None else
        "tracemalloc peak of Python allocations over one extra game (seed `seed`), in a separate untimed pass",
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": machine_info(),
        "load_average_1min": load,
    }


def bench_table(r: dict[str, Any], title: str) -> Table:
    """The Rich table ``kassen bench`` prints."""
    t = Table("measure", "value", title=title)
    t.add_row("decisions / second (legal actions + apply)", f"{r['decisions_per_second']:,.0f}")
    t.add_row("decisions / CPU second", f"{r['decisions_per_cpu_second']:,.0f} ({r['build']} build)")
    t.add_row("microseconds / decision", f"{r['microseconds_per_decision']:.0f}")
    t.add_row("games / second (set-up included)", f"{r['games_per_second']:.2f}")
    t.add_row("games (unfinished)", f"{r['games']} ({r['unfinished']})")
    t.add_row("decisions", f"{r['decisions']:,}")
    t.add_row("decisions / game (min-max)",
              f"{r['mean_decisions_per_game']:.0f} ({r['min_decisions_per_game']}-{r['max_decisions_per_game']})")
    if r["chance_steps"]:
        t.add_row("chance steps", f"{r['chance_steps']:,}")
    t.add_row("seconds (set-up + decisions)", f"{r['seconds']:.2f} ({r['setup_seconds']:.2f} + {r['decision_seconds']:.2f})")
    t.add_row("CPU seconds", f"{r['cpu_seconds']:.2f}")
    t.add_row("peak memory, process RSS", "-" if r["peak_memory_mb"] is None else f"{r['peak_memory_mb']:.1f} MB")
    if r["traced_peak_mb"] is not None:
        t.add_row("peak Python allocations, one game (tracemalloc)", f"{r['traced_peak_mb']:.2f} MB")
    m = r["machine"]
    t.add_row("machine", f"{m['processor']}, {m['machine']}, {m['cpu_count']} CPUs, {m['system']}")
    if r["load_average_1min"] is not None:
        t.add_row("load average before the run (1 min)", f"{r['load_average_1min']:.2f}")
    t.add_row("python", f"{r['implementation']} {r['python']}")
    return t


__all__ = ["MAX_DECISIONS", "bench_table", "machine_info", "play_random", "run_bench"]
