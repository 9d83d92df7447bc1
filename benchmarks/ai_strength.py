"""AI strength: seeded AI-vs-AI series on the First Samurai Skirmish, sides alternated.

Targets (from the issue; measured here, never in unit tests), each over at least
100 games:

* greedy beats random in at least 90% of the games;
* mcts at 1 second per decision beats greedy in at least 70%.

Usage (from the project root)::

    .venv/bin/python benchmarks/ai_strength.py --games 100 --workers 2 --pairs greedy:random
    .venv/bin/python benchmarks/ai_strength.py --games 100 --workers 2 --pairs mcts:greedy --mcts-seconds 1.0

``--pairs`` lists ``A:B`` pairings; the first player's win rate is the one that
is judged. ``mcts`` is ``MCTSPlayer(seed, iterations=10**9, seconds=S)`` with
``S = --mcts-seconds`` (``mcts@0.5`` sets S for one pairing); ``mcts@1300it`` is
``MCTSPlayer(seed, iterations=1300)``, a counted budget that no load on the machine
changes (use it for long runs: the iterations one core makes in S seconds, measured
by ``benchmarks/mcts_iterations.py``, stand for "S seconds per decision"). Every pairing is
played by :func:`play_game` (the same seeds, seats and limits as
:func:`kassen.ai.series.play_one`, but with a player factory, timed, and in C&C with each
seat's Dragon cards played and Leaders lost counted from the log: :class:`Tally`).
``LEVEL+key=value`` labels are a level with planner settings changed (``benchmarks/strength.py``),
e.g. today's ``normal`` frozen at e5b1536:
``normal+weights=benchmarks/weights_cc_normal_e5b1536.json+dragon_hold=0.5``.

Game ``i`` of a pairing uses seed ``seed + i``; odd games swap the seats. A draw or
an unfinished game counts as not won. A target is *met* when the observed win
rate reaches it and *met with confidence* when the lower end of the 95% Wilson
interval does. Exit status: 0, or 1 with ``--check`` when a target is missed.

A long series is split by seed across processes and sessions (``--games 2 --seed S --json
part-S.json`` for S = 0, 2, 4, ...) and counted as one with ``--merge part-*.json [--json all.json]``:
each seed once (a seed in two files must have the same result), the same report as one run.
The parts are kept in one file, ``benchmarks/results/NAME.jsonl`` (``benchmarks/series.py pack``),
which ``--merge`` reads as it reads the parts: ``--merge benchmarks/results/NAME.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import series

from kassen.ai.players import Player, make_player
from kassen.ai.search import MCTSPlayer
from kassen.ai.series import GameSpec, game_summary, specs, summarize
from kassen.ai.series import play_game as series_play_game
from kassen.engine.protocol import State
from kassen.rulesets.registry import load_game

#: (player, opponent) -> the share of games the player must win
TARGETS: dict[tuple[str, str], float] = {("greedy", "random"): 0.90, ("mcts", "greedy"): 0.70,
                                         ("hard", "mcts"): 0.75}
MIN_GAMES = 100
#: the game of a series whose file does not name one (``--game``'s default; merged files before issue 33)
DEFAULT_GAME = "cc-samurai"


def base_name(label: str) -> str:
    """``'mcts@1s'`` -> ``'mcts'``; ``'mcts@1300it'`` -> ``'mcts'``."""
    return label.split("@", 1)[0]


def label_for(name: str, mcts_seconds: float) -> str:
    """The label a pairing's player gets: ``mcts`` becomes ``mcts@<seconds>s``."""
    name = name.strip().lower()
    base, _, secs = name.partition("@")
    if base == "plansearch":
        return name
    if base != "mcts":
        if secs:
            raise SystemExit(f"{name!r}: only mcts takes @seconds")
        return base
    if secs.endswith("it"):
        if not secs[:-2].isdigit() or int(secs[:-2]) < 1:
            raise SystemExit(f"{name!r}: iterations per decision must be a positive whole number")
        return f"mcts@{int(secs[:-2])}it"
    seconds = float(secs.rstrip("s")) if secs else mcts_seconds
    if seconds <= 0:
        raise SystemExit(f"{name!r}: seconds per decision must be positive")
    return f"mcts@{seconds:g}s"


def make(label: str, seed: int) -> Player:
    """The player a label names (``mcts@1s`` -> an MCTS player with a 1 second budget,
    ``mcts@1300it`` -> one with 1,300 iterations a decision, ``hard+card_rollouts=48`` -> the
    ``hard`` planner with that setting changed)."""
    base, _, secs = label.partition("@")
    if base == "plansearch":
        return plansearch(label, seed)
    if base == "mcts" and secs.endswith("it"):
        return MCTSPlayer(seed, iterations=int(secs[:-2]))
    if base == "mcts" and secs:
        return MCTSPlayer(seed, iterations=10**9, seconds=float(secs.rstrip("s")))
    if "+" in label:  # a level with settings changed: ``hard+card_rollouts=48``
        # benchmarks/ is on sys.path when a script here runs
        from strength import make as make_level

        return make_level(label, seed)
    return make_player(base, seed)


def plansearch(label: str, seed: int) -> Player:
    """``plansearch@<N>it[+planner=<level>][+c=<float>][+scale=<float>][+<planner key>=<value>]``:
    :class:`~kassen.ai.evaltree.PlanSearchPlayer` with N iterations a searched decision and the card
    chosen by that level's planner (default ``normal``), settings changed by the other keys."""
    from kassen.ai.evaltree import PlanSearchPlayer
    from kassen.ai.players import PLANNER_LEVELS

    head, *pairs = label.split("+")
    budget = head.partition("@")[2]
    if not budget.endswith("it") or not budget[:-2].isdigit():
        raise SystemExit(f"{label!r}: plansearch@<iterations>it")
    opts: dict[str, float] = {}
    level = "normal"
    changes: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key == "planner":
            level = value
        elif key in ("c", "scale"):
            opts[key] = float(value)
        else:
            changes[key] = float(value) if "." in value else int(value)
    settings: dict[str, Any] = {**PLANNER_LEVELS[level], **changes}
    return PlanSearchPlayer(seed, iterations=int(budget[:-2]), planner=settings, name=label, **opts)


class Timed(Player):
    """Counts a player's decisions, those it had to think about (2+ legal actions), its wall and CPU
    time, the turns it played (C&C: its ``play`` decisions; the other games: the game turns in which
    it decided) and its longest turn (wall seconds). ``benchmarks/strength.py`` uses it too."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.decisions = 0
        self.searched = 0
        self.seconds = 0.0
        self.cpu = 0.0
        self.turns = 0
        self.worst_turn = 0.0
        self._turn = 0.0
        self._game_turn: object = None

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions()
        if state.game.id.startswith("cc-samurai"):  # C&C: a turn begins with playing a Command card
            new_turn = bool(legal) and all(a.startswith("play ") for a in legal)
        else:  # the other games: the game turn (deployment round) of the observation changes
            turn = state.observation(seat).get("turn")
            new_turn, self._game_turn = turn != self._game_turn, turn
        if new_turn:
            self.turns += 1
            self._turn = 0.0
        self.decisions += 1
        if len(legal) > 1:
            self.searched += 1
        t = time.perf_counter()
        c = time.process_time()
        try:
            return self.inner.choose(state, seat)
        finally:
            dt = time.perf_counter() - t
            self.seconds += dt
            self.cpu += time.process_time() - c
            self._turn += dt
            self.worst_turn = max(self.worst_turn, self._turn)


class Tally:
    """Counts from a C&C game's log, per seat: Dragon cards played, Leaders killed (the seat's
    own Leaders lost) and those killed by a Leader Casualty Check (the Leader was with a unit
    that took a hit). Watches every state of :func:`kassen.ai.series.play_game`."""

    def __init__(self) -> None:
        self.dragon_cards = [0, 0]
        self.leaders_lost = [0, 0]
        self.leaders_lost_in_check = [0, 0]
        self._removed = 0

    def __call__(self, state: State) -> None:
        if not state.game.id.startswith("cc-samurai"):
            return
        events = state.events
        check = any(e.kind == "casualty_check" for e in events)
        for e in events:
            if e.kind == "dragon":
                self.dragon_cards[int(e.data["side"])] += 1
        removed = getattr(state, "removed", [])
        for r in removed[self._removed:]:
            if r.get("cause") == "killed" and r.get("type") in ("foot", "mounted", "commander"):
                self.leaders_lost[int(r["side"])] += 1
                if check:
                    self.leaders_lost_in_check[int(r["side"])] += 1
        self._removed = len(removed)


def play_game(spec: GameSpec) -> dict[str, Any]:
    """One game between labelled players: ``series.play_one`` plus timings, and in C&C the
    Dragon cards played and Leaders lost by each seat (:class:`Tally`)."""
    start = time.perf_counter()
    players = [Timed(make(label, spec.seed * 7919 + i)) for i, label in enumerate(spec.players)]
    tally = Tally()
    state, actions = series_play_game(spec, list(players), tally)
    out = game_summary(spec, state, actions)
    out.update({
        "dragon_cards_by_seat": tally.dragon_cards,
        "leaders_lost_by_seat": tally.leaders_lost,
        "leaders_lost_in_check_by_seat": tally.leaders_lost_in_check,
        "seconds": time.perf_counter() - start,
        "decisions_by_seat": [p.decisions for p in players],
        "searched_by_seat": [p.searched for p in players],
        "think_seconds_by_seat": [p.seconds for p in players],
        "think_cpu_by_seat": [p.cpu for p in players],
    })
    return out


def run_pairing(game_id: str, scenario: str | None, labels: list[str], games: int, seed: int, workers: int,
                on_game: Any) -> list[dict[str, Any]]:
    """All the games of one pairing, seats alternated (timed, and tallied by :class:`Tally`)."""
    todo = list(specs(game_id, scenario, labels, games, seed, swap=True))
    out: list[dict[str, Any]] = []
    if workers <= 1:
        for spec in todo:
            out.append(play_game(spec))
            on_game(out[-1])
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for r in pool.map(play_game, todo):
            out.append(r)
            on_game(r)
    return out


def judge(labels: list[str], stats: Any, games: int) -> dict[str, Any]:
    """The first player's win rate, its interval, and the target for the pairing if there is one."""
    a, b = labels
    n = stats.games_by_player.get(a, 0)
    w = stats.wins_by_player.get(a, 0)
    lo, hi = stats.ci95_by_player.get(a, [0.0, 1.0])
    target = TARGETS.get((base_name(a), base_name(b)))
    rate = w / n if n else 0.0
    out: dict[str, Any] = {"player": a, "opponent": b, "games": n, "wins": w, "win_rate": rate, "ci95": [lo, hi],
                           "target": target}
    if target is not None:
        out["met"] = rate >= target
        out["met_with_confidence"] = lo >= target
        if base_name(a) == "mcts" and a != "mcts@1s":
            out["note"] = "the target is for mcts at 1 second per decision"
        if base_name(b) == "mcts" and b.endswith("it"):
            out["note"] = f"{b}: a counted budget standing for 1 second per decision (see the docstring)"
    if games < MIN_GAMES:
        out["note"] = (out.get("note", "") + "; " if out.get("note") else "") + \
            f"only {games} games: the targets need at least {MIN_GAMES}"
    return out


def conclude(labels: list[str], results: list[dict[str, Any]], seats: tuple[str, ...], wall: float,
             workers: int) -> dict[str, Any]:
    """Print a pairing's count, interval, target and timings; return them (the JSON's pairing)."""
    stats = summarize(results, seats)
    verdict = judge(labels, stats, len(results))
    verdict.update({"wall_seconds": wall, "wall_seconds_per_game": wall / len(results),
                    "mean_actions": stats.mean_actions, "mean_turns": stats.mean_turns,
                    "draws": stats.draws, "unfinished": stats.unfinished, "wins_by_seat": stats.wins_by_seat})
    if all("seconds" in r for r in results):
        verdict["game_seconds"] = [r["seconds"] for r in results]
        for lb in labels:
            searched = sum(r["searched_by_seat"][r["players"].index(lb)] for r in results)
            think = sum(r["think_seconds_by_seat"][r["players"].index(lb)] for r in results)
            verdict[f"{lb}_searched_decisions_per_game"] = searched / len(results)
            verdict[f"{lb}_think_seconds_per_game"] = think / len(results)
    if all("dragon_cards_by_seat" in r for r in results):
        for lb in labels:
            seat_of = [r["players"].index(lb) for r in results]
            played = [r["dragon_cards_by_seat"][k] for r, k in zip(results, seat_of)]
            lost = sum(r["leaders_lost_by_seat"][k] for r, k in zip(results, seat_of))
            in_check = [r["leaders_lost_in_check_by_seat"][k] for r, k in zip(results, seat_of)]
            verdict[f"{lb}_dragon_cards"] = sum(played)
            verdict[f"{lb}_games_with_a_dragon_card"] = sum(1 for n in played if n)
            verdict[f"{lb}_leaders_lost"] = lost
            verdict[f"{lb}_games_with_a_leader_lost_in_a_casualty_check"] = sum(1 for n in in_check if n)
            print(f"  {lb}: {sum(played)} Dragon cards played, at least one in {sum(1 for n in played if n)} of "
                  f"{len(results)} games; {lost} Leaders lost, in a Leader Casualty Check in "
                  f"{sum(1 for n in in_check if n)} games")
    lo, hi = verdict["ci95"]
    print(f"  {labels[0]} won {verdict['wins']}/{verdict['games']} = {verdict['win_rate']:.0%} "
          f"(95% Wilson interval {lo:.0%} - {hi:.0%}); draws {stats.draws}, unfinished {stats.unfinished}; "
          f"wins by seat {stats.wins_by_seat}")
    print(f"  mean length {stats.mean_actions:.0f} actions, {stats.mean_turns:.1f} turns; "
          f"wall time {wall:.1f}s = {wall / len(results):.1f}s per game with {workers} worker(s)")
    for lb in labels:
        key = f"{lb}_think_seconds_per_game"
        if key in verdict:
            print(f"  {lb}: {verdict[f'{lb}_searched_decisions_per_game']:.0f} decisions with a choice "
                  f"per game, {verdict[key]:.1f}s thinking per game")
    if verdict["target"] is not None:
        t = verdict["target"]
        state = ("MET with confidence" if verdict["met_with_confidence"] else
                 "met (point estimate; the interval still reaches below it)" if verdict["met"] else "NOT MET")
        print(f"  target {base_name(labels[0])} beats {base_name(labels[1])} in >= {t:.0%}: {state}")
    if "note" in verdict:
        print(f"  note: {verdict['note']}")
    return verdict


def merge(paths: list[str], json_path: str | None, check: bool, seeds: tuple[int, int] | None = None) -> int:
    """The pairings of several ``--json`` files as one series each: games joined by seed. A
    series file (``benchmarks/results/NAME.jsonl``, :mod:`series`) counts as its parts' files."""
    by_title: dict[str, dict[int, dict[str, Any]]] = {}
    labels_of: dict[str, list[str]] = {}
    game_of: dict[str, str] = {}
    for path, doc in series.load_docs(paths):
        for pairing in doc["pairings"]:
            title = pairing["pairing"]
            labels_of[title] = [pairing["player"], pairing["opponent"]]
            # a merged file before issue 33 did not name its game: the default game, C&C Samurai
            game = doc["args"].get("game", DEFAULT_GAME)
            if game_of.setdefault(title, game) != game:
                raise SystemExit(f"{path}: {title} was played in {game}, elsewhere in {game_of[title]}")
            games = by_title.setdefault(title, {})
            for r in pairing["results"]:
                old = games.get(r["seed"])
                if old is not None and (old["players"], old["winner_seats"]) != (r["players"], r["winner_seats"]):
                    raise SystemExit(f"{path}: seed {r['seed']} of {title} has another result than in an earlier file")
                games[r["seed"]] = r
    report: list[dict[str, Any]] = []
    all_met = True
    for title, games in by_title.items():
        if seeds is not None:  # a range of the series (e.g. the 40 games a target asks for)
            games = {s: g for s, g in games.items() if seeds[0] <= s <= seeds[1]}
        played = sorted(games)  # (not ``seeds``: the range asked for holds for every pairing)
        if not played:  # a pairing of the file with no game in the range asked for
            continue
        results = [games[seed] for seed in played]
        print(f"== {title}: {len(results)} games merged from {len(paths)} file(s), seeds {_ranges(played)}")
        wall = sum(r.get("seconds", 0.0) for r in results)
        verdict = conclude(labels_of[title], results, load_game(game_of[title]).seats, wall, 1)
        all_met = all_met and verdict.get("met", True)
        report.append({"pairing": title, **verdict, "results": results})
    if not report:
        raise SystemExit(f"no game of {', '.join(paths)} has a seed in {seeds[0]}-{seeds[1]}" if seeds else
                         f"no game in {', '.join(paths)}")
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            games = sorted(set(game_of.values()))
            json.dump({"args": {"merge": paths, **({"game": games[0]} if len(games) == 1 else {})},
                       "pairings": report}, f, indent=1)
    return 1 if check and not all_met else 0


def _ranges(seeds: list[int]) -> str:
    """``0–3, 8, 22–25`` for the seeds 0, 1, 2, 3, 8, 22, 23, 24, 25.

    >>> _ranges([0, 1, 2, 3, 8, 22, 23, 24, 25])
    '0–3, 8, 22–25'
    """
    out: list[str] = []
    for s in seeds:
        if out and s == int(out[-1].split("–")[-1]) + 1:
            out[-1] = f"{out[-1].split('–')[0]}–{s}"
        else:
            out.append(str(s))
    return ", ".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=MIN_GAMES, help="games per pairing (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    ap.add_argument("--workers", type=int, default=1, help="processes to play in parallel")
    ap.add_argument("--mcts-seconds", type=float, default=1.0, help="MCTS thinking time per decision")
    ap.add_argument("--pairs", default="greedy:random,mcts:greedy",
                    help="comma-separated A:B pairings; A's win rate is judged (default %(default)s)")
    ap.add_argument("--game", default=DEFAULT_GAME)
    ap.add_argument("--scenario", default="first-samurai-skirmish")
    ap.add_argument("--json", dest="json_path", help="also write the results (every game) to this file")
    ap.add_argument("--check", action="store_true", help="exit with status 1 when a target is missed")
    ap.add_argument("--merge", nargs="+", metavar="JSON",
                    help="play nothing: merge the --json files of series split by seed (across processes or "
                         "sessions), or a series file (.jsonl), into one count per pairing; a seed met twice "
                         "must have the same result")
    ap.add_argument("--seeds", metavar="LO-HI", help="with --merge: count only the games of these seeds")
    args = ap.parse_args(argv)
    if args.merge:
        lo, _, hi = (args.seeds or "").partition("-")
        if args.seeds and not (lo.isdigit() and hi.isdigit() and int(lo) <= int(hi)):
            ap.error(f"--seeds must be LO-HI with LO <= HI, not {args.seeds!r}")
        return merge(args.merge, args.json_path, args.check, (int(lo), int(hi)) if args.seeds else None)
    if args.games < 1 or args.workers < 1:
        ap.error("--games and --workers must be at least 1")

    pairings: list[list[str]] = []
    for pair in args.pairs.split(","):
        names = [p for p in pair.strip().split(":") if p]
        if len(names) != 2:
            ap.error(f"--pairs: {pair!r} is not A:B")
        labels = [label_for(n, args.mcts_seconds) for n in names]
        for lb in labels:
            make(lb, 0)  # unknown names fail now, not in a worker
        pairings.append(labels)

    game = load_game(args.game)
    report: list[dict[str, Any]] = []
    all_met = True
    for labels in pairings:
        title = f"{labels[0]} vs {labels[1]}"
        print(f"== {title}: {args.games} games of {args.scenario}, seeds {args.seed}..{args.seed + args.games - 1}, "
              f"sides alternated, {args.workers} worker(s)", flush=True)
        done = [0]

        def on_game(r: dict[str, Any], done: list[int] = done) -> None:
            done[0] += 1
            w = r["winner_seat"]
            winner = "draw" if w is None and r["reason"] != "unfinished" else (
                "unfinished" if w is None else r["players"][w])
            extra = ""
            if "seconds" in r:
                think = ", ".join(f"{p} {s:.0f}s ({c:.0f} CPU-s)/{n} searched" for p, s, c, n in
                                  zip(r["players"], r["think_seconds_by_seat"], r["think_cpu_by_seat"],
                                      r["searched_by_seat"]))
                extra = f", {r['seconds']:.1f}s ({think})"
            print(f"  game {done[0]}/{args.games} seed {r['seed']} {' vs '.join(r['players'])}: {winner} "
                  f"({r['reason']}, {r['actions']} actions, turn {r['turns']}{extra})", flush=True)

        start = time.perf_counter()
        results = run_pairing(args.game, args.scenario, labels, args.games, args.seed, args.workers, on_game)
        verdict = conclude(labels, results, game.seats, time.perf_counter() - start, args.workers)
        all_met = all_met and verdict.get("met", True)
        report.append({"pairing": title, **verdict, "results": results})
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as f:
            json.dump({"args": vars(args), "pairings": report}, f, indent=1)
    return 1 if args.check and not all_met else 0


if __name__ == "__main__":
    sys.exit(main())
