"""A game or a kept mail handled again: the tick's own steps (resolving a due game, trying a
kept mail once more) and the game master's `pbem game retry` and `pbem inbox retry`, which do
the same by hand after a fix (docs/reliability.md, "When the judge itself has a bug")."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from pbem.judge import absences, engine, inbound, quarantine, reminders, seats
from pbem.judge.faults import fault_point
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store, StoreBusy


def resolve_game(store: Store, mailer: Mailer, game_id: int, name: str, now: float) -> tuple[list, bool]:
    """Resolve one game if it is due (the tick's step, and `pbem game retry`): the chain of
    phases resolved with their reports queued, and whether its grace period began instead.
    Works in the caller's transaction; an error raised here is the judge's own bug."""
    game = engine.load_game(store, name)
    if reminders.start_grace(store, mailer, game, now):
        engine.rechecked(store, game_id)
        return [], True
    game, chain = engine.resolve_due(store, game, now)
    if chain:
        # An absence may move the new phase's deadline: before the reports show it.
        game = absences.extend_for_absences(store, mailer, game, now)
        mailer.reports(game, chain)
        seats.note_missed(store, mailer, game, chain)
    engine.rechecked(store, game_id)
    return chain, False


@dataclass
class Failed:
    """A kept mail that raised again: the error, and the tick's line when it was put aside."""

    error: BaseException
    line: str


def retry_mail(store: Store, mailer: Mailer, row_id: int, now: float, by_hand: bool = False) -> str | Failed | None:
    """Handle a kept mail again, in the caller's transaction: its outcome (the kept copy goes),
    or Failed. A tick's retry puts it aside (answer and alerts, once); a retry ``by_hand``
    (`pbem inbox retry`) only records the new error. None: the row was gone (another process
    handled it)."""
    row = store.one("SELECT * FROM quarantine WHERE id=?", row_id)
    if row is None:
        return None
    mail = quarantine.mail_of(row, mailer.home.address)
    try:
        with store.part():
            outcome = inbound.handle(store, mailer, mail, now)
            quarantine.release(store, row_id)
    except (StoreBusy, sqlite3.DatabaseError):
        raise
    except Exception as exc:  # the judge's bug again: the mail stays kept
        if by_hand or row["state"] == "held":
            quarantine.failed_again(store, row_id, exc, now)
            return Failed(exc, quarantine.error_line(exc))
        failed = Failed(exc, quarantine.put_aside(store, mailer, row_id, exc, now))
        fault_point("in-mail-commit")
        return failed
    fault_point("in-mail-commit")
    return outcome
