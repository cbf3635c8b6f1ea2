"""One pass of the judge (`pbem tick`), as a table of named steps run in order (the way
Eressea runs a turn). Safe to run every minute: a lock file stops overlapping ticks, and every
step commits what it did before the next one starts, so a tick killed anywhere loses nothing —
the next tick carries on.
"""
from __future__ import annotations

import contextlib
import fcntl
import itertools
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterator, Sequence

from pbem.judge import absences, computer, engine, gm, inbound, quarantine, reminders
from pbem.judge.retry import resolve_game, retry_mail
from pbem.judge.faults import fault_point
from pbem.judge.home import Home
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store, StoreBusy, StoreTooNew
from pbem.mail.config import open_inbox, open_sender
from pbem.mail.errors import MailServerError
from pbem.mail.message import parse_mail, too_large
from pbem.mail.outbox import Outgoing, SendResult

# A tick is bounded by time, not by counts ([judge] tick_seconds, docs/mail.md): each step that
# works through a queue starts its next item only while the tick is inside the step's share of
# the budget, counted from the tick's start. Reading mail stops first, so even a flood of mail
# leaves every tick time to resolve due phases and send; resolving stops before sending. What
# is left waits, committed, for the next tick. Each step does at least one item per tick.
READ_SHARE = 0.6
RESOLVE_SHARE = 0.85
SEND_SHARE = 1.0
# Mails read are committed this many at a time (one flush to disk for the group, not one a
# mail), each in a part of the transaction of its own: a mail that fails is undone alone.
MAIL_GROUP = 25
# Due games are resolved this many in one transaction, each in a part of its own.
RESOLVE_GROUP = 10
# The outbox is handed to the sender in chunks of this many mails (the SMTP sender opens its
# connections once per chunk); a tick sends chunk after chunk within its budget.
OUTBOX_BATCH = 500
# A mail the server keeps refusing for a while (4xx, timeouts, server away) is given up after
# this long, as mail servers do with their own queues (RFC 5321, 4.5.4.1: "4-5 days") - and
# only after this many tries, so a judge switched off for a week does not give up on its
# first try after.
GIVE_UP_SECONDS = 5 * 24 * 3600
GIVE_UP_ATTEMPTS = 20


class TickBusy(Exception):
    """Another tick holds the lock."""


@dataclass
class TickReport:
    mails: dict[str, int] = field(default_factory=dict)   # outcome -> count
    resolved: list[str] = field(default_factory=list)     # "game: phase" lines
    reminded: int = 0
    graced: list[str] = field(default_factory=list)      # games whose grace period began
    sent: int = 0
    send_failed: int = 0
    undeliverable: int = 0                                 # refused for good (5xx or given up)
    deadlines_shifted: int = 0
    errors: list[str] = field(default_factory=list)       # one line each (server problems)
    # what the judge's own bugs left for a person: a mail put aside, a game stopped (one line each)
    attention: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)   # steps the time budget stopped

    def lines(self) -> list[str]:
        out = []
        if self.deadlines_shifted:
            out.append(f"outage: pushed back {self.deadlines_shifted} deadline(s)")
        for outcome, count in sorted(self.mails.items()):
            out.append(f"mail: {count} x {outcome}")
        out.extend(f"resolved {line}" for line in self.resolved)
        out.extend(f"grace period began: {name}" for name in self.graced)
        if self.reminded:
            out.append(f"reminders: {self.reminded}")
        if self.sent or self.send_failed:
            retry = self.send_failed - self.undeliverable
            out.append(f"sent: {self.sent}, not sent (will retry): {retry}"
                       + (f", refused for good (game master told): {self.undeliverable}" if self.undeliverable else ""))
        if self.unfinished:
            out.append(f"time budget spent: stopped {', '.join(self.unfinished)}; what is left waits for the next tick")
        out.extend(f"error: {e}" for e in self.errors)
        out.extend(f"needs a person: {line}" for line in self.attention)
        return out or ["nothing to do"]

    @property
    def exit_code(self) -> int:
        """`pbem tick`'s exit status (docs/reliability.md): 3 when this tick put a mail aside,
        stopped a game or had a step fail (a person must look), else 2 when something failed
        that the next tick tries again by itself (a server away, a mail that failed once), else 0."""
        return EXIT_ATTENTION if self.attention else EXIT_RETRY if self.errors else 0


EXIT_RETRY = 2
EXIT_ATTENTION = 3


@contextlib.contextmanager
def tick_lock(home: Home) -> Iterator[None]:
    home.path.mkdir(parents=True, exist_ok=True)
    with open(home.lock_path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise TickBusy(f"another tick is running in {home.path}") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def batches(fetch: Callable[[int], Sequence[Any]], size: int, key: Callable[[Any], Hashable],
            more: Callable[[], bool], cut_short: Callable[[], bool] = lambda: False) -> Iterator[list[Any]]:
    """Batches of at most ``size`` items from ``fetch(limit)`` (the items still waiting, at most
    ``limit``): the first one always, the next ones while ``more()``. An item is handed out once
    per tick: one still waiting after it was handed out (left for the next tick by an internal
    error) is skipped, and the next fetch asks for that many more. A fetch that returned fewer
    than its limit means nothing else waits, unless ``cut_short()`` says a cap stopped it."""
    handed: set[Hashable] = set()
    again = 0
    while True:
        limit = size + again
        got = fetch(limit)
        fresh = [item for item in got if key(item) not in handed]
        again = len(got) - len(fresh)
        if not fresh:
            return
        handed.update(key(item) for item in fresh)
        yield fresh
        if (len(got) < limit and not cut_short()) or not more():
            return   # nothing else was waiting, or the step's time is up


@dataclass
class Tick:
    home: Home
    store: Store
    now: float
    report: TickReport = field(default_factory=TickReport)
    clock: Callable[[], float] = time.monotonic     # the budget's clock (tests inject one)
    started: float = field(init=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def within(self, share: float, step: str) -> bool:
        """Whether the tick is still inside ``share`` of its time budget; asked before more work
        of ``step``, and if not, the report says the budget stopped it."""
        if self.clock() - self.started < self.home.tick_seconds * share:
            return True
        if step not in self.report.unfinished:
            self.report.unfinished.append(step)
        return False

    @property
    def mailer(self) -> Mailer:
        return Mailer(self.store, self.home, self.now)

    # -- the steps, in order -------------------------------------------------------------
    def catch_up_outage(self) -> None:
        last = self.store.get_meta("last_tick")
        if last is not None and self.now - float(last) > self.home.outage_minutes * 60:
            with self.store.transaction():
                self.report.deadlines_shifted = gm.shift_deadlines_after_outage(
                    self.store, float(last), self.now)
                # Recorded with the shift: a tick killed later must not shift the same outage twice.
                self.store.set_meta("last_tick", repr(self.now))

    def read_mail(self) -> None:
        try:
            inbox = open_inbox(self.home.inbox, self.home.path)
        except MailServerError as exc:
            self.report.errors.append(str(exc))
            return

        def fetch(limit: int) -> list:
            batch = inbox.fetch(limit)
            fault_point("after-fetch")
            return batch

        def more() -> bool:
            return self.within(READ_SHARE, "reading mail")

        handled = 0
        try:
            for batch in batches(fetch, self.home.mails_per_fetch, lambda f: f.key, more,
                                 lambda: inbox.cut_short):
                for start in range(0, len(batch), MAIL_GROUP):
                    group = batch[start:start + MAIL_GROUP]
                    if handled and not more():
                        return   # the rest stays in the inbox for the next tick
                    handled += self._read_group(inbox, group)
        except MailServerError as exc:
            self.report.errors.append(str(exc))
        finally:
            with contextlib.suppress(MailServerError):
                inbox.close()

    def _read_group(self, inbox, group: list) -> int:
        """Handle mails in one transaction (one flush to disk), each in a part of its own, until
        the group ends or the step's time is up; then mark the committed ones done. Returns how
        many mails it handled."""
        committed: list[tuple[str, str]] = []
        handled = 0
        with self.store.transaction():
            for fetched in group:
                if handled and not self.within(READ_SHARE, "reading mail"):
                    break
                handled += 1
                mail = parse_mail(fetched.raw, [self.home.address])
                if fetched.truncated and not mail.problem:
                    mail = too_large(mail, fetched.size, inbox.max_bytes)
                if quarantine.kept(self.store, mail.message_id) is not None:
                    # A copy of a mail the judge keeps (delivered again, or a tick killed before
                    # marking it done): the kept one is what will be handled.
                    committed.append((fetched.key, "duplicate (kept aside)"))
                    continue
                try:
                    with self.store.part():
                        outcome = inbound.handle(self.store, self.mailer, mail, self.now)
                        fault_point("in-mail-commit")
                except (StoreBusy, sqlite3.DatabaseError):
                    raise
                except Exception as exc:  # a bug must not stop the other mails: kept, tried again next tick
                    quarantine.first_failure(self.store, fetched.raw, mail, exc, self.now,
                                             fetched.size if fetched.truncated else None,
                                             inbox.max_bytes if fetched.truncated else None)
                    self.report.errors.append(f"mail {mail.message_id}: internal error, kept and tried again "
                                              f"at the next tick: {quarantine.error_line(exc)}")
                    committed.append((fetched.key, "kept for a second try"))
                    continue
                committed.append((fetched.key, outcome))
        for _, outcome in committed:
            if outcome != "kept for a second try":
                self.report.mails[outcome] = self.report.mails.get(outcome, 0) + 1
        if committed:
            fault_point("after-mail-commit")
            # Only now, with everything the group carried committed, is it marked done: one
            # round trip for the group on IMAP. A crash before leaves the whole group in the
            # inbox, read again next tick and dropped as duplicates by their Message-IDs.
            inbox.done_all([key for key, _ in committed])
        return handled

    def retry_kept(self) -> None:
        """Mails whose handling raised at an earlier tick, tried once more: handled as usual, or
        put aside for a person (quarantine.put_aside), each in a transaction of its own."""
        for row in quarantine.due_retries(self.store):
            with self.store.transaction():
                outcome = retry_mail(self.store, self.mailer, row["id"], self.now)
            if isinstance(outcome, str):
                self.report.mails[outcome] = self.report.mails.get(outcome, 0) + 1
            elif outcome is not None:
                self.report.attention.append(outcome.line)

    def computers(self) -> None:   # each computer seat orders once a phase (pbem.judge.computer)
        played = computer.play_all(self.store, self.mailer, self.now, lambda: self.within(READ_SHARE, "computers"))
        self.report.mails.update({computer.OUTCOME: played.ordered} if played.ordered else {})
        self.report.attention.extend(played.attention)

    def resolve_due(self) -> None:
        # Games past their deadline, and games that received orders since they were last looked
        # at (kept in the store, not in memory: a tick killed between reading a mail and
        # resolving must leave the next tick knowing the game may be due).
        due = {r["id"] for r in self.store.all(
            "SELECT id FROM games WHERE status='running' AND deadline<=?", self.now)}
        due |= engine.games_to_recheck(self.store)
        order = sorted(due - quarantine.stuck_ids(self.store))   # a stopped game waits for `pbem game retry`
        for start in range(0, len(order), RESOLVE_GROUP):
            if start and not self.within(RESOLVE_SHARE, "resolving"):
                return   # still due (past its deadline, or in recheck): the next tick resolves them
            self._resolve_group(order[start:start + RESOLVE_GROUP])

    def _resolve_group(self, game_ids: list[int]) -> None:
        """Resolve due games in one transaction (one flush to disk), each in a part of its own,
        until the group ends or the step's time is up (resolve_due asked before the group's first)."""
        done: list[tuple[str, list]] = []
        with self.store.transaction():
            for n, game_id in enumerate(game_ids):
                if n and not self.within(RESOLVE_SHARE, "resolving"):
                    break
                name = self.store.row("SELECT name FROM games WHERE id=?", game_id)["name"]
                try:
                    with self.store.part():
                        mailer = self.mailer   # this game's own: what it found of the game's map (below)
                        chain, graced = resolve_game(self.store, mailer, game_id, name, self.now)
                        fault_point("in-resolution-commit")
                except (StoreBusy, sqlite3.DatabaseError):
                    raise
                except Exception as exc:  # nothing of it was stored; the game waits for a person, the others go on
                    self.report.attention.append(quarantine.stop_game(self.store, self.mailer, game_id, exc, self.now))
                    continue
                if graced:
                    self.report.graced.append(name)
                    continue
                done.append((name, chain))
                if problem := mailer.map_problems.get(name):   # the reports went without it (docs/maps.md)
                    self.report.attention.append(f"game {name}: the map could not be drawn: {problem}")
        for name, chain in done:
            self.report.resolved.extend(f"{name}: {r.phase_id}" for r in chain)
            if chain:
                fault_point("after-resolution")

    def remind(self) -> None:
        # reminder_hours is the earliest of a game's reminder times (settings.reminders): a game
        # comes up here from then until its deadline, and reminders.remind sends what came due.
        rows = self.store.all(
            "SELECT * FROM games WHERE status='running' AND reminder_hours>0 AND stuck IS NULL "
            "AND deadline-reminder_hours*3600<=?", self.now)
        for row in rows:
            if reminders.due_reminders(row, self.now) <= row["reminded"]:
                continue   # nothing new came due: no transaction
            with self.store.transaction():
                try:
                    with self.store.part():
                        # Loaded inside the transaction: a game-master command may have changed the game.
                        game = engine.load_game(self.store, row["name"])
                        self.report.reminded += reminders.remind(self.store, self.mailer, game, self.now)
                except (StoreBusy, sqlite3.DatabaseError):
                    raise
                except Exception as exc:  # the rules fail on this game's mail: stopped as a resolution would be
                    self.report.attention.append(quarantine.stop_game(self.store, self.mailer, row["id"], exc,
                                                                      self.now, "reminding"))

    def send_outbox(self) -> None:
        chunks = batches(self.store.pending_mail, OUTBOX_BATCH, lambda r: r["id"],
                         lambda: self.within(SEND_SHARE, "sending"))
        first = next(chunks, None)
        if first is None:
            return
        try:
            sender = open_sender(self.home.outbox, self.home.path)
        except MailServerError as exc:
            self.report.errors.append(str(exc))
            self.report.send_failed += len(first)
            return
        failures: set[str] = set()
        pending: dict[str, Any] = {}

        def record(result: SendResult) -> None:
            # Each result is committed as soon as the server answered: a tick killed in the
            # middle of a batch re-sends at most the mails in flight (docs/reliability.md).
            fault_point("mid-send")
            with self.store.transaction(durable=False):   # a lost sent mark: sent again, never lost
                self._record_sent(pending[result.id], result)
            if not result.ok:
                failures.add(result.error)

        # A sender whose results come all at once, after the batch is on disk (the Maildir:
        # a mail written again replaces itself) has them committed in one transaction: one
        # commit a batch, not one a mail, each rewriting the outbox's pages into the log.
        at_once = getattr(sender, "results_at_once", False)

        for rows in itertools.chain([first], chunks):
            pending = {r["message_id"]: r for r in rows}
            batch: list[Outgoing] = []
            parts: dict[str, bytes] = {}   # each shared picture read once a chunk
            for r in rows:
                try:
                    batch.append(Outgoing(r["message_id"], (r["recipient"],), self.store.mail_bytes(r, parts)))
                except LookupError as exc:   # a bug: the mail waits, and the tick says so
                    record(SendResult(r["message_id"], False, f"internal error: {exc}"))
            try:
                if at_once:
                    results = sender.send(batch)
                    with self.store.transaction(durable=False):
                        for result in results:
                            record(result)
                else:
                    sender.send(batch, on_result=record)
            except MailServerError as exc:
                self.report.errors.append(str(exc))
                break
        self.report.errors.extend(sorted(e for e in failures if e))
        fault_point("after-send")

    def _record_sent(self, row, result: SendResult) -> None:
        if result.ok:
            self.store.mark_sent(result.id, self.now)   # the body dropped, a secret's too
            self.report.sent += 1
            return
        error, permanent = result.error, result.permanent
        if not permanent and self.now - row["created_at"] > GIVE_UP_SECONDS \
                and row["attempts"] + 1 >= GIVE_UP_ATTEMPTS:
            error, permanent = f"given up after {GIVE_UP_SECONDS // 86400} days of retries: {error}", True
        self.store.run("UPDATE outbox SET attempts=attempts+1, last_error=?, failed=? WHERE message_id=?",
                       error, 1 if permanent else 0, result.id)
        self.report.send_failed += 1
        if permanent:
            self.report.undeliverable += 1
            self.mailer.undeliverable(row, error)

    def finish(self) -> None:
        with self.store.transaction():
            self.store.set_meta("last_tick", repr(self.now))

    def standins(self) -> None:
        # Stand-ins begin and end with their absences (pbem.judge.absences), before mail is read;
        # no transaction when there is nothing to do.
        if self.store.one(f"SELECT 1 FROM absences WHERE {absences.STANDINS_DUE}", self.now, self.now) is None:
            return
        with self.store.transaction():
            absences.standins_due(self.store, self.mailer, self.now)

    STEPS: tuple[tuple[str, Callable[["Tick"], None]], ...] = (
        ("catch up after an outage", catch_up_outage),
        ("begin and end stand-ins", standins),
        ("try again the mail kept after an error", retry_kept),
        ("read and answer mail", read_mail),
        ("computer players order", computers),
        ("resolve due phases", resolve_due),
        ("remind late players", remind),
        ("send the outbox", send_outbox),
        ("record the tick", finish),
    )


def run_tick(home: Home, now: float | None = None, clock: Callable[[], float] = time.monotonic) -> TickReport:
    """One tick. Raises TickBusy if another tick is running. ``clock`` measures the tick's time
    budget (home.tick_seconds)."""
    with tick_lock(home):
        report = TickReport()
        try:
            store = Store(home.db_path)
        except (StoreBusy, StoreTooNew) as exc:
            report.errors.append(str(exc))
            return report
        try:
            tick = Tick(home, store, time.time() if now is None else now, report, clock)
            for name, step in Tick.STEPS:
                try:
                    step(tick)
                except StoreBusy as exc:
                    # Every step commits as it goes: stopping here loses nothing, and the next
                    # tick carries on where this one stopped.
                    report.errors.append(f"{name}: {exc}")
                    break
                except sqlite3.DatabaseError:
                    raise   # the disk or the file: `pbem tick` says so in one line
                except Exception as exc:  # a bug outside any one mail or game: the other steps still run
                    trace = quarantine.error_trace(exc).splitlines()
                    where = f" (at {trace[-2]})" if len(trace) > 1 else ""
                    report.attention.append(f"{name}: internal error, the other steps went on: "
                                            f"{quarantine.error_line(exc)}{where}")
            return report
        finally:
            store.close()
