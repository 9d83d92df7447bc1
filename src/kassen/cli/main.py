"""The ``kassen`` command."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

# Only what every command needs is imported here: `kassen --help` and the completion
# script must start fast. Rich, the rulesets and the engine's helpers are imported inside
# the commands that use them (see benchmarks/README.md, "kassen --help").
from kassen.cli.balance import RAY_HELP, balance, balance_merge, expand_merge, expand_ray_flag
from kassen.engine.errors import KassenError

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(
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


def console() -> Console:
    from rich.console import Console

    wide = None if sys.stdout.isatty() else 160
    return Console(highlight=False, width=wide)


#: exit codes: a command used wrongly (options, names), and a command that failed at its work
USAGE, RUNTIME = 2, 1


def fail(message: str, code: int = USAGE) -> NoReturn:
    from rich.console import Console
    from rich.markup import escape

    # never hard-wrapped (a path or an action must stay whole) and never read as markup
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)


def _game(game_id: str) -> Any:
    from kassen.rulesets.registry import load_game

    try:
        return load_game(game_id)
    except KassenError as exc:
        fail(str(exc))


def _cc_edition(game_id: str) -> str | None:
    """The C&C Samurai edition ("gmt", "zvezda") a game id plays, as the game itself says."""
    edition = getattr(_game(game_id), "edition", None)
    return edition if isinstance(edition, str) else None


def parse_options(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings to game options; a VALUE that reads as JSON (7, true) is that value.

    >>> parse_options(["width=7", "card_table=my.toml", "teams=true"])
    {'width': 7, 'card_table': 'my.toml', 'teams': True}
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"--option {item!r}: expected KEY=VALUE")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the rule systems Kassen plays."""
    from rich.table import Table

    from kassen.rulesets.registry import GAMES

    if as_json:
        sys.stdout.write(json.dumps([{"id": gid, "description": desc} for gid, (_, _, desc) in GAMES.items()],
                                    indent=1) + "\n")
        return
    t = Table("id", "game")
    for gid, (_, _, desc) in GAMES.items():
        t.add_row(gid, desc)
    console().print(t)


def default_players(game: str) -> str:
    """Who plays when ``--players`` is not given: you against the ``normal`` AI; the Kensei
    companion is for two people at a real table.

    >>> default_players("cc-samurai"), default_players("kensei")
    ('human,normal', 'human,human')
    """
    return "human,human" if game == "kensei" else "human,normal"


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id (see `kassen games`).")] = "cc-samurai",
    scenario: Annotated[str | None, typer.Argument(help="Scenario id or file; default: the introductory battle.")] = None,
    players: Annotated[str | None, typer.Option(help="One player per seat: human, random, easy, greedy, normal, hard, "
                                                         "mcts; e.g. human,hard (default human,normal; for the Kensei "
                                                         "companion human,human).")] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: from the clock).")] = None,
    load: Annotated[Path | None, typer.Option(help="Resume a saved game.")] = None,
    tui: Annotated[bool, typer.Option("--tui/--no-tui", help="Play in the terminal (the default; for the browser "
                                                             "use `kassen serve`).")] = True,
    option: Annotated[list[str] | None, typer.Option("--option", help="A game option KEY=VALUE (repeatable), e.g. "
                                                     "card_table=my.toml for clans, width=7 for honourable-victory.")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="After each computer turn, show the plan it chose "
                                                            "and its estimate (levels easy, normal, hard).")] = False,
) -> None:
    """Play a battle in the terminal: you against the AI, hot-seat, or watch AI against AI."""
    from kassen.cli.tui import run_tui

    if not tui:
        fail("kassen play is the terminal game; to play in the browser run `kassen serve` (or `make play`)")
    try:
        if players is None:
            players = default_players(game)
        run_tui(game, scenario, players, seed, load, options=parse_options(option or []), explain=explain)
    except KassenError as exc:
        fail(str(exc))


@app.command()
def run(
    position: Annotated[Path, typer.Argument(help="Scenario/position file (TOML) or saved state (JSON).")],
    actions: Annotated[Path | None, typer.Option(help="File of actions in notation, one per line.")] = None,
    dice: Annotated[str | None, typer.Option(help="Dice to force, in order: C&C faces c t s f h x (e.g. 'x,f,s'); d6 games numbers (e.g. '1,6,3').")] = None,
    game: Annotated[str | None, typer.Option(help="Game id (default: the saved game's, else cc-samurai).")] = None,
    seed: Annotated[int, typer.Option(help="Seed for the deck shuffles.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the state and events as JSON.")] = False,
) -> None:
    """Load a position, a saved state or a `kassen play` save; apply actions with forced dice; print the result."""
    from kassen.engine.dice import parse_faces
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
    g = _game(game or (str(data["ruleset"]) if is_record else "cc-samurai"))
    try:
        if is_record:  # a game saved by `kassen play`: replayed to where it was saved
            state = replay(g, GameRecord.from_json(data))
        elif data is not None:
            state = g.state_from_json(data)
        elif dice and getattr(g, "dice_at_setup", False):  # the set-up throws dice: force them from there
            faces = dice.replace(",", " ").split()
            if not all(f.isdigit() and 1 <= int(f) <= 6 for f in faces):
                fail(f"--dice: forced dice must be 1..6, got {faces}")
            state = g.new_state(str(position), seed, forced_dice=[int(f) for f in faces])
        else:
            state = g.new_state(str(position), seed)
        if dice and not (data is None and getattr(g, "dice_at_setup", False)):
            if not hasattr(state, "with_forced_dice"):
                fail(f"{g.name} has no dice to force")
            # C&C faces by letter (c t s f h x); d6 games by number (1-6)
            try:
                forced = parse_faces(dice) if g.id.startswith("cc-samurai") else dice.replace(",", " ").split()
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


@app.command()
def battle(
    game: Annotated[str, typer.Argument(help="Game id.")] = "cc-samurai",
    scenario: Annotated[str | None, typer.Argument(help="Scenario id or file; default: the introductory battle.")] = None,
    players: Annotated[str, typer.Option(help="One computer player per seat, in seat order: random, easy, greedy, "
                                                  "normal, hard, mcts.")] = "greedy,random",
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
    names = [p.strip() for p in players.split(",") if p.strip()]
    try:
        seat_names = g.new_state(scenario, seed).seat_names()
        for name in names:
            make_player(name, 0)
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
    game: Annotated[str, typer.Argument(help="Game id.")] = "cc-samurai",
    scenario: Annotated[str | None, typer.Argument(help="Scenario id or file; default: the introductory battle.")] = None,
    games: Annotated[int, typer.Option(min=1, help="Number of games to play.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first game (game i uses seed+i).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as JSON.")] = False,
) -> None:
    """Measure random-playout throughput: decisions and games per second through the protocol, and peak memory."""
    from kassen.cli.bench import bench_table, run_bench

    g = _game(game)
    try:
        r = run_bench(game, scenario, games, seed)
    except KassenError as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(json.dumps(r, indent=1) + "\n")
        return
    console().print(bench_table(r, f"{g.name}, {r['scenario']}: {r['games']} uniform random games, seed {seed}"))


@app.command()
def odds(
    attacker: Annotated[str, typer.Option(help="Attacking unit code: SSp SB ASp AB AA LI SSpC SBC BG.")],
    defender: Annotated[str, typer.Option(help="Defending unit code.")],
    ranged: Annotated[bool, typer.Option("--ranged", help="Ranged combat instead of close combat.")] = False,
    range_: Annotated[int | None, typer.Option("--range", help="Range in hexes (ranged combat).")] = None,
    attacker_on: Annotated[str, typer.Option(help="Terrain under the attacker.")] = "countryside",
    defender_on: Annotated[str, typer.Option(help="Terrain under the defender.")] = "countryside",
    moved: Annotated[bool, typer.Option("--moved", help="The attacker moved this turn.")] = False,
    inspired: Annotated[bool, typer.Option("--inspired", help="A Leader inspires the attacker (+1 die).")] = False,
    bonus: Annotated[int, typer.Option(help="Extra dice from cards, added after the terrain maximum.")] = 0,
    defender_blocks: Annotated[int | None, typer.Option(help="Blocks the defender has left (default: full).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the distributions as JSON.")] = False,
    game: Annotated[str, typer.Option(help="cc-samurai, or cc-samurai-zvezda for the Zvezda units (SN SC ASp AB AA).")] = "cc-samurai",
) -> None:
    """Exact odds of one C&C Samurai attack: hits, flags and Honor & Fortune, by enumeration."""
    from rich.table import Table

    from kassen.rulesets.cc_samurai.odds import attack_odds

    edition = _cc_edition(game)
    if edition is None:
        fail(f"odds are for the C&C Samurai games (cc-samurai, cc-samurai-zvezda), not {game!r}")
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
    c.print(f"[bold]{attacker}[/] on {r['attacker_on']} attacks [bold]{defender}[/] on {r['defender_on']} {where}: "
            f"[bold]{r['dice']}[/] dice ({', '.join(how)})")
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
    game: Annotated[str, typer.Argument(help="Game id.")] = "cc-samurai",
    cards: Annotated[bool, typer.Option("--cards", help="List the 60 Command and 40 Dragon cards instead.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the tables as JSON (the data the engine "
                                                         "loads).")] = False,
) -> None:
    """Print a game's unit and terrain tables, or its cards."""
    from rich.table import Table

    from kassen.rulesets.registry import GAMES

    edition = _cc_edition(game)
    if as_json:
        sys.stdout.write(json.dumps(_rules_json(game, edition, cards), indent=1) + "\n")
        return
    if game == "clans":
        _clans_rules(cards_only=cards)
        return
    if game == "honourable-victory":
        if cards:
            fail("An Honourable Victory! has no cards: `kassen rules honourable-victory` prints its tables")
        _hv_rules()
        return
    if edition is None:
        fail(f"no rules tables for {game!r} (known: {', '.join(GAMES)})")
    from kassen.rulesets.cc_samurai.data import load_tables

    t = load_tables(edition)
    c = console()
    if cards:
        n_cmd, n_dragon = len(t.command_ids), len(t.dragon_ids)
        ct = Table("card", "kind", "copies", "text", title=f"Command cards ({n_cmd})", show_lines=True)
        for cc in t.command.values():
            ct.add_row(cc.name, cc.kind, str(cc.copies), cc.text)
        c.print(ct)
        dt = Table("card", "cost", "copies", "when", "target", "effect", "confidence",
                   title=f"Dragon cards ({n_dragon}) — confidence: A published ruling, B legible in the rulebook, "
                         "C mostly reconstructed", show_lines=True)
        for d in t.dragon.values():
            dt.add_row(d.name, str(d.cost), str(d.copies), d.window, d.target, d.effect, d.confidence)
        c.print(dt)
        return
    ut = Table("code", "unit", "symbol", "blocks", "move", "battle after moving", "close", "ranged", "notes",
               title="Units", show_lines=True)
    ut.columns[1].no_wrap = True
    for code, u in t.units.items():
        rng = ", ".join(f"{d} hex: {n}" for d, n in sorted(u.ranged.items()))
        if u.ranged_moved is not None:
            rng += f"; after moving {u.ranged_moved}"
        close = "1 per block" if u.dice_per_block else str(u.close)
        bm = "no" if u.battle_move == 0 else f"up to {u.battle_move}"
        ut.add_row(code, u.name, u.symbol, str(u.blocks), str(u.move), bm, close, rng or "-", u.notes)
    c.print(ut)
    tt = Table("terrain", "stops", "blocks sight", "on: close/ranged (inf|cav)", "into: close (inf|cav)/ranged",
               title="Terrain (dice maxima; - = no limit, 0 = may not battle)", show_lines=True)

    from kassen.rulesets.cc_samurai.combat import terrain_caps

    def f(v: int | None) -> str:
        return "-" if v is None else str(v)

    # the maxima the engine applies (combat.terrain_caps), attacking from open countryside
    inf = next(u for u in t.units.values() if not u.cavalry)
    cav = next((u for u in t.units.values() if u.cavalry), inf)
    flat = t.terrain["countryside"]

    def into(ter: Any, u: Any, kind: str) -> str:
        caps = terrain_caps(u, kind, flat, ter)
        return f(min(caps) if caps else None)

    for ter in t.terrain.values():
        tt.add_row(
            ter.name + (" (impassable)" if ter.impassable else ""),
            "yes" if ter.stop else "",
            "hill rules" if ter.hill else ("yes" if ter.blocks_los else ""),
            f"{f(ter.on_close_inf)}|{f(ter.on_close_cav)} / {f(ter.on_ranged_inf)}|{f(ter.on_ranged_cav)}",
            f"{into(ter, inf, 'close')}|{into(ter, cav, 'close')} / {into(ter, inf, 'ranged')}"
            + (" (close combat from below; from another hill: no hill limit)" if ter.hill else ""),
        )
    c.print(tt)


def _plain(obj: Any) -> Any:
    """Tables (pydantic models, dicts, lists) as plain JSON values."""
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json", by_alias=True)
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def _rules_json(game: str, edition: str | None, cards: bool) -> dict[str, Any]:
    """``kassen rules GAME --json``: the tables the engine loads, as data."""
    from kassen.rulesets.registry import GAMES

    if game == "clans":
        from kassen.rulesets.clans.data import load_table

        t = load_table()
        return {"game": game, "cards": _plain(t.cards), **({} if cards else {"battlefields": _plain(t.battlefields)})}
    if game == "honourable-victory":
        if cards:
            fail("An Honourable Victory! has no cards: `kassen rules honourable-victory --json` prints its tables")
        from kassen.rulesets.honourable_victory.data import load_tables as hv_tables

        return {"game": game, **_plain(hv_tables())}
    if edition is None:
        fail(f"no rules tables for {game!r} (known: {', '.join(GAMES)})")
    from kassen.rulesets.cc_samurai.data import load_tables

    tc = load_tables(edition)
    if cards:
        return {"game": game, "command_cards": _plain(tc.command), "dragon_cards": _plain(tc.dragon)}
    return {"game": game, "units": _plain(tc.units), "terrain": _plain(tc.terrain)}


def _clans_rules(cards_only: bool = False) -> None:
    """The clan card game's card table (and, unless ``cards_only``, its Battlefields); values
    the rulebook lost are labelled as defaults."""
    from rich.table import Table

    from kassen.rulesets.clans.data import CARD_TYPES, TILES, load_table

    t = load_table()
    c = console()
    default = " (default value)"
    ct = Table("card", "kind", "copies per clan", "Strength", "ability", title=f"Army cards — {t.name}", show_lines=True)
    for slug, (name, kind, copies) in CARD_TYPES.items():
        v = t.cards[slug]
        ct.add_row(name, kind, str(copies), f"{v.strength}{default if v.default else ''}", v.text)
    c.print(ct)
    if not cards_only:
        bt = Table("Battlefield", "VP", "when", "effect", title="Battlefield tiles", show_lines=True)
        for slug, (name, when) in TILES.items():
            b = t.battlefields[slug]
            bt.add_row(name, f"{b.vp}{default if b.default else ''}", when, b.text + (default if b.default else ""))
        c.print(bt)
    c.print("Values marked (default value) are not in the rulebook (its card pictures are lost); Kassen uses "
            "common published values. Another table: kassen play clans --option card_table=PATH.")


def _hv_rules() -> None:
    """An Honourable Victory!'s unit classes, weapons and the Appendix B quality table."""
    from rich.table import Table

    from kassen.rulesets.honourable_victory.data import load_tables as hv_tables

    t = hv_tables()
    c = console()
    ut = Table("class", "weapons", "stands", "actions", "at most per clan", title="Unit classes", show_lines=True)
    for cl in t.classes.values():
        ut.add_row(cl.name, ", ".join(cl.weapons), f"{cl.min_stands}-{cl.max_stands}", str(cl.actions),
                   str(cl.max_per_clan or "-"))
    c.print(ut)
    wt = Table("weapon", "Combat Value", "fires", "at most per clan", title="Weapons", show_lines=True)
    for w in t.weapons.values():
        wt.add_row(w.name, str(w.cv), w.fires, str(w.max_per_clan or "-"))
    c.print(wt)
    qt = Table("unit", *(str(i) for i in range(1, 7)), title="Appendix B: unit quality rolled on 1D6", show_lines=True)
    for who, faces in t.quality.items():
        qt.add_row(who, *faces)
    c.print(qt)


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

    from kassen.rulesets.registry import GAMES

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
            fail("usage: kassen scenarios show [GAME] NAME  (e.g. kassen scenarios show honourable-victory "
                 "village-ambush)")
        _scenarios_show(words[-1], game)
        return
    if len(words) > 1 or (words and game is not None and game != words[0]):
        fail("usage: kassen scenarios [GAME] [--json]  or  kassen scenarios show [GAME] NAME")
    if game is not None and not words:
        words = [game]
    game_ids = [words[0]] if words else list(GAMES)
    rows = []
    for gid in game_ids:
        g = _game(gid)
        for sid in g.scenarios():
            row: dict[str, Any] = {"game": gid, "id": sid, "name": sid, "year": None, "sides": list(g.seats),
                                   "first": None, "banners": None}
            if hasattr(g, "scenario_summary"):
                row.update(g.scenario_summary(sid))
            elif hasattr(g, "load_scenario"):
                m = g.load_scenario(sid).scenario
                row.update({"name": m.name, "year": m.year, "sides": [m.red_name, m.blue_name],
                            "first": m.first, "banners": m.victory_banners})
            rows.append(row)
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
        return
    t = Table("game", "id", "name", "year", "sides", "first", "banners")
    for r in rows:
        t.add_row(r["game"], r["id"], r["name"], str(r["year"] or "-"), " vs ".join(r["sides"]),
                  r["first"] or "-", str(r["banners"] or "-"))
    console().print(t)


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
) -> None:
    """Serve the games in the browser (and as a JSON API; schema at /docs)."""
    import os

    from kassen.web.serve import serve as run_server
    from kassen.web.service import Limits

    hosts = [*(allowed_host or []), *(h for h in os.environ.get("KASSEN_ALLOWED_HOSTS", "").split(",") if h.strip())]
    limits = Limits(games_per_client_per_hour=games_per_hour, ai_only_games=max_ai_games,
                    idle_seconds=idle_minutes * 60, finished_idle_seconds=min(60.0, idle_minutes * 60),
                    expire_seconds=expire_days * 86400)
    run_server(host, port, db, new_game=new_game, open_browser=open_browser, allowed_hosts=tuple(hosts),
               limits=limits)


def _scenarios_show(name: str, game: str | None) -> None:
    """Draw one battle of any game: ``game`` given, or found by its name among every game's."""
    import importlib

    from rich.markup import escape

    from kassen.cli.render import render_board
    from kassen.cli.tui import VIEWS
    from kassen.rulesets.registry import GAMES

    if game is None:
        owners = [gid for gid in GAMES if name in _game(gid).scenarios()]
        if not owners:
            known = "; ".join(f"{gid}: {', '.join(_game(gid).scenarios())}" for gid in GAMES)
            fail(f"no battle {name!r} in any game. Known: {known}")
        if len(owners) > 1 and owners[0] != "cc-samurai":
            fail(f"{name!r} is a battle of {' and '.join(owners)}: say which, e.g. kassen scenarios show "
                 f"{owners[0]} {name}")
        game = owners[0]  # the flagship's battle when the name is shared (its Zvezda edition's too)
        if len(owners) > 1:
            console().print(f"[dim](also a battle of {', '.join(owners[1:])}: kassen scenarios show "
                            f"{owners[1]} {name})[/]")
    g = _game(game)
    if name not in g.scenarios():
        fail(f"{game} has no battle {name!r}; its battles: {', '.join(g.scenarios())} "
             f"(kassen scenarios {game} lists them)")
    try:
        state = g.new_state(name, 0)
    except KassenError as exc:
        fail(str(exc))
    c = console()
    if hasattr(g, "load_scenario"):
        scen = g.load_scenario(name).scenario
        c.print(f"[bold]{escape(scen.name)}[/]" + (f" ({scen.year})" if scen.year else ""))
        if scen.note:
            c.print(escape(scen.note))
    else:
        summary = g.scenario_summary(name) if hasattr(g, "scenario_summary") else {"name": name}
        c.print(f"[bold]{escape(g.name)}: {escape(str(summary['name']))}[/]")
        if summary.get("sides"):
            c.print("Sides: " + escape(" against ".join(summary["sides"])))
    view = VIEWS.get(g.id)
    if view is not None:
        module, _, fn = view.partition(":")
        c.print(getattr(importlib.import_module(module), fn)(state.observation(None), None))
    else:
        c.print(render_board(state.observation(None)))


app.command()(balance)
app.command("balance-merge")(balance_merge)


def main() -> None:
    if any(a in ("kensei", "--game=kensei") for a in sys.argv[1:]):  # Kensei's rules, scenarios, odds
        from kassen.cli.kensei import dispatch, play_args

        if dispatch(sys.argv[1:]):
            return
        sys.argv[1:] = play_args(sys.argv[1:])  # play kensei ROSTER_A ROSTER_B
    app(args=expand_merge(expand_ray_flag(sys.argv[1:])))


if __name__ == "__main__":
    main()
