"""The ``kassen`` command."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

# Only what every command needs is imported here: `kassen --help` and the completion
# script must start fast. Rich, the rulesets and the engine's helpers are imported inside
# the commands that use them (see benchmarks/README.md, "kassen --help").
from kassen.cli.balance import RAY_HELP, OptionalValueCommand, balance, balance_merge
from kassen.cli.common import RUNTIME, USAGE, console, fail, parse_options
from kassen.cli.common import game as _game
from kassen.cli.common import spec as _spec
from kassen.engine.errors import KassenError

if TYPE_CHECKING:
    pass


class KassenGroup(TyperGroup):
    """The commands, with ``kassen balance merge ...`` resolved to the ``balance-merge`` command
    (a word of ``balance`` that no game id or scenario can be)."""

    # ``Any``: Typer's Click is its own vendored copy, whose types it does not export
    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        if args[:2] == ["balance", "merge"]:
            cmd = self.get_command(ctx, "balance-merge")
            if cmd is not None:
                return "balance-merge", cmd, args[2:]
        return super().resolve_command(ctx, args)


app = typer.Typer(
    cls=KassenGroup,
    name="kassen",
    help="Kassen (合戦): Sengoku-era samurai wargames with every rule enforced.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish
    pretty_exceptions_enable=False,
    # plain help: Typer's Rich help panels cost ~0.1 s of CPU on every `--help` (rich, markdown-it,
    # pygments); KASSEN_RICH_HELP=1 brings them back
    rich_markup_mode="rich" if os.environ.get("KASSEN_RICH_HELP") == "1" else None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        from kassen import __version__

        print(f"kassen {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", "-V", help="Print Kassen's version and exit.",
                                          callback=_show_version, is_eager=True)] = False,
) -> None:
    """Kassen (合戦): Sengoku-era samurai wargames with every rule enforced."""


#: the help of every command's GAME argument
GAME_HELP = "Game id (see `kassen games`; default: the flagship, Commands & Colors: Samurai Battles)."

__all__ = ["RUNTIME", "USAGE", "app", "console", "fail", "main", "parse_options"]


@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the rule systems Kassen plays."""
    from rich.table import Table

    from kassen.rulesets.registry import specs

    if as_json:
        sys.stdout.write(json.dumps([{"id": s.id, "description": s.description} for s in specs()],
                                    indent=1) + "\n")
        return
    t = Table("id", "game")
    for s in specs():
        t.add_row(s.id, s.description)
    console().print(t)


def default_players(game: str | None) -> str:
    """Who plays when ``--players`` is not given, as the game's spec says: you against the
    ``normal`` AI; the Kensei companion is for two people at a real table."""
    return _spec(game).default_players


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(help=GAME_HELP, show_default=False)] = None,
    scenario: Annotated[str | None, typer.Argument(help="Scenario id or file; default: the introductory battle.")] = None,
    words: Annotated[list[str] | None, typer.Argument(help="What else the game reads here (Kensei: the two "
                                                           "rosters, ROSTER_A ROSTER_B).", show_default=False)] = None,
    players: Annotated[str | None, typer.Option(help="One player per seat: human, random, easy, greedy, normal, hard, "
                                                         "mcts; e.g. human,hard (default human,normal; for the Kensei "
                                                         "companion human,human).")] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: from the clock).")] = None,
    load: Annotated[Path | None, typer.Option(help="Resume a saved game.")] = None,
    tui: Annotated[bool, typer.Option("--tui/--no-tui", help="Play in the terminal (the default; for the browser "
                                                             "use `kassen serve`).")] = True,
    option: Annotated[list[str] | None, typer.Option("--option", help="A game option KEY=VALUE (repeatable), e.g. "
                                                     "card_table=my.toml for the clan game, width=7 for An Honourable Victory!.")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="After each computer turn, show the plan it chose "
                                                            "and its estimate (levels easy, normal, hard).")] = False,
) -> None:
    """Play a battle in the terminal: you against the AI, hot-seat, or watch AI against AI."""
    from kassen.cli.tui import run_tui

    if not tui:
        fail("kassen play is the terminal game; to play in the browser run `kassen serve` (or `make play`)")
    spec = _spec(game)
    options = parse_options(option or [])
    try:
        if spec.play_words is not None and (words or scenario is not None):
            scenario, extra = spec.play_words([*([scenario] if scenario is not None else []), *(words or [])])
            options = {**extra, **options}
        elif words:
            fail(f"kassen play {spec.id}: unexpected words after the scenario: {' '.join(words)}")
        if players is None:
            players = spec.default_players
        run_tui(spec.id, scenario, players, seed, load, options=options, explain=explain)
    except KassenError as exc:
        fail(str(exc))


@app.command()
def run(
    position: Annotated[Path, typer.Argument(help="Scenario/position file (TOML) or saved state (JSON).")],
    actions: Annotated[Path | None, typer.Option(help="File of actions in notation, one per line.")] = None,
    dice: Annotated[str | None, typer.Option(help="Dice to force, in order: C&C faces c t s f h x (e.g. 'x,f,s'); d6 games numbers (e.g. '1,6,3').")] = None,
    game: Annotated[str | None, typer.Option(help="Game id (default: the saved game's, else the default game).")] = None,
    seed: Annotated[int, typer.Option(help="Seed for the deck shuffles.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the state and events as JSON.")] = False,
) -> None:
    """Load a position, a saved state or a `kassen play` save; apply actions with forced dice; print the result."""
    from kassen.engine.events import events_for_seat
    from kassen.engine.record import GameRecord, replay

    data: Any = None
    if position.suffix == ".json":
        try:
            data = json.loads(position.read_text())
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            fail(f"{position}: cannot read JSON state: {exc}", RUNTIME)
    is_record = isinstance(data, dict) and "actions" in data and "ruleset" in data
    if is_record and game is not None and game != data["ruleset"]:
        fail(f"{position} is a saved game of {data['ruleset']}, not {game}")
    spec = _spec(game or (str(data["ruleset"]) if is_record else None))
    g = spec.load()
    try:
        if is_record:  # a game saved by `kassen play`: replayed to where it was saved
            state = replay(g, GameRecord.from_json(data))
        elif data is not None:
            state = g.state_from_json(data)
        elif dice and spec.dice_at_setup:  # the set-up throws dice: force them from there
            faces = dice.replace(",", " ").split()
            if not all(f.isdigit() and 1 <= int(f) <= 6 for f in faces):
                fail(f"--dice: forced dice must be 1..6, got {faces}")
            state = g.new_state(str(position), seed, forced_dice=[int(f) for f in faces])
        else:
            state = g.new_state(str(position), seed)
        if dice and not (data is None and spec.dice_at_setup):
            if spec.forced_dice is None or not hasattr(state, "with_forced_dice"):
                fail(f"{g.name} has no dice to force")
            # as the game reads them: C&C faces by letter (c t s f h x); d6 games by number (1-6)
            try:
                forced = spec.forced_dice(dice)
                state = state.with_forced_dice(forced)
            except KassenError as exc:  # a bad --dice value: the command was used wrongly
                fail(f"--dice: {exc}")
        lines: list[str] = []
        if actions is not None:
            try:
                lines = [ln.strip() for ln in actions.read_text().splitlines()]
            except OSError as exc:
                fail(f"{actions}: {exc.strerror}", RUNTIME)
        events: list[Any] = list(state.events)
        for i, a in enumerate(ln for ln in lines if ln and not ln.startswith("#")):
            try:
                state = state.apply(a)
            except KassenError as exc:
                fail(f"action {i + 1} ({a!r}): {exc}", RUNTIME)
            events.extend(state.events)
    except KassenError as exc:  # the position or saved game itself is wrong
        fail(str(exc), RUNTIME)
    unused = list(getattr(state, "forced", None) or [])
    if dice and unused:
        fail(f"--dice: {len(unused)} of the forced dice were never rolled ({len(unused)} too many for these "
             f"actions); give only the dice the actions roll")
    res = state.result()
    if as_json:
        out = {
            "state": state.to_json(),
            "events": [e.to_json() for e in events],
            "to_move": state.to_move(),
            "legal_actions": state.legal_actions(),
            "result": res.to_json() if res else None,
        }
        sys.stdout.write(json.dumps(out, indent=1) + "\n")
        return
    c = console()
    for e in events_for_seat(events, None):
        c.print(f"• {e.text}")
    mover = state.to_move()
    if res:
        c.print(f"[bold]Result:[/] {res.reason}, winner {state.seat_names()[res.winner] if res.winner is not None else 'none'}")
    elif mover is not None and mover >= 0:
        c.print(f"[bold]To move:[/] {state.seat_names()[mover]} — {', '.join(state.legal_actions()[:20])}")


@app.command(cls=OptionalValueCommand)
def battle(
    game: Annotated[str | None, typer.Argument(help=GAME_HELP, show_default=False)] = None,
    scenario: Annotated[str | None, typer.Argument(help="Scenario id or file; default: the introductory battle.")] = None,
    players: Annotated[str, typer.Option(help="One computer player per seat, in seat order: random, easy, greedy, "
                                                  "normal, hard, mcts, or module:function (your own).")] = "greedy,random",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the first game (game i uses seed+i).")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Processes to play in parallel.")] = 1,
    swap: Annotated[bool, typer.Option("--swap", help="Alternate the players' seats between games.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    ray: Annotated[str | None, typer.Option("--ray", help=RAY_HELP)] = None,
) -> None:
    """Play an AI-vs-AI series and report wins, banners, game length and a 95% interval."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from kassen.ai.players import make_player
    from kassen.ai.series import run_series, summarize

    g = _game(game)
    game = g.id
    names = [p.strip() for p in players.split(",") if p.strip()]
    try:
        seat_names = g.new_state(scenario, seed).seat_names()
        for name in names:
            make_player(name, 0)
        if ray is not None:  # a bad address fails now, in one line (before the progress bar)
            from kassen.ai.distributed import check_address

            check_address(ray)
    except KassenError as exc:
        fail(str(exc))
    if len(names) != len(seat_names):
        fail(f"--players needs {len(seat_names)} names (one per seat: {', '.join(seat_names)}), got {len(names)}")
    err = Console(stderr=True, highlight=False)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=as_json, disable=as_json and not err.is_terminal) as progress:
        task = progress.add_task(f"{' vs '.join(names)}", total=games)
        try:
            results = run_series(game, scenario, names, games, seed, swap, workers,
                                 on_game=lambda r: progress.advance(task), ray=ray)
        except KassenError as exc:  # Ray could not start or reach its cluster
            fail(str(exc))
    stats = summarize(results, seat_names)
    if as_json:
        sys.stdout.write(json.dumps(stats.to_json(), indent=1) + "\n")
        return
    banners = stats.mean_banners_by_player
    t = Table("player", "games", "wins", "win rate", "95% interval", *(["mean banners"] if banners else []),
              title=f"{stats.games} games of {g.name}")
    for p in stats.wins_by_player:
        n = stats.games_by_player[p]
        w = stats.wins_by_player[p]
        lo, hi = stats.ci95_by_player[p]
        t.add_row(p, str(n), str(w), f"{w / n:.0%}" if n else "-", f"{lo:.0%} - {hi:.0%}",
                  *([f"{banners[p]:.2f}" if p in banners else "-"] if banners else []))
    c = console()
    c.print(t)
    seats = ", ".join(f"{s}: {w}" for s, w in stats.wins_by_seat.items())
    c.print(f"Wins by seat: {seats}; draws {stats.draws}; unfinished {stats.unfinished}; "
            f"mean length {stats.mean_turns:.1f} turns, {stats.mean_actions:.0f} actions")


@app.command()
def bench(
    game: Annotated[str | None, typer.Argument(help=GAME_HELP, show_default=False)] = None,
    scenario: Annotated[str | None, typer.Argument(help="Scenario id or file; default: the introductory battle.")] = None,
    games: Annotated[int, typer.Option(min=1, help="Number of games to play.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first game (game i uses seed+i).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as JSON.")] = False,
) -> None:
    """Measure random-playout throughput: decisions and games per second through the protocol, and peak memory."""
    from kassen.cli.bench import bench_table, run_bench

    g = _game(game)
    try:
        r = run_bench(g.id, scenario, games, seed)
    except KassenError as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(json.dumps(r, indent=1) + "\n")
        return
    console().print(bench_table(r, f"{g.name}, {r['scenario']}: {r['games']} uniform random games, seed {seed}"))


@app.command()
def odds(
    engagement: Annotated[Path | None, typer.Argument(help="For games that read a file of the fight (Kensei): the "
                                                           "engagement (TOML), docs/formats.md.",
                                                      show_default=False)] = None,
    attacker: Annotated[str | None, typer.Option(help="Attacking unit code: SSp SB ASp AB AA LI SSpC SBC BG.",
                                                 show_default=False)] = None,
    defender: Annotated[str | None, typer.Option(help="Defending unit code.", show_default=False)] = None,
    ranged: Annotated[bool, typer.Option("--ranged", help="Ranged combat instead of close combat.")] = False,
    range_: Annotated[int | None, typer.Option("--range", help="Range in hexes (ranged combat).")] = None,
    attacker_on: Annotated[str, typer.Option(help="Terrain under the attacker.")] = "countryside",
    defender_on: Annotated[str, typer.Option(help="Terrain under the defender.")] = "countryside",
    moved: Annotated[bool, typer.Option("--moved", help="The attacker moved this turn.")] = False,
    inspired: Annotated[bool, typer.Option("--inspired", help="A Leader inspires the attacker (+1 die).")] = False,
    bonus: Annotated[int, typer.Option(help="Extra dice from cards, added after the terrain maximum.")] = 0,
    defender_blocks: Annotated[int | None, typer.Option(help="Blocks the defender has left (default: full).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the distributions as JSON.")] = False,
    game: Annotated[str | None, typer.Option(help="Game id (default: the default game): a C&C game (the Zvezda "
                                                 "edition for its units SN SC ASp AB AA), or a game whose odds "
                                                 "read an ENGAGEMENT file (Kensei).", show_default=False)] = None,
) -> None:
    """Exact odds of one C&C Samurai attack (hits, flags and Honor & Fortune, by enumeration), or of a
    fight described by an ENGAGEMENT file (Kensei)."""
    from rich.table import Table

    from kassen.rulesets.registry import hook, specs

    spec = _spec(game)
    if engagement is not None or spec.odds is not None:
        if spec.odds is None:
            fail(f"{spec.id} reads no engagement file: give --attacker and --defender")
        if engagement is None:
            fail(f"kassen odds --game {spec.id} ENGAGEMENT: the engagement file is missing")
        hook(spec.odds)(spec, engagement, as_json)
        return
    if not spec.unit_odds:
        fail(f"odds are for the games {', '.join(s.id for s in specs() if s.unit_odds or s.odds)}, not {spec.id!r}")
    if attacker is None or defender is None:
        fail(f"Missing option '--{'attacker' if attacker is None else 'defender'}'.")
    from kassen.rulesets.cc_samurai.odds import attack_odds

    edition = str(getattr(spec.load(), "edition", ""))
    try:
        r = attack_odds(attacker, defender, ranged=ranged, range_=range_, attacker_on=attacker_on,
                        defender_on=defender_on, moved=moved, inspired=inspired, bonus=bonus,
                        defender_blocks=defender_blocks, edition=edition)
    except KassenError as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(json.dumps(r, indent=1) + "\n")
        return
    c = console()
    where = f"at range {r['range']}" if ranged else "in close combat"
    b = r["dice_breakdown"]
    how = [f"{b['base']} of the unit"]
    if b["terrain_max"] is not None and b["terrain_max"] < b["base"]:
        how.append(f"at most {b['terrain_max']} for the terrain")
    if b["inspired"]:
        how.append("+1 inspired")
    if b["cards"]:
        how.append(f"+{b['cards']} from cards")
    c.print(f"[bold]{r['attacker']}[/] on {r['attacker_on']} attacks [bold]{r['defender']}[/] on {r['defender_on']} {where}: "
            f"[bold]{r['dice']}[/] {'die' if r['dice'] == 1 else 'dice'} ({', '.join(how)})")
    for title, key in (("hits", "hits"), ("flags", "flags"), ("Honor & Fortune collected", "honor")):
        t = Table(title, "probability", "", title=None, box=None, pad_edge=False)
        for k, p in r[key].items():
            t.add_row(k, f"{p:7.2%}", "█" * round(p * 40))
        c.print(t)
    c.print(f"At least one hit: [bold]{r['p_hit']:.2%}[/]; a hit or a flag (hit or retreat): "
            f"[bold]{r['p_hit_or_retreat']:.2%}[/]")
    c.print(f"Expected hits {r['expected_hits']:.2f}, expected flags {r['expected_flags']:.2f}; "
            f"chance the hits alone eliminate the {r['defender_blocks']}-block defender: [bold]{r['p_eliminated']:.2%}[/]")


@app.command()
def rules(
    game: Annotated[str | None, typer.Argument(help=GAME_HELP, show_default=False)] = None,
    cards: Annotated[bool, typer.Option("--cards", help="List the 60 Command and 40 Dragon cards instead.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the tables as JSON (the data the engine "
                                                         "loads).")] = False,
    game_option: Annotated[str | None, typer.Option("--game", help="Game id (instead of the GAME word).",
                                                    show_default=False)] = None,
) -> None:
    """Print a game's tables (C&C: units and terrain, or its cards)."""
    from kassen.rulesets.registry import available, hook

    if game is not None and game_option is not None and game != game_option:
        fail(f"two games given: {game!r} and --game {game_option!r}")
    spec = _spec(game or game_option)
    if spec.rules_tables is None:
        fail(f"no rules tables for {spec.id!r} (known: {', '.join(available())})")
    hook(spec.rules_tables)(spec, cards, as_json)


@app.command()
def scenarios(
    words: Annotated[
        list[str] | None,
        typer.Argument(help="[GAME] to list a game's battles, show [GAME] NAME to draw one, new FILE "
                            "for a C&C template, check FILE to list its problems.",
                       show_default=False),
    ] = None,
    game: Annotated[str | None, typer.Option(help="Game id (instead of the GAME word).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List scenarios (name, year, sides, banners to win), or `scenarios show [GAME] NAME` to draw one."""
    from rich.table import Table

    from kassen.rulesets.registry import available, hook

    words = words or []
    if words and words[0] in ("new", "check"):  # a designer's path: kassen.cli.scenarios
        from kassen.cli.scenarios import design_command

        return design_command(words, game)
    if words and words[0] == "show":
        if len(words) == 3:
            if game is not None and game != words[1]:
                fail(f"two games given: {words[1]!r} and --game {game!r}")
            game = words[1]
        elif len(words) != 2:
            fail("usage: kassen scenarios show [GAME] NAME  (`kassen scenarios` lists every game's battles)")
        _scenarios_show(words[-1], game)
        return
    if len(words) > 1 or (words and game is not None and game != words[0]):
        fail("usage: kassen scenarios [GAME] [--json]  or  kassen scenarios show [GAME] NAME")
    if game is not None and not words:
        words = [game]
    if words:
        one = _spec(words[0])
        if one.scenario_table is not None:  # the game's own table (Kensei: the 1D6 roll of each)
            hook(one.scenario_table)(one, as_json)
            return
    game_ids = [words[0]] if words else available()
    rows = []
    for gid in game_ids:
        spec = _spec(gid)
        g = spec.load()
        for sid in g.scenarios():
            row: dict[str, Any] = {"game": gid, "id": sid, "name": sid, "year": None, "sides": list(g.seats),
                                   "first": None, "banners": None}
            row.update(spec.scenario_details(g, sid))
            rows.append(row)
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
        return
    # one table per game, titled with its id; the scenario id is what a person types: never
    # cut (the other columns wrap around it, folding a long word rather than cutting it)
    c = console()
    for gid in game_ids:
        mine = [r for r in rows if r["game"] == gid]
        if not mine:
            continue
        t = Table("id", "name", "year", "sides", "first", "banners", title=gid, title_justify="left")
        for col in t.columns:
            col.overflow = "fold"
        t.columns[0].no_wrap = True
        t.columns[0].min_width = max(len(r["id"]) for r in mine)
        for r in mine:
            t.add_row(r["id"], r["name"], str(r["year"] or "-"), " vs ".join(r["sides"]),
                      r["first"] or "-", str(r["banners"] or "-"))
        c.print(t)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(help="SQLAlchemy database URL (default: $KASSEN_DB, else SQLite in "
                                                "your data directory).")] = None,
    new_game: Annotated[bool, typer.Option("--new-game", help="Start a battle against the AI and print its link "
                                                              "(a busy port moves on to the next free one).")] = False,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the browser on the page (with --new-game: on "
                                                              "the new battle).")] = False,
    allowed_host: Annotated[list[str] | None, typer.Option(
        "--allowed-host", help="A host name the page may be reached by, besides addresses and localhost "
                               "(repeat it; '*' allows any; also $KASSEN_ALLOWED_HOSTS, comma-separated). "
                               "Other names are refused, against DNS rebinding.")] = None,
    max_ai_games: Annotated[int, typer.Option(min=0, help="Unfinished games between computer players at "
                                                          "once (more: 429).")] = 4,
    games_per_hour: Annotated[int, typer.Option(min=1, help="Games one address may create per hour "
                                                            "(more: 429).")] = 60,
    idle_minutes: Annotated[float, typer.Option(min=0.1, help="A game nobody touches for this long leaves "
                                                              "memory (it reloads when asked for).")] = 10.0,
    expire_days: Annotated[float, typer.Option(min=0.01, help="An unfinished game nobody moves in for this "
                                                              "long expires.")] = 30.0,
    max_thinking_per_address: Annotated[int, typer.Option(min=1, help="Computer players one address may have "
                                                                      "thinking at once (a new game with an AI "
                                                                      "beyond: 429).")] = 2,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="Proxies whose X-Forwarded-For is believed (comma-separated addresses, '*' any); by default "
             "nobody's, so a client cannot pose as another address.")] = None,
    max_body: Annotated[int, typer.Option(min=1024, help="The largest request body taken, in bytes "
                                                         "(larger: 413).")] = 1_000_000,
    ai_processes: Annotated[bool, typer.Option(
        "--ai-processes/--ai-threads",
        help="Computer players think in child processes at a lower priority (people's requests stay quick "
             "beside them), or in the server's own threads (less memory).")] = True,
    ai_nice: Annotated[int, typer.Option(min=0, max=19, help="How much lower the AI processes' priority is "
                                                          "(nice; 0: the server's own).")] = 10,
) -> None:
    """Serve the games in the browser (and as a JSON API; schema at /docs)."""
    import os

    from kassen.web.serve import serve as run_server
    from kassen.web.service import Limits

    hosts = [*(allowed_host or []), *(h for h in os.environ.get("KASSEN_ALLOWED_HOSTS", "").split(",") if h.strip())]
    limits = Limits(games_per_client_per_hour=games_per_hour, ai_only_games=max_ai_games,
                    idle_seconds=idle_minutes * 60, finished_idle_seconds=min(60.0, idle_minutes * 60),
                    expire_seconds=expire_days * 86400, thinking_per_client=max_thinking_per_address)
    run_server(host, port, db, new_game=new_game, open_browser=open_browser, allowed_hosts=tuple(hosts),
               limits=limits, forwarded_allow_ips=forwarded_allow_ips, max_body=max_body, ai_processes=ai_processes,
               ai_nice=ai_nice)


def _scenarios_show(name: str, game: str | None) -> None:
    """Draw one battle of any game: ``game`` given, or found by its name among every game's."""
    from rich.markup import escape

    from kassen.cli.render import render_board
    from kassen.rulesets.registry import available, default_game, hook

    if game is None:
        owners = [gid for gid in available() if name in _game(gid).scenarios()]
        if not owners:
            known = "; ".join(f"{gid}: {', '.join(_game(gid).scenarios())}" for gid in available())
            fail(f"no battle {name!r} in any game. Known: {known}")
        if len(owners) > 1 and owners[0] != default_game().id:
            fail(f"{name!r} is a battle of {' and '.join(owners)}: say which, e.g. kassen scenarios show "
                 f"{owners[0]} {name}")
        game = owners[0]  # the flagship's battle when the name is shared (its Zvezda edition's too)
        if len(owners) > 1:
            console().print(f"[dim](also a battle of {', '.join(owners[1:])}: kassen scenarios show "
                            f"{owners[1]} {name})[/]")
    spec = _spec(game)
    g = spec.load()
    if name not in g.scenarios():
        fail(f"{game} has no battle {name!r}; its battles: {', '.join(g.scenarios())} "
             f"(kassen scenarios {game} lists them)")
    try:
        state = g.new_state(name, 0)
    except KassenError as exc:
        fail(str(exc))
    c = console()
    summary = spec.summary(g, name)
    if summary["year"] is not None or summary["banners"] is not None:  # a historical battle: its note
        c.print(f"[bold]{escape(str(summary['name']))}[/]" + (f" ({summary['year']})" if summary["year"] else ""))
        if summary["note"]:
            c.print(escape(str(summary["note"])))
    else:
        c.print(f"[bold]{escape(g.name)}: {escape(str(summary['name']))}[/]")
        if summary.get("sides"):
            c.print("Sides: " + escape(" against ".join(summary["sides"])))
    if spec.terminal_view is not None:
        c.print(hook(spec.terminal_view)(state.observation(None), None))
    else:
        c.print(render_board(state.observation(None)))


app.command(cls=OptionalValueCommand)(balance)
app.command("balance-merge")(balance_merge)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
