"""CPU time of an OpenSpiel observation tensor (issue 34: <= 20 us a call on C&C and HV).

    .venv/bin/python benchmarks/openspiel_observe.py --game cc-samurai --games 3 --seed 1

Random games through the registered OpenSpiel game; at every state the current player's tensor
is asked once, three ways, each timed alone (``time.process_time`` around the call):
``state.observation_tensor(p)`` (Kassen's override: a fresh float32 array from the fast
observer), ``make_observation(game).set_from(state, p)`` (OpenSpiel's Python observer API, into
its own buffer) and pyspiel's C++ ``State.observation_tensor`` (a list, through pyspiel's
conversion; what C++ algorithms pay). Each mode plays its own copy of the same games.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

import kassen
import kassen.envs.openspiel as ko


def run(game_id: str, games: int, seed: int, mode: str, cap: int) -> tuple[int, float]:
    game = pyspiel.load_game(ko.short_name(game_id), {"seed": seed})
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    calls, cpu = 0, 0.0
    for g in range(games):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed + g)
        for _ in range(cap):
            if state.is_terminal():
                break
            p = state.current_player()
            t0 = time.process_time()
            if mode == "override":
                state.observation_tensor(p)
            elif mode == "make_observation":
                obs.set_from(state, p)
            else:
                pyspiel.State.observation_tensor(state, p)
            cpu += time.process_time() - t0
            calls += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
    return calls, cpu


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
