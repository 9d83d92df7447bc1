"""Where the PettingZoo env's time per decision goes (issue 16), CPU time:

    .venv/bin/python benchmarks/env_parts.py --games 10 [--game cc-samurai]

The same games as ``env_throughput.py`` (engine game i, then env game i), played several ways: the
env as it is; the env with a free observation (a zero array made once, so the rest is the
PettingZoo loop, the legal actions' integers and the mask), and that loop taken apart (the engine
and the legal actions' integers looked up in the action index; the match alone: actions played by their integers, the legal actions' integers; then with the mask; then
the AEC core's ``last`` and ``step`` without PettingZoo's wrapper); and the env as it is with
``process_time_ns`` around each observation (``Match.observe_state``), for its CPU time inside
the loop (less the clock's own cost between two readings, ``clock_us``), also by kind of decision
(the ``t`` of the state's top task). Then the mask alone:
``Match.mask`` over the states of the first game, in a row, its view dropped each time.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from env_throughput import engine_game, env_args, env_game

import kassen
import kassen.envs


def _run(game: str, env: Any, games: int, seed: int,
         play: Callable[[Any, int], tuple[int, float]] = env_game) -> dict[str, float]:
    """The engine's games against ``play``'s (the env loop, or a part of it), in turn."""
    e = v = 0.0
    d = 0
    for i in range(games):
        n1, t1 = engine_game(game, seed + i)
        n2, t2 = play(env, seed + i)
        assert n1 == n2
        e, v, d = e + t1, v + t2, d + n1
    return {"engine_us": round(e / d * 1e6, 1), "env_us": round(v / d * 1e6, 1), "ratio": round(v / e, 2)}


#: game id -> its action index as a dict (notation -> integer), made once
_IDS: dict[str, dict[str, int]] = {}


#: game id -> the actions met in play -> their integers (as ``Match._hot``), kept across games
_HOT: dict[str, dict[str, int]] = {}


def ints_game(env: Any, seed: int, cached: bool = False) -> tuple[int, float]:
    """The engine's game, and the integers of each state's legal actions looked up in the action
    index (``cached``: first in a dict of the actions met in play, as ``Match`` does): what the
    look-ups cost in the loop."""
    m = env.unwrapped.match
    gid = m.game.id
    ids = _IDS.get(gid) or _IDS.setdefault(gid, {a: i for i, a in enumerate(m.index.actions)})
    hot = _HOT.setdefault(gid, {})
    rng = random.Random(seed)
    decisions, t0 = 0, time.process_time()
    s = m.game.new_state(None, seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        if cached:
            ints = []
            for a in legal:
                i = hot.get(a)
                if i is None:
                    i = hot[a] = ids[a]
                ints.append(i)
        else:
            ints = [ids[a] for a in legal]
        assert len(ints) == len(legal)
        s = s.apply(rng.choice(legal))
        decisions += 1
    return decisions, time.process_time() - t0


def cached_ints_game(env: Any, seed: int) -> tuple[int, float]:
    """``ints_game`` through the cache of the actions met in play."""
    return ints_game(env, seed, True)


def match_game(env: Any, seed: int) -> tuple[int, float]:
    """The env's ``Match`` alone: an action played by its integer, the state's legal actions and
    their integers (as ``env_game`` picks), no mask, no observation, no PettingZoo."""
    rng = random.Random(seed)
    m = env.unwrapped.match
    decisions, t0 = 0, time.process_time()
    m.reset(seed)
    while not m.state.is_terminal():
        legal = m.legal()
        m.play(m.ints()[legal.index(rng.choice(legal))])
        decisions += 1
    return decisions, time.process_time() - t0


def mask_game(env: Any, seed: int) -> tuple[int, float]:
    """``match_game`` and the mask of the seat to move."""
    rng = random.Random(seed)
    m = env.unwrapped.match
    decisions, t0 = 0, time.process_time()
    m.reset(seed)
    while not m.state.is_terminal():
        mask = m.mask(m.mover())
        legal = m.legal()
        code = m.ints()[legal.index(rng.choice(legal))]
        assert mask[code]
        m.play(code)
        decisions += 1
    return decisions, time.process_time() - t0


def core_game(env: Any, seed: int) -> tuple[int, float]:
    """The env's AEC core (``last``, ``step``, the infos, rewards...) without PettingZoo's wrapper
    and agent iterator."""
    rng = random.Random(seed)
    core = env.unwrapped.core
    ints = env.unwrapped.match.ints
    decisions, t0 = 0, time.process_time()
    core.reset(seed)
    while core.agents:
        obs, _r, terminated, truncated, info = core.last()
        if terminated or truncated:
            core.step(None)
            continue
        legal = info["legal_actions"]
        code = ints()[legal.index(rng.choice(legal))]
        assert obs["action_mask"][code] and obs["observation"].shape
        core.step(code)
        decisions += 1
    return decisions, time.process_time() - t0


def main() -> None:
    a = env_args(__doc__, 10)
    env = kassen.envs.aec_env(a.game)
    match = env.unwrapped.match
    engine_game(a.game, a.seed)
    out: dict[str, Any] = {"game": a.game, "games": a.games, "seed": a.seed, "build": kassen.build()}
    out["env"] = _run(a.game, env, a.games, a.seed)
    observe = match.observe_state
    zero = np.zeros(match.encoder.size, np.float32)
    match.observe_state = lambda st, seat: zero
    out["env_free_observation"] = _run(a.game, env, a.games, a.seed)
    # the free observation's loop taken apart: the match alone, with the mask, the AEC core
    for name, play in (("engine_and_ints", ints_game), ("engine_and_cached_ints", cached_ints_game),
                       ("match_only", match_game), ("match_and_mask", mask_game), ("aec_core", core_game)):
        out[name] = _run(a.game, env, a.games, a.seed, play)
    spent = {"observe": 0}
    clock = time.process_time_ns
    #: per kind of decision to observe (the ``t`` of the state's top task): calls and CPU ns
    kinds: dict[str, list[int]] = {}

    def timed_observe(st: Any, seat: int) -> np.ndarray:
        t = clock()
        r = observe(st, seat)
        ns = clock() - t
        spent["observe"] += ns
        stack = getattr(st, "stack", None)
        kind = str(stack[-1].get("t")) if stack and isinstance(stack[-1], dict) else "-"
        got = kinds.setdefault(kind, [0, 0])
        got[0] += 1
        got[1] += ns
        return r

    match.observe_state = timed_observe
    d = sum(env_game(env, a.seed + i)[0] for i in range(a.games))
    match.observe_state = observe
    # what the clock itself adds to each timed call (a syscall: microseconds on a loaded machine)
    ticks = [clock() for _ in range(20001)]
    clock_ns = sum(b - a for a, b in zip(ticks, ticks[1:])) / 20000
    out["clock_us"] = round(clock_ns / 1000, 2)
    out["in_loop_us"] = {k: round((v / d - clock_ns) / 1000, 1) for k, v in spent.items()}
    # where the observation's time goes by kind of decision: the first decision of a seat's turn
    # sees everything the other seat did since it last looked
    out["in_loop_by_decision"] = {k: {"calls": n, "us": round((ns / n - clock_ns) / 1000, 1),
                                      "share": round(ns / spent["observe"], 2)}
                                  for k, (n, ns) in sorted(kinds.items(), key=lambda kv: -kv[1][1])}
    states = []
    match.reset(a.seed)
    rng = random.Random(a.seed)
    while not match.state.is_terminal():
        states.append(match.state)
        match.play(rng.choice(match.legal()))
    t = time.process_time()
    for st in states:
        match.state = st
        match.mask(st.to_move())
    out["mask_us"] = round((time.process_time() - t) / len(states) * 1e6, 2)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
