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
a report by replying with the filled-in template under their own greeting. How a reply is
read (docs/orders.md, "Where the orders go"):

- Every mail the judge writes begins with a marker line (``marker_line``, added by
  ``Mailer.queue``). In a reply, the copy of the judge's mail starts at the marker, quoted
  (``> ``) or not (Outlook); the paragraph right above it is the mail client's attribution
  ("On ... wrote:", "Le ... a écrit :", Outlook's "From: / Sent: / To: / Subject:" block), in
  whatever language. From the attribution down to the end of the quoted copy (or of the
  mail, for an unquoted copy) nothing is the player's: the document is looked for in the
  rest, and a document there ends where the copy begins.
- The document also ends at a line ``...``, a signature separator ``-- ``, quoted text (for
  a quote without the marker, with the paragraph above it that ends with a colon: its
  attribution), or (for mail without the marker) a known attribution line.
- A sign-off after the orders ("Cheers,", "Alice", "Sent from my phone") is cut when the
  document is not valid YAML as a whole but is without a tail of such lines
  (``_sign_off_start`` says which lines qualify); the answer lists them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pbem.orders.yamlsafe import KEYLIKE, YMap, YamlProblem, load
from pbem.rules.api import OrderError

ENVELOPE_KEYS = ("game", "player", "secret", "phase", "ready", "wait", "new_secret", "html", "command", "away",
                 "timezone")
# A player's own settings by mail (docs/players-guide.md), together or apart, in a mail of their
# own: `away: {from: DATE, to: DATE}` (or `away: none`), `timezone: Europe/Paris`.
PERSONAL_KEYS = ("away", "timezone")
# Commands by mail (docs/players-guide.md): each a mail of its own, answered at once. `info`
# and `help` need no player or secret (anyone may ask); the others are a player's.
COMMANDS = ("status", "report", "history", "help", "info")
OPEN_COMMANDS = ("info", "help")
# What a command mail may carry besides the command: the envelope, and `from:`/`to:` (history).
COMMAND_KEYS = ("game", "player", "secret", "phase", "command", "from", "to")
MIN_SECRET_LENGTH = 10
_START = re.compile(r"^game[ \t]*:")
UNFILLED_SECRET = "YOUR-SECRET"  # the templates' `secret:` until the player fills it in
_UNFILLED = re.compile(r"^secret[ \t]*:[ \t]*" + re.escape(UNFILLED_SECRET) + r"(\s|$)", re.IGNORECASE)
_END = re.compile(r"^(\.\.\.|-- ?)\s*$")
_QUOTED_START = re.compile(r"^(> ?)game[ \t]*:")
# For mail without the judge's marker (an old report, a partial quote): "On Tue, 1 Dec 2026
# at 10:00, pbem judge <judge@example.org> wrote:", "-----Original Message-----", Outlook's
# line of underscores.
_ATTRIBUTION = re.compile(r"^(On .*wrote:\s*|-+ ?Original Message ?-+\s*|_{10,}\s*)$", re.IGNORECASE)
# The first line of every mail the judge writes (Mailer.queue). Changing it breaks the
# reading of replies to mail already sent: extend _MARKER instead.
MARKER = "[pbem] automatic mail from"
_MARKER = re.compile("^" + re.escape(MARKER) + " ")
_QUOTE_MARKS = re.compile(r"^(?:[ \t]*>)+[ \t]?")
# A line that cannot be part of a mail client's attribution: order lines (indented, a list
# item, a comment, a lowercase `key: value` as every order key is) and the start of a
# document. A bare lowercase `word:` may only end it ("...ha\nscritto:", a wrapped line).
_ORDER_LINE = re.compile(r"^(\s|-\s|-$|#|[a-z_][a-z0-9_]*[ \t]*:[ \t]*\S)")
_BARE_KEY = re.compile(r"^[a-z_][a-z0-9_]*[ \t]*:\s*$")
MAX_ATTRIBUTION_LINES = 10  # Outlook's block: separator, From, Sent, To, Cc, Subject, ...
# A sign-off line: plain text at the left margin that YAML cannot read as an order. Not: a
# comment, list item, quoted or flow value, anything with a `key:`, nor `word value` in
# lowercase (`bid 3`, `ready no`: a key missing its colon is an error, not a sign-off).
_NOT_PROSE_START = tuple(" \t#-[{\"'|>&*!%@`?,")
_SEPARATOR = re.compile(r"^[-_=*~]{2,}\s*$")  # "---", "___": a separator above a signature
_KEY_COLON = re.compile(r":(\s|$)")
IGNORED_ECHO_CHARS = 60  # an ignored line is echoed this far
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
    # `html: yes|no`: reports with the HTML part and the map, or plain text only; a mail of
    # its own (docs/orders.md, "Plain text only"); None: not asked
    html: bool | None = None
    # Lines after the orders that were not read (a sign-off): (line in the mail, text shortened)
    ignored: tuple[tuple[int, str], ...] = ()
    # `command: status|report|history|help|info`, a mail of its own; None: not a command.
    # ``command_args`` holds its `from:`/`to:` (history), as written.
    command: str | None = None
    command_args: tuple[tuple[str, str], ...] = ()
    # `away:` as written (a YMap with from/to, or a word such as `none`): the judge reads the
    # dates; None: not asked. `timezone:` the name as written; None: not asked.
    away: Any = None
    away_line: int | None = None
    timezone: str | None = None


def marker_line(name: str, address: str) -> str:
    """The line every mail of the judge begins with: a reply's copy of it starts there."""
    return f"{MARKER} {' '.join(name.split())} <{address}>"


def find_document(text: str) -> Document | None:
    """The order document inside a mail body, or None when there is none.

    The document starts at the first line beginning with ``game:`` outside the copies of
    the judge's mails (``_judge_copies``) and ends where the next copy begins, at the end of
    the mail, a line ``...``, a signature separator ``-- ``, quoted text (``>``) or a known
    attribution line. If there is none, a template filled in inside a quoted copy (every
    line ``> ``) is taken with its quote marks removed, and last, inside an unquoted copy
    (Outlook), the first `game:` line not followed by ``secret: YOUR-SECRET``: the template
    filled in there, or orders written below the copy. Line numbers stay those of the mail."""
    # Invisible marks at a line's start (a byte-order mark, a zero-width space or word joiner
    # that copy and paste brings along) never mean anything, but would hide a `game:` line.
    lines = [line.lstrip("\ufeff\u200b\u2060") for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    copies = _judge_copies(lines)
    in_copy = [False] * len(lines)
    for first, end in copies:  # the copies do not overlap: linear in the mail's lines
        in_copy[first:end] = [True] * (end - first)
    for start, line in enumerate(lines):
        if _START.match(line) and not in_copy[start]:
            return _collect(lines, start, "", stop=next((first for first, _ in copies if first > start), len(lines)))
    for start, line in enumerate(lines):
        quoted = _QUOTED_START.match(line)
        if quoted:
            return _collect(lines, start, prefix=quoted.group(1))
    # Every `game:` line left is inside an unquoted copy (Outlook), which runs to the end of the
    # mail: the template filled in there, or orders written below the copy. The first one not
    # still reading YOUR-SECRET is the player's (each looked at up to the next: linear).
    starts = [start for start, line in enumerate(lines) if _START.match(line)]
    ends = starts[1:] + [len(lines)]   # one item more than starts when there is no start
    filled = (start for start, end in zip(starts, ends, strict=False)
              if not any(_UNFILLED.match(x) for x in lines[start:end]))
    chosen = next(filled, starts[0] if starts else None)
    return None if chosen is None else _collect(lines, chosen, "", stop=len(lines), in_copy=True)


def _judge_copies(lines: list[str]) -> list[tuple[int, int]]:
    """The copies of the judge's own mails in a reply, as (first line, end) ranges: each
    starts at the attribution above a marker line and runs to the end of the quoted text
    holding the marker, or for an unquoted copy to the end of the mail."""
    copies: list[tuple[int, int]] = []
    done = 0
    for index, line in enumerate(lines):
        if index < done or not _MARKER.match(_unquoted(line).lstrip()):
            continue
        end = index + 1
        if _QUOTE_MARKS.match(line):
            while end < len(lines) and _QUOTE_MARKS.match(lines[end]):
                end += 1
        else:
            end = len(lines)
        copies.append((_attribution_start(lines, index, done), end))
        done = end
    return copies


def _attribution_start(lines: list[str], marker: int, floor: int) -> int:
    """The first line of the paragraph right above a marker line (blank lines between them
    skipped): the mail client's attribution, whatever its language. It never reaches above
    a line that could be an order (``_ORDER_LINE``) or more than MAX_ATTRIBUTION_LINES up."""
    index = marker
    while index > floor and not _unquoted(lines[index - 1]).strip():
        index -= 1
    top = index
    while index > floor and top - index < MAX_ATTRIBUTION_LINES:
        line = _unquoted(lines[index - 1])
        if not line.strip() or _ORDER_LINE.match(line) or (index < top and _BARE_KEY.match(line)):
            break
        index -= 1
    return index


def _unquoted(line: str) -> str:
    return _QUOTE_MARKS.sub("", line, count=1)


def _collect(lines: list[str], start: int, prefix: str, stop: int | None = None, in_copy: bool = False) -> Document:
    body: list[str] = []
    for line in lines[start:stop]:
        if prefix:   # inside quoted text: the document ends where the quoting does
            if not line.startswith(prefix.rstrip()):
                break
            line = line[len(prefix):] if line.startswith(prefix) else ""
        elif body and line.startswith(">"):
            # The paragraph right above quoted text, if it ends with a colon ("... wrote:",
            # "... a écrit :", "... pisze:"), is the mail client's attribution, in any language,
            # when the quote lacks the judge's marker (deleted, or an older mail).
            kept = len(body)
            while kept and not body[kept - 1].strip():
                kept -= 1
            if kept and body[kept - 1].rstrip().endswith(":"):
                del body[_attribution_start(lines, start + len(body), start + 1) - start:]
            break
        elif body and not in_copy and _ATTRIBUTION.match(line):
            break
        if body and _END.match(line):
            break
        body.append(line)
    return Document("\n".join(body).rstrip() + "\n", start + 1)


def parse_document(doc: Document) -> tuple[Envelope | None, list[OrderError]]:
    ignored: tuple[tuple[int, str], ...] = ()
    try:
        data = load(doc.text, first_line=doc.first_line)
    except YamlProblem as problem:
        data, ignored = _without_sign_off(doc)
        if not ignored:
            return None, [OrderError(problem.line, problem.message, problem.hint)]
    if not isinstance(data, YMap):
        return None, [OrderError(doc.first_line, "the order document must be a list of `key: value` lines",
                                 "start with `game: NAME` then player, secret, phase and orders")]
    if "command" in data:
        return _command_envelope(data)
    if any(key in data for key in PERSONAL_KEYS):
        return _personal_envelope(data)
    errors: list[OrderError] = []
    changing_secret = "new_secret" in data
    changing_html = "html" in data and not changing_secret
    required = ("game", "player", "secret") + (() if changing_secret or changing_html else ("phase",)) \
        + (("new_secret",) if changing_secret else ())
    fields = _text_fields(data, required, required, "near the top of your orders", errors)
    flags = {}
    for key, default in (("ready", True), ("wait", False)):
        flags[key], error = _flag(data, key, default)
        if error:
            errors.append(error)
    if changing_secret and not errors:
        errors += _new_secret_problems(data, fields["new_secret"], fields["secret"])
    html: bool | None = None
    if changing_html and not errors:
        html, error = _flag(data, "html", True)
        # `html:` travels with the envelope alone (a `phase:` line, as in a reply to a report,
        # may stay): a mail that also orders would leave it unclear whether the orders were taken.
        errors += [error] if error else _alone(
            data, ("game", "player", "secret", "phase", "html", "ready", "wait"),
            "a change of `html:` goes in a mail of its own",
            "send `game`, `player`, `secret` and `html` alone, then your orders in another mail")
    if errors:
        return None, errors
    body = YMap()
    body.line = data.line
    for key, value in data.items():
        if key not in ENVELOPE_KEYS:
            body[key] = value
            body.key_lines[key] = data.line_of(key)
    # The answer lists the lines not read, but never repeats a secret (docs/security.md).
    secrets = [fields[k] for k in ("secret", "new_secret") if fields.get(k)]
    ignored = tuple((n, _masked(text, secrets)) for n, text in ignored)
    return Envelope(fields["game"], fields["player"], fields["secret"], fields.get("phase", ""),
                    flags["ready"], flags["wait"], body, fields.get("new_secret"), ignored=ignored, html=html), []


def _command_envelope(data: YMap) -> tuple[Envelope | None, list[OrderError]]:
    """A command mail (`command: NAME`): the command, who sends it, and its arguments."""
    command = data.get("command")
    if not isinstance(command, str) or command.strip().lower() not in COMMANDS:
        return None, [OrderError(data.line_of("command"), f"unknown command {_shorten(str(command))!r}",
                                 f"write `command:` and one of {', '.join(COMMANDS)}")]
    command = command.strip().lower()
    allowed = COMMAND_KEYS if command == "history" else tuple(k for k in COMMAND_KEYS if k not in ("from", "to"))
    mixed = _alone(data, allowed, f"`command: {command}` goes in a mail of its own",
                   "send only the lines `game:`, `player:`, `secret:` and `command:`"
                   + (" (and `from:`/`to:`)" if command == "history" else "") + ", and your orders in another mail")
    if mixed:
        return None, mixed
    required = ("game",) if command in OPEN_COMMANDS else ("game", "player", "secret")
    errors: list[OrderError] = []
    fields = _text_fields(data, required + tuple(k for k in ("player", "secret", "from", "to")
                                                 if k in data and k not in required),
                          required, "near the top of your mail", errors)
    if errors:
        return None, errors
    args = tuple((k, fields[k]) for k in ("from", "to") if k in fields)
    return Envelope(fields["game"], fields.get("player", ""), fields.get("secret", ""), "", True, False,
                    YMap(), command=command, command_args=args), []


def _personal_envelope(data: YMap) -> tuple[Envelope | None, list[OrderError]]:
    """A mail setting the player's own `away:` and/or `timezone:`, with the envelope alone."""
    mixed = _alone(data, ("game", "player", "secret", "phase", *PERSONAL_KEYS),
                   "`away:` and `timezone:` go in a mail of their own",
                   "send `game`, `player`, `secret` with `away:` or `timezone:` alone, "
                   "then your orders in another mail")
    if mixed:
        return None, mixed
    errors: list[OrderError] = []
    required = ("game", "player", "secret") + (("timezone",) if "timezone" in data else ())
    fields = _text_fields(data, required, required, "near the top", errors)
    if errors:
        return None, errors
    return Envelope(fields["game"], fields["player"], fields["secret"], "", True, False, YMap(),
                    away=data.get("away"), away_line=data.line_of("away") if "away" in data else None,
                    timezone=fields.get("timezone")), []


def _text_fields(data: YMap, keys: tuple[str, ...], required: tuple[str, ...], near: str,
                 errors: list[OrderError]) -> dict[str, str]:
    """The text of each of ``keys`` in ``data``, stripped; an error in ``errors`` for a key of
    ``required`` that is missing and for a value that is not one line of text."""
    fields: dict[str, str] = {}
    for key in keys:
        value = data.get(key)
        if value is None:
            if key in required:
                errors.append(OrderError(data.line, f"`{key}:` is missing", f"add a line `{key}: ...` {near}"))
        elif not isinstance(value, str):
            errors.append(OrderError(data.line_of(key), f"`{key}:` must be a single word or name",
                                     f"write `{key}: ...` on one line"))
        else:
            fields[key] = value.strip()
    return fields


def _masked(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "(secret)")
    return text


def _without_sign_off(doc: Document) -> tuple[Any, tuple[tuple[int, str], ...]]:
    """A document that is not valid YAML, read without its sign-off: (the data, the lines
    cut), or (None, ()) when there is no sign-off or the rest is not valid YAML either."""
    lines = doc.text.split("\n")
    cut = _sign_off_start(lines)
    if cut is None:
        return None, ()
    try:
        data = load("\n".join(lines[:cut]) + "\n", first_line=doc.first_line)
    except YamlProblem:
        return None, ()
    return data, tuple((doc.first_line + n, _shorten(line)) for n, line in enumerate(lines[cut:], cut) if line.strip())


def _sign_off_start(lines: list[str]) -> int | None:
    """Where the trailing run of sign-off lines (and blank lines) begins, or None when the
    document does not end with one. A line between orders is never part of it: the run is
    only what follows the last line that could be YAML."""
    cut = len(lines)
    while cut > 0 and (not lines[cut - 1].strip() or _is_sign_off(lines[cut - 1])):
        cut -= 1
    return cut if cut > 0 and any(line.strip() for line in lines[cut:]) else None


def _is_sign_off(line: str) -> bool:
    if _SEPARATOR.match(line):
        return True
    return not (line.startswith(_NOT_PROSE_START) or _KEY_COLON.search(line) or KEYLIKE.match(line))


def _shorten(line: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in line.strip())
    return text if len(text) <= IGNORED_ECHO_CHARS else text[:IGNORED_ECHO_CHARS] + "..."


def _new_secret_problems(data: YMap, new: str, old: str) -> list[OrderError]:
    line = data.line_of("new_secret")
    mixed = _alone(data, ("game", "player", "secret", "new_secret", "phase"),
                   "a secret change goes in a mail of its own",
                   "send `game`, `player`, `secret` and `new_secret` alone, then your orders with the new secret")
    if mixed:
        return mixed
    if len(new) < MIN_SECRET_LENGTH or any(c.isspace() for c in new):
        return [OrderError(line, f"a new secret needs at least {MIN_SECRET_LENGTH} characters and no spaces",
                           "choose a longer secret, e.g. three words joined by dashes")]
    if new == old:
        return [OrderError(line, "the new secret is the same as the old one", "choose a different secret")]
    return []


def _alone(data: YMap, allowed: tuple[str, ...], message: str, hint: str) -> list[OrderError]:
    """``message`` and ``hint`` at the first key of ``data`` not in ``allowed``: something that
    goes in a mail of its own came with more (none: it came alone)."""
    others = [k for k in data if k not in allowed]
    return [OrderError(data.line_of(others[0]), message, hint)] if others else []


def _flag(data: YMap, key: str, default: bool) -> tuple[bool, OrderError | None]:
    value: Any = data.get(key)
    if value is None:
        return default, None
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS:
        return True, None
    if isinstance(value, str) and value.strip().lower() in FALSE_WORDS:
        return False, None
    return False, OrderError(data.line_of(key), f"`{key}:` takes yes or no", f"write `{key}: yes`")
