"""Where player mail comes from: a Maildir (the embedded default, here) or an IMAP mailbox
(pbem.mail.imap).

Contract with the judge: fetch() hands over raw mail without changing anything on the server;
the judge commits what a mail carried and only then calls done(key). A crash in between
means the mail is fetched again next tick, and the judge drops it by its Message-ID.
"""

from __future__ import annotations

import mailbox
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, Sequence

from pbem.mail.errors import MailServerError
from pbem.mail.message import MAX_RAW_BYTES

Security = Literal["tls", "starttls", "none"]


@dataclass(frozen=True)
class Fetched:
    key: str  # pass back to done(); opaque to the judge
    raw: bytes
    truncated: bool = False  # the mail was larger than the inbox's max_bytes
    size: int = 0  # the whole mail's size in bytes, as the Maildir or the server tells it


class Inbox(Protocol):
    # A mail larger than this is read only this far (Fetched.truncated), headers intact; at
    # most MAX_RAW_BYTES, the most the parser takes of a mail (pbem.mail.config).
    max_bytes: int
    # Whether the last fetch() returned fewer than its limit although more mail waits (a cap
    # on the bytes held at once stopped it): the judge then fetches again.
    cut_short: bool

    def fetch(self, limit: int) -> list[Fetched]: ...
    def done(self, key: str) -> None: ...
    def done_all(self, keys: Sequence[str]) -> None: ...  # done() for each, in as few round trips as can be
    def close(self) -> None: ...


# How long the Maildir inbox may trust cur/'s modification time instead of listing cur/ (see
# MaildirInbox): the bound on how long a change the time did not show can go unseen.
CUR_RELIST_SECONDS = 3600
CUR_STATE_FILE = ".pbem-cur"


class MaildirInbox:
    """A Maildir the judge owns: unprocessed mail is any without the S (seen) flag.

    done() deletes the file (``delete_processed``: a processed mail carries its sender's
    secret in clear), or renames it into cur/ with the S flag (one atomic rename, no rewrite).
    Only file names are listed, so a tick never reads processed mail again.

    cur/ holds every mail ever processed (100,000 names after a while), and only a mail program
    that moved mail there without the S flag can put unprocessed mail in it. So cur/ is listed
    only when it may have changed: the file CUR_STATE_FILE in the Maildir keeps cur/'s
    modification time when it was last known to hold no unprocessed mail (after a listing, and
    after each of the judge's own renames into it). An unchanged time means no other program
    added or renamed anything there since; a change inside the same clock tick of the file
    system as the judge's own rename could hide behind it, so cur/ is listed again at least
    every CUR_RELIST_SECONDS anyway. new/ is always listed.
    """

    def __init__(self, path: Path | str, max_bytes: int = MAX_RAW_BYTES, delete_processed: bool = False) -> None:
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.delete_processed = delete_processed
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            mailbox.Maildir(self.path, create=True)  # creates new/, cur/ and tmp/
            # ...but only when the folder itself is new: a folder a delivery agent started with
            # new/ alone gets the others here, or every tick would fail listing cur/.
            for sub in ("new", "cur", "tmp"):
                (self.path / sub).mkdir(exist_ok=True)
        except OSError as exc:
            raise MailServerError(f"Maildir {self.path}: cannot create it ({exc.strerror})") from None
        self._where: dict[str, Path] = {}
        self.cut_short = False   # a fetch here returns up to its limit whatever the sizes
        # cur/'s modification time while it is known to hold no unprocessed mail, else None;
        # and when cur/ was last listed (epoch seconds).
        self._clean_cur: int | None = None
        self._listed_at = 0.0
        self._state_read = False

    def fetch(self, limit: int) -> list[Fetched]:
        pending = sorted(self._pending(), key=_arrival_order)[: max(0, limit)]
        result = []
        for file in pending:
            try:
                with open(file, "rb") as handle:
                    # Never more than the file holds: a small mail costs small memory.
                    size = os.fstat(handle.fileno()).st_size
                    raw = handle.read(min(self.max_bytes, size) + 1)
            except FileNotFoundError:
                continue  # someone moved it since the listing; it will be seen where it went
            except OSError as exc:
                raise MailServerError(f"Maildir {self.path}: cannot read {file.name} ({exc.strerror})") from None
            key = file.name.split(":", 1)[0]
            self._where[key] = file
            result.append(Fetched(key, raw[: self.max_bytes], len(raw) > self.max_bytes, max(size, len(raw))))
        return result

    def _pending(self) -> list[Path]:
        skip_cur = self._cur_unchanged()
        pending = self._mails("new")
        if not skip_cur:
            before, self._listed_at = self._cur_time(), time.time()
            unprocessed = [entry for entry in self._mails("cur") if "S" not in _flags(entry.name)]
            # Known clean as of the time read before the listing: a change during it moves
            # the time on, and the next fetch lists again.
            self._clean_cur = None if unprocessed else before
            pending += unprocessed
        return [Path(entry.path) for entry in pending]

    def _mails(self, sub: str) -> list[os.DirEntry]:
        """The files of ``sub``/ (new or cur), dot files left out."""
        try:
            entries = list(os.scandir(self.path / sub))
        except OSError as exc:
            raise MailServerError(f"Maildir {self.path}: cannot list {sub}/ ({exc.strerror})") from None
        return [entry for entry in entries if not entry.name.startswith(".") and entry.is_file()]

    def _cur_time(self) -> int | None:
        try:
            return os.stat(self.path / "cur").st_mtime_ns
        except OSError:
            return None

    def _cur_unchanged(self) -> bool:
        """Whether cur/ is as it was when last known to hold no unprocessed mail (and was listed
        less than CUR_RELIST_SECONDS ago)."""
        if not self._state_read:
            self._state_read = True
            try:
                clean, listed = (self.path / CUR_STATE_FILE).read_text(encoding="ascii").split()
                self._clean_cur, self._listed_at = int(clean), float(listed)
            except (OSError, ValueError):
                pass   # no state (a new Maildir, or an older pbem's): list cur/
        now = self._cur_time()
        return self._clean_cur is not None and now == self._clean_cur \
            and 0 <= time.time() - self._listed_at < CUR_RELIST_SECONDS

    def done(self, key: str) -> None:
        file = self._where.pop(key, None) or self._find(key)
        if file is None:
            return  # already processed (or removed by hand): nothing left to mark
        flags = "".join(sorted(set(_flags(file.name)) | {"S"}))
        # cur/ stays known clean only if nothing but this rename changed it.
        clean = self._clean_cur is not None and self._cur_time() == self._clean_cur
        self._clean_cur = None
        try:
            if self.delete_processed:
                os.remove(file)
            else:
                os.replace(file, self.path / "cur" / f"{key}:2,{flags}")
        except FileNotFoundError:
            return   # someone else moved it (into cur/, perhaps): cur/ is listed next time
        except OSError as exc:
            what = "delete" if self.delete_processed else "mark"
            raise MailServerError(f"Maildir {self.path}: cannot {what} {key} processed ({exc.strerror})") from None
        if clean:
            self._clean_cur = self._cur_time()

    def done_all(self, keys: Sequence[str]) -> None:
        for key in keys:   # one rename (or delete) each: there is no round trip to save
            self.done(key)

    def _find(self, key: str) -> Path | None:
        for sub in ("new", "cur"):
            for entry in os.scandir(self.path / sub):
                if entry.name == key or entry.name.startswith(key + ":"):
                    if sub == "cur" and "S" in _flags(entry.name):
                        return None
                    return Path(entry.path)
        return None

    def close(self) -> None:
        self._where.clear()
        if self._state_read:
            self._save_cur_state()

    def _save_cur_state(self) -> None:
        state = self.path / CUR_STATE_FILE
        try:
            if self._clean_cur is None:
                state.unlink(missing_ok=True)
            else:
                temporary = self.path / "tmp" / CUR_STATE_FILE
                temporary.write_text(f"{self._clean_cur} {self._listed_at!r}\n", encoding="ascii")
                os.replace(temporary, state)
        except OSError:
            pass   # without it the next tick lists cur/: slower, never wrong


def _flags(name: str) -> str:
    _, sep, info = name.partition(":2,")
    return info if sep else ""


def _arrival_order(file: Path) -> tuple[float, str]:
    try:
        return (file.stat().st_mtime, file.name)
    except OSError:
        return (0.0, file.name)
