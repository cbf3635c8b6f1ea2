"""Bounded decoding of MIME parts and header values; nothing here raises on bad input.

Why bounded: anyone on the internet can mail the judge; what a part yields is capped.
"""

from __future__ import annotations

import codecs
import re
from email.header import decode_header, make_header
from email.message import Message

# Labels that mail clients use for what is really windows-1252 (as the WHATWG encoding
# standard rules): bytes 0x80-0x9F are curly quotes and euro signs there, not controls.
_CP1252_ALIASES = frozenset({"iso-8859-1", "iso8859-1", "iso_8859-1", "latin-1", "latin1", "l1",
                             "windows-1252", "cp1252"})


CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def bounded_payload(part: Message, cap: int) -> tuple[bytes, bool]:
    """The decoded bytes of a non-multipart part, at most `cap` of them; and whether cut.

    The whole mail is already capped (message.MAX_RAW_BYTES), so decoding one part in full
    is bounded too; the cap here bounds what reaches the text decoders and the judge.
    """
    try:
        decoded = part.get_payload(decode=True)
    except Exception:  # the stdlib is lenient, but a hostile part must not stop the mail
        decoded = None
    if not isinstance(decoded, bytes):
        return b"", False
    return decoded[:cap], len(decoded) > cap


def decode_text(data: bytes, charset: str | None) -> str:
    """Bytes to text with the declared charset; bad bytes become U+FFFD, never an error."""
    label = (charset or "").strip().strip('"').lower()
    if not label or label in ("us-ascii", "ascii"):
        # Undeclared or "ascii" text that is not ASCII is almost always UTF-8 in practice.
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("cp1252", errors="replace")
    if label in _CP1252_ALIASES:
        return data.decode("cp1252", errors="replace")
    try:
        codecs.lookup(label)
    except LookupError:
        return data.decode("utf-8", errors="replace")
    try:
        return data.decode(label, errors="replace")
    except Exception:  # some codecs (e.g. odd multibyte ones) can still fail in edge cases
        return data.decode("utf-8", errors="replace")


def header_text(value: object, cap: int = 2000) -> str:
    """A header's value as one line of text: RFC 2047 words decoded, folding removed."""
    if value is None:
        return ""
    text = str(value)[: cap * 4]
    try:
        if "=?" in text:
            # make_header puts back the spaces decode_header drops between an encoded word
            # and the plain text after it.
            text = str(make_header(decode_header(text)))
    except Exception:  # an undecodable encoded-word: keep the raw text rather than nothing
        pass
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    # A NUL, ESC or bell in a Subject is never meant to be shown, nor copied into an answer.
    return " ".join(CONTROL_CHARS.sub(" ", text).split())[:cap]
