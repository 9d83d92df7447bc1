"""Running the server: ``kassen serve`` (and ``make play``, which also opens a new game)."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import threading
import time
import webbrowser
from typing import Any

import uvicorn

from kassen.rulesets.registry import default_game
from kassen.web.app import MAX_BODY, SECURITY_HEADERS, create_app, error_bytes
from kassen.web.service import GameService, Limits
from kassen.web.storage import Storage, default_db_url

#: a request's line and headers must arrive within this many seconds (else 408, closed)
HEADER_SECONDS = 10.0
#: the most bytes a request's line and headers may take (else 431, closed)
MAX_HEAD = 64 * 1024
STATUS_TEXT = {400: b"Bad Request", 408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


def raw_error(status: int, message: str) -> bytes:
    """A whole HTTP answer in Kassen's error shape with its security headers, for what the
    HTTP parser refuses before any application sees it."""
    body = error_bytes(status, message)
    head = [b"HTTP/1.1 %d %s" % (status, STATUS_TEXT.get(status, b"Error")),
            b"content-type: application/json", b"content-length: %d" % len(body), b"cache-control: no-store",
            b"connection: close", *(f"{k.lower()}: {v}".encode() for k, v in SECURITY_HEADERS.items())]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def _kassen_protocol(header_seconds: float = HEADER_SECONDS) -> type[asyncio.Protocol] | None:
    """uvicorn's httptools protocol, made to answer malformed requests in the error shape, to
    bound the request head's size and to close connections that never finish their headers
    (``None`` without httptools: uvicorn's h11 protocol then answers those itself)."""
    header_seconds_ = header_seconds
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools is in requirements.lock
        return None

    class KassenHttpProtocol(HttpToolsProtocol):
        header_seconds = header_seconds_
        max_head = MAX_HEAD

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.head_bytes = 0
            self.in_head = True
            self.refused = False
            self.head_timer: asyncio.TimerHandle | None = None
            self._arm()

        def _arm(self) -> None:
            if self.head_timer is None:
                self.head_timer = self.loop.call_later(self.header_seconds, self._head_timeout)

        def _disarm(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_timeout(self) -> None:
            self.head_timer = None
            if self.in_head and not self.transport.is_closing():
                if self.head_bytes:
                    self.transport.write(raw_error(408, f"the request's headers did not arrive within "
                                                        f"{self.header_seconds:g} s"))
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self.refused:
                return
            if self.in_head:
                self._arm()
            super().data_received(data)

        def _count(self, n: int) -> None:
            self.head_bytes += n
            if self.head_bytes > self.max_head and not self.refused:
                self.refused = True
                self.transport.write(raw_error(431, f"the request line and headers are longer than this "
                                                    f"server takes ({self.max_head} bytes)"))
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self.in_head, self.head_bytes = True, 0

        def on_url(self, url: bytes) -> None:
            self._count(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self.in_head = False
            self._disarm()
            if not self.refused:
                super().on_headers_complete()

        def on_message_complete(self) -> None:
            if not self.refused:
                super().on_message_complete()
            self.in_head, self.head_bytes = True, 0

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            self.transport.write(raw_error(400, f"malformed HTTP request ({msg.rstrip('.')})"))
            self.transport.close()

    return KassenHttpProtocol


def make_config(app: Any, host: str, port: int, forwarded_allow_ips: str | None = None,
                header_seconds: float = HEADER_SECONDS) -> uvicorn.Config:
    """How uvicorn serves ``app``: ``X-Forwarded-For`` and ``-Proto`` are believed only from the
    addresses ``forwarded_allow_ips`` names (comma-separated; ``*`` any; none: never, whoever
    connects, 127.0.0.1 included), request heads bounded in size and time (``HEADER_SECONDS``,
    ``MAX_HEAD``), malformed requests answered in the error shape."""
    protocol = _kassen_protocol(header_seconds)
    trusted = (forwarded_allow_ips or "").strip()
    return uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2,
                          http=protocol if protocol is not None else "h11", proxy_headers=bool(trusted),
                          forwarded_allow_ips=trusted or None, h11_max_incomplete_event_size=MAX_HEAD)


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
    """The storage at ``url``, or ``SystemExit`` with one line saying what is wrong with it
    (an empty or in-memory URL included: it would keep nothing)."""
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
          limits: Limits | None = None, forwarded_allow_ips: str | None = None, max_body: int = MAX_BODY,
          ai_processes: bool = True, ai_nice: int = 10) -> None:
    """Serve until interrupted. ``new_game``: create a game against the AI and print its link
    (``open_browser``: also open it); a busy port then moves on to the next free one.
    ``allowed_hosts``: names besides addresses and localhost the page may be reached by.
    ``forwarded_allow_ips``: proxies whose ``X-Forwarded-For`` is believed (none by default).
    ``max_body``: the largest request body taken (413 beyond). ``ai_processes``: the computer
    players think in child processes (:mod:`kassen.web.thinkers`), not in the server's, ``ai_nice``
    lower in priority."""
    url = default_db_url() if db is None else db
    storage = open_storage(url)
    # requests wait on I/O while a balance check's games (and, with ai_processes off, the computer
    # players) compute in threads of the same process: a thread woken by I/O waits for the
    # interpreter lock up to this interval each time (5 ms by default), many times a request;
    # 1 ms keeps answers quick beside them
    sys.setswitchinterval(0.001)
    test_seed = os.environ.get("KASSEN_TEST_SEED")  # tests only: reproducible deals and dice
    service = GameService(storage, limits=limits, test_seed=int(test_seed) if test_seed else None,
                          ai_processes=ai_processes, ai_nice=ai_nice)
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
    app = create_app(url, service, allowed_hosts=(*allowed_hosts, host), max_body=max_body)
    config = make_config(app, host, port, forwarded_allow_ips)
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
