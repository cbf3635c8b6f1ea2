"""The judge's SQLite schema and its versions: the tables (pbem.judge.store describes each),
the version kept in SQLite's `user_version`, and the steps that bring a store written by an
older pbem up to date when it is opened. State copies are stored compressed (version 5 on):
``pack_state`` and ``unpack_state`` are the one way in and out."""
from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

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
    result TEXT,                       -- JSON once over
    -- JSON: the game master's correspondence settings (pbem/judge/settings.py: public,
    -- civil_disorder_after, away_policy, away_days, grace_hours, reminders); schema version 6
    settings TEXT NOT NULL DEFAULT '{}',
    -- the SEQUENCE of the open phase's deadline in its .ics (RFC 5545): 0 when the phase
    -- opens, one more each time the deadline moves; schema version 6
    deadline_sequence INTEGER NOT NULL DEFAULT 0,
    -- 1 once the open phase's deadline passed and its grace period (settings.grace_hours)
    -- began: the deadline was pushed back by it, once; schema version 6
    in_grace INTEGER NOT NULL DEFAULT 0,
    -- JSON {phase, error, at}: the judge's code raised while resolving the game, which waits,
    -- unchanged, for `pbem game retry` (pbem/judge/quarantine.py); NULL: resolves as usual;
    -- schema version 9
    stuck TEXT
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
    -- schema version 6: the player's time zone for deadlines in their mail (an IANA name;
    -- NULL: UTC), deadlines missed in a row, civil disorder (1: the position plays its default
    -- orders until replaced), and the days of deadline extension their absences used
    timezone TEXT,
    missed INTEGER NOT NULL DEFAULT 0,
    disorder INTEGER NOT NULL DEFAULT 0,
    away_days_used REAL NOT NULL DEFAULT 0,
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
    failed INTEGER NOT NULL DEFAULT 0, -- 1: refused for good by the server
    -- schema version 8: JSON [[offset, key], ...]: the parts of outbox_parts (a report's picture)
    -- left out of raw, each to be put back at its byte offset when the mail is sent; NULL: raw
    -- is the whole mail
    parts TEXT
);
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox(sent_at, failed);
-- A part of mail carried by several mails of the outbox (a report's picture, as base64 on the
-- wire: one game's five reports carry the same one), stored once (schema version 8). Dropped
-- when the last mail that carries it was sent.
CREATE TABLE IF NOT EXISTS outbox_parts (
    key TEXT PRIMARY KEY,              -- the picture's Content-ID
    data BLOB,                         -- the part's bytes; stored in the transaction that queued the mails
    users INTEGER NOT NULL             -- mails not yet sent that carry it
);
CREATE TABLE IF NOT EXISTS processed (
    message_id TEXT PRIMARY KEY,
    processed_at REAL NOT NULL,
    outcome TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Who follows a game without playing it: the public report of each phase (schema version 6).
CREATE TABLE IF NOT EXISTS observers (
    game_id INTEGER NOT NULL REFERENCES games(id),
    email TEXT NOT NULL,
    added_at REAL NOT NULL,
    PRIMARY KEY (game_id, email)
);
-- A player's announced absence (`away:` by mail), from and to in epoch seconds (schema version 6).
CREATE TABLE IF NOT EXISTS absences (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    away_from REAL NOT NULL,
    away_to REAL NOT NULL,
    announced_at REAL NOT NULL,
    -- schema version 7: the stand-in who plays the position meanwhile (away_policy standin):
    -- their address (NULL: none), the salted keyed hash of the secret the judge drew for them
    -- (player_secrets.KEYED; NULL until the absence begins), and how far it went: 0 named, 1 begun
    -- (the stand-in was mailed their secret: they get the reports and may order), 2 ended
    standin TEXT,
    standin_salt TEXT,
    standin_hash TEXT,
    standin_state INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, player, away_from)
);
-- (the index of the stand-ins to begin or end, absences_standin, is made by the step to version 7)
-- Games that received orders since a tick last checked whether they are due; written with the
-- orders, cleared with the check, so a crash in between cannot leave a complete phase waiting.
CREATE TABLE IF NOT EXISTS recheck (game_id INTEGER PRIMARY KEY);
-- Mails whose handling raised (the judge's own bug, pbem/judge/quarantine.py), kept whole as
-- received until handled (schema version 9): 'retry' is tried again by the next tick, 'held'
-- waits for `pbem inbox retry`. A row goes once its mail was handled.
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    raw BLOB NOT NULL,                 -- the mail as fetched (its secret in clear: kept no longer than needed)
    sender TEXT,
    subject TEXT,
    truncated_size INTEGER,            -- the mail's full size when the inbox read only max_bytes of it
    max_bytes INTEGER,
    received_at REAL NOT NULL,         -- the tick of its first failure
    failed_at REAL NOT NULL,           -- the tick of its last failure
    failures INTEGER NOT NULL,
    state TEXT NOT NULL,               -- retry | held
    error TEXT NOT NULL                -- the last error, with the innermost frames of its traceback
);
"""


# The schema's version, kept in SQLite's `user_version`. A store written by an older pbem is
# brought up to date, step by step, when it is opened (CREATE TABLE IF NOT EXISTS above keeps
# old tables as they were); a store written by a newer pbem is refused, never half-understood.
#   1: events.action (at-once actions)
#   2: players.secret_scheme (generated secrets hashed with a keyed hash, docs/security.md)
#   3: events.said
#   4: players.mail_html (a player's choice of HTML reports with the map, or plain text only)
#   5: state copies (phases.state_before, actions.state_after) stored zlib-compressed
#   6: correspondence play (issue 15): games.settings, deadline_sequence and in_grace; players.timezone,
#      missed, disorder, away_days_used; the observers and absences tables (CREATE TABLE above).
#   7: stand-ins (issue 15): absences.standin, standin_salt, standin_hash, standin_state.
#   8: a report's picture stored once for the mails that carry it (issue 13): outbox.parts and
#      the outbox_parts table (CREATE TABLE above). A pbem before it would send such a mail
#      without its picture: the version keeps it from opening the store.
#   9: the judge's own bugs (issue 21): games.stuck and the quarantine table (CREATE TABLE above).
#      A pbem before it would resolve a stopped game again every tick: the version keeps it out.
SCHEMA_VERSION = 9


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


class StoreTooNew(Exception):
    """The database was written by a newer pbem than this one."""


def _add_column(db: sqlite3.Connection, table: str, column: str, definition: str) -> None:
    if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


def _correspondence_columns(db: sqlite3.Connection) -> None:
    """Schema version 6: every game stored before keeps its behaviour (no settings: not public,
    no civil disorder, absences extend nothing, no grace, the one reminder it had), every player
    UTC, nothing missed."""
    _add_column(db, "games", "settings", "TEXT NOT NULL DEFAULT '{}'")
    _add_column(db, "games", "deadline_sequence", "INTEGER NOT NULL DEFAULT 0")
    _add_column(db, "games", "in_grace", "INTEGER NOT NULL DEFAULT 0")
    _add_column(db, "players", "timezone", "TEXT")
    _add_column(db, "players", "missed", "INTEGER NOT NULL DEFAULT 0")
    _add_column(db, "players", "disorder", "INTEGER NOT NULL DEFAULT 0")
    _add_column(db, "players", "away_days_used", "REAL NOT NULL DEFAULT 0")


def _standin_columns(db: sqlite3.Connection) -> None:
    """Schema version 7: every absence stored before has no stand-in (what it did under its
    game's policy stays as it was)."""
    _add_column(db, "absences", "standin", "TEXT")
    _add_column(db, "absences", "standin_salt", "TEXT")
    _add_column(db, "absences", "standin_hash", "TEXT")
    _add_column(db, "absences", "standin_state", "INTEGER NOT NULL DEFAULT 0")
    # The stand-ins a tick must begin or end: found by this index, whatever the absences before.
    db.execute("CREATE INDEX IF NOT EXISTS absences_standin ON absences(away_from) "
               "WHERE standin IS NOT NULL AND standin_state<2")


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
    6: _correspondence_columns,
    7: _standin_columns,
    # Mails queued before version 8 are whole (parts NULL) and are sent as they are.
    8: lambda db: _add_column(db, "outbox", "parts", "TEXT"),
    # Every game stored before version 9 resolves as usual; the quarantine starts empty.
    9: lambda db: _add_column(db, "games", "stuck", "TEXT"),
}


def migrate(db: sqlite3.Connection, path: Path) -> None:
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
        for step in sorted(s for s in MIGRATIONS if version < s <= SCHEMA_VERSION):
            MIGRATIONS[step](db)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
