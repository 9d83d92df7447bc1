"""Replay one game of ``ai_strength.py`` move by move, to study how it was won or lost.

The players are made as ``ai_strength.py`` makes them (the same labels and seeds), so the game is
the one the series played. Prints every action with its events, and after each of a planner's
turns its explanation (the plan it chose and its estimate). The events are shown as a spectator
sees them (a card drawn: "draws a Command card"); ``--secrets`` shows every seat's secrets too,
for a game between programs.

Usage (from the project root)::

    PYTHONPATH=src .venv/bin/python benchmarks/replay_game.py --seed 0 --players hard,mcts@2800it

``losses`` replays the games of a series file instead and finds which banners each player gave away:
for every unit a player lost, when (in its own turn: an attack that went wrong, a First Strike; or
in the enemy's turn) and how it stood at the start of that turn and of its owner's turn before
(blocks, friends and enemies beside it, the enemy units that could attack it, the chance they would
eliminate it), tallied per player label (``--jsonl``: one line a loss)::

    PYTHONPATH=src .venv/bin/python benchmarks/replay_game.py losses benchmarks/results/cc-normal-i33.jsonl \\
        --part hs- --seeds 45000-45023
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_strength import make  # noqa: E402  (benchmarks/ is not a package)
from series import load_docs  # noqa: E402

from kassen.ai.evaluate import _exposure, foes_of, load_weights  # noqa: E402
from kassen.ai.player import Player  # noqa: E402
from kassen.engine.errors import KassenError  # noqa: E402
from kassen.engine.protocol import State  # noqa: E402
from kassen.rulesets.cc_samurai.state import CCState  # noqa: E402
from kassen.rulesets.registry import load_game  # noqa: E402


def replay(labels: list[str], seed: int, game: str = "cc-samurai", scenario: str = "first-samurai-skirmish",
           max_actions: int = 3000) -> Iterator[tuple[State, int, str, State, Player]]:
    """The game ``ai_strength.py`` played with these labels in seat order and this seed: each
    action with the state before it, the seat, the state after it and the player who chose it."""
    players = [make(label, seed * 7919 + i) for i, label in enumerate(labels)]
    s = load_game(game).new_state(scenario, seed)
    for _ in range(max_actions):
        if s.is_terminal():
            return
        seat = s.to_move()
        assert seat is not None
        action = players[seat].choose(s, seat)
        before, s = s, s.apply(action)
        yield before, seat, action, s, players[seat]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["losses"]:
        return losses_main(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True, help="the game's seed (ai_strength: --seed S, game i: S + i)")
    ap.add_argument("--players", required=True, help="the labels in seat order, as the game had them (odd games swap)")
    ap.add_argument("--game", default="cc-samurai")
    ap.add_argument("--scenario", default="first-samurai-skirmish")
    ap.add_argument("--max-actions", type=int, default=3000)
    ap.add_argument("--secrets", action="store_true", help="show hidden events (hands, draws) in full")
    args = ap.parse_args(argv)
    labels = args.players.split(",")
    s = None
    try:
        for n, (before, seat, action, s, player) in enumerate(
                replay(labels, args.seed, args.game, args.scenario, args.max_actions)):
            legal = before.legal_actions()
            if legal and all(a.startswith("play ") for a in legal):
                print(f"=== {labels[seat]} (seat {seat}) to play; banners {before.observation(None).get('banners')}")
            shown = [e if args.secrets or e.visible_to is None else e.redacted for e in s.events]
            print(f"{n:4d} {seat} {action:30s} {' | '.join(e.text for e in shown if e is not None)}")
            explanation = getattr(player, "explanation", None)
            if explanation and s.stack and s.stack[-1].get("t") == "play":  # the turn is over
                print(f"     {explanation}")
    except KassenError as e:
        raise SystemExit(f"replay_game.py: {e}") from None
    if s is None:
        return 0
    print("result:", s.result(), s.observation(None).get("banners"))
    return 0



W = load_weights()


def _stood(s: CCState, uid: str) -> dict[str, Any] | None:
    """How the unit ``uid`` stood in ``s`` (None: not on the board)."""
    for h, u in s.units.items():
        if u.uid != uid:
            continue
        near = [s.units.get(n) for n in s.b.neighbours(h)]
        attackers, _, elim = _exposure(s, h, W, foes_of(s, u.side), True)
        return {"hex": s.name(h), "blocks": u.blocks, "type": s.ut(u).code,
                "friends": sum(1 for n in near if n is not None and n.side == u.side),
                "contact": sum(1 for n in near if n is not None and n.side != u.side),
                "attackers": round(attackers, 2), "elimination": round(elim, 3), "leader": h in s.leaders}
    return None


def _here(label: str) -> str:
    """``label`` with a weights file that is gone (a snapshot of the session that played the
    series) read from ``benchmarks/`` instead, where the series' frozen weights are kept."""
    parts = label.split("+")
    for i, p in enumerate(parts):
        if p.startswith("weights="):
            path = Path(p[len("weights="):])
            kept = Path(__file__).resolve().parent / path.name
            if not path.exists() and kept.exists():
                parts[i] = f"weights={kept}"
    return "+".join(parts)


def losses(game: dict[str, Any], game_id: str, scenario: str) -> list[dict[str, Any]]:
    """Every unit lost in ``game`` (a game of a series file), replayed."""
    labels, seed = game["players"], game["seed"]
    turn_start: dict[int, CCState] = {}
    out: list[dict[str, Any]] = []
    s = None
    for before, seat, action, s, _ in replay([_here(label) for label in labels], seed, game_id, scenario, 5000):
        assert isinstance(before, CCState) and isinstance(s, CCState)
        legal = before.legal_actions()
        if legal and all(a.startswith("play ") for a in legal):
            turn_start[seat] = before
        for e in s.events:
            if e.kind != "eliminated":
                continue
            uid = e.data.get("unit")
            victim = next((u.side for u in before.units.values() if u.uid == uid), None)
            if victim is None:
                continue
            mover = before.active
            rec: dict[str, Any] = {"seed": seed, "player": labels[victim], "opponent": labels[1 - victim],
                                   "turn": before.turn, "in_own_turn": mover == victim, "action": action}
            if mover in turn_start:
                rec["at_turn_start"] = _stood(turn_start[mover], uid)
            if mover != victim and victim in turn_start:
                rec["at_own_turn_start"] = own = _stood(turn_start[victim], uid)
                start = rec.get("at_turn_start")
                rec["moved_in_own_turn"] = own is not None and start is not None and own["hex"] != start["hex"]
            out.append(rec)
    if s is not None and game.get("banners") is not None and list(s.banners) != list(game["banners"]):
        raise SystemExit(f"replay_game.py losses: seed {seed} replayed to banners {s.banners}, the series has "
                         f"{game['banners']}: not the code (or weights) the series was played with")
    return out


#: the tally's lines, in order
LINES = ("units lost", "  in its own turn (an attack, a First Strike)", "  in the enemy's turn",
         *(f"    with {k} block(s) when that turn began" for k in range(1, 5)),
         "    beside an enemy unit when that turn began", "    with no friend beside it",
         "    two or more enemy units could attack it", "    already at 1 block when its own turn began",
         "    moved in its own turn before")


def tally(recs: list[dict[str, Any]]) -> dict[str, collections.Counter[str]]:
    """Per player label, how many of its units were lost each way (:data:`LINES`)."""
    by: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for r in recs:
        c = by[r["player"]]
        c["units lost"] += 1
        if r["in_own_turn"]:
            c["  in its own turn (an attack, a First Strike)"] += 1
            continue
        c["  in the enemy's turn"] += 1
        start, own = r.get("at_turn_start"), r.get("at_own_turn_start")
        if start is not None:
            c[f"    with {start['blocks']} block(s) when that turn began"] += 1
            c["    beside an enemy unit when that turn began"] += int(start["contact"] > 0)
            c["    with no friend beside it"] += int(start["friends"] == 0)
            c["    two or more enemy units could attack it"] += int(start["attackers"] >= 2)
        if own is not None:
            c["    already at 1 block when its own turn began"] += int(own["blocks"] == 1)
            c["    moved in its own turn before"] += int(bool(r.get("moved_in_own_turn")))
    return by


def losses_main(argv: list[str]) -> int:
    """``replay_game.py losses``: which banners each player of a C&C strength series gave away."""
    ap = argparse.ArgumentParser(prog="replay_game.py losses", description=losses_main.__doc__)
    ap.add_argument("paths", nargs="+", help="series files (benchmarks/results/*.jsonl) or part JSON files")
    ap.add_argument("--part", default="", help="only the parts whose name starts with this")
    ap.add_argument("--seeds", help="only the games with seeds LO-HI")
    ap.add_argument("--jsonl", help="write one line a unit lost here")
    args = ap.parse_args(argv)
    lo, hi = (int(x) for x in args.seeds.split("-")) if args.seeds else (0, 1 << 62)
    recs: list[dict[str, Any]] = []
    n = 0
    for name, doc in load_docs(args.paths):
        if not Path(name.split("#")[-1]).name.startswith(args.part):
            continue
        a = doc.get("args", {})
        for pairing in doc.get("pairings", []):
            for game in pairing.get("results", []):
                if lo <= game["seed"] <= hi:
                    try:
                        recs += losses(game, a.get("game", "cc-samurai"), a.get("scenario", "first-samurai-skirmish"))
                    except KassenError as e:
                        raise SystemExit(f"replay_game.py losses: seed {game['seed']}: {e}") from None
                    n += 1
    if not n:
        raise SystemExit("replay_game.py losses: no game in those parts and seeds")
    if args.jsonl:
        with open(args.jsonl, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in recs)
    print(f"{n} games replayed")
    for label, c in tally(recs).items():
        print(label)
        for k in LINES:
            print(f"  {c[k]:4d}  {k}")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
