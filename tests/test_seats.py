"""Observers, replacements and civil disorder (issue 15; docs/players-guide.md), through the
judge on the embedded default and the game master's command line, with the tiny test game."""
from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from judge_support import Judge
from pbem.cli import main
from pbem.judge import engine


@pytest.fixture
def judge(tmp_path):
    return Judge(tmp_path / "home")


def body_of(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def cli(judge: Judge, *args: str):
    result = CliRunner().invoke(main, [*args, "--home", str(judge.home.path)])
    assert "Traceback" not in result.output
    return result


def everyone_bids(judge: Judge, phase: str, players=("alice", "bob", "carol")):
    for p in players:
        judge.orders("g1", p, phase, "bid: 3\n")
    return judge.tick()


def test_an_observer_gets_the_public_report_of_each_phase_and_no_players_secret(judge):
    judge.new_game(gm_email="gm@pbem.test")
    result = cli(judge, "game", "observe", "g1", "Watcher@Elsewhere.test")
    assert result.exit_code == 0, result.output
    assert "the game master added an observer" in result.output
    everyone_bids(judge, "round-1/bid")
    mails = judge.sent_to("watcher@elsewhere.test")
    reports = [m for m in mails if "(observer)" in str(m["Subject"])]
    assert len(reports) == 1
    text = body_of(reports[0])
    assert "public report for observers" in text
    assert "alice bid 3 and rolled" in text and ("scores a point" in text or "A tie" in text)
    # alice's private event, every player's secret, and any order template: never.
    assert "Your hand is still" not in text and "secret:" not in text
    everything = "".join(m.as_string() for m in mails)
    for secret in judge.secrets["g1"].values():
        assert secret not in everything
    assert "Position (what anybody may see)" not in text   # the tiny game has no public view


def test_an_observer_can_never_send_orders_nor_stay_after_unobserve(judge):
    judge.new_game()
    cli(judge, "game", "observe", "g1", "watcher@elsewhere.test")
    judge.orders("g1", "alice", "round-1/bid", "bid: 6\n", sender="watcher@elsewhere.test")
    judge.send("watcher@elsewhere.test", "game: g1\nplayer: watcher\nsecret: x-x-x-x-x-x\nphase: round-1/bid\n"
                                         "bid: 6\n")
    assert judge.tick().mails == {"reject: not authenticated": 2}
    assert cli(judge, "game", "unobserve", "g1", "watcher@elsewhere.test").exit_code == 0
    everyone_bids(judge, "round-1/bid")
    assert not [m for m in judge.sent_to("watcher@elsewhere.test") if "(observer)" in str(m["Subject"])]
    again = cli(judge, "game", "unobserve", "g1", "watcher@elsewhere.test")
    assert again.exit_code != 0 and "does not observe game 'g1'; observers: none" in again.output
    player = cli(judge, "game", "observe", "g1", "alice@pbem.test")
    assert player.exit_code != 0 and "plays in game 'g1'" in player.output


def test_a_replacement_gets_a_new_secret_the_report_and_the_history_and_the_old_address_loses_access(judge):
    judge.new_game()
    everyone_bids(judge, "round-1/bid")
    judge.orders("g1", "bob", "round-2/bid", "bid: 5\n")
    judge.tick()
    judge.send("bob@pbem.test", f"game: g1\nplayer: bob\nsecret: {judge.secrets['g1']['bob']}\n"
                                "timezone: Asia/Tokyo\naway: {from: 2027-03-01, to: 2027-03-02}\n")
    judge.tick()
    result = cli(judge, "game", "replace", "g1", "bob", "robert@pbem.test")
    assert result.exit_code == 0, result.output
    judge.tick()
    # The old player's time zone and absences went with them.
    assert players(judge)["bob"]["timezone"] is None
    store = judge.store()
    assert store.all("SELECT * FROM absences") == []
    store.close()
    new = judge.sent_to("robert@pbem.test")
    welcome = next(m for m in new if "You now play bob" in str(m["Subject"]))
    assert [p.get_filename() for p in welcome.walk() if p.get_content_type() == "text/calendar"] == ["deadline-g1.ics"]
    history = next(m for m in new if "The history of bob" in str(m["Subject"]))
    text = body_of(welcome)
    secret = text.split("Your\nsecret is:\n\n    ")[1].split()[0]
    assert "phase: round-2/bid" in text and "== Tally (round-1/tally) ==" in text
    assert "== Bidding (round-1/bid) ==" in body_of(history)
    assert judge.secrets["g1"]["bob"] not in text
    # Everyone is told, the old address too; the old secret and address stop working.
    for address in ("alice@pbem.test", "carol@pbem.test", "bob@pbem.test", "robert@pbem.test"):
        assert any("now played by someone else" in body_of(m) for m in judge.sent_to(address))
    judge.orders("g1", "bob", "round-2/bid", "bid: 1\n")
    judge.orders("g1", "bob", "round-2/bid", "bid: 1\n", sender="robert@pbem.test")
    assert judge.tick().mails == {"reject: not authenticated": 2}
    # The position's orders stand; the new player sees them in `status` and may replace them.
    judge.secrets["g1"]["bob"] = secret
    judge.command("g1", "bob", "status", sender="robert@pbem.test")
    judge.orders("g1", "bob", "round-2/bid", "bid: 2\n", sender="robert@pbem.test")
    assert judge.tick().mails == {"command status": 1, "orders accepted": 1}
    assert "bid: 5" in body_of(judge.sent_to("robert@pbem.test")[-2])


def test_replace_refuses_an_unknown_player_and_the_same_address(judge):
    judge.new_game()
    unknown = cli(judge, "game", "replace", "g1", "dave", "dave@pbem.test")
    assert unknown.exit_code != 0 and "has no player 'dave'; players: alice, bob, carol" in unknown.output
    same = cli(judge, "game", "replace", "g1", "bob", "BOB@pbem.test")
    assert same.exit_code != 0 and "pbem game new-secret g1 bob" in same.output
    bad = cli(judge, "game", "replace", "g1", "bob", "not-an-address")
    assert bad.exit_code != 0 and "EMAIL" in bad.output


def players(judge: Judge) -> dict:
    store = judge.store()
    try:
        return {r["name"]: dict(r) for r in store.all("SELECT * FROM players")}
    finally:
        store.close()


def test_civil_disorder_after_n_missed_deadlines_tells_the_game_master_and_stops_waiting(judge):
    judge.new_game(gm_email="gm@pbem.test", options={"target": 99})
    result = cli(judge, "game", "settings", "g1", "civil_disorder_after=2")
    assert result.exit_code == 0, result.output
    for n in (1, 2):   # carol misses two deadlines in a row
        judge.orders("g1", "alice", f"round-{n}/bid", "bid: 3\n")
        judge.orders("g1", "bob", f"round-{n}/bid", "bid: 3\n")
        judge.tick()
        assert judge.tick(advance_hours=49).resolved == [f"g1: round-{n}/bid", f"g1: round-{n}/tally"]
    assert players(judge)["carol"]["disorder"] == 1 and players(judge)["carol"]["missed"] == 2
    notice = [m for m in judge.sent_to("gm@pbem.test") if "civil disorder" in str(m["Subject"])]
    assert len(notice) == 1 and "pbem game replace g1 carol NEW-ADDRESS" in body_of(notice[0])
    # Round 3 no longer waits for carol: alice and bob ordering is enough.
    judge.orders("g1", "alice", "round-3/bid", "bid: 3\n")
    judge.orders("g1", "bob", "round-3/bid", "bid: 3\n")
    assert judge.tick().resolved == ["g1: round-3/bid", "g1: round-3/tally"]
    # Replaced: out of civil disorder, waited for again.
    assert cli(judge, "game", "replace", "g1", "carol", "caroline@pbem.test").exit_code == 0
    assert players(judge)["carol"]["disorder"] == 0 and players(judge)["carol"]["missed"] == 0
    judge.orders("g1", "alice", "round-4/bid", "bid: 3\n")
    judge.orders("g1", "bob", "round-4/bid", "bid: 3\n")
    assert judge.tick().resolved == []


def test_a_player_in_civil_disorder_who_orders_again_is_out_of_it(judge):
    judge.new_game(gm_email="gm@pbem.test", options={"target": 99})
    cli(judge, "game", "settings", "g1", "civil_disorder_after=1")
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\n")
    judge.tick(advance_hours=49)
    assert players(judge)["carol"]["disorder"] == 1
    assert everyone_bids(judge, "round-2/bid").resolved == ["g1: round-2/bid", "g1: round-2/tally"]
    assert players(judge)["carol"]["disorder"] == 0
    assert any("back from civil disorder" in str(m["Subject"]) for m in judge.sent_to("gm@pbem.test"))


def test_without_the_setting_nobody_falls_into_civil_disorder(judge):
    judge.new_game(options={"target": 99})
    for _ in range(3):
        judge.tick(advance_hours=49)
    assert {p["disorder"] for p in players(judge).values()} == {0}
    assert players(judge)["alice"]["missed"] == 3


def test_settings_are_shown_checked_and_announced(judge):
    judge.new_game()
    shown = cli(judge, "game", "settings", "g1")
    assert shown.exit_code == 0 and "civil_disorder_after = 0" in shown.output and "reminders = 12" in shown.output
    for spec, problem in (("grace_hours=-1", "grace_hours takes a number of hours from 0 to 1440"),
                          ("colour=red", "'colour' is not a setting; settings: public, civil_disorder_after"),
                          ("away_policy=stand-in", "away_policy takes one of extend, default"),
                          ("public", "write KEY=VALUE")):
        bad = cli(judge, "game", "settings", "g1", spec)
        assert bad.exit_code != 0 and problem in bad.output, bad.output
    good = cli(judge, "game", "settings", "g1", "reminders=2,24", "public=yes")
    assert good.exit_code == 0 and "reminders = 24,2, public = yes" in good.output
    judge.tick()
    assert any("changed the settings" in body_of(m) for m in judge.sent_to("alice@pbem.test"))
    store = judge.store()
    assert engine.load_game(store, "g1").row["reminder_hours"] == 24
    store.close()


def test_a_game_starts_with_settings_and_show_tells_the_game_master_who_is_out(judge):
    result = cli(judge, "game", "new", "tiny", "--name", "g2", "--player", "ann:ann@pbem.test",
                 "--player", "ben:ben@pbem.test", "--setting", "civil_disorder_after=1", "--setting", "public=yes")
    assert result.exit_code == 0, result.output
    assert "civil_disorder_after = 1" in cli(judge, "game", "settings", "g2").output
    bad = cli(judge, "game", "new", "tiny", "--name", "g3", "--player", "ann:ann@pbem.test",
              "--player", "ben:ben@pbem.test", "--setting", "grace=1")
    assert bad.exit_code != 0 and "--setting 'grace' is not a setting" in bad.output
    cli(judge, "game", "observe", "g2", "watcher@elsewhere.test")
    judge.now = time.time()   # the command line's game started on the real clock
    judge.tick(advance_hours=49)
    shown = cli(judge, "game", "show", "g2").output
    assert "In civil disorder: ann, ben; away now: nobody; observers: 1" in shown
