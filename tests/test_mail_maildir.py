"""The embedded default: Maildir in (fetch / done / no re-fetch) and Maildir out."""

from __future__ import annotations

import mailbox
import os

from pbem.mail.inbox import MaildirInbox
from pbem.mail.message import parse_mail
from pbem.mail.outgoing import OutMail, compose
from pbem.mail.outbox import MaildirSender, Outgoing


def drop(path, raw: bytes) -> str:
    return mailbox.Maildir(path, create=True).add(raw)


def mail(n: int) -> bytes:
    return f"From: p{n}@example.org\nMessage-ID: <m{n}@example.org>\nSubject: {n}\n\nbody {n}\n".encode()


def test_inbox_creates_folders(tmp_path):
    MaildirInbox(tmp_path / "in")
    assert sorted(p.name for p in (tmp_path / "in").iterdir()) == ["cur", "new", "tmp"]


def test_fetch_done_and_no_refetch(tmp_path):
    keys = [drop(tmp_path / "in", mail(n)) for n in range(3)]
    inbox = MaildirInbox(tmp_path / "in")
    fetched = inbox.fetch(10)
    assert sorted(f.key for f in fetched) == sorted(keys)
    assert {parse_mail(f.raw, []).subject for f in fetched} == {"0", "1", "2"}
    # Fetching changes nothing: until done(), the same mail comes back.
    assert sorted(f.key for f in inbox.fetch(10)) == sorted(keys)
    inbox.done(fetched[0].key)
    inbox.done(fetched[0].key)  # twice is harmless
    assert sorted(f.key for f in inbox.fetch(10)) == sorted(k for k in keys if k != fetched[0].key)
    for f in fetched[1:]:
        inbox.done(f.key)
    assert inbox.fetch(10) == []
    inbox.close()
    # Processed mail sits in cur/ with the S flag; a new inbox object does not see it either.
    assert sorted(n.split(":")[1] for n in os.listdir(tmp_path / "in" / "cur")) == ["2,S"] * 3
    assert MaildirInbox(tmp_path / "in").fetch(10) == []


def test_fetch_limit_and_arrival_order(tmp_path):
    keys = []
    for n in range(5):
        keys.append(drop(tmp_path / "in", mail(n)))
        path = tmp_path / "in" / "new" / keys[-1]
        os.utime(path, (1000 + n, 1000 + n))
    inbox = MaildirInbox(tmp_path / "in")
    assert [f.key for f in inbox.fetch(2)] == keys[:2]
    assert inbox.fetch(0) == []


def test_done_from_a_fresh_inbox_and_unseen_mail_in_cur(tmp_path):
    key = drop(tmp_path / "in", mail(1))
    # A mail client may move mail to cur/ without reading it: it is still unprocessed.
    os.rename(tmp_path / "in" / "new" / key, tmp_path / "in" / "cur" / f"{key}:2,F")
    assert [f.key for f in MaildirInbox(tmp_path / "in").fetch(5)] == [key]
    MaildirInbox(tmp_path / "in").done(key)  # without a fetch first: found by its key
    assert os.listdir(tmp_path / "in" / "cur") == [f"{key}:2,FS"]
    assert MaildirInbox(tmp_path / "in").fetch(5) == []


def test_oversized_mail_is_cut_and_flagged(tmp_path):
    drop(tmp_path / "in", mail(1) + b"x" * 5000)
    (fetched,) = MaildirInbox(tmp_path / "in", max_bytes=1000).fetch(5)
    assert len(fetched.raw) == 1000 and fetched.truncated
    assert parse_mail(fetched.raw, []).subject == "1"


def test_sender_writes_readable_messages(tmp_path):
    raws = [compose(OutMail(to=f"{p}@example.org", subject=f"report for {p}", body=f"Bonjour {p}, voilà.\n"),
                    "judge@pbem.test", "Judge") for p in ("alice", "bob")]
    sender = MaildirSender(tmp_path / "out")
    results = sender.send([Outgoing(f"id{i}", (f"{p}@example.org",), raw)
                           for i, (p, raw) in enumerate(zip(("alice", "bob"), raws, strict=True))])
    assert [(r.id, r.ok, r.error, r.permanent) for r in results] == [("id0", True, "", False),
                                                                      ("id1", True, "", False)]
    box = mailbox.Maildir(tmp_path / "out", create=False)
    messages = sorted((m["To"], m.get_payload(decode=True).decode()) for m in box)
    assert messages == [("alice@example.org", "Bonjour alice, voilà.\n"), ("bob@example.org", "Bonjour bob, voilà.\n")]
    files = [p for p in (tmp_path / "out" / "new").iterdir()]
    assert all(b"\r\n" not in p.read_bytes() for p in files)  # local line endings in a Maildir


def test_sender_per_recipient_mailboxes(tmp_path):
    raw = compose(OutMail(to="alice@example.org", subject="s", body="b"), "judge@pbem.test", "Judge")
    sender = MaildirSender(tmp_path / "out", per_recipient=True)
    (result,) = sender.send([Outgoing("x", ("Alice@Example.org",), raw)])
    assert result.ok
    assert sender.mailbox_of("Alice@Example.org") == tmp_path / "out" / "alice@example.org"
    assert len(mailbox.Maildir(tmp_path / "out" / "alice@example.org", create=False)) == 1


def test_sender_failure_is_a_result_not_an_exception(tmp_path):
    sender = MaildirSender(tmp_path / "out")
    (tmp_path / "out" / "tmp").rmdir()
    (tmp_path / "out" / "tmp").write_text("not a folder")
    (result,) = sender.send([Outgoing("x", ("a@example.org",), b"Subject: s\r\n\r\nb\r\n")])
    assert not result.ok and not result.permanent and "cannot write" in result.error


def test_a_mail_written_again_replaces_its_own_file(tmp_path):
    """A mail written but not yet recorded as sent when the judge died is written again by the
    next tick: its file name comes from its outbox id, so it replaces itself, once delivered."""
    raw = compose(OutMail(to="alice@example.org", subject="s", body="b"), "judge@pbem.test", "Judge")
    for per_recipient in (False, True):
        sender = MaildirSender(tmp_path / f"out{per_recipient}", per_recipient=per_recipient)
        for _ in range(3):
            batch = [Outgoing(f"<r.{n}@pbem.test>", ("alice@example.org",), raw) for n in (1, 2)]
            assert [r.ok for r in sender.send(batch)] == [True, True]
        box = sender.mailbox_of("alice@example.org")
        assert len(list((box / "new").iterdir())) == 2 and not list((box / "tmp").iterdir())


def test_a_batch_is_on_disk_before_the_judge_hears_it_was_delivered(tmp_path, monkeypatch):
    """Every file of a batch, and the folder that names it, is flushed before the first result
    is reported (the judge marks a mail sent on its result): one flush a file and one a folder,
    not one a mail and its wait in turn."""
    import pbem.mail.outbox as outbox
    log: list[str] = []
    real = os.fsync
    monkeypatch.setattr(outbox.os, "fsync", lambda fd: log.append(os.readlink(f"/proc/self/fd/{fd}")) or real(fd))
    sender = MaildirSender(tmp_path / "out", per_recipient=True)
    batch = [Outgoing(f"<r.{n}@pbem.test>", (f"p{n % 3}@example.org",), b"Subject: s\r\n\r\nb\r\n") for n in range(9)]

    def heard(result):
        assert result.ok
        files = {p.name for p in (tmp_path / "out").glob("*/new/*")}
        log.append(f"result {result.id} {len(files)}")

    sender.send(batch, on_result=heard)
    flushes = [entry for entry in log if not entry.startswith("result")]
    assert log[:len(flushes)] == flushes and len(log) == len(flushes) + 9   # every flush before any result
    assert all(entry.endswith(" 9") for entry in log[len(flushes):])         # every file in new/ by then
    assert sum(f.rpartition("/")[0].endswith("/tmp") for f in flushes) == 9
    assert sorted(f.rpartition("/")[2] for f in flushes if f.endswith("/new")) == ["new"] * 3
