"""``kassen balance``: self-play balance reports of a game's scenarios (see :mod:`kassen.ai.balance`).

Also :class:`OptionalValueCommand`: ``--ray`` takes an optional address, which Typer options
cannot; the commands that have it (``battle``, ``balance``) read a bare ``--ray`` as ``--ray local``
when they parse their arguments.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from kassen.cli.common import fail, spec
from kassen.engine.errors import KassenError

#: ``--ray`` followed by one of these (or by something with a ``:``, like ``ray://head:10001``
#: or ``10.0.0.5:6379``) takes it as the cluster's address
RAY_WORDS = ("local", "auto")

RAY_HELP = ("Play the games as Ray tasks: bare --ray (or --ray local) starts a Ray instance on this machine "
            "for the run; --ray ADDRESS (auto, HOST:PORT, ray://HOST:10001) joins a running cluster.")


def give_ray_its_default(args: list[str]) -> list[str]:
    """A command's arguments with a bare ``--ray`` given its default value, ``local``.

    >>> give_ray_its_default(["--ray", "--json"])
    ['--ray', 'local', '--json']
    >>> give_ray_its_default(["--ray", "clans"])
    ['--ray', 'local', 'clans']
    >>> give_ray_its_default(["--ray", "ray://head:10001", "--ray", "auto"])
    ['--ray', 'ray://head:10001', '--ray', 'auto']

    Any other word after ``--ray`` that is not a game, a scenario or a file is taken as the
    address, so that a malformed one is named as such (issue 34) rather than read as a scenario:

    >>> give_ray_its_default(["--ray", "garbage"])
    ['--ray', 'garbage']
    """
    out: list[str] = []
    for i, a in enumerate(args):
        out.append(a)
        if a == "--ray":
            nxt = args[i + 1] if i + 1 < len(args) else None
            if nxt is None or not (nxt in RAY_WORDS or ":" in nxt or _not_positional(nxt)):
                out.append("local")
    return out


def _not_positional(word: str) -> bool:
    """Whether ``word`` cannot be a game, scenario or file argument (then it is ``--ray``'s)."""
    if word.startswith("-") or Path(word).exists():
        return False
    from kassen.rulesets.registry import available, load_game

    return not any(word == gid or word in load_game(gid).scenarios() for gid in available())


class OptionalValueCommand(TyperCommand):
    """A command whose ``--ray`` option may be given without a value (then ``local``)."""

    # ``Any``: Typer's Click is its own vendored copy, whose types it does not export
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, give_ray_its_default(args))


def balance(
    game: Annotated[str | None, typer.Argument(help="Game id (default: the default game).", show_default=False)] = None,
    scenario: Annotated[str | None, typer.Argument(help="Scenario id; or --all.")] = None,
    all_scenarios: Annotated[bool, typer.Option("--all", help="Every scenario the game ships.")] = False,
    players: Annotated[str, typer.Option(help="The computer players, one per seat or one for all (seats swapped every other game); a name or module:function (your own).")] = "greedy,greedy",
    games: Annotated[int, typer.Option(min=1, help="Games per scenario.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of each scenario's first game (game i uses seed+i).")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Processes to play in parallel (without --ray).")] = 1,
    ray: Annotated[str | None, typer.Option("--ray", help=RAY_HELP)] = None,
    out: Annotated[Path, typer.Option("--out", help="Directory for balance.json and the plots.")] = Path("balance"),
    plots: Annotated[bool, typer.Option(help="Draw each scenario's plots (PNG and SVG).")] = True,
    resume: Annotated[bool, typer.Option("--resume", help="Keep the scenarios OUT/balance.json already has from "
                                         "a run with the same game, players, games and seed, and the games "
                                         "OUT/games/<scenario>.jsonl already has; play the rest.")] = False,
) -> None:
    """Balance report: a seeded self-play series per scenario with the sides swapped; writes
    OUT/balance.json (win rate per side with 95% Wilson intervals, first-mover advantage, banners
    at the end, game length, which causes and cards won banners and games) and plots. Every
    finished game is kept in OUT/games/<scenario>.jsonl as the run goes, so --resume goes on
    from the last finished game; runs over disjoint seeds merge with ``kassen balance merge``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from kassen.ai.balance import games_header, read_games, run_balance, seat_players, write_plots
    from kassen.ai.players import make_player

    g = spec(game).load()
    game = g.id
    if all_scenarios and scenario is not None:
        fail("name one SCENARIO or give --all, not both")
    if not all_scenarios and scenario is None:  # as battle and bench: the introductory battle
        scenario = g.default_scenario() or next(iter(g.scenarios()), None)
        if scenario is None:
            fail(f"{g.id} has no scenario to play")
    todo = list(g.scenarios()) if all_scenarios else [str(scenario)]
    names = [p.strip() for p in players.split(",") if p.strip()]
    try:
        if ray is not None:  # a bad address fails now, in one line
            from kassen.ai.distributed import check_address

            check_address(ray)
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

    # every finished game, one JSON line each, after a header naming the series
    gdir = out / "games"
    gdir.mkdir(exist_ok=True)
    played: dict[str, list[dict[str, Any]]] = {}
    for sc in todo:
        path = gdir / f"{sc}.jsonl"
        header = games_header(g.id, sc, seat_players(names, len(g.new_state(sc, seed).seat_names())) or names, seed)
        if resume and path.exists():
            try:
                head, rows = read_games(path)
            except KassenError as exc:
                fail(str(exc))
            if head != header:
                fail(f"{path} is of another run (game, scenario, players or seed differ); --resume needs the same")
            played[sc] = [r for r in rows if seed <= r["seed"] < seed + games]
        else:
            played[sc] = []
        # rewritten whole: a line cut short by a stop is dropped, the games kept stay
        path.write_text("".join(json.dumps(r) + "\n" for r in [header, *played[sc]]), encoding="utf-8")

    def keep(sc: str, result: dict[str, Any]) -> None:
        with open(gdir / f"{sc}.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(result) + "\n")

    def done(sc: str, report: dict[str, Any]) -> None:
        doc["scenarios"][sc] = report
        if plots:
            doc["plots"][sc] = write_plots(report, out)
        (out / "balance.json").write_text(json.dumps(doc, indent=1) + "\n")

    err = Console(stderr=True, highlight=False)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, disable=not err.is_terminal) as progress:
        task = progress.add_task(f"{len(todo)} scenarios", total=games * len(todo))
        progress.advance(task, sum(len(v) for v in played.values()))
        try:
            run_balance(game, todo, names, games, seed, workers=workers, ray=ray,
                        on_game=lambda r: progress.advance(task), on_scenario=done, done=played, on_result=keep)
        except KassenError as exc:  # Ray could not start or reach its cluster
            fail(str(exc))
    (out / "balance.json").write_text(json.dumps(doc, indent=1) + "\n")
    for sc, rep in doc["scenarios"].items():
        rates = ", ".join(f"{s} {w['rate']:.0%} [{w['ci95'][0]:.0%}-{w['ci95'][1]:.0%}]"
                          for s, w in rep["win_rate_by_side"].items())
        err.print(f"{sc}: {rates}; mean {rep['length']['turns']['mean']:.0f} turns")
    err.print(f"wrote {out / 'balance.json'}")


def balance_merge(
    runs: Annotated[list[Path], typer.Argument(help="Output directories of balance runs (with their games/).")],
    out: Annotated[Path, typer.Option("--out", help="Directory for the merged balance.json, games and plots.")],
    plots: Annotated[bool, typer.Option(help="Draw each scenario's plots (PNG and SVG).")] = True,
) -> None:
    """Merge balance runs of the same game and players over disjoint seeds (run on other cores,
    machines or sessions) into one report, equal to the report of one run over all those seeds.
    Also ``kassen balance merge OUT1 OUT2 ... --out DIR``."""
    from kassen.ai.balance import full_report, merge_games, read_games, write_plots

    by_sc: dict[str, list[tuple[str, dict[str, Any], list[dict[str, Any]]]]] = {}
    docs = []
    try:
        for d in runs:
            files = sorted((d / "games").glob("*.jsonl"))
            if not files:
                fail(f"{d} has no games/*.jsonl (a run of an older Kassen keeps only whole scenarios)")
            docs.append(json.loads((d / "balance.json").read_text()) if (d / "balance.json").exists() else {})
            for f in files:
                head, rows = read_games(f)
                by_sc.setdefault(head["scenario"], []).append((str(d), head, rows))
        games = {h["game"] for v in by_sc.values() for _, h, _ in v}
        if len(games) != 1:
            fail(f"cannot merge runs of different games: {', '.join(sorted(games))}")
        game = games.pop()
        merged = {sc: merge_games(v) for sc, v in by_sc.items()}
        bases = {b for b, _ in merged.values()}
        counts = {len(rows) for _, rows in merged.values()}
        players = docs[0].get("players") or by_sc[next(iter(by_sc))][0][1]["players"]
        for d, doc in zip(runs, docs):
            if doc and doc.get("players") != players:
                fail(f"cannot merge: {runs[0]} and {d} have different players ({players} and {doc.get('players')})")
        out.mkdir(parents=True, exist_ok=True)
        (out / "games").mkdir(exist_ok=True)
        doc = {
            "game": game,
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
            "command": shlex.join(["kassen", "balance", "merge", *map(str, runs), "--out", str(out)]),
            "players": players,
            "games_per_scenario": counts.pop() if len(counts) == 1 else None,
            "seed": bases.pop() if len(bases) == 1 else None,
            "merged_from": [{"dir": str(d), "date": doc.get("date"), "command": doc.get("command")}
                            for d, doc in zip(runs, docs)],
            "scenarios": {},
            "plots": {},
        }
        for sc, (base, rows) in merged.items():
            head = {**by_sc[sc][0][1], "seed": base}
            (out / "games" / f"{sc}.jsonl").write_text(
                "".join(json.dumps(r) + "\n" for r in [head, *rows]), encoding="utf-8")
            doc["scenarios"][sc] = full_report(game, sc, rows)
            if plots:
                doc["plots"][sc] = write_plots(doc["scenarios"][sc], out)
    except KassenError as exc:
        fail(str(exc))
    (out / "balance.json").write_text(json.dumps(doc, indent=1) + "\n")
    typer.echo(f"merged {sum(len(r) for _, r in merged.values())} games of {len(merged)} scenarios into "
               f"{out / 'balance.json'}", err=True)
