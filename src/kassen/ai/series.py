"""AI-vs-AI series: many seeded games, their statistics, and a confidence interval."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from kassen.ai.players import Player, make_player
from kassen.engine.protocol import Result, State
from kassen.rulesets.registry import load_game


@dataclass(frozen=True)
class GameSpec:
    game_id: str
    scenario: str | None
    players: tuple[str, ...]  # one player name per seat, in seat order
    seed: int
    max_actions: int = 20000


def play_game(spec: GameSpec, players: list[Player] | None = None,
              watch: Callable[[State], None] | None = None) -> tuple[State, int]:
    """Play one game between computer players; returns the final state and the number of actions.

    ``players`` (one per seat) defaults to ``make_player`` of the spec's names;
    ``watch`` (if given) sees the state after every action (its ``events`` included).
    """
    game = load_game(spec.game_id)
    state = game.new_state(spec.scenario, spec.seed)
    if watch is not None:
        watch(state)
    if players is None:
        players = [make_player(name, spec.seed * 7919 + i) for i, name in enumerate(spec.players)]
    actions = 0
    while not state.is_terminal() and actions < spec.max_actions:
        seat = state.to_move()
        assert seat is not None and seat >= 0
        state = state.apply(players[seat].choose(state, seat))
        actions += 1
        if watch is not None:
            watch(state)
    return state, actions


def game_summary(spec: GameSpec, state: State, actions: int) -> dict[str, Any]:
    """The summary :func:`play_one` returns, of a finished (or stopped) game."""
    res = state.result()
    obs = state.observation(None)
    banners = obs.get("banners")  # C&C only: the other games have no banners to count
    return {
        "seed": spec.seed,
        "players": list(spec.players),
        "winner_seat": None if res is None else res.winner,
        "winner_seats": winner_seats(res),
        "reason": "unfinished" if res is None else res.reason,
        "actions": actions,
        "turns": obs.get("turn"),
        "banners": [banners.get(s.lower(), 0) for s in state.seat_names()] if isinstance(banners, dict) else [],
    }


def play_one(spec: GameSpec, players: list[Player] | None = None) -> dict[str, Any]:
    """Play one game between computer players; returns its summary.

    ``players`` (one per seat) defaults to ``make_player`` of the spec's names.
    """
    state, actions = play_game(spec, players)
    return game_summary(spec, state, actions)


def winner_seats(res: Result | None) -> list[int]:
    """Every seat that won: the winner, and in a team game his partners (the seats whose
    score equals the winner's).

    >>> winner_seats(Result(0, "team", (1.0, 0.0, 1.0, 0.0)))
    [0, 2]
    >>> winner_seats(Result(None, "draw", (0.5, 0.5)))
    []
    """
    if res is None or res.winner is None:
        return []
    if not res.scores:
        return [res.winner]
    best = res.scores[res.winner]
    return [s for s, v in enumerate(res.scores) if v == best]


def specs(game_id: str, scenario: str | None, players: list[str], games: int, seed: int, swap: bool) -> Iterator[GameSpec]:
    for i in range(games):
        order = tuple(players)
        if swap and i % 2 == 1:
            order = tuple(reversed(players))
        yield GameSpec(game_id, scenario, order, seed + i)


def run_series(
    game_id: str,
    scenario: str | None,
    players: list[str],
    games: int,
    seed: int = 0,
    swap: bool = False,
    workers: int = 1,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    ray: str | None = None,
    play: Callable[[GameSpec], dict[str, Any]] = play_one,
    skip: set[int] | frozenset[int] = frozenset(),
) -> list[dict[str, Any]]:
    """Play the series (in ``workers`` processes, or as Ray tasks when ``ray`` names a
    cluster: ``"local"`` for one started on this machine for the run, else its address);
    ``on_game`` is called after each game. Whichever way it runs, game ``i`` is dealt
    with seed ``seed + i`` and the results come back in game order, so they are the same.
    ``play`` plays one game (a module-level function, so that it can be sent to workers);
    the games whose seed is in ``skip`` are not played (nor returned).
    """
    todo = [sp for sp in specs(game_id, scenario, players, games, seed, swap) if sp.seed not in skip]
    out: list[dict[str, Any]] = []
    if ray is not None:
        from kassen.ai.distributed import ray_map

        return ray_map(play, todo, ray, on_item=on_game)
    if workers <= 1:
        for spec in todo:
            r = play(spec)
            out.append(r)
            if on_game:
                on_game(r)
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for r in pool.map(play, todo):
            out.append(r)
            if on_game:
                on_game(r)
    return out


@dataclass
class SeriesStats:
    games: int = 0
    draws: int = 0
    unfinished: int = 0
    wins_by_seat: dict[str, int] = field(default_factory=dict)
    wins_by_player: dict[str, int] = field(default_factory=dict)
    games_by_player: dict[str, int] = field(default_factory=dict)
    mean_banners_by_player: dict[str, float] = field(default_factory=dict)
    mean_actions: float = 0.0
    mean_turns: float = 0.0
    ci95_by_player: dict[str, list[float]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "draws": self.draws,
            "unfinished": self.unfinished,
            "wins_by_seat": self.wins_by_seat,
            "wins_by_player": self.wins_by_player,
            "games_by_player": self.games_by_player,
            "mean_banners_by_player": self.mean_banners_by_player,
            "mean_actions": self.mean_actions,
            "mean_turns": self.mean_turns,
            "win_rate_ci95_by_player": self.ci95_by_player,
        }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate.

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)

    Its ends are exact when every game was won or lost (rounding once made 6 wins in 6 a
    rate above its interval):

    >>> wilson(6, 6)[1], wilson(0, 6)[0]
    (1.0, 0.0)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if wins == 0 else lo, 1.0 if wins == n else hi)


def summarize(results: list[dict[str, Any]], seats: tuple[str, ...]) -> SeriesStats:
    st = SeriesStats(games=len(results))
    st.wins_by_seat = {s: 0 for s in seats}
    names = sorted({p for r in results for p in r["players"]})
    st.wins_by_player = {p: 0 for p in names}
    st.games_by_player = {p: 0 for p in names}
    banner_sum = {p: 0.0 for p in names}
    banner_n = {p: 0 for p in names}
    for r in results:
        for seat, p in enumerate(r["players"]):
            st.games_by_player[p] += 1
            if seat < len(r["banners"]):
                banner_sum[p] += r["banners"][seat]
                banner_n[p] += 1
        w = r["winner_seat"]
        if r["reason"] == "unfinished":
            st.unfinished += 1
        elif w is None:
            st.draws += 1
        else:
            for seat in r.get("winner_seats") or [w]:
                st.wins_by_seat[seats[seat]] += 1
                st.wins_by_player[r["players"][seat]] += 1
    if results:
        st.mean_actions = sum(r["actions"] for r in results) / len(results)
        st.mean_turns = sum((r["turns"] or 0) for r in results) / len(results)
    # games without banners (An Honourable Victory!, the clan game) report none, not a mean of zeros
    st.mean_banners_by_player = {p: banner_sum[p] / banner_n[p] for p in names if banner_n[p]}
    st.ci95_by_player = {p: list(wilson(st.wins_by_player[p], st.games_by_player[p])) for p in names}
    return st
