"""Join a newer balance report into the one the lobby ships, scenario by scenario.

    PYTHONPATH=src .venv/bin/python benchmarks/ship_balance.py NEW_DIR src/kassen/web/static/balance/cc-samurai \
        --command "kassen balance cc-samurai --all --games 200 ..." --seed 0 --games-planned 200 [--min-games 20]

Every scenario NEW_DIR's balance.json (a run, or ``kassen balance merge`` of a run still going)
has at least ``--min-games`` games of replaces the shipped one, with a new plot; the others keep
the shipped figures. Each scenario then carries its own ``date`` and ``command`` (the lobby shows
them), so a report joined from two runs never passes one run's games off as the other's.
The players must be the same.

What ships is compact (:func:`kassen.ai.balance.ship_report`): the statistics without the games
and one small SVG a scenario (:func:`kassen.ai.balance.write_summary_plot`); the full report,
every game and the large plots stay in NEW_DIR.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from kassen.ai.balance import ship_report, write_summary_plot


def join(new: dict[str, Any], shipped: dict[str, Any], command: str, min_games: int, seed: int,
         planned: int) -> tuple[dict[str, Any], list[str]]:
    """The joined report and the scenarios taken from ``new``."""
    if new["game"] != shipped["game"] or new["players"] != shipped["players"]:
        raise SystemExit(f"different game or players: {new['game']} {new['players']} "
                         f"against {shipped['game']} {shipped['players']}")
    out = dict(shipped)
    out["scenarios"], out["plots"] = {}, {}
    taken = []
    for sid, rep in shipped["scenarios"].items():
        fresh = new["scenarios"].get(sid)
        if fresh is not None and fresh["games"] >= min_games:
            out["scenarios"][sid] = {**fresh, "date": new["date"], "command": command, "seed": seed,
                                     "games_planned": planned}
            out["plots"][sid] = new.get("plots", {}).get(sid, [])
            taken.append(sid)
        else:
            out["scenarios"][sid] = {**rep, "date": rep.get("date", shipped["date"]),
                                     "command": rep.get("command", shipped["command"]),
                                     "seed": rep.get("seed", shipped["seed"]),
                                     "games_planned": rep.get("games_planned", shipped["games_per_scenario"])}
            out["plots"][sid] = shipped.get("plots", {}).get(sid, [])
    if taken:  # the report's own fields say what each scenario's are, where the runs differ
        out["date"], out["command"] = new["date"], command
        out["seed"] = out["games_per_scenario"] = None
    out["runs"] = [*shipped.get("runs", []), *({"date": new["date"], "command": command} for _ in taken[:1])]
    return out, taken


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("new", type=Path)
    ap.add_argument("shipped", type=Path)
    ap.add_argument("--command", required=True, help="the command of the run NEW_DIR reports on")
    ap.add_argument("--min-games", type=int, default=20)
    ap.add_argument("--seed", type=int, required=True, help="the first seed of that run")
    ap.add_argument("--games-planned", type=int, required=True, help="the games per scenario that run plays")
    args = ap.parse_args(argv)
    new = json.loads((args.new / "balance.json").read_text(encoding="utf-8"))
    shipped = json.loads((args.shipped / "balance.json").read_text(encoding="utf-8"))
    out, taken = join(new, shipped, args.command, args.min_games, args.seed, args.games_planned)
    for sid in taken:
        write_summary_plot(new["scenarios"][sid], args.shipped, sid)
    out = ship_report(out)
    (args.shipped / "balance.json").write_text(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n",
                                               encoding="utf-8")
    for sid, rep in out["scenarios"].items():
        print(f"{sid}: {rep['games']} of {rep['games_planned']} games ({'new' if sid in taken else 'kept'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
