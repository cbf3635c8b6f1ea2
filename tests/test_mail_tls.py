"""The judge over TLS against real servers: Dovecot (IMAPS, and IMAP + STARTTLS) and the SMTP
relay (STARTTLS, and implicit TLS), with certificates from a throwaway CA that no system
trusts. With `ca_file` naming that CA a whole tick round trip works; without it, or against a
certificate for another host name, the connection is refused with one line saying what to fix,
and nothing is lost. Needs Dovecot and openssl (skipped without, a failure under CI=true)."""
from __future__ import annotations

import shutil

import pytest

from judge_support import Judge
import mailservers
from mailservers import MailServers, free_port, player_mail, point_judge_at, tick
from pbem.judge.store import Store
from pbem.mail.errors import MailServerError
from pbem.mail.imap import ImapInbox
from pbem.mail.outbox import Outgoing, SmtpSender

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
CA_HINT = ("if the server uses a self-signed certificate or a private CA, set ca_file to that CA "
           "or to the server's certificate (docs/mail.md, Self-signed certificates)")
HOST_HINT = "check host: it must be a name the server's certificate is issued for"


def configure(judge: Judge, servers: MailServers, imap: str, smtp: str, host: str = "127.0.0.1",
              ca_file: str | None = "tls/ca.pem") -> None:
    """The judge's config.toml for the TLS servers; `imap`/`smtp` are the security values and
    `ca_file` is relative to the judge home, as a game master would write it."""
    if ca_file:
        (judge.home.path / "tls").mkdir(exist_ok=True)
        shutil.copy(servers.tls.ca, judge.home.path / "tls" / "ca.pem")
        shutil.copy(servers.tls.cert, judge.home.path / "tls" / "server.pem")
    trust = f'ca_file = "{ca_file}"\n' if ca_file else ""
    point_judge_at(judge, servers, host=host, imap_security=imap, smtp_security=smtp, timeout=5, extra=trust,
                   imap_port=servers.imaps_port if imap == "tls" else servers.imap_port,
                   smtp_port=servers.smtps_port if smtp == "tls" else servers.smtp_port)


def mail_orders(servers: MailServers, judge: Judge) -> None:
    """Each player's mail client sends a bid to the judge (over STARTTLS: the relay wants it)."""
    for player in PLAYERS:
        text = (f"game: g1\nplayer: {player}\nsecret: {judge.secrets['g1'][player]}\n"
                f"phase: round-1/bid\nbid: {PLAYERS.index(player) + 2}\n")
        servers.send(servers.address(player), [servers.address("judge")],
                     player_mail(servers.address(player), servers.address("judge"), "orders", text))


def assert_each_player_got_once(servers: MailServers) -> None:
    """Every player holds exactly one welcome, one acknowledgement ("Re:") and one report."""
    mailservers.assert_each_player_got_once(servers, PLAYERS, "welcome", "ack", "report")


def unsent(judge: Judge) -> int:
    store = Store(judge.home.db_path)
    try:
        return len(store.all("SELECT id FROM outbox WHERE sent_at IS NULL AND failed = 0"))
    finally:
        store.close()


@pytest.mark.parametrize("imap, smtp, host", [
    ("tls", "starttls", "127.0.0.1"),     # IMAPS + SMTP STARTTLS, the certificate's IP address
    ("starttls", "tls", "localhost"),     # IMAP STARTTLS + SMTPS, the certificate's DNS name
])
def test_a_tick_round_trip_over_tls_with_ca_file(tmp_path, tls_mail_servers, imap, smtp, host):
    servers = tls_mail_servers
    judge = Judge(tmp_path / "home")
    configure(judge, servers, imap, smtp, host)
    judge.new_game(players=PLAYERS)
    assert tick(judge) == (0, ["sent: 3, not sent (will retry): 0"])   # the welcomes
    mail_orders(servers, judge)
    code, lines = tick(judge)
    assert code == 0, lines
    assert "mail: 3 x orders accepted" in lines and "resolved g1: round-1/bid" in lines
    assert servers.mailbox("judge") == [] and len(servers.mailbox("judge", "pbem-processed")) == 3
    assert_each_player_got_once(servers)
    # Dovecot logged each of the judge's logins as made over TLS.
    logins = [line for line in servers.log().splitlines() if "Login: user=<judge>" in line]
    assert logins and all(", TLS," in line for line in logins)


def test_without_ca_file_the_certificate_is_refused_and_nothing_is_lost(tmp_path, tls_mail_servers):
    servers = tls_mail_servers
    judge = Judge(tmp_path / "home")
    configure(judge, servers, "tls", "starttls", ca_file=None)   # the system's store only
    judge.new_game(players=PLAYERS)
    mail_orders(servers, judge)
    code, lines = tick(judge)
    assert code == 2
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 2, lines
    imap_error, smtp_error = sorted(errors)
    assert imap_error.startswith(f"error: IMAP server 127.0.0.1:{servers.imaps_port}: cannot connect: "
                                 "certificate refused (")
    assert smtp_error.startswith(f"error: SMTP server 127.0.0.1:{servers.smtp_port}: cannot connect: "
                                 "certificate refused (")
    for error in errors:
        assert "certificate" in error.split("(", 1)[1] and error.endswith(CA_HINT), error
    # Nothing lost: the orders wait in the judge's INBOX, the welcomes in the outbox.
    assert len(servers.mailbox("judge")) == 3
    assert "sent: 0, not sent (will retry): 3" in lines and unsent(judge) == 3
    assert all(servers.mailbox(p) == [] for p in PLAYERS)
    # The game master follows the hint: the next tick catches up, each mail once.
    configure(judge, servers, "tls", "starttls")
    code, lines = tick(judge)
    assert code == 0, lines
    assert "mail: 3 x orders accepted" in lines and "resolved g1: round-1/bid" in lines
    assert_each_player_got_once(servers)
    assert unsent(judge) == 0


def test_ca_file_may_be_the_server_certificate_itself(tls_mail_servers, tmp_path):
    servers = tls_mail_servers
    pinned = dict(ca_file=servers.tls.cert, timeout=5)
    inbox = ImapInbox("127.0.0.1", servers.imaps_port, "judge", servers.password("judge"), security="tls",
                      **pinned)
    assert inbox.fetch(10) == []
    inbox.close()
    sender = SmtpSender("127.0.0.1", servers.smtp_port, security="starttls", **pinned)
    raw = player_mail(servers.address("judge"), servers.address("alice"), "pinned", "x")
    (result,) = sender.send([Outgoing("p", (servers.address("alice"),), raw.replace(b"\n", b"\r\n"))])
    assert result.ok, result.error
    assert len(servers.mailbox("alice")) == 1


@pytest.fixture
def wrong_host_servers(tls_mail_servers):
    """SMTP servers on 127.0.0.1 whose certificate (from the same trusted CA) names only
    elsewhere.pbem.test: one with implicit TLS, one with STARTTLS."""
    from aiosmtpd.controller import Controller

    tls = tls_mail_servers.tls
    implicit = Controller(tls_mail_servers.relay, hostname="127.0.0.1", port=free_port(),
                          ssl_context=tls.server_context(other=True))
    starttls = Controller(tls_mail_servers.relay, hostname="127.0.0.1", port=free_port(),
                          tls_context=tls.server_context(other=True), require_starttls=True)
    implicit.start()
    starttls.start()
    yield implicit.port, starttls.port
    implicit.stop()
    starttls.stop()


def test_a_certificate_for_another_host_name_is_refused(tls_mail_servers, wrong_host_servers):
    servers = tls_mail_servers
    implicit_port, starttls_port = wrong_host_servers
    mismatch = "certificate refused (IP address mismatch, certificate is not valid for '127.0.0.1') - " + HOST_HINT
    # The TLS handshake, where the name is checked, comes before any IMAP word: an implicit-TLS
    # listener with the wrong certificate stands for a wrongly named IMAPS server.
    inbox = ImapInbox("127.0.0.1", implicit_port, "judge", "pw", security="tls", ca_file=servers.tls.ca, timeout=5)
    with pytest.raises(MailServerError) as failure:
        inbox.fetch(1)
    assert str(failure.value) == f"IMAP server 127.0.0.1:{implicit_port}: cannot connect: {mismatch}"
    raw = b"From: judge@pbem.test\r\nSubject: s\r\n\r\nx\r\n"
    for security, port in (("tls", implicit_port), ("starttls", starttls_port)):
        sender = SmtpSender("127.0.0.1", port, security=security, ca_file=servers.tls.ca, timeout=5)
        (result,) = sender.send([Outgoing("w", (servers.address("alice"),), raw)])
        assert (result.ok, result.permanent) == (False, False)   # kept in the outbox for a retry
        assert result.error == f"SMTP server 127.0.0.1:{port}: cannot connect: {mismatch}"
    assert servers.mailbox("alice") == []


def test_imap_starttls_on_the_imaps_port_is_explained():
    inbox = ImapInbox("127.0.0.1", 993, "judge", "pw", security="starttls", timeout=1)
    with pytest.raises(MailServerError, match=r'^IMAP server 127\.0\.0\.1:993: port 993 speaks implicit TLS: '
                                              r'set security = "tls", or use the server\'s STARTTLS port'):
        inbox.fetch(1)


def test_plain_smtp_to_a_server_that_wants_starttls_keeps_the_mail(tls_mail_servers):
    """530 "Must issue a STARTTLS command first" is a config mistake, not a refused mail."""
    servers = tls_mail_servers
    raw = b"From: judge@pbem.test\r\nSubject: s\r\n\r\nx\r\n"
    sender = SmtpSender("127.0.0.1", servers.smtp_port, security="none", timeout=5)
    (result,) = sender.send([Outgoing("n", (servers.address("alice"),), raw)])
    assert (result.ok, result.permanent) == (False, False)
    assert result.error == (f"SMTP server 127.0.0.1:{servers.smtp_port} answered 530 Must issue a STARTTLS "
                            'command first - the server wants TLS: set security = "starttls" (or "tls" on '
                            "its TLS port)")
