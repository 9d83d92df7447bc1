"""``kassen balance``: self-play balance reports of a game's scenarios (see :mod:`kassen.ai.balance`).

Also ``expand_ray_flag``: ``--ray`` takes an optional address, which Typer options
cannot; a bare ``--ray`` is rewritten to ``--ray local`` before the command line is parsed.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

#: ``--ray`` followed by one of these (or by something with a ``:``, like ``ray://head:10001``
#: or ``10.0.0.5:6379``) takes it as the cluster's address
RAY_WORDS = ("local", "auto")

RAY_HELP = ("Play the games as Ray tasks: bare --ray (or --ray local) starts a Ray instance on this machine "
            "for the run; --ray ADDRESS (auto, HOST:PORT, ray://HOST:10001) joins a running cluster.")


def expand_ray_flag(argv: list[str]) -> list[str]:
    """Give a bare ``--ray`` its default value, ``local``.

    >>> expand_ray_flag(["battle", "--ray", "--json"])
    ['battle', '--ray', 'local', '--json']
    >>> expand_ray_flag(["battle", "--ray", "cc-samurai"])
    ['battle', '--ray', 'local', 'cc-samurai']
    >>> expand_ray_flag(["battle", "--ray", "ray://head:10001", "--ray", "auto"])
    ['battle', '--ray', 'ray://head:10001', '--ray', 'auto']
    """
    out: list[str] = []
    for i, a in enumerate(argv):
        out.append(a)
        if a == "--ray":
            nxt = argv[i + 1] if i + 1 < len(argv) else None
            if nxt is None or not (nxt in RAY_WORDS or ":" in nxt):
                out.append("local")
    return out


def balance(
    game: Annotated[str, typer.Argument(help="Game id.")] = "cc-samurai",
    scenario: Annotated[str | None, typer.Argument(help="Scenario id; or --all.")] = None,
    all_scenarios: Annotated[bool, typer.Option("--all", help="Every scenario the game ships.")] = False,
    players: Annotated[str, typer.Option(help="The two computer players (seats swapped every other game).")] = "greedy,greedy",
    games: Annotated[int, typer.Option(min=1, help="Games per scenario.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of each scenario's first game (game i uses seed+i).")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Processes to play in parallel (without --ray).")] = 1,
    ray: Annotated[str | None, typer.Option("--ray", help=RAY_HELP)] = None,
    out: Annotated[Path, typer.Option("--out", help="Directory for balance.json and the plots.")] = Path("balance"),
    plots: Annotated[bool, typer.Option(help="Draw each scenario's plots (PNG and SVG).")] = True,
    resume: Annotated[bool, typer.Option("--resume", help="Keep the scenarios OUT/balance.json already has from "
                                         "a run with the same game, players, games and seed; play the others.")] = False,
) -> None:
    """Balance report: a seeded self-play series per scenario with the sides swapped; writes
    OUT/balance.json (win rate per side with 95% Wilson intervals, first-mover advantage, banners
    at the end, game length, which causes and cards won banners and games) and plots."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from kassen.ai.balance import run_balance, seat_players, write_plots
    from kassen.ai.players import make_player
    from kassen.cli.main import _game, fail
    from kassen.engine.errors import KassenError

    g = _game(game)
    if all_scenarios == (scenario is not None):
        fail("name one SCENARIO or give --all")
    todo = list(g.scenarios()) if all_scenarios else [str(scenario)]
    names = [p.strip() for p in players.split(",") if p.strip()]
    try:
        for sc in todo:
            n_seats = len(g.new_state(sc, seed).seat_names())
            if seat_players(names, n_seats) is None:
                fail(f"--players needs {n_seats} names for {sc} (or one name for every seat), got {len(names)}")
        for name in names:
            make_player(name, 0)
    except KassenError as exc:
        fail(str(exc))
    out.mkdir(parents=True, exist_ok=True)
    doc: dict[str, Any] = {
        "game": g.id,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
        "command": shlex.join(["kassen", *sys.argv[1:]]) if Path(sys.argv[0]).name in ("kassen", "__main__.py")
        else shlex.join(["kassen", "balance", game, *(["--all"] if all_scenarios else [str(scenario)]),
                         "--players", players, "--games", str(games), "--seed", str(seed), "--out", str(out)]),
        "players": names,
        "games_per_scenario": games,
        "seed": seed,
        "scenarios": {},
        "plots": {},
    }

    old = out / "balance.json"
    if resume and old.exists():
        prev = json.loads(old.read_text())
        if [prev.get(k) for k in ("game", "players", "games_per_scenario", "seed")] != [g.id, names, games, seed]:
            fail(f"{old} is of another run (game, players, games or seed differ); --resume needs the same")
        kept = [sc for sc in todo if sc in prev.get("scenarios", {})]
        doc["scenarios"] = {sc: prev["scenarios"][sc] for sc in kept}
        doc["plots"] = {sc: prev["plots"][sc] for sc in kept if sc in prev.get("plots", {})}
        doc["runs"] = [*prev.get("runs", [{"date": prev["date"], "command": prev["command"]}]),
                       {"date": doc["date"], "command": doc["command"]}]
        todo = [sc for sc in todo if sc not in doc["scenarios"]]

    def done(sc: str, report: dict[str, Any]) -> None:
        doc["scenarios"][sc] = report
        if plots:
            doc["plots"][sc] = write_plots(report, out)
        (out / "balance.json").write_text(json.dumps(doc, indent=1) + "\n")

    err = Console(stderr=True, highlight=False)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, disable=not err.is_terminal) as progress:
        task = progress.add_task(f"{len(todo)} scenarios", total=games * len(todo))
        try:
            run_balance(game, todo, names, games, seed, workers=workers, ray=ray,
                        on_game=lambda r: progress.advance(task), on_scenario=done)
        except KassenError as exc:  # Ray could not start or reach its cluster
            fail(str(exc))
    (out / "balance.json").write_text(json.dumps(doc, indent=1) + "\n")
    for sc, rep in doc["scenarios"].items():
        rates = ", ".join(f"{s} {w['rate']:.0%} [{w['ci95'][0]:.0%}-{w['ci95'][1]:.0%}]"
                          for s, w in rep["win_rate_by_side"].items())
        err.print(f"{sc}: {rates}; mean {rep['length']['turns']['mean']:.0f} turns")
    err.print(f"wrote {out / 'balance.json'}")
