"""The IMAP reader's batched round trips (issue 13), against the real Dovecot of
tests/mailservers.py: a fetch is one UID SEARCH and two UID FETCHes whatever the number of
mails (within a byte cap), a committed group is marked with one command, and a tick killed in
the middle of a group loses nothing and answers nothing twice.

Round trips are counted by wrapping imaplib's command sender: bounds on counts, never on time.
"""
from __future__ import annotations

import imaplib
import math
import re
from collections import Counter

import pytest

from judge_support import Judge
from mailservers import player_mail, point_judge_at, subjects, tick
from pbem.judge.tick import MAIL_GROUP, batches
from pbem.mail.imap import ImapInbox, uid_set
from test_servers_away import tick_killed_at

pytestmark = pytest.mark.e2e


@pytest.fixture
def commands(monkeypatch) -> Counter:
    """Every IMAP command sent from this process, counted by name ("UID FETCH", "LOGIN", ...)."""
    counted: Counter = Counter()
    real = imaplib.IMAP4._command

    def counting(self, name, *args):
        counted[f"UID {args[0]}" if name == "UID" else name] += 1
        return real(self, name, *args)
    monkeypatch.setattr(imaplib.IMAP4, "_command", counting)
    return counted


def append(servers, raws: list[bytes], user: str = "judge", flags: str = "") -> None:
    """Put mails straight into a user's INBOX (IMAP APPEND: faster than the SMTP relay)."""
    imap = imaplib.IMAP4(servers.imap_host, servers.imap_port, timeout=10)
    try:
        imap.login(user, servers.password(user))
        for raw in raws:
            status, _ = imap.append("INBOX", flags or None, None, re.sub(rb"(?<!\r)\n", b"\r\n", raw))
            assert status == "OK"
    finally:
        imap.logout()


def numbered_mails(servers, count: int, body: str = "hello\n") -> list[bytes]:
    judge = servers.address("judge")
    return [player_mail(servers.address("alice"), judge, f"mail {n}", body) for n in range(count)]


def judge_inbox(servers, **options) -> ImapInbox:
    settings = dict(security="none", processed_folder="Processed", timeout=5)
    settings.update(options)
    return ImapInbox(servers.imap_host, servers.imap_port, "judge", servers.password("judge"), **settings)


def subject_of(raw: bytes) -> str:
    return re.search(rb"^Subject: (.*?)\r?$", raw, re.M).group(1).decode()


def uid_commands(counted: Counter) -> Counter:
    return Counter({name: n for name, n in counted.items() if name.startswith("UID ")})


def test_sixty_mails_are_fetched_with_three_commands_and_moved_with_one_a_group(mail_servers, commands):
    append(mail_servers, numbered_mails(mail_servers, 60))
    commands.clear()
    inbox = judge_inbox(mail_servers)
    try:
        fetched = inbox.fetch(200)
        assert [subject_of(f.raw) for f in fetched] == [f"mail {n}" for n in range(60)]   # arrival order
        assert not inbox.cut_short and not any(f.truncated for f in fetched)
        assert uid_commands(commands) == {"UID SEARCH": 1, "UID FETCH": 2}     # before: 1 + 60
        for start in range(0, 60, MAIL_GROUP):
            inbox.done_all([f.key for f in fetched[start:start + MAIL_GROUP]])
        assert commands["UID MOVE"] == math.ceil(60 / MAIL_GROUP)                # before: 60
        assert inbox.fetch(200) == []
    finally:
        inbox.close()
    # Everything else is once a connection: login, select, status, capability, the folder made.
    assert sum(commands.values()) <= 2 * 3 + math.ceil(60 / MAIL_GROUP) + 8
    assert mail_servers.mailbox("judge") == []
    assert len(mail_servers.mailbox("judge", "Processed")) == 60


def test_a_fetch_holds_at_most_its_byte_cap_and_the_rest_comes_with_the_next(mail_servers, commands):
    judge = mail_servers.address("judge")
    small = [player_mail(mail_servers.address("bob"), judge, f"small {n}", "x" * 2000 + "\n") for n in range(6)]
    huge = player_mail(mail_servers.address("dave"), judge, "huge", ("y" * 70 + "\n") * 1000)   # ~72 KB
    append(mail_servers, small[:3] + [huge] + small[3:])
    inbox = judge_inbox(mail_servers, max_bytes=10_000, batch_bytes=12_000)
    got, fetches = [], 0
    try:
        while True:
            batch = inbox.fetch(200)
            fetches += 1
            if not batch:
                break
            # The cap, counting a mail up to max_bytes; one mail always, whatever its size.
            assert len(batch) == 1 or sum(min(f.size, 10_000) for f in batch) <= 12_000
            assert inbox.cut_short == (len(got) + len(batch) < 7)
            got.extend(batch)
            inbox.done_all([f.key for f in batch])
    finally:
        inbox.close()
    assert [subject_of(f.raw) for f in got] == ["small 0", "small 1", "small 2", "huge",
                                                "small 3", "small 4", "small 5"]
    (cut,) = [f for f in got if f.truncated]
    assert subject_of(cut.raw) == "huge" and len(cut.raw) == 10_000 and cut.size > 70_000
    assert all(f.raw.rstrip().endswith(b"x" * 50) for f in got if not f.truncated)   # the others whole
    assert commands["UID FETCH"] == 2 * (fetches - 1) and commands["UID SEARCH"] == fetches
    assert mail_servers.mailbox("judge") == []


def test_deleting_processed_mail_expunges_exactly_the_group(mail_servers, commands):
    append(mail_servers, numbered_mails(mail_servers, 4))
    judge = mail_servers.address("judge")
    append(mail_servers, [player_mail(mail_servers.address("carol"), judge, "binned by a person", "x\n")],
           flags="(\\Deleted)")   # someone reading the mailbox deleted it, nobody expunged yet
    inbox = judge_inbox(mail_servers, processed_folder=None, delete_processed=True)
    try:
        fetched = inbox.fetch(200)
        assert [subject_of(f.raw) for f in fetched] == [f"mail {n}" for n in range(4)]
        inbox.done_all([f.key for f in fetched])
        assert commands["UID STORE"] == 1 and commands["UID EXPUNGE"] == 1
        assert inbox.fetch(200) == []
    finally:
        inbox.close()
    assert [subject_of(raw) for raw in mail_servers.mailbox("judge")] == ["binned by a person"]


def test_the_seen_flag_is_set_on_a_group_with_one_store(mail_servers, commands):
    append(mail_servers, numbered_mails(mail_servers, 5))
    inbox = judge_inbox(mail_servers, processed_folder=None)
    try:
        fetched = inbox.fetch(200)
        inbox.done_all([f.key for f in fetched[:3]])
        assert commands["UID STORE"] == 1
        assert [subject_of(f.raw) for f in inbox.fetch(200)] == ["mail 3", "mail 4"]
    finally:
        inbox.close()
    assert len(mail_servers.mailbox("judge")) == 5


@pytest.mark.parametrize("capabilities", [{b"IMAP4REV1", b"UIDPLUS"}, {b"IMAP4REV1"}],
                         ids=["uidplus", "neither"])
def test_a_server_without_move_gets_copy_and_an_expunge_of_exactly_those_mails(mail_servers, commands,
                                                                               monkeypatch, capabilities):
    """Dovecot has MOVE; the reader is told it has not (and, the second time, no UIDPLUS either)."""
    monkeypatch.setattr(ImapInbox, "_capability", lambda self, box: capabilities)
    judge = mail_servers.address("judge")
    append(mail_servers, numbered_mails(mail_servers, 3))
    append(mail_servers, [player_mail(mail_servers.address("carol"), judge, "binned by a person", "x\n")],
           flags="(\\Deleted)")
    inbox = judge_inbox(mail_servers)
    try:
        fetched = inbox.fetch(200)
        assert len(fetched) == 3
        inbox.done_all([f.key for f in fetched])
        assert commands["UID MOVE"] == 0 and commands["UID COPY"] == 1 and commands["UID STORE"] == 1
        assert commands["UID EXPUNGE"] == (1 if b"UIDPLUS" in capabilities else 0)
        assert commands["EXPUNGE"] == 0                      # never the whole folder
        assert inbox.fetch(200) == []                        # flagged \Deleted: not read (nor copied) again
    finally:
        inbox.close()
    left = [subject_of(raw) for raw in mail_servers.mailbox("judge")]
    # Without UIDPLUS the judge's processed mails wait, flagged \Deleted, for the server's expunge.
    still_flagged = [] if b"UIDPLUS" in capabilities else [f"mail {n}" for n in range(3)]
    assert sorted(left) == ["binned by a person"] + still_flagged
    assert len(mail_servers.mailbox("judge", "Processed")) == 3


def test_a_fetch_cut_short_by_its_byte_cap_is_followed_by_another_in_the_same_tick():
    waiting = list(range(10))
    cut = {"now": False}

    def fetch(limit):   # as the IMAP reader does under its cap: two at a time, saying so
        got = waiting[:min(limit, 2)]
        cut["now"] = len(got) < min(limit, len(waiting))
        return got

    seen = []
    for batch in batches(fetch, 5, lambda x: x, lambda: True, lambda: cut["now"]):
        seen.extend(batch)
        del waiting[:len(batch)]
    assert seen == list(range(10))
    # Without the cap's word, a short fetch means nothing else waits.
    waiting[:] = list(range(10))
    assert list(batches(fetch, 5, lambda x: x, lambda: True)) == [[0, 1]]


def test_uid_sets_write_runs_as_ranges():
    assert uid_set(["9", "3", "5", "6", "7"]) == "3,5:7,9"
    assert uid_set(["4"]) == "4"


# -- the judge's tick over IMAP ------------------------------------------------------------------

PLAYERS = ("alice", "bob", "carol")
GAMES = [f"g{n}" for n in range(10)]          # 30 order mails: a group of 25 and one of 5


@pytest.fixture
def judge(tmp_path, mail_servers):
    judge = Judge(tmp_path / "home")
    point_judge_at(judge, mail_servers, timeout=5)
    for game in GAMES:
        judge.new_game(game, players=PLAYERS)
    assert tick(judge)[0] == 0                 # the welcomes go out
    return judge


def order_mails(servers, judge: Judge) -> list[bytes]:
    return [player_mail(servers.address(player), servers.address("judge"), "orders",
                        f"game: {game}\nplayer: {player}\nsecret: {judge.secrets[game][player]}\n"
                        f"phase: round-1/bid\nbid: 4\n")
            for game in GAMES for player in PLAYERS]


def answers(servers) -> dict[str, int]:
    return {player: sum(s.startswith("Re:") for s in subjects(servers, player)) for player in PLAYERS}


def test_a_tick_ingests_two_groups_with_the_right_outcome_each_in_batched_round_trips(judge, mail_servers, commands):
    mails = order_mails(mail_servers, judge)
    stranger = player_mail(mail_servers.address("dave"), mail_servers.address("judge"), "orders",
                           "game: g1\nplayer: alice\nsecret: wrong\nphase: round-1/bid\nbid: 4\n")
    append(mail_servers, mails + [mails[0], stranger])   # the first again (the same Message-ID)
    commands.clear()
    code, lines = tick(judge)
    assert code == 0, lines
    assert "mail: 30 x orders accepted" in lines and "mail: 1 x duplicate" in lines, lines
    assert sum(int(line.split()[1]) for line in lines if line.startswith("mail: ")) == 32
    groups = math.ceil(32 / MAIL_GROUP)
    assert commands["UID SEARCH"] == 1 and commands["UID FETCH"] == 2
    assert commands["UID MOVE"] == groups                                 # before: 32 of each
    assert mail_servers.mailbox("judge") == []
    assert len(mail_servers.mailbox("judge", "pbem-processed")) == 32
    assert answers(mail_servers) == {player: len(GAMES) for player in PLAYERS}


@pytest.mark.parametrize("fault, moved_by_the_killed_tick", [
    ("in-mail-commit@10", 0),                 # inside the first group: none of it committed
    ("after-mail-commit@1", 0),               # the first group committed, not yet moved
    ("in-mail-commit@27", MAIL_GROUP),        # inside the second group: the first committed and moved
])
def test_a_tick_killed_in_the_middle_of_a_group_loses_nothing_and_answers_nothing_twice(
        judge, mail_servers, fault, moved_by_the_killed_tick):
    append(mail_servers, order_mails(mail_servers, judge))
    tick_killed_at(judge, fault)
    assert len(mail_servers.mailbox("judge", "pbem-processed")) == moved_by_the_killed_tick
    assert len(mail_servers.mailbox("judge")) == 30 - moved_by_the_killed_tick
    code, lines = tick(judge)
    assert code == 0, lines
    counts = {line.split(" x ")[1]: int(line.split()[1]) for line in lines if line.startswith("mail: ")}
    committed_unmoved = MAIL_GROUP if fault.startswith("after-mail-commit") else 0
    assert counts == {"orders accepted": 30 - moved_by_the_killed_tick - committed_unmoved,
                      **({"duplicate": committed_unmoved} if committed_unmoved else {})}, lines
    assert mail_servers.mailbox("judge") == []
    assert len(mail_servers.mailbox("judge", "pbem-processed")) == 30
    assert answers(mail_servers) == {player: len(GAMES) for player in PLAYERS}   # each order answered once
