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
- observers: addresses that get a game's public report each phase.
- absences: players' announced absences (`away:`).
- quarantine: mails whose handling raised (the judge's own bug), kept whole until handled
  (pbem.judge.quarantine; a game whose resolution raised is marked in games.stuck).
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

# The schema and its versions; pack_state, unpack_state, SCHEMA_VERSION and StoreTooNew are
# imported from here as ever.
from pbem.judge.schema import (SCHEMA, SCHEMA_VERSION, StoreTooNew, migrate,  # noqa: F401
                               pack_state, unpack_state)

# How long a command waits for another one's transaction (a tick resolving, a game-master
# command) before giving up with a clear message. Every transaction the judge opens is short
# (one mail, one game's resolution, one sent mark): seconds at most, never a network wait.
BUSY_TIMEOUT = 30.0


class StoreBusy(Exception):
    """The database stayed locked by another process longer than BUSY_TIMEOUT."""


def dumps(value: Any) -> str:
    """Canonical JSON: the same value always gives the same text (state hashes rely on it)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# Outbox purposes whose mail carries a secret in clear (a welcome, a new secret, a stand-in's
# own secret: pbem.judge.absences; its end-of-stand-in notice shares the purpose, zeroed too).
SECRET_PURPOSES = ("welcome", "secret", "standin")



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
            migrate(self.db, path)
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
                   raw: bytes, parts: Sequence[tuple[int, str]] = ()) -> None:
        """A mail to send; ``parts``: (offset, key) of each shared part left out of ``raw``
        (pbem.mail.outgoing.compose_parts), stored with store_part in the same transaction."""
        queued = self.run("INSERT OR IGNORE INTO outbox(message_id, game_id, recipient, purpose, raw, created_at, "
                          "parts) VALUES(?,?,?,?,?,?,?)", message_id, game_id, recipient, purpose, raw, time.time(),
                          dumps([list(p) for p in parts]) if parts else None).rowcount
        if queued:
            for key in dict.fromkeys(key for _, key in parts):
                self.run("INSERT INTO outbox_parts(key, data, users) VALUES(?, NULL, 1) "
                         "ON CONFLICT(key) DO UPDATE SET users=users+1", key)

    def store_part(self, key: str, data: bytes) -> None:
        """The bytes of a shared part the mails just queued carry (kept if already stored: the
        same key, the same picture)."""
        self.run("UPDATE outbox_parts SET data=? WHERE key=? AND data IS NULL", data, key)

    def mail_bytes(self, row: sqlite3.Row, cache: dict[str, bytes] | None = None) -> bytes:
        """A waiting mail's bytes, its shared parts put back (``cache``: parts already read,
        by key, for a batch). A part that is not there is a LookupError naming it."""
        raw = bytes(row["raw"])
        if not row["parts"]:
            return raw
        from pbem.mail.outgoing import splice   # loaded when a mail is sent, not by every command
        cache = {} if cache is None else cache
        pieces = []
        for at, key in json.loads(row["parts"]):
            if key not in cache:
                found = self.one("SELECT data FROM outbox_parts WHERE key=? AND data IS NOT NULL", key)
                if found is None:
                    raise LookupError(f"the picture {key} of mail {row['message_id']} is not in the store")
                cache[key] = bytes(found["data"])
            pieces.append((at, cache[key]))
        return splice(raw, pieces)

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
        values = dict(row) | {"raw": b"", "parts": None, "sent_at": now, "attempts": row["attempts"] + 1,
                              "last_error": None}
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
        # Its shared parts: one user fewer; the last one drops the part.
        for key in dict.fromkeys(key for _, key in json.loads(row["parts"] or "[]")):
            self.run("UPDATE outbox_parts SET users=users-1 WHERE key=?", key)
            self.run("PRAGMA secure_delete=OFF")   # a picture, no secret (a secret's mail has none)
            try:
                self.run("DELETE FROM outbox_parts WHERE key=? AND users<=0", key)
            finally:
                self.run("PRAGMA secure_delete=ON")
        return True

    def pending_mail(self, limit: int) -> list[sqlite3.Row]:
        return self.all("SELECT id, message_id, game_id, recipient, purpose, raw, parts, attempts, created_at "
                        "FROM outbox "
                        "WHERE sent_at IS NULL AND failed=0 ORDER BY id LIMIT ?", limit)
