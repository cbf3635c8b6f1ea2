"""Where judge mail goes: a Maildir (the embedded default, readable by a person or the demo)
or an SMTP server, sent concurrently over a few connections.

Every message gets its own SendResult. `permanent` tells the judge whether trying again can
help: a 5xx refusal is final, anything else (4xx, server unreachable, dropped connection,
login refused while the config is being fixed) is retried on a later tick.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import Callable, Optional, Protocol

import aiosmtplib

from pbem.mail.errors import REFUSED, TLS_HINT, MailServerError, network_cause
from pbem.mail.inbox import Security
from pbem.mail.tls import client_context


@dataclass(frozen=True)
class Outgoing:
    id: str  # the judge's outbox id, echoed in the result
    recipients: tuple[str, ...]
    raw: bytes  # compose() output; its From address is the envelope sender (where bounces go)


@dataclass(frozen=True)
class SendResult:
    id: str
    ok: bool
    error: str = ""
    permanent: bool = False  # True: retrying cannot help (5xx); False: retry next tick


OnResult = Optional[Callable[[SendResult], None]]


class Sender(Protocol):
    def send(self, batch: list[Outgoing], on_result: OnResult = None) -> list[SendResult]:
        """Send every message; ``on_result`` hears each result as soon as it is known, so the
        judge can record it before the next message goes (a crash then re-sends at most the
        messages in flight)."""
        ...


class MaildirSender:
    """Writes each message into a Maildir's new/ folder, as a delivery agent would.

    With per_recipient, each recipient gets a Maildir of their own under path/<address>/,
    so the demo can point each player at "their mailbox".

    A batch is written, then flushed to disk once, then reported: each file is written to
    tmp/, every file of the batch is flushed (fsync), moved to new/, and new/ itself is flushed;
    only then does the judge hear that the batch was delivered (docs/reliability.md). A mail's
    file name is drawn from its outbox id, so a mail written again after a crash (written, not
    yet recorded as sent) replaces its own file instead of arriving twice.
    """

    # Every result of a batch is known at once, once the batch is on disk: the judge may record
    # them together (pbem.judge.tick), since a mail written again replaces itself.
    results_at_once = True

    def __init__(self, path: Path | str, per_recipient: bool = False) -> None:
        self.path = Path(path)
        self.per_recipient = per_recipient
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _maildir(self.path)
        except OSError as exc:
            raise MailServerError(f"Maildir {self.path}: cannot create it ({exc.strerror})") from None

    def mailbox_of(self, recipient: str) -> Path:
        """The Maildir a recipient's mail is written to."""
        if not self.per_recipient:
            return self.path
        safe = re.sub(r"[^a-z0-9@._+-]", "_", recipient.strip().lower()) or "unknown"
        return self.path / safe

    def send(self, batch: list[Outgoing], on_result: OnResult = None) -> list[SendResult]:
        made: set[Path] = set()     # each Maildir made (if need be) once a batch
        written: list[tuple[Outgoing, list[tuple[Path, Path]]]] = []
        results: dict[str, SendResult] = {}
        for item in batch:
            files = self._write(item, made)
            if isinstance(files, SendResult):
                results[item.id] = files
            else:
                written.append((item, files))
        # Every file's bytes on disk before any is in new/. The flushes are asked for all at
        # once: the file system writes them in a few journal commits instead of one a mail
        # (docs/performance.md, "Writing the Maildir").
        with ThreadPoolExecutor(max_workers=max(1, min(FLUSHES_AT_ONCE, len(written)))) as pool:
            flushed = list(pool.map(_flushed, [files for _, files in written]))
        folders: set[Path] = set()
        for (item, files), problem in zip(written, flushed, strict=True):
            try:
                if problem is not None:
                    raise problem
                for tmp, new in files:
                    os.replace(tmp, new)
                    folders.add(new.parent)
            except OSError as exc:
                results[item.id] = self._failed(item, exc)
        for folder in sorted(folders):
            try:
                _flush(folder)        # the names in new/ on disk
            except OSError as exc:
                for item, files in written:
                    if any(new.parent == folder for _, new in files):
                        results[item.id] = self._failed(item, exc)
        out = []
        for item in batch:
            result = results.get(item.id) or SendResult(item.id, True)
            out.append(result)
            if on_result is not None:
                on_result(result)
        return out

    def _write(self, item: Outgoing, made: set[Path]) -> list[tuple[Path, Path]] | SendResult:
        """The message written to tmp/ of each target Maildir (not yet flushed): the (tmp, new)
        paths of each, or the failure."""
        # Maildir files use the local line ending, not the wire's CRLF.
        data = item.raw.replace(b"\r\n", b"\n")
        targets = {self.mailbox_of(r) for r in item.recipients} if self.per_recipient else {self.path}
        name = _file_name(item.id)
        files = []
        try:
            for target in sorted(targets):
                if target not in made:
                    _maildir(target)
                    made.add(target)
                tmp = target / "tmp" / name
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(fd, view):]
                finally:
                    os.close(fd)
                files.append((tmp, target / "new" / name))
        except OSError as exc:
            return self._failed(item, exc)
        return files

    def _failed(self, item: Outgoing, exc: OSError) -> SendResult:
        return SendResult(item.id, False, f"Maildir {self.path}: cannot write ({exc.strerror or exc})")


def _maildir(path: Path) -> None:
    """Make the Maildir ``path`` (new/, cur/, tmp/) unless it is there."""
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True, mode=0o700)


def _file_name(outbox_id: str) -> str:
    """A Maildir file name drawn from the mail's outbox id: the same mail, the same name."""
    return f"pbem.{hashlib.sha256(outbox_id.encode('utf-8', 'surrogateescape')).hexdigest()[:40]}"


# How many files of a batch are flushed to disk at once (threads, each waiting on an fsync).
FLUSHES_AT_ONCE = 32


def _flushed(files: list[tuple[Path, Path]]) -> OSError | None:
    """Each tmp/ file of a mail flushed to disk: None, or the problem."""
    try:
        for tmp, _ in files:
            _flush(tmp)
    except OSError as exc:
        return exc
    return None


def _flush(path: Path) -> None:
    """The file (or folder) ``path`` flushed to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class SmtpSender:
    """Sends through an SMTP server with aiosmtplib.

    `concurrency` workers each keep one connection open and take the next message from a
    shared queue, so a batch of reports costs a few connections, not one per mail. When the
    server cannot be reached, the rest of the batch is failed at once (not permanent) instead
    of waiting out one timeout per message.
    """

    def __init__(self, host: str, port: int, user: str | None = None, password: str | None = None,
                 security: Security = "starttls", timeout: float = 30.0, concurrency: int = 4,
                 ca_file: Path | str | None = None) -> None:
        self.host, self.port = host, port
        self.user, self.password = user, password
        self.security = security
        # One context for every connection of this sender; checks are always on (no switch).
        self.ca_file = ca_file
        self._tls = client_context(ca_file) if security != "none" else None
        self.timeout = timeout
        self.concurrency = max(1, concurrency)

    def send(self, batch: list[Outgoing], on_result: OnResult = None) -> list[SendResult]:
        if not batch:
            return []
        return asyncio.run(self._send_all(batch, on_result))

    async def _send_all(self, batch: list[Outgoing], on_result: OnResult = None) -> list[SendResult]:
        queue = deque(enumerate(batch))
        results: list[SendResult | None] = [None] * len(batch)
        down: list[str] = []  # the first connection failure, shared by all workers

        def settle(index: int, result: SendResult) -> None:
            results[index] = result
            if on_result is not None:
                on_result(result)

        async def worker() -> None:
            smtp: aiosmtplib.SMTP | None = None
            try:
                while queue:
                    index, item = queue.popleft()
                    if down:
                        settle(index, SendResult(item.id, False, down[0], False))
                        continue
                    if smtp is None or not smtp.is_connected:
                        try:
                            smtp = await self._open()
                        except MailServerError as exc:
                            down.append(str(exc))
                            settle(index, SendResult(item.id, False, str(exc), False))
                            continue
                    result, healthy = await self._send_one(smtp, item)
                    settle(index, result)
                    if not healthy:
                        smtp.close()
                        smtp = None
            finally:
                if smtp is not None and smtp.is_connected:
                    try:
                        await smtp.quit()
                    except (aiosmtplib.SMTPException, OSError):
                        smtp.close()

        await asyncio.gather(*(worker() for _ in range(min(self.concurrency, len(batch)))))
        return [r for r in results if r is not None]

    def _where(self) -> str:
        return f"SMTP server {self.host}:{self.port}"

    async def _open(self) -> aiosmtplib.SMTP:
        if self.security not in ("tls", "starttls", "none"):
            raise MailServerError(f"{self._where()}: unknown security {self.security!r} (tls, starttls or none)")
        smtp = aiosmtplib.SMTP(
            hostname=self.host, port=self.port, username=self.user or None,
            password=self.password if self.user else None, timeout=self.timeout,
            use_tls=self.security == "tls", start_tls=self.security == "starttls",
            tls_context=self._tls)
        try:
            await smtp.connect()
        except aiosmtplib.SMTPAuthenticationError as exc:
            smtp.close()
            raise MailServerError(f"{self._where()}: login refused - check user and password "
                                  f"({exc.code} {_one_line(exc.message)})") from None
        except (aiosmtplib.SMTPException, OSError, asyncio.TimeoutError) as exc:
            smtp.close()
            raise MailServerError(f"{self._where()}: cannot connect: {_connect_cause(exc)}") from None
        return smtp

    async def _send_one(self, smtp: aiosmtplib.SMTP, item: Outgoing) -> tuple[SendResult, bool]:
        """The result, and whether the connection can carry the next message."""
        try:
            refused, _ = await smtp.sendmail(_from_header(item.raw), list(item.recipients), item.raw)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [r.code for r in exc.recipients]
            text = "; ".join(f"{r.recipient}: {r.code} {_one_line(r.message)}" for r in exc.recipients)
            return SendResult(item.id, False, f"{self._where()} refused {text}",
                              all(500 <= c < 600 for c in codes)), False
        except aiosmtplib.SMTPResponseException as exc:
            text = f"{self._where()} answered {exc.code} {_one_line(exc.message)}"
            if exc.code == 530:
                # 530 refuses the session, not the mail (STARTTLS or a login wanted first):
                # the game master's config is at fault, so the mail waits for the fix.
                return SendResult(item.id, False, f"{text} - {_session_hint(exc.message)}", False), False
            return SendResult(item.id, False, text, 500 <= exc.code < 600), False
        except (aiosmtplib.SMTPException, OSError, asyncio.TimeoutError) as exc:
            return SendResult(item.id, False, f"{self._where()}: {_connect_cause(exc)}", False), False
        if refused:
            # Accepted for some recipients: it cannot be re-sent without duplicating it for
            # the others, so it counts as sent and the refusals are reported.
            text = "; ".join(f"{rcpt}: {resp.code} {_one_line(resp.message)}" for rcpt, resp in refused.items())
            return SendResult(item.id, True, f"some recipients refused: {text}", False), True
        return SendResult(item.id, True), True


def _from_header(raw: bytes) -> str:
    # Only the header block is parsed: the parser would split a report's 60 KB of picture into
    # lines too (a third of a millisecond a mail, docs/performance.md).
    end = raw.find(b"\r\n\r\n", 0, 64 * 1024)
    headers = BytesHeaderParser().parsebytes(raw[:end + 2] if end >= 0 else raw[:64 * 1024])
    for _, addr in getaddresses([str(headers.get("From", ""))]):
        if "@" in addr:
            return addr
    return ""


def _connect_cause(exc: BaseException) -> str:
    # aiosmtplib wraps the socket error; the cause names what really happened.
    while isinstance(exc, aiosmtplib.SMTPConnectError) and exc.__cause__ is not None:
        exc = exc.__cause__
    if isinstance(exc, (asyncio.TimeoutError, aiosmtplib.SMTPTimeoutError)):
        return "timed out"
    shared = network_cause(exc)
    if shared:
        return shared
    if isinstance(exc, aiosmtplib.SMTPServerDisconnected):
        return "the server dropped the connection"
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        return f"{exc.code} {_one_line(exc.message)}"
    text = _one_line(str(exc))
    if "STARTTLS" in text:
        return f"{text} - {TLS_HINT}"
    if "refused" in text.lower() or "connect call failed" in text.lower():
        return REFUSED
    return text or type(exc).__name__


def _session_hint(message: str) -> str:
    if "STARTTLS" in message.upper():
        return 'the server wants TLS: set security = "starttls" (or "tls" on its TLS port)'
    return "the server wants a login: set user and password"


def _one_line(text: object) -> str:
    return " ".join(str(text).split())[:200]
