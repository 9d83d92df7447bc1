"""CPU time of an OpenSpiel observation tensor (issue 34: <= 20 us a call on C&C and HV).

    .venv/bin/python benchmarks/openspiel_observe.py --game cc-samurai --games 3 --seed 1

Random games through the registered OpenSpiel game, their states kept; then the current player's
tensor of every state is asked once, in the games' order, three ways, each way one timed loop
(``time.process_time`` around the loop):
``state.observation_tensor(p)`` (Kassen's override: a fresh float32 array from the fast
observer), ``make_observation(game).set_from(state, p)`` (OpenSpiel's Python observer API, into
its own buffer) and pyspiel's C++ ``State.observation_tensor`` (a list, through pyspiel's
conversion; what C++ algorithms pay). Each mode makes the game again and plays the same games.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

import kassen
import kassen.envs.openspiel as ko


def states_of(game: Any, games: int, seed: int, cap: int) -> list[tuple[Any, int]]:
    """The states of ``games`` random games (at most ``cap`` each) with their current player."""
    out = []
    for g in range(games):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed + g)
        for _ in range(cap):
            if state.is_terminal():
                break
            out.append((state, state.current_player()))
            state = state.child(int(rng.choice(state.legal_actions())))
    return out


def run(game_id: str, games: int, seed: int, mode: str, cap: int) -> tuple[int, float]:
    """The CPU seconds of one call per state of the games, in the games' order, in one timed loop
    (a clock read around each call would add its own cost, a microsecond or so, to each)."""
    game = pyspiel.load_game(ko.short_name(game_id), {"seed": seed})
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    states = states_of(game, games, seed, cap)
    for state, _p in states:
        state.kassen_state  # noqa: B018 (made now, not in the timed loop)
    if mode == "override":
        t0 = time.process_time()
        for state, p in states:
            state.observation_tensor(p)
    elif mode == "make_observation":
        t0 = time.process_time()
        for state, p in states:
            obs.set_from(state, p)
    else:
        t0 = time.process_time()
        for state, p in states:
            pyspiel.State.observation_tensor(state, p)
    return len(states), time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cap", type=int, default=800, help="states per game at most")
    a = ap.parse_args()
    out = {"game": a.game, "games": a.games, "seed": a.seed, "build": kassen.build()}
    for mode in ("override", "make_observation", "cxx_list"):
        calls, cpu = run(a.game, a.games, a.seed, mode, a.cap)
        out[mode] = {"calls": calls, "us_per_call": round(cpu / calls * 1e6, 1)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
