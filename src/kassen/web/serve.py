"""Running the server: ``kassen serve`` (and ``make play``, which also opens a new game)."""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import webbrowser

import uvicorn

from kassen.rulesets.registry import default_game
from kassen.web.app import create_app
from kassen.web.service import GameService, Limits
from kassen.web.storage import Storage, default_db_url


def port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def can_open_browser() -> bool:
    """A graphical browser can open (never a text browser taking over the terminal)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_storage(url: str) -> Storage:
    """The storage at ``url``, or ``SystemExit`` with one line saying what is wrong with it."""
    try:
        storage = Storage(url)
    except Exception as exc:  # any driver or URL error: one line, not a traceback
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        first = reason[0] if reason else type(exc).__name__
        hint = "" if "://" in url else f" (a database URL, e.g. sqlite:///{url.lstrip('/') or 'games.db'})"
        raise SystemExit(f"error: cannot use the database {url!r} (--db / KASSEN_DB): {first[:200]}{hint}") from None
    problem = storage.check_writable()
    if problem is not None:
        storage.close()
        raise SystemExit(f"error: the database {url!r} {problem[:200]}; games could not be saved")
    return storage


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, new_game: bool = False,
          open_browser: bool = False, say: bool = True, allowed_hosts: tuple[str, ...] = (),
          limits: Limits | None = None) -> None:
    """Serve until interrupted. ``new_game``: create a game against the AI and print its link
    (``open_browser``: also open it); a busy port then moves on to the next free one.
    ``allowed_hosts``: names besides addresses and localhost the page may be reached by."""
    url = db or default_db_url()
    storage = open_storage(url)
    test_seed = os.environ.get("KASSEN_TEST_SEED")  # tests only: reproducible deals and dice
    service = GameService(storage, limits=limits, test_seed=int(test_seed) if test_seed else None)
    if new_game:
        for p in range(port, port + 50):
            if port_free(host, p):
                port = p
                break
    elif not port_free(host, port):
        raise SystemExit(f"error: port {port} on {host} is in use; choose another with --port")
    shown_host = f"[{host}]" if ":" in host else host
    base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown_host}:{port}"
    target = base + "/"
    if new_game:
        live, tokens = service.create(default_game().id, None, ["human", "normal"])
        target = f"{base}/game/{live.stored.id}#{tokens[0]}"
    app = create_app(url, service, allowed_hosts=(*allowed_hosts, host))
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if not server.started:
            return
        if say:
            print(f"Kassen is serving on {base} (games in {storage.url})", flush=True)
            if new_game:
                print(f"Your battle against the AI: {target}", flush=True)
            print("Stop the server with Ctrl+C; every game is saved as it is played.", flush=True)
        if open_browser:
            opened = can_open_browser() and webbrowser.open(target)
            if not opened and say:
                print(f"(No browser could be opened here: open {target} yourself.)", flush=True)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run()
    finally:
        service.close()
        storage.close()
