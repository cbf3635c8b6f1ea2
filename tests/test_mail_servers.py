"""The mail layer against real servers: Dovecot over IMAP, aiosmtpd + LMTP over SMTP."""

from __future__ import annotations

import pytest

from mailservers import MailServers, player_mail
from pbem.mail.errors import MailServerError
from pbem.mail.imap import ImapInbox
from pbem.mail.message import parse_mail
from pbem.mail.outgoing import OutMail, compose
from pbem.mail.outbox import Outgoing, SmtpSender

pytestmark = pytest.mark.e2e


def judge_inbox(servers: MailServers, **options) -> ImapInbox:
    settings = dict(security="none", processed_folder="Processed", timeout=5)
    settings.update(options)
    return ImapInbox(servers.imap_host, servers.imap_port, "judge", servers.password("judge"), **settings)


def smtp_sender(servers: MailServers, **options) -> SmtpSender:
    settings = dict(security="none", timeout=5, concurrency=3)
    settings.update(options)
    return SmtpSender(servers.smtp_host, servers.smtp_port, **settings)


def send_orders(servers: MailServers, players: list[str]) -> None:
    judge = servers.address("judge")
    for player in players:
        servers.send(servers.address(player), [judge],
                     player_mail(servers.address(player), judge, f"orders from {player}", f"player: {player}\n"))


def test_imap_inbox_fetch_done_and_nothing_left(mail_servers):
    send_orders(mail_servers, ["alice", "bob", "carol"])
    inbox = judge_inbox(mail_servers)
    try:
        fetched = inbox.fetch(10)
        mails = [parse_mail(f.raw, [mail_servers.address("judge")]) for f in fetched]
        assert sorted(m.from_addr for m in mails) == [mail_servers.address(p) for p in ("alice", "bob", "carol")]
        assert all(m.auto is None and m.text.startswith("player: ") for m in mails)
        assert not any(f.truncated for f in fetched)
        # Fetching alone changes nothing on the server.
        assert [f.key for f in inbox.fetch(10)] == [f.key for f in fetched]
        for f in fetched:
            inbox.done(f.key)
        assert inbox.fetch(10) == []
    finally:
        inbox.close()
    assert mail_servers.mailbox("judge") == []
    assert len(mail_servers.mailbox("judge", "Processed")) == 3
    # A new connection (the next tick) finds nothing either.
    again = judge_inbox(mail_servers)
    assert again.fetch(10) == []
    again.close()


def test_imap_without_processed_folder_uses_seen_flag(mail_servers):
    send_orders(mail_servers, ["alice", "bob"])
    inbox = judge_inbox(mail_servers, processed_folder=None)
    first = inbox.fetch(1)
    assert len(first) == 1
    inbox.done(first[0].key)
    inbox.close()
    inbox = judge_inbox(mail_servers, processed_folder=None)
    rest = inbox.fetch(10)
    assert len(rest) == 1 and rest[0].key != first[0].key
    inbox.close()
    assert len(mail_servers.mailbox("judge")) == 2  # flagged, not moved


def test_imap_partial_fetch_of_a_huge_mail(mail_servers):
    judge = mail_servers.address("judge")
    raw = player_mail(mail_servers.address("dave"), judge, "big", ("x" * 70 + "\n") * 3000)
    mail_servers.send(mail_servers.address("dave"), [judge], raw)
    inbox = judge_inbox(mail_servers, max_bytes=10_000)
    (fetched,) = inbox.fetch(5)
    inbox.close()
    assert fetched.truncated and len(fetched.raw) == 10_000
    assert parse_mail(fetched.raw, [judge]).subject == "big"


def test_smtp_sender_delivers_each_player_their_own_mail(mail_servers):
    judge = mail_servers.address("judge")
    players = ["alice", "bob", "carol"]
    batch = []
    for player in players:
        out = OutMail(to=mail_servers.address(player), subject=f"report for {player}",
                      body=f"secret position of {player}\n")
        batch.append(Outgoing(f"out-{player}", (mail_servers.address(player),), compose(out, judge, "Judge")))
    # Each delivery waits at the server until the three are there: sent one after the other,
    # the first would wait alone, and time out.
    mail_servers.relay.gather = 3
    results = smtp_sender(mail_servers, concurrency=3).send(batch)
    assert mail_servers.relay.most_at_once == 3  # they went out at the same time
    assert [(r.id, r.ok, r.error) for r in results] == [(f"out-{p}", True, "") for p in players]
    for player in players:
        (raw,) = mail_servers.mailbox(player)
        mail = parse_mail(raw, [])
        assert mail.subject == f"report for {player}"
        assert mail.text == f"secret position of {player}\n"
        assert b"Return-Path: <judge@pbem.test>" in raw  # the envelope sender came from From
    assert mail_servers.mailbox("dave") == []


def test_smtp_tells_permanent_from_temporary_refusals(mail_servers):
    judge = mail_servers.address("judge")
    raw = compose(OutMail(to="nobody@pbem.test", subject="s", body="b"), judge, "Judge")
    (unknown,) = smtp_sender(mail_servers).send([Outgoing("u", ("nobody@pbem.test",), raw)])
    assert not unknown.ok and unknown.permanent and "550" in unknown.error

    to_alice = compose(OutMail(to=mail_servers.address("alice"), subject="s", body="b"), judge, "Judge")
    mail_servers.relay.forced_reply = "451 4.3.0 try again later"
    (busy,) = smtp_sender(mail_servers).send([Outgoing("b", (mail_servers.address("alice"),), to_alice)])
    assert not busy.ok and not busy.permanent and "451" in busy.error
    mail_servers.relay.forced_reply = "554 5.7.1 rejected as spam"
    (spam,) = smtp_sender(mail_servers).send([Outgoing("s", (mail_servers.address("alice"),), to_alice)])
    assert not spam.ok and spam.permanent and "554" in spam.error
    mail_servers.relay.forced_reply = None
    # After refusals the connection is replaced, and the next message still goes through.
    results = smtp_sender(mail_servers, concurrency=1).send(
        [Outgoing("x", ("nobody@pbem.test",), raw), Outgoing("y", (mail_servers.address("alice"),), to_alice)])
    assert [(r.ok, r.permanent) for r in results] == [(False, True), (True, False)]
    assert len(mail_servers.mailbox("alice")) == 1


def test_imap_down_is_one_line_error_then_recovers(mail_servers):
    send_orders(mail_servers, ["alice"])
    mail_servers.stop_dovecot()
    inbox = judge_inbox(mail_servers, timeout=2)
    with pytest.raises(MailServerError) as failure:
        inbox.fetch(10)
    message = str(failure.value)
    assert "\n" not in message
    assert message.startswith(f"IMAP server 127.0.0.1:{mail_servers.imap_port}: cannot connect: connection refused")
    mail_servers.start_dovecot()
    (fetched,) = inbox.fetch(10)  # the next tick: nothing was lost
    inbox.done(fetched.key)
    inbox.close()


def test_imap_bad_password_and_missing_folder(mail_servers):
    wrong = ImapInbox(mail_servers.imap_host, mail_servers.imap_port, "judge", "wrong", security="none", timeout=5)
    with pytest.raises(MailServerError, match=r"^IMAP server .*: cannot log in as judge: login refused - "
                                              r"check user and password \(server said: NO \[AUTHENTICATIONFAILED\]"):
        wrong.fetch(1)
    missing = judge_inbox(mail_servers, folder="Orders")
    with pytest.raises(MailServerError, match=r"cannot open folder 'Orders' \(does it exist\?\)"):
        missing.fetch(1)


def test_imap_dropped_connection_reconnects_on_next_call(mail_servers):
    send_orders(mail_servers, ["bob"])
    inbox = judge_inbox(mail_servers)
    (fetched,) = inbox.fetch(10)
    inbox._box.client.shutdown()  # the server (or a NAT box) drops the idle connection
    inbox.done(fetched.key)  # one fresh try inside done()
    assert inbox.fetch(10) == []
    inbox.close()


def test_smtp_down_is_temporary_for_every_message_then_retry_succeeds(mail_servers, monkeypatch):
    judge = mail_servers.address("judge")
    batch = [Outgoing(f"o{i}", (mail_servers.address(p),),
                      compose(OutMail(to=mail_servers.address(p), subject=f"r{i}", body="b"), judge, "Judge"))
             for i, p in enumerate(["alice", "bob", "carol", "dave", "alice"])]
    mail_servers.stop_smtp()
    opened, real_open = [], SmtpSender._open

    async def counted_open(self):
        opened.append(1)
        return await real_open(self)
    monkeypatch.setattr(SmtpSender, "_open", counted_open)
    results = smtp_sender(mail_servers, timeout=3).send(batch)
    assert len(opened) == 3  # one failed connect per worker, not one per message
    assert [(r.id, r.ok, r.permanent) for r in results] == [(o.id, False, False) for o in batch]
    assert all(r.error.startswith(f"SMTP server 127.0.0.1:{mail_servers.smtp_port}: cannot connect: "
                                  "connection refused") for r in results)
    assert all("\n" not in r.error for r in results)
    mail_servers.start_smtp()
    retry = smtp_sender(mail_servers).send(batch)
    assert all(r.ok for r in retry)
    assert [len(mail_servers.mailbox(p)) for p in ("alice", "bob", "carol", "dave")] == [2, 1, 1, 1]


def test_smtp_bad_login_is_temporary(mail_servers):
    # The test server offers no AUTH: asking to log in fails before any message is sent.
    raw = compose(OutMail(to=mail_servers.address("alice"), subject="s", body="b"),
                  mail_servers.address("judge"), "Judge")
    (result,) = smtp_sender(mail_servers, user="judge", password="x").send(
        [Outgoing("a", (mail_servers.address("alice"),), raw)])
    assert not result.ok and not result.permanent
    assert result.error.startswith(f"SMTP server 127.0.0.1:{mail_servers.smtp_port}: ")
    assert mail_servers.mailbox("alice") == []


def test_security_mismatch_is_explained(mail_servers):
    # The test servers speak no TLS: asking for it must say what to check, in one line.
    for security in ("tls", "starttls"):
        inbox = ImapInbox(mail_servers.imap_host, mail_servers.imap_port, "judge",
                          mail_servers.password("judge"), security=security, timeout=5)
        with pytest.raises(MailServerError, match=r"^IMAP server .*: cannot connect: .*"
                                                  r" - check security: tls/starttls and the port$"):
            inbox.fetch(1)
        (result,) = smtp_sender(mail_servers, security=security).send(
            [Outgoing("t", (mail_servers.address("alice"),), b"From: judge@pbem.test\r\n\r\nx\r\n")])
        assert not result.ok and not result.permanent
        assert result.error.endswith(" - check security: tls/starttls and the port")


def test_smtp_connection_dropped_after_data_is_temporary(mail_servers):
    judge = mail_servers.address("judge")
    batch = [Outgoing(f"d{i}", (mail_servers.address("bob"),),
                      compose(OutMail(to=mail_servers.address("bob"), subject=f"d{i}", body="b"), judge, "Judge"))
             for i in range(2)]
    mail_servers.relay.drop = True
    results = smtp_sender(mail_servers, concurrency=1).send(batch)
    assert [(r.ok, r.permanent) for r in results] == [(False, False), (False, False)]
    assert all("\n" not in r.error and r.error.startswith("SMTP server ") for r in results)
    mail_servers.relay.drop = False
    assert all(r.ok for r in smtp_sender(mail_servers).send(batch))
    assert len(mail_servers.mailbox("bob")) == 2


def test_imap_delete_processed_expunges_that_mail_only(mail_servers):
    """processed = "delete" (docs/security.md, "Processed mail"): a processed mail, which
    carries its sender's secret in clear, is expunged by its UID (UID EXPUNGE), never with a
    plain EXPUNGE that would also remove mail someone else flagged \\Deleted."""
    import imaplib
    send_orders(mail_servers, ["alice", "bob", "carol"])
    other = imaplib.IMAP4(mail_servers.imap_host, mail_servers.imap_port, timeout=10)
    other.login("judge", mail_servers.password("judge"))
    other.select("INBOX")
    _, found = other.uid("SEARCH", None, "FROM", mail_servers.address("carol"))
    other.uid("STORE", found[0].split()[0], "+FLAGS", "(\\Deleted)")   # flagged by someone else
    other.logout()
    inbox = judge_inbox(mail_servers, processed_folder=None, delete_processed=True)
    try:
        fetched = inbox.fetch(10)
        senders = sorted(parse_mail(f.raw, []).from_addr for f in fetched)
        assert senders == [mail_servers.address("alice"), mail_servers.address("bob")]  # not the flagged one
        for f in fetched:
            inbox.done(f.key)
        assert inbox.fetch(10) == []
    finally:
        inbox.close()
    left = [parse_mail(raw, []).from_addr for raw in mail_servers.mailbox("judge")]
    assert left == [mail_servers.address("carol")]
    assert mail_servers.mailbox("judge", "Processed") == []


def test_a_tick_deletes_processed_mail_on_the_imap_server_and_keeps_it_when_asked(tmp_path, mail_servers):
    from judge_support import Judge
    from mailservers import point_judge_at
    from pbem.judge.home import load_home
    for mode, setting in (("delete", 'processed = "delete"'), ("keep", 'processed = "keep"')):
        mail_servers.reset()
        judge = Judge(tmp_path / mode)
        point_judge_at(judge, mail_servers)
        config = judge.home.path / "config.toml"
        config.write_text(config.read_text().replace('processed_folder = "pbem-processed"', setting))
        judge.home = load_home(judge.home.path)
        judge.new_game()
        assert not judge.tick().errors
        judge_address = mail_servers.address("judge")
        for p in ("alice", "bob", "carol"):
            text = f"game: g1\nplayer: {p}\nsecret: {judge.secrets['g1'][p]}\nphase: round-1/bid\nbid: 2\n"
            mail_servers.send(mail_servers.address(p), [judge_address],
                              player_mail(mail_servers.address(p), judge_address, "orders", text))
        report = judge.tick()
        assert report.mails == {"orders accepted": 3} and not report.errors, report.lines()
        left = mail_servers.mailbox("judge")
        assert mail_servers.mailbox("judge", "pbem-processed") == []
        if mode == "delete":
            assert left == []
        else:   # kept in the INBOX, marked \Seen: a second tick reads nothing
            assert len(left) == 3 and judge.secrets["g1"]["alice"].encode() in b"".join(left)
            assert judge.tick().mails == {}


def test_an_imap_home_from_before_processed_existed_deletes_the_mail_it_had_marked_seen(tmp_path, mail_servers):
    """A home whose config.toml predates `processed` and names no processed_folder marked
    processed mail \\Seen. Its default is now "delete": the next tick reads that mail again,
    recognises each by its Message-ID (no second answer) and deletes it (docs/security.md)."""
    from judge_support import Judge
    from mailservers import point_judge_at
    from pbem.judge.home import load_home
    judge = Judge(tmp_path / "home")
    point_judge_at(judge, mail_servers)
    config = judge.home.path / "config.toml"
    before = config.read_text()
    config.write_text(before.replace('processed_folder = "pbem-processed"', 'processed = "keep"'))
    judge.home = load_home(judge.home.path)
    judge.new_game()
    assert not judge.tick().errors
    judge_address = mail_servers.address("judge")
    for p in ("alice", "bob"):
        text = f"game: g1\nplayer: {p}\nsecret: {judge.secrets['g1'][p]}\nphase: round-1/bid\nbid: 2\n"
        mail_servers.send(mail_servers.address(p), [judge_address],
                          player_mail(mail_servers.address(p), judge_address, "orders", text))
    assert judge.tick().mails == {"orders accepted": 2}
    assert len(mail_servers.mailbox("judge")) == 2            # kept, flagged \\Seen: the old way
    config.write_text(before.replace('processed_folder = "pbem-processed"\n', ""))   # the old config
    judge.home = load_home(judge.home.path)
    answers = len(mail_servers.mailbox("alice"))
    report = judge.tick()
    assert report.mails == {"duplicate": 2} and not report.errors, report.lines()
    assert mail_servers.mailbox("judge") == [] and len(mail_servers.mailbox("alice")) == answers
