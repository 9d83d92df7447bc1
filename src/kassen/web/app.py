"""The HTTP side of ``kassen serve``: a JSON API (the page uses nothing else), live updates
by server-sent events, and the static page.

Every game request names its seat by a secret token: ``Authorization: Bearer <token>``
or ``?token=`` (the event stream, which browsers cannot give headers). Errors are
JSON ``{"error": "..."}`` with a 4xx status saying what is wrong; nothing changes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from kassen.web.extras import reference
from kassen.web.service import MAX_ACTION_LEN, GameService, WebError
from kassen.web.storage import SCHEMA_VERSION, Storage

STATIC = resources.files("kassen.web") / "static"
NO_STORE = {"Cache-Control": "no-store"}
#: seconds between keep-alive comments on an idle event stream
PING_SECONDS = 15.0


Auth = Annotated[str | None, Header(description="Bearer <seat token>")]
TokenQ = Annotated[str | None, Query(description="seat token (instead of the header)")]


class NewGame(BaseModel):
    """Body of ``POST /api/games``."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field("cc-samurai", min_length=1, max_length=64, description="game id, see /api/catalog")
    scenario: str | None = Field(None, max_length=200, description="scenario id; null: the introductory one")
    seats: list[str] = Field(["human", "greedy"], min_length=1, max_length=8,
                             description="one per seat: 'human' or an AI level (random, greedy, mcts)")


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


def create_app(db_url: str, service: GameService | None = None) -> FastAPI:
    """The application over the database at ``db_url``."""
    storage = service.storage if service is not None else Storage(db_url)
    svc = service if service is not None else GameService(storage)
    hub = Hub()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        svc.listeners.append(hub.from_thread)
        svc.resume_all()
        yield
        hub.stopping.set()
        svc.close()

    app = FastAPI(title="Kassen", version="1", lifespan=lifespan,
                  description="Play Kassen's games: one secret token per seat; each seat sees only what it may.")
    app.state.service = svc
    app.state.hub = hub

    @app.exception_handler(WebError)
    async def _web_error(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status, headers=NO_STORE)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return JSONResponse({"error": "malformed request: " + "; ".join(parts)}, status_code=422)

    def seat(game_id: str, authorization: str | None, token: str | None) -> tuple[Any, int]:
        return svc.auth(game_id, _token(authorization, token))

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True, "schema_version": SCHEMA_VERSION}

    @app.get("/api/catalog")
    def catalog() -> dict[str, Any]:
        """The games, scenarios and seat kinds a new game can have."""
        return svc.catalog()

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame) -> dict[str, Any]:
        """Create a game; returns one secret link per seat, and a watch link that sees only what
        a spectator may (the only time tokens are shown)."""
        live, tokens = svc.create(body.ruleset, body.scenario, body.seats)
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
    def get_game(game_id: str, authorization: Auth = None, token: TokenQ = None,
                 since: Annotated[int, Query(ge=0, description="log from this history entry on")] = 0
                 ) -> JSONResponse:
        """What your seat sees: observation, legal actions when it is your move, your log."""
        live, s = seat(game_id, authorization, token)
        return JSONResponse(svc.view(live, s, since), headers=NO_STORE)

    @app.post("/api/games/{game_id}/actions")
    def post_action(game_id: str, body: ActionBody, authorization: Auth = None, token: TokenQ = None,
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

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**NO_STORE, "X-Accel-Buffering": "no"})

    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(str(index), headers=NO_STORE)

    @app.get("/game/{game_id}", include_in_schema=False)
    def game_page(game_id: str) -> FileResponse:
        return FileResponse(str(index), headers=NO_STORE)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
