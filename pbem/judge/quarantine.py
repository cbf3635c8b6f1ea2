"""When the judge itself has a bug (docs/reliability.md, "When the judge itself has a bug"): a
mail whose handling raises is kept in the store and tried once more at the next tick, then put
aside (its sender answered, the game master and the judge's admin told once); a game whose
resolution raises is stopped, unchanged, until `pbem game retry`. Nothing a player sent is
lost, and no bug stops the other mails or games.

Every function works in the caller's transaction, after the part that raised was undone."""
from __future__ import annotations

import json
import sqlite3
import traceback
from typing import Any

from pbem.judge import engine
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store, dumps
from pbem.mail.message import InMail, parse_mail, too_large
from pbem.mail.outgoing import address_problem
from pbem.orders.envelope import find_document, parse_document

# How much of the traceback the alert carries: its innermost frames say where the bug is.
TRACE_FRAMES = 6


def error_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def error_trace(exc: BaseException) -> str:
    """The error and the innermost frames of its traceback, for the game master and the admin."""
    frames = traceback.extract_tb(exc.__traceback__)[-TRACE_FRAMES:]
    lines = [f"{frame.filename}:{frame.lineno} in {frame.name}: {(frame.line or '').strip()}" for frame in frames]
    return "\n".join([*lines, error_line(exc)])


# -- mails ----------------------------------------------------------------------------------

def kept(store: Store, message_id: str) -> sqlite3.Row | None:
    """The kept copy of the mail ``message_id``, if the judge holds one."""
    return store.one("SELECT * FROM quarantine WHERE message_id=?", message_id)


def first_failure(store: Store, raw: bytes, mail: InMail, exc: BaseException, now: float,
                  truncated_size: int | None = None, max_bytes: int | None = None) -> None:
    """The mail's handling raised once: kept whole, to be tried again by the next tick."""
    store.run("INSERT OR IGNORE INTO quarantine(message_id, raw, sender, subject, truncated_size, max_bytes, "
              "received_at, failed_at, failures, state, error) VALUES(?,?,?,?,?,?,?,?,1,'retry',?)",
              mail.message_id, raw, mail.from_addr, mail.subject, truncated_size, max_bytes, now, now,
              error_trace(exc))


def due_retries(store: Store) -> list[sqlite3.Row]:
    """Mails that failed once in a tick that has finished since (its time is the store's
    last_tick): a tick killed after the failure and run again is not yet the next tick."""
    return store.all("SELECT id FROM quarantine WHERE state='retry' AND failed_at<=(SELECT CAST(value AS REAL) "
                     "FROM meta WHERE key='last_tick') ORDER BY id")


def mail_of(row: sqlite3.Row, judge_address: str) -> InMail:
    """The kept mail, read as the tick read it."""
    mail = parse_mail(bytes(row["raw"]), [judge_address])
    if row["truncated_size"] is not None and not mail.problem:
        mail = too_large(mail, row["truncated_size"], row["max_bytes"])
    return mail


def release(store: Store, row_id: int) -> None:
    """The kept mail was handled: the store holds what it carried; its copy (with the player's
    secret in clear) goes."""
    store.run("DELETE FROM quarantine WHERE id=?", row_id)


def failed_again(store: Store, row_id: int, exc: BaseException, now: float) -> None:
    store.run("UPDATE quarantine SET state='held', failures=failures+1, failed_at=?, error=? WHERE id=?",
              now, error_trace(exc), row_id)


def put_aside(store: Store, mailer: Mailer, row_id: int, exc: BaseException, now: float) -> str:
    """The second failure: the mail is held until `pbem inbox retry`, its sender is answered and
    the game master of its game (if its sender plays there) and the admin are told, once.
    Returns the tick's line."""
    failed_again(store, row_id, exc, now)
    row = store.row("SELECT * FROM quarantine WHERE id=?", row_id)
    mail = mail_of(row, mailer.home.address)
    game = _game_of(store, mail)
    told = mailer.alert(game["id"] if game else None, game["name"] if game else None,
                        game["gm_email"] if game else None, f"The judge could not process a mail from {_sender(row)}",
                        "judge_error_mail.txt.j2", kept_id=row_id, sender=_sender(row),
                        mail_subject=row["subject"] or "", message_id=row["message_id"], error=row["error"],
                        failures=row["failures"])
    if _answerable(mail):
        mailer.answer(to=mail.from_addr, subject=(mail.subject or "your mail to the judge")[:200],
                      in_reply_to=mail.message_id, template_name="held.txt.j2", game=None, told=bool(told))
    return (f"mail {row['message_id']} from {_sender(row)} put aside after {row['failures']} failures "
            f"(kept as {row_id}; `pbem inbox retry {row_id}` after a fix): {error_line(exc)}")


def held_rows(store: Store, ids: list[int] | None = None) -> list[sqlite3.Row]:
    if not ids:
        return store.all("SELECT * FROM quarantine ORDER BY id")
    marks = ",".join("?" * len(ids))
    return store.all(f"SELECT * FROM quarantine WHERE id IN ({marks}) ORDER BY id", *ids)


def _sender(row: sqlite3.Row) -> str:
    return row["sender"] or "(no sender)"


def _answerable(mail: InMail) -> bool:
    """Never answer a bounce, an auto-reply or an address mail cannot reach (RFC 3834)."""
    return bool(mail.from_addr) and not mail.auto and address_problem(mail.from_addr) is None


def _game_of(store: Store, mail: InMail) -> sqlite3.Row | None:
    """The row (id, name, gm_email) of the game the mail names, if its sender plays it or
    masters it: its game master is told. A stranger naming a game alerts only the admin. Read
    from the games table, not loaded: a game whose state cannot load still has its game
    master. Reading the mail may be what raised: any error here means no game."""
    try:
        texts = [a.text for a in mail.attachments_yaml] + [mail.text or ""]
        doc = next((d for d in map(find_document, texts) if d is not None), None)
        envelope, _ = parse_document(doc) if doc is not None else (None, [])
        if envelope is None or not envelope.game:
            return None
        game = store.one("SELECT id, name, gm_email FROM games WHERE name=?", envelope.game)
        if game is None:
            return None
        emails = {p["email"] for p in engine.players(store, game["id"])} | {game["gm_email"]}
        return game if mail.from_addr in emails else None
    except Exception:   # noqa: BLE001 - the judge is already handling a bug of its own
        return None


# -- games ----------------------------------------------------------------------------------

def stuck(row: Any) -> dict[str, Any] | None:
    """What stopped the game (phase, error, time), or None for a game that resolves as usual."""
    return json.loads(row["stuck"]) if row["stuck"] else None


def stuck_ids(store: Store) -> set[int]:
    return {r["id"] for r in store.all("SELECT id FROM games WHERE stuck IS NOT NULL")}


def mark_stuck(store: Store, game_id: int, exc: BaseException, now: float, doing: str = "resolving") -> sqlite3.Row:
    row = store.row("SELECT g.name, g.gm_email, p.phase_id FROM games g JOIN phases p "
                    "ON p.game_id=g.id AND p.seq=g.phase_seq WHERE g.id=?", game_id)
    store.run("UPDATE games SET stuck=? WHERE id=?",
              dumps({"phase": row["phase_id"], "doing": doing, "error": error_trace(exc), "at": now}), game_id)
    return row


# What the judge was doing to a game when it failed, as the alert says it.
FAILED = {"resolving": "resolve", "reminding": "write the reminders of"}


def stop_game(store: Store, mailer: Mailer, game_id: int, exc: BaseException, now: float,
              doing: str = "resolving") -> str:
    """A game whose resolution (or its reminders: ``doing``) raised, nothing of it stored:
    marked as needing the game master, who is told once, with the admin; the tick passes it by
    until `pbem game retry`."""
    row = mark_stuck(store, game_id, exc, now, doing)
    mailer.alert(game_id, row["name"], row["gm_email"], f"Game {row['name']} stopped: the judge could not "
                 f"{FAILED[doing]} {row['phase_id']}", "judge_error_game.txt.j2", game=row["name"],
                 phase=row["phase_id"], failed=FAILED[doing], error=error_trace(exc))
    return (f"game {row['name']} stopped, needs the game master: {doing} {row['phase_id']} raised "
            f"{error_line(exc)}; nothing of it changed (`pbem game retry {row['name']}` after a fix)")


def clear_stuck(store: Store, game_id: int) -> None:
    store.run("UPDATE games SET stuck=NULL WHERE id=?", game_id)
