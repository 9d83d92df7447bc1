"""Load test of ``kassen serve`` (issue 13): many concurrent games between two people over
HTTP on loopback, with the server killed (SIGKILL) and restarted in the middle.

Every client plays one seat-pair of a game (both tokens, like two people at one table
taking turns): it reads its view, picks an action (battle first, else the first legal
action that is not an end-of-step, else that), and POSTs it with ``at`` = the version it
saw. It measures each POST's latency, counts accepted actions and retries after the kill.
At the end every acknowledged action is checked against the database: an action the
server answered 200 for must be stored at its place ("lost" counts those that are not).

Bounded: ``--seconds`` of load (default 60) and ``--max-requests`` in all; loopback only;
the server it starts is stopped at the end.

    .venv/bin/python benchmarks/load.py --games 100 --seconds 60 --kill-at 30 --json

``--attack N`` (issue 31, finding 1) adds, beside the people's games, one address (its
``X-Forwarded-For``; the server believes it from loopback only for the benchmark) that creates
N games ``["hard", "human"]`` and plays its seat the instant it may, retrying refused
creations; and one person (another address) playing against ``greedy``, whose every AI answer
is timed (from the POST that handed the move over to the view saying it is the person's turn
again). ``--balance N`` (issue 36) adds, beside the people's games, the scenario editor's "How
balanced?" check of the editor's template (N games greedy against greedy, from another
address) and the same person against ``greedy``, each AI answer timed: the check must not
keep the people's actions or the person's AI answers waiting. ``--lock-for S`` instead holds the SQLite write lock for S seconds from outside the
server (as a backup does) while static files, health and actions are asked for in a loop.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from kassen.testing.server import ServedKassen, free_port

PREFER = ("attack ", "fire ", "play ", "order ", "move ")
ENDS = ("done", "end-move", "end-battle", "pass")


def Server(db: str, port: int, more: tuple[str, ...] = ()) -> ServedKassen:  # noqa: N802 - reads like a class
    """The served Kassen under load: no limit on games per address, its output dropped; the
    benchmark's X-Forwarded-For believed (it plays several addresses from loopback); ``more``:
    other ``kassen serve`` options."""
    return ServedKassen(db, port, args=("--games-per-hour", "100000", "--forwarded-allow-ips", "127.0.0.1", *more),
                        quiet=True)


class Attacker(threading.Thread):
    """Finding 1's attack: one address creates ``n`` games ``["hard", "human"]`` (retrying a 429
    every second) and plays its seat in each the instant it may."""

    def __init__(self, base: str, n: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.base, self.n, self.stop = base, n, stop
        self.headers = {"X-Forwarded-For": "10.66.0.1"}
        self.http = httpx.Client(timeout=30, headers=self.headers)
        self.games: list[dict[str, Any]] = []
        self.refused = 0
        self.refusal = ""
        self.actions = 0

    def run(self) -> None:
        last_try = 0.0
        while not self.stop.is_set():
            try:
                if len(self.games) < self.n and time.monotonic() - last_try >= 1.0:
                    while len(self.games) < self.n:
                        r = self.http.post(self.base + "/api/games", json={"seats": ["hard", "human"]})
                        if r.status_code != 201:
                            self.refused += 1
                            self.refusal = r.json()["error"]["message"]
                            last_try = time.monotonic()
                            break
                        self.games.append(r.json())
                moved = False
                for g in self.games:
                    t = g["seats"][1]["token"]
                    v = self.http.get(f"{self.base}/api/games/{g['game_id']}?since=1000000000",
                                      headers={"Authorization": f"Bearer {t}"}).json()
                    if v.get("your_turn"):
                        r = self.http.post(f"{self.base}/api/games/{g['game_id']}/actions?since=1000000000",
                                           headers={"Authorization": f"Bearer {t}"},
                                           json={"action": pick([a["action"] for a in v["actions"]]),
                                                 "at": v["version"]})
                        self.actions += r.status_code == 200
                        moved = True
                if not moved:
                    time.sleep(0.05)
            except httpx.HTTPError:
                time.sleep(0.2)


class Person(threading.Thread):
    """A person (another address) playing against ``greedy``: how long each AI answer takes."""

    def __init__(self, base: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.base, self.stop = base, stop
        self.http = httpx.Client(timeout=60, headers={"X-Forwarded-For": "10.1.0.7"})
        self.waits: list[float] = []
        self.unanswered = 0.0

    def run(self) -> None:
        r = self.http.post(self.base + "/api/games", json={"seats": ["human", "greedy"]})
        r.raise_for_status()
        g = r.json()
        url = f"{self.base}/api/games/{g['game_id']}?since=1000000000"
        auth = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
        handed: float | None = None
        while not self.stop.is_set():
            try:
                v = self.http.get(url, headers=auth).json()
            except httpx.HTTPError:
                time.sleep(0.2)
                continue
            if v.get("result") is not None:
                return
            if not v.get("your_turn"):
                if handed is not None:
                    self.unanswered = time.perf_counter() - handed
                time.sleep(0.02)
                continue
            if handed is not None:
                self.waits.append(time.perf_counter() - handed)
                handed = None
            before = v["version"]
            r = self.http.post(f"{self.base}/api/games/{g['game_id']}/actions?since=1000000000", headers=auth,
                               json={"action": pick([a["action"] for a in v["actions"]]), "at": before})
            if r.status_code == 200 and not r.json().get("your_turn"):
                handed = time.perf_counter()  # the AI is to move now


def pick(actions: list[str]) -> str:
    for prefix in PREFER:
        a = next((x for x in actions if x.startswith(prefix)), None)
        if a is not None:
            return a
    return next((a for a in actions if a not in ENDS), actions[0])


class Client(threading.Thread):
    def __init__(self, base: str, game: dict[str, Any], stop: threading.Event, budget: list[int],
                 lock: threading.Lock, think: float) -> None:
        super().__init__(daemon=True)
        self.base, self.game, self.stop, self.budget, self.lock, self.think = base, game, stop, budget, lock, think
        self.latencies: list[float] = []
        self.acked: dict[int, str] = {}  # version before the action -> action, for every 200
        self.statuses: dict[int, int] = {}
        self.retries = 0
        self.http = httpx.Client(timeout=30)

    def run(self) -> None:
        gid = self.game["game_id"]
        tokens = [s["token"] for s in self.game["seats"]]
        while not self.stop.is_set():
            with self.lock:
                if self.budget[0] <= 0:
                    return
                self.budget[0] -= 1
            try:
                view = None
                for t in tokens:
                    v = self.http.get(f"{self.base}/api/games/{gid}?since=1000000000",
                                      headers={"Authorization": f"Bearer {t}"}).json()
                    if v.get("your_turn"):
                        view, token = v, t
                        break
                if view is None:
                    return  # over
                action = pick([a["action"] for a in view["actions"]])
                at = view["version"]
                t0 = time.perf_counter()
                r = self.http.post(f"{self.base}/api/games/{gid}/actions?since=1000000000",
                                   headers={"Authorization": f"Bearer {token}"}, json={"action": action, "at": at})
                self.latencies.append(time.perf_counter() - t0)
                self.statuses[r.status_code] = self.statuses.get(r.status_code, 0) + 1
                if r.status_code == 200:
                    self.acked[at] = action
                if self.think:
                    time.sleep(self.think)
            except httpx.HTTPError:
                self.retries += 1
                time.sleep(0.2)  # the server is down (the kill): try again


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def play_to_end(base: str, game: dict[str, Any]) -> int:
    """Play ``game`` (every seat from here) to its end; returns the actions taken."""
    http = httpx.Client(timeout=30)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    n = 0
    while n < 5000:
        mover = None
        for t in tokens:
            v = http.get(f"{base}/api/games/{gid}?since=1000000000", headers={"Authorization": f"Bearer {t}"}).json()
            if v["result"] is not None:
                return n
            if v["your_turn"]:
                mover = (t, v)
                break
        if mover is None:
            time.sleep(0.01)
            continue
        t, v = mover
        r = http.post(f"{base}/api/games/{gid}/actions?since=1000000000", headers={"Authorization": f"Bearer {t}"},
                      json={"action": v["actions"][0]["action"], "at": v["version"]})
        n += r.status_code == 200
    return n


def memory_run(n: int, as_json: bool) -> None:
    """Server memory (RSS) fresh, after ``n`` finished games, and after they left memory."""
    from concurrent.futures import ThreadPoolExecutor

    tmp = tempfile.mkdtemp(prefix="kassen-mem-")
    port = free_port()
    server = Server(f"sqlite:///{tmp}/games.db", port)
    exe = Path(sys.executable).with_name("kassen")
    server.proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db", server.db, "--games-per-hour",
                                    "100000", "--idle-minutes", "0.2"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 60
    while True:
        try:
            if httpx.get(server.base + "/api/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.05)
    http = httpx.Client(timeout=30)
    http.get(server.base + "/api/catalog")  # every ruleset loaded once, as any real server soon has
    fresh = server.rss_mb()
    t0 = time.monotonic()
    actions = 0
    with ThreadPoolExecutor(50) as pool:
        games = [http.post(server.base + "/api/games", json={"ruleset": "clans", "seats": ["human", "human"]}).json()
                 for _ in range(n)]
        for k in pool.map(lambda g: play_to_end(server.base, g), games):
            actions += k
    played = time.monotonic() - t0
    after = server.rss_mb()
    loaded = http.get(server.base + "/api/health").json()["games_in_memory"]
    time.sleep(30)  # finished games leave memory 12 s after their last use (--idle-minutes 0.2)
    left = http.get(server.base + "/api/health").json()["games_in_memory"]
    settled = server.rss_mb()
    server.stop()
    out = {"finished_games": n, "actions": actions, "seconds": round(played, 1), "rss_mb_fresh": round(fresh, 1),
           "rss_mb_after_games": round(after, 1), "games_in_memory_after_games": loaded,
           "games_in_memory_after_wait": left, "rss_mb_after_unload": round(settled, 1),
           "growth_mb": round(settled - fresh, 1), "load_average_1min": round(os.getloadavg()[0], 2)}
    print(json.dumps(out, indent=2) if as_json else "\n".join(f"{k:>22}: {v}" for k, v in out.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--kill-at", type=float, default=None, help="SIGKILL and restart the server after this many "
                                                                  "seconds (default: half way; 0: never)")
    ap.add_argument("--think", type=float, default=0.0, help="seconds a client waits after each action")
    ap.add_argument("--max-requests", type=int, default=200_000)
    ap.add_argument("--memory", type=int, default=0, metavar="N",
                    help="instead: play N short games (clans, 2 people) to the end, 50 at a time, and report the "
                         "server's memory fresh, after them, and once the finished games have left memory")
    ap.add_argument("--attack", type=int, default=0, metavar="N",
                    help="also: one address creates N games ['hard', 'human'] and plays them instantly, and a "
                         "person plays against greedy, each AI answer timed (issue 31, finding 1)")
    ap.add_argument("--balance", type=int, default=0, metavar="N",
                    help="also: a scenario editor balance check of N games (greedy vs greedy) runs, and a person "
                         "plays against greedy, each AI answer timed (issue 36)")
    ap.add_argument("--lock-for", type=float, default=0.0, metavar="S",
                    help="instead: hold the database's write lock S seconds while static files, health and "
                         "actions are asked for (issue 31, finding 3)")
    ap.add_argument("--ai-threads", action="store_true",
                    help="the server's computer players think in its own threads, not in child processes "
                         "(kassen serve --ai-threads; to compare, issue 31)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.memory:
        memory_run(args.memory, args.json)
        return
    if args.lock_for:
        lock_run(args.lock_for, args.json)
        return
    kill_at = args.seconds / 2 if args.kill_at is None else args.kill_at
    tmp = tempfile.mkdtemp(prefix="kassen-load-")
    db = f"sqlite:///{tmp}/games.db"
    server = Server(db, free_port(), ("--ai-threads",) if args.ai_threads else ())
    server.start()
    rss_start = server.rss_mb()
    games = []
    http = httpx.Client(timeout=30)
    for _ in range(args.games):
        r = http.post(server.base + "/api/games", json={"seats": ["human", "human"]})
        r.raise_for_status()
        games.append(r.json())
    stop = threading.Event()
    budget, lock = [args.max_requests], threading.Lock()
    clients = [Client(server.base, g, stop, budget, lock, args.think) for g in games]
    attacker = Attacker(server.base, args.attack, stop) if args.attack else None
    person = Person(server.base, stop) if args.attack or args.balance else None
    check: dict[str, Any] | None = None
    if args.balance:
        from kassen.rulesets.cc_samurai.design import template

        r = http.post(server.base + "/api/editor/balance", headers={"X-Forwarded-For": "10.36.0.1"},
                      json={"text": template(), "games": args.balance, "players": ["greedy", "greedy"]})
        r.raise_for_status()
        check = r.json()
    cpu0 = os.times()
    t0 = time.monotonic()
    for extra in (attacker, person):
        if extra is not None:
            extra.start()
    for c in clients:
        c.start()
    killed = False
    while time.monotonic() - t0 < args.seconds and any(c.is_alive() for c in clients):
        time.sleep(0.1)
        if kill_at and not killed and time.monotonic() - t0 >= kill_at:
            server.kill9()
            server.start()
            killed = True
    stop.set()
    for c in clients:
        c.join(60)
    for extra in (attacker, person):
        if extra is not None:
            extra.join(60)
    elapsed = time.monotonic() - t0
    if check is not None:  # how far the check got (the server was never killed if it is still there)
        r = http.get(f"{server.base}/api/editor/balance/{check['id']}")
        check = r.json() if r.status_code == 200 else {"done": None, "state": f"gone ({r.status_code})"}
    rss_end = server.rss_mb()
    server.stop()
    cpu1 = os.times()
    # every acknowledged action is stored at its place
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from kassen.web.storage import Storage

    storage = Storage(db)
    lost = 0
    acked = 0
    for c in clients:
        stored = storage.load_game(c.game["game_id"])
        assert stored is not None
        for at, action in c.acked.items():
            acked += 1
            if at >= len(stored.actions) or stored.actions[at] != action:
                lost += 1
    storage.close()
    lat = [x for c in clients for x in c.latencies]
    out = {
        "games": args.games, "seconds": round(elapsed, 1), "think_seconds": args.think,
        "ai": "threads" if args.ai_threads else "processes", "killed": killed,
        "posts": len(lat), "acknowledged": acked, "lost": lost,
        "post_statuses": {str(k): sum(c.statuses.get(k, 0) for c in clients)
                          for k in sorted({k for c in clients for k in c.statuses})},
        "retries_after_kill": sum(c.retries for c in clients),
        "actions_per_second": round(acked / elapsed, 1),
        "post_p50_ms": round(pct(lat, 50) * 1000, 1), "post_p95_ms": round(pct(lat, 95) * 1000, 1),
        "post_p99_ms": round(pct(lat, 99) * 1000, 1),
        "post_mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else 0.0,
        "server_rss_mb_start": round(rss_start, 1), "server_rss_mb_end": round(rss_end, 1),
        "client_cpu_seconds": round((cpu1.user - cpu0.user) + (cpu1.system - cpu0.system), 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    if check is not None:
        out.update({"balance_games": args.balance, "balance_games_done": check["done"],
                    "balance_state": check["state"]})
    if attacker is not None:
        out.update({
            "attack_games_created": len(attacker.games), "attack_creations_refused": attacker.refused,
            "attack_refusal": attacker.refusal, "attack_actions": attacker.actions})
    if person is not None:
        out.update({
            "greedy_answers": len(person.waits),
            "greedy_answer_p50_s": round(pct(person.waits, 50), 3), "greedy_answer_p95_s": round(pct(person.waits, 95), 3),
            "greedy_answer_max_s": round(max(person.waits, default=0.0), 3),
            "greedy_unanswered_at_end_s": round(person.unanswered, 3),
        })
    print(json.dumps(out, indent=2) if args.json else
          "\n".join(f"{k:>22}: {v}" for k, v in out.items()))


def lock_run(seconds: float, as_json: bool) -> None:
    """Hold SQLite's write lock ``seconds`` from outside while static files, health and actions
    are asked for, each in a loop of its own: their latencies and statuses."""
    import sqlite3

    tmp = tempfile.mkdtemp(prefix="kassen-lock-")
    db = f"{tmp}/games.db"
    server = Server(f"sqlite:///{db}", free_port())
    server.start()
    http = httpx.Client(timeout=60)
    g = http.post(server.base + "/api/games", json={"seats": ["human", "human"]}).json()
    auth = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
    action = http.get(f"{server.base}/api/games/{g['game_id']}", headers=auth).json()["actions"][0]["action"]
    held = threading.Event()
    done = threading.Event()
    results: dict[str, list[tuple[float, int]]] = {"static": [], "health": [], "action": []}

    def ask(name: str, fn: Any) -> None:
        c = httpx.Client(timeout=60)
        held.wait()
        while not done.is_set():
            t0 = time.perf_counter()
            r = fn(c)
            results[name].append((time.perf_counter() - t0, r.status_code))
            time.sleep(0.02)

    askers = [
        threading.Thread(target=ask, args=("static", lambda c: c.get(server.base + "/static/app.js")), daemon=True),
        threading.Thread(target=ask, args=("health", lambda c: c.get(server.base + "/api/health")), daemon=True),
        threading.Thread(target=ask, args=("action", lambda c: c.post(
            f"{server.base}/api/games/{g['game_id']}/actions", headers=auth, json={"action": action, "at": 0})),
            daemon=True),
    ]
    for t in askers:
        t.start()
    conn = sqlite3.connect(db, timeout=10)
    conn.execute("BEGIN IMMEDIATE")
    held.set()
    time.sleep(seconds)
    done.set()
    conn.rollback()
    conn.close()
    for t in askers:
        t.join(60)
    server.stop()
    out: dict[str, Any] = {"lock_seconds": seconds}
    for name, rs in results.items():
        lat = [x for x, _ in rs]
        out[f"{name}_requests"] = len(rs)
        out[f"{name}_statuses"] = sorted({s for _, s in rs})
        out[f"{name}_p50_ms"] = round(pct(lat, 50) * 1000, 1)
        out[f"{name}_p95_ms"] = round(pct(lat, 95) * 1000, 1)
        out[f"{name}_max_ms"] = round(max(lat, default=0.0) * 1000, 1)
    out["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(out, indent=2) if as_json else "\n".join(f"{k:>22}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
