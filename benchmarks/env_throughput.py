"""Steps per CPU-second of the AEC loop a researcher writes (issue 34), against the engine alone.

    .venv/bin/python benchmarks/env_throughput.py --game cc-samurai --games 10 --seed 0

The loop measured is the one ``docs/research.md`` shows (``docs_loop`` below, the same code with
the pick of the action as a function, ``PICKS``):
every step reads the acting seat's observation tensor and mask from ``env.last()`` and picks a
uniformly random legal action by scanning the mask (read as ``bool``). Two variants are timed
too: ``int8`` (the same loop scanning the ``int8`` mask itself, the docs' loop before issue 34)
and ``legal_ints`` (the action drawn from ``info["legal_ints"]``, no scan). ``engine`` plays
random games on the protocol alone (``kassen bench``'s loop, with the envs' game options). The
issue's targets, in steps per CPU-second: cc-samurai >= 25,000, clans (2 players) >= 20,000, honourable-victory >= 4,000.

Figures are CPU seconds (``time.process_time``). The loops run game by game in turn (engine game
i, docs game i, int8 game i, legal_ints game i, ...), so all see the same load on a shared
machine. The env is made once and reset for every game (as a training loop uses it); making it
is not timed. Each loop plays its own random games (seeded): steps per CPU-second is the figure.
``--skip-single 1`` makes the env with ``skip_single=True`` (decisions with one legal action played
by the env: fewer agent steps a game, each with a choice; the engine loop still plays them all).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import kassen
import kassen.envs
from kassen.envs.core import env_options
from kassen.rulesets.registry import load_game


def _bool_scan(obs: Any, info: dict[str, Any], rng: np.random.Generator) -> int:
    """The docs' pick: scan the mask read as ``bool`` (no copy, a fast scan)."""
    legal = np.flatnonzero(obs["action_mask"].view(bool))
    return int(legal[rng.integers(len(legal))])


def _int8_scan(obs: Any, info: dict[str, Any], rng: np.random.Generator) -> int:
    """The docs' pick before issue 34: scan the ``int8`` mask itself."""
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def _legal_ints(obs: Any, info: dict[str, Any], rng: np.random.Generator) -> int:
    """No scan: draw from ``info["legal_ints"]`` (the observation is still taken)."""
    legal = info["legal_ints"]
    return int(legal[int(rng.integers(len(legal)))])


#: how each variant of the docs' loop picks its random legal action
PICKS = {"docs": _bool_scan, "int8": _int8_scan, "legal_ints": _legal_ints}


def docs_loop(env: Any, seed: int, pick: Callable[[Any, dict[str, Any], np.random.Generator], int] = _bool_scan) -> int:
    """The loop of docs/research.md ("PettingZoo"), the action picked by ``pick`` (``PICKS``; the
    default is the docs' own); returns the actions played."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = pick(obs, info, rng)
            steps += 1
        env.step(action)
    return steps


def engine_game(game: str, seed: int) -> tuple[int, float]:
    """One random game on the protocol alone (with the envs' options): (actions, CPU seconds)."""
    g = load_game(game)
    rng = random.Random(seed)
    decisions, t0 = 0, time.process_time()
    s = g.new_state(None, seed, **env_options(g.id, {}))
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
        decisions += 1
    return decisions, time.process_time() - t0


def env_game(env: Any, seed: int) -> tuple[int, float]:
    """The engine's game of ``seed`` through ``env`` (the same choices, from the notation in
    ``info["legal_actions"]``): (actions, CPU seconds). ``benchmarks/env_parts.py`` splits it."""
    rng = random.Random(seed)
    match = env.unwrapped.match
    decisions, t0 = 0, time.process_time()
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = info["legal_actions"]
        choice = rng.choice(legal)  # the same choice the engine run makes
        code = match.ints()[legal.index(choice)]
        assert obs["action_mask"][code] and obs["observation"].shape
        env.step(code)
        decisions += 1
    return decisions, time.process_time() - t0


def env_args(doc: str | None, games: int, **more: int) -> argparse.Namespace:
    """The env benchmarks' arguments: ``--game``, ``--games`` (default ``games``), ``--seed`` (the
    first game's; the others follow), and the integer options ``more`` (name -> default)."""
    ap = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--seed", type=int, default=0)
    for name, default in more.items():
        ap.add_argument(f"--{name}", type=int, default=default)
    return ap.parse_args()


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=False).stdout.strip()
    except OSError:
        return ""


def main() -> None:
    a = env_args(__doc__, 10, **{"skip-single": 0})
    # made once (its action index and encoder too), not timed; --skip-single 1: the env option
    env = kassen.envs.aec_env(a.game, skip_single=bool(a.skip_single))
    docs_loop(env, a.seed + 10_000)  # the first-use caches (rules, observer, masks), not timed
    engine_game(a.game, a.seed)
    loops: dict[str, Callable[[int], int]] = {"engine": lambda s: engine_game(a.game, s)[0]}
    for name, pick in PICKS.items():
        loops[name] = lambda s, pick=pick: docs_loop(env, s, pick)  # type: ignore[misc]
    steps = dict.fromkeys(loops, 0)
    cpu = dict.fromkeys(loops, 0.0)
    for i in range(a.games):
        for name, run in loops.items():
            t0 = time.process_time()
            steps[name] += run(a.seed + i)
            cpu[name] += time.process_time() - t0
    print(json.dumps({"game": a.game, "games": a.games, "seed": a.seed, "skip_single": bool(a.skip_single),
                      "build": kassen.build(), "commit": _commit(),
                      **{name: {"steps": steps[name], "cpu_s": round(cpu[name], 2),
                                "steps_per_cpu_s": round(steps[name] / cpu[name])} for name in loops}},
                     indent=1))


if __name__ == "__main__":
    main()
