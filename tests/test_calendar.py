"""The next deadline as an .ics attachment (issue 15; pbem/judge/calendar.py): read back with
the maintained `icalendar` package, an RFC 5545 implementation independent of the judge's."""
from __future__ import annotations

import datetime

import icalendar
import pytest
from click.testing import CliRunner

from judge_support import Judge
from pbem.cli import main
from pbem.judge.calendar import deadline_event, fold


def event_of(data: bytes):
    calendar = icalendar.Calendar.from_ical(data)
    events = [c for c in calendar.walk() if c.name == "VEVENT"]
    assert len(events) == 1 and calendar["METHOD"] == "PUBLISH"
    return events[0]


def test_what_the_judge_writes_reads_back_whole_escapes_and_folds_included():
    summary = "[loire] orders due: round-2/movement; Mouvement, « déplacez » vos seigneurs \\ " + "é" * 80
    description = "line one, with; everything\nline two " + "x" * 200
    data = deadline_event(uid="deadline.loire.7@pbem.test", sequence=4, deadline=1_800_000_000,
                          stamp=1_799_990_000, summary=summary, description=description)
    event = event_of(data)
    assert str(event["UID"]) == "deadline.loire.7@pbem.test" and int(event["SEQUENCE"]) == 4
    assert event.decoded("DTSTART") == datetime.datetime(2027, 1, 15, 8, 0, tzinfo=datetime.timezone.utc)
    assert str(event["SUMMARY"]) == summary and str(event["DESCRIPTION"]) == description
    for line in data.split(b"\r\n"):
        assert len(line) <= 75
    assert data.endswith(b"END:VCALENDAR\r\n")


@pytest.mark.parametrize("text", ["a" * 200, "é" * 100, "x" * 74 + "€" * 3])
def test_folding_never_splits_a_character_and_unfolds_to_the_line(text):
    folded = fold(text).encode("utf-8")
    assert all(len(line) <= 75 for line in folded.split(b"\r\n"))
    assert folded.decode("utf-8").replace("\r\n ", "") == text


def ics_of(mail):
    parts = [p for p in mail.walk() if p.get_content_type() == "text/calendar"]
    assert len(parts) == 1 and parts[0].get_filename() == "deadline-g1.ics"
    return event_of(parts[0].get_content().encode("utf-8"))


def test_each_deadline_travels_as_an_event_whose_sequence_grows_when_it_moves(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game(gm_email="gm@pbem.test")
    judge.tick()
    welcome = ics_of(judge.sent_to("alice@pbem.test")[0])
    uid, first = str(welcome["UID"]), int(welcome["SEQUENCE"])
    assert welcome.decoded("DTSTART").timestamp() == judge.now + 48 * 3600
    result = CliRunner().invoke(main, ["game", "extend", "g1", "--hours", "24", "--home", str(judge.home.path)])
    assert result.exit_code == 0, result.output
    judge.tick()
    moved = ics_of(judge.sent_to("alice@pbem.test")[-1])
    assert str(moved["UID"]) == uid and int(moved["SEQUENCE"]) > first
    assert moved.decoded("DTSTART").timestamp() == judge.now + 72 * 3600
    for p in ("alice", "bob", "carol"):
        judge.orders("g1", p, "round-1/bid", "bid: 2\n")
    judge.tick()
    report = next(m for m in judge.sent_to("bob@pbem.test") if "resolved" in str(m["Subject"]))
    following = ics_of(report)
    assert str(following["UID"]) != uid and int(following["SEQUENCE"]) > int(moved["SEQUENCE"])
    assert following.decoded("DTSTART").timestamp() == judge.now + 48 * 3600
    assert "round-2/bid" in str(following["SUMMARY"])


def test_a_paused_game_mails_no_calendar(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game()
    assert CliRunner().invoke(main, ["game", "pause", "g1", "--home", str(judge.home.path)]).exit_code == 0
    judge.tick()
    notice = judge.sent_to("alice@pbem.test")[-1]
    assert "paused" in str(notice["Subject"])
    assert not [p for p in notice.walk() if p.get_content_type() == "text/calendar"]
