"""The games a server holds: creating them, seats and their tokens, actions, undo, AI seats.

Generic over :mod:`kassen.engine.protocol`: no rules here. A game in memory is its
stored record plus every state of its history (states are immutable, so undo and
replay are slices of that list). Every accepted action is written to storage
*before* the game in memory moves on, so a killed server loses nothing.

Each seat sees only ``state.observation(seat)``, the legal actions when it is to
move, and ``events_for_seat`` of the log, with event data cut down to
``EVENT_KEYS`` (dice faces, hexes, sides: never card ids).
"""

from __future__ import annotations

import functools
import logging
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kassen.ai.players import PLAYERS, Player, make_player
from kassen.engine.concession import Conceded
from kassen.engine.errors import KassenError
from kassen.engine.events import events_for_seat, rolled_dice
from kassen.engine.protocol import CHANCE, Game, State, sample_chance
from kassen.engine.rng import Rng
from kassen.rulesets.registry import available, get, hook, load_game, specs
from kassen.web import extras
from kassen.web.storage import WATCH, Storage, StoredGame, first_line, hash_token, plausible_game_id
from kassen.web.thinkers import Question, RemoteSeat, ThinkerPool

log = logging.getLogger("kassen.web")

HUMAN = "human"
#: the computer players offered, weakest first, with a word for the lobby
AI_LEVELS: dict[str, str] = {
    "random": "random moves",
    "easy": "easy",
    "greedy": "greedy, one move ahead",
    "normal": "normal (up to 2 seconds a turn)",
    "hard": "hard (up to 10 seconds a turn)",
    "mcts": "tree search, slow",
}
#: event data keys a seat may receive (positions, dice, sides); others (card ids) are dropped
EVENT_KEYS = frozenset({"faces", "dice", "frm", "to", "hex", "att", "tgt", "atts", "side", "seat", "turn",
                        "winner", "kind", "role", "lost", "left", "amount", "random"})
MAX_ACTION_LEN = 200
#: seat tokens remembered after their first check (the oldest are forgotten first)
TOKEN_CACHE = 100_000


def release_memory() -> None:
    """Collect, and hand the freed heap back to the system where the C library can (glibc's
    ``malloc_trim``): a server's memory returns near its fresh size once games leave memory."""
    import gc

    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc
        return None


def cut(text: str, limit: int = 40) -> str:
    """``text`` as an error message quotes it: its repr, cut to about ``limit`` characters (an
    error never echoes a long input back).

    >>> cut("x" * 100, 10)
    "'xxxxxxxxxx'... (100 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class WebError(Exception):
    """A request the server refuses: an HTTP status and a message naming what is wrong."""

    def __init__(self, status: int, message: str, code: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.headers = headers


@dataclass(frozen=True)
class Limits:
    """What one server allows, so that nobody can stall it (``kassen serve`` options)."""

    #: games one client (address) may create per hour
    games_per_client_per_hour: int = 60
    #: unfinished games between computer players only, at once
    ai_only_games: int = 4
    #: a game nobody has touched for this long leaves memory (it is loaded again when asked for)
    idle_seconds: float = 600.0
    #: the same for a finished game
    finished_idle_seconds: float = 60.0
    #: an unfinished game in which nobody has moved for this long has expired
    expire_seconds: float = 30 * 24 * 3600.0
    #: computer players one address may have thinking at once, in any game with a computer seat
    #: (more wait their turn; creating a game with a computer seat beyond it is a 429)
    thinking_per_client: int = 2
    #: how often the watchdog looks for a game whose computer seat is to move with nobody thinking
    watchdog_seconds: float = 2.0
    #: the longest pause between two tries of an AI decision that could not be stored
    retry_max_seconds: float = 30.0


@dataclass
class LiveGame:
    """A game in memory: the stored record, its states, and its AI players."""

    stored: StoredGame
    game: Game
    history: list[State]
    #: the computer seats: players in this process, or seats whose players think in a child process
    players: dict[int, Player | RemoteSeat]
    lock: threading.RLock = field(default_factory=threading.RLock)
    #: an AI decision of this game is queued or being made
    ai_running: bool = False
    #: a person seat plays: its AI decisions go before those of games between computers
    interactive: bool = True
    last_used: float = field(default_factory=time.monotonic)
    #: open event streams (a watched game is never unloaded)
    watchers: int = 0
    #: the AI turns explained (plan and estimate, told once the turn is over; in memory only)
    plans: list[dict[str, Any]] = field(default_factory=list)
    plans_turn: Any = None
    #: the address that created the game (in memory only: a reloaded game has none)
    client: str | None = None
    #: CPU seconds its computer players have used (the AI scheduler's measure of fairness)
    work: float = 0.0
    #: AI decisions that failed in a row (storage errors), and when the next try may start
    failures: int = 0
    retry_at: float = 0.0
    #: an AI decision made but not yet stored: (version it was made at, action), kept for a retry
    pending: tuple[int, str] | None = None

    @property
    def state(self) -> State:
        return self.history[-1]

    @property
    def version(self) -> int:
        """History entries after the start: the actions, and a concession (the last entry)."""
        return len(self.history) - 1

    @property
    def conceded(self) -> int | None:
        """The seat that gave the game up (``None``: nobody)."""
        last = self.history[-1]
        return last.seat if isinstance(last, Conceded) else None

    def seat_names(self) -> tuple[str, ...]:
        names = getattr(self.state, "seat_names", None)
        return tuple(names()) if callable(names) else tuple(self.game.seats)


def public_scenario(live: LiveGame) -> str | None:
    """The scenario as a seat is told it: a named battle's id; for a scenario file (a design the
    editor played, kept under the server's data directory) the id the file gives itself, never
    the server's path to it."""
    sc = live.stored.scenario
    if sc is None or sc in live.game.scenarios():
        return sc
    own = getattr(live.state, "scenario_id", None)
    return str(own) if own else sc.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".toml")


def seat_names_of(state: State) -> tuple[str, ...]:
    fn = getattr(state, "seat_names", None)
    return tuple(fn()) if callable(fn) else tuple(state.game.seats)


class BackgroundWork(ABC):
    """AI work that is no game with seats (a balance check's games, web/balance_check.py), done one
    step at a time through the same :class:`AiScheduler` as the games' AI: it is never
    interactive, so every game with a person goes before it, and its ``work`` (CPU seconds)
    and ``client`` count as a game's do."""

    def __init__(self, client: str | None) -> None:
        self.client = client
        self.interactive = False
        self.work = 0.0
        self.retry_at = 0.0

    @abstractmethod
    def step(self) -> bool:
        """Make one decision; whether another is due (then it is queued again)."""

    @abstractmethod
    def failed(self, exc: Exception) -> None:
        """A step raised ``exc``: the work stops and says why."""


#: what the AI scheduler shares its workers between
Thinker = LiveGame | BackgroundWork


class AiScheduler:
    """Which game's computer player thinks next: by counted work, not by decisions.

    Each game's AI work is measured (CPU seconds of its decisions, ``LiveGame.work``); a worker
    takes, among the games waiting, one with a person before one between computers, then the one
    that has used the least: a person's game against a cheap AI is never behind expensive plans.
    One address has at most ``per_client`` decisions being made at once (its other games wait),
    so one address cannot hold every worker. A game waiting for a retry waits until its time.
    """

    def __init__(self, per_client: int) -> None:
        self.cond = threading.Condition()
        self.ready: list[Thinker] = []
        self.running: dict[str, int] = {}
        self.per_client = max(1, per_client)
        self.closed = False

    def add(self, live: Thinker) -> None:
        with self.cond:
            if not self.closed:
                self.ready.append(live)
                self.cond.notify_all()

    def _eligible(self, live: Thinker, now: float) -> bool:
        return live.retry_at <= now and (live.client is None or self.running.get(live.client, 0) < self.per_client)

    def take(self) -> Thinker | None:
        """The next game to think for (``None``: closed); waits until one may."""
        with self.cond:
            while not self.closed:
                now = time.monotonic()
                eligible = [g for g in self.ready if self._eligible(g, now)]
                if eligible:
                    live = min(eligible, key=lambda g: (not g.interactive, g.work))
                    self.ready = [g for g in self.ready if g is not live]
                    if live.client is not None:
                        self.running[live.client] = self.running.get(live.client, 0) + 1
                    return live
                later = [g.retry_at - now for g in self.ready if g.retry_at > now]
                self.cond.wait(min(later) if later else None)
            return None

    def done(self, live: Thinker) -> None:
        with self.cond:
            if live.client is not None:
                left = self.running.get(live.client, 1) - 1
                if left > 0:
                    self.running[live.client] = left
                else:
                    self.running.pop(live.client, None)
            self.cond.notify_all()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.ready.clear()
            self.cond.notify_all()


class GameService:
    """Every game of one server, over one :class:`Storage`."""

    def __init__(self, storage: Storage, ai_workers: int = 4, limits: Limits | None = None,
                 player_factory: Callable[[str, int], Player] = make_player, test_seed: int | None = None,
                 ai_processes: bool = False, ai_nice: int = 10) -> None:
        """``ai_processes``: the computer players think in as many child processes as there are AI
        workers (:mod:`kassen.web.thinkers`; ``kassen serve`` does), not in the workers' threads,
        so their computing never makes requests wait for the interpreter lock, at ``ai_nice``
        lower priority; only with the default ``player_factory``, whose players a child can make
        from their names.
        ``test_seed`` (tests only: ``KASSEN_TEST_SEED``) makes the games' seeds follow from it,
        so a test served in another process replays the same deals and dice; never set it for
        people, who could then foresee every die."""
        self.seeds = None if test_seed is None else Rng(test_seed)
        self.storage = storage
        self.limits = limits or Limits()
        self.make_player = player_factory
        self.games: dict[str, LiveGame] = {}
        self.games_lock = threading.Lock()
        self.listeners: list[Callable[[str, int], None]] = []
        self.closed = False
        self.chance_rng = Rng(secrets.randbits(63))
        self.created_by: dict[str, deque[float]] = {}
        #: token hash -> (game id, seat) of tokens already checked against the database
        self.tokens: dict[str, tuple[str, int]] = {}
        #: games between computers played outside ``games`` (a balance check's), by what plays them
        self.background_ai_games: dict[str, int] = {}
        # AI work: one decision at a time per game, shared by counted work (AiScheduler)
        self.scheduler = AiScheduler(self.limits.thinking_per_client)
        self.thinkers = (ThinkerPool(max(1, ai_workers), nice=ai_nice, sticky=test_seed is not None)
                         if ai_processes and player_factory is make_player else None)
        self.workers = [threading.Thread(target=self._ai_worker, name=f"kassen-ai-{i}", daemon=True)
                        for i in range(max(1, ai_workers))]
        for w in self.workers:
            w.start()
        self.reaper = threading.Thread(target=self._reap_loop, name="kassen-reaper", daemon=True)
        self.reaper.start()
        self.watchdog = threading.Thread(target=self._watchdog_loop, name="kassen-watchdog", daemon=True)
        self.watchdog.start()

    # ----------------------------------------------------------- catalog
    def catalog(self) -> dict[str, Any]:
        """The games, their scenarios (with historical notes) and the seat choices."""
        games = []
        for spec in specs():
            gid, desc = spec.id, spec.description
            try:
                g = spec.load()
                scen_rows = [extras.scenario_info(g, sid) for sid in g.scenarios()]
                start = g.new_state(g.default_scenario(), 0)
            except Exception as exc:  # a ruleset being written must not take the lobby down
                log.warning("game %s unavailable: %s", gid, exc)
                continue
            games.append({"id": gid, "name": g.name, "description": desc, "seats": list(seat_names_of(start)),
                          "default_scenario": g.default_scenario(), "scenarios": scen_rows,
                          "view": extras.view_for(gid), "default": spec.default,
                          # what the lobby offers the seats after the first (the spec's default players)
                          "default_opponent": spec.default_players.split(",")[-1],
                          # the table's facts are the decisions: the lobby offers people only
                          "people_only": spec.people_only})
        players = [{"id": HUMAN, "text": "a person (gets a link)"}]
        players += [{"id": k, "text": v} for k, v in AI_LEVELS.items() if k in PLAYERS]
        return {"games": games, "players": players}

    # ----------------------------------------------------------- create
    def create(self, ruleset: str, scenario: str | None, seats: list[str],
               seed: int | None = None, client: str | None = None, design: bool = False) -> tuple[LiveGame, list[str]]:
        """A new game; returns it and one secret token per seat. ``seed`` (default: a random
        one) is never taken from a request: whoever knows it knows every die to come.
        ``client`` (an address) is held to ``limits.games_per_client_per_hour`` (429)."""
        if client is not None:
            if any(k.strip().lower() != HUMAN for k in seats):  # refused first: no hourly slot spent
                self._check_thinking(client)
            self._count_creation(client)
        if ruleset not in available():
            raise WebError(400, f"unknown ruleset {cut(ruleset)}; known: {', '.join(available())}")
        game = load_game(ruleset)
        if scenario is None:
            scenario = game.default_scenario()
        known = game.scenarios()
        # design: a scenario file the editor wrote (web/editor.py), not one of the named battles
        if scenario is not None and known and scenario not in known and not design:
            raise WebError(400, f"unknown scenario {cut(scenario)} for {ruleset}; known: {', '.join(known)}")
        if seed is None:
            seed = secrets.randbits(62) if self.seeds is None else self.seeds.next64() >> 2
        try:
            state = game.new_state(scenario, seed)
        except KassenError as exc:
            raise WebError(400, f"cannot set up {scenario!r}: {exc}") from None
        names = seat_names_of(state)
        kinds = [s.strip().lower() for s in seats]
        if len(kinds) != len(names):
            raise WebError(400, f"'seats' needs {len(names)} entries (one per seat: {', '.join(names)}), "
                                f"got {len(kinds)}")
        for k in kinds:
            if k != HUMAN and k not in PLAYERS:
                raise WebError(400, f"unknown seat kind {cut(k)}; use one of: {HUMAN}, {', '.join(PLAYERS)}")
        if HUMAN not in kinds:
            running = self.ai_only_games()
            if running >= self.limits.ai_only_games:
                raise WebError(429, f"{running} games between computer players are being played on this server "
                                    f"(the most it allows at once); watch one of them or try again later",
                               headers={"Retry-After": "60"})
        game_id = secrets.token_hex(8)
        tokens = [secrets.token_urlsafe(24) for _ in kinds]
        stored = StoredGame(game_id, game.id, game.rules_version, scenario, seed, {}, kinds)
        self.storage.create_game(stored, [hash_token(t) for t in tokens])
        live = LiveGame(stored, game, [state], self._players(stored), interactive=HUMAN in kinds, client=client)
        with self.games_lock:
            self.games[game_id] = live
        self.schedule_ai(live)
        return live, tokens

    def _count_creation(self, client: str) -> None:
        """A client may create ``games_per_client_per_hour`` games an hour (429 beyond)."""
        now = time.monotonic()
        with self.games_lock:
            for other in [c for c, ts in self.created_by.items() if not ts or now - ts[-1] > 3600]:
                del self.created_by[other]  # addresses quiet for an hour are forgotten
            times = self.created_by.setdefault(client, deque())
            while times and now - times[0] > 3600:
                times.popleft()
            if len(times) >= self.limits.games_per_client_per_hour:
                wait = int(3600 - (now - times[0])) + 1
                raise WebError(429, f"this address created {len(times)} games in the last hour, the most this "
                                    f"server allows; try again in {wait // 60 + 1} minutes",
                               headers={"Retry-After": str(wait)})
            times.append(now)

    def _check_thinking(self, client: str) -> None:
        """A new game with a computer seat: 429 if the address's computer players already think
        in ``limits.thinking_per_client`` games (every game with a computer seat counts, person
        or not)."""
        bound = self.limits.thinking_per_client
        with self.games_lock:
            thinking = sum(1 for g in self.games.values() if g.client == client and g.ai_running)
        if thinking >= bound:
            raise WebError(429, f"this address has {thinking} games whose computer player is thinking, the most "
                                f"this server allows at once (--max-thinking-per-address {bound}); wait for "
                                "their moves or play against a person", headers={"Retry-After": "10"})

    def new_watch_token(self, live: LiveGame) -> str:
        """A watch link for ``live``: a spectator's view (``observation(None)``), no actions."""
        token = secrets.token_urlsafe(24)
        self.storage.set_watch_token(live.stored.id, hash_token(token))
        with self.games_lock:  # the old watch link stops working
            for th in [th for th, (gid, seat) in self.tokens.items() if gid == live.stored.id and seat == WATCH]:
                del self.tokens[th]
        return token

    def _players(self, stored: StoredGame) -> dict[int, Player | RemoteSeat]:
        seeds = {i: (stored.seed * 1_000_003 + 7919 * (i + 1)) % (1 << 62)
                 for i, k in enumerate(stored.seat_kinds) if k != HUMAN}
        if self.thinkers is not None:
            return {i: RemoteSeat(stored.seat_kinds[i], seed) for i, seed in seeds.items()}
        return {i: self.make_player(stored.seat_kinds[i], seed) for i, seed in seeds.items()}

    # ------------------------------------------------------------- load
    def get(self, game_id: str) -> LiveGame:
        """The game ``game_id``, replayed from storage on first use (404 if unknown, 410 if it
        expired); nothing is loaded before somebody asks for it."""
        with self.games_lock:
            live = self.games.get(game_id)
        if live is not None:
            live.last_used = time.monotonic()
            return live
        if not plausible_game_id(game_id):
            raise WebError(404, f"no game {cut(game_id)} on this server")
        stored = self.storage.load_game(game_id)
        if stored is None:
            raise WebError(404, f"no game {cut(game_id)} on this server")
        idle = time.time() - stored.updated
        if not stored.finished and idle > self.limits.expire_seconds:
            days = self.limits.expire_seconds / 86400
            raise WebError(410, f"this game has expired: nobody moved in it for {idle / 86400:.0f} days, and "
                                f"this server gives up unfinished games after {days:g} days", "expired")
        live = self._replay(stored)
        with self.games_lock:
            live = self.games.setdefault(game_id, live)
        self.schedule_ai(live)  # a computer seat to move goes on from where it was
        return live

    def unload_idle(self, now: float | None = None) -> int:
        """Let games nobody has used for a while leave memory (not while their AI works or
        somebody watches them); returns how many left. They load again when asked for."""
        now = time.monotonic() if now is None else now
        gone = 0
        with self.games_lock:
            for gid, live in list(self.games.items()):
                limit = self.limits.finished_idle_seconds if live.state.is_terminal() else self.limits.idle_seconds
                if live.ai_running or live.watchers > 0 or now - live.last_used < limit:
                    continue
                del self.games[gid]
                gone += 1
        if gone:
            release_memory()
        return gone

    def _reap_loop(self) -> None:
        pause = max(0.5, min(30.0, self.limits.finished_idle_seconds / 2, self.limits.idle_seconds / 2))
        while not self.closed:
            time.sleep(pause)
            try:
                self.unload_idle()
            except Exception:
                log.exception("unloading idle games failed")

    def _replay(self, stored: StoredGame) -> LiveGame:
        try:
            game = load_game(stored.ruleset)
        except KassenError as exc:
            raise WebError(410, f"game {stored.id}: {exc}") from None
        if game.rules_version != stored.rules_version:
            raise WebError(410, f"game {stored.id} was played under rules version {stored.rules_version} of "
                                f"{stored.ruleset}; this server has {game.rules_version}, so it cannot be replayed")
        history = [game.new_state(stored.scenario, stored.seed, **stored.options)]
        for i, action in enumerate(stored.actions):
            try:
                history.append(history[-1].apply(action))
            except KassenError as exc:
                raise WebError(410, f"game {stored.id}: stored action {i + 1} ({action!r}) no longer "
                                    f"replays: {exc}") from None
        if stored.conceded is not None:
            try:
                history.append(Conceded(history[-1], stored.conceded))
            except KassenError as exc:
                raise WebError(410, f"game {stored.id}: its concession no longer applies: {exc}") from None
        return LiveGame(stored, game, history, self._players(stored), interactive=HUMAN in stored.seat_kinds)

    def known_seat(self, game_id: str, token: str | None) -> tuple[LiveGame, int] | None:
        """The game and seat of ``token`` when neither needs the database (the game in memory,
        the token checked before); ``None`` otherwise (then :meth:`auth`)."""
        if not token:
            return None
        known = self.tokens.get(hash_token(token))
        if known is None or known[0] != game_id:
            return None
        with self.games_lock:
            live = self.games.get(game_id)
        if live is None:
            return None
        live.last_used = time.monotonic()
        return live, known[1]

    def auth(self, game_id: str, token: str | None) -> tuple[LiveGame, int]:
        """The game and the seat ``token`` names: 401 without or with an unknown token,
        403 for a token of another game, 404 for an unknown game."""
        if not token:
            raise WebError(401, "missing seat token: send 'Authorization: Bearer <token>' (or ?token=)")
        if not plausible_game_id(game_id):  # a NUL, a slash, too long: no game, never a query
            raise WebError(404, f"no game {cut(game_id)} on this server")
        th = hash_token(token)
        known = self.tokens.get(th)
        if known is not None and known[0] == game_id:  # a token seen before: no database round trip
            return self.get(game_id), known[1]
        found = self.storage.find_token(th)
        if not self.storage.game_exists(game_id):
            raise WebError(404, f"no game {cut(game_id)} on this server")
        if found is None:
            raise WebError(401, "unknown seat token: use the link you were given for this game")
        if found[0] != game_id:
            raise WebError(403, "this seat token belongs to another game")
        with self.games_lock:
            if len(self.tokens) >= TOKEN_CACHE:
                self.tokens.pop(next(iter(self.tokens)))
            self.tokens[th] = found
        return self.get(game_id), found[1]

    # ------------------------------------------------------------- views
    def view(self, live: LiveGame, seat: int, since: int = 0) -> dict[str, Any]:
        """Everything ``seat`` may see now (the log from history entry ``since`` on)."""
        watching = seat == WATCH
        viewer: int | None = None if watching else seat
        with live.lock:
            state = live.state
            names = live.seat_names()
            mover = state.to_move()
            res = state.result()
            mine = mover == seat and not watching
            actions = [{"action": a, "text": state.describe_action(a)} for a in state.legal_actions()] if mine else []
            prompt_fn = getattr(state, "prompt", None)
            out: dict[str, Any] = {
                "game_id": live.stored.id,
                "ruleset": live.game.id,
                "game_name": live.game.name,
                "view": extras.view_for(live.game.id),
                "scenario": public_scenario(live),
                "scenario_name": getattr(state, "scenario_name", None)
                or extras.scenario_name(live.game, public_scenario(live)),
                "seat": viewer,
                "watching": watching,
                "seat_name": "spectator" if watching else (names[seat] if seat < len(names) else f"seat {seat}"),
                "seat_names": list(names),
                "seats": [{"name": names[i] if i < len(names) else f"seat {i}", "kind": k}
                          for i, k in enumerate(live.stored.seat_kinds)],
                "version": live.version,
                "to_move": None if mover is None else ("chance" if mover == CHANCE else mover),
                "to_move_name": names[mover] if mover is not None and 0 <= mover < len(names) else None,
                "your_turn": mine,
                "prompt": prompt_fn() if callable(prompt_fn) else "",
                "actions": actions,
                "observation": state.observation(viewer),
                "result": None if res is None else {
                    **res.to_json(), "winner_name": None if res.winner is None else names[res.winner]},
                "log": self.log_for(live, seat, since),
                "log_since": max(0, min(since, len(live.history))),
                "undo": {"possible": False, "text": "a watch link cannot undo"} if watching
                else self._undo_json(live, seat),
                "ai_thinking": live.ai_running,
                "ai_plans": list(live.plans),
                # what the thinking AI is, with how long it may take ("normal (up to 2 seconds a turn)")
                "ai_level": (None if mover is None or not 0 <= mover < len(live.stored.seat_kinds)
                             else AI_LEVELS.get(live.stored.seat_kinds[mover]) if get(live.game.id).ai.timed
                             else live.stored.seat_kinds[mover]),
            }
        return out

    def log_for(self, live: LiveGame, seat: int, since: int = 0) -> list[dict[str, Any]]:
        """The events ``seat`` may see from history entry ``since`` on (0 is the setup)."""
        out: list[dict[str, Any]] = []
        start = max(0, min(since, len(live.history)))
        viewer = None if seat == WATCH else seat
        for i in range(start, len(live.history)):
            for e in events_for_seat(live.history[i].events, viewer):
                out.append({"at": i, "kind": e.kind, "text": e.text,
                            "data": {k: v for k, v in e.data.items() if k in EVENT_KEYS}})
        return out

    def step_text(self, live: LiveGame, k: int, seat: int) -> str:
        """What ``seat`` may be told of history step ``k`` (the action that led from entry ``k``
        to ``k + 1``): its own decisions as played; anyone else's (and the dice's) only through
        the events that seat saw, redacted exactly as in its log. Every response that speaks of
        a step (undo, replay) goes through here, so a hidden choice (a card kept, a card laid
        face down, a shuffle) never reaches another seat."""
        h = live.history
        after = h[k + 1]
        if isinstance(after, Conceded):
            return after.reason
        mover = h[k].to_move()
        if seat != WATCH and mover == seat:
            return live.stored.actions[k]
        viewer = None if seat == WATCH else seat
        seen = [e.text for e in events_for_seat(h[k + 1].events, viewer) if e.text]
        if seen:
            return "; ".join(seen)
        names = live.seat_names()
        who = "the dice" if mover == CHANCE else (names[mover] if mover is not None and 0 <= mover < len(names)
                                                  else "a seat")
        return f"{who} decides"

    def replay_step(self, live: LiveGame, seat: int, step: int) -> dict[str, Any]:
        """A finished game as ``seat`` saw it after ``step`` actions."""
        with live.lock:
            if not live.state.is_terminal():
                raise WebError(409, "replay is for finished games; this one is still being played")
            total = len(live.history) - 1
            if not 0 <= step <= total:
                raise WebError(400, f"'step' must be 0..{total}, got {step}")
            st = live.history[step]
            viewer = None if seat == WATCH else seat
            return {
                "step": step, "total": total,
                "action": self.step_text(live, step - 1, seat) if step else None,
                "observation": st.observation(viewer),
                "events": [{"at": step, "kind": e.kind, "text": e.text,
                            "data": {k: v for k, v in e.data.items() if k in EVENT_KEYS}}
                           for e in events_for_seat(st.events, viewer)],
            }

    def odds(self, live: LiveGame, seat: int, action: str) -> dict[str, Any]:
        """The exact odds of an attack action the seat may take now."""
        if seat == WATCH:
            raise WebError(403, "a watch link only watches: it has no decisions")
        with live.lock:
            state = live.state
            if state.to_move() != seat:
                raise WebError(409, "it is not your decision now")
            if action not in state.legal_actions():
                raise WebError(422, f"{action!r} is not one of your legal actions now")
            result = state.action_odds(action)
        if result is None:
            raise WebError(404, f"no odds for {action!r} in {live.game.id}")
        return result

    def calculator(self, live: LiveGame, body: dict[str, Any]) -> dict[str, Any]:
        """A game's dice calculator (Kensei's roll resolver): exact odds of a situation the
        players describe. Nothing hidden goes in or out, so every link may ask."""
        hook_name = get(live.game.id).calculator
        if hook_name is None:
            raise WebError(404, f"{live.game.name} has no dice calculator")
        with live.lock:
            state = live.state
        try:
            result: dict[str, Any] = hook(hook_name)(live.game, state, body)
        except KassenError as exc:
            raise WebError(422, str(exc)) from None
        return result

    # ----------------------------------------------------------- actions
    def act(self, live: LiveGame, seat: int, action: str, at: int | None) -> None:
        """Apply ``seat``'s action; 409 if it is not its turn or ``at`` is stale, 422 if illegal."""
        if seat == WATCH:
            raise WebError(403, "a watch link only watches: it cannot act")
        action = " ".join(action.split())
        with live.lock:
            if at is not None and at != live.version:
                raise WebError(409, f"stale: you saw the game after {at} actions, it is now at {live.version}; "
                                    "reload and decide again")
            state = live.state
            mover = state.to_move()
            if mover is None:
                raise WebError(409, "the game is over")
            if mover != seat:
                who = "the dice" if mover == CHANCE else live.seat_names()[mover]
                raise WebError(409, f"it is not your turn: {who} to move")
            legal = state.legal_actions()
            if action not in legal:
                shown = ", ".join(legal[:15]) + (" ..." if len(legal) > 15 else "")
                raise WebError(422, f"illegal action {action!r}; legal now: {shown}")
            self._commit(live, action)
        self.notify(live)
        self.schedule_ai(live)

    def _commit(self, live: LiveGame, action: str) -> None:
        """Apply and store one action (caller holds the lock): storage first, then memory."""
        new = live.state.apply(action)  # a conceded game refuses every action ("the game is over")
        self.storage.append_action(live.stored.id, len(live.stored.actions), action, new.is_terminal())
        live.history.append(new)
        live.stored.actions.append(action)

    def undo_check(self, live: LiveGame, seat: int) -> tuple[int | None, str]:
        """Where undo for ``seat`` would go back to (``None``: refused) and a sentence saying so.

        Only against computer players: back to ``seat``'s previous decision (taking back the
        computer's answers to it too), never past a die roll or a card the seat was shown.
        """
        if live.conceded is not None:
            return None, "the game is over: a concession is never taken back"
        kinds = live.stored.seat_kinds
        if any(k == HUMAN for i, k in enumerate(kinds) if i != seat):
            return None, "Undo is only possible against the AI: between people every decision stands"
        n = live.version
        h = live.history
        back: int | None = None
        for k in range(n - 1, -1, -1):
            if any(rolled_dice(e) for e in h[k + 1].events):
                return None, ("Undo cannot take back a die roll: dice were rolled after your last decision, and "
                             "dice are never rolled again")
            if h[k].to_move() == seat:
                back = k
                break
        if back is None:
            return None, "nothing to undo yet: you have not decided anything"
        for k in range(back, n):
            if any(e.visible_to is not None and seat in e.visible_to for e in h[k + 1].events):
                return None, ("Undo cannot take back a card you have seen: a card was drawn or shown to you "
                             "after your last decision")
        return back, "take back " + " / ".join(self.step_text(live, k, seat) for k in range(back, n))

    def _undo_json(self, live: LiveGame, seat: int) -> dict[str, Any]:
        back, why = self.undo_check(live, seat)
        return {"possible": back is not None and not live.ai_running, "text": why}

    def undo(self, live: LiveGame, seat: int) -> list[str]:
        """Take back ``seat``'s last decision; returns what ``seat`` may be told of the steps
        undone (:meth:`step_text`; 409 if refused)."""
        if seat == WATCH:
            raise WebError(403, "a watch link only watches: it cannot undo")
        with live.lock:
            if live.ai_running:
                raise WebError(409, "the AI is thinking; undo when it is your move")
            back, why = self.undo_check(live, seat)
            if back is None:
                raise WebError(409, why)
            undone = [self.step_text(live, k, seat) for k in range(back, live.version)]
            self.storage.truncate_actions(live.stored.id, back)
            del live.stored.actions[back:]
            del live.history[back + 1:]
        self.notify(live)
        return undone

    def concede(self, live: LiveGame, seat: int, at: int | None) -> str:
        """``seat`` gives the game up (at any moment, its move or not): the game is over with
        :func:`~kassen.engine.concession.concession_result`; returns its reason. 403 for a watch
        link or a computer's seat, 409 for a finished game or a stale ``at``. Stored before it
        is applied; an AI decision being made meanwhile is dropped (the game is over)."""
        if seat == WATCH:
            raise WebError(403, "a watch link only watches: it cannot concede")
        if not 0 <= seat < len(live.stored.seat_kinds) or live.stored.seat_kinds[seat] != HUMAN:
            raise WebError(403, "only a person's seat can concede")
        with live.lock:
            if at is not None and at != live.version:
                raise WebError(409, f"stale: you saw the game after {at} actions, it is now at {live.version}; "
                                    "reload and decide again")
            if live.state.is_terminal():
                raise WebError(409, "the game is over: a finished game cannot be conceded")
            try:
                new = Conceded(live.state, seat)
            except KassenError as exc:
                raise WebError(409, str(exc)) from None
            self.storage.concede(live.stored.id, seat)
            live.stored.conceded = seat
            live.stored.finished = True
            live.history.append(new)
            live.pending = None
        self.notify(live)
        return new.reason

    # ---------------------------------------------------------------- AI
    def schedule_ai(self, live: LiveGame) -> None:
        """Queue the game's next AI decision if a computer seat (or chance) is to move.

        AI work is one decision at a time, shared by counted work (:class:`AiScheduler`): after
        each, the game waits again, and the game that has used the least goes first, games with
        a person before games between computers (whose count ``limits.ai_only_games`` bounds);
        one address has at most ``limits.thinking_per_client`` decisions made at once."""
        if self.closed:
            return
        with live.lock:
            if live.ai_running or not self._machine_to_move(live):
                return
            live.ai_running = True
        self._enqueue(live)

    def _enqueue(self, live: Thinker) -> None:
        self.scheduler.add(live)

    def _machine_to_move(self, live: LiveGame) -> bool:
        mover = live.state.to_move()
        return mover == CHANCE or (mover is not None and mover in live.players)

    def _ai_worker(self) -> None:
        while True:
            live = self.scheduler.take()
            if live is None:
                return
            if isinstance(live, BackgroundWork):
                self._background_step(live)
                continue
            start = time.thread_time()
            try:
                again = self._ai_decision(live)
                live.failures = 0
            except Exception as exc:
                again = self._ai_failed(live, exc)
            finally:
                live.work += time.thread_time() - start
                self.scheduler.done(live)
            if again:
                self._enqueue(live)  # back among the waiting: the game that has used least goes first
            self.notify(live)

    def _background_step(self, work: BackgroundWork) -> None:
        start = time.thread_time()
        again = False
        try:
            again = work.step() and not self.closed
        except Exception as exc:
            log.exception("background AI work failed")
            work.failed(exc)
        finally:
            work.work += time.thread_time() - start
            self.scheduler.done(work)
        if again:
            self._enqueue(work)  # back among the waiting, behind every game with a person

    def ai_only_games(self) -> int:
        """Games between computer players being played: unfinished ones in memory and those
        a balance check plays (``background_ai_games``), bounded together by ``limits.ai_only_games``."""
        with self.games_lock:
            running = sum(1 for g in self.games.values() if not g.interactive and not g.state.is_terminal())
            return running + sum(self.background_ai_games.values())

    def _ai_failed(self, live: LiveGame, exc: Exception) -> bool:
        """An AI decision that could not be made or stored (a database error, most often): it is
        tried again after a pause that doubles each time (up to ``limits.retry_max_seconds``),
        and the game keeps its thinker meanwhile. Whether to queue it again."""
        live.failures += 1
        delay = min(self.limits.retry_max_seconds, 0.25 * 2 ** min(live.failures - 1, 16))
        if self.closed:
            with live.lock:
                live.ai_running = False
            return False
        from sqlalchemy.exc import DBAPIError

        from kassen.web.storage import StorageUnavailable

        if isinstance(exc, (DBAPIError, StorageUnavailable)):
            log.error("AI move of game %s not stored (%s); trying again in %.2g s", live.stored.id,
                      first_line(exc), delay)
        else:
            log.exception("AI of game %s failed; trying again in %.2g s", live.stored.id, delay)
        live.retry_at = time.monotonic() + delay
        return True

    def _watchdog_loop(self) -> None:
        while not self.closed:
            time.sleep(self.limits.watchdog_seconds)
            try:
                self.watch_ai()
            except Exception:
                log.exception("the AI watchdog failed")

    def watch_ai(self) -> int:
        """Every game in memory whose computer seat (or chance) is to move has a thinker: one
        without is scheduled again (and said so in the log). Returns how many were."""
        with self.games_lock:
            games = list(self.games.values())
        stranded = 0
        for live in games:
            with live.lock:
                lost = not live.ai_running and not self.closed and self._machine_to_move(live)
            if lost:
                log.warning("game %s: a computer seat was to move with nobody thinking; its AI goes on",
                            live.stored.id)
                stranded += 1
                self.schedule_ai(live)
        return stranded

    def _ai_decision(self, live: LiveGame) -> bool:
        """Make one AI (or chance) decision of ``live``, if one is due; whether another is due.
        When none is, ``ai_running`` is cleared under the same lock that saw it, so a person's
        next action schedules the AI afresh (one chain of AI work per game, never two)."""
        with live.lock:
            state, version = live.state, live.version
            mover = state.to_move()
            if self.closed or mover is None or not self._machine_to_move(live):
                live.ai_running = False
                return False
        pending = live.pending
        if pending is not None and pending[0] == version:
            action = pending[1]  # decided before, not stored then (a retry): not decided again
        elif mover == CHANCE:
            with live.lock:
                action = sample_chance(state.chance_outcomes(), self.chance_rng)
        else:
            with live.lock:
                self._note_plans(live)
            player = live.players[mover]
            if isinstance(player, RemoteSeat):  # outside the lock: may take a while
                assert self.thinkers is not None
                s = live.stored
                with live.lock:  # the record up to the state decided for (an undo meanwhile: decided again below)
                    actions = tuple(s.actions[:version])
                action, player.explanation, spent = self.thinkers.ask(Question(
                    s.id, s.ruleset, s.scenario, s.seed, tuple(sorted(s.options.items())), actions, mover,
                    player.kind, player.seed))
                live.work += spent
            else:
                action = player.choose(state, mover)
        live.pending = (version, action)
        with live.lock:
            if live.version == version:  # else undone meanwhile: decide again
                self._commit(live, action)
                self._note_plans(live)
            live.pending = None
            if self.closed or not self._machine_to_move(live):
                live.ai_running = False
                return False
        return True

    def _note_plans(self, live: LiveGame) -> None:
        """Once a turn is over, keep each AI's explanation of it (``ai_plans`` in the view):
        the actions it planned, which the table has seen, and its estimate."""
        explaining = {s: p for s, p in live.players.items() if hasattr(p, "explanation")}
        if not explaining:
            return
        obs = live.state.observation(None)
        turn = (obs.get("turn"), obs.get("round"), obs.get("active"), live.state.is_terminal())
        if turn == live.plans_turn:
            return
        live.plans_turn = turn
        names = live.seat_names()
        for seat, player in explaining.items():
            text = getattr(player, "explanation", None)
            if isinstance(text, str) and not any(p["seat"] == seat and p["text"] == text for p in live.plans[-4:]):
                live.plans.append({"seat": seat, "name": names[seat] if seat < len(names) else f"seat {seat}",
                                   "text": text, "at": live.version})
        del live.plans[:-20]

    # ------------------------------------------------------------ notify
    def notify(self, live: LiveGame) -> None:
        for fn in list(self.listeners):
            try:
                fn(live.stored.id, live.version)
            except Exception:
                log.exception("listener failed")

    def close(self) -> None:
        self.closed = True
        self.scheduler.close()
        if self.thinkers is not None:
            self.thinkers.close()
