"""Player mail from an IMAP mailbox (ImapInbox), under the contract of pbem.mail.inbox: fetch()
changes nothing on the server; done_all() marks a group of mails processed once the judge
committed them.
"""
from __future__ import annotations

import imaplib
import re
import ssl
from pathlib import Path
from typing import Sequence

from imap_tools import MailBox, MailBoxStartTls, MailBoxUnencrypted
from imap_tools.errors import ImapToolsError, UnexpectedCommandStatusError
from imap_tools.utils import encode_folder

from pbem.mail.errors import TLS_HINT, MailServerError, network_cause
from pbem.mail.inbox import Fetched, Security
from pbem.mail.message import MAX_RAW_BYTES
from pbem.mail.tls import client_context

# At most this many bytes of mail are fetched from an IMAP server by one fetch (each mail counted
# up to max_bytes; at least one mail): what a tick holds in memory at once.
FETCH_BATCH_BYTES = 32 * 1024 * 1024


class ImapInbox:
    """An IMAP folder read with imap-tools; the connection opens on first use.

    What counts as unprocessed (the ruling):
    - with delete_processed: every message in `folder` not flagged \\Deleted, seen or not;
      done_all() flags them \\Deleted and expunges exactly those messages (UID EXPUNGE,
      RFC 4315) — a processed mail carries its sender's secret in clear. A server without
      UIDPLUS keeps them flagged until its next expunge (a plain EXPUNGE would also remove
      mail someone else flagged); they are not read again meanwhile;
    - with processed_folder: every message in `folder` not flagged \\Deleted, seen or not,
      because done_all() moves processed mail out (UID MOVE, RFC 6851; on a server without
      MOVE: UID COPY, then \\Deleted and UID EXPUNGE of exactly those messages, or, without
      UIDPLUS either, \\Deleted alone until the server's next expunge); a person reading the
      judge's mailbox cannot hide mail from it;
    - otherwise: every message lacking \\Seen, and done_all() sets \\Seen.
    Mail is fetched with BODY.PEEK, so fetching alone never marks anything seen.

    Round trips are batched: a fetch is one UID SEARCH, one UID FETCH of the sizes and one
    UID FETCH of the mails (at most ``batch_bytes`` of them, counting each mail up to
    max_bytes, and at least one mail: a flood of huge mails cannot fill the memory; the
    fetch then says so in ``cut_short``); done_all() marks a committed group with one command
    (two or three without MOVE, or when deleting).
    Keys are "UIDVALIDITY:UID": if the server renumbers the folder in between, done_all()
    skips the key and the mail is fetched again and dropped by the judge as a duplicate.
    """

    def __init__(self, host: str, port: int, user: str, password: str,
                 security: Security = "tls", folder: str = "INBOX",
                 processed_folder: str | None = None, timeout: float = 30.0,
                 max_bytes: int = MAX_RAW_BYTES, ca_file: Path | str | None = None,
                 delete_processed: bool = False, batch_bytes: int = FETCH_BATCH_BYTES) -> None:
        self.host, self.port, self.user, self.password = host, port, user, password
        self.security = security
        self.ca_file = ca_file
        # Always our verifying context: imaplib's own default checks no certificate at all.
        self._tls = client_context(ca_file) if security != "none" else None
        self.folder = folder
        self.processed_folder = processed_folder
        self.delete_processed = delete_processed
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.batch_bytes = batch_bytes
        self.cut_short = False
        self._box = None
        self._uidvalidity: str | None = None
        self._processed_ready = False
        self._capabilities: set[bytes] | None = None   # asked once per connection, after login

    def _where(self) -> str:
        return f"IMAP server {self.host}:{self.port}"

    def _connect(self):
        if self._box is not None:
            return self._box
        classes = {"tls": MailBox, "starttls": MailBoxStartTls, "none": MailBoxUnencrypted}
        if self.security not in classes:
            raise MailServerError(f"{self._where()}: unknown security {self.security!r} (tls, starttls or none)")
        if self.security == "starttls" and self.port == 993:
            # imap-tools refuses this with a ValueError; say what to change instead.
            raise MailServerError(f"{self._where()}: port 993 speaks implicit TLS: set security = "
                                  f"\"tls\", or use the server's STARTTLS port (usually 143)")
        tls = {} if self.security == "none" else {"ssl_context": self._tls}
        with self._translated_errors("connect"):
            box = classes[self.security](self.host, self.port, timeout=self.timeout, **tls)
        with self._translated_errors("log in as " + self.user, box):
            box.login(self.user, self.password, initial_folder=None)
        with self._translated_errors(f"open folder {self.folder!r} (does it exist?)", box):
            box.folder.set(self.folder)
            self._uidvalidity = str(box.folder.status(self.folder, ["UIDVALIDITY"])["UIDVALIDITY"])
        self._box = box
        self._capabilities = None
        return box

    def fetch(self, limit: int) -> list[Fetched]:
        self.cut_short = False
        if limit <= 0:
            return []
        box = self._connect()
        criteria = "UNDELETED" if self.delete_processed or self.processed_folder else "UNSEEN"
        with self._translated_errors("fetch mail", box):
            # No CHARSET argument: some servers refuse one, and the criteria are plain ASCII.
            uids = box.uids(criteria, charset=None)[:limit]
            if not uids:
                return []
            sizes = {uid: size for uid, size, _ in self._fetch_items(box, uids, "(RFC822.SIZE)")}
            chosen: list[str] = []
            total = 0
            for uid in uids:
                cost = min(sizes.get(uid, self.max_bytes), self.max_bytes)
                if chosen and total + cost > self.batch_bytes:
                    self.cut_short = True   # the rest waits for the next fetch
                    break
                chosen.append(uid)
                total += cost
            # A partial fetch caps what a huge mail costs; RFC822.SIZE tells whether it was cut.
            got = {uid: (size, raw) for uid, size, raw in
                   self._fetch_items(box, chosen, f"(RFC822.SIZE BODY.PEEK[]<0.{self.max_bytes}>)")}
        result = []
        for uid in chosen:   # in the order of the search; a mail expunged meanwhile is left out
            if uid in got:
                size, raw = got[uid]
                result.append(Fetched(f"{self._uidvalidity}:{uid}", raw, size > len(raw), max(size, len(raw))))
        return result

    @staticmethod
    def _fetch_items(box, uids: list[str], items: str) -> list[tuple[str, int, bytes]]:
        """One UID FETCH of ``items`` for all of ``uids``: (uid, RFC822.SIZE, body) each."""
        status, data = box.client.uid("FETCH", uid_set(uids), items)
        if status != "OK":
            raise imaplib.IMAP4.error(f"UID FETCH answered {status}")
        # imaplib hands a response with a literal over as (text before it, literal) followed by
        # the text after it; one without a literal as bytes alone. The UID and the size may
        # stand before or after the body.
        records: list[list] = []
        for item in data:
            if isinstance(item, tuple):
                records.append([item[0], item[1]])
            elif isinstance(item, bytes):
                if records and records[-1][1] is not None and not re.match(rb"\d+ \(", item):
                    records[-1][0] += item   # the text after a literal
                else:
                    records.append([item, None])
        out = []
        for text, body in records:
            uid = re.search(rb"\bUID (\d+)", text)
            size = re.search(rb"RFC822\.SIZE (\d+)", text)
            if uid is None or (size is None and body is None):
                continue   # an unsolicited FETCH (another client's flag change)
            raw = body or b""
            out.append((uid.group(1).decode(), int(size.group(1)) if size else len(raw), raw))
        return out

    def done(self, key: str) -> None:
        self.done_all([key])

    def done_all(self, keys: Sequence[str]) -> None:
        """Mark a committed group processed on the server, with one command where it can."""
        try:
            self._mark(keys)
        except MailServerError:
            # The judge may have spent a while committing: a connection the server dropped
            # in the meantime deserves one fresh try before the tick gives up.
            self._mark(keys)

    def _mark(self, keys: Sequence[str]) -> None:
        box = self._connect()
        uids = []
        for key in keys:
            validity, _, uid = key.partition(":")
            if validity == self._uidvalidity and uid.isdigit():
                uids.append(uid)
        if not uids:
            return
        uids_set = uid_set(uids)
        with self._translated_errors("mark mail processed", box):
            if self.delete_processed:
                self._command(box, "STORE", uids_set, "+FLAGS.SILENT", "(\\Seen \\Deleted)")
                self._expunge(box, uids_set)
            elif self.processed_folder:
                if not self._processed_ready:
                    if not box.folder.exists(self.processed_folder):
                        box.folder.create(self.processed_folder)
                    self._processed_ready = True
                folder = encode_folder(self.processed_folder)
                # Not imap-tools' move(): its fallback without MOVE expunges the whole folder,
                # deleting mail that someone else marked \Deleted.
                if b"MOVE" in self._capability(box):
                    self._command(box, "MOVE", uids_set, folder)
                else:
                    self._command(box, "COPY", uids_set, folder)
                    self._command(box, "STORE", uids_set, "+FLAGS.SILENT", "(\\Seen \\Deleted)")
                    self._expunge(box, uids_set)
            else:
                # A plain STORE: imap-tools' flag() would also EXPUNGE the folder.
                self._command(box, "STORE", uids_set, "+FLAGS.SILENT", "(\\Seen)")

    def _capability(self, box) -> set[bytes]:
        if self._capabilities is None:
            # Asked after login: servers (Dovecot) list fewer capabilities before it.
            status, data = box.client.capability()
            words = b" ".join(d for d in data if isinstance(d, bytes)).upper().split()
            self._capabilities = set(words) if status == "OK" else set()
        return self._capabilities

    def _expunge(self, box, uids_set: str) -> None:
        # Without UIDPLUS the mail stays flagged \Deleted (and is not read again) until the
        # server's next expunge: a plain EXPUNGE would remove what others flagged too.
        if b"UIDPLUS" in self._capability(box):
            self._command(box, "EXPUNGE", uids_set)

    @staticmethod
    def _command(box, command: str, uids: str, *args: str | bytes) -> None:
        status, _ = box.client.uid(command, uids, *args)
        if status != "OK":
            raise imaplib.IMAP4.error(f"UID {command} {uids} answered {status}")

    def close(self) -> None:
        box, self._box = self._box, None
        if box is not None:
            try:
                box.logout()
            except (ImapToolsError, OSError, imaplib.IMAP4.error):
                pass  # the session is over either way

    def _translated_errors(self, action: str, box=None):
        return _ImapErrors(self, action, box)


class _ImapErrors:
    """Turns whatever imaplib, ssl, sockets or imap-tools raise into one MailServerError line."""

    def __init__(self, inbox: ImapInbox, action: str, box) -> None:
        self.inbox, self.action, self.box = inbox, action, box

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is None or isinstance(exc, MailServerError):
            return False
        if not isinstance(exc, (OSError, EOFError, imaplib.IMAP4.error, ImapToolsError, ssl.SSLError, KeyError)):
            return False
        self.inbox._box = None  # the connection is unusable now; the next call reconnects
        if self.box is not None:
            try:
                self.box.client.shutdown()
            except Exception:
                pass
        raise MailServerError(f"{self.inbox._where()}: cannot {self.action}: {_cause(exc)}") from None


def _cause(exc: BaseException) -> str:
    shared = network_cause(exc)
    if shared:
        return shared
    if isinstance(exc, imaplib.IMAP4.abort) and "TLS" in str(exc):
        return f"{' '.join(str(exc).split())} - {TLS_HINT}"
    if isinstance(exc, (EOFError, imaplib.IMAP4.abort, ConnectionResetError, BrokenPipeError)):
        return "the server dropped the connection"
    text = " ".join(str(exc).split())
    if isinstance(exc, UnexpectedCommandStatusError):
        text = _server_words(exc.command_result)
    if "AUTHENTICATIONFAILED" in text.upper() or "LOGIN" in text.upper():
        return f"login refused - check user and password (server said: {text[:160]})"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return text[:200] or type(exc).__name__


def _server_words(command_result) -> str:
    """What the server answered to a failed command, e.g. 'NO [AUTHENTICATIONFAILED] ...'."""
    try:
        status, data = command_result
        lines = [d.decode(errors="replace") if isinstance(d, bytes) else str(d) for d in (data or []) if d]
        return " ".join(f"{status} {' '.join(lines)}".split())
    except (TypeError, ValueError):
        return " ".join(str(command_result).split())


def uid_set(uids: Sequence[str]) -> str:
    """An IMAP sequence set of UIDs, runs written as ranges: 3,5,6,7,9 -> "3,5:7,9"."""
    numbers = sorted({int(uid) for uid in uids})
    parts: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}:{prev}")
        if n is not None:
            start = prev = n
    return ",".join(parts)

