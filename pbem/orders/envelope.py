"""The envelope of an order mail: which game, which player, the player's secret, the phase it
answers, and the judge-level words ``ready`` and ``wait``. Everything else in the document
belongs to the game and is handed to its ``check_orders``.

    game: loire
    player: marie
    secret: 7f3k-29qd
    phase: round-3/movement
    wait: no            # optional: yes holds early resolution until the deadline
    ready: yes          # optional, yes by default: `ready: no` keeps these orders but does
                        # not count the set as complete
    orders:
      - ...

Anything before the first line that starts with ``game:`` is ignored, so a player can answer
a report by replying with the filled-in template under their own greeting. The document ends
at the end of the mail, at a line ``...``, or at a signature separator ``-- ``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pbem.orders.yamlsafe import YMap, YamlProblem, load
from pbem.rules.api import OrderError

ENVELOPE_KEYS = ("game", "player", "secret", "phase", "ready", "wait", "new_secret")
MIN_SECRET_LENGTH = 10
_START = re.compile(r"^game[ \t]*:")
_END = re.compile(r"^(\.\.\.|-- ?)\s*$")
_QUOTED_START = re.compile(r"^(> ?)game[ \t]*:")
# "On Tue, 1 Dec 2026 at 10:00, pbem judge <judge@example.org> wrote:", "-----Original Message-----"
_ATTRIBUTION = re.compile(r"^(On .*wrote:\s*|-+ ?Original Message ?-+\s*)$", re.IGNORECASE)
TRUE_WORDS = {"yes", "true", "on", "y"}
FALSE_WORDS = {"no", "false", "off", "n"}


@dataclass(frozen=True)
class Document:
    text: str
    first_line: int  # line number of the document's first line in the mail text


@dataclass(frozen=True)
class Envelope:
    game: str
    player: str
    secret: str
    phase: str
    ready: bool  # False only when the player wrote `ready: no` (orders kept, set not complete)
    wait: bool
    body: YMap  # the document without the envelope keys, for the game
    new_secret: str | None = None  # a secret change: a mail of its own (docs/security.md)


def find_document(text: str) -> Document | None:
    """The order document inside a mail body, or None when there is none.

    The document starts at the first line beginning with ``game:`` and ends at the end of the
    mail, a line ``...``, a signature separator ``-- ``, quoted text (``>``) or the
    attribution line a mail client writes above a quoted mail ("On ... wrote:"), so a player
    may write orders above the report they answer. If the only ``game:`` line is inside
    quoted text (a player who filled in the template within the quoted report), the quoted
    document is taken with its quote marks removed; line numbers stay those of the mail."""
    # Invisible marks at a line's start (a byte-order mark, a zero-width space or word joiner
    # that copy and paste brings along) never mean anything, but would hide a `game:` line.
    lines = [line.lstrip("\ufeff\u200b\u2060") for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    for start, line in enumerate(lines):
        if _START.match(line):
            return _collect(lines, start, prefix="")
    for start, line in enumerate(lines):
        quoted = _QUOTED_START.match(line)
        if quoted:
            return _collect(lines, start, prefix=quoted.group(1))
    return None


def _collect(lines: list[str], start: int, prefix: str) -> Document:
    body: list[str] = []
    for line in lines[start:]:
        if prefix:   # inside quoted text: the document ends where the quoting does
            if not line.startswith(prefix.rstrip()):
                break
            line = line[len(prefix):] if line.startswith(prefix) else ""
        elif body and (line.startswith(">") or _ATTRIBUTION.match(line)):
            break
        if body and _END.match(line):
            break
        body.append(line)
    return Document("\n".join(body).rstrip() + "\n", start + 1)


def parse_document(doc: Document) -> tuple[Envelope | None, list[OrderError]]:
    try:
        data = load(doc.text, first_line=doc.first_line)
    except YamlProblem as problem:
        return None, [OrderError(problem.line, problem.message, problem.hint)]
    if not isinstance(data, YMap):
        return None, [OrderError(doc.first_line, "the order document must be a list of `key: value` lines",
                                 "start with `game: NAME` then player, secret, phase and orders")]
    errors: list[OrderError] = []
    fields: dict[str, str] = {}
    changing_secret = "new_secret" in data
    required = ("game", "player", "secret") if changing_secret else ("game", "player", "secret", "phase")
    for key in required + (("new_secret",) if changing_secret else ()):
        value = data.get(key)
        if value is None:
            errors.append(OrderError(data.line, f"`{key}:` is missing",
                                     f"add a line `{key}: ...` near the top of your orders"))
        elif not isinstance(value, str):
            errors.append(OrderError(data.line_of(key), f"`{key}:` must be a single word or name",
                                     f"write `{key}: ...` on one line"))
        else:
            fields[key] = value.strip()
    flags = {}
    for key, default in (("ready", True), ("wait", False)):
        flags[key], error = _flag(data, key, default)
        if error:
            errors.append(error)
    if changing_secret and not errors:
        errors += _new_secret_problems(data, fields["new_secret"], fields["secret"])
    if errors:
        return None, errors
    body = YMap()
    body.line = data.line
    for key, value in data.items():
        if key not in ENVELOPE_KEYS:
            body[key] = value
            body.key_lines[key] = data.line_of(key)
    return Envelope(fields["game"], fields["player"], fields["secret"], fields.get("phase", ""),
                    flags["ready"], flags["wait"], body, fields.get("new_secret")), []


def _new_secret_problems(data: YMap, new: str, old: str) -> list[OrderError]:
    line = data.line_of("new_secret")
    others = [k for k in data if k not in ("game", "player", "secret", "new_secret", "phase")]
    if others:
        return [OrderError(data.line_of(others[0]), "a secret change goes in a mail of its own",
                           "send `game`, `player`, `secret` and `new_secret` alone, then your orders with the new secret")]
    if len(new) < MIN_SECRET_LENGTH or any(c.isspace() for c in new):
        return [OrderError(line, f"a new secret needs at least {MIN_SECRET_LENGTH} characters and no spaces",
                           "choose a longer secret, e.g. three words joined by dashes")]
    if new == old:
        return [OrderError(line, "the new secret is the same as the old one", "choose a different secret")]
    return []


def _flag(data: YMap, key: str, default: bool) -> tuple[bool, OrderError | None]:
    value: Any = data.get(key)
    if value is None:
        return default, None
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS:
        return True, None
    if isinstance(value, str) and value.strip().lower() in FALSE_WORDS:
        return False, None
    return False, OrderError(data.line_of(key), f"`{key}:` takes yes or no", f"write `{key}: yes`")
