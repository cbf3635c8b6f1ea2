"""Deadline conveniences (issue 15; docs/players-guide.md, "Reminders and the grace period"):
reminders at the game master's times naming exactly what is missing, and a grace period after
a passed deadline."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from judge_support import Judge
from pbem.cli import main


@pytest.fixture
def judge(tmp_path):
    j = Judge(tmp_path / "home")
    j.new_game(gm_email="gm@pbem.test", phase_hours=48, options={"target": 99})
    j.tick()
    return j


def settings(judge: Judge, *specs: str) -> None:
    result = CliRunner().invoke(main, ["game", "settings", "g1", *specs, "--home", str(judge.home.path)])
    assert result.exit_code == 0, result.output


def body_of(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def subjects(judge: Judge, player: str) -> list[str]:
    return [str(m["Subject"]) for m in judge.sent_to(f"{player}@pbem.test")]


def test_reminders_come_at_each_time_the_game_master_set_and_name_what_is_missing(judge):
    settings(judge, "reminders=24,2")
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\nready: no\n")
    judge.tick()
    assert judge.tick(advance_hours=23).reminded == 0
    assert judge.tick(advance_hours=1).reminded == 2          # 24 hours before: bob and carol
    assert judge.tick(advance_hours=1).reminded == 0          # not again until the next time
    bob, carol = (body_of(judge.sent_to(f"{p}@pbem.test")[-1]) for p in ("bob", "carol"))
    assert "your orders are kept but do not count as complete: you wrote `ready: no`" in bob
    assert "no orders from you yet" in carol
    assert not any("Reminder" in s for s in subjects(judge, "alice"))
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\n")
    judge.tick()
    assert judge.tick(advance_hours=21).reminded == 1         # 2 hours before: carol alone
    assert sum("Reminder" in s for s in subjects(judge, "carol")) == 2
    assert sum("Reminder" in s for s in subjects(judge, "bob")) == 1


def test_reminders_none_sends_none(judge):
    settings(judge, "reminders=none")
    assert judge.tick(advance_hours=47).reminded == 0


def test_a_grace_period_holds_the_phase_once_and_tells_the_late_players_what_is_missing(judge):
    settings(judge, "grace_hours=12")
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\n")
    judge.tick()
    report = judge.tick(advance_hours=49)
    assert report.resolved == [] and report.graced == ["g1"]
    carol = judge.sent_to("carol@pbem.test")
    grace = next(m for m in carol if "Grace period" in str(m["Subject"]))
    assert "The judge still misses this from you for Bidding (round-1/bid): no orders from you yet." in body_of(grace)
    for p in ("alice", "bob", "carol"):
        assert any("the grace period of 12 hours began" in body_of(m) for m in judge.sent_to(f"{p}@pbem.test"))
    assert not any("Grace period" in s for s in subjects(judge, "alice"))
    # Late orders are taken in the grace period; without them the phase resolves at its end, once.
    assert judge.tick(advance_hours=11).resolved == []
    assert judge.tick(advance_hours=1).resolved == ["g1: round-1/bid", "g1: round-1/tally"]
    assert judge.tick(advance_hours=49).graced == ["g1"]    # each phase has its own grace


def test_no_grace_when_everyone_the_phase_waits_for_has_ordered(judge):
    settings(judge, "grace_hours=12")
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\nwait: yes\n")
    judge.orders("g1", "carol", "round-1/bid", "bid: 3\n")
    judge.tick()
    report = judge.tick(advance_hours=49)
    assert report.graced == [] and report.resolved == ["g1: round-1/bid", "g1: round-1/tally"]
