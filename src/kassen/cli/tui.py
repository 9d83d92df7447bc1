"""Playing in the terminal: a person against the computer, hot-seat, or watching.

``run_tui`` drives any game of :mod:`kassen.rulesets.registry` through the
protocol of :mod:`kassen.engine.protocol`. It prints with a Rich ``Console`` and
reads lines with ``input_fn``; both are injected, so tests play whole games with
a ``Console(file=io.StringIO())`` and a scripted ``input_fn``.

What each person sees comes only from ``state.observation(seat)`` and
``events_for_seat(..., seat)``: a person never sees the other side's hand. In
hot-seat play (two people) the screen is cleared and the keyboard handed over
between seats. Watching the computer play itself narrates as a spectator.

Saved games are ``GameRecord`` JSON (``--load`` resumes one). Undo goes back to
the person's previous decision by dropping the last actions of the record; the
states are immutable, so the kept prefix of the history is exactly what
replaying the shortened record gives. Undo never goes back past a die roll or
past a card the person was shown, so it cannot be used to peek at the dice or
the deck.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.pretty import Pretty
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from kassen.ai.players import Player, known_players, make_player
from kassen.cli.render import board_changes, parse_hex, render_board
from kassen.engine.concession import Conceded, concession_result, partner_of
from kassen.engine.errors import FormatError, KassenError
from kassen.engine.events import Event, events_for_seat, rolled_dice
from kassen.engine.protocol import CHANCE, Game, State, sample_chance
from kassen.engine.record import GameRecord, conceded_at, replay
from kassen.engine.rng import Rng
from kassen.rulesets.registry import get, hook, load_game

DEFAULT_SAVE = "kassen-save.kassen.json"
HUMAN = "human"
#: text colour of each seat (by index)
SEAT_COLOURS = ("#ff5f5f", "#6fa8ff", "green3", "yellow3")
#: (decision, step) -> which of the person's cards to show in full: (Command, Dragon)
CARDS_FOR: dict[tuple[str | None, str | None], tuple[bool, bool]] = {
    ("play", None): (True, True),
    ("end", "keep"): (True, False),
    ("end", "discard"): (False, True),
}
#: seconds to pause after each turn when watching in a real terminal
WATCH_PAUSE = 0.5

HELP = """\
[bold]Commands[/]
  [bold]<number>[/]       take the action with that number in the menu
  [bold]<action>[/]       or type the action itself, e.g. [italic]move F3 G4[/]
  [bold]b[/], board       draw the board, your cards and the menu again
  [bold]u[/], undo        take back your last decision (never past a die roll or a card drawn)
  [bold]concede[/]        give the game up (asks first); the other side wins
  [bold]s[/], save [FILE] save the game (default {default}); resume with [italic]kassen play --load FILE[/]
  [bold]q[/], quit        quit (you are offered to save first)
  [bold]h[/], help        this help"""


#: what the thinking line says of a level's time (for games whose spec says ``AISpec.timed``)
LEVEL_BUDGET: dict[str, str] = {"normal": " (up to 2 s a turn)", "hard": " (up to 10 s a turn)", "mcts": " (a few s a decision)"}



class _Quit(Exception):
    """Leave the game loop."""


def run_tui(
    game_id: str,
    scenario: str | None,
    players: str,
    seed: int | None,
    load: Path | None,
    *,
    console: Console | None = None,
    input_fn: Callable[[str], str] = input,
    line_editor: Any = None,
    options: dict[str, Any] | None = None,
    explain: bool = False,
) -> None:
    """Play ``game_id`` in the terminal.

    ``players`` is a comma list with one entry per seat: ``human`` or a computer
    player (``random``). ``seed`` defaults to one from the clock. ``load`` resumes
    a saved game (``GameRecord`` JSON); its game, scenario, seed and options are used.
    ``options`` go to ``Game.new_state`` (e.g. ``card_table`` for the clan card game).
    Raises ``KassenError`` for bad arguments or an unreadable saved game.
    """
    con = console if console is not None else Console(highlight=False)
    if load is not None:
        record = read_record(load)
        game = load_game(record.ruleset)
        if record.ruleset != game_id:
            con.print(f"[dim]{escape(str(load))} is a saved game of {escape(record.ruleset)}.[/]")
        if scenario is not None and scenario != record.scenario:
            con.print(f"[dim]Ignoring the scenario {escape(scenario)!r}: the saved game sets it.[/]")
        history = replay_history(game, record)
        if seed is None:
            seed = record.seed + len(record.actions)
    else:
        game = load_game(game_id)
        if seed is None:
            seed = time.time_ns() // 1_000_000 % 1_000_000_000
        if scenario is None:
            scenario = game.default_scenario()
        record = GameRecord(game.id, game.rules_version, scenario, seed, [], dict(options or {}))
        history = [game.new_state(scenario, seed, **record.options)]
    seats = parse_players(history[-1].seat_names(), players, seed)
    session = _Session(game, record, history, seats, seed, con, input_fn, loaded=load)
    session.explain = explain
    if line_editor is None and input_fn is input and sys.stdin.isatty():  # a person at a terminal
        from kassen.cli.lineedit import LineEditor, load_readline

        line_editor = LineEditor(lambda: session.state.legal_actions() if session.state.to_move() is not None
                                 else [], load_readline())
    if line_editor is not None:  # history, editing keys, Tab completion of the legal actions
        session.editor = line_editor
        line_editor.install()
    session.run()


def _free_name(path: Path) -> Path:
    """``kassen-save-1.kassen.json`` (the first free number) beside ``path``."""
    stem, dot, ext = path.name.partition(".")
    for i in range(1, 10_000):
        candidate = path.with_name(f"{stem}-{i}{dot}{ext}")
        if not candidate.exists():
            return candidate
    raise KassenError(f"no free file name beside {path}")


def read_record(path: Path) -> GameRecord:
    """A saved game from ``path``; raises ``KassenError`` saying what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise KassenError(f"{path}: cannot read the saved game: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise FormatError(f"{path}: not a saved game (invalid JSON: {exc})") from None
    return GameRecord.from_json(data)


def replay_history(game: Game, record: GameRecord) -> list[State]:
    """Every state of ``record``: the start, then one after each action.

    The checks and errors are those of :func:`kassen.engine.record.replay`.
    """
    start = replay(game, GameRecord(record.ruleset, record.rules_version, record.scenario, record.seed,
                                    [], dict(record.options)))
    history = [start]
    for i, action in enumerate(record.actions):
        try:
            history.append(history[-1].apply(action))
        except KassenError as exc:
            raise FormatError(f"saved game: action {i + 1} ({action!r}) cannot be replayed: {exc}") from exc
    if record.conceded is not None:
        history.append(conceded_at(history[-1], record))
    return history


def parse_players(seat_names: tuple[str, ...], players: str, seed: int) -> list[Player | None]:
    """One entry per seat: ``None`` for a person, else the computer player.

    Two names for a game of more seats: the second plays every other seat
    (``human,greedy`` against three clans is you against three greedy players).
    """
    names = [p.strip().lower() for p in players.split(",")]
    if len(names) == 2 and len(seat_names) > 2 and all(names):
        names += [names[1]] * (len(seat_names) - 2)
    if len(names) != len(seat_names) or not all(names):
        raise KassenError(
            f"--players needs one player per seat ({len(seat_names)}: {', '.join(seat_names)}), "
            f"e.g. human,random; got {players!r}. Known players: {', '.join(known_players())}"
        )
    out: list[Player | None] = []
    for i, name in enumerate(names):
        out.append(None if name == HUMAN else make_player(name, seed * 1_000_003 + 7919 * (i + 1)))
    return out


class _Session:
    def __init__(self, game: Game, record: GameRecord, history: list[State], seats: list[Player | None],
                 seed: int, con: Console, input_fn: Callable[[str], str], loaded: Path | None) -> None:
        self.game = game
        self.names = history[-1].seat_names()
        self.record = record
        self.history = history
        self.seats = seats
        self.seed = seed
        self.con = con
        self.input_fn = input_fn
        self.loaded = loaded
        self.humans = [i for i, p in enumerate(seats) if p is None]
        self.hotseat = len(self.humans) > 1
        self.watch = not self.humans
        # narration: index of the first history entry whose events a viewer has not seen
        start = max(0, len(history) - 1)
        self.narrated: dict[int | None, int] = {v: start for v in [None, *range(len(self.names))]}
        self.screen_key: dict[int, Any] = {}  # per seat: what the last board shown showed
        self.hand_key: dict[int, Any] = {}  # per seat: the decision the cards were last shown for
        #: per seat: the turn and board last drawn in full (what changed since is said in words)
        self.board_seen: dict[int, tuple[Any, dict[str, Any]]] = {}
        self.at_keyboard: int | None = None
        self.chance = Rng(seed ^ 0x5DEECE66D)
        self.boards_shown = 0
        self.start_actions = list(record.actions)  # what was loaded: unchanged, nothing to save
        self.editor: Any = None  # a LineEditor at a real terminal
        #: --explain: after each computer turn, its plan and estimate
        self.explain = False
        self.explained: dict[int, str | None] = {}
        self.explain_turn: Any = None
        self.thought: dict[int, Any] = {}
        self.last_mover: int | None = None

    # ------------------------------------------------------------ basics
    @property
    def state(self) -> State:
        return self.history[-1]

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "spectator"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def seat_text(self, seat: int) -> Text:
        return Text(self.seat_name(seat), style=f"bold {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}")

    def viewer(self) -> int | None:
        """Whose eyes the narration uses outside hot-seat play."""
        return self.humans[0] if len(self.humans) == 1 else None

    def push(self, action: str) -> None:
        """Apply ``action`` (raises ``KassenError`` if illegal) and record it."""
        new = self.state.apply(action)
        self.history.append(new)
        self.record.actions.append(action)

    # -------------------------------------------------------------- loop
    def run(self) -> None:
        self.intro()
        try:
            if self.watch:
                self.narrate(None)
                self.con.print(self.board_view(self.state.observation(None)))
            while True:
                state = self.state
                seat = state.to_move()
                if seat is None:
                    self.finish()
                    return
                if seat == CHANCE:
                    self.push(self.chance_pick(state))
                elif self.seats[seat] is None:
                    self.human_turn(seat)
                else:
                    player = self.seats[seat]
                    assert player is not None
                    if not self.watch:
                        if len(self.humans) == 1:
                            self.narrate(self.viewer())  # what the person just did, before the wait
                        self.thinking(seat, player)
                    self.push(player.choose(state, seat))
                    if self.watch:
                        self.watch_step()
                if seat != CHANCE:
                    self.after_decision(seat)
        except _Quit:
            return
        except KeyboardInterrupt:
            self.con.print()
            if self.watch:
                self.con.print(f"Interrupted. Watch it again with --seed {self.seed}.")
            else:
                self.save_and_say(None, "Interrupted")

    def intro(self) -> None:
        c = self.con
        title = getattr(self.state, "scenario_name", "") or (self.record.scenario or "")
        c.print(Rule(Text(f"{self.game.name}" + (f": {title}" if title else ""), style="bold")))
        line = Text()
        for i, p in enumerate(self.seats):
            if i:
                line.append("  vs  ")
            line.append_text(self.seat_text(i))
            line.append(f" ({'you' if p is None and len(self.humans) == 1 else (p.name if p else HUMAN)})")
        c.print(line)
        if self.loaded is not None:
            c.print(f"Resumed {escape(str(self.loaded))} after {len(self.record.actions)} actions "
                    f"(seed {self.record.seed}).")
        else:
            c.print(f"Seed {self.seed}: replay this battle with [bold]--seed {self.seed}[/].")
        if self.humans:
            c.print("[dim]Type a number or an action; b board, u undo, s save, q quit, h help.[/]")

    def chance_pick(self, state: State) -> str:
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise KassenError("a chance node without outcomes")
        return sample_chance(outcomes, self.chance)

    # -------------------------------------------------------- narration
    def public_turn(self) -> Any:
        obs = self.state.observation(None)
        return (obs.get("turn"), obs.get("round"), obs.get("active"))

    def thinking(self, seat: int, player: Player) -> None:
        """Say that a computer player is at work, and how long it may take (once a turn)."""
        turn = self.public_turn()
        if self.thought.get(seat) == turn:
            return
        self.thought[seat] = turn
        # the timed levels are C&C's turn planner; elsewhere the levels answer at once
        budget = LEVEL_BUDGET.get(getattr(player, "name", ""), "") if get(self.game.id).ai.timed else ""
        self.con.print(Text(f"{self.seat_name(seat)} ({player.name}) is thinking{budget}…", style="dim"))

    def after_decision(self, seat: int) -> None:
        """--explain: once a computer player's turn is over (a new turn began, or the game
        ended), its plan and estimate; never earlier, when the plan is still to be played."""
        self.last_mover = seat
        if not self.explain:
            return
        turn = self.public_turn()
        if turn == self.explain_turn and not self.state.is_terminal():
            return
        self.explain_turn = turn
        for s, p in enumerate(self.seats):
            text = getattr(p, "explanation", None) if p is not None else None
            if text and text != self.explained.get(s):
                self.explained[s] = text
                self.con.print(Text.assemble((f"{self.seat_name(s)} explains its turn: ", "bold"), text))

    def narrate(self, viewer: int | None) -> bool:
        """Print the events ``viewer`` has not seen yet; True if any."""
        end = len(self.history)
        start = self.narrated.get(viewer, 0)
        printed = False
        for i in range(start, end):
            for e in events_for_seat(self.history[i].events, viewer):
                self.print_event(e)
                printed = True
        self.narrated[viewer] = max(start, end)
        return printed

    def print_event(self, e: Event) -> None:
        if e.kind == "turn":
            self.con.print(Rule(self.colour_seats(e.text), style="dim", align="left"))
            return
        text = self.colour_seats(e.text)
        bullet = "•"
        if rolled_dice(e):
            text.stylize("bold")
        elif e.kind in ("banner", "victory", "surrender"):
            text.stylize("bold magenta")
        elif e.kind in ("eliminated", "leader_killed", "seppuku"):
            text.stylize("bold")
        elif e.kind == "honor":
            text.stylize("cyan")
        self.con.print(Text.assemble(f"  {bullet} ", text))

    def colour_seats(self, text: str) -> Text:
        out = Text(text)
        for i, name in enumerate(self.names):
            out.highlight_words([name], style=f"bold {SEAT_COLOURS[i % len(SEAT_COLOURS)]}")
        return out

    def watch_step(self) -> None:
        """AI against AI: narrate as a spectator, with the board at each new turn."""
        last = self.history[-1]
        self.narrate(None)
        if any(e.kind == "turn" for e in last.events) and not last.is_terminal():
            self.con.print(self.board_view(last.observation(None)))
            if self.con.is_terminal:
                time.sleep(WATCH_PAUSE)

    # ------------------------------------------------------ human turns
    def human_turn(self, seat: int) -> None:
        if self.state.legal_actions() == ["pass"]:
            # a reaction question (First Strike) with nothing to play: the engine asks it
            # every time so it reveals nothing; the person need not see it
            self.push("pass")
            return
        passed = self.hotseat and self.at_keyboard is not None and self.at_keyboard != seat
        if passed:
            self.pass_keyboard(seat)
        self.at_keyboard = seat
        self.show(seat, force=passed)
        while True:
            raw = self.ask(f"{self.seat_name(seat)}> ")
            text = " ".join(raw.split())
            if not text:
                continue
            if self.handle(seat, text):
                return

    def ask(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except EOFError:
            self.con.print()
            self.save_and_say(None, "Input ended")
            raise _Quit from None

    def pass_keyboard(self, seat: int) -> None:
        if self.editor is not None:
            self.editor.forget()  # the arrow keys must not show the previous player's input
        if self.con.is_terminal:
            # clear the screen and the scrollback too (ESC[3J): scrolling up must not show
            # the previous player's hand or face-down cards
            self.con.file.write("\x1b[H\x1b[2J\x1b[3J")
            self.con.file.flush()
        else:
            self.con.print("\n" * 2)
        self.con.print(Rule(Text.assemble("Pass the keyboard to ", self.seat_text(seat)), style="bold"))
        self.ask(f"{self.seat_name(seat)}: press Enter when you are at the keyboard ")

    def handle(self, seat: int, text: str) -> bool:
        """Act on one input line; True once an action was taken."""
        state = self.state
        actions = state.legal_actions()
        action: str | None = None
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= len(actions):
                self.con.print(f"[red]There is no action {n}:[/] choose 1 to {len(actions)}, or type an action.")
                return False
            action = actions[n - 1]
        else:
            low = text.lower()
            action = next((a for a in actions if a.lower() == low), None)
            if action is None:
                word, _, arg = text.partition(" ")
                cmd = word.lower()
                if cmd in ("q", "quit", "exit") and not arg:
                    self.quit()
                if cmd in ("s", "save"):
                    self.save(arg.strip() or None)
                    return False
                if cmd in ("u", "undo") and not arg:
                    self.undo(seat)
                    return False
                if cmd == "concede" and not arg:
                    return self.concede(seat)
                if cmd in ("h", "help", "?") and not arg:
                    self.con.print(HELP.format(default=DEFAULT_SAVE))
                    return False
                if cmd in ("b", "board") and not arg:
                    self.show(seat, force=True)
                    return False
                action = text
        try:
            self.push(action)
        except KassenError as exc:
            self.con.print(f"[red]{escape(str(exc))}[/]")
            self.con.print("[dim]Type a number from the menu, an action, or h for help.[/]")
            return False
        return True

    # ------------------------------------------------------------ screen
    def board_view(self, obs: dict[str, Any], highlight: set[str] | None = None,
                   seat: int | None = None) -> Any:
        """The board of ``obs`` (its legend only the first few times), the game's own table
        view (its spec's ``terminal_view``), or the raw observation."""
        view = get(self.game.id).terminal_view
        if view is not None:
            return hook(view)(obs, seat)
        if isinstance(obs.get("board"), dict):
            self.boards_shown += 1
            return render_board(obs, highlight, legend=self.boards_shown <= 2)
        return Pretty(obs)

    def show(self, seat: int, force: bool = False) -> None:
        """The decision screen: news, then the board and standing (when the board changed or a
        turn began), the cards (when they matter to the decision), then the prompt and menu.
        ``force`` draws everything."""
        state = self.state
        obs = state.observation(seat)
        pending = obs.get("pending") if isinstance(obs.get("pending"), dict) else {}
        pending = pending or {}
        actions = state.legal_actions()
        if self.narrate(seat):
            self.con.print()
        if get(self.game.id).terminal_view is not None:
            # the game's own view is the whole table (cards and scores too): redraw it when
            # anything this seat can see has changed
            key = json.dumps({k: v for k, v in obs.items() if k != "pending"}, sort_keys=True, default=str)
            if force or self.screen_key.get(seat) != key:
                self.screen_key[seat] = key
                self.con.print(self.board_view(obs, None, seat))
            self.show_menu(state, obs, seat, actions)
            return
        board_key = (json.dumps(obs.get("board"), sort_keys=True, default=str), obs.get("turn"))
        decision, step = pending.get("decision"), pending.get("step")
        hand_key = (obs.get("turn"), decision, step)
        cards = (True, True) if force else CARDS_FOR.get((decision, step), (False, False))
        show_board = force or self.screen_key.get(seat) != board_key
        show_hand = any(cards) and (force or self.hand_key.get(seat) != hand_key)
        seen = self.board_seen.get(seat)
        my_turn = str(obs.get("active", "")).lower() == self.seat_name(seat).lower()
        if show_board and not force and seen is not None and seen[0] == obs.get("turn") and my_turn:
            # within one's own turn the board is not drawn again after each action (at 80x24 it
            # would scroll the news away): what changed is said in a line; b draws the board
            self.screen_key[seat] = board_key
            changes = board_changes(seen[1], obs.get("board") or {})
            self.board_seen[seat] = (obs.get("turn"), obs.get("board") or {})
            if changes:
                self.con.print(Text.assemble(("Changed: ", "bold"), "; ".join(changes), ("  (b: the board)", "dim")))
            show_board = False
        if show_board:
            self.screen_key[seat] = board_key
            self.board_seen[seat] = (obs.get("turn"), obs.get("board") or {})
            self.con.print(self.board_view(obs, self.highlights(actions, pending), seat))
            self.show_standing(obs, seat)
        if show_hand:
            self.hand_key[seat] = hand_key
            self.show_hand(obs, *cards)
        elif show_board and isinstance(obs.get("hand"), list):
            n, d = len(obs["hand"]), len(obs.get("dragons") or [])
            self.con.print(Text(f"Your hand: {n} Command card{'s' if n != 1 else ''}, "
                                f"{d} Dragon card{'s' if d != 1 else ''} (b shows them)", style="dim"))
        self.show_menu(state, obs, seat, actions)

    def highlights(self, actions: list[str], pending: dict[str, Any] | None) -> set[str]:
        out: set[str] = set()
        for a in actions:
            for word in a.split()[1:]:
                if parse_hex(word) is not None:
                    out.add(word.upper())
                    break
        for k in ("att", "tgt", "at"):
            v = (pending or {}).get(k)
            if isinstance(v, str) and parse_hex(v) is not None:
                out.add(v.upper())
        return out

    def show_standing(self, obs: dict[str, Any], seat: int) -> None:
        honor, banners = obs.get("honor"), obs.get("banners")
        if not isinstance(honor, dict) or not isinstance(banners, dict):
            return
        head = Text()
        head.append(f"Turn {obs.get('turn', '?')}", style="bold")
        if obs.get("active"):
            head.append(" · ")
            head.append_text(self.side_text(str(obs["active"])))
            head.append(" to play")
        head.append(" · you are ")
        head.append_text(self.seat_text(seat))
        self.con.print(head)
        t = Table(box=None, padding=(0, 2), show_edge=False, pad_edge=False)
        t.add_column("")
        t.add_column("Honor & Fortune", justify="right")
        t.add_column("Banners", justify="right")
        t.add_column("Command", justify="right")
        t.add_column("Cards", justify="right")
        t.add_column("Dragons", justify="right")
        victory = obs.get("victory_banners", "?")
        for side in honor:
            t.add_row(self.side_text(side), str(honor.get(side, "")), f"{banners.get(side, 0)}/{victory}",
                      str((obs.get("command") or {}).get(side, "")), str((obs.get("hand_sizes") or {}).get(side, "")),
                      str((obs.get("dragon_counts") or {}).get(side, "")))
        self.con.print(t)
        extra = []
        if "pool" in obs:
            extra.append(f"Honor & Fortune pool {obs['pool']}")
        if "command_deck" in obs:
            extra.append(f"Command deck {obs['command_deck']}")
        if "dragon_deck" in obs:
            extra.append(f"Dragon deck {obs['dragon_deck']}")
        if extra:
            self.con.print(Text(" · ".join(extra), style="dim"))

    def side_text(self, side: str) -> Text:
        for i, name in enumerate(self.names):
            if name.lower() == side.lower():
                return self.seat_text(i)
        return Text(side.title(), style="bold")

    def show_hand(self, obs: dict[str, Any], commands: bool = True, dragons: bool = True) -> None:
        hand = obs.get("hand")
        if commands and isinstance(hand, list):
            self.show_cards("Your Command cards", hand, self.command_card_text)
        dragon_cards = obs.get("dragons")
        if dragons and isinstance(dragon_cards, list):
            self.show_cards("Your Dragon cards", dragon_cards, self.dragon_card_text)

    def show_cards(self, title: str, cards: list[dict[str, Any]],
                   describe: Callable[[Text, dict[str, Any]], None]) -> None:
        """A titled list of cards, each its name in bold then what ``describe`` appends."""
        self.con.print(Text(title, style="bold underline"))
        if not cards:
            self.con.print("  (none)")
        for card in cards:
            line = Text("  ")
            line.append(str(card.get("name", card.get("slug", "?"))), style="bold")
            describe(line, card)
            self.con.print(line)

    @staticmethod
    def command_card_text(line: Text, card: dict[str, Any]) -> None:
        if card.get("slug"):
            line.append(f" [{card['slug']}]", style="dim")
        if card.get("text"):
            line.append(f": {card['text']}")

    @staticmethod
    def dragon_card_text(line: Text, d: dict[str, Any]) -> None:
        bits = []
        if d.get("cost") is not None:
            bits.append(f"cost {d['cost']}")
        if d.get("window"):
            bits.append(f"when: {d['window']}")
        if bits:
            line.append(f" ({'; '.join(bits)})", style="dim")
        if d.get("effect"):  # whom the card acts on, then what it does
            target = f"{d['target']}: " if d.get("target") and d["target"] != "none" else ""
            line.append(f": {target}{d['effect']}")

    def show_menu(self, state: State, obs: dict[str, Any], seat: int, actions: list[str]) -> None:
        played = obs.get("played")
        if isinstance(played, dict) and played.get("name"):
            line = Text("Played: ", style="bold")
            line.append(str(played["name"]))
            orders = obs.get("orders") or []
            if orders:
                line.append("   Ordered: ", style="bold")
                line.append(", ".join(orders))
            self.con.print(line)
        prompt_fn = getattr(state, "prompt", None)
        prompt = prompt_fn() if callable(prompt_fn) else ""
        if not prompt:
            pending = obs.get("pending") if isinstance(obs.get("pending"), dict) else {}
            prompt = (pending or {}).get("prompt") or f"{self.seat_name(seat)} to move"
        self.con.print(self.colour_seats(str(prompt)), style="bold")
        items = []
        for i, a in enumerate(actions, 1):
            desc = state.describe_action(a)
            label = a if desc == a else f"{a} ({desc})"
            odds = state.action_odds(a) if a.startswith(("attack ", "fire ")) else None
            if odds is not None:  # the exact odds before committing, as the browser shows them
                label += (f" [{odds['dice']} dice: hit {odds['p_hit']:.0%}, hit or retreat "
                          f"{odds['p_hit_or_retreat']:.0%}, eliminate {odds['p_eliminated']:.0%}]")
            items.append(Text.assemble((f"{i:>3} ", "bold cyan"), label))
        self.con.print(Columns(items, column_first=True, padding=(0, 3)))

    # ------------------------------------------------------ save / quit
    def save(self, name: str | None, *, ask: bool = True) -> Path | None:
        """Write the game to ``name`` (default ``kassen-save.kassen.json``). A file holding
        another game is never overwritten unasked: the person is asked (``ask``), else — or
        when the answer is no — the game goes to a new file beside it. A file that is replaced
        is kept as ``<name>.bak``."""
        path = Path(name or DEFAULT_SAVE).expanduser()
        if path.exists():
            other = self._saved_game(path)
            r = self.record
            if other is None or (other.ruleset, other.scenario, other.seed, other.options) != \
                    (r.ruleset, r.scenario, r.seed, r.options):
                what = ("a file that is not a Kassen saved game" if other is None else
                        f"another game ({other.ruleset}, {other.scenario or 'its battle'}, {len(other.actions)} "
                        f"actions)")
                question = f"{path} holds {what}. Overwrite it (the old file is kept as {path.name}.bak)? [y/N] "
                if not (ask and self._confirm(question)):
                    new = _free_name(path)
                    self.con.print(f"{escape(str(path))} holds {escape(what)}: not overwriting it; saving to "
                                   f"{escape(str(new))} instead.")
                    path = new
        try:
            if path.exists():
                path.with_name(path.name + ".bak").write_bytes(path.read_bytes())
            path.write_text(json.dumps(self.record.to_json(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            self.con.print(f"[red]Cannot save to {escape(str(path))}: {escape(exc.strerror or str(exc))}[/]")
            return None
        self.con.print(f"Saved the game to [bold]{escape(str(path.resolve()))}[/] "
                       f"({len(self.record.actions)} actions); resume with "
                       f"[bold]kassen play --load {escape(str(path))}[/]")
        return path

    @staticmethod
    def _saved_game(path: Path) -> GameRecord | None:
        try:
            return read_record(path)
        except KassenError:
            return None

    def _confirm(self, question: str) -> bool:
        try:
            return self.input_fn(question).strip().lower() in ("y", "yes")
        except EOFError:
            return False

    def save_and_say(self, name: str | None, why: str) -> None:
        """Save on the way out (end of input, Ctrl+C) without asking anything — and only when
        this session changed the game: a game nobody moved in never replaces a save."""
        if self.record.actions == self.start_actions:
            self.con.print(f"{why}: nothing was played in this session, so nothing is saved.")
            return
        self.con.print(f"{why}: saving the game to {escape(name or DEFAULT_SAVE)} and quitting.")
        self.save(name, ask=False)

    def quit(self) -> None:
        try:
            answer = self.input_fn(f"Save the game before quitting? [Y/n, or a file name; default {DEFAULT_SAVE}] ")
        except EOFError:
            self.con.print()
            self.save_and_say(None, "Input ended")
            raise _Quit from None
        a = answer.strip()
        if a.lower() in ("", "y", "yes"):
            self.save(None)
        elif a.lower() not in ("n", "no"):
            self.save(a)
        self.con.print("Goodbye.")
        raise _Quit

    # ----------------------------------------------------------- concede
    def concede(self, seat: int) -> bool:
        """Give the game up after a yes (``kassen.engine.concession``: not a rule action, so the
        saved actions stay the rules'); True when conceded (the game is then over)."""
        names = tuple(self.state.seat_names())
        res = concession_result(names, seat, partner_of(self.state, seat))
        outcome = (f"{names[res.winner]} wins" if res.winner is not None
                   else res.reason.split(": ", 1)[-1])
        if not self._confirm(f"Concede the game? {outcome}. [y/N] "):
            self.con.print("[dim]Not conceded: the game goes on.[/]")
            return False
        self.history.append(Conceded(self.state, seat))
        self.record.conceded = seat  # a save keeps it: the game loads as given up
        return True

    # -------------------------------------------------------------- undo
    def undo(self, seat: int) -> None:
        n = len(self.record.actions)
        back: int | None = None
        for k in range(n - 1, -1, -1):
            if any(rolled_dice(e) for e in self.history[k + 1].events):
                self.con.print(f"[yellow]Cannot undo {escape(self.record.actions[k])!r}: dice were rolled "
                               "(undo never goes back past a die roll).[/]")
                return
            mover = self.history[k].to_move()
            if mover == seat:
                back = k
                break
            if mover is not None and 0 <= mover < len(self.seats) and self.seats[mover] is None:
                self.con.print(f"[yellow]Cannot undo: that was {self.seat_name(mover)}'s decision.[/]")
                return
        if back is None:
            self.con.print("[yellow]Nothing to undo: you have not decided anything yet.[/]")
            return
        for k in range(back, n):
            events = self.history[k + 1].events
            action = self.record.actions[k]
            if any(rolled_dice(e) for e in events):
                self.con.print(f"[yellow]Cannot undo {escape(action)!r}: dice were rolled "
                               "(undo never goes back past a die roll).[/]")
                return
            if any(e.visible_to is not None and seat in e.visible_to for e in events):
                self.con.print(f"[yellow]Cannot undo {escape(action)!r}: it showed you a card "
                               "(undo never goes back past a card drawn).[/]")
                return
        undone = self.record.actions[back:]
        del self.record.actions[back:]
        del self.history[back + 1:]
        for v in self.narrated:
            self.narrated[v] = min(self.narrated[v], len(self.history))
        self.con.print(f"[yellow]Undone:[/] {escape(', '.join(undone))}")
        self.show(seat, force=True)

    # ------------------------------------------------------------- end
    def finish(self) -> None:
        state = self.state
        if self.hotseat:  # the end is public: narrate what the last person has not seen
            self.narrated[None] = min(self.narrated[h] for h in self.humans)
            self.narrate(None)
        else:
            self.narrate(self.viewer())
        self.con.print()
        self.con.print(self.board_view(state.observation(None)))
        res = state.result()
        line = Text("Result: ", style="bold")
        if res is None:
            line.append("the game is over")
        elif res.winner is None:
            line.append(f"a draw ({res.reason})")
        else:
            line.append_text(self.seat_text(res.winner))
            line.append(f" wins ({res.reason})")
        obs = state.observation(None)
        banners = obs.get("banners")
        if isinstance(banners, dict):
            line.append(" · banners " + ", ".join(f"{k} {v}/{obs.get('victory_banners', '?')}"
                                                   for k, v in banners.items()))
        if "turn" in obs:
            line.append(f" · turn {obs['turn']}")
        line.append(f" · {len(self.record.actions)} actions")
        self.con.print(line)
        if len(self.humans) == 1 and res is not None and res.winner is not None:
            self.con.print("[bold green]Victory![/]" if res.winner == self.humans[0] else "[bold]Defeat.[/]")
