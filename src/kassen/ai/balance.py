"""Balance reports: seeded self-play series of a game's scenarios, with the sides swapped.

For every scenario, game ``i`` is dealt with seed ``seed + i`` and the players'
seats alternate (game 1 is ``A,B``, game 2 is ``B,A``, ...), exactly as
``kassen battle --swap`` plays them. Each game is watched through the events the
engine emits (see :mod:`kassen.engine.events`), which tell, in C&C Samurai:

* ``turn`` — whose turn it is (the first one tells who moved first);
* ``play`` — the command card a side plays;
* ``banner`` — a side gains Victory Banners, and why (``"Samurai Infantry
  eliminated"``, ``"commander eliminated"``, an objective, ...);
* ``victory`` — the banner that won the game.

A banner is credited to the cause its event gives and to the card played in the
turn it was won (the active side's card; a banner won by battling back is
credited to the opponent's card, and flagged ``own_turn: false``). The banner
that took the winner to the victory total is the *decisive* one. Banners are
counted as they are gained: a temporary banner (an objective held, then lost)
counts each time it is gained, so the banners by cause may add up to more than
the banners at the end.

The report of a scenario gives each side's win rate with its 95% Wilson
interval, the first mover's, the distribution of banners at the end and of the
game's length, and which causes and cards won banners and games.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

from kassen.ai.series import GameSpec, game_summary, play_game, run_series, wilson
from kassen.engine.protocol import State

_BANNER_WHY = re.compile(r"Victory Banners?: (?P<why>.*) \(\d+/\d+\)$")


class GameWatcher:
    """Reads the events of one game as it is played (call it with every state, the first
    included); :func:`analysed_summary` adds what it read to the game's summary. Public so
    that a game played one decision at a time elsewhere (the server's balance check) is
    analysed exactly as :func:`play_analysed` analyses one played in a row."""

    def __init__(self) -> None:
        self.first_side: int | None = None
        self.turn_side: int | None = None
        self.turn = 0
        self.turn_card: str | None = None
        self.banners: list[dict[str, Any]] = []
        self.decisive: dict[str, Any] | None = None
        self.cards: Counter[str] = Counter()

    def __call__(self, state: State) -> None:
        for e in state.events:
            d = e.data
            if e.kind == "turn":
                self.turn_side = d.get("side")
                self.turn = int(d.get("turn") or self.turn)
                self.turn_card = None
                if self.first_side is None:
                    self.first_side = self.turn_side
            elif e.kind == "play":
                if d.get("side") == self.turn_side or self.turn_card is None:
                    self.turn_card = str(d.get("slug") or d.get("card"))
                self.cards[f"{d.get('side')}:{d.get('slug') or d.get('card')}"] += 1
            elif e.kind == "banner":
                m = _BANNER_WHY.search(e.text)
                self.banners.append({
                    "side": d.get("side"), "amount": int(d.get("amount", 1)),
                    "cause": m.group("why") if m else "unknown",
                    "card": self.turn_card, "own_turn": d.get("side") == self.turn_side, "turn": self.turn,
                })
            elif e.kind == "victory" and self.banners and self.decisive is None:
                last = self.banners[-1]
                self.decisive = dict(last) if last["side"] == d.get("winner") else None


def play_analysed(spec: GameSpec) -> dict[str, Any]:
    """Play one game as :func:`kassen.ai.series.play_one` does (same seeds, same moves) and add
    what its events tell: who moved first, every banner's cause and card, the decisive banner."""
    w = GameWatcher()
    state, actions = play_game(spec, watch=w)
    return analysed_summary(spec, state, actions, w)


def analysed_summary(spec: GameSpec, state: State, actions: int, w: GameWatcher) -> dict[str, Any]:
    """A finished (or stopped) game's summary (:func:`kassen.ai.series.game_summary`) with what
    its watcher read: who moved first, every banner's cause and card, the decisive banner."""
    out = game_summary(spec, state, actions)
    out["first_seat"] = w.first_side
    out["banner_log"] = w.banners
    out["decisive"] = w.decisive
    return out


def _rate(wins: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else None, "ci95": [lo, hi]}


def _spread(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"mean": None, "median": None, "min": None, "max": None, "values": []}
    return {"mean": statistics.fmean(values), "median": statistics.median(values),
            "min": min(values), "max": max(values), "values": sorted(values)}


def _counts(c: Counter[Any]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(c.items(), key=lambda kv: (-kv[1], str(kv[0])))}


def scenario_report(scenario: str, name: str, seats: list[str], results: list[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of one scenario's series (``results`` from :func:`play_analysed`)."""
    n = len(results)
    decided = [r for r in results if r["reason"] != "unfinished" and r["winner_seat"] is not None]
    # a team game has several winners (the clan game's 4-player teams): each one's seat wins
    wins_by_seat = Counter(s for r in decided for s in (r.get("winner_seats") or [r["winner_seat"]]))
    players = sorted({p for r in results for p in r["players"]})
    wins_by_player: Counter[str] = Counter()
    games_by_player: Counter[str] = Counter()
    for r in results:
        for p in set(r["players"]):
            games_by_player[p] += 1
        if r in decided:
            for p in {r["players"][s] for s in (r.get("winner_seats") or [r["winner_seat"]])}:
                wins_by_player[p] += 1
    first = [r for r in results if r.get("first_seat") is not None]
    first_seats = sorted({r["first_seat"] for r in first})
    first_wins = sum(1 for r in first if r["winner_seat"] == r["first_seat"] and r in decided)
    banners_end: dict[str, Counter[int]] = {s: Counter() for s in seats}
    by_cause: dict[str, Counter[str]] = {s: Counter() for s in seats}
    by_card: dict[str, Counter[str]] = {s: Counter() for s in seats}
    decisive_cause: Counter[str] = Counter()
    decisive_card: Counter[str] = Counter()
    margins: Counter[int] = Counter()
    for r in results:
        for i, s in enumerate(seats):
            if i < len(r["banners"]):
                banners_end[s][r["banners"][i]] += 1
        if len(r["banners"]) == 2:
            margins[r["banners"][0] - r["banners"][1]] += 1
        for b in r["banner_log"]:
            side = seats[b["side"]]
            by_cause[side][b["cause"]] += b["amount"]
            by_card[side][b["card"] or "(none)"] += b["amount"]
        if r["decisive"]:
            decisive_cause[r["decisive"]["cause"]] += 1
            decisive_card[r["decisive"]["card"] or "(none)"] += 1
    return {
        "scenario": scenario,
        "name": name,
        "games": n,
        "draws": sum(1 for r in results if r["reason"] != "unfinished" and r["winner_seat"] is None),
        "unfinished": sum(1 for r in results if r["reason"] == "unfinished"),
        "reasons": _counts(Counter(r["reason"] for r in results)),
        "sides": seats,
        "win_rate_by_side": {s: _rate(wins_by_seat[i], n) for i, s in enumerate(seats)},
        "win_rate_by_player": {p: _rate(wins_by_player[p], games_by_player[p]) for p in players},
        "first_player": {"side": seats[first_seats[0]] if len(first_seats) == 1 else None,
                         **_rate(first_wins, len(first))},
        "banners_at_end": {s: {"mean": (statistics.fmean(v for v, k in c.items() for _ in range(k)) if c else None),
                               "histogram": {str(k): c[k] for k in sorted(c)}} for s, c in banners_end.items()},
        "banner_margin": {"note": f"{seats[0]} minus {seats[1]}" if len(seats) == 2 else "",
                          "histogram": {str(k): margins[k] for k in sorted(margins)}},
        "length": {"turns": _spread([r["turns"] or 0 for r in results]),
                   "actions": _spread([r["actions"] for r in results])},
        "banners_by_cause": {s: _counts(c) for s, c in by_cause.items()},
        "banners_by_card": {s: _counts(c) for s, c in by_card.items()},
        "decisive_banner": {"cause": _counts(decisive_cause), "card": _counts(decisive_card)},
        "results": [{k: r.get(k) for k in ("seed", "players", "winner_seat", "winner_seats", "reason", "turns",
                                           "actions", "banners", "first_seat", "decisive")} for r in results],
    }


def fair_share(report: dict[str, Any]) -> float:
    """The win rate of a side when the sides are even: 1/2 with two sides, 1/3 with three, 1/2 in
    a four-seat team game (a team's win is credited to both partners' seats).

    >>> fair_share({"sides": ["a", "b", "c"], "results": [{"winner_seats": [1]}]})
    0.3333333333333333
    >>> fair_share({"sides": ["a", "b", "c", "d"], "results": [{"winner_seats": [0, 2]}]})
    0.5
    """
    sides = len(report["sides"]) or 1
    partners = max((len(r.get("winner_seats") or []) for r in report.get("results", [])), default=1)
    return max(1, partners) / sides


def length_unit(report: dict[str, Any]) -> str:
    """``"turns"``, or ``"actions"`` when every game lasted as many turns (one bar says nothing)."""
    return "turns" if len(set(report["length"]["turns"]["values"])) > 1 else "actions"


def seat_players(players: list[str], seats: int) -> list[str] | None:
    """The players of a scenario with ``seats`` seats: ``players`` itself, or one player (or the
    same name repeated, ``greedy,greedy``) on every seat; ``None`` if they do not fit.

    >>> seat_players(["greedy", "greedy"], 4)
    ['greedy', 'greedy', 'greedy', 'greedy']
    >>> seat_players(["normal", "greedy"], 3) is None
    True
    """
    if len(players) == seats:
        return list(players)
    if players and len(set(players)) == 1:
        return [players[0]] * seats
    return None


def scenario_meta(game_id: str, scenario: str) -> tuple[str, list[str], list[str]]:
    """(display name, seat names, army names) of a scenario."""
    from kassen.rulesets.registry import load_game

    g = load_game(game_id)
    seats = list(g.new_state(scenario, 0).seat_names())
    name, armies = scenario, list(seats)
    loader = getattr(g, "load_scenario", None)
    if callable(loader):
        m = loader(scenario).scenario
        name, armies = m.name, [m.red_name, m.blue_name]
    return name, seats, armies


def full_report(game_id: str, scenario: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    """:func:`scenario_report` of a scenario's games (in seed order), with the armies' names."""
    name, seats, armies = scenario_meta(game_id, scenario)
    rep = scenario_report(scenario, name, seats, sorted(results, key=lambda r: r["seed"]))
    rep["armies"] = armies
    return rep


def run_balance(
    game_id: str,
    scenarios: list[str],
    players: list[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    ray: str | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    on_scenario: Callable[[str, dict[str, Any]], None] | None = None,
    done: dict[str, list[dict[str, Any]]] | None = None,
    on_result: Callable[[str, dict[str, Any]], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Play every scenario's series (sides swapped) and report each; ``on_scenario`` is
    called with each report as soon as it is done. ``done[scenario]`` are games already
    played (a resumed run): their seeds are not played again and they count in the report.
    ``on_result(scenario, game)`` sees every game as it finishes (to keep it on disk)."""
    out: dict[str, dict[str, Any]] = {}
    for sc in scenarios:
        _, seats, _ = scenario_meta(game_id, sc)
        names = seat_players(players, len(seats)) or players
        before = list((done or {}).get(sc, []))
        hook = on_game
        if on_result is not None:
            def hook(r: dict[str, Any], sc: str = sc) -> None:
                on_result(sc, r)
                if on_game:
                    on_game(r)
        results = run_series(game_id, sc, names, games, seed, swap=True, workers=workers, ray=ray,
                             on_game=hook, play=play_analysed, skip={r["seed"] for r in before})
        out[sc] = full_report(game_id, sc, before + results)
        if on_scenario:
            on_scenario(sc, out[sc])
    return out


# ------------------------------------------------------------------ games on disk
#: the first line of OUT/games/<scenario>.jsonl; every other line is one finished game
GAMES_FORMAT = "kassen-balance-games/1"


def games_header(game_id: str, scenario: str, players: list[str], seed: int) -> dict[str, Any]:
    return {"format": GAMES_FORMAT, "game": game_id, "scenario": scenario, "players": players, "seed": seed}


def read_games(path: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the finished games of a games file. A last line cut short (the run was
    stopped while writing it) is dropped; any other bad line is an error."""
    from pathlib import Path

    from kassen.engine.errors import KassenError

    lines = Path(path).read_text(encoding="utf-8").splitlines()
    rows: list[dict[str, Any]] = []
    for k, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except ValueError:
            if k == len(lines) - 1:
                break
            raise KassenError(f"{path}: line {k + 1} is not JSON") from None
    if not rows or rows[0].get("format") != GAMES_FORMAT:
        raise KassenError(f"{path} is not a balance games file ({GAMES_FORMAT})")
    return rows[0], rows[1:]


def swap_order(players: list[str], base: int, seed: int) -> list[str]:
    """The seats' players of game ``seed`` in a series that starts at ``base`` (sides swapped)."""
    return list(players) if (seed - base) % 2 == 0 else list(reversed(players))


def merge_games(runs: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> tuple[int, list[dict[str, Any]]]:
    """Merge one scenario's games from several runs (``(label, header, games)`` each) into the
    games of one series: same game, scenario and players, no seed twice, and every game's
    seats as one run from the smallest seed would have them. Returns (first seed, games)."""
    from kassen.engine.errors import KassenError

    if not runs:
        raise KassenError("nothing to merge")
    label0, h0, _ = runs[0]
    for label, h, _ in runs[1:]:
        for k in ("game", "scenario", "players"):
            if h[k] != h0[k]:
                raise KassenError(f"cannot merge: {label0} and {label} have different {k} "
                                  f"({h0[k]!r} and {h[k]!r})")
    seen: dict[int, str] = {}
    games: list[dict[str, Any]] = []
    for label, _, rows in runs:
        for r in rows:
            s = int(r["seed"])
            if s in seen:
                raise KassenError(f"cannot merge: {h0['scenario']} seed {s} was played in both {seen[s]} and {label}; "
                                  "the runs' seed ranges must not overlap")
            seen[s] = label
            games.append(r)
    games.sort(key=lambda r: r["seed"])
    base = min(int(h["seed"]) for _, h, _ in runs)
    players = h0["players"]
    for r in games:
        want = swap_order(players, base, int(r["seed"]))
        if len(r["players"]) == len(want) and list(r["players"]) != want:
            raise KassenError(f"cannot merge: {h0['scenario']} seed {r['seed']} has the seats {r['players']}, but one "
                              f"run from seed {base} gives it {want}; split runs at an even number of games")
    return base, games


def write_plots(report: dict[str, Any], out_dir: Any, stem: str | None = None) -> list[str]:
    """Draw one scenario's report (matplotlib, Agg backend) as ``<stem>.png`` and ``<stem>.svg``
    in ``out_dir``; returns the file names."""
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: a smaller SVG
    plt.rcParams["svg.hashsalt"] = "kassen"  # the same report draws the same SVG

    out = Path(out_dir)
    stem = stem or report["scenario"]
    sides = report["sides"]
    armies = report.get("armies") or sides
    colours = ["#b22222", "#1f4e9c", "#2e7d32", "#8e6c00"]
    fig, ax = plt.subplots(2, 2, figsize=(9, 6.2), dpi=80)
    fig.suptitle(f"{report['name']}: {report['games']} games", fontsize=12)
    # win rate per side (and first mover) with 95% Wilson intervals
    a = ax[0][0]
    labels, rates, los, his = [], [], [], []
    for s, army in zip(sides, armies):
        w = report["win_rate_by_side"][s]
        labels.append(s if army == s else f"{s}\n{army[:24]}")
        rates.append(w["rate"] or 0.0)
        los.append(max(0.0, (w["rate"] or 0.0) - w["ci95"][0]))  # never below 0 by rounding
        his.append(max(0.0, w["ci95"][1] - (w["rate"] or 0.0)))
    fp = report["first_player"]
    if fp["games"]:  # the games whose events tell who moved first (C&C Samurai)
        labels.append("first to\nmove")
        rates.append(fp["rate"] or 0.0)
        los.append(max(0.0, (fp["rate"] or 0.0) - fp["ci95"][0]))
        his.append(max(0.0, fp["ci95"][1] - (fp["rate"] or 0.0)))
    a.bar(range(len(rates)), rates, yerr=[los, his], capsize=4,
          color=[colours[i % len(colours)] for i in range(len(sides))] + ["#777777"] * (len(rates) - len(sides)))
    a.axhline(fair_share(report), color="black", linewidth=0.6, linestyle=":")
    a.set_xticks(range(len(rates)), labels, fontsize=7)
    a.set_ylim(0, 1)
    a.set_title("win rate (95% Wilson interval)", fontsize=9)
    # banners at the end of the game (a game without banners: its length in actions)
    a = ax[0][1]
    banners = any(k != "0" for c in report["banners_at_end"].values() for k in c["histogram"])
    if banners:
        width = 0.8 / max(1, len(sides))
        for i, s in enumerate(sides):
            h = report["banners_at_end"][s]["histogram"]
            xs = [int(k) + (i - (len(sides) - 1) / 2) * width for k in h]
            a.bar(xs, list(h.values()), width=width, color=colours[i % len(colours)], label=s)
        a.legend(fontsize=7)
        a.set_xlabel("banners at the end", fontsize=8)
        a.set_title("banners at the end", fontsize=9)
    else:
        acts = report["length"]["actions"]["values"]
        a.hist(acts, bins=min(12, max(1, len(set(acts)))), color="#555555")
        a.set_xlabel("actions", fontsize=8)
        a.set_title("game length in actions", fontsize=9)
    a.set_ylabel("games", fontsize=8)
    # game length: in turns, or in actions when every game lasts as many turns (the clan game)
    a = ax[1][0]
    unit = length_unit(report)
    values = report["length"][unit]["values"]
    a.hist(values, bins=min(12, max(1, len(set(values)))), color="#555555")
    a.set_xlabel(unit, fontsize=8)
    a.set_ylabel("games", fontsize=8)
    a.set_title("game length" if unit == "turns" else "game length in actions", fontsize=9)
    ax[0][1].yaxis.set_major_locator(MaxNLocator(integer=True))
    a.yaxis.set_major_locator(MaxNLocator(integer=True))
    # what won the banners (a game without banners: how the games ended)
    a = ax[1][1]
    causes: Counter[str] = Counter()
    for c in report["banners_by_cause"].values():
        causes.update(c)
    if causes:
        top = [k for k, _ in causes.most_common(8)]
        left = [0] * len(top)
        for i, s in enumerate(sides):
            vals = [report["banners_by_cause"][s].get(k, 0) for k in top]
            a.barh(range(len(top)), vals, left=left, color=colours[i % len(colours)], label=s)
            left = [x + v for x, v in zip(left, vals)]
        a.set_yticks(range(len(top)), [t.replace(" eliminated", "")[:28] for t in top], fontsize=7)
        a.set_title("banners won by cause (eliminated unless named)", fontsize=9)
    else:
        ends: Counter[str] = Counter()
        for why, k in report["reasons"].items():  # the numbers in a reason (points, zones) set apart
            ends[re.sub(r"\d+", "N", why.split(" (")[0].split(":")[-1].strip())] += k
        top = [k for k, _ in ends.most_common(8)]
        a.barh(range(len(top)), [ends[k] for k in top], color="#555555")
        a.set_yticks(range(len(top)), [t[:32] for t in top], fontsize=7)
        a.set_title("how the games ended", fontsize=9)
    a.invert_yaxis()
    a.xaxis.set_major_locator(MaxNLocator(integer=True))
    for row in ax:
        for a in row:
            a.tick_params(labelsize=7)
    fig.tight_layout()
    names = []
    for ext in ("png", "svg"):
        path = out / f"{stem}.{ext}"
        fig.savefig(path, metadata={"Date": None} if ext == "svg" else {"Software": None})
        names.append(path.name)
    plt.close(fig)
    return names


#: what a shipped report leaves out: every game (``results``) and the lengths' value lists (the
#: lobby shows the win rates; the full report stays in the run's directory)
_SHIP_DROP = ("results",)


def ship_report(doc: dict[str, Any]) -> dict[str, Any]:
    """The compact copy of a ``balance.json`` that ships with the package (the lobby's figures):
    every scenario's statistics without its games and the lengths without their value lists, and
    one small plot per scenario, ``<scenario>.svg`` (:func:`write_summary_plot`)."""
    out = {k: v for k, v in doc.items() if k not in ("scenarios", "plots")}
    out["scenarios"] = {}
    for sid, rep in doc["scenarios"].items():
        small = {k: v for k, v in rep.items() if k not in _SHIP_DROP}
        if "length" in small:
            small["length"] = {k: {f: x for f, x in v.items() if f != "values"}
                               for k, v in small["length"].items()}
        out["scenarios"][sid] = small
    out["plots"] = {sid: [f"{sid}.svg"] for sid in doc["scenarios"]}
    return out


_SVG_NUMBER = re.compile(r"-?\d+\.\d{2,}")


def _small_svg(svg: str) -> str:
    """Matplotlib's SVG made smaller for shipping: no metadata, no indentation, coordinates to a
    tenth of a point (drawn at 72 points an inch, a tenth is invisible)."""
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    svg = re.sub(r' id="(figure|patch|axes|matplotlib|[xy]tick|line2d|text|LineCollection|barcontainer)[^"]*"', "",
                 svg)
    svg = _SVG_NUMBER.sub(lambda m: f"{float(m.group()):.1f}".rstrip("0").rstrip("."), svg)
    svg = re.sub(r">\s+<", "><", re.sub(r"\s*\n\s*", " ", svg)).strip()
    while "<g></g>" in svg or re.search(r"<g>(<[^g][^>]*/>)</g>", svg):  # wrappers left with nothing to say
        svg = re.sub(r"<g>(<[^g][^>]*/>)</g>", r"\1", svg.replace("<g></g>", ""))
    return svg + "\n"


def write_summary_plot(report: dict[str, Any], out_dir: Any, stem: str | None = None) -> str:
    """The small plot shipped for the lobby: each side's win rate (and the first mover's) with its
    95% Wilson interval, as ``<stem>.svg`` in ``out_dir`` (a few kilobytes); returns the file name."""
    import io
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"
    plt.rcParams["svg.hashsalt"] = "kassen"
    plt.rcParams["font.sans-serif"] = ["DejaVu Sans"]  # one name per text, not matplotlib's fallbacks
    sides = report["sides"]
    armies = report.get("armies") or sides
    colours = ["#b22222", "#1f4e9c", "#2e7d32", "#8e6c00"]
    bars: list[tuple[str, dict[str, Any], str]] = [
        (s if army == s else f"{s}\n{army[:20]}", report["win_rate_by_side"][s], colours[i % len(colours)])
        for i, (s, army) in enumerate(zip(sides, armies))]
    if report["first_player"]["games"]:
        bars.append(("first to\nmove", report["first_player"], "#777777"))
    rates = [b[1]["rate"] or 0.0 for b in bars]
    fig, ax = plt.subplots(figsize=(1.2 + 1.1 * len(bars), 2.6), dpi=72)
    ax.bar(range(len(bars)), rates, color=[b[2] for b in bars], capsize=4,
           yerr=[[max(0.0, r - b[1]["ci95"][0]) for r, b in zip(rates, bars)],
                 [max(0.0, b[1]["ci95"][1] - r) for r, b in zip(rates, bars)]])
    for i, (r, b) in enumerate(zip(rates, bars)):
        ax.text(i + 0.1, min(r + 0.03, 0.92), f"{b[1]['wins']}", ha="left", fontsize=7)  # beside the bar's interval
    ax.axhline(0.5, color="black", linewidth=0.6, linestyle=":")
    ax.set_xticks(range(len(bars)), [b[0] for b in bars], fontsize=7)
    ax.set_ylim(0, 1)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1], ["0", "25%", "50%", "75%", "100%"], fontsize=7)
    turns = report["length"]["turns"]["mean"]
    ax.set_title(f"{report['name']}: {report['games']} games"
                 + (f", {turns:.0f} turns on average" if turns else "")
                 + "\nwins, win rate (95% Wilson interval)", fontsize=8)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    name = f"{stem or report['scenario']}.svg"
    (Path(out_dir) / name).write_text(_small_svg(buf.getvalue()), encoding="utf-8")
    return name
