"""The judge's SQLite store: one database file in the judge home, WAL mode.

Every change the judge makes is one transaction (``with store.transaction():``): a mail's
orders, its acknowledgement in the outbox and its processed mark commit together or not at all;
a phase's resolution, its events, the next phase and every report commit together.

Tables (the archive is the history of ``phases`` + ``actions`` + ``order_mails`` + ``events``):
- games: one row per game, with its current state (JSON) and open phase.
- players: name, address, hashed secret, seat.
- phases: every phase ever opened; resolved ones keep the orders used and the state hash.
- orders: each player's current valid order set for a phase (a new mail replaces it).
- order_mails: every order mail as received and as understood (or its errors).
- events: what each resolution (or at-once action) told, with its audience.
- actions: what players did at once while a phase was open (in order, with the state after).
- outbox: mail waiting to be sent, kept until a server accepted it.
- processed: Message-IDs already handled (a mail is never handled twice).
- meta: judge-wide values such as the time of the last tick.
- recheck: games that received orders and may have become due (cleared by the tick).
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any, Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game_type TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    status TEXT NOT NULL,              -- running | paused | over
    phase_hours REAL NOT NULL,
    reminder_hours REAL NOT NULL,
    gm_email TEXT,
    created_at REAL NOT NULL,
    state TEXT NOT NULL,
    phase_seq INTEGER NOT NULL,        -- seq of the open phase
    deadline REAL,                     -- epoch seconds; NULL while paused or over
    reminded INTEGER NOT NULL DEFAULT 0,
    paused_left REAL,                  -- seconds that were left when paused
    result TEXT                        -- JSON once over
);
CREATE INDEX IF NOT EXISTS games_due ON games(status, deadline);
CREATE TABLE IF NOT EXISTS players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    seat INTEGER NOT NULL,
    secret_salt TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    -- how secret_hash was made (pbem/judge/engine.py, SECRET_SCHEMES); rows older than the
    -- column were all PBKDF2 (schema version 2)
    secret_scheme TEXT NOT NULL DEFAULT 'pbkdf2-sha256-100000',
    -- 1: reports come as HTML with the map besides the text; 0: plain text only (the player
    -- or the game master said so, docs/orders.md "Plain text only"); schema version 4
    mail_html INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, name)
);
CREATE INDEX IF NOT EXISTS players_email ON players(email);
CREATE TABLE IF NOT EXISTS phases (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    phase_id TEXT NOT NULL,
    title TEXT NOT NULL,
    deciders TEXT NOT NULL,            -- JSON list
    opened_at REAL NOT NULL,
    state_before TEXT NOT NULL,        -- the state this phase resolves from: JSON, zlib-compressed
                                       -- from schema version 5 (pack_state / unpack_state)
    resolved_at REAL,
    orders_used TEXT,                  -- JSON {player: canonical orders} given to resolve
    defaulted TEXT,                    -- JSON list of players who got default orders
    state_after_hash TEXT,
    rolls TEXT,                        -- JSON list of the dice drawn (game master only)
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS orders (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    player TEXT NOT NULL,
    canonical TEXT NOT NULL,
    ready INTEGER NOT NULL,            -- 1: counts as complete
    wait INTEGER NOT NULL,             -- 1: hold early resolution until the deadline
    mail_id INTEGER,
    PRIMARY KEY (game_id, seq, player)
);
CREATE TABLE IF NOT EXISTS order_mails (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    player TEXT NOT NULL,
    message_id TEXT NOT NULL,
    received_at REAL NOT NULL,
    document TEXT NOT NULL,            -- the order document as received
    understood TEXT,                   -- JSON canonical orders, NULL when rejected
    errors TEXT NOT NULL               -- JSON list of error strings
);
CREATE INDEX IF NOT EXISTS order_mails_phase ON order_mails(game_id, seq);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    audience TEXT NOT NULL,
    data TEXT NOT NULL,
    action INTEGER,                    -- n of the at-once action that told it; NULL: the resolution
    said TEXT                          -- JSON {by, text}: what a player wrote that it relays; NULL: nothing
);
CREATE INDEX IF NOT EXISTS events_phase ON events(game_id, seq);
-- What players did at once while a phase was open (a game's `at_once_keys`, e.g. Fief's
-- diplomacy, F): applied in order n between the phase's opening and its resolution.
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    n INTEGER NOT NULL,                -- 1, 2, ... within the phase
    player TEXT NOT NULL,
    canonical TEXT NOT NULL,           -- JSON: the action handed to the rules' act()
    mail_id INTEGER,
    done_at REAL NOT NULL,
    state_after TEXT NOT NULL,         -- the state it left (rollback returns here), as state_before
    state_after_hash TEXT NOT NULL,
    rolls TEXT NOT NULL,
    PRIMARY KEY (game_id, seq, n)
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    game_id INTEGER,
    recipient TEXT NOT NULL,
    purpose TEXT NOT NULL,             -- ack | ack_at_once | news | report | reminder | welcome | reject |
                                       -- announce | ...
    raw BLOB NOT NULL,                 -- the mail; emptied once a server accepted it (X'')
    created_at REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    sent_at REAL,
    failed INTEGER NOT NULL DEFAULT 0  -- 1: refused for good by the server
);
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox(sent_at, failed);
CREATE TABLE IF NOT EXISTS processed (
    message_id TEXT PRIMARY KEY,
    processed_at REAL NOT NULL,
    outcome TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Games that received orders since a tick last checked whether they are due; written with the
-- orders, cleared with the check, so a crash in between cannot leave a complete phase waiting.
CREATE TABLE IF NOT EXISTS recheck (game_id INTEGER PRIMARY KEY);
"""


# How long a command waits for another one's transaction (a tick resolving, a game-master
# command) before giving up with a clear message. Every transaction the judge opens is short
# (one mail, one game's resolution, one sent mark): seconds at most, never a network wait.
BUSY_TIMEOUT = 30.0


class StoreBusy(Exception):
    """The database stayed locked by another process longer than BUSY_TIMEOUT."""


def dumps(value: Any) -> str:
    """Canonical JSON: the same value always gives the same text (state hashes rely on it)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# The schema's version, kept in SQLite's `user_version`. A store written by an older pbem is
# brought up to date, step by step, when it is opened (CREATE TABLE IF NOT EXISTS above keeps
# old tables as they were); a store written by a newer pbem is refused, never half-understood.
#   1: events.action (at-once actions)
#   2: players.secret_scheme (generated secrets hashed with a keyed hash, docs/security.md)
#   3: events.said
#   4: players.mail_html (a player's choice of HTML reports with the map, or plain text only)
#   5: state copies (phases.state_before, actions.state_after) stored zlib-compressed
SCHEMA_VERSION = 5


def pack_state(text: str) -> bytes:
    """A state copy as stored from schema version 5: its JSON, zlib-compressed (about a fifth
    of the size: a Fief position is 6 KB of JSON and a game stores one per phase)."""
    return zlib.compress(text.encode("utf-8"), 6)


def unpack_state(value: str | bytes) -> str:
    """A stored state copy as JSON text, compressed (version 5 on) or as stored before."""
    return zlib.decompress(value).decode("utf-8") if isinstance(value, bytes) else value


def _pack_state_copies(db: sqlite3.Connection) -> None:
    """Version 5: compress the state copies stored before (lossless: unpack_state gives back
    the very text). The space freed is reused by the store's next writes."""
    db.create_function("pbem_pack_state", 1, pack_state, deterministic=True)
    for table, column in (("phases", "state_before"), ("actions", "state_after")):
        db.execute(f"UPDATE {table} SET {column}=pbem_pack_state({column}) WHERE typeof({column})='text'")


# Outbox purposes whose mail carries a player's secret in clear (a welcome, a new secret).
SECRET_PURPOSES = ("welcome", "secret")


class StoreTooNew(Exception):
    """The database was written by a newer pbem than this one."""


def _add_column(db: sqlite3.Connection, table: str, column: str, definition: str) -> None:
    if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


# Each step takes a store of the version before it to its own; a step finds a fresh store (whose
# CREATE TABLE already has the column) as often as an old one, so each looks before it changes.
MIGRATIONS = {
    1: lambda db: _add_column(db, "events", "action", "INTEGER"),
    # Every secret hashed before version 2 is PBKDF2, the column's default, whoever chose it.
    2: lambda db: _add_column(db, "players", "secret_scheme", "TEXT NOT NULL DEFAULT 'pbkdf2-sha256-100000'"),
    3: lambda db: _add_column(db, "events", "said", "TEXT"),
    # Every player stored before version 4 gets HTML reports, as every new one does.
    4: lambda db: _add_column(db, "players", "mail_html", "INTEGER NOT NULL DEFAULT 1"),
    5: _pack_state_copies,
}


def _migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the schema to SCHEMA_VERSION, in one transaction (two processes opening an old store
    at once: the second waits, then finds it done)."""
    if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreTooNew(f"the judge's database {path} was written by a newer pbem (schema version "
                              f"{version}, this pbem knows up to {SCHEMA_VERSION}); install that pbem "
                              f"again (nothing was changed)")
        for step in range(version + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[step](db)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class Store:
    def __init__(self, path: Path):
        self.path = path
        # isolation_level=None: we open and close transactions ourselves.
        self.db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            # Deleted or overwritten content is zeroed on disk (secrets in sent welcome mails).
            self.db.execute("PRAGMA secure_delete=ON")
            self.db.executescript(SCHEMA)
            _migrate(self.db, path)
        except StoreTooNew:
            self.db.close()
            raise
        except sqlite3.OperationalError as exc:
            self.db.close()
            self._raise_if_busy(exc)
            raise
        self._depth = 0
        self._outbox_columns: str | None = None

    def _raise_if_busy(self, exc: sqlite3.OperationalError) -> None:
        """SQLite's "database is locked" after BUSY_TIMEOUT, as the one line every command prints."""
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreBusy(f"the judge's database {self.path} stayed locked by another pbem "
                            f"process for {BUSY_TIMEOUT:g}s; nothing was changed, try again") from None

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def transaction(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One atomic change. Nested uses join the outer transaction.

        ``durable=False``: the commit is not flushed to disk at once (SQLite's synchronous=NORMAL
        in WAL mode): a killed process loses nothing of it, a power cut may lose it — and the
        next durable commit flushes it. Only for changes whose loss is harmless: a sent mark
        lost makes the mail go again, the documented duplicate (docs/reliability.md)."""
        if self._depth:
            self._depth += 1
            try:
                yield self.db
            finally:
                self._depth -= 1
            return
        if not durable:
            self.db.execute("PRAGMA synchronous=NORMAL")
        try:
            # IMMEDIATE: take the write lock now, so two writers queue here (waiting up to
            # BUSY_TIMEOUT) instead of both reading and one failing at its first write.
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                self._raise_if_busy(exc)
                raise
            self._depth = 1
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            else:
                self.db.execute("COMMIT")
            finally:
                self._depth = 0
        finally:
            if not durable:
                self.db.execute("PRAGMA synchronous=FULL")

    @contextlib.contextmanager
    def part(self) -> Iterator[None]:
        """A part of the open transaction that fails alone (a SAVEPOINT): if it raises, what it
        did is undone and the transaction goes on without it."""
        if not self._depth:
            raise RuntimeError("Store.part() is only for use inside a transaction")
        self.db.execute("SAVEPOINT part")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK TO part")
            self.db.execute("RELEASE part")
            raise
        self.db.execute("RELEASE part")

    def one(self, sql: str, *args: Any) -> sqlite3.Row | None:
        return self.db.execute(sql, args).fetchone()

    def row(self, sql: str, *args: Any) -> sqlite3.Row:
        """The row a query cannot miss (a count, a game by the id just read or written): none
        is a bug, a LookupError naming the query, never a None that fails further on."""
        found = self.one(sql, *args)
        if found is None:
            raise LookupError(f"no row for {sql} with {args}")
        return found

    def all(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        return self.db.execute(sql, args).fetchall()

    def run(self, sql: str, *args: Any) -> sqlite3.Cursor:
        return self.db.execute(sql, args)

    # -- meta ------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.one("SELECT value FROM meta WHERE key=?", key)
        return row["value"] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.run("INSERT INTO meta(key, value) VALUES(?, ?) "
                 "ON CONFLICT(key) DO UPDATE SET value=excluded.value", key, value)

    # -- players' mail settings ------------------------------------------------------------
    def set_mail_html(self, game_id: int, player: str, html: bool) -> bool:
        """Reports to ``player`` with the HTML part and the map (True) or plain text only; False
        when the game has no such player."""
        return self.run("UPDATE players SET mail_html=? WHERE game_id=? AND name=?",
                        int(html), game_id, player).rowcount == 1

    # -- processed mail --------------------------------------------------------------------
    def is_processed(self, message_id: str) -> bool:
        return self.one("SELECT 1 FROM processed WHERE message_id=?", message_id) is not None

    def mark_processed(self, message_id: str, outcome: str) -> None:
        self.run("INSERT OR IGNORE INTO processed(message_id, processed_at, outcome) VALUES(?,?,?)",
                 message_id, time.time(), outcome)

    # -- outbox ----------------------------------------------------------------------------
    def queue_mail(self, message_id: str, game_id: int | None, recipient: str, purpose: str,
                   raw: bytes) -> None:
        self.run("INSERT OR IGNORE INTO outbox(message_id, game_id, recipient, purpose, raw, created_at) "
                 "VALUES(?,?,?,?,?,?)", message_id, game_id, recipient, purpose, raw, time.time())

    def mark_sent(self, message_id: str, now: float) -> bool:
        """Record that a server accepted the mail, and drop its body: the row stays as the record
        of it (docs/performance.md, "Disk"), and a mail carrying a secret leaves no copy. False
        when it was already marked. The row is deleted and written again, body emptied:
        shrinking it in place would leave its page nearly empty (a report with its map is 85 KB,
        its row then a hundred bytes), and SQLite only merges pages a delete leaves underfull."""
        if self._outbox_columns is None:   # every column but the body, which is not read (85 KB a report)
            self._outbox_columns = ", ".join(r["name"] for r in self.all("PRAGMA table_info(outbox)")
                                             if r["name"] != "raw")
        row = self.one(f"SELECT {self._outbox_columns} FROM outbox WHERE message_id=? AND sent_at IS NULL",
                       message_id)
        if row is None:
            return False
        values = dict(row) | {"raw": b"", "sent_at": now, "attempts": row["attempts"] + 1, "last_error": None}
        # Freed pages are zeroed (secure_delete) for a mail carrying a secret; any other mail's
        # words are in the store anyway (events, states), and zeroing a report's 85 KB doubled
        # the cost of marking it sent.
        zero = row["purpose"] in SECRET_PURPOSES
        if not zero:
            self.run("PRAGMA secure_delete=OFF")
        try:
            self.run("DELETE FROM outbox WHERE id=?", row["id"])
        finally:
            if not zero:
                self.run("PRAGMA secure_delete=ON")
        self.run(f"INSERT INTO outbox({', '.join(values)}) VALUES({', '.join('?' * len(values))})", *values.values())
        return True

    def pending_mail(self, limit: int) -> list[sqlite3.Row]:
        return self.all("SELECT id, message_id, game_id, recipient, purpose, raw, attempts, created_at FROM outbox "
                        "WHERE sent_at IS NULL AND failed=0 ORDER BY id LIMIT ?", limit)
