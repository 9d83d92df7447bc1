"""The HTTP side of ``kassen serve``: a JSON API (the page uses nothing else), live updates
by server-sent events, and the static page.

Every game request names its seat by a secret token: ``Authorization: Bearer <token>``
or ``?token=`` (the event stream, which browsers cannot give headers). Every error, of
any route, is JSON ``{"error": {"code": "...", "message": "..."}}`` with a status saying
what is wrong; nothing changes. Requests whose ``Host`` is not this server's are refused
(DNS rebinding), and every answer carries a Content-Security-Policy and frame headers.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kassen.rulesets.registry import default_game
from kassen.web.editor import editor_router
from kassen.web.extras import primer, reference
from kassen.web.service import MAX_ACTION_LEN, GameService, WebError
from kassen.web.storage import (
    BUSY_SECONDS,
    SCHEMA_VERSION,
    WATCH,
    Storage,
    StorageUnavailable,
    first_line,
    is_busy,
)

log = logging.getLogger("kassen.web")

STATIC = resources.files("kassen.web") / "static"
NO_STORE = {"Cache-Control": "no-store"}
#: sent with every answer: scripts, styles and connections from this server only; never framed
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'self'; object-src 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
#: the ``code`` of an error body, by HTTP status
ERROR_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 409: "conflict", 410: "gone", 413: "too_large",
               422: "invalid", 429: "too_many_requests", 500: "internal", 503: "unavailable"}


#: the longest error message sent: whatever a request sent in, an error never echoes much of it
MAX_MESSAGE = 500
#: the largest request body read (``kassen serve --max-body``): larger is a 413, before reading it
MAX_BODY = 1_000_000


def error_body(status: int, message: str, code: str | None = None) -> dict[str, Any]:
    """The one error shape of every response: ``{"error": {"code", "message"}}`` (the message
    cut to ``MAX_MESSAGE`` characters)."""
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE - 3] + "..."
    return {"error": {"code": code or ERROR_CODES.get(status, "error"), "message": message}}


def error_bytes(status: int, message: str, code: str | None = None) -> bytes:
    return json.dumps(error_body(status, message, code)).encode()


def raw_error_headers(body: bytes) -> list[tuple[bytes, bytes]]:
    """The headers of an error answered below the framework (middleware, HTTP parser)."""
    return [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
            *((k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items())]


def host_allowed(host_header: str, allowed: frozenset[str]) -> bool:
    """Whether a ``Host`` header names this server: an address literal (a DNS-rebinding page
    can only send its own name), ``localhost``, or one of ``allowed`` (names given by the
    operator; ``*`` allows any).

    >>> a = frozenset({"kassen.example"})
    >>> [host_allowed(h, a) for h in ("127.0.0.1:8000", "[::1]:80", "localhost:8000", "kassen.example",
    ...                               "evil.example:8000", "")]
    [True, True, True, True, False, False]
    """
    if "*" in allowed:
        return True
    host = host_header.strip().lower()
    if host.startswith("["):
        host = host[1:host.find("]")] if "]" in host else host
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    if not host:
        return False
    if host in allowed or host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class GuardMiddleware:
    """Refuses a foreign ``Host`` (400) and adds the security headers to every answer."""

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), "")
        if not host_allowed(host, self.allowed):
            body = json.dumps(error_body(
                400, f"this server does not answer to the host {host[:100]!r}; start it with "
                     f"'kassen serve --allowed-host NAME' to allow a name", "bad_host")).encode()
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode()),
                                    *((k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items())]})
            await send({"type": "http.response.body", "body": body})
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()
                            if k.lower().encode() not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimitMiddleware:
    """Refuses a request body over ``limit`` bytes with 413: at once when ``Content-Length``
    says so (nothing of the body is read), else as soon as the chunks read pass it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, send: Send) -> None:
        body = error_bytes(413, f"the request body is larger than this server takes ({self.limit} bytes)")
        await send({"type": "http.response.start", "status": 413,
                    "headers": [*raw_error_headers(body), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = next((v for k, v in scope.get("headers", ()) if k == b"content-length"), None)
        if length is not None:
            try:
                too_large = int(length) > self.limit
            except ValueError:
                too_large = False  # the server's parser refuses a malformed length before us
            if too_large:
                await self._refuse(send)
                return
        seen = 0
        started = refused = False

        async def counting() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    # answered here: the framework would turn an error raised while reading into
                    # a 400; the application is then told the client left, and sends nothing
                    refused = True
                    if not started:
                        await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def watching(message: Message) -> None:
            nonlocal started
            if refused:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counting, watching)


T = TypeVar("T")


class Offload:
    """Runs what may wait on the database (every game route, first-load replays included) on
    threads of its own, so the event loop, the static files and health never wait on it. Each
    thread's wait on the database is bounded (``storage.busy_seconds``), so a request waits for
    a thread ``wait`` seconds at most (503 beyond), and only ``busy_wait`` while the database has
    just been found busy: a busy database is a short, bounded wait, never a queue."""

    def __init__(self, storage: Storage, threads: int = 16, wait: float = 10.0,
                 busy_wait: float = BUSY_SECONDS) -> None:
        self.storage = storage
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="kassen-io")
        self.threads = threads
        self.wait = wait
        self.busy_wait = busy_wait
        self._slots: asyncio.Semaphore | None = None

    async def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.threads)
        wait = self.busy_wait if self.storage.recently_busy() else self.wait
        try:
            await asyncio.wait_for(self._slots.acquire(), wait)
        except TimeoutError:
            raise StorageUnavailable(f"the server is busy: every storage thread stayed taken for {wait:g} s",
                                     "storage_busy") from None
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, functools.partial(fn, *args))
        finally:
            self._slots.release()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class HealthProbe:
    """Health's real write, on a thread of its own, one at a time: health answers within
    ``wait`` seconds whatever the database does. A probe still running then (a starved CPU, a
    database slow to connect) is answered by the last probe's result when it finished less than
    ``fresh`` seconds ago, else 'busy'."""

    def __init__(self, storage: Storage, wait: float = 0.25, fresh: float = 5.0) -> None:
        self.storage = storage
        self.wait = wait
        self.fresh = fresh
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="kassen-health")
        self.running: Future[str | None] | None = None
        self.last: tuple[float, str | None] | None = None

    def _probe(self) -> str | None:
        result = self.storage.check_writable()
        self.last = (time.monotonic(), result)
        return result

    def start(self) -> None:
        """Start a probe unless one runs (at start-up: the first health answer has a result)."""
        if self.running is None or self.running.done():
            self.running = self.pool.submit(self._probe)

    async def __call__(self) -> str | None:
        self.start()
        assert self.running is not None
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(self.running)), self.wait)
        except TimeoutError:
            last = self.last
            if last is not None and time.monotonic() - last[0] < self.fresh:
                return last[1]
            return f"busy: the database did not answer a write within {self.wait:g} s"

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


#: /docs: Swagger UI from this server (``fastapi-offline``'s copy), started by a script file, never inline
DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kassen API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body></html>
"""
DOCS_INIT = """window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis], layout: "BaseLayout"});
"""
DOCS_ASSETS = {"swagger-ui.css": "text/css", "swagger-ui-bundle.js": "text/javascript"}


def swagger_assets() -> Path:
    """Where the ``fastapi-offline`` package keeps Swagger UI's files (Swagger UI 5: it reads
    OpenAPI 3.1, which FastAPI writes)."""
    return Path(str(resources.files("fastapi_offline") / "static"))


#: seconds between keep-alive comments on an idle event stream
PING_SECONDS = 15.0


Auth = Annotated[str | None, Header(description="Bearer <seat token>")]
TokenQ = Annotated[str | None, Query(description="seat token (instead of the header)")]


class NewGame(BaseModel):
    """Body of ``POST /api/games``."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(default_factory=lambda: default_game().id, min_length=1, max_length=64,
                         description="game id, see /api/catalog (default: the default game)")
    scenario: str | None = Field(None, max_length=200, description="scenario id; null: the introductory one")
    seats: list[str] = Field(["human", "normal"], min_length=1, max_length=8,
                             description="one per seat: 'human' or an AI level (random, easy, greedy, normal, hard, mcts)")


class ActionBody(BaseModel):
    """Body of ``POST /api/games/{id}/actions``."""

    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=MAX_ACTION_LEN, description="one of the legal actions")
    at: int | None = Field(None, ge=0, description="the 'version' the decision was made on; stale: 409")


class ConcedeBody(BaseModel):
    """Body of ``POST /api/games/{id}/concede``."""

    model_config = ConfigDict(extra="forbid")
    at: int | None = Field(None, ge=0, description="the 'version' the concession was decided on; stale: 409")


class Hub:
    """Fans game changes out to event-stream subscribers (asyncio side)."""

    def __init__(self) -> None:
        self.queues: dict[str, set[asyncio.Queue[int]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = asyncio.Event()

    def subscribe(self, game_id: str) -> asyncio.Queue[int]:
        q: asyncio.Queue[int] = asyncio.Queue()
        self.queues.setdefault(game_id, set()).add(q)
        return q

    def unsubscribe(self, game_id: str, q: asyncio.Queue[int]) -> None:
        self.queues.get(game_id, set()).discard(q)

    def publish(self, game_id: str, version: int) -> None:
        for q in list(self.queues.get(game_id, ())):
            q.put_nowait(version)

    def from_thread(self, game_id: str, version: int) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.publish, game_id, version)


def _token(authorization: str | None, token: str | None) -> str | None:
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
        raise WebError(401, "the Authorization header must be 'Bearer <seat token>'")
    return token


def create_app(db_url: str, service: GameService | None = None,
               allowed_hosts: tuple[str, ...] | list[str] = (), max_body: int = MAX_BODY) -> FastAPI:
    """The application over the database at ``db_url``. ``allowed_hosts``: names besides
    address literals and ``localhost`` that the ``Host`` header may carry (``*``: any).
    ``max_body``: the largest request body taken (413 beyond)."""
    storage = service.storage if service is not None else Storage(db_url)
    svc = service if service is not None else GameService(storage)
    hub = Hub()
    offload = Offload(storage)
    probe = HealthProbe(storage)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        svc.listeners.append(hub.from_thread)
        probe.start()
        yield
        hub.stopping.set()
        svc.close()
        offload.close()
        probe.close()

    app = FastAPI(title="Kassen", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Play Kassen's games: one secret token per seat; each seat sees only what it may.")
    app.state.service = svc
    app.state.hub = hub
    app.state.offload = offload

    app.add_middleware(BodyLimitMiddleware, limit=max_body)
    app.add_middleware(GuardMiddleware, allowed_hosts=frozenset(h.strip().lower() for h in allowed_hosts))

    def error(status: int, message: str, code: str | None = None,
              headers: dict[str, str] | None = None) -> JSONResponse:
        return JSONResponse(error_body(status, message, code), status_code=status,
                            headers={**NO_STORE, **(headers or {})})

    @app.exception_handler(WebError)
    async def _web_error(request: Request, exc: WebError) -> JSONResponse:
        return error(exc.status, exc.message, exc.code, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return error(422, "malformed request: " + "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        messages = {404: f"nothing at {request.url.path[:200]!r}",
                    405: f"{request.method} is not allowed on {request.url.path[:200]!r}"}
        return error(exc.status_code, messages.get(exc.status_code, str(exc.detail)),
                     headers=dict(exc.headers or {}))

    @app.exception_handler(DBAPIError)
    async def _storage_error(request: Request, exc: DBAPIError) -> JSONResponse:
        """Any database error (read-only, full, locked, damaged, gone): 503 and one log line."""
        log.error("storage failed on %s %s: %s", request.method, request.url.path[:100], first_line(exc))
        if is_busy(exc):
            return error(503, "the game store is busy (another write holds it); nothing was changed, try again "
                              "in a moment", "storage_busy", {"Retry-After": "1"})
        return error(503, "the game store cannot be written or read (is the database read-only, full, "
                          "damaged or gone?); nothing was changed, try again later", "storage_unavailable")

    @app.exception_handler(PoolTimeout)
    async def _pool_busy(request: Request, exc: PoolTimeout) -> JSONResponse:
        log.error("storage busy on %s %s: no connection free", request.method, request.url.path[:100])
        return error(503, "the game store is busy; nothing was changed, try again in a moment", "storage_busy",
                     {"Retry-After": "1"})

    @app.exception_handler(StorageUnavailable)
    async def _storage_unavailable(request: Request, exc: StorageUnavailable) -> JSONResponse:
        log.error("storage unavailable on %s %s: %s", request.method, request.url.path[:100], exc.reason)
        return error(503, f"{exc.reason}; nothing was changed, try again later", exc.code, {"Retry-After": "1"})

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error(500, "the server failed on this request; nothing was changed")

    def seat(game_id: str, authorization: str | None, token: str | None) -> tuple[Any, int]:
        return svc.auth(game_id, _token(authorization, token))

    @app.get("/api/health")
    async def health() -> JSONResponse:
        """Whether the server can write its games now (a real write, committed, to the database
        it opened; 503 when it cannot, busy included). Answers within a quarter second."""
        problem = await probe()
        body = {"ok": problem is None, "schema_version": SCHEMA_VERSION, "storage": problem or "writable",
                "games_in_memory": len(svc.games)}
        return JSONResponse(body, status_code=200 if problem is None else 503, headers=NO_STORE)

    @app.get("/api/catalog")
    def catalog() -> dict[str, Any]:
        """The games, scenarios and seat kinds a new game can have."""
        return svc.catalog()

    @app.post("/api/games", status_code=201)
    async def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        """Create a game; returns one secret link per seat, and a watch link that sees only what
        a spectator may (the only time tokens are shown). 429 beyond the server's limits."""
        client = request.client.host if request.client else "unknown"

        def create() -> tuple[Any, list[str], str]:
            live, tokens = svc.create(body.ruleset, body.scenario, body.seats, client=client)
            return live, tokens, svc.new_watch_token(live)

        live, tokens, watch = await offload(create)
        names = live.seat_names()
        return {
            "watch": {"token": watch, "url": f"/game/{live.stored.id}#{watch}"},
            "game_id": live.stored.id,
            "ruleset": live.game.id,
            "scenario": live.stored.scenario,
            "seats": [{"seat": i, "name": names[i] if i < len(names) else f"seat {i}", "kind": k,
                       "token": tokens[i], "url": f"/game/{live.stored.id}#{tokens[i]}"}
                      for i, k in enumerate(live.stored.seat_kinds)],
        }

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, authorization: Auth = None, token: TokenQ = None,
                 since: Annotated[int, Query(ge=0, description="log from this history entry on")] = 0
                 ) -> JSONResponse:
        """What your seat sees: observation, legal actions when it is your move, your log."""
        def view() -> dict[str, Any]:
            live, s = seat(game_id, authorization, token)
            return svc.view(live, s, since)

        known = svc.known_seat(game_id, _token(authorization, token))
        if known is not None:  # in memory, its token checked before: no database, no thread hop
            return JSONResponse(svc.view(known[0], known[1], since), headers=NO_STORE)
        return JSONResponse(await offload(view), headers=NO_STORE)

    @app.post("/api/games/{game_id}/actions")
    async def post_action(game_id: str, body: ActionBody, authorization: Auth = None, token: TokenQ = None,
                    since: Annotated[int, Query(ge=0)] = 0) -> JSONResponse:
        """Take one of your legal actions; returns your new view."""
        def act() -> dict[str, Any]:
            live, s = seat(game_id, authorization, token)
            svc.act(live, s, body.action, body.at)
            return svc.view(live, s, since)

        return JSONResponse(await offload(act), headers=NO_STORE)

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, authorization: Auth = None, token: TokenQ = None) -> JSONResponse:
        """Against the AI: take back your last decision (never past a die roll or a card shown)."""
        def undo() -> dict[str, Any]:
            live, s = seat(game_id, authorization, token)
            undone = svc.undo(live, s)
            return {**svc.view(live, s, 0), "undone": undone}

        return JSONResponse(await offload(undo), headers=NO_STORE)

    @app.post("/api/games/{game_id}/concede")
    async def post_concede(game_id: str, body: ConcedeBody, authorization: Auth = None, token: TokenQ = None,
                           since: Annotated[int, Query(ge=0)] = 0) -> JSONResponse:
        """Give the game up (at any moment): the other side wins ("Red conceded"), the game is
        over and its replay opens; returns your new view. Never taken back."""
        def concede() -> dict[str, Any]:
            live, s = seat(game_id, authorization, token)
            svc.concede(live, s, body.at)
            return svc.view(live, s, since)

        return JSONResponse(await offload(concede), headers=NO_STORE)

    @app.get("/api/games/{game_id}/odds")
    async def get_odds(game_id: str, action: Annotated[str, Query(min_length=1, max_length=MAX_ACTION_LEN)],
                       authorization: Auth = None, token: TokenQ = None) -> JSONResponse:
        """Exact odds of one of your legal attack actions, before you commit."""
        def odds() -> dict[str, Any]:
            live, s = seat(game_id, authorization, token)
            return svc.odds(live, s, action)

        return JSONResponse(await offload(odds), headers=NO_STORE)

    @app.post("/api/games/{game_id}/calculator")
    async def post_calculator(game_id: str, body: dict[str, Any], authorization: Auth = None,
                              token: TokenQ = None) -> JSONResponse:
        """A game's dice calculator (Kensei: the roll resolver's exact distributions)."""
        def calculate() -> dict[str, Any]:
            live, _ = seat(game_id, authorization, token)
            return svc.calculator(live, body)

        return JSONResponse(await offload(calculate), headers=NO_STORE)

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str, step: Annotated[int, Query(ge=0)], authorization: Auth = None,
                         token: TokenQ = None) -> JSONResponse:
        """A finished game as your seat saw it after ``step`` actions."""
        def replay() -> dict[str, Any]:
            live, s = seat(game_id, authorization, token)
            return svc.replay_step(live, s, step)

        return JSONResponse(await offload(replay), headers=NO_STORE)

    @app.get("/api/games/{game_id}/reference")
    async def get_reference(game_id: str, authorization: Auth = None, token: TokenQ = None) -> dict[str, Any]:
        """The game's unit and terrain tables (for hover cards; empty for games without) and the rules
        primer of the battle played (``primer``: dice, Honor & Fortune, Leaders, this scenario's
        victory conditions, terrain effects; built from what your seat sees)."""
        def tables() -> dict[str, Any]:
            live, s = seat(game_id, authorization, token)
            with live.lock:
                state = live.state
            return {**reference(live.game), "primer": primer(live.game, state, None if s == WATCH else s)}

        return await offload(tables)

    @app.get("/api/games/{game_id}/events", response_class=StreamingResponse)
    async def events(game_id: str, request: Request, authorization: Auth = None,
                     token: TokenQ = None) -> StreamingResponse:
        """Server-sent events: ``data: {"version": n}`` each time the game changes (then GET it)."""
        live, _ = await offload(seat, game_id, authorization, token)
        q = hub.subscribe(game_id)
        live.watchers += 1

        async def stream() -> AsyncIterator[str]:
            try:
                yield f"data: {json.dumps({'version': live.version})}\n\n"
                while not hub.stopping.is_set():
                    try:
                        await asyncio.wait_for(q.get(), PING_SECONDS)
                    except TimeoutError:
                        if await request.is_disconnected():
                            return
                        yield ": ping\n\n"
                        continue
                    while not q.empty():
                        q.get_nowait()
                    yield f"data: {json.dumps({'version': live.version, 'ai_thinking': live.ai_running})}\n\n"
            finally:
                hub.unsubscribe(game_id, q)
                live.watchers -= 1

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**NO_STORE, "X-Accel-Buffering": "no"})

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """Swagger UI on the OpenAPI schema, from this server only (its assets come from the
        ``fastapi-offline`` package; no inline script): it works under the page's CSP."""
        return HTMLResponse(DOCS_PAGE, headers=NO_STORE)

    @app.get("/docs/init.js", include_in_schema=False)
    def docs_init() -> Response:
        return Response(DOCS_INIT, media_type="text/javascript")

    @app.get("/docs/assets/{name}", include_in_schema=False)
    def docs_asset(name: str) -> FileResponse:
        if name not in DOCS_ASSETS:
            raise StarletteHTTPException(404)
        return FileResponse(str(swagger_assets() / name), media_type=DOCS_ASSETS[name])

    app.include_router(editor_router(svc))  # the scenario editor: /editor, /api/editor/...
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(str(index), headers=NO_STORE)

    @app.get("/game/{game_id}", include_in_schema=False)
    def game_page(game_id: str) -> FileResponse:
        return FileResponse(str(index), headers=NO_STORE)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
