"""Absences and time zones by mail (issue 15; docs/players-guide.md), through the judge on the
embedded default with the tiny test game. The judge's clock starts at 2027-01-15 08:00 UTC; a
phase lasts 48 hours, so the first deadline is 2027-01-17 08:00 UTC."""
from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from judge_support import Judge
from pbem.cli import main
from pbem.judge import engine


@pytest.fixture
def judge(tmp_path):
    j = Judge(tmp_path / "home")
    j.new_game(gm_email="gm@pbem.test", options={"target": 99})
    return j


def body_of(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def answer(judge: Judge, address: str) -> str:
    return body_of(judge.sent_to(address)[-1])


def personal(judge: Judge, player: str, lines: str) -> str:
    return judge.send(f"{player}@pbem.test",
                      f"game: g1\nplayer: {player}\nsecret: {judge.secrets['g1'][player]}\n{lines}")


def game_row(judge: Judge):
    store = judge.store()
    try:
        return engine.load_game(store, "g1").row
    finally:
        store.close()


def settings(judge: Judge, *specs: str) -> None:
    result = CliRunner().invoke(main, ["game", "settings", "g1", *specs, "--home", str(judge.home.path)])
    assert result.exit_code == 0, result.output


def test_a_players_time_zone_shows_their_deadlines_in_it_with_utc_beside(judge):
    personal(judge, "alice", "timezone: Europe/Paris\n")
    assert judge.tick().mails == {"away or timezone set": 1}
    assert "shown in Europe/Paris, with UTC beside them" in answer(judge, "alice@pbem.test")
    judge.command("g1", "alice", "status")
    judge.command("g1", "bob", "status")
    judge.tick()
    assert "Deadline: Sunday 17 January 2027, 09:00 CET (17 January 08:00 UTC)." in answer(judge, "alice@pbem.test")
    assert "Deadline: Sunday 17 January 2027, 08:00 UTC." in answer(judge, "bob@pbem.test")
    for p in ("alice", "bob", "carol"):
        judge.orders("g1", p, "round-1/bid", "bid: 2\n")
    judge.tick()
    report = next(m for m in judge.sent_to("alice@pbem.test") if "resolved" in str(m["Subject"]))
    assert "CET (" in body_of(report) and "CET (" not in answer(judge, "bob@pbem.test")
    personal(judge, "alice", "timezone: UTC\n")
    judge.tick()
    assert game_row(judge) is not None
    store = judge.store()
    assert store.one("SELECT timezone FROM players WHERE name='alice'")["timezone"] is None
    store.close()


def test_an_unknown_time_zone_is_refused_with_a_suggestion(judge):
    personal(judge, "alice", "timezone: paris\n")
    personal(judge, "bob", "timezone: ../../etc/passwd\n")
    assert judge.tick().mails == {"reject: bad away or timezone": 2}
    assert "'paris' is not a time zone the judge knows" in answer(judge, "alice@pbem.test")
    assert "did you mean Europe/Paris?" in answer(judge, "alice@pbem.test")
    assert "not a time zone" in answer(judge, "bob@pbem.test")


def test_an_absence_under_the_extend_policy_moves_the_deadline_to_its_end_and_everyone_is_told(judge):
    personal(judge, "bob", "away: {from: 2027-01-16, to: 2027-01-19}\n")
    assert judge.tick().mails == {"away or timezone set": 1}
    assert "Your absence, 2027-01-16 to 2027-01-19 (UTC), is recorded" in answer(judge, "bob@pbem.test")
    # 2027-01-17 08:00 falls in it: the deadline moves to its end, 2027-01-20 00:00 UTC (64 hours).
    row = game_row(judge)
    assert row["deadline"] == judge.now + (48 + 64) * 3600 and row["deadline_sequence"] == 2
    for p in ("alice", "carol", "bob"):
        told = "".join(body_of(m) for m in judge.sent_to(f"{p}@pbem.test"))
        assert "bob will be away from 2027-01-16 to 2027-01-19 (UTC)" in told
        assert "the deadline of this phase moves by 64 hours (bob has 4.33333 days of absence extension left" in told
    assert any("moves by 64 hours" in body_of(m) for m in judge.sent_to("gm@pbem.test"))


def test_absences_are_bounded_by_the_days_each_player_may_take_in_the_whole_game(judge):
    settings(judge, "away_days=1")
    personal(judge, "bob", "away: {from: 2027-01-16, to: 2027-01-19}\n")
    judge.tick()
    row = game_row(judge)
    assert row["deadline"] == judge.now + (48 + 24) * 3600
    assert any("bob has 0 days of absence extension left" in body_of(m) for m in judge.sent_to("carol@pbem.test"))
    # The phase resolves at the bounded deadline; the next one is not extended again.
    personal(judge, "bob", "away: {from: 2027-01-19, to: 2027-01-25}\n")
    assert judge.tick(advance_hours=72).resolved == ["g1: round-1/bid", "g1: round-1/tally"]
    assert game_row(judge)["deadline"] == judge.now + 48 * 3600


def test_an_absence_moves_the_deadline_whether_or_not_the_player_ordered(judge):
    """The move is told to everyone: it must not tell them whether bob has ordered (a Fief
    player learns only how many have)."""
    judge.orders("g1", "bob", "round-1/bid", "bid: 4\n")
    judge.tick()
    personal(judge, "bob", "away: {from: 2027-01-16, to: 2027-01-19}\n")
    judge.tick()
    assert game_row(judge)["deadline"] == judge.now + (48 + 64) * 3600


def test_an_absence_of_a_player_with_nothing_to_order_moves_no_deadline(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game(options={"target": 99})
    for p in ("alice", "bob", "carol"):
        judge.orders("g1", p, "round-1/bid", "bid: 2\n")
    judge.tick()     # round-2/bid opens
    # bob has nothing to order in it (the tiny game's bids have every player: as in a game where
    # a phase is some players' only).
    store = judge.store()
    store.run("UPDATE phases SET deciders='[\"alice\", \"carol\"]' WHERE seq=(SELECT phase_seq FROM games)")
    store.close()
    personal(judge, "bob", "away: {from: 2027-01-16, to: 2027-01-19}\n")
    judge.tick()
    assert game_row(judge)["deadline"] == judge.now + 48 * 3600


def test_under_the_default_policy_the_phase_does_not_wait_for_an_absent_player(judge):
    settings(judge, "away_policy=default")
    personal(judge, "bob", "away: {from: 2027-01-15, to: 2027-01-20}\n")
    judge.tick()
    assert any("the judge does not wait for their orders then" in body_of(m)
               for m in judge.sent_to("alice@pbem.test"))
    judge.orders("g1", "alice", "round-1/bid", "bid: 2\n")
    judge.orders("g1", "carol", "round-1/bid", "bid: 2\n")
    assert judge.tick().resolved == ["g1: round-1/bid", "g1: round-1/tally"]
    store = judge.store()
    assert store.one("SELECT defaulted FROM phases WHERE seq=1")["defaulted"] == '["bob"]'
    store.close()


def test_bad_absences_are_refused_and_none_cancels_them(judge):
    for lines in ("away: {from: 2027-01-20, to: 2027-01-18}\n", "away: {from: 2026-01-01, to: 2026-01-02}\n",
                  "away: {from: soon, to: 2027-01-18}\n", "away: next week\n",
                  "away: {from: 2027-01-16, to: 2029-01-16}\n", "away: {from: 2027-01-16, to: 2027-01-17}\nbid: 3\n"):
        personal(judge, "alice", lines)
    assert judge.tick().mails == {"reject: bad away or timezone": 5, "reject: bad envelope": 1}
    texts = [body_of(m) for m in judge.sent_to("alice@pbem.test")[-6:]]
    for text, expected in zip(texts, ("`to:` comes before `from:`", "that absence is already over",
                                      "`from:` is not a date: 'soon'", "`away:` takes `from:` and `to:`",
                                      "an absence spans at most 366 days", "go in a mail of their own"),
                              strict=True):
        assert expected in text, text
    personal(judge, "carol", "away: {from: 2027-02-01, to: 2027-02-03}\n")
    judge.tick()
    personal(judge, "carol", "away: none\n")
    judge.tick()
    assert "Your absences to come are cancelled" in answer(judge, "carol@pbem.test")
    store = judge.store()
    assert store.all("SELECT * FROM absences") == []
    store.close()


def test_a_phase_the_game_master_resolves_opens_with_its_deadline_moved_for_an_absence(judge, monkeypatch):
    personal(judge, "bob", "away: {from: 2027-01-25, to: 2027-01-27}\n")
    judge.tick()
    assert game_row(judge)["deadline"] == judge.now + 48 * 3600      # not in the absence yet
    judge.now = 1_800_000_000.0 + 9 * 86400                           # 2027-01-24 08:00 UTC
    monkeypatch.setattr(time, "time", lambda: judge.now)              # the command line's clock
    result = CliRunner().invoke(main, ["game", "resolve", "g1", "--home", str(judge.home.path)])
    assert result.exit_code == 0, result.output
    # The new phase's deadline, 2027-01-26 08:00, falls in the absence: it moves to its end.
    assert game_row(judge)["deadline"] == 1_800_000_000.0 + 12 * 86400 + 16 * 3600
