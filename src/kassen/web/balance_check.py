"""The scenario editor's "How balanced?" (issue 36): a design played N times between two
computer players on the server's own AI workers, with the sides swapped every other game,
and reported as the lobby reports a shipped battle (``kassen balance``'s statistics, its
note and its small plot).

A check's games are :class:`~kassen.web.service.BackgroundWork`: each makes one decision
per turn of the AI scheduler, which always serves a game with a person first and shares
the rest by counted work, so a check never keeps a person waiting for more than the one
decision a worker was making. A check plays ``AT_ONCE`` game at a time, which counts as a
game between computer players against the server's ``--max-ai-games`` (429 beyond, naming
it); one address runs one check at a time. Game ``i`` is dealt with seed
``seed + i`` and its players are made as ``kassen balance`` makes them, so a check is the
same series ``kassen balance`` would play from that seed. Checks live in memory (a
restarted server forgets them; the design itself is kept in the database).
"""

from __future__ import annotations

import logging
import secrets
import tempfile
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kassen.ai.balance import GameWatcher, analysed_summary, full_report, write_summary_plot
from kassen.ai.players import Player
from kassen.ai.series import GameSpec
from kassen.engine.protocol import CHANCE, State, sample_chance
from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game
from kassen.web.service import BackgroundWork, GameService, WebError
from kassen.web.thinkers import Question, RemoteSeat, ThinkerLost

log = logging.getLogger("kassen.web")

#: games of one check played at once (each counts as a game between computer players). One:
#: a check is never interactive and a second game would only take a second AI worker from
#: people's games (docs/decisions.md, "The scenario editor"); with the AI in child processes
#: (``kassen serve``), its decisions are made there, never in the server's interpreter
AT_ONCE = 1
#: the most games one check plays
MAX_GAMES = 200
#: finished checks remembered (the oldest are forgotten first)
KEEP = 50
#: actions after which a game is stopped and counted unfinished (as ``kassen balance``)
MAX_ACTIONS = 20000


@dataclass
class BalanceJob:
    """One "How balanced?" check: its games, its progress and, when done, its report."""

    id: str
    client: str
    game_id: str
    scenario: str  # the design's file, kept by the server (never shown)
    name: str
    players: list[str]
    games: int
    seed: int
    started: float = field(default_factory=time.time)
    results: list[dict[str, Any]] = field(default_factory=list)
    next_game: int = 0
    playing: int = 0
    report: dict[str, Any] | None = None
    plot: str | None = None  # the SVG text
    error: str | None = None
    finished: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def done(self) -> bool:
        return self.finished is not None


class CheckGame(BackgroundWork):
    """Game ``index`` of a check, played one decision per step."""

    def __init__(self, checks: BalanceChecks, job: BalanceJob, index: int) -> None:
        super().__init__(f"balance check of {job.client}")
        self.checks = checks
        self.job = job
        order = tuple(job.players) if index % 2 == 0 else tuple(reversed(job.players))
        self.spec = GameSpec(job.game_id, job.scenario, order, job.seed + index, MAX_ACTIONS)
        self.state: State = load_game(job.game_id).new_state(job.scenario, self.spec.seed)
        # seeded as kassen.ai.series.play_game seeds them: the same series as kassen balance's; with
        # the server's AI in child processes (kassen.web.thinkers), the players live in a child too
        seeds = [self.spec.seed * 7919 + i for i in range(len(order))]
        self.thinkers = checks.svc.thinkers
        self.players: list[Player | RemoteSeat] = (
            [RemoteSeat(n, seed) for n, seed in zip(order, seeds, strict=True)] if self.thinkers is not None
            else [checks.svc.make_player(n, seed) for n, seed in zip(order, seeds, strict=True)])
        self.key = f"balance:{job.id}:{index}"  # the game's name to the children
        self.history: list[str] = []
        self.watcher = GameWatcher()
        self.watcher(self.state)
        self.actions = 0
        self.chance = Rng(self.spec.seed)

    def step(self) -> bool:
        if self.job.done:  # the check failed meanwhile
            return False
        state = self.state
        if state.is_terminal() or self.actions >= self.spec.max_actions:
            self.checks.game_over(self)
            return False
        seat = state.to_move()
        assert seat is not None
        player = None if seat == CHANCE else self.players[seat]
        if player is None:
            action = sample_chance(state.chance_outcomes(), self.chance)
        elif isinstance(player, RemoteSeat):
            assert self.thinkers is not None
            try:
                action, _, spent = self.thinkers.ask(Question(
                    self.key, self.job.game_id, self.job.scenario, self.spec.seed, (), tuple(self.history), seat,
                    player.kind, player.seed))
            except ThinkerLost:  # the child died (it is started again): the same decision, asked again
                return not self.checks.svc.closed
            self.work += spent
        else:
            action = player.choose(state, seat)
        self.state = state.apply(action)
        self.history.append(action)
        self.actions += 1
        self.watcher(self.state)
        if self.state.is_terminal() or self.actions >= self.spec.max_actions:
            self.checks.game_over(self)
            return False
        return True

    def failed(self, exc: Exception) -> None:
        self.checks.fail(self.job, f"game {self.spec.seed - self.job.seed + 1} could not be played: {exc}")

    def summary(self) -> dict[str, Any]:
        return analysed_summary(self.spec, self.state, self.actions, self.watcher)


class BalanceChecks:
    """The checks of one server, over its :class:`GameService` (workers, limits, chance)."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc
        self.jobs: OrderedDict[str, BalanceJob] = OrderedDict()
        self.lock = threading.Lock()

    def start(self, game_id: str, scenario: str, name: str, players: list[str], games: int,
              client: str) -> BalanceJob:
        """A new check of the design in ``scenario`` (a file); 429 when the server's games between
        computer players, or this address's checks, are at their bound."""
        if not 2 <= games <= MAX_GAMES:
            raise WebError(400, f"'games' must be 2..{MAX_GAMES}, got {games}")
        bound = self.svc.limits.ai_only_games
        width = min(AT_ONCE, games)
        with self.lock:
            if any(j.client == client and not j.done for j in self.jobs.values()):
                raise WebError(429, "this address has a balance check running (one at a time per address); "
                                    "wait for it to finish", headers={"Retry-After": "30"})
            running = self.svc.ai_only_games()
            if running + width > bound:
                raise WebError(429, f"{running} games between computer players are being played on this server and "
                                    f"a balance check plays {width} at once: at most {bound} are allowed together "
                                    "(--max-ai-games); try again later", headers={"Retry-After": "60"})
            seed = secrets.randbits(40) if self.svc.seeds is None else self.svc.seeds.next64() >> 24
            job = BalanceJob(secrets.token_urlsafe(12), client, game_id, scenario, name, list(players), games, seed)
            self.jobs[job.id] = job
            with self.svc.games_lock:
                self.svc.background_ai_games[job.id] = width
            self._forget_old()
        for _ in range(width):
            self._next_game(job)
        return job

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.done]
        for k in finished[:max(0, len(finished) - KEEP)]:
            del self.jobs[k]

    def _next_game(self, job: BalanceJob) -> None:
        with job.lock:
            if job.done or job.next_game >= job.games:
                return
            index = job.next_game
            job.next_game += 1
            job.playing += 1
        try:
            game = CheckGame(self, job, index)
        except Exception as exc:  # the design no longer sets up (its file gone): said, not hidden
            self.fail(job, f"game {index + 1} could not be set up: {exc}")
            return
        self.svc.scheduler.add(game)

    def game_over(self, game: CheckGame) -> None:
        job = game.job
        summary = game.summary()
        with job.lock:
            job.results.append(summary)
            job.playing -= 1
            last = len(job.results) == job.games
        if last:
            self._report(job)
        else:
            self._next_game(job)

    def _report(self, job: BalanceJob) -> None:
        """The check's report and plot, as ``kassen balance`` makes a shipped battle's."""
        try:
            report = full_report(job.game_id, job.scenario, job.results)
            report["scenario"] = "design"
            with tempfile.TemporaryDirectory() as tmp:
                svg = Path(tmp) / write_summary_plot(report, tmp, "design")
                plot = svg.read_text(encoding="utf-8")
        except Exception as exc:
            log.exception("balance check %s: no report", job.id)
            self.fail(job, f"the report could not be made: {exc}")
            return
        with job.lock:
            job.report, job.plot = report, plot
            job.finished = time.time()
        self._release(job)

    def fail(self, job: BalanceJob, why: str) -> None:
        with job.lock:
            if job.done:
                return
            job.error = why
            job.finished = time.time()
        self._release(job)

    def _release(self, job: BalanceJob) -> None:
        """The check's games no longer count against ``--max-ai-games``."""
        with self.svc.games_lock:
            self.svc.background_ai_games.pop(job.id, None)

    def get(self, job_id: str) -> BalanceJob:
        job = self.jobs.get(job_id)
        if job is None:
            raise WebError(404, f"no balance check {job_id[:40]!r} on this server (a restarted server "
                                "forgets its checks: start it again)")
        return job

    def to_json(self, job: BalanceJob) -> dict[str, Any]:
        """A check's progress and, when done, the figure the lobby shows for a shipped battle."""
        with job.lock:
            done_games = len(job.results)
            out: dict[str, Any] = {
                "id": job.id, "name": job.name, "players": list(job.players), "games": job.games,
                "done": done_games, "playing": job.playing,
                "state": "failed" if job.error else "done" if job.report is not None else "running",
                "error": job.error, "figure": None,
            }
            rep = job.report
        if rep is not None:
            out["figure"] = {
                "date": time.strftime("%Y-%m-%d", time.gmtime(job.finished or job.started)),
                "players": list(job.players), "games": rep["games"],
                "command": f"kassen balance {job.game_id} DESIGN.toml --players {','.join(job.players)} "
                           f"--games {job.games} --seed {job.seed}",
                "win_rate": {s: {"wins": w["wins"], "rate": w["rate"], "ci95": w["ci95"]}
                             for s, w in rep["win_rate_by_side"].items()},
                "draws": rep["draws"], "unfinished": rep["unfinished"],
                "mean_turns": rep["length"]["turns"]["mean"],
                "plot": f"/api/editor/balance/{job.id}/plot.svg",
            }
        return out
