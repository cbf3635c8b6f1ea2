"""Mail as the judge writes it (OutMail): compose builds a standards-correct message whose
headers thread each game in a mail client and stop mail loops: plain text, or (a report with
its map) multipart/alternative with the text first and an HTML part whose pictures travel
inside the mail by Content-ID (docs/mail.md, "HTML reports"). The mail it reads is
pbem.mail.message's.
"""
from __future__ import annotations

import functools
import hashlib
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.errors import HeaderParseError
from email.headerregistry import Address, HeaderRegistry, UnstructuredHeader
from email.utils import format_datetime
from typing import Union

from pbem.mail.auto import LOOP_HEADER
from pbem.mail.decode import CONTROL_CHARS
from pbem.mail.encoding import base64_text as _base64
from pbem.mail.encoding import shared_part, splice
from pbem.mail.encoding import text_part as _text_part
from pbem.mail.message import MAX_REFERENCES, MSGID, plausible_address

AUTO_REPLIED = "auto-replied"  # RFC 3834: an answer to a player's mail
AUTO_GENERATED = "auto-generated"  # RFC 3834: reports, reminders, announcements


class ComposeError(ValueError):
    """An outgoing mail that cannot be written (e.g. an invalid recipient address)."""


@dataclass
class OutMail:
    to: str
    subject: str
    body: str
    to_name: str = ""
    message_id: str = ""  # "<token@domain>"; compose makes a random one when empty
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)
    list_id: str | None = None  # full List-Id value, e.g. make_list_id("Loire", "loire", domain)
    auto_submitted: str = AUTO_GENERATED
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    # The same mail laid out in HTML, shown by clients that can (the text stays first and
    # whole), and the pictures it shows by `cid:`; None: a plain-text mail.
    html: str | None = None
    images: tuple["InlineImage", ...] = ()
    # Files the mail carries besides its text (a deadline's .ics): after the text, in a
    # multipart/mixed; none: the mail is as it always was.
    attachments: tuple["FileAttachment", ...] = ()


@dataclass(frozen=True)
class FileAttachment:
    """A file attached to a mail the judge writes (``content_type`` e.g. "text/calendar; method=PUBLISH"),
    base64-encoded; ``filename`` is the judge's own (letters, digits, - . _ only)."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class InlineImage:
    """A PNG carried in the mail and shown by the HTML part as ``<img src="cid:...">``:
    ``content_id`` without angle brackets (image_content_id makes one)."""

    content_id: str
    data: bytes
    filename: str = "map.png"
    # Stored once for every mail that carries it (compose_parts leaves its base64 out, to be
    # put back at its place when the mail is sent: shared_part); its ``data`` may then be
    # empty, the ``content_id`` naming the picture.
    shared: bool = False


def image_content_id(data: bytes, domain: str) -> str:
    """A Content-ID for a picture, drawn from its bytes (or from the drawing it is painted
    from: the same drawing, the same picture): the same picture has the same id, so a mail
    does not depend on anything but what it shows."""
    return f"map.{hashlib.sha256(data).hexdigest()[:20]}@{_domain_part(domain)}"


def make_message_id(domain: str, token: str) -> str:
    """A Message-ID from a token the caller chooses, so a re-sent mail keeps its id."""
    safe = re.sub(r"[^A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]", "-", token).strip(".") or "x"
    return f"<{safe}@{_domain_part(domain)}>"


def make_list_id(label: str, token: str, domain: str) -> str:
    """An RFC 2919 List-Id for one game: a readable label and a unique list identifier."""
    safe = re.sub(r"[^A-Za-z0-9-]", "-", token).strip("-").lower() or "game"
    clean_label = re.sub(r'["\\\r\n]', "", label).strip()
    return f'"{clean_label}" <{safe}.{_domain_part(domain)}>' if clean_label else f"<{safe}.{_domain_part(domain)}>"


def _domain_part(domain_or_address: str) -> str:
    domain = domain_or_address.rpartition("@")[2].strip().lower()
    return re.sub(r"[^a-z0-9.-]", "-", domain) or "pbem.invalid"


class _Registry(HeaderRegistry):
    """The stdlib's header registry, keeping the class it makes for each header name: the stdlib
    makes a new class (type()) for every header of every mail, a third of what compose cost."""

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        cls = self._classes.get(key)
        if cls is None:
            cls = self._classes[key] = super().__getitem__(name)
        return cls


_HEADERS = _Registry()
_SMTP = policy.SMTP.clone(header_factory=_HEADERS)
# A value the registry would write back unchanged on one line: printable ASCII words separated by
# single spaces, no RFC 2047 word (_one_line breaks `=?` up anyway).
_PLAIN_VALUE = re.compile(r"[!-~]+(?: [!-~]+)*")
_MAX_LINE = 78  # policy.SMTP.max_line_length


# An address of plain dot-atoms and a display name of plain words (letters and digits), and a
# Message-ID of such an address in brackets: the registry writes them back as given when they fit on
# one line (tests/test_mail_compose.py holds the two against each other). Every mail has a To of its
# own and a Message-ID of its own, so the lru caches below miss on them: this is most of their cost.
_DOT_ATOMS = r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
_PLAIN_ADDR = re.compile(_DOT_ATOMS)
_PLAIN_NAME = re.compile(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)*")
_PLAIN_MSGID = re.compile(f"<{_DOT_ATOMS}>")
_BOUNDARY_TYPE = re.compile(r'(multipart/[a-z]+; boundary="=_pbem_[a-z]+_)([0-9a-f]{24})((?:\.[0-9]+)?")')
_ZEROS = "0" * 24
_PLAIN_ADDRESS_HEADERS = frozenset({"from", "to", "cc", "reply-to", "sender"})


def _plain_header(name: str, value: object) -> str | None:
    """``name: value`` on one line when the registry would write exactly that, else None."""
    if isinstance(value, Address):
        if name.lower() not in _PLAIN_ADDRESS_HEADERS or not _PLAIN_ADDR.fullmatch(value.addr_spec) or \
                (value.display_name and not _PLAIN_NAME.fullmatch(value.display_name)):
            return None
        text = f"{value.display_name} <{value.addr_spec}>" if value.display_name else value.addr_spec
    elif isinstance(value, str) and name.lower() == "message-id" and _PLAIN_MSGID.fullmatch(value):
        text = value
    elif isinstance(value, str) and name == "Content-Type" and (match := _BOUNDARY_TYPE.fullmatch(value)):
        # A multipart's boundary is drawn from its parts (_multipart): every one is new. Hex
        # digits fold as any others, so the fold of the same value with zeros is the template.
        folded = _folded(name, f"{match[1]}{_ZEROS}{match[3]}")
        return folded.replace(_ZEROS, match[2]) if folded.count(_ZEROS) == 1 else None
    else:
        return None
    return f"{name}: {text}\r\n" if len(name) + 2 + len(text) <= _MAX_LINE else None


def _header(name: str, value: object) -> str:
    """One header as policy.SMTP writes it (folded, RFC 2047-encoded where needed, CRLF).

    An unstructured header (Subject, References, List-Id, X-...) whose value is plain and fits
    on one line is written directly: the registry's parse and refold give back the same text
    (tests/test_mail_compose.py holds the two against each other). Anything else — addresses,
    dates, non-ASCII or long values — goes through the registry, as before."""
    plain = _plain_header(name, value)
    if plain is not None:
        return plain
    if isinstance(value, Address):
        return _folded_address(name, value.display_name, value.addr_spec)
    if isinstance(value, str) and len(name) + 2 + len(value) <= _MAX_LINE and "=?" not in value \
            and _PLAIN_VALUE.fullmatch(value) and issubclass(_HEADERS[name], UnstructuredHeader):
        return f"{name}: {value}\r\n"
    return _folded(name, value)


# Many headers repeat from mail to mail (the judge's From, Content-Type, the Date of one second,
# a player's To for their answer and their report): each is folded once.
@functools.lru_cache(maxsize=1024)
def _folded(name: str, value: str) -> str:
    return _SMTP.header_store_parse(name, value)[1].fold(policy=_SMTP)


@functools.lru_cache(maxsize=1024)
def _folded_address(name: str, display_name: str, addr_spec: str) -> str:
    return _SMTP.header_store_parse(name, Address(display_name=display_name, addr_spec=addr_spec))[1].fold(policy=_SMTP)


def compose(out: OutMail, from_addr: str, from_name: str, now: datetime | None = None) -> bytes:
    """The wire form (CRLF) of `out`, sent by the judge at from_addr.

    The bytes are those EmailMessage(policy=policy.SMTP) with set_content(...) writes for the
    same headers and body (the test suite compares them), built without the message object: its
    header registry, parse and refold of every header cost milliseconds a mail."""
    raw, splices = compose_parts(out, from_addr, from_name, now)
    shared = {image.content_id: image.data for image in out.images if image.shared}
    return splice(raw, [(at, shared_part(shared[key])) for at, key in splices])


def compose_parts(out: OutMail, from_addr: str, from_name: str,
                  now: datetime | None = None) -> tuple[bytes, list[tuple[int, str]]]:
    """compose(), less the base64 of each picture marked ``shared``: the mail's bytes without
    them, and where each goes back (byte offset, its content id), in order. The judge stores a
    report's picture once for the mails that carry it (docs/performance.md); ``splice`` with
    each picture's ``shared_part`` gives compose()'s bytes."""
    headers: list[tuple[str, object]] = [
        ("From", _address(from_name, from_addr, "the judge's address")),
        ("To", _address(out.to_name, out.to, "the recipient's address")),
        ("Subject", _one_line(out.subject)),
        ("Date", format_datetime((now or datetime.now(timezone.utc)).astimezone(timezone.utc))),
        ("Message-ID", out.message_id or make_message_id(from_addr, secrets.token_hex(16))),
    ]
    in_reply_to = out.in_reply_to if out.in_reply_to and _safe_message_id(out.in_reply_to) else None
    if in_reply_to:
        headers.append(("In-Reply-To", in_reply_to))
    references = [r for r in out.references if _safe_message_id(r)][-MAX_REFERENCES:]
    if in_reply_to and in_reply_to not in references:
        references.append(in_reply_to)
    if references:
        headers.append(("References", " ".join(references)))
    if out.list_id:
        headers.append(("List-Id", _one_line(out.list_id)))
    headers.append(("Auto-Submitted", out.auto_submitted))
    # Older vacation programs honour only Precedence, Exchange only this header: both keep
    # out-of-office replies to our reports from reaching the judge at all.
    headers.append(("Precedence", "bulk"))
    headers.append(("X-Auto-Response-Suppress", "All"))
    headers.append((LOOP_HEADER, from_addr))
    headers.extend((name, _one_line(value)) for name, value in out.extra_headers.items())
    plain_headers, plain = _text_part(out.body, "plain")
    if out.attachments:
        # The text (or the text and its HTML) first, then each file: multipart/mixed.
        content: Part = (plain_headers, plain) if out.html is None else _alternative(out, plain_headers, plain, [])
        files: list[Part] = [
            ([("Content-Type", f'{_one_line(a.content_type)}; name="{_one_line(a.filename)}"'),
              ("Content-Transfer-Encoding", "base64"),
              ("Content-Disposition", f'attachment; filename="{_one_line(a.filename)}"')],
             [_base64(a.data)]) for a in out.attachments]
        top: Part = _multipart("mixed", [content, *files], headers + [("MIME-Version", "1.0")])
    elif out.html is None:
        # What set_content(body, subtype="plain", charset="utf-8", cte=...) adds, and its encoding.
        top = (headers + plain_headers + [("MIME-Version", "1.0")], plain)
    else:
        top = _alternative(out, plain_headers, plain, headers + [("MIME-Version", "1.0")])
    _refuse_repeated(top[0])
    return _wire(*top)


@dataclass(frozen=True)
class _Shared:
    """Where a shared picture's base64 goes (compose_parts): ``key``, its content id."""

    key: str


# A part: its headers, and its payload (its text, or its pieces: a multipart's body, a base64
# part's _Encoded or _Shared).
Piece = Union[str, _Shared]
Part = tuple[list[tuple[str, object]], Union[str, list[Piece]]]


def _alternative(out: OutMail, plain_headers: list[tuple[str, object]], plain: str,
                 headers: list[tuple[str, object]]) -> Part:
    """The text and its HTML (with the pictures it shows) as one multipart/alternative."""
    assert out.html is not None
    # What add_alternative(html, subtype="html", ...) then add_related(png, cid=...) on the
    # HTML part make of it: multipart/alternative (text first, the preferred HTML last), the
    # HTML with its pictures in a multipart/related.
    html_headers, html = _text_part(out.html, "html")
    related: list[Part] = [(html_headers, html)]
    for image in out.images:
        related.append(([("Content-Type", "image/png"), ("Content-Transfer-Encoding", "base64"),
                              ("Content-Disposition", f'inline; filename="{_one_line(image.filename)}"'),
                              ("Content-ID", f"<{image.content_id}>"), ("MIME-Version", "1.0")],
                             [_Shared(image.content_id) if image.shared else _base64(image.data)]))
    inner = _multipart("related", related, [("MIME-Version", "1.0")]) if out.images else None
    html_part: Part = inner if inner else (html_headers + [("MIME-Version", "1.0")], html)
    alternative: list[Part] = [(plain_headers, plain), html_part]
    return _multipart("alternative", alternative, headers)


def _multipart(subtype: str, parts: list[Part], headers: list[tuple[str, object]]) -> Part:
    """A multipart of ``parts`` as the stdlib's generator writes it. The boundary is drawn from
    the parts' headers and text (the same mail, the same bytes; base64 is left out: it cannot
    hold a boundary, and a picture's is 60 KB to hash) and starts with `=_`, which neither
    base64 nor quoted-printable can hold; it is checked against the text all the same."""
    # Headers as _header folds them (CRLF), here with LF as every payload: _wire writes CRLF.
    inner: list[list[Piece]] = []
    for h, payload in parts:
        head = "".join(_header(n, v) for n, v in h).replace("\r\n", "\n") + "\n"
        inner.append([head, *payload] if isinstance(payload, list) else [head + payload])
    texts = [piece for pieces in inner for piece in pieces if type(piece) is str]
    digest = hashlib.sha256("\0".join(texts).encode("utf-8", "surrogateescape")).hexdigest()
    n = 0
    while True:
        boundary = f"=_pbem_{subtype}_{digest[:24]}" + (f".{n}" if n else "")
        if not any(f"--{boundary}" in text for text in texts):
            break
        n += 1
    body: list[Piece] = []
    for pieces in inner:
        body += [f"--{boundary}\n", *pieces, "\n"]
    body.append(f"--{boundary}--\n")
    return headers + [("Content-Type", f'multipart/{subtype}; boundary="{boundary}"')], body


def _wire(headers: list[tuple[str, object]], payload: str | list[Piece]) -> tuple[bytes, list[tuple[int, str]]]:
    """The mail's bytes (CRLF), and where each shared picture goes (offset, key)."""
    head = "".join(_header(name, value) for name, value in headers) + "\r\n"
    if isinstance(payload, str):
        return (head + payload.replace("\n", "\r\n")).encode("ascii", "surrogateescape"), []
    chunks: list[bytes] = [head.encode("ascii", "surrogateescape")]
    size = len(chunks[0])
    splices: list[tuple[int, str]] = []
    text: list[str] = []
    for piece in payload:
        if isinstance(piece, _Shared):
            chunks.append("".join(text).replace("\n", "\r\n").encode("ascii", "surrogateescape"))
            size += len(chunks[-1])
            text = []
            splices.append((size, piece.key))
        else:
            text.append(piece)
    chunks.append("".join(text).replace("\n", "\r\n").encode("ascii", "surrogateescape"))
    return b"".join(chunks), splices


def _refuse_repeated(headers: list[tuple[str, object]]) -> None:
    """A header the standard allows once (Subject, Content-Type, ...) given twice is an error, as
    EmailMessage makes it."""
    seen: dict[str, int] = {}
    for name, _ in headers:
        key = name.lower()
        seen[key] = seen.get(key, 0) + 1
        limit = _SMTP.header_max_count(name)
        if limit is not None and seen[key] > limit:
            raise ValueError(f"There may be at most {limit} {name} headers in a message")


def _safe_message_id(value: str) -> bool:
    return MSGID.fullmatch(value) is not None and "=?" not in value


def address_problem(addr: str) -> str | None:
    """None if compose can write mail to `addr`, else why not: for checking addresses early
    (when a game master types them), rather than when the first report is due."""
    composed: str | None
    try:
        _address("", addr, "the address")
    except ComposeError as exc:
        composed = str(exc)
    else:
        composed = None
    if not plausible_address(addr.strip().lower()):
        # A non-ASCII address: the stdlib's reason (which part) says more than ours.
        if composed and not addr.isascii():
            return composed
        return f"{addr!r} is not a mail address such as name@example.org"
    return composed


def judge_address_problem(addr: str) -> str | None:
    """None if ``addr`` can be the judge's own address (From of its mail, the address players
    write to), else why not. As for a player's address, but a one-label domain such as
    `localhost` is allowed (a judge on one machine, the default of `pbem init`)."""
    if not plausible_address(addr.lower(), dotted=False):
        return (f"{addr!r} is not a mail address the judge can write from: use one such as "
                f"judge@example.org (no spaces, quotes, brackets or commas)")
    try:
        _address("", addr, "the address")
    except ComposeError as exc:
        return str(exc)
    return None


@functools.lru_cache(maxsize=4096)   # the judge's own, and each player's for their answer and report
def _address(name: str, addr: str, role: str) -> Address:
    addr = addr.strip()
    if _PLAIN_ADDR.fullmatch(addr):
        # Plain dot-atoms: the parse of the addr_spec would give back these very parts.
        username, domain = addr.split("@")
        return Address(display_name=_one_line(name), username=username, domain=domain)
    try:
        return Address(display_name=_one_line(name), addr_spec=addr)
    except (ValueError, IndexError, HeaderParseError) as exc:
        raise ComposeError(f"{role} {addr!r} is not a usable mail address ({exc})") from None


def _one_line(value: str) -> str:
    """A header value that stays one line of plain text on the wire.

    Control characters go (a NUL or ESC from a player's Subject has no place in our headers).
    `=?` is broken up because the header registry decodes RFC 2047 words in what it is given:
    a Subject that arrived double-encoded would otherwise be decoded a second time here, and
    an encoded CR LF would become a header of its own (`Bcc: victim@...`)."""
    text = CONTROL_CHARS.sub(" ", str(value)).replace("=?", "= ?")
    return " ".join(text.split())
