"""Commands by mail (issue 15; docs/players-guide.md): status, report, history, help and info,
through the judge on the embedded default (Maildir in and out) with the tiny test game."""
from __future__ import annotations

import pytest

from judge_support import Judge
from pbem.judge import engine
from pbem.judge.settings import parse_settings


@pytest.fixture
def judge(tmp_path):
    return Judge(tmp_path / "home")


def body_of(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def answer(judge: Judge, address: str) -> str:
    """The judge's latest mail to ``address``."""
    return body_of(judge.sent_to(address)[-1])


def set_settings(judge: Judge, game: str, *specs: str) -> None:
    import json
    store = judge.store()
    try:
        with store.transaction():
            row = store.row("SELECT settings FROM games WHERE name=?", game)
            settings = {**json.loads(row["settings"]), **parse_settings(list(specs))}
            store.run("UPDATE games SET settings=? WHERE name=?", json.dumps(settings), game)
    finally:
        store.close()


def test_status_tells_the_phase_deadline_how_many_ordered_and_my_own_orders_only(judge):
    judge.new_game()
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 5\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\nready: no\n")
    judge.tick()
    for p in ("alice", "bob", "carol"):
        judge.command("g1", p, "status")
    assert judge.tick().mails == {"command status": 3}
    alice, bob, carol = (answer(judge, f"{p}@pbem.test") for p in ("alice", "bob", "carol"))
    assert "Phase: Bidding (round-1/bid); the game is running." in alice
    assert "Deadline: " in alice and "UTC" in alice
    # Only how many (the tiny game does not say who), and each player's own orders alone.
    assert "Complete orders: 1 of 3 players (this game does not say who)." in carol
    assert "bid: 5" in alice and "a complete set" in alice
    assert "bid: 3" in bob and "you wrote `ready: no`" in bob
    assert "No orders yet" in carol
    for text, others in ((alice, ("bid: 3",)), (bob, ("bid: 5",)), (carol, ("bid: 5", "bid: 3"))):
        assert not any(o in text for o in others)
    assert "Time zone for deadlines in your mail: UTC." in alice


def test_status_names_who_ordered_where_the_game_says_it_is_known(judge, monkeypatch):
    from tinygame import RULES
    monkeypatch.setattr(type(RULES), "who_ordered_is_public", True, raising=False)
    judge.new_game()
    judge.orders("g1", "bob", "round-1/bid", "bid: 2\n")
    judge.tick()
    judge.command("g1", "carol", "status")
    judge.tick()
    text = answer(judge, "carol@pbem.test")
    assert "Complete orders: 1 of 3 players (bob)." in text
    assert "bid: 2" not in text


def test_report_sends_the_last_report_again_word_for_word(judge):
    judge.new_game()
    for p in ("alice", "bob", "carol"):
        judge.orders("g1", p, "round-1/bid", "bid: 4\n")
    judge.tick()
    report = next(m for m in judge.sent_to("alice@pbem.test") if "resolved" in str(m["Subject"]))
    judge.command("g1", "alice", "report")
    assert judge.tick().mails == {"command report": 1}
    again = judge.sent_to("alice@pbem.test")[-1]
    assert str(again["Subject"]) == "Re: report" and again["Auto-Submitted"] == "auto-replied"
    assert body_of(again) == body_of(report)
    assert "round-1/tally" in body_of(again) and "phase: round-2/bid" in body_of(again)


def test_report_before_any_resolution_is_the_position_and_the_template(judge):
    judge.new_game()
    judge.command("g1", "bob", "report")
    judge.tick()
    text = answer(judge, "bob@pbem.test")
    assert "== Position ==" in text and "phase: round-1/bid" in text
    assert "YOUR-SECRET" in text and judge.secrets["g1"]["bob"] not in text


def play_rounds(judge: Judge, rounds: int) -> None:
    for n in range(1, rounds + 1):
        for p in ("alice", "bob", "carol"):
            judge.orders("g1", p, f"round-{n}/bid", "bid: 1\n")
        judge.tick()


def test_history_is_one_digest_of_my_reports_for_a_range_of_phases(judge):
    judge.new_game(options={"target": 9})
    play_rounds(judge, 3)
    judge.command("g1", "alice", "history", "from: round-2/bid\nto: round-3/bid\n")
    judge.command("g1", "bob", "history")
    assert judge.tick().mails == {"command history": 2}
    alice, bob = answer(judge, "alice@pbem.test"), answer(judge, "bob@pbem.test")
    assert "== Bidding (round-2/bid) ==" in alice and "== Tally (round-2/tally) ==" in alice
    assert "round-1/bid" not in alice and "round-3/tally" not in alice
    assert "== Position after round-3/bid ==" in alice
    # alice's private event (her hand) is in her history, never in bob's.
    assert "Your hand is still" in alice and "Your hand is still" not in bob
    assert bob.count("== Bidding (") == 3 and "== Position after round-3/tally ==" in bob


def test_history_with_a_range_that_names_no_resolved_phase_says_what_may_be_asked(judge):
    judge.new_game()
    play_rounds(judge, 1)
    judge.command("g1", "alice", "history", "from: round-7/bid\n")
    judge.command("g1", "bob", "history", "from: round-1/tally\nto: round-1/bid\n")
    assert judge.tick().mails == {"command history: bad range": 2}
    assert "names no resolved phase of game 'g1'; resolved phases run from round-1/bid to round-1/tally" \
        in answer(judge, "alice@pbem.test")
    assert "comes after" in answer(judge, "bob@pbem.test")


def test_help_answers_anyone_the_same_whatever_game_it_names(judge):
    judge.new_game()
    judge.command("g1", None, "help", sender="stranger@elsewhere.test")
    judge.command("nosuchgame", None, "help", sender="other@elsewhere.test")
    assert judge.tick().mails == {"command help": 2}
    first, second = answer(judge, "stranger@elsewhere.test"), answer(judge, "other@elsewhere.test")
    assert first == second
    for command in ("status", "report", "history", "help", "info"):
        assert f"- {command}:" in first


def test_info_describes_a_public_game_and_answers_an_unknown_or_private_one_alike(judge):
    judge.new_game()
    judge.new_game("open", players=("dave", "erin"))
    set_settings(judge, "open", "public=yes")
    judge.command("g1", None, "info", sender="a@elsewhere.test")
    judge.command("gone", None, "info", sender="b@elsewhere.test")
    judge.command("open", None, "info", sender="c@elsewhere.test")
    assert judge.tick().mails == {"command info": 1, "command info: no public game": 2}
    private, unknown = judge.sent_to("a@elsewhere.test")[-1], judge.sent_to("b@elsewhere.test")[-1]
    assert body_of(private).replace('"g1"', '"X"') == body_of(unknown).replace('"gone"', '"X"')
    for mail in (private, unknown):   # no game thread, no List-Id: nothing says the game exists
        assert mail["List-Id"] is None and str(mail["References"]) == str(mail["In-Reply-To"])
        assert str(mail["Subject"]) == "Re: info"
    text = answer(judge, "c@elsewhere.test")
    assert 'Game "open": Tiny Bidding (tiny), 2 players.' in text
    assert "in phase Bidding (round-1/bid)" in text
    for secret_or_name in ("dave", "erin", *judge.secrets["open"].values()):
        assert secret_or_name not in text


def test_a_command_needs_the_players_secret_and_goes_in_a_mail_of_its_own(judge):
    judge.new_game()
    judge.send("alice@pbem.test", "game: g1\nplayer: alice\nsecret: wrong-secret-1\ncommand: status\n")
    judge.send("alice@pbem.test", f"game: g1\nplayer: alice\nsecret: {judge.secrets['g1']['alice']}\n"
                                  "command: status\nbid: 3\n")
    judge.send("alice@pbem.test", f"game: g1\nplayer: alice\nsecret: {judge.secrets['g1']['alice']}\n"
                                  "command: scores\n")
    judge.send("alice@pbem.test", f"game: g1\nplayer: alice\nsecret: {judge.secrets['g1']['alice']}\n"
                                  "command: status\nfrom: round-1/bid\n")
    assert judge.tick().mails == {"reject: not authenticated": 1, "reject: bad envelope": 3}
    texts = [body_of(m) for m in judge.sent_to("alice@pbem.test")[-4:]]
    assert "could not be authenticated" in texts[0]
    assert "`command: status` goes in a mail of its own" in texts[1]
    assert "unknown command 'scores'" in texts[2] and "status, report, history, help, info" in texts[2]
    assert "`command: status` goes in a mail of its own" in texts[3]
    store = judge.store()
    assert store.one("SELECT COUNT(*) AS n FROM orders")["n"] == 0
    store.close()


def test_a_finished_games_status_says_it_is_over(judge):
    judge.new_game(options={"target": 1})
    judge.orders("g1", "alice", "round-1/bid", "bid: 6\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 1\n")
    judge.orders("g1", "carol", "round-1/bid", "bid: 1\n")
    judge.tick()
    store = judge.store()
    over = engine.load_game(store, "g1").row["status"] == "over"
    store.close()
    judge.command("g1", "bob", "status")
    judge.tick()
    if over:
        assert "The game is over:" in answer(judge, "bob@pbem.test")
    else:   # the dice gave a tie: the game goes on
        assert "Phase: Bidding (round-2/bid)" in answer(judge, "bob@pbem.test")


def test_help_and_info_to_a_stranger_carry_nothing_long_of_what_they_sent(judge):
    """Anyone may ask, from a forged address too: the answer cuts the Subject and the game name
    (backscatter, docs/security.md), as the answer to a failed authentication does."""
    judge.new_game()
    long_subject, long_game = "S" * 5000, "g" * 3000
    judge.send("victim@elsewhere.test", "game: g1\ncommand: help\n", subject=long_subject)
    judge.send("other@elsewhere.test", f"game: {long_game}\ncommand: info\n", subject=long_subject)
    assert judge.tick().mails == {"command help": 1, "command info: no public game": 1}
    for address in ("victim@elsewhere.test", "other@elsewhere.test"):
        mail = judge.sent_to(address)[-1]
        assert len(str(mail["Subject"])) <= 210 and len(body_of(mail)) < 2000
