"""The transfer encodings of the judge's mail (pbem.mail.outgoing composes it): a text part's
7bit or quoted-printable, a picture's or a file's base64, and a shared picture's base64 put
back into a mail stored without it (docs/performance.md, "One tick at 1,000 games")."""
from __future__ import annotations

import base64
import functools
import re

_MAX_LINE = 78  # policy.SMTP.max_line_length


class Encoded(str):
    """A part's base64 (a picture, a file): no boundary can be in it (base64 has no `-` nor
    `_`), so the boundary is neither drawn from it nor looked for in it."""


@functools.lru_cache(maxsize=16)
def base64_text(data: bytes) -> Encoded:
    """A picture's or a file's base64 (MIME lines of 76), made once for the mails that carry the
    same bytes: a game's round of reports shares one picture without fog of war, and one
    deadline .ics (bytes hash once and compare by identity first: a hit costs nothing)."""
    return Encoded(base64.encodebytes(data).decode("ascii"))


def text_part(text: str, subtype: str) -> tuple[list[tuple[str, object]], str]:
    """A text part's headers and its encoded payload (lines ending in LF)."""
    body = text.replace("\r\n", "\n").replace("\r", "\n")
    if not body.endswith("\n"):
        body += "\n"
    # 7bit when it is plain ASCII with short lines; otherwise quoted-printable, which every
    # server relays and every client decodes, and which stays readable even undecoded.
    plain_ascii = body.isascii() and all(len(line) <= 78 for line in body.split("\n"))
    data = b"\n".join(body.encode("utf-8").splitlines()) + b"\n"
    payload = data.decode("ascii") if plain_ascii else quoted_printable(data.decode("latin-1"))
    return ([("Content-Type", f'text/{subtype}; charset="utf-8"'),
             ("Content-Transfer-Encoding", "7bit" if plain_ascii else "quoted-printable")], payload)


# What quoted-printable writes as it is in a body: printable ASCII but `=`, tab, CR and LF
# (quoprimime's body map); every other character (a byte: the text is UTF-8 read as latin-1)
# becomes =XX.
_QP_UNSAFE = re.compile(r"[^\t\n\r !-<>-~]")


def quoted_printable(text: str) -> str:
    """quoprimime.body_encode(text, 78), the bytes the stdlib writes, made faster: the quoting
    of characters by one regular expression over the text (the stdlib looks each character up
    in a table, most of its cost on a report, which quotes a handful), and a line left as it is
    when it needs no folding (at most 78 characters, no space or tab at its end)."""
    if not text:
        return text
    lines: list[str] = []
    for line in _QP_UNSAFE.sub(lambda m: f"={ord(m[0]):02X}", text).splitlines():
        if len(line) <= _MAX_LINE and line[-1:] not in (" ", "\t"):
            lines.append(line)
        else:
            lines += _qp_folded(line)
    if text[-1] in "\r\n":
        lines.append("")
    return "\n".join(lines)


def _qp_folded(line: str) -> list[str]:
    """A quoted line folded as quoprimime.body_encode folds it: pieces of at most 77 characters
    and a soft break (`=`), never inside an =XX, and a space or tab at its end quoted."""
    pieces: list[str] = []
    start, last = 0, len(line) - 1 - _MAX_LINE
    while start <= last:
        stop = start + _MAX_LINE - 1
        if line[stop - 2] == "=":
            pieces.append(line[start:stop - 1])
            start = stop - 2
        elif line[stop - 1] == "=":
            pieces.append(line[start:stop])
            start = stop - 1
        else:
            pieces.append(line[start:stop] + "=")
            start = stop
    if line and line[-1] in " \t":
        room, quoted = start - last, f"={ord(line[-1]):02X}"
        end = quoted if room >= 3 else line[-1] + "=\n" if room == 2 else "=\n" + quoted
        pieces.append(line[start:-1] + end)
    else:
        pieces.append(line[start:])
    return pieces


def shared_part(data: bytes) -> bytes:
    """A shared picture's base64 as it stands in the mail on the wire (CRLF lines of 76)."""
    return base64_text(data).replace("\n", "\r\n").encode("ascii")


def splice(raw: bytes, parts: list[tuple[int, bytes]]) -> bytes:
    """``raw`` with each (offset, bytes) put back at its offset (offsets into ``raw``, in order)."""
    if not parts:
        return raw
    pieces, start = [], 0
    for at, data in parts:
        pieces += [raw[start:at], data]
        start = at
    pieces.append(raw[start:])
    return b"".join(pieces)
