"""One file per series: the parts of a strength series (split by seed across processes and
sessions) packed into ``benchmarks/results/NAME.jsonl``, and read back.

A series is played in parts, each writing its ``--json`` file (``ai_strength.py`` or
``strength.py``), its log (the printed output) and its ``uptime`` lines somewhere outside the
repository; ``pack`` joins them into one JSON-lines file (a series file among the paths brings
its parts as they were: a series continued later is packed again from that file and the new
parts):

* line 1, ``{"type": "series", "format": "kassen-series/1", "name", "about"}``;
* one ``{"type": "part", "part", "doc", "log", "uptime"}`` line per part (``doc``: the part's
  JSON without its games; ``log``: the log's lines but the per-game ones, which the games
  repeat — a part with no JSON, a run stopped before it wrote one, keeps its whole log);
* one ``{"type": "game", "part", "game"}`` line per game, in the part's order.

``docs(path)`` gives back each part's JSON as the script wrote it (games included), which
``ai_strength.py --merge`` and ``combine.py`` read like the part files themselves.

Usage::

    python benchmarks/series.py pack benchmarks/results/NAME.jsonl /tmp/run/results-NAME-seeds*.* \\
        --about "what was played, by which command and commit"
    python benchmarks/series.py show benchmarks/results/NAME.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FORMAT = "kassen-series/1"
#: a log line about one game (``  game 3 seed 2 ...`` or ``  game 3/10 seed 2 ...``): the JSON has it
GAME_LINE = re.compile(r"^\s+game \d+(/\d+)? seed \d+ ")


def _games_key(doc: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The game lists of a part's JSON: ``strength.py``'s ``games``, ``ai_strength.py``'s
    ``results`` of every pairing."""
    if "games" in doc:
        return [doc["games"]]
    return [p["results"] for p in doc.get("pairings", [])]


def _part_name(path: Path, name: str) -> str:
    stem = path.name.split(".")[0]
    stem = stem.removeprefix("results-").removeprefix(name)
    return stem.strip("-") or "all"


def pack(out: str, paths: list[str], about: str) -> int:
    name = Path(out).name.split(".")[0]
    parts: dict[str, dict[str, Any]] = {}
    for p in sorted(paths, key=lambda s: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]):
        path = Path(p)
        if path.suffix == ".jsonl":
            # a series file packed before (the series continued): its parts as they were
            for label, rec in _parts(p).items():
                if label in parts:
                    raise SystemExit(f"{p}: part {label!r} is already in this pack")
                parts[label] = rec
            continue
        part = parts.setdefault(_part_name(path, name), {"doc": None, "log": [], "uptime": []})
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            part["doc"] = json.loads(text)
        elif path.suffix == ".uptime":
            part["uptime"] = [ln.strip() for ln in text.splitlines() if ln.strip()]
        else:
            part["log"] = text.splitlines()
    lines: list[dict[str, Any]] = [{"type": "series", "format": FORMAT, "name": name, "about": about}]
    games_out: list[dict[str, Any]] = []
    for label, part in parts.items():
        doc = part["doc"]
        log = part["log"]
        if doc is not None:
            log = [ln for ln in log if not GAME_LINE.match(ln)]
            lists = _games_key(doc)
            for i, games in enumerate(lists):
                games_out.extend({"type": "game", "part": label, "list": i, "game": g} for g in games)
                games.clear()  # the games go on lines of their own
        lines.append({"type": "part", "part": label, "doc": doc, "log": log, "uptime": part["uptime"]})
    lines.extend(games_out)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for rec in lines:
            f.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"{out}: {len(parts)} part(s), {len(games_out)} game(s)")
    return 0


def read(path: str) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            rec: dict[str, Any] = json.loads(line)
            if n == 1 and rec.get("format") != FORMAT:
                raise SystemExit(f"{path}: not a series file ({FORMAT})")
            yield rec


def _parts(path: str) -> dict[str, dict[str, Any]]:
    """A series file's parts as ``pack`` reads part files: ``{part: {"doc", "log", "uptime"}}``,
    each doc with its games back in it."""
    out: dict[str, dict[str, Any]] = {}
    for rec in read(path):
        if rec["type"] == "part":
            out[rec["part"]] = {"doc": rec["doc"], "log": rec["log"], "uptime": rec["uptime"]}
        elif rec["type"] == "game":
            _games_key(out[rec["part"]]["doc"])[rec["list"]].append(rec["game"])
    return out


def docs(path: str) -> list[tuple[str, dict[str, Any]]]:
    """Each part's JSON as its script wrote it, games included: ``[(part, doc), ...]``
    (parts stopped before they wrote a JSON are left out)."""
    out: dict[str, dict[str, Any]] = {}
    for rec in read(path):
        if rec["type"] == "part" and rec["doc"] is not None:
            out[rec["part"]] = rec["doc"]
        elif rec["type"] == "game":
            _games_key(out[rec["part"]])[rec["list"]].append(rec["game"])
    return list(out.items())


def load_docs(paths: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """``(label, doc)`` for every JSON a script reads: a part file as it is, a series file's parts."""
    out: list[tuple[str, dict[str, Any]]] = []
    for p in paths:
        if p.endswith(".jsonl"):
            out.extend((f"{p}#{part}", doc) for part, doc in docs(p))
        else:
            out.append((p, json.loads(Path(p).read_text(encoding="utf-8"))))
    return out


def show(path: str) -> int:
    games: dict[str, int] = {}
    recs = list(read(path))
    for rec in recs:
        if rec["type"] == "game":
            games[rec["part"]] = games.get(rec["part"], 0) + 1
    print(f"{recs[0]['name']}: {recs[0]['about']}")
    for rec in recs:
        if rec["type"] == "part":
            head = rec["log"][0] if rec["log"] else ""
            print(f"  {rec['part']}: {games.get(rec['part'], 0)} game(s){'' if rec['doc'] else ' (log only)'}  {head}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack", help="join a series' part files (.json, .log, .uptime) into one file")
    p.add_argument("out")
    p.add_argument("paths", nargs="+")
    p.add_argument("--about", required=True, help="one line: what was played, how")
    s = sub.add_parser("show", help="list a series file's parts")
    s.add_argument("path")
    args = ap.parse_args(argv)
    if args.cmd == "pack":
        return pack(args.out, args.paths, args.about)
    return show(args.path)


if __name__ == "__main__":
    sys.exit(main())
