"""Where games live: any SQLAlchemy database (SQLite by default, PostgreSQL by URL).

A game is stored as what replays it: ruleset, rules version, scenario, seed,
options and its action log, one row per accepted action, each written in its own
transaction. Seat tokens are stored only as SHA-256 hashes.

The schema is versioned: ``kassen_schema`` holds the version, and ``MIGRATIONS``
lists the steps from each version to the next, applied in order on start.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

metadata = MetaData()

#: the seat number of a game's watch link (a spectator: no hand, no decisions)
WATCH = -1

schema_table = Table("kassen_schema", metadata, Column("version", Integer, nullable=False))
games_table = Table(
    "games", metadata,
    Column("id", String(64), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("rules_version", String(32), nullable=False),
    Column("scenario", String(200)),
    Column("seed", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("created", Integer, nullable=False),
    Column("updated", Integer, nullable=False),
    Column("finished", Integer, nullable=False, default=0),
    #: the seat that conceded the game (``None``: nobody did); schema version 3
    Column("conceded", Integer, nullable=True),
)
seats_table = Table(
    "seats", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
)
actions_table = Table(
    "actions", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("created", Integer, nullable=False),
)


def _v1(conn: Connection) -> None:
    """Version 1: games, seats and the action log."""
    for t in (games_table, seats_table, actions_table):
        t.create(conn, checkfirst=True)


#: the scenario editor's designs, per anonymous browser (web/editor.py)
designs_table = Table(
    "designs", metadata,
    Column("owner", String(64), primary_key=True),  # hash of the browser id
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("text", Text, nullable=False),
    Column("updated", Integer, nullable=False),
)


def _v2(conn: Connection) -> None:
    """Version 2: the scenario editor's designs."""
    designs_table.create(conn, checkfirst=True)


def _v3(conn: Connection) -> None:
    """Version 3: ``games.conceded``, the seat that gave the game up (a concession is not an
    action of the rules: the action log stays what replays the rules)."""
    from sqlalchemy import inspect

    if "conceded" not in {c["name"] for c in inspect(conn).get_columns("games")}:
        conn.exec_driver_sql("ALTER TABLE games ADD COLUMN conceded INTEGER")


#: step i takes the schema from version i to version i + 1
MIGRATIONS: list[Callable[[Connection], None]] = [_v1, _v2, _v3]
SCHEMA_VERSION = len(MIGRATIONS)


#: how long a request waits for the database (a lock, a connection) before it is told 503
BUSY_SECONDS = 1.0
#: how long the health probe waits (it must answer at once, busy or not)
PROBE_SECONDS = 0.05
#: a game id is what ``secrets.token_hex`` makes (and what tests name games): anything else is
#: no game, answered 404 without asking the database (a NUL byte breaks PostgreSQL's driver)
GAME_ID_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-")


def plausible_game_id(game_id: str) -> bool:
    """Whether ``game_id`` could name a stored game (1 to 64 letters, digits, ``_``, ``-``).

    >>> [plausible_game_id(g) for g in ("0f3a9c", "", "a\\x00b", "x" * 65, "../etc")]
    [True, False, False, False, False]
    """
    return 0 < len(game_id) <= 64 and all(c in GAME_ID_CHARS for c in game_id)


#: the game id of health's probe row (never a game's: not a plausible id)
PROBE_ID = "~probe"


class StorageUnavailable(Exception):
    """The database cannot be used now (busy past ``BUSY_SECONDS``, its file gone or replaced):
    the request is answered 503 and nothing changed."""

    def __init__(self, reason: str, code: str = "storage_unavailable") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


def check_url(url: str) -> None:
    """``ValueError`` with one line when ``url`` cannot keep games: empty, or in memory (every
    game would be lost with the process, and each connection would see another database)."""
    if not url.strip():
        raise ValueError("the database URL is empty: give one, e.g. sqlite:///games.db")
    try:
        u = make_url(url)
    except Exception:  # not a URL at all: the driver's own error says it better
        return
    if u.get_backend_name() != "sqlite":
        return
    db = u.database or ""
    if db in ("", ":memory:") or db.startswith("file::memory:") or u.query.get("mode") == "memory":
        raise ValueError(f"{url!r} is a database in memory: it keeps nothing when the server stops; "
                         "give a file, e.g. sqlite:///games.db")


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite URL (``sqlite:///path`` or ``sqlite:///file:path?...&uri=true``)."""
    try:
        u = make_url(url)
    except Exception:
        return None
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    db = u.database
    if u.query.get("uri") and db.startswith("file:"):
        db = db[len("file:"):]
    return Path(db)


def first_line(exc: BaseException) -> str:
    """The first line of what a database error says (the driver's own words)."""
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


def is_busy(exc: BaseException) -> bool:
    """Whether a database error says only that the database is busy (locked by another writer,
    a lock wait timed out): a 503 worth retrying in a moment."""
    text = first_line(exc).lower()
    return "database is locked" in text or "lock timeout" in text or "could not obtain lock" in text


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def default_db_url() -> str:
    """``KASSEN_DB`` if set, else SQLite in the user's data directory."""
    env = os.environ.get("KASSEN_DB")
    if env:
        return env
    return f"sqlite:///{data_dir() / 'kassen.db'}"


def data_dir() -> Path:
    """The per-user data directory (XDG on Linux)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "kassen"


@dataclass
class StoredGame:
    """One game as stored: enough to replay it, and who sits where."""

    id: str
    ruleset: str
    rules_version: str
    scenario: str | None
    seed: int
    options: dict[str, Any]
    seat_kinds: list[str]
    actions: list[str] = field(default_factory=list)
    created: int = 0
    finished: bool = False
    #: when an action was last taken (seconds since the epoch)
    updated: int = 0
    #: the seat that conceded (``None``: nobody)
    conceded: int | None = None


class Storage:
    """The database behind the server. Every method is one transaction."""

    def __init__(self, url: str, busy_seconds: float = BUSY_SECONDS) -> None:
        check_url(url)
        self.file = sqlite_file(url)
        if self.file is not None:
            self.file.parent.mkdir(parents=True, exist_ok=True)
        self.busy_seconds = busy_seconds
        kwargs: dict[str, Any] = {"pool_timeout": busy_seconds}
        self.sqlite = url.startswith("sqlite")
        if self.sqlite:
            # a locked database (a backup, another writer) is waited for briefly, then a 503:
            # never a queue of requests each waiting its own long timeout
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": busy_seconds}
            kwargs["pool_size"], kwargs["max_overflow"] = 8, 24
        elif url.startswith("postgresql"):
            kwargs["pool_pre_ping"] = True  # a restarted server's dead connections are replaced
            if "psycopg" in url.split("://", 1)[0]:
                kwargs["connect_args"] = {"connect_timeout": max(1, round(busy_seconds * 2)),
                                          "options": f"-c lock_timeout={int(busy_seconds * 1000)}"}
        self.url = url
        self.write_lock = threading.Lock()
        #: until when the database counts as just found busy (requests then wait less for it)
        self.busy_until = 0.0
        self.engine: Engine = create_engine(url, future=True, **kwargs)
        if self.sqlite:
            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                # in WAL mode NORMAL keeps every committed transaction across a killed process
                # (kill -9: the WAL is in the OS's hands); only a power cut may lose the last ones
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA cache_size=-1024")  # 1 MiB of pages per connection
                cur.close()
        #: what the database was when opened (the SQLite file's device and inode; PostgreSQL's
        #: database oid): a database deleted or replaced under the server is refused, never
        #: written into a file that no restart will find
        self.identity: str | None = None
        self.migrate()
        with self.engine.connect() as conn:
            self.identity = self._identity(conn)

    def _identity(self, conn: Connection) -> str | None:
        if self.file is not None:
            try:
                st = os.stat(self.file)
            except OSError:
                return None
            return f"file {st.st_dev}:{st.st_ino}"
        if self.engine.dialect.name == "postgresql":
            row = conn.exec_driver_sql("SELECT oid FROM pg_database WHERE datname = current_database()").first()
            return f"database {row[0]}" if row else None
        return "any"

    def recently_busy(self) -> bool:
        """Whether a write found the database busy within the last ``busy_seconds``."""
        return time.monotonic() < self.busy_until

    def identity_problem(self, conn: Connection) -> str | None:
        """Why the database is not the one opened (``None``: it is)."""
        if self.identity is None:
            return None
        now = self._identity(conn)
        if now == self.identity:
            return None
        if self.file is not None:
            what = "is gone" if now is None else "was replaced by another file"
            return f"the database file {self.file} {what} since the server started; restart it on a database"
        return "the database was dropped or replaced since the server started; restart the server on it"

    @contextmanager
    def _write(self, wait: float | None = None) -> Iterator[Connection]:
        """A write transaction. One writer at a time, queued in Python (SQLite allows one writer,
        and its own busy wait sleeps in steps of up to 100 ms), waited for ``busy_seconds`` at
        most (:class:`StorageUnavailable` then); the database's identity is checked first."""
        probe = wait is not None and wait < self.busy_seconds  # health's short look: it tells nothing to others
        if wait is None:
            # writers queue here, each then waiting ``busy_seconds`` at most on the database: a
            # queue behind a slow (CPU-starved) writer is waited for longer, one behind a locked
            # database (found so a moment ago) only briefly
            wait = 0.2 * self.busy_seconds if self.recently_busy() else 3 * self.busy_seconds
        if not self.write_lock.acquire(timeout=wait):
            if not probe:
                self.busy_until = time.monotonic() + self.busy_seconds
            raise StorageUnavailable(f"the database is busy: another write held it for over {wait:g} s",
                                     "storage_busy")
        try:
            try:
                with self.engine.begin() as conn:
                    problem = self.identity_problem(conn)
                    if problem is not None:
                        raise StorageUnavailable(problem, "storage_replaced")
                    yield conn
            except DBAPIError as exc:
                if is_busy(exc) and not probe:
                    self.busy_until = time.monotonic() + self.busy_seconds
                raise
            except PoolTimeout:
                raise StorageUnavailable(f"the database is busy: no connection free within {wait:g} s",
                                         "storage_busy") from None
        finally:
            self.write_lock.release()

    def migrate(self) -> int:
        """Bring the schema to ``SCHEMA_VERSION``; returns the version found before."""
        with self._write() as conn:
            schema_table.create(conn, checkfirst=True)
            row = conn.execute(select(schema_table.c.version)).first()
            found = int(row[0]) if row else 0
            if found > SCHEMA_VERSION:
                raise RuntimeError(f"the database has schema version {found}; this Kassen knows up to "
                                   f"{SCHEMA_VERSION}: upgrade Kassen")
            for step in MIGRATIONS[found:]:
                step(conn)
            if row is None:
                conn.execute(insert(schema_table).values(version=SCHEMA_VERSION))
            elif found != SCHEMA_VERSION:
                conn.execute(update(schema_table).values(version=SCHEMA_VERSION))
        return found

    def check_writable(self) -> str | None:
        """``None`` when a write goes through, else why not. A real write: the schema row is
        rewritten and committed (so a full disk, an immutable file or a read-only database
        says so), after checking the file or database is the one opened; waits
        ``PROBE_SECONDS`` at most for a lock (a busy database is reported busy)."""
        try:
            with self._write(PROBE_SECONDS) as conn:
                if self.sqlite:
                    conn.exec_driver_sql(f"PRAGMA busy_timeout = {int(PROBE_SECONDS * 1000)}")
                elif self.engine.dialect.name == "postgresql":
                    conn.exec_driver_sql(f"SET LOCAL lock_timeout = {int(PROBE_SECONDS * 1000)}")
                try:
                    # as many pages as an action's write touches (a page of each table and the
                    # action index): a disk with room for less says so (SQLite's WAL reuses the
                    # room a failed write took, so a one-page probe would pass on a full disk)
                    conn.execute(update(schema_table).values(version=schema_table.c.version))
                    conn.execute(insert(actions_table).values(game_id=PROBE_ID, idx=0, action="probe" * 40,
                                                              created=0))
                    first = select(games_table.c.id).limit(1).scalar_subquery()
                    conn.execute(update(games_table).where(games_table.c.id == first)
                                 .values(updated=games_table.c.updated))
                    conn.execute(delete(actions_table).where(actions_table.c.game_id == PROBE_ID))
                finally:
                    if self.sqlite:
                        conn.exec_driver_sql(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")
        except StorageUnavailable as exc:
            return exc.reason
        except DBAPIError as exc:
            return f"cannot write: {first_line(exc)}"
        return None

    def schema_version(self) -> int:
        with self.engine.connect() as conn:
            row = conn.execute(select(schema_table.c.version)).first()
        return int(row[0]) if row else 0

    def create_game(self, g: StoredGame, token_hashes: list[str]) -> None:
        now = int(time.time())
        with self._write() as conn:
            conn.execute(insert(games_table).values(
                id=g.id, ruleset=g.ruleset, rules_version=g.rules_version, scenario=g.scenario,
                seed=str(g.seed), options=json.dumps(g.options), created=now, updated=now, finished=0))
            for seat, (kind, th) in enumerate(zip(g.seat_kinds, token_hashes, strict=True)):
                conn.execute(insert(seats_table).values(game_id=g.id, seat=seat, kind=kind, token_hash=th))

    def append_action(self, game_id: str, idx: int, action: str, finished: bool) -> None:
        """Record action number ``idx`` (0-based); fails if that slot is taken."""
        now = int(time.time())
        with self._write() as conn:
            conn.execute(insert(actions_table).values(game_id=game_id, idx=idx, action=action, created=now))
            conn.execute(update(games_table).where(games_table.c.id == game_id)
                         .values(updated=now, finished=1 if finished else 0))

    def concede(self, game_id: str, seat: int) -> None:
        """``seat`` gives the game up: it is finished, with that concession."""
        with self._write() as conn:
            conn.execute(update(games_table).where(games_table.c.id == game_id)
                         .values(conceded=seat, finished=1, updated=int(time.time())))

    def truncate_actions(self, game_id: str, keep: int) -> None:
        """Drop every action from number ``keep`` on (undo)."""
        with self._write() as conn:
            conn.execute(delete(actions_table).where(actions_table.c.game_id == game_id,
                                                     actions_table.c.idx >= keep))
            conn.execute(update(games_table).where(games_table.c.id == game_id)
                         .values(updated=int(time.time()), finished=0))

    def set_watch_token(self, game_id: str, token_hash: str) -> None:
        """The game's watch link (seat ``WATCH``): it sees only what a spectator may; a new one
        replaces the old."""
        with self._write() as conn:
            conn.execute(delete(seats_table).where(seats_table.c.game_id == game_id, seats_table.c.seat == WATCH))
            conn.execute(insert(seats_table).values(game_id=game_id, seat=WATCH, kind="watch", token_hash=token_hash))

    def find_token(self, token_hash: str) -> tuple[str, int] | None:
        """(game id, seat) of a token hash."""
        with self.engine.connect() as conn:
            row = conn.execute(select(seats_table.c.game_id, seats_table.c.seat)
                               .where(seats_table.c.token_hash == token_hash)).first()
        return (str(row[0]), int(row[1])) if row else None

    def load_game(self, game_id: str) -> StoredGame | None:
        if not plausible_game_id(game_id):
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(select(seats_table.c.seat, seats_table.c.kind)
                                 .where(seats_table.c.game_id == game_id, seats_table.c.seat >= 0)
                                 .order_by(seats_table.c.seat)).all()
            acts = conn.execute(select(actions_table.c.idx, actions_table.c.action)
                                .where(actions_table.c.game_id == game_id)
                                .order_by(actions_table.c.idx)).all()
        actions = [str(a) for _, a in acts]
        if [int(i) for i, _ in acts] != list(range(len(actions))):
            raise RuntimeError(f"game {game_id}: the action log has gaps")
        return StoredGame(
            id=str(row["id"]), ruleset=str(row["ruleset"]), rules_version=str(row["rules_version"]),
            scenario=row["scenario"], seed=int(row["seed"]), options=json.loads(row["options"]),
            seat_kinds=[str(k) for _, k in seats], actions=actions, created=int(row["created"]),
            finished=bool(row["finished"]), updated=int(row["updated"]),
            conceded=None if row["conceded"] is None else int(row["conceded"]))

    def unfinished_game_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(games_table.c.id).where(games_table.c.finished == 0)).all()
        return [str(r[0]) for r in rows]

    def game_exists(self, game_id: str) -> bool:
        if not plausible_game_id(game_id):
            return False
        with self.engine.connect() as conn:
            return conn.execute(select(games_table.c.id).where(games_table.c.id == game_id)).first() is not None

    # -- the scenario editor's designs (web/editor.py) ----------------------
    def save_design(self, owner: str, design_id: str, name: str, text: str, most: int) -> bool:
        """Keep (or replace) a design; ``False`` when ``owner`` already keeps ``most`` others."""
        key = (designs_table.c.owner == owner) & (designs_table.c.id == design_id)
        with self._write() as conn:
            if conn.execute(select(designs_table.c.id).where(key)).first() is not None:
                conn.execute(update(designs_table).where(key).values(name=name, text=text, updated=int(time.time())))
                return True
            if len(conn.execute(select(designs_table.c.id).where(designs_table.c.owner == owner)).all()) >= most:
                return False
            conn.execute(insert(designs_table).values(owner=owner, id=design_id, name=name, text=text,
                                                      updated=int(time.time())))
        return True

    def list_designs(self, owner: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(designs_table.c.id, designs_table.c.name, designs_table.c.updated)
                                .where(designs_table.c.owner == owner)
                                .order_by(designs_table.c.updated.desc(), designs_table.c.id)).all()
        return [{"id": r[0], "name": r[1], "updated": r[2]} for r in rows]

    def load_design(self, owner: str, design_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(designs_table.c.id, designs_table.c.name, designs_table.c.text,
                                    designs_table.c.updated)
                             .where((designs_table.c.owner == owner) & (designs_table.c.id == design_id))).first()
        return None if r is None else {"id": r[0], "name": r[1], "text": r[2], "updated": r[3]}

    def delete_design(self, owner: str, design_id: str) -> bool:
        with self._write() as conn:
            done = conn.execute(delete(designs_table).where(
                (designs_table.c.owner == owner) & (designs_table.c.id == design_id)))
        return bool(done.rowcount)

    def close(self) -> None:
        self.engine.dispose()
