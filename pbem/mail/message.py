"""Mail as the judge reads it: a parsed incoming mail (InMail). parse_mail never raises and
does bounded work on any input. The mail the judge writes is pbem.mail.outgoing's.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from email.feedparser import BytesFeedParser
from email.policy import compat32
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime

from pbem.mail.auto import auto_reason
from pbem.mail.decode import CONTROL_CHARS, bounded_payload, decode_text, header_text
from pbem.mail.htmltext import html_to_text

MAX_RAW_BYTES = 8 * 1024 * 1024  # anything beyond is cut before parsing (headers survive); `max_bytes` is at most this
MAX_TEXT_CHARS = 256 * 1024
MAX_ATTACHMENT_BYTES = 1024 * 1024
MAX_PARTS = 100  # a mail with more MIME parts than this is read only that far
MAX_DEPTH = 8
MAX_HEADER_BYTES = 256 * 1024  # a real mail's headers are a few KiB, even after many relays
MAX_HEADER_LINES = 5000
# Lines starting with `--` parsed in a multipart mail: well beyond MAX_PARTS parts, and below
# the nesting at which the stdlib parser's recursion fails (somewhere past 600 levels).
MAX_BOUNDARY_LINES = 500
_BOUNDARY_LINE = re.compile(rb"^--", re.MULTILINE)
MAX_NESTED_MULTIPARTS = 50  # multipart parts inside the mail: a real one has a handful
# A multipart Content-Type line: in the mail's headers, it makes the body one to cut; in the
# body, it opens one more nested multipart.
_MULTIPART = re.compile(rb"^content-type:[ \t]*(\r?\n[ \t]+)?multipart/", re.MULTILINE | re.IGNORECASE)
MAX_YAML_ATTACHMENTS = 5  # more than one order document per mail is already a mistake
MAX_REFERENCES = 30  # enough to thread; a hostile References header cannot grow the store

_YAML_TYPES = frozenset({"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"})
_FEED_CHUNK = 64 * 1024
# A Message-ID as the judge keeps and repeats it: printable ASCII in angle brackets, and never
# an RFC 2047 word (`=?`): the header registry would decode one in In-Reply-To or References
# and an encoded CR LF would become a header of its own in the judge's answer.
MSGID = re.compile(r"<[!-;=?-~]{1,250}>")


def _message_ids(value: object, cap: int) -> list[str]:
    """The Message-IDs in a header, read as raw text (ids are never RFC 2047-encoded)."""
    text = " ".join(str(value or "")[:cap].split())
    return [m for m in MSGID.findall(text) if "=?" not in m]


@dataclass(frozen=True)
class Attachment:
    """A YAML attachment's text; `truncated` when it was larger than the cap."""

    filename: str
    text: str
    truncated: bool = False


@dataclass(frozen=True)
class InMail:
    """An incoming mail reduced to what the judge needs. Message-IDs keep their <angle brackets>."""

    message_id: str
    from_addr: str = ""
    from_name: str = ""
    subject: str = ""
    date: datetime | None = None
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    text: str = ""
    attachments_yaml: tuple[Attachment, ...] = ()
    auto: str | None = None  # why this mail must never be answered, or None
    problem: str | None = None  # why the mail could not be read at all, or None
    problem_fix: str = ""  # how the sender can fix `problem`, when the mail says more than a generic hint
    text_truncated: bool = False
    unread: str | None = None  # what of the mail was not looked at (parts over the limits), or None


def size_text(size: int) -> str:
    """A size as a person reads it: 8 MiB, 9.4 MiB, 300 KiB, 2000 bytes."""
    for unit, factor in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if size >= factor:
            return f"{size / factor:.1f}".removesuffix(".0") + " " + unit
    return f"{size} bytes"


def too_large(mail: InMail, size: int, limit: int) -> InMail:
    """``mail`` read only up to ``limit`` bytes of its ``size`` (the inbox's `max_bytes`): the
    answer names both sizes and what makes a mail that large."""
    return replace(mail, problem=f"it is too large for the judge to read whole: {size_text(size)}, more than "
                                 f"the {size_text(limit)} this judge reads",
                   problem_fix="write your orders in a new mail of their own, as plain text and without "
                               "attachments (a picture or a document attached, or a long quoted thread, "
                               "makes a mail this large); orders need only a few lines")


def synthetic_message_id(raw: bytes) -> str:
    """A stable id for a mail without one, so a re-fetched copy is still recognised."""
    return f"<{hashlib.sha256(raw).hexdigest()[:40]}@no-message-id.pbem.invalid>"


def parse_mail(raw: bytes, judge_addresses: Collection[str]) -> InMail:
    """Parse raw RFC 5322 bytes. Never raises: unreadable mail yields an InMail with `problem`."""
    try:
        raw = raw[:MAX_RAW_BYTES]
        headers_end = _headers_end(raw)
        if headers_end > MAX_HEADER_BYTES or raw.count(b"\n", 0, headers_end) > MAX_HEADER_LINES:
            # The stdlib parser spends seconds and hundreds of MiB on a million header lines;
            # and a mail whose headers cannot be read whole might be a robot's: never answered.
            return InMail(message_id=synthetic_message_id(raw),
                          auto="headers too large to read: never answered",
                          problem=f"its headers are larger than {MAX_HEADER_BYTES // 1024} KiB or "
                                  f"{MAX_HEADER_LINES} lines")
        raw, parts_cut = _cut_parts(raw, headers_end)
        return _parse(raw, judge_addresses, parts_cut)
    except Exception as exc:  # malformed mail must become a record, never a traceback
        return InMail(message_id=synthetic_message_id(raw),
                      auto="unreadable mail is never answered",
                      problem=f"the mail could not be parsed ({type(exc).__name__})")


def _headers_end(raw: bytes) -> int:
    ends = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
    return min(ends) if ends else len(raw)


def _cut_parts(raw: bytes, body_start: int) -> tuple[bytes, str | None]:
    """The mail cut before its MAX_BOUNDARY_LINES-th line starting with `--` (a MIME boundary,
    or something like one) and before its MAX_NESTED_MULTIPARTS-th nested multipart: the
    stdlib parser builds an object for every part and a generator for every level, so a few
    bytes per part would otherwise cost seconds and many MiB, and a thousand levels a
    RecursionError. What is cut is never read anyway (MAX_PARTS, MAX_DEPTH)."""
    if not _MULTIPART.search(raw, 0, body_start):
        return raw, None  # a single-part body is never split, whatever its lines look like
    cuts = []
    for pattern, limit, why in ((_BOUNDARY_LINE, MAX_BOUNDARY_LINES, "parts"),
                                (_MULTIPART, MAX_NESTED_MULTIPARTS, "deep")):
        for count, match in enumerate(pattern.finditer(raw, body_start), start=1):
            if count >= limit:
                cuts.append((match.start(), why))
                break
    if not cuts:
        return raw, None
    at, why = min(cuts)
    return raw[:at], why


def _message(raw: bytes) -> Message:
    """message_from_bytes, fed in chunks: given the whole mail at once the parser holds it
    decoded and split into lines besides, about 8 bytes per byte of mail (62 MiB for 8 MiB);
    fed 64 KiB at a time it holds about 2.5."""
    parser = BytesFeedParser(policy=compat32)
    for start in range(0, len(raw), _FEED_CHUNK):
        parser.feed(raw[start:start + _FEED_CHUNK])
    return parser.close()


def _parse(raw: bytes, judge_addresses: Collection[str], parts_cut: str | None) -> InMail:
    msg = _message(raw)
    from_name, from_addr, senders = _sender(msg)
    skipped = _Skipped()
    skipped.parts, skipped.deep = parts_cut == "parts", parts_cut == "deep"
    text, truncated, attachments = _bodies(msg, skipped)
    message_ids = _message_ids(msg.get("Message-ID"), 1000)
    return InMail(
        message_id=message_ids[0] if message_ids else synthetic_message_id(raw),
        from_addr=from_addr,
        from_name=from_name,
        subject=header_text(msg.get("Subject"), 998),
        date=_date(msg.get("Date")),
        in_reply_to=next(iter(_message_ids(msg.get("In-Reply-To"), 1000)), None),
        references=tuple(_message_ids(msg.get("References"), 20000)[-MAX_REFERENCES:]),
        text=text,
        attachments_yaml=tuple(attachments),
        auto=auto_reason(msg, from_addr, judge_addresses),
        text_truncated=truncated,
        unread=skipped.describe(truncated),
        **({} if senders <= 1 else _several_senders(senders)),
    )


def _several_senders(count: int) -> dict[str, str]:
    """A From naming several addresses (or several From headers) is never taken as a player's
    mail, whichever address comes first: the judge authenticates one sender, and a mail client
    may show the reader another of them (docs/security.md). It is answered, at the first
    address, with what to change."""
    return {"problem": f"its From names {count} addresses, and the judge takes a mail from one sender only",
            "problem_fix": "send your orders from your own address alone (the one your game master "
                           "registered), with no other address in From"}


_ENCODED_WORD = re.compile(r"=\?[^?\s]{1,40}\?[bBqQ]\?[^?\s]*\?=")


def _sender(msg: Message) -> tuple[str, str, int]:
    """The first plausible address of From, and how many different addresses From names in
    all (every From header counted: a mail has one). Addresses are found before any RFC 2047
    word is decoded: an encoded word may only be a display name, and decoded first it could carry a
    comma, a colon or a CR LF that changes which address the parser sees (a hostile display
    name `=?utf-8?q?x=0D=0ABcc:_victim@evil.test?=` must not become the sender)."""
    value = CONTROL_CHARS.sub(" ", ", ".join(str(v) for v in (msg.get_all("From") or [])[:10])[:4000])
    words: list[str] = []

    def hold(match: re.Match) -> str:
        words.append(match.group(0))
        return f"pbemword{len(words) - 1}x"

    pairs = getaddresses([" ".join(_ENCODED_WORD.sub(hold, value).split())])
    def restore(text: str) -> str:
        return re.sub(r"pbemword(\d+)x", lambda m: words[int(m.group(1))], text)

    # Addresses counted once each: a client that writes the address as the display name too
    # (`alice@x.org <alice@x.org>`, `'alice@x.org' <alice@x.org>`) names one sender.
    count = len({restore(addr).strip().strip("'\"").lower() for _, addr in pairs if "@" in addr})
    for name, addr in pairs:
        addr = restore(addr).strip().lower()
        if plausible_address(addr):
            return header_text(restore(name), 200), addr, count
    return "", "", count


def plausible_address(addr: str, dotted: bool = True) -> bool:
    """A lower-case address the judge can write to (``dotted``: its domain has a dot)."""
    local, at, domain = addr.rpartition("@")
    # ASCII only: the judge sends without SMTPUTF8, so it could not write to any other address
    # (and a From it cannot answer must not be taken as a sender, or the answer fails forever).
    return bool(at and local and domain and ("." in domain or not dotted) and addr.isascii() and addr.isprintable()
                and len(addr) <= 254
                and not re.search(r"[\s<>,;:\"()\[\]\\]|=\?", addr)
                and re.fullmatch(r"[a-z0-9.-]+", domain) is not None)


def _date(value: object) -> datetime | None:
    if value is None:
        return None
    try:
        when = parsedate_to_datetime(header_text(value, 200))
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


class _Skipped:
    """What the bounded walk over the MIME tree left out, to tell the sender."""

    def __init__(self) -> None:
        self.parts = self.deep = self.forwarded = False

    def describe(self, text_cut: bool) -> str | None:
        reasons = []
        if self.parts:
            reasons.append(f"it has more than {MAX_PARTS} parts (MIME), and only the first {MAX_PARTS} were read")
        if self.deep:
            reasons.append(f"parts nested more than {MAX_DEPTH} levels deep were not read")
        if self.forwarded:
            reasons.append("a forwarded mail inside it was not read: orders must be written in your own mail")
        if text_cut:
            reasons.append(f"its text is longer than {MAX_TEXT_CHARS // 1024} KiB, and only the beginning was read")
        return "; ".join(reasons) or None


def _bodies(msg: Message, skipped: _Skipped) -> tuple[str, bool, list[Attachment]]:
    """The body text, whether it was cut, and the YAML attachments.

    Every inline text/plain part counts, in order: some clients (Apple Mail around an inline
    picture) split one body into several. HTML is used only when there is no plain text.
    """
    plain: list[str] = []
    html: str | None = None
    cut = html_cut = False
    attachments: list[Attachment] = []
    for part in _leaf_parts(msg, skipped):
        ctype = part.get_content_type()
        filename = header_text(part.get_filename(), 255) if _has_filename(part) else ""
        if _is_yaml_attachment(ctype, filename):
            if len(attachments) < MAX_YAML_ATTACHMENTS:
                data, too_big = bounded_payload(part, MAX_ATTACHMENT_BYTES)
                text = decode_text(data, part.get_content_charset() or "utf-8")
                attachments.append(Attachment(filename or "attachment.yaml", text, too_big))
            continue
        if str(part.get("Content-Disposition", "")).strip().lower().startswith("attachment"):
            continue  # some other attachment: not a body (an inline text file still is one)
        if ctype == "text/plain" and sum(map(len, plain)) < MAX_TEXT_CHARS:
            data, too_big = bounded_payload(part, MAX_TEXT_CHARS)
            text = decode_text(data, part.get_content_charset())
            if str(part.get_param("format") or "").lower() == "flowed":
                text = unflow(text, str(part.get_param("delsp") or "").lower() == "yes")
            plain.append(text)
            cut = cut or too_big
        elif ctype == "text/html" and html is None:
            data, too_big = bounded_payload(part, MAX_TEXT_CHARS * 4)
            html = html_to_text(decode_text(data, part.get_content_charset()), MAX_TEXT_CHARS)
            html_cut = too_big
    if plain:
        text = "\n".join(plain)
    elif html is not None:
        text, cut = html, html_cut
    else:
        text = ""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text[:MAX_TEXT_CHARS], cut or len(text) > MAX_TEXT_CHARS, attachments


def unflow(text: str, delsp: bool) -> str:
    """RFC 3676 format=flowed text as the writer typed it. Thunderbird and others send it by
    default, wrapping long lines (a long comment in the order template) with a trailing space
    and adding a space before lines that start with one: read raw, a wrapped order line would
    continue at column 0 and the YAML would break."""
    out: list[str] = []
    joining = False  # the previous line was flowed: this one continues it
    previous_depth = 0
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]  # space-stuffing (4.4), or the space after quote marks
        flowed = body.endswith(" ") and body != "-- "
        if flowed and delsp:
            body = body[:-1]
        if joining and depth == previous_depth and out:
            out[-1] += body
        else:
            out.append(">" * depth + (" " if depth and body else "") + body)
        joining, previous_depth = flowed, depth
    return "\n".join(out)


def _has_filename(part: Message) -> bool:
    return part.get_param("filename", header="content-disposition") is not None or \
        part.get_param("name") is not None


def _is_yaml_attachment(ctype: str, filename: str) -> bool:
    return ctype in _YAML_TYPES or filename.lower().endswith((".yaml", ".yml"))


def _leaf_parts(msg: Message, skipped: _Skipped):
    """The non-multipart parts in document order, bounded in count and depth.

    Forwarded messages (message/rfc822) are not entered: their text is someone else's mail.
    """
    stack = [(msg, 0)]
    seen = 0
    while stack and seen < MAX_PARTS:
        part, depth = stack.pop()
        seen += 1
        if part.is_multipart():
            if part.get_content_maintype() == "message":
                skipped.forwarded = True
                continue
            if depth >= MAX_DEPTH:
                skipped.deep = True
                continue
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend((child, depth + 1) for child in reversed(children[:MAX_PARTS])
                             if not isinstance(child, str))
                skipped.parts = skipped.parts or len(children) > MAX_PARTS
        else:
            yield part
    if stack:
        skipped.parts = True
