"""Jinja2 rendering of every mail the judge writes. Templates receive views and visible events
only, never a game's state (DESIGN.md, "Hidden information")."""
from __future__ import annotations

import datetime
import functools
import textwrap
import unicodedata
import zoneinfo
from typing import Any

import jinja2
import yaml
from markupsafe import Markup

from pbem.orders.echo import write_orders
from pbem.paths import templates_dir
from pbem.rules.api import Event, Said


def _yaml(value: Any) -> str:
    """Canonical YAML echo of JSON-able data, readable in any mail client."""
    return yaml.safe_dump(value, allow_unicode=True, sort_keys=False, default_flow_style=False,
                          width=78).rstrip("\n")


def orders_echo(orders: Any) -> str:
    """The canonical orders a judge understood, as a player would write them: nothing empty
    (no `null`, `{}`, `[]`), yes/no for true/false, lists of names in brackets, list items
    indented under their key. Valid YAML the judge's loader reads back to the same orders;
    "" when nothing is left (an empty set of orders)."""
    pruned = _pruned(orders)
    if _nothing(pruned):
        return ""
    return write_orders(pruned, short_maps=False)


def _pruned(value: Any) -> Any:
    if isinstance(value, dict):
        items = ((str(k), _pruned(v)) for k, v in value.items())
        return {k: v for k, v in items if not _nothing(v)}
    if isinstance(value, (list, tuple)):
        return [v for v in map(_pruned, value) if not _nothing(v)]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value if value is None else str(value)


def _nothing(value: Any) -> bool:
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def deadline_text(epoch: float, tz_name: str | None = None) -> str:
    """A moment as every mail shows it: in UTC, or in the reader's time zone ``tz_name`` (an IANA
    name) with UTC beside it: "Tuesday 08 December 2026, 13:00 CET (08 December 12:00 UTC)"."""
    utc = datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc)
    if not tz_name or tz_name == "UTC":
        return utc.strftime("%A %d %B %Y, %H:%M UTC")
    local = utc.astimezone(zoneinfo.ZoneInfo(tz_name))
    return local.strftime("%A %d %B %Y, %H:%M ") + (local.tzname() or tz_name) + utc.strftime(" (%d %B %H:%M UTC)")


@jinja2.pass_context
def _deadline_filter(context: Any, epoch: float) -> str:
    """The `deadline_text` filter: in the time zone the mail's reader chose (the template's `tz`,
    which the Mailer gives every mail to a player; absent or None: UTC)."""
    tz = context.get("tz")
    return deadline_text(epoch, tz if isinstance(tz, str) else None)


def _indent_block(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


# -- what players wrote, relayed in the judge's mail (docs/security.md, "Player text") --------

SAID_MAX_CHARS = 2000   # a relayed text is shown up to here, then "cut" (Fief refuses longer ones when sent)
SAID_WIDTH = 72         # a longer line is broken, and each piece carries the author again
# Characters a reader cannot see, or that move or break the text around them: control
# characters (ESC, tab, form feed, ...), format characters (bidi overrides such as U+202E,
# zero-width spaces), line and paragraph separators, surrogates, private use, unassigned.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


# Combining marks stacked on one letter are drawn above and below it, over the neighbouring
# lines (the judge's own): more than this many in a row is no writing system's need.
MAX_MARKS = 4


def visible(text: str) -> str:
    """``text`` with every character of _HIDDEN but the line feed, and every combining mark
    past MAX_MARKS in a row, shown as ``<U+202E>``."""
    out, marks = [], 0
    for ch in text:
        category = unicodedata.category(ch)
        marks = marks + 1 if category in ("Mn", "Me") else 0
        out.append(f"<U+{ord(ch):04X}>" if (category in _HIDDEN and ch != "\n") or marks > MAX_MARKS else ch)
    return "".join(out)


_WRAP = textwrap.TextWrapper(width=SAID_WIDTH, expand_tabs=False, replace_whitespace=False,
                             drop_whitespace=False, break_on_hyphens=False)


def said_lines(said: Said) -> list[str]:
    """A player's words as mail lines that can never pass for the judge's: every line starts
    with the author and a bar (``marie| ...``) — a line break in the text, or a long line a
    mail client would wrap, starts a new quoted line — hidden characters are shown as
    ``<U+XXXX>``, and a text over SAID_MAX_CHARS is cut, saying so in the judge's own line."""
    text = said.text.replace("\r\n", "\n").replace("\r", "\n")
    prefix = visible(said.by) + "| "
    lines: list[str] = []
    for line in visible(text[:SAID_MAX_CHARS]).split("\n"):
        lines.extend((prefix + piece).rstrip() for piece in (_WRAP.wrap(line) or [""]))
    if len(text) > SAID_MAX_CHARS:
        lines.append(f"(the judge cut this text: it has {len(text)} characters, and only the first "
                     f"{SAID_MAX_CHARS} are shown)")
    return lines


def _event_head(event: Event, me: str | None) -> str:
    """The judge's sentence of an event; for the game master (``me`` None) a private event
    names whose it is (``[to alice]``): its sentence is worded for its audience ("You draw ...")."""
    if me is None and event.audience.kind != "all":
        return f"[to {', '.join(event.audience.players)}] {event.text}" if event.audience.players \
            else f"[game master only] {event.text}"
    return event.text


def event_text(event: Event, me: str | None = "") -> str:
    """One event as text, the one way every mail, the export and the command line show an
    event: the judge's sentence, then what a player wrote (``event.said``) quoted below it."""
    lines = [_event_head(event, me)]
    if event.said is not None:
        lines.extend("    " + line for line in said_lines(event.said))
    return "\n".join(lines)


def event_lines(event: Event, me: str | None = "") -> str:
    """The `event` filter: an event as an item of a mail's list (``- `` and event_text)."""
    return "- " + event_text(event, me)


# -- the HTML part of a report (docs/mail.md, "HTML reports") ---------------------------------
# Inline styles only: no stylesheet, script or remote resource (mail clients block or strip
# them, and a remote picture would tell its server when the player reads the mail).
SAID_STYLE = "margin:4px 0 4px 16px;padding:2px 8px;border-left:3px solid #888;background:#f4f4f4"
PRE_STYLE = "font-family:monospace;font-size:13px;white-space:pre-wrap;margin:0"


def event_html(event: Event, me: str | None = "") -> Markup:
    """An event in the HTML part: the judge's sentence, then what a player wrote set apart
    under "NAME wrote:" in the very lines of the text part (said_lines: every line starts with
    the author and a bar, hidden characters shown, long texts cut). Everything is escaped."""
    out = Markup("{}").format(_event_head(event, me))
    if event.said is not None:
        out += Markup('<div style="{}"><div><i>{} wrote:</i></div><pre style="{}">{}</pre></div>').format(
            SAID_STYLE, visible(event.said.by), PRE_STYLE, "\n".join(said_lines(event.said)))
    return out


@functools.lru_cache(maxsize=1)
def html_environment() -> jinja2.Environment:
    """The environment of the HTML templates (``*.html.j2``): every value escaped."""
    env = _environment(autoescape=True)
    env.filters["deadline_text"] = _deadline_filter
    env.filters["event"] = event_html
    env.globals["pre_style"] = PRE_STYLE
    return env


def render_html(template_name: str, **context: Any) -> str:
    return html_environment().get_template(template_name).render(**context)


_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja2's environment, but `a.b` on a plain dict that has no attribute `b` (a view's
    `town.chief`) reads the key at once. Jinja2 reads it too, after getattr failed: an exception
    raised and caught per lookup, a quarter of the cost of a position's text, which makes
    hundreds (docs/performance.md). The same value, the same Undefined when the key is missing."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def _environment(autoescape: bool) -> jinja2.Environment:
    return _Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Each template is compiled once a process: the templates do not change under a running
        # judge, so Jinja2 need not stat its file on every mail to see whether it did.
        auto_reload=False,
    )


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = _environment(autoescape=False)   # plain-text mail
    env.filters["yaml"] = _yaml
    env.filters["echo"] = orders_echo
    env.filters["indent_block"] = _indent_block
    env.filters["deadline_text"] = _deadline_filter
    env.filters["event"] = event_lines
    return env


def render(template_name: str, **context: Any) -> str:
    return environment().get_template(template_name).render(**context)
