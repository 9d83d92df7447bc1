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
import ipaddress
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kassen.web.editor import editor_router
from kassen.web.extras import reference
from kassen.web.service import MAX_ACTION_LEN, GameService, WebError
from kassen.web.storage import SCHEMA_VERSION, Storage

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


def error_body(status: int, message: str, code: str | None = None) -> dict[str, Any]:
    """The one error shape of every response: ``{"error": {"code", "message"}}``."""
    return {"error": {"code": code or ERROR_CODES.get(status, "error"), "message": message}}


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
#: seconds between keep-alive comments on an idle event stream
PING_SECONDS = 15.0


Auth = Annotated[str | None, Header(description="Bearer <seat token>")]
TokenQ = Annotated[str | None, Query(description="seat token (instead of the header)")]


class NewGame(BaseModel):
    """Body of ``POST /api/games``."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field("cc-samurai", min_length=1, max_length=64, description="game id, see /api/catalog")
    scenario: str | None = Field(None, max_length=200, description="scenario id; null: the introductory one")
    seats: list[str] = Field(["human", "normal"], min_length=1, max_length=8,
                             description="one per seat: 'human' or an AI level (random, easy, greedy, normal, hard, mcts)")


class ActionBody(BaseModel):
    """Body of ``POST /api/games/{id}/actions``."""

    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=MAX_ACTION_LEN, description="one of the legal actions")
    at: int | None = Field(None, ge=0, description="the 'version' the decision was made on; stale: 409")


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
               allowed_hosts: tuple[str, ...] | list[str] = ()) -> FastAPI:
    """The application over the database at ``db_url``. ``allowed_hosts``: names besides
    address literals and ``localhost`` that the ``Host`` header may carry (``*``: any)."""
    storage = service.storage if service is not None else Storage(db_url)
    svc = service if service is not None else GameService(storage)
    hub = Hub()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        svc.listeners.append(hub.from_thread)
        yield
        hub.stopping.set()
        svc.close()

    app = FastAPI(title="Kassen", version="1", lifespan=lifespan,
                  description="Play Kassen's games: one secret token per seat; each seat sees only what it may.")
    app.state.service = svc
    app.state.hub = hub

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

    @app.exception_handler(OperationalError)
    async def _storage_error(request: Request, exc: OperationalError) -> JSONResponse:
        log.error("storage failed: %s", exc.orig)
        return error(503, "the game store cannot be written or read (is the database read-only, full or "
                          "gone?); nothing was changed, try again later", "storage_unavailable")

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error(500, "the server failed on this request; nothing was changed")

    def seat(game_id: str, authorization: str | None, token: str | None) -> tuple[Any, int]:
        return svc.auth(game_id, _token(authorization, token))

    @app.get("/api/health")
    def health() -> JSONResponse:
        """Whether the server can read and write its games (503 when it cannot)."""
        problem = storage.check_writable()
        body = {"ok": problem is None, "schema_version": SCHEMA_VERSION, "storage": problem or "writable",
                "games_in_memory": len(svc.games)}
        return JSONResponse(body, status_code=200 if problem is None else 503, headers=NO_STORE)

    @app.get("/api/catalog")
    def catalog() -> dict[str, Any]:
        """The games, scenarios and seat kinds a new game can have."""
        return svc.catalog()

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        """Create a game; returns one secret link per seat, and a watch link that sees only what
        a spectator may (the only time tokens are shown). 429 beyond the server's limits."""
        client = request.client.host if request.client else "unknown"
        live, tokens = svc.create(body.ruleset, body.scenario, body.seats, client=client)
        names = live.seat_names()
        watch = svc.new_watch_token(live)
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
        live, s = seat(game_id, authorization, token)
        return JSONResponse(svc.view(live, s, since), headers=NO_STORE)

    @app.post("/api/games/{game_id}/actions")
    async def post_action(game_id: str, body: ActionBody, authorization: Auth = None, token: TokenQ = None,
                    since: Annotated[int, Query(ge=0)] = 0) -> JSONResponse:
        """Take one of your legal actions; returns your new view."""
        live, s = seat(game_id, authorization, token)
        svc.act(live, s, body.action, body.at)
        return JSONResponse(svc.view(live, s, since), headers=NO_STORE)

    @app.post("/api/games/{game_id}/undo")
    def post_undo(game_id: str, authorization: Auth = None, token: TokenQ = None) -> JSONResponse:
        """Against the AI: take back your last decision (never past a die roll or a card shown)."""
        live, s = seat(game_id, authorization, token)
        undone = svc.undo(live, s)
        return JSONResponse({**svc.view(live, s, 0), "undone": undone}, headers=NO_STORE)

    @app.get("/api/games/{game_id}/odds")
    def get_odds(game_id: str, action: Annotated[str, Query(min_length=1, max_length=MAX_ACTION_LEN)],
                 authorization: Auth = None, token: TokenQ = None) -> JSONResponse:
        """Exact odds of one of your legal attack actions, before you commit."""
        live, s = seat(game_id, authorization, token)
        return JSONResponse(svc.odds(live, s, action), headers=NO_STORE)

    @app.post("/api/games/{game_id}/calculator")
    def post_calculator(game_id: str, body: dict[str, Any], authorization: Auth = None,
                        token: TokenQ = None) -> JSONResponse:
        """A game's dice calculator (Kensei: the roll resolver's exact distributions)."""
        live, _ = seat(game_id, authorization, token)
        return JSONResponse(svc.calculator(live, body), headers=NO_STORE)

    @app.get("/api/games/{game_id}/replay")
    def get_replay(game_id: str, step: Annotated[int, Query(ge=0)], authorization: Auth = None,
                   token: TokenQ = None) -> JSONResponse:
        """A finished game as your seat saw it after ``step`` actions."""
        live, s = seat(game_id, authorization, token)
        return JSONResponse(svc.replay_step(live, s, step), headers=NO_STORE)

    @app.get("/api/games/{game_id}/reference")
    def get_reference(game_id: str, authorization: Auth = None, token: TokenQ = None) -> dict[str, Any]:
        """The game's unit and terrain tables (for hover cards); empty for games without."""
        live, _ = seat(game_id, authorization, token)
        return reference(live.game)

    @app.get("/api/games/{game_id}/events", response_class=StreamingResponse)
    async def events(game_id: str, request: Request, authorization: Auth = None,
                     token: TokenQ = None) -> StreamingResponse:
        """Server-sent events: ``data: {"version": n}`` each time the game changes (then GET it)."""
        live, _ = await asyncio.to_thread(seat, game_id, authorization, token)
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
