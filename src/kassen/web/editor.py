"""The scenario editor's side of ``kassen serve`` (issue 36): its page at ``/editor`` and the
JSON API under ``/api/editor``.

Everything about a design is judged by the C&C loader itself
(``design.check_scenario_text``: the messages ``kassen scenarios check`` prints, each with
its line and hex) and written by its serialisation (``design.to_toml``), so what the page
saves is the file ``kassen run``/``kassen play`` load. A design played is written once,
under its content's hash, into a ``designs`` folder by the database (SQLite) or in the data
directory, and the game records that file as its scenario: it replays after a restart like
any other game (its view names the design by its own id, never by that file). Designs kept
for a browser are in the database under the hash of an anonymous browser id the page makes
(no account). "How balanced?" (``POST /api/editor/balance``) plays a design on the server's
AI workers after every game with a person (:mod:`kassen.web.balance_check`).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from kassen.ai.players import PLAYERS
from kassen.rulesets.cc_samurai.board import board, sections_of
from kassen.rulesets.cc_samurai.data import load_tables
from kassen.rulesets.cc_samurai.design import check_scenario_text, edition_games, template, to_toml
from kassen.rulesets.cc_samurai.scenario import Problem, Scenario
from kassen.web.balance_check import MAX_GAMES, BalanceChecks
from kassen.web.service import HUMAN, GameService, WebError
from kassen.web.storage import data_dir, hash_token

STATIC = resources.files("kassen.web") / "static"
NO_STORE = {"Cache-Control": "no-store"}
#: the longest scenario text taken (the shipped battles are under 6 kB)
MAX_TEXT = 100_000
#: designs one browser may keep
MAX_DESIGNS = 200
#: edition -> the C&C game id a design of it is played as
EDITIONS = edition_games()
#: what the page writes for a file it has no name for
WHERE = "scenario.toml"

Browser = Annotated[str | None, Header(alias="X-Kassen-Browser", description="the page's anonymous browser id")]


class CheckBody(BaseModel):
    """Body of ``POST /api/editor/check``: a file's text, or the page's design (the scenario's
    tables as ``tomllib`` reads them), which is written with the loader's serialisation."""

    model_config = ConfigDict(extra="forbid")
    text: str | None = Field(None, max_length=MAX_TEXT)
    design: dict[str, Any] | None = None
    name: str = Field(WHERE, min_length=1, max_length=100, description="the file name messages start with")


class PlayBody(BaseModel):
    """Body of ``POST /api/editor/play``."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    seats: list[str] = Field(["human", "normal"], min_length=2, max_length=2,
                             description="red then blue: 'human' or an AI level")


class BalanceBody(BaseModel):
    """Body of ``POST /api/editor/balance``."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    games: int = Field(20, ge=2, le=MAX_GAMES, description="games to play (sides swapped every other game)")
    players: list[str] = Field(["greedy", "greedy"], min_length=2, max_length=2,
                               description="the two computer players (AI levels)")


class DesignBody(BaseModel):
    """Body of ``PUT /api/editor/designs/{id}``."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)
    text: str = Field(min_length=1, max_length=MAX_TEXT)


def problem_json(p: Problem) -> dict[str, Any]:
    return {"message": p.message, "detail": p.detail, "field": p.field, "line": p.line, "hex": p.hex,
            "warning": p.warning}


def check_text(text: str, where: str = WHERE) -> dict[str, Any]:
    """The loader's verdict on a scenario text (``ok``: ``kassen run`` loads it; a problem with
    ``warning`` set does not stop it), and the tables the page draws (``None`` when the text is
    not TOML)."""
    scen, problems = check_scenario_text(text, where)
    try:
        design: dict[str, Any] | None = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        design = None
    edition = "gmt"
    if design is not None and isinstance(design.get("scenario"), dict):
        edition = str(design["scenario"].get("edition", "gmt"))
    return {"ok": scen is not None, "problems": [problem_json(p) for p in problems], "text": text,
            "design": design, "game": EDITIONS.get(edition)}


def palette(edition: str) -> dict[str, Any]:
    """What can be placed in ``edition``: every terrain the rules know (the command tent is a
    side's ``tent``), every unit type and Leader kind, and the board with its sections."""
    t = load_tables(edition)
    b = board()
    hexes = []
    for h in b:
        secs = sections_of(h, 0, 0)
        hexes.append({"name": b.name(h), "x": b.x(h), "row": b.row(h), "half": b.is_half(h),
                      "sections": [s for s in ("left", "center", "right") if s in secs]})
    return {
        "edition": edition, "game": EDITIONS[edition],
        "terrain": [{"slug": slug, "name": tt.name} for slug, tt in t.terrain.items()
                    if slug not in ("countryside", "tent")],
        "units": [{"code": code, "name": u.name, "blocks": u.blocks, "cavalry": u.cavalry}
                  for code, u in t.units.items()],
        "leaders": ["foot", "mounted", "commander"],
        "board": {"columns": 2 * b.width + 1, "rows": b.rows, "hexes": hexes},
    }


def designs_dir(db_url: str) -> Path:
    """Where played designs are written: by the SQLite database, else in the data directory."""
    if db_url.startswith("sqlite:///") and db_url[len("sqlite:///"):] not in ("", ":memory:"):
        return Path(db_url[len("sqlite:///"):]).parent / "designs"
    return data_dir() / "designs"


def keep_design(text: str, folder: Path) -> tuple[Scenario, Path]:
    """The design in ``text``, judged by the loader (422 naming every problem, nothing written),
    and the file it is kept in for the games played on it (under its content's hash)."""
    scen, problems = check_scenario_text(text, WHERE)
    if scen is None:
        raise WebError(422, "the scenario has problems: " + "; ".join(
            (f"line {p.line}: " if p.line else "") + p.detail for p in problems if not p.warning))
    path = folder / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()[:24]}.toml"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
    except OSError as exc:
        raise WebError(503, f"cannot keep the design for its game: {exc.strerror}", "storage_unavailable") \
            from None
    return scen, path


def _browser(header: str | None) -> str:
    if header is None or not re.fullmatch(r"[A-Za-z0-9_-]{16,64}", header):
        raise WebError(400, "the X-Kassen-Browser header must carry the page's browser id (16-64 letters, "
                            "digits, '-' or '_')")
    return hash_token(header)


def editor_router(svc: GameService) -> APIRouter:
    """The editor's routes over the server's games (``svc``) and database."""
    router = APIRouter()
    storage = svc.storage

    @router.get("/editor", include_in_schema=False)
    def editor_page() -> FileResponse:
        return FileResponse(str(STATIC / "editor.html"), headers=NO_STORE)

    @router.get("/api/editor/palette")
    def get_palette(edition: Literal["gmt", "zvezda"] = "gmt") -> JSONResponse:
        """Terrain, units, Leaders and the board of an edition, and its commented template."""
        text = template(edition)
        return JSONResponse({**palette(edition), "template": check_text(text)}, headers=NO_STORE)

    @router.post("/api/editor/check")
    def post_check(body: CheckBody) -> JSONResponse:
        """Every problem the loader finds in a text or a design, each with its message, line and hex;
        the file text the design saves as."""
        if (body.text is None) == (body.design is None):
            raise WebError(400, "give either 'text' (a scenario file) or 'design' (its tables), not both")
        if body.design is not None:
            try:
                text = to_toml(body.design)
            except TypeError as exc:
                raise WebError(400, f"design: {exc}") from None
            if len(text) > MAX_TEXT:
                raise WebError(413, f"the design is {len(text)} characters as a file; at most {MAX_TEXT}")
        else:
            assert body.text is not None
            text = body.text
        return JSONResponse(check_text(text, body.name), headers=NO_STORE)

    @router.post("/api/editor/play", status_code=201)
    def post_play(body: PlayBody, request: Request) -> JSONResponse:
        """Start a game on a scenario text (the server's limits on games apply); the seat links
        as ``POST /api/games`` gives them. A text with problems is refused with every problem."""
        scen, path = keep_design(body.text, designs_dir(storage.url))
        client = request.client.host if request.client else "unknown"
        live, tokens = svc.create(EDITIONS[scen.scenario.edition], str(path), body.seats, client=client,
                                  design=True)
        names = live.seat_names()
        watch = svc.new_watch_token(live)
        return JSONResponse({
            "watch": {"token": watch, "url": f"/game/{live.stored.id}#{watch}"},
            "game_id": live.stored.id, "ruleset": live.game.id, "scenario": scen.scenario.id,
            "seats": [{"seat": i, "name": names[i] if i < len(names) else f"seat {i}", "kind": k,
                       "token": tokens[i], "url": f"/game/{live.stored.id}#{tokens[i]}"}
                      for i, k in enumerate(live.stored.seat_kinds)],
        }, status_code=201, headers=NO_STORE)

    checks = BalanceChecks(svc)

    @router.post("/api/editor/balance", status_code=202)
    def post_balance(body: BalanceBody, request: Request) -> JSONResponse:
        """"How balanced?": play the design ``games`` times between two computer players on the
        server's AI workers (games with people always go first), the sides swapped every other
        game; its progress and, when done, the figure the lobby shows for a shipped battle at
        ``GET /api/editor/balance/{id}``. Its games count against the server's games between
        computer players (429 naming the bound); one check at a time per address."""
        levels = [p.strip().lower() for p in body.players]
        for p in levels:
            if p == HUMAN or p not in PLAYERS:
                raise WebError(400, f"a balance check is played by computer players; {p[:40]!r} is not one "
                                    f"(use: {', '.join(PLAYERS)})")
        scen, path = keep_design(body.text, designs_dir(storage.url))
        client = request.client.host if request.client else "unknown"
        job = checks.start(EDITIONS[scen.scenario.edition], str(path), scen.scenario.name, levels, body.games,
                           client)
        return JSONResponse(checks.to_json(job), status_code=202, headers=NO_STORE)

    @router.get("/api/editor/balance/{job_id}")
    def get_balance(job_id: str) -> JSONResponse:
        """A check's progress (games done of all) and, when done, its figure."""
        return JSONResponse(checks.to_json(checks.get(job_id)), headers=NO_STORE)

    @router.get("/api/editor/balance/{job_id}/plot.svg")
    def get_balance_plot(job_id: str) -> Response:
        """A finished check's plot: each side's win rate with its 95% interval (``kassen balance``'s)."""
        job = checks.get(job_id)
        if job.plot is None:
            raise WebError(409, "the balance check has not finished: no plot yet")
        return Response(job.plot, media_type="image/svg+xml", headers=NO_STORE)

    @router.get("/api/editor/designs")
    def list_designs(browser: Browser = None) -> JSONResponse:
        """This browser's designs (id, name, when saved), newest first."""
        return JSONResponse({"designs": storage.list_designs(_browser(browser))}, headers=NO_STORE)

    @router.get("/api/editor/designs/{design_id}")
    def get_design(design_id: str, browser: Browser = None) -> JSONResponse:
        found = storage.load_design(_browser(browser), design_id)
        if found is None:
            raise WebError(404, f"this browser has no design {design_id[:80]!r}")
        return JSONResponse({**found, **check_text(found["text"], f"{found['name']}.toml")}, headers=NO_STORE)

    @router.put("/api/editor/designs/{design_id}")
    def put_design(design_id: str, body: DesignBody, browser: Browser = None) -> JSONResponse:
        """Keep a design (its file text, problems and all) for this browser."""
        owner = _browser(browser)
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", design_id):
            raise WebError(400, "a design id is 1-64 letters, digits, '-' or '_'")
        if not storage.save_design(owner, design_id, body.name, body.text, MAX_DESIGNS):
            raise WebError(409, f"this browser keeps {MAX_DESIGNS} designs, the most allowed: delete one first")
        return JSONResponse({"id": design_id, "name": body.name}, headers=NO_STORE)

    @router.delete("/api/editor/designs/{design_id}")
    def delete_design(design_id: str, browser: Browser = None) -> JSONResponse:
        if not storage.delete_design(_browser(browser), design_id):
            raise WebError(404, f"this browser has no design {design_id[:80]!r}")
        return JSONResponse({"deleted": design_id}, headers=NO_STORE)

    return router
