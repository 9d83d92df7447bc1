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
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

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


#: step i takes the schema from version i to version i + 1
MIGRATIONS: list[Callable[[Connection], None]] = [_v1, _v2]
SCHEMA_VERSION = len(MIGRATIONS)


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


class Storage:
    """The database behind the server. Every method is one transaction."""

    def __init__(self, url: str) -> None:
        if url.startswith("sqlite:///"):
            path = Path(url[len("sqlite:///"):])
            if str(path) not in ("", ":memory:"):
                path.parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.url = url
        self.write_lock = threading.Lock()
        self.engine: Engine = create_engine(url, future=True, **kwargs)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                # in WAL mode NORMAL keeps every committed transaction across a killed process
                # (kill -9: the WAL is in the OS's hands); only a power cut may lose the last ones
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA cache_size=-1024")  # 1 MiB of pages per connection
                cur.close()
        self.migrate()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A write transaction. One writer at a time, queued in Python: SQLite allows one
        writer, and its own busy wait sleeps in steps of up to 100 ms."""
        with self.write_lock, self.engine.begin() as conn:
            yield conn

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
        """``None`` when a write goes through (tried and rolled back), else why not."""
        try:
            with self.engine.connect() as conn:
                tx = conn.begin()
                try:
                    conn.execute(update(schema_table).values(version=schema_table.c.version))
                finally:
                    tx.rollback()
        except DBAPIError as exc:
            return f"cannot write: {str(exc.orig).splitlines()[0]}"
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
            finished=bool(row["finished"]), updated=int(row["updated"]))

    def unfinished_game_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(games_table.c.id).where(games_table.c.finished == 0)).all()
        return [str(r[0]) for r in rows]

    def game_exists(self, game_id: str) -> bool:
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
