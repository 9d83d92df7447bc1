"""Combine the JSON files of several `strength.py` series of the same pair (a long series
split by seed across processes) into one count with its 95% Wilson interval; a series file
(``benchmarks/results/NAME.jsonl``, ``benchmarks/series.py``) counts as its parts' files.

Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/combine.py benchmarks/results/hv-normal6b-greedy.jsonl
    PYTHONPATH=src .venv/bin/python benchmarks/combine.py /tmp/run/results-NAME-seeds*.json
"""

from __future__ import annotations

import json
import sys

import series

from kassen.ai.series import wilson


def main(paths: list[str]) -> int:
    games = wins = draws = unfinished = 0
    wins_by_seat = [0, 0]
    games_by_seat = [0, 0]
    think = [0.0, 0.0]
    decisions = [0, 0]
    game_turns = 0
    worst: dict[str, float] = {}
    commits: set[str] = set()
    seeds: list[int] = []
    players: tuple[str, str] = ("", "")
    for _, data in series.load_docs(paths):
        summ = data["summary"]
        players = (summ["player"], summ["opponent"])
        commits.add(summ["commit"])
        for k, v in summ["worst_turn_seconds"].items():
            worst[k] = max(worst.get(k, 0.0), v)
        for i, g in enumerate(data["games"]):
            me = 0 if i % 2 == 0 else 1  # strength.py: the first player sits at seat 0 in even games
            games += 1
            games_by_seat[me] += 1
            seeds.append(g["seed"])
            if g["reason"] == "unfinished":
                unfinished += 1
            elif g["winner_seat"] is None:
                draws += 1
            elif g["winner_seat"] == me:
                wins += 1
                wins_by_seat[me] += 1
            for k, seat in enumerate((me, 1 - me)):
                think[k] += g["think_seconds"][seat]
                decisions[k] += g.get("decisions", [0, 0])[seat]
            game_turns += g["turns"] or 0
    lo, hi = wilson(wins, games)
    out = {
        "player": players[0], "opponent": players[1], "games": games, "seeds": [min(seeds), max(seeds)],
        "commits": sorted(commits), "wins": wins, "draws": draws, "unfinished": unfinished,
        "win_rate": wins / max(1, games), "ci95": [lo, hi],
        "wins_as_seat0": f"{wins_by_seat[0]}/{games_by_seat[0]}", "wins_as_seat1": f"{wins_by_seat[1]}/{games_by_seat[1]}",
        "seconds_per_decision": [think[k] / max(1, decisions[k]) for k in (0, 1)],
        "seconds_per_game_turn": [think[k] / max(1, game_turns) for k in (0, 1)],
        "mean_game_turns": game_turns / max(1, games), "worst_turn_seconds": worst,
    }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
