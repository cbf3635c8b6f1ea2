"""Stand-ins (issue 15; docs/players-guide.md, "Stand-ins"): under `away_policy=standin` a player
away names a stand-in (or the game master does), who plays the position meanwhile with a secret
of its own. Through the judge on Maildir with the tiny test game. The judge's clock starts at
2027-01-15 08:00 UTC; a phase lasts 48 hours, so the first deadline is 2027-01-17 08:00 UTC."""
from __future__ import annotations

import re
import time

import pytest
from click.testing import CliRunner

from judge_support import Judge
from pbem.cli import main

FRIEND = "friend@elsewhere.test"


@pytest.fixture
def judge(tmp_path):
    j = Judge(tmp_path / "home")
    j.new_game(gm_email="gm@pbem.test", options={"target": 99})
    cli(j, "settings", "g1", "away_policy=standin")
    return j


def cli(judge: Judge, *args: str, ok: bool = True):
    result = CliRunner().invoke(main, ["game", *args, "--home", str(judge.home.path)])
    assert (result.exit_code == 0) == ok, result.output
    return result


def body_of(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def texts(judge: Judge, address: str) -> list[str]:
    return [body_of(m) for m in judge.sent_to(address)]


def personal(judge: Judge, player: str, lines: str) -> str:
    return judge.send(f"{player}@pbem.test",
                      f"game: g1\nplayer: {player}\nsecret: {judge.secrets['g1'][player]}\n{lines}")


def standin_secret(judge: Judge, address: str = FRIEND) -> str:
    begun = [t for t in texts(judge, address) if "Your own secret as a stand-in is:" in t]
    assert len(begun) == 1
    return re.search(r"stand-in is:\n\n    (\S+)", begun[0]).group(1)


def hands(judge: Judge) -> dict[str, str]:
    store = judge.store()
    try:
        import json
        return json.loads(store.one("SELECT state FROM games")["state"])["hands"]
    finally:
        store.close()


def bids(judge: Judge) -> dict[str, str]:
    store = judge.store()
    try:
        return {r["player"]: r["canonical"] for r in store.all("SELECT player, canonical FROM orders")}
    finally:
        store.close()


def test_a_stand_in_named_by_the_player_plays_the_position_during_the_absence_and_not_after(judge):
    personal(judge, "bob", f"away: {{from: 2027-01-16, to: 2027-01-18, standin: {FRIEND}}}\n")
    assert judge.tick().mails == {"away or timezone set": 1}
    # Everyone is told who stands in from when to when; nothing reaches the stand-in before.
    for p in ("alice", "bob", "carol", "gm"):
        assert any(f"bob will be away from 2027-01-16 to 2027-01-18 (UTC): {FRIEND} stands in for them then"
                   in t for t in texts(judge, f"{p}@pbem.test")), p
    assert texts(judge, FRIEND) == []
    early = judge.orders("g1", "bob", "round-1/bid", "bid: 5\n", secret="abcd-efgh-jkmn", sender=FRIEND)
    assert early and judge.tick().mails == {"reject: not authenticated": 1}

    # The absence begins (2027-01-16 00:00 UTC): the stand-in gets a secret of its own and bob's report.
    judge.tick(advance_hours=17)
    secret = standin_secret(judge)
    begun = texts(judge, FRIEND)[-1]
    assert "You stand in for bob" in begun and f"hand: {hands(judge)['bob']}" in begun
    assert secret not in judge.secrets["g1"].values()

    judge.orders("g1", "bob", "round-1/bid", "bid: 5\n", secret=secret, sender=FRIEND)
    assert judge.tick().mails == {"orders accepted": 1}
    assert bids(judge) == {"bob": '{"bid":5}'}
    # bob's own secret is refused from the stand-in's address, and the stand-in's from bob's.
    judge.orders("g1", "bob", "round-1/bid", "bid: 1\n", sender=FRIEND)
    judge.orders("g1", "bob", "round-1/bid", "bid: 1\n", secret=secret)
    assert judge.tick().mails == {"reject: not authenticated": 2}
    # bob's own secret keeps working: he may come back early.
    judge.orders("g1", "bob", "round-1/bid", "bid: 4\n")
    assert judge.tick().mails == {"orders accepted": 1}
    assert bids(judge) == {"bob": '{"bid":4}'}
    judge.orders("g1", "bob", "round-1/bid", "bid: 6\n", secret=secret, sender=FRIEND)
    judge.command("g1", "bob", "status", sender=FRIEND)
    judge.send(FRIEND, f"game: g1\nplayer: bob\nsecret: {secret}\ncommand: status\n")
    assert judge.tick().mails == {"orders accepted": 1, "command status": 1, "reject: not authenticated": 1}
    status = next(t for t in texts(judge, FRIEND) if "Status of game" in t)
    assert "Status of game \"g1\" for bob" in status and f"{FRIEND} stands in for you" in status

    # The phase resolves: the stand-in gets bob's report (bob's view: his hand, no one else's).
    judge.orders("g1", "alice", "round-1/bid", "bid: 2\n")
    judge.orders("g1", "carol", "round-1/bid", "bid: 2\n")
    assert judge.tick().resolved == ["g1: round-1/bid", "g1: round-1/tally"]
    report = next(m for m in judge.sent_to(FRIEND) if "resolved" in str(m["Subject"]))
    assert "round-2/bid" in body_of(report) and f"hand: {hands(judge)['bob']}" in body_of(report)
    assert hands(judge)["alice"] not in body_of(report) and hands(judge)["carol"] not in body_of(report)

    # The absence ends (2027-01-19 00:00 UTC), before the phase round-2/bid resolves at its deadline
    # (2027-01-18 01:00) in the same tick: the stand-in is told, gets no report, its secret stops working.
    assert judge.tick(advance_hours=71).resolved == ["g1: round-2/bid", "g1: round-2/tally"]
    ended = [t for t in texts(judge, FRIEND) if "You no longer stand in for bob" in t]
    assert len(ended) == 1 and "bob's absence ended" in ended[0] and ended[0] == texts(judge, FRIEND)[-1]
    assert "round-2/bid to round-2/tally resolved" in str(judge.sent_to("bob@pbem.test")[-1]["Subject"])
    judge.orders("g1", "bob", "round-3/bid", "bid: 3\n", secret=secret, sender=FRIEND)
    assert judge.tick().mails == {"reject: not authenticated": 1}
    for p in ("alice", "bob", "carol"):
        judge.orders("g1", p, "round-3/bid", "bid: 2\n")
    told = len(texts(judge, FRIEND))
    assert judge.tick().resolved == ["g1: round-3/bid", "g1: round-3/tally"]
    assert len(texts(judge, FRIEND)) == told


def test_a_stand_in_may_not_change_the_players_settings_nor_announce_absences(judge):
    personal(judge, "bob", f"away: {{from: 2027-01-15, to: 2027-01-18, standin: {FRIEND}}}\n")
    judge.tick()
    secret = standin_secret(judge)
    for lines in ("timezone: Europe/Paris\n", "away: none\n", "away: {from: 2027-02-01, to: 2027-02-02}\n",
                  "new_secret: my-own-one-now\n", "html: no\n"):
        judge.send(FRIEND, f"game: g1\nplayer: bob\nsecret: {secret}\n{lines}")
    assert judge.tick().mails == {"reject: not for a stand-in": 5}
    assert all("a stand-in may not change bob's address, secret, time zone or mail format, nor announce "
               "absences" in t for t in texts(judge, FRIEND)[-5:])
    store = judge.store()
    try:
        assert tuple(store.one("SELECT timezone, mail_html FROM players WHERE name='bob'")) == (None, 1)
        assert len(store.all("SELECT * FROM absences")) == 1
    finally:
        store.close()
    # Only bob's own secret changes his: the old one still works.
    personal(judge, "bob", "timezone: Europe/Paris\n")
    assert judge.tick().mails == {"away or timezone set": 1}


def test_the_player_coming_back_early_ends_the_stand_in_at_once(judge):
    personal(judge, "bob", f"away: {{from: 2027-01-15, to: 2027-01-25, standin: {FRIEND}}}\n")
    judge.tick()
    secret = standin_secret(judge)
    personal(judge, "bob", "away: none\n")
    judge.tick()
    assert "You no longer stand in for bob" in texts(judge, FRIEND)[-1] and "bob is back" in texts(judge, FRIEND)[-1]
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\n", secret=secret, sender=FRIEND)
    assert judge.tick().mails == {"reject: not authenticated": 1}


def test_stand_ins_are_refused_where_the_game_takes_none_and_for_players_of_the_game(judge):
    personal(judge, "bob", "away: {from: 2027-01-16, to: 2027-01-18, standin: carol@pbem.test}\n")
    personal(judge, "alice", "away: {from: 2027-01-16, to: 2027-01-18, standin: not an address}\n")
    assert judge.tick().mails == {"reject: bad away or timezone": 2}
    assert "carol@pbem.test plays carol in game 'g1'" in texts(judge, "bob@pbem.test")[-1]
    assert "`standin:` is not a mail address" in texts(judge, "alice@pbem.test")[-1]
    cli(judge, "settings", "g1", "away_policy=extend")
    personal(judge, "bob", f"away: {{from: 2027-01-16, to: 2027-01-18, standin: {FRIEND}}}\n")
    judge.tick()
    assert "game 'g1' takes no stand-ins: its absence policy is extend" in texts(judge, "bob@pbem.test")[-1]
    assert "standin" in cli(judge, "standin", "g1", "bob", FRIEND, "--until", "2027-01-20", ok=False).output
    store = judge.store()
    try:
        assert store.all("SELECT * FROM absences") == []
    finally:
        store.close()


def test_without_a_stand_in_the_phase_does_not_wait_for_the_absent_player(judge):
    personal(judge, "bob", "away: {from: 2027-01-15, to: 2027-01-20}\n")
    judge.tick()
    assert any("no stand-in is named (the game master may name one): the judge does not wait" in t
               for t in texts(judge, "alice@pbem.test"))
    judge.orders("g1", "alice", "round-1/bid", "bid: 2\n")
    judge.orders("g1", "carol", "round-1/bid", "bid: 2\n")
    assert judge.tick().resolved == ["g1: round-1/bid", "g1: round-1/tally"]


def test_with_a_stand_in_the_phase_waits_for_its_orders(judge):
    personal(judge, "bob", f"away: {{from: 2027-01-15, to: 2027-01-20, standin: {FRIEND}}}\n")
    judge.orders("g1", "alice", "round-1/bid", "bid: 2\n")
    judge.orders("g1", "carol", "round-1/bid", "bid: 2\n")
    assert judge.tick().resolved == []
    judge.orders("g1", "bob", "round-1/bid", "bid: 2\n", secret=standin_secret(judge), sender=FRIEND)
    assert judge.tick().resolved == ["g1: round-1/bid", "g1: round-1/tally"]


def test_the_game_master_names_a_stand_in_for_an_absence_or_until_a_date(judge, monkeypatch):
    monkeypatch.setattr(time, "time", lambda: judge.now)      # the command line's clock
    out = cli(judge, "standin", "g1", "bob", FRIEND, ok=False).output
    assert "bob has announced no absence to come; give --until DATE" in out
    out = cli(judge, "standin", "g1", "bob", FRIEND, "--until", "2027-01-14", ok=False).output
    assert "--until 2027-01-14: `to:` comes before `from:`" in out
    assert "EMAIL: 'x@y' is not a mail address" in cli(judge, "standin", "g1", "bob", "x@y", ok=False).output
    assert "YEAR-MONTH-DAY" in cli(judge, "standin", "g1", "bob", FRIEND, "--until", "soon", ok=False).output
    assert "plays alice" in cli(judge, "standin", "g1", "bob", "alice@pbem.test", "--until", "2027-01-16",
                                ok=False).output
    cli(judge, "standin", "g1", "bob", FRIEND, "--until", "2027-01-16")
    judge.tick()
    # Begun at once (the absence runs from now): everyone is told, the stand-in has its secret.
    secret = standin_secret(judge)
    for p in ("alice", "bob", "carol"):
        assert any(f"{FRIEND} stands in for bob from 2027-01-15 to 2027-01-16 (UTC)" in t
                   for t in texts(judge, f"{p}@pbem.test"))
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\n", secret=secret, sender=FRIEND)
    assert judge.tick().mails == {"orders accepted": 1}
    # Another stand-in for the same absence: the first is told its access ended, at once.
    other = "other@elsewhere.test"
    cli(judge, "standin", "g1", "bob", other)
    judge.tick()
    assert "the game master named another stand-in" in texts(judge, FRIEND)[-1]
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\n", secret=secret, sender=FRIEND)
    judge.orders("g1", "bob", "round-1/bid", "bid: 4\n", secret=standin_secret(judge, other), sender=other)
    assert judge.tick().mails == {"reject: not authenticated": 1, "orders accepted": 1}
    assert f"away now: bob (stand-in {other})" in cli(judge, "show", "g1").output
    # A replacement ends the stand-in too.
    cli(judge, "replace", "g1", "bob", "newbob@pbem.test")
    judge.tick()
    assert "handed bob's position to a new player" in texts(judge, other)[-1]


def test_no_mail_to_a_stand_in_carries_a_players_secret(judge):
    personal(judge, "bob", f"away: {{from: 2027-01-15, to: 2027-01-25, standin: {FRIEND}}}\n")
    judge.tick()
    secret = standin_secret(judge)
    for rnd in (1, 2):
        judge.orders("g1", "bob", f"round-{rnd}/bid", "bid: 3\n", secret=secret, sender=FRIEND)
        judge.command("g1", "bob", "report", sender=FRIEND)
        judge.send(FRIEND, f"game: g1\nplayer: bob\nsecret: {secret}\ncommand: history\n")
        for p in ("alice", "carol"):
            judge.orders("g1", p, f"round-{rnd}/bid", "bid: 2\n")
        judge.tick()
    judge.tick(advance_hours=24 * 11)
    mails = "".join(m.as_string() for m in judge.sent_to(FRIEND))
    assert "You no longer stand in" in mails and "round-3/bid" in mails
    for player, player_secret in judge.secrets["g1"].items():
        assert player_secret not in mails, player
    # The stand-in's secret went to the stand-in alone.
    for p in ("alice", "bob", "carol", "gm"):
        assert secret not in "".join(m.as_string() for m in judge.sent_to(f"{p}@pbem.test"))


def test_a_stand_in_gets_the_players_reminders_and_news_while_it_stands_in(judge):
    personal(judge, "bob", f"away: {{from: 2027-01-15, to: 2027-01-20, standin: {FRIEND}}}\n")
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", 'shout: "Fortune favours the bold"\n')
    assert judge.tick().mails == {"acted at once": 1}
    news = [m for m in judge.sent_to(FRIEND) if "News from alice" in str(m["Subject"])]
    assert len(news) == 1 and "Fortune favours the bold" in body_of(news[0])
    # 12 hours before the deadline (2027-01-17 08:00): bob and his stand-in are reminded, no one twice.
    assert judge.tick(advance_hours=37).reminded == 4      # alice, bob, carol, and bob's stand-in
    reminders = [m for m in judge.sent_to(FRIEND) if "Reminder" in str(m["Subject"])]
    assert len(reminders) == 1 and "no orders from you yet" in body_of(reminders[0])
