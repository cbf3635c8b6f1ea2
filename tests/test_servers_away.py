"""Servers away (issue 3): the real Dovecot and SMTP relay of the end-to-end tests, stopped,
slowed, dropping connections and refusing mail, while `pbem tick` runs through the CLI.

Each time: the tick fails cleanly (one `error:` line per problem, exit status 2, no traceback),
nothing is lost, and the next tick, with the servers back, catches up: every order read once,
every mail the server accepted delivered exactly once. A mail refused for good (5xx) is marked
failed, never retried, and told to the game master.
"""
from __future__ import annotations

import email
import email.policy
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from judge_support import Judge
import mailservers
from mailservers import player_mail, point_judge_at, subjects, tick
from pbem.cli import main
from pbem.judge.store import Store
from pbem.mail.imap import ImapInbox

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")


def configure(judge: Judge, servers, imap_port: int | None = None, timeout: float = 2) -> None:
    point_judge_at(judge, servers, imap_port=imap_port, timeout=timeout)


@pytest.fixture
def judge(tmp_path, mail_servers):
    judge = Judge(tmp_path / "home")
    configure(judge, mail_servers)
    # dave is the game master: he hears about mail that could not be delivered.
    judge.new_game(players=PLAYERS, gm_email=mail_servers.address("dave"), options={"target": 9})
    return judge


def tick_killed_at(judge: Judge, fault: str) -> None:
    """A tick in a fresh interpreter that kills itself with SIGKILL at ``fault`` (PBEM_FAULT,
    pbem/judge/faults.py). A new process rather than a fork: the SMTP relay runs in a thread of
    this one."""
    tests = Path(__file__).resolve().parent
    child = ("import sys; sys.path[:0] = [sys.argv[2], sys.argv[3]]\nimport judge_support\n"
             "from pathlib import Path\nfrom pbem.judge.home import load_home\nfrom pbem.judge.tick import run_tick\n"
             "run_tick(load_home(Path(sys.argv[1])))\n")
    done = subprocess.run([sys.executable, "-c", child, str(judge.home.path), str(tests), str(tests.parent)],
                          env=dict(os.environ, PBEM_FAULT=fault), capture_output=True, timeout=60)
    assert done.returncode == -9, done.stderr


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("error: ")]


def mail_orders(servers, judge: Judge, phase: str = "round-1/bid") -> None:
    for player in PLAYERS:
        text = (f"game: g1\nplayer: {player}\nsecret: {judge.secrets['g1'][player]}\n"
                f"phase: {phase}\nbid: 4\n")
        servers.send(servers.address(player), [servers.address("judge")],
                     player_mail(servers.address(player), servers.address("judge"), "orders", text))


def assert_each_player_got_once(servers, *kinds: str) -> None:
    mailservers.assert_each_player_got_once(servers, PLAYERS, *kinds)


def outbox_rows(judge: Judge) -> list:
    store = Store(judge.home.db_path)
    try:
        return store.all("SELECT recipient, purpose, attempts, sent_at, failed, last_error FROM outbox ORDER BY id")
    finally:
        store.close()


def test_imap_down_then_back(judge, mail_servers):
    servers = mail_servers
    assert tick(judge)[0] == 0                                   # welcomes delivered
    mail_orders(servers, judge)
    servers.stop_dovecot()
    code, lines = tick(judge)
    # Dovecot is also where the relay delivers: the judge's own mail waits too (451, retried).
    assert code == 2
    assert f"error: IMAP server {servers.imap_host}:{servers.imap_port}: cannot connect: connection refused " \
           "(is the server running, and is the port right?)" in lines
    assert len(errors(lines)) == 1
    servers.start_dovecot()
    code, lines = tick(judge)
    assert code == 0, lines
    assert "mail: 3 x orders accepted" in lines and "resolved g1: round-1/bid" in lines
    assert_each_player_got_once(servers, "welcome", "ack", "report")


def test_smtp_down_then_back(judge, mail_servers):
    servers = mail_servers
    servers.stop_smtp()
    code, lines = tick(judge)
    assert code == 2
    assert errors(lines) == [f"error: SMTP server {servers.smtp_host}:{servers.smtp_port}: cannot connect: "
                             "connection refused (is the server running, and is the port right?)"]
    assert "sent: 0, not sent (will retry): 4" not in lines  # three welcomes only
    assert "sent: 0, not sent (will retry): 3" in lines
    servers.start_smtp()
    mail_orders(servers, judge)
    servers.stop_smtp()
    code, lines = tick(judge)                                    # orders read; answers wait
    assert code == 2 and "mail: 3 x orders accepted" in lines
    servers.start_smtp()
    code, lines = tick(judge)
    assert code == 0 and lines == ["sent: 10, not sent (will retry): 0"]   # 3 welcomes, 3 acks, 4 reports
    assert_each_player_got_once(servers, "welcome", "ack", "report")
    assert sum("resolved" in s for s in subjects(servers, "dave")) == 1


def test_smtp_slower_than_the_timeout(judge, mail_servers):
    servers = mail_servers
    servers.relay.delay = 3.0                                    # the judge waits 2 s
    code, lines = tick(judge)
    assert code == 2
    assert errors(lines) == [f"error: SMTP server {servers.smtp_host}:{servers.smtp_port}: timed out"]
    assert servers.relay.data_commands == 3   # each mail tried once, then left for the next tick
    time.sleep(1.5)   # let the relay finish whatever it was still doing
    servers.relay.delay = 0
    code, lines = tick(judge)
    assert code == 0, lines
    # The relay never answered, so it never delivered: exactly one welcome each.
    assert_each_player_got_once(servers, "welcome")


def test_smtp_dropping_the_connection_mid_transfer(judge, mail_servers):
    servers = mail_servers
    servers.relay.drop = True                                    # the whole mail sent, no reply
    code, lines = tick(judge)
    assert code == 2
    assert errors(lines) == [f"error: SMTP server {servers.smtp_host}:{servers.smtp_port}: "
                             "the server dropped the connection"]
    assert all(r["sent_at"] is None and not r["failed"] for r in outbox_rows(judge))
    servers.relay.drop = False
    assert tick(judge)[0] == 0
    assert_each_player_got_once(servers, "welcome")


def test_smtp_4xx_is_retried_until_accepted(judge, mail_servers):
    servers = mail_servers
    servers.relay.forced_reply = "451 4.3.0 mailbox busy, try later"
    for _ in range(2):
        code, lines = tick(judge)
        assert code == 2
        assert errors(lines) == [f"error: SMTP server {servers.smtp_host}:{servers.smtp_port} answered "
                                 "451 4.3.0 mailbox busy, try later"]
    assert [r["attempts"] for r in outbox_rows(judge)] == [2, 2, 2]
    servers.relay.forced_reply = None
    assert tick(judge) == (0, ["sent: 3, not sent (will retry): 0"])
    assert_each_player_got_once(servers, "welcome")


def test_a_5xx_refusal_is_final_and_the_game_master_is_told(tmp_path, mail_servers):
    servers = mail_servers
    judge = Judge(tmp_path / "home")
    configure(judge, servers)
    # ghost has no mailbox on the server: RCPT is refused with 550 5.1.1.
    judge.new_game(players=("alice", "ghost"), gm_email=servers.address("dave"))
    code, lines = tick(judge)
    assert code == 2
    assert errors(lines) == [f"error: SMTP server {servers.smtp_host}:{servers.smtp_port} refused "
                             "ghost@pbem.test: 550 5.1.1 no such user here"]
    assert "sent: 1, not sent (will retry): 0, refused for good (game master told): 1" in lines
    ghost = next(r for r in outbox_rows(judge) if r["recipient"] == "ghost@pbem.test")
    assert ghost["failed"] == 1 and ghost["attempts"] == 1 and "550 5.1.1" in ghost["last_error"]
    # The notice goes out with the next tick's sending (it was queued as the refusal came in).
    assert tick(judge) == (0, ["sent: 1, not sent (will retry): 0"])
    notices = [email.message_from_bytes(raw, policy=email.policy.default) for raw in servers.mailbox("dave")]
    assert [str(m["Subject"]) for m in notices] == ["[g1] Undeliverable: welcome to ghost@pbem.test"]
    text = notices[0].get_body(("plain",)).get_content()
    assert "550 5.1.1 no such user here" in text and "pbem game set-address g1" in text
    # Never retried: later ticks have nothing to do.
    assert tick(judge) == (0, ["nothing to do"])
    assert next(r for r in outbox_rows(judge) if r["recipient"] == "ghost@pbem.test")["attempts"] == 1
    # The operator sees it too, without the mail itself (a welcome carries a secret).
    listed = CliRunner().invoke(main, ["outbox", "--home", str(judge.home.path)])
    assert listed.exit_code == 0
    assert listed.output == ("REFUSED\tg1\twelcome\tghost@pbem.test\ttries 1\tSMTP server "
                             f"{servers.smtp_host}:{servers.smtp_port} refused ghost@pbem.test: "
                             "550 5.1.1 no such user here\n")


def test_a_5xx_on_everything_does_not_loop(judge, mail_servers):
    servers = mail_servers
    servers.relay.forced_reply = "554 5.7.1 rejected as spam"
    code, lines = tick(judge)
    assert code == 2 and "sent: 0, not sent (will retry): 0, refused for good (game master told): 3" in lines
    # The three notices to the game master are refused too; a refused notice makes no notice.
    code, lines = tick(judge)
    assert code == 2 and "sent: 0, not sent (will retry): 0, refused for good (game master told): 3" in lines
    assert tick(judge) == (0, ["nothing to do"])
    rows = outbox_rows(judge)
    assert len(rows) == 6 and all(r["failed"] == 1 and r["attempts"] == 1 for r in rows)


def test_imap_dropping_the_connection_after_the_commit(judge, mail_servers, monkeypatch):
    """Dovecot dies after the judge committed a mail, before it could move it to the processed
    folder: the mail is read again next tick and recognised, never answered twice."""
    servers = mail_servers
    assert tick(judge)[0] == 0
    mail_orders(servers, judge)
    real_done = ImapInbox.done_all

    def dying_done(self, keys):
        # The server goes away and takes the open session with it (stopping Dovecot alone
        # leaves running sessions alive).
        servers.stop_dovecot()
        if self._box is not None:
            self._box.client.sock.shutdown(socket.SHUT_RDWR)
        return real_done(self, keys)
    monkeypatch.setattr(ImapInbox, "done_all", dying_done)
    code, lines = tick(judge)
    assert code == 2
    # The three mails are committed together (docs/reliability.md), then the server dies as the
    # group is moved: all three are read again next tick, and recognised.
    assert "mail: 3 x orders accepted" in lines
    assert any(f"IMAP server {servers.imap_host}:{servers.imap_port}: cannot " in e for e in errors(lines))
    monkeypatch.setattr(ImapInbox, "done_all", real_done)
    servers.start_dovecot()
    code, lines = tick(judge)
    assert code == 0, lines
    assert "mail: 3 x duplicate" in lines and not any("orders accepted" in line for line in lines)
    assert servers.mailbox("judge") == [] and len(servers.mailbox("judge", "pbem-processed")) == 3
    assert_each_player_got_once(servers, "welcome", "ack", "report")


class SilentServer(NamedTuple):
    port: int
    held: list  # the connections it accepted


@pytest.fixture
def silent_server():
    """A server that accepts connections and never says a word (an IMAP server hung)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held, stop = [], threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield SilentServer(listener.getsockname()[1], held)
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def test_imap_hung_times_out_and_the_rest_of_the_tick_goes_on(judge, mail_servers, silent_server):
    servers = mail_servers
    configure(judge, servers, imap_port=silent_server.port, timeout=1)
    code, lines = tick(judge)
    assert code == 2
    assert errors(lines) == [f"error: IMAP server {servers.imap_host}:{silent_server.port}: cannot connect: timed out"]
    assert "sent: 3, not sent (will retry): 0" in lines         # sending did not wait on reading
    assert len(silent_server.held) == 1        # one connection tried, given up after its timeout
    configure(judge, servers)
    mail_orders(servers, judge)
    code, lines = tick(judge)
    assert code == 0 and "mail: 3 x orders accepted" in lines
    assert_each_player_got_once(servers, "welcome", "ack", "report")


def test_a_mail_refused_for_days_with_4xx_is_given_up_and_the_game_master_told(judge, mail_servers):
    from pbem.judge.tick import GIVE_UP_ATTEMPTS, run_tick
    servers = mail_servers
    servers.relay.forced_reply = "451 4.3.0 mailbox busy, try later"
    for _ in range(GIVE_UP_ATTEMPTS - 1):
        assert run_tick(judge.home, now=time.time() + 3600).send_failed == 3
    assert all(not r["failed"] for r in outbox_rows(judge))          # an hour: still retried
    # A week later, but one more try short: a judge that was off is not a server refusing.
    report = run_tick(judge.home, now=time.time() + 6 * 86400)
    assert report.undeliverable == 3
    rows = outbox_rows(judge)
    assert all(r["failed"] == 1 and r["attempts"] == GIVE_UP_ATTEMPTS
               and r["last_error"].startswith("given up after 5 days of retries: ") for r in rows[:3])
    servers.relay.forced_reply = None
    assert tick(judge) == (0, ["sent: 3, not sent (will retry): 0"])  # the three notices
    assert sum("Undeliverable" in s for s in subjects(servers, "dave")) == 3
    assert all(subjects(servers, p) == [] for p in PLAYERS)


def test_a_judge_off_for_a_week_does_not_give_up_on_its_first_retry(judge, mail_servers):
    from pbem.judge.tick import run_tick
    servers = mail_servers
    servers.relay.forced_reply = "451 4.3.0 mailbox busy, try later"
    report = run_tick(judge.home, now=time.time() + 7 * 86400)
    assert report.send_failed == 3 and report.undeliverable == 0
    servers.relay.forced_reply = None
    assert tick(judge) == (0, ["sent: 3, not sent (will retry): 0"])
    assert_each_player_got_once(servers, "welcome")


def test_a_tick_killed_mid_send_over_smtp_re_sends_at_most_the_mails_in_flight(tmp_path, mail_servers):
    """SIGKILL after the server accepted a mail, before the judge recorded it: the next tick sends
    it again. With `concurrency` connections, at most that many mails are in flight at once."""
    servers = mail_servers
    judge = Judge(tmp_path / "home")
    configure(judge, servers)
    judge.new_game("g1", players=PLAYERS)
    judge.new_game("g2", players=("dave", "alice", "bob", "carol"))
    tick_killed_at(judge, "mid-send@3")
    assert tick(judge)[0] == 0
    received = sum(len(servers.mailbox(user)) for user in ("alice", "bob", "carol", "dave"))
    duplicates = received - 7
    assert 0 <= duplicates <= 4                              # concurrency = 4 (the default)
    print(f"\nSMTP mid-send kill: 7 welcomes, {duplicates} delivered twice")


def test_a_tick_killed_between_commit_and_imap_move_is_caught_up_without_a_second_answer(judge, mail_servers):
    servers = mail_servers
    assert tick(judge)[0] == 0
    mail_orders(servers, judge)
    tick_killed_at(judge, "after-mail-commit@1")
    assert len(servers.mailbox("judge")) == 3                   # committed together, not moved (one UID MOVE a group)
    code, lines = tick(judge)
    assert code == 0, lines
    assert "mail: 3 x duplicate" in lines and not any("orders accepted" in line for line in lines)
    assert servers.mailbox("judge") == [] and len(servers.mailbox("judge", "pbem-processed")) == 3
    assert_each_player_got_once(servers, "welcome", "ack", "report")
