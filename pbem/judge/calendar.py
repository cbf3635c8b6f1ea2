"""The next deadline as an iCalendar file (RFC 5545), attached to the mail that tells it: a
player's calendar shows it, and moves it when a later mail carries the same event again.

One event per phase: its UID names the game and the phase's number, so each new deadline of
the same phase (extended, an absence, a grace period, a rollback) replaces it; its SEQUENCE is
games.deadline_sequence, which counts up with every change of a game's deadline and never
goes back, so a calendar always takes the newer mail's event (RFC 5546, 2.1.4).

Written here, not with an iCalendar library: one event of five properties in UTC needs only
RFC 5545's text escaping (3.3.11) and line folding (3.1), a few lines; a library would be a
dependency of every install for that. The test parses what this writes with the maintained
`icalendar` package (a test dependency), an implementation independent of this one.
"""
from __future__ import annotations

import datetime

PRODID = "-//pbem//play-by-email judge//EN"
FOLD_OCTETS = 75   # RFC 5545, 3.1: lines longer than 75 octets are folded


def _utc(epoch: float) -> str:
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def escape(text: str) -> str:
    """A TEXT value (RFC 5545, 3.3.11): backslash, semicolon, comma and line breaks escaped."""
    text = text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


def fold(line: str) -> str:
    """One content line folded at 75 octets (a CRLF and a space), never inside a UTF-8 character."""
    out: list[str] = []
    current = b""
    for ch in line:
        octets = ch.encode("utf-8")
        if len(current) + len(octets) > (FOLD_OCTETS if not out else FOLD_OCTETS - 1):
            out.append(current.decode("utf-8"))
            current = b""
        current += octets
    out.append(current.decode("utf-8"))
    return "\r\n ".join(out)


def deadline_event(*, uid: str, sequence: int, deadline: float, stamp: float, summary: str,
                   description: str) -> bytes:
    """The VCALENDAR of one deadline: an event at the deadline's instant (no end: RFC 5545,
    3.6.1, an event with a DATE-TIME start and no end ends where it starts)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "METHOD:PUBLISH", "BEGIN:VEVENT",
             f"UID:{uid}", f"SEQUENCE:{sequence}", f"DTSTAMP:{_utc(stamp)}", f"DTSTART:{_utc(deadline)}",
             f"SUMMARY:{escape(summary)}", f"DESCRIPTION:{escape(description)}", "TRANSP:TRANSPARENT",
             "END:VEVENT", "END:VCALENDAR"]
    return "".join(fold(line) + "\r\n" for line in lines).encode("utf-8")
