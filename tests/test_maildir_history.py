"""The Maildir inbox does not list cur/ — every mail ever processed — on every tick (issue 13:
with 100,000 processed mails an idle tick cost 1.6 times `pbem --help`): it lists cur/ only
when cur/ changed since it was last known to hold no unprocessed mail. Counted by the
listings the inbox makes, not timed."""
from __future__ import annotations

import os

import pytest

from pbem.mail import inbox as inbox_module
from pbem.mail.inbox import CUR_RELIST_SECONDS, CUR_STATE_FILE, MaildirInbox


@pytest.fixture
def listings(monkeypatch):
    """The folders os.scandir was asked to list, by their last name (new, cur)."""
    seen: list[str] = []
    real = os.scandir

    def scandir(path="."):
        seen.append(os.path.basename(os.fspath(path)))
        return real(path)

    monkeypatch.setattr(inbox_module.os, "scandir", scandir)
    return seen


def maildir(tmp_path, history: int = 50):
    path = tmp_path / "in"
    MaildirInbox(path).close()
    for n in range(history):
        (path / "cur" / f"1700000000.H{n}.host:2,S").write_bytes(b"Subject: old\r\n\r\nold\r\n")
    return path


def deliver(path, name: str, sub: str = "new") -> None:
    (path / sub / name).write_bytes(f"Message-ID: <{name}@x>\r\nSubject: s\r\n\r\nbody\r\n".encode())


def tick(path) -> list[str]:
    """What one tick does with the inbox: fetch, mark everything done, close. Returns the keys."""
    inbox = MaildirInbox(path)
    try:
        keys = [f.key for f in inbox.fetch(100)]
        for key in keys:
            inbox.done(key)
        return keys
    finally:
        inbox.close()


def test_an_idle_tick_lists_cur_only_once_and_after_that_new_alone(tmp_path, listings):
    path = maildir(tmp_path)
    assert tick(path) == [] and listings.count("cur") == 1
    listings.clear()
    for _ in range(3):
        assert tick(path) == []
    assert listings.count("cur") == 0 and listings.count("new") == 3


def test_the_judges_own_renames_into_cur_do_not_make_the_next_tick_list_it(tmp_path, listings):
    path = maildir(tmp_path)
    tick(path)
    deliver(path, "m1")
    deliver(path, "m2")
    assert sorted(tick(path)) == ["m1", "m2"]
    listings.clear()
    assert tick(path) == [] and listings.count("cur") == 0
    assert sorted(p.name for p in (path / "cur").iterdir() if p.name.startswith("m")) == ["m1:2,S", "m2:2,S"]


def test_mail_a_mail_program_moved_into_cur_unread_is_still_found(tmp_path, listings):
    path = maildir(tmp_path)
    tick(path)
    deliver(path, "moved:2,", sub="cur")               # opened in a mail client, not marked seen
    # (The delivery changed cur/'s time; set apart here in case it fell in the same tick of the
    # file system's clock as the last listing.)
    os.utime(path / "cur", ns=(1, 1))
    listings.clear()
    assert tick(path) == ["moved"] and listings.count("cur") == 1
    listings.clear()
    assert tick(path) == [] and listings.count("cur") == 1   # it held unprocessed mail: listed once more
    listings.clear()
    assert tick(path) == [] and listings.count("cur") == 0


def test_cur_is_listed_again_after_an_hour_whatever_its_time_says(tmp_path, listings, monkeypatch):
    path = maildir(tmp_path)
    tick(path)
    listings.clear()
    real = inbox_module.time.time
    monkeypatch.setattr(inbox_module.time, "time", lambda: real() + CUR_RELIST_SECONDS + 1)
    tick(path)
    assert listings.count("cur") == 1


def test_a_damaged_or_missing_state_file_only_means_a_listing(tmp_path, listings):
    path = maildir(tmp_path)
    tick(path)
    (path / CUR_STATE_FILE).write_text("garbage", encoding="ascii")
    listings.clear()
    assert tick(path) == [] and listings.count("cur") == 1
    (path / CUR_STATE_FILE).unlink()
    listings.clear()
    assert tick(path) == [] and listings.count("cur") == 1
    listings.clear()
    assert tick(path) == [] and listings.count("cur") == 0


def test_a_mail_moved_away_before_the_judge_marks_it_leaves_cur_to_be_listed(tmp_path, listings):
    path = maildir(tmp_path)
    tick(path)
    deliver(path, "m1")
    inbox = MaildirInbox(path)
    [fetched] = inbox.fetch(10)
    os.replace(path / "new" / "m1", path / "cur" / "m1:2,")    # a mail program moved it, unread
    inbox.done(fetched.key)                                   # the judge's rename finds nothing
    inbox.close()
    listings.clear()
    assert tick(path) == ["m1"] and listings.count("cur") == 1   # read again (the judge: a duplicate)
