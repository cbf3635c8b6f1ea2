"""Mail endpoints from the judge's config: one section for the inbox, one for the sender.

Every key is documented in docs/mail.md. A wrong section raises MailConfigError naming the
key and the fix; a password can come from an environment variable so the config file can be
shared without it.
"""

from __future__ import annotations

import difflib
import os
import ssl
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar, overload

from pbem.mail.errors import MailConfigError
from pbem.mail.imap import ImapInbox
from pbem.mail.inbox import Inbox, MaildirInbox, Security
from pbem.mail.message import MAX_RAW_BYTES
from pbem.mail.outbox import MaildirSender, Sender, SmtpSender

SECURITY: tuple[Security, ...] = ("tls", "starttls", "none")
PROCESSED = ("delete", "keep")  # what becomes of a mail once what it carried is committed
_Word = TypeVar("_Word", bound=str)   # one of a key's allowed words (a Literal type, as Security)
_IMAP_PORTS = {"tls": 993, "starttls": 143, "none": 143}
_SMTP_PORTS = {"tls": 465, "starttls": 587, "none": 25}

_INBOX_KEYS = {
    "maildir": {"kind", "path", "max_bytes", "processed"},
    "imap": {"kind", "host", "port", "user", "password", "password_env", "security", "folder",
             "processed", "processed_folder", "timeout", "max_bytes", "ca_file"},
}
_SENDER_KEYS = {
    "maildir": {"kind", "path", "per_recipient"},
    "smtp": {"kind", "host", "port", "user", "password", "password_env", "security", "timeout",
             "concurrency", "ca_file"},
}


def open_inbox(section: Mapping[str, Any], home: Path, where: str = "inbox") -> Inbox:
    """The inbox a config section describes. `where` names the section in error messages."""
    reader = _Section(section, where)
    kind = reader.kind(_INBOX_KEYS)
    if kind == "maildir":
        return MaildirInbox(reader.path(home), max_bytes=reader.integer("max_bytes", MAX_RAW_BYTES,
                                                                         maximum=MAX_RAW_BYTES),
                            delete_processed=reader.choice("processed", PROCESSED, "delete") == "delete")
    security = reader.choice("security", SECURITY, "tls")
    processed_folder = reader.text("processed_folder", "") or None
    # A processed mail carries its sender's secret in clear: deleted once committed, unless
    # the game master keeps it (processed = "keep", or a processed_folder to keep it in).
    processed = reader.choice("processed", PROCESSED, "keep" if processed_folder else "delete")
    if processed == "delete" and processed_folder:
        raise reader.fail('processed = "delete" and processed_folder contradict each other: remove '
                          'processed_folder to delete processed mail, or set processed = "keep" to keep it there')
    return ImapInbox(
        host=reader.text("host"),
        port=reader.integer("port", _IMAP_PORTS[security]),
        user=reader.text("user"),
        password=reader.password(required=True),
        security=security,
        folder=reader.text("folder", "INBOX"),
        processed_folder=processed_folder,
        delete_processed=processed == "delete",
        timeout=reader.number("timeout", 30.0),
        max_bytes=reader.integer("max_bytes", MAX_RAW_BYTES, maximum=MAX_RAW_BYTES),
        ca_file=reader.ca_file(home, security),
    )


def open_sender(section: Mapping[str, Any], home: Path, where: str = "outbox") -> Sender:
    """The sender a config section describes. `where` names the section in error messages."""
    reader = _Section(section, where)
    kind = reader.kind(_SENDER_KEYS)
    if kind == "maildir":
        return MaildirSender(reader.path(home), per_recipient=reader.boolean("per_recipient", False))
    security = reader.choice("security", SECURITY, "starttls")
    user = reader.text("user", "") or None
    return SmtpSender(
        host=reader.text("host"),
        port=reader.integer("port", _SMTP_PORTS[security]),
        user=user,
        password=reader.password(required=user is not None),
        security=security,
        timeout=reader.number("timeout", 30.0),
        concurrency=reader.integer("concurrency", 4, minimum=1, maximum=32),
        ca_file=reader.ca_file(home, security),
    )


_MISSING = object()


class _Section:
    def __init__(self, section: Mapping[str, Any], where: str) -> None:
        if not isinstance(section, Mapping):
            raise MailConfigError(f"[{where}] must be a table of keys (kind = ...), not {type(section).__name__}")
        self.section = section
        self.where = where

    def fail(self, message: str) -> MailConfigError:
        return MailConfigError(f"[{self.where}] {message}")

    def kind(self, allowed: Mapping[str, set[str]]) -> str:
        kinds = " or ".join(f'"{k}"' for k in allowed)
        kind = self.section.get("kind", _MISSING)
        if kind is _MISSING:
            raise self.fail(f"missing key 'kind': add kind = {kinds}")
        if kind not in allowed:
            raise self.fail(f"kind = {kind!r} is not known here: use kind = {kinds}")
        for key in self.section:
            if key not in allowed[kind]:
                hint = difflib.get_close_matches(str(key), sorted(allowed[kind]), n=1)
                fix = f"did you mean '{hint[0]}'?" if hint else \
                    f"remove it (keys for kind = \"{kind}\": {', '.join(sorted(allowed[kind]))})"
                raise self.fail(f"unknown key '{key}': {fix}")
        return kind

    def text(self, key: str, default: Any = _MISSING) -> str:
        value = self.section.get(key, default)
        if value is _MISSING:
            raise self.fail(f"missing key '{key}': add {key} = \"...\" (see docs/mail.md)")
        if not isinstance(value, str):
            raise self.fail(f"'{key}' must be text in quotes, not {value!r}")
        if default is _MISSING and not value.strip():
            raise self.fail(f"'{key}' is empty: give it a value (see docs/mail.md)")
        return value.strip()

    def integer(self, key: str, default: int, minimum: int = 1, maximum: int | None = None) -> int:
        value = self.section.get(key, default)
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum or \
                (maximum is not None and value > maximum):
            limits = f"from {minimum}" + (f" to {maximum}" if maximum is not None else " up")
            raise self.fail(f"'{key}' must be a whole number {limits}, not {value!r}")
        return value

    def number(self, key: str, default: float) -> float:
        value = self.section.get(key, default)
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = -1.0
        if isinstance(value, bool) or not number > 0:
            raise self.fail(f"'{key}' must be a number of seconds above 0, not {value!r}")
        return number

    def boolean(self, key: str, default: bool) -> bool:
        value = self.section.get(key, default)
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "false", "no", "0"):
            return value.strip().lower() in ("true", "yes", "1")
        raise self.fail(f"'{key}' must be true or false, not {value!r}")

    def choice(self, key: str, allowed: tuple[_Word, ...], default: _Word) -> _Word:
        value = self.section.get(key, default)
        if value not in allowed:
            raise self.fail(f"'{key}' = {value!r} is not known: use one of {', '.join(allowed)}")
        return value

    def path(self, home: Path, key: str = "path") -> Path:
        path = Path(self.text(key)).expanduser()
        return path if path.is_absolute() else Path(home) / path

    def ca_file(self, home: Path, security: str) -> Path | None:
        """The PEM file of certificates to trust for this server, checked now so a wrong path
        is told at load time, not as a failed connection on some later tick."""
        if "ca_file" not in self.section:
            return None
        path = self.path(home, "ca_file")
        if security == "none":
            raise self.fail('ca_file is only used with security = "tls" or "starttls": remove it, '
                            "or set security")
        if not path.is_file():
            raise self.fail(f"ca_file {path} is not a file: give the path (absolute, or relative to "
                            f"the judge home) of the PEM file of the server's CA or certificate")
        try:
            with open(path, "rb") as handle:
                handle.read(1)
        except OSError as exc:
            raise self.fail(f"ca_file {path} cannot be read ({exc.strerror}): make it readable "
                            f"by the user that runs pbem") from None
        try:
            ssl.create_default_context(cafile=str(path))
        except ssl.SSLError:
            raise self.fail(f"ca_file {path} holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\"): "
                            f"point it at the server's CA or certificate in PEM form") from None
        return path

    @overload
    def password(self, required: Literal[True]) -> str: ...
    @overload
    def password(self, required: bool) -> str | None: ...

    def password(self, required: bool) -> str | None:
        has_plain, has_env = "password" in self.section, "password_env" in self.section
        if has_plain and has_env:
            raise self.fail("give either 'password' or 'password_env', not both")
        if has_env:
            name = self.text("password_env")
            value = os.environ.get(name)
            if value is None:
                raise self.fail(f"password_env names the environment variable {name}, which is not "
                                f"set: export {name}=... in the environment that runs pbem")
            return value
        if has_plain:
            return self.text("password", "")
        if required:
            raise self.fail("missing key 'password': add password = \"...\" or "
                            "password_env = \"NAME_OF_ENVIRONMENT_VARIABLE\"")
        return None
