"""The judge end to end on the embedded default (Maildir in and out, SQLite), with the tiny
test game: orders by mail, answers, phases, deadlines, reminders, reports, the archive."""
from __future__ import annotations

import json

import pytest

from judge_support import Judge
from pbem.judge import archive, engine, gm
from pbem.judge.tick import TickBusy, run_tick, tick_lock


@pytest.fixture
def judge(tmp_path):
    return Judge(tmp_path / "home")


def body_of(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def everyone_bids(judge, bid: int, phase: str = "round-1/bid", players=("alice", "bob", "carol")):
    """Each player mails the same bid, then one tick reads them (and resolves the phase)."""
    for p in players:
        judge.orders("g1", p, phase, f"bid: {bid}\n")
    return judge.tick()


def test_new_game_mails_each_player_a_welcome_with_their_own_secret(judge):
    judge.new_game()
    judge.tick()
    for player in ("alice", "bob", "carol"):
        mails = judge.sent_to(f"{player}@pbem.test")
        assert len(mails) == 1
        text = body_of(mails[0])
        assert judge.secrets["g1"][player] in text
        for other in ("alice", "bob", "carol"):
            if other != player:
                assert judge.secrets["g1"][other] not in text
        assert "phase: round-1/bid" in text


def test_orders_are_acknowledged_and_the_phase_resolves_when_everyone_has_ordered(judge):
    judge.new_game()
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 5\n")
    report = judge.tick()
    assert report.mails == {"orders accepted": 1}
    ack = judge.sent_to("alice@pbem.test")[-1]
    text = body_of(ack)
    assert "bid: 5" in text and "1 of 3 players" in text
    assert ack["Auto-Submitted"] == "auto-replied"
    assert ack["In-Reply-To"]
    judge.orders("g1", "bob", "round-1/bid", "bid: 2\n")
    judge.orders("g1", "carol", "round-1/bid", "bid: 3\n")
    report = judge.tick()
    # The bid phase and the automatic tally after it resolve in the same tick.
    assert report.resolved == ["g1: round-1/bid", "g1: round-1/tally"]
    report_mail = [m for m in judge.sent_to("bob@pbem.test") if "resolved" in m["Subject"]][-1]
    text = body_of(report_mail)
    assert "alice bid 5" in text and "phase: round-2/bid" in text
    assert report_mail["List-Id"] and "g1" in report_mail["List-Id"]
    assert report_mail["Auto-Submitted"] == "auto-generated"


def test_an_event_for_one_player_reaches_only_that_player(judge):
    judge.new_game()
    judge.tick()
    everyone_bids(judge, 1)
    store = judge.store()
    hands = json.loads(store.one("SELECT state FROM games")["state"])["hands"]
    store.close()
    reports = {p: body_of([m for m in judge.sent_to(f"{p}@pbem.test") if "resolved" in m["Subject"]][-1])
               for p in ("alice", "bob", "carol")}
    assert f"Your hand is still {hands['alice']}" in reports["alice"]
    for p in ("bob", "carol"):
        assert hands["alice"] not in reports[p]


def test_pending_orders_never_reach_another_player(judge):
    judge.new_game()
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 6\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 4\n")
    judge.tick()
    for m in judge.sent_to("bob@pbem.test"):
        assert "bid: 6" not in body_of(m)
    for m in judge.sent_to("alice@pbem.test"):
        assert "bid: 4" not in body_of(m)


def test_a_bad_order_gets_the_line_and_the_fix_and_the_earlier_set_stands(judge):
    judge.new_game()
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 4\n")
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 9\n")
    report = judge.tick()
    assert report.mails == {"orders rejected": 1}
    text = body_of(judge.sent_to("alice@pbem.test")[-1])
    # The order document starts on line 3 of the mail (after "Hello judge," and a blank line).
    assert "line 7: a bid is a number from 1 to 6, not '9'" in text
    assert "How to fix: write e.g. `bid: 4`" in text
    store = judge.store()
    row = store.one("SELECT canonical FROM orders WHERE player='alice'")
    store.close()
    assert json.loads(row["canonical"]) == {"bid": 4}


@pytest.mark.parametrize("case, expect", [
    ("wrong secret", "could not be authenticated"),
    ("foreign address", "could not be authenticated"),
    ("unknown player", "could not be authenticated"),
    ("unknown game", "could not be authenticated"),   # the same answer: docs/security.md
    ("stale phase", "now waits on phase 'round-1/bid'"),
    ("no document", "no order document found"),
    ("broken yaml", "not valid YAML"),
])
def test_rejected_mails_get_a_clear_answer_and_change_nothing(judge, case, expect):
    judge.new_game()
    judge.tick()
    store = judge.store()
    before = store.one("SELECT state, phase_seq FROM games")
    store.close()
    if case == "wrong secret":
        judge.orders("g1", "alice", "round-1/bid", "bid: 3\n", secret="aaaa-bbbb-cccc")
    elif case == "foreign address":
        judge.orders("g1", "alice", "round-1/bid", "bid: 3\n", sender="mallory@evil.test")
    elif case == "unknown player":
        judge.send("alice@pbem.test", "game: g1\nplayer: zed\nsecret: x\nphase: round-1/bid\nbid: 3\n")
    elif case == "unknown game":
        judge.send("alice@pbem.test", "game: nope\nplayer: alice\nsecret: x\nphase: round-1/bid\nbid: 3\n")
    elif case == "stale phase":
        judge.orders("g1", "alice", "round-0/bid", "bid: 3\n")
    elif case == "no document":
        judge.send("alice@pbem.test", "Hi, when is the next game?")
    elif case == "broken yaml":
        judge.send("alice@pbem.test", "game: g1\nplayer: [alice\n")
    judge.tick()
    sender = "mallory@evil.test" if case == "foreign address" else "alice@pbem.test"
    answer = judge.sent_to(sender)[-1]
    assert expect in body_of(answer)
    store = judge.store()
    after = store.one("SELECT state, phase_seq FROM games")
    assert store.one("SELECT COUNT(*) AS n FROM orders")["n"] == 0
    store.close()
    assert tuple(before) == tuple(after)


def test_auto_replies_and_bounces_are_never_answered(judge):
    judge.new_game()
    judge.tick()
    count = len(judge.sent())
    judge.send("alice@pbem.test", "I am on holiday.", headers={"Auto-Submitted": "auto-replied"})
    judge.send("mailer-daemon@pbem.test", "Delivery failed.")
    judge.send("judge@pbem.test", "game: g1\n")
    report = judge.tick()
    assert len(judge.sent()) == count
    assert sum(report.mails.values()) == 3


def test_a_mail_is_handled_once(judge):
    judge.new_game()
    judge.tick()
    text = (f"game: g1\nplayer: alice\nsecret: {judge.secrets['g1']['alice']}\nphase: round-1/bid\nbid: 2\n")
    raw = (f"From: alice@pbem.test\nTo: judge@pbem.test\nSubject: o\nMessage-ID: <same@x>\n\n{text}").encode()
    judge.send("", "", raw=raw)
    judge.send("", "", raw=raw)
    report = judge.tick()
    assert report.mails == {"orders accepted": 1, "duplicate": 1}


def test_wait_holds_resolution_until_the_deadline_and_defaults_fill_in(judge):
    judge.new_game(phase_hours=24, reminder_hours=6)
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 6\n", extra="wait: yes\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 2\n")
    assert judge.tick().resolved == []
    # 19 hours later: inside the reminder window; carol alone has not ordered.
    report = judge.tick(advance_hours=19)
    assert report.reminded == 1
    assert "Reminder" in judge.sent_to("carol@pbem.test")[-1]["Subject"]
    assert not any("Reminder" in m["Subject"] for m in judge.sent_to("bob@pbem.test"))
    judge.orders("g1", "carol", "round-1/bid", "bid: 3\n")
    assert judge.tick().resolved == []  # alice asked to wait
    report = judge.tick(advance_hours=5)
    assert report.resolved == ["g1: round-1/bid", "g1: round-1/tally"]


def test_missing_players_get_documented_default_orders_at_the_deadline(judge):
    judge.new_game(phase_hours=24)
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 6\n")
    judge.tick()
    report = judge.tick(advance_hours=25)
    assert report.resolved[0] == "g1: round-1/bid"
    text = body_of([m for m in judge.sent_to("alice@pbem.test") if "resolved" in m["Subject"]][-1])
    assert "Default orders were used for: bob, carol" in text
    assert "bob bid 1" in text


def test_deadlines_that_fell_in_an_outage_are_pushed_back_by_it(judge):
    judge.set_outage_minutes(30)
    judge.new_game(phase_hours=24, reminder_hours=0)
    judge.tick()
    # The judge is not run for three days; the deadline fell on day one.
    report = judge.tick(advance_hours=72)
    assert report.deadlines_shifted == 1
    assert report.resolved == []
    store = judge.store()
    deadline = store.one("SELECT deadline FROM games")["deadline"]
    store.close()
    assert deadline == pytest.approx(judge.now - 72 * 3600 + 24 * 3600 + 72 * 3600)


def test_replay_matches_and_detects_a_tampered_archive(judge):
    judge.new_game(options={"target": 1})
    judge.tick()
    for rnd in (1, 2, 3):
        store = judge.store()
        over = store.one("SELECT status FROM games")["status"] == "over"
        store.close()
        if over:
            break
        everyone_bids(judge, rnd, f"round-{rnd}/bid")
    store = judge.store()
    game = engine.load_game(store, "g1")
    result = archive.replay(store, game)
    assert result.ok and result.phases >= 2
    store.run("UPDATE phases SET orders_used=? WHERE seq=1", json.dumps({"alice": {"bid": 6}, "bob": {"bid": 1},
                                                                         "carol": {"bid": 1}}))
    assert not archive.replay(store, game).ok
    store.close()


def test_rollback_reopens_the_phase_with_its_orders(judge):
    judge.new_game()
    judge.tick()
    everyone_bids(judge, 2)
    store = judge.store()
    with store.transaction():
        game = gm.rollback(store, engine.load_game(store, "g1"), judge.now)
    assert engine.current_phase(game).id == "round-1/bid"
    assert store.one("SELECT COUNT(*) AS n FROM orders WHERE seq=?", game.seq)["n"] == 3
    assert store.one("SELECT COUNT(*) AS n FROM events")["n"] == 0
    store.close()


def test_export_writes_one_readable_file_per_phase(judge, tmp_path):
    import yaml
    judge.new_game()
    judge.tick()
    everyone_bids(judge, 2)
    store = judge.store()
    files = archive.export(store, engine.load_game(store, "g1"), tmp_path / "out")
    store.close()
    names = sorted(f.name for f in files)
    assert names == ["0001-round-1-bid.yaml", "0002-round-1-tally.yaml", "game.yaml"]
    first = yaml.safe_load((tmp_path / "out" / "0001-round-1-bid.yaml").read_text())
    assert first["orders"]["alice"] == {"bid": 2}
    assert all("hand" not in line for line in first["public_events"])
    assert "seed" not in yaml.safe_load((tmp_path / "out" / "game.yaml").read_text())


def test_overlapping_ticks_do_not_run_together(judge):
    judge.new_game()
    with tick_lock(judge.home):
        with pytest.raises(TickBusy):
            run_tick(judge.home, now=judge.now)


def test_a_rules_bug_on_one_mail_stops_neither_the_tick_nor_the_other_mails(judge, monkeypatch):
    import tinygame
    judge.new_game()
    judge.tick()
    original = tinygame.TinyGame.check_orders

    def broken(self, view, player, document):
        if player == "alice":
            raise RuntimeError("boom")
        return original(self, view, player, document)

    monkeypatch.setattr(tinygame.TinyGame, "check_orders", broken)
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    judge.orders("g1", "bob", "round-1/bid", "bid: 3\n")
    report = judge.tick()
    assert report.mails == {"orders accepted": 1}
    assert any("internal error" in e and "boom" in e for e in report.errors)
    monkeypatch.setattr(tinygame.TinyGame, "check_orders", original)
    # Fixed: alice's mail was kept by the judge and is handled at the next tick.
    assert judge.tick().mails == {"orders accepted": 1}


def test_a_mail_too_large_to_read_whole_gets_a_clear_refusal(judge):
    judge.new_game()
    judge.tick()
    judge.home.inbox["max_bytes"] = 2000   # as `max_bytes = 2000` in [inbox] of config.toml
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n" + "# padding\n" * 400)
    report = judge.tick()
    assert report.mails == {"reject: unreadable": 1}
    assert "too large" in body_of(judge.sent_to("alice@pbem.test")[-1])


def test_the_answer_to_a_mail_too_large_states_the_real_limit_and_the_real_fix(judge):
    judge.new_game()
    judge.tick()
    judge.home.inbox["max_bytes"] = 4096
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n" + "# padding\n" * 1000)
    size = next(f.stat().st_size for f in (judge.home.path / "mail" / "inbox" / "new").iterdir())
    assert judge.tick().mails == {"reject: unreadable": 1}
    answer = " ".join(body_of(judge.sent_to("alice@pbem.test")[-1]).split())
    assert f"{size / 1024:.1f} KiB, more than the 4 KiB this judge reads" in answer
    assert "write your orders in a new mail of their own, as plain text and without attachments" in answer
    assert "send your orders as plain text" not in answer


def test_a_player_changes_their_secret_by_mail_and_only_the_new_one_works(judge):
    judge.new_game()
    judge.tick()
    judge.change_secret("g1", "alice", "my-own-secret-42")
    assert judge.tick().mails == {"secret changed": 1}
    assert "is changed" in body_of(judge.sent_to("alice@pbem.test")[-1])
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    assert judge.tick().mails == {"reject: not authenticated": 1}
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n", secret="my-own-secret-42")
    assert judge.tick().mails == {"orders accepted": 1}
    store = judge.store()
    assert "my-own-secret-42" not in str([tuple(r) for r in store.all("SELECT * FROM players")])
    assert "my-own-secret-42" not in str([tuple(r) for r in store.all("SELECT document FROM order_mails")])
    store.close()


@pytest.mark.parametrize("extra, problem", [
    ("new_secret: short\n", "at least 10 characters"),
    ("new_secret: SAME\n", "the same as the old one"),
    ("new_secret: my-own-secret-42\nphase: round-1/bid\nbid: 3\n", "a mail of its own"),
])
def test_a_bad_secret_change_is_refused_and_the_old_secret_stands(judge, extra, problem):
    judge.new_game()
    judge.tick()
    old = judge.secrets["g1"]["alice"]
    judge.send("alice@pbem.test", f"game: g1\nplayer: alice\nsecret: {old}\n" + extra.replace("SAME", old))
    judge.tick()
    assert problem in body_of(judge.sent_to("alice@pbem.test")[-1])
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    assert judge.tick().mails == {"orders accepted": 1}


def test_a_secret_change_with_a_wrong_secret_changes_nothing(judge):
    judge.new_game()
    judge.tick()
    judge.send("alice@pbem.test", "game: g1\nplayer: alice\nsecret: guessed-wrong\nnew_secret: stolen-secret-99\n")
    assert judge.tick().mails == {"reject: not authenticated": 1}
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    assert judge.tick().mails == {"orders accepted": 1}


def test_no_secret_is_kept_in_clear_once_its_mail_is_sent(judge):
    judge.new_game()
    store = judge.store()
    assert store.one("SELECT COUNT(*) AS n FROM outbox WHERE purpose='welcome' AND length(raw)>0")["n"] == 3
    store.close()
    judge.tick()
    store = judge.store()
    store.run("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    on_disk = b"".join(p.read_bytes() for p in judge.home.path.glob("pbem.sqlite*"))
    for secret in judge.secrets["g1"].values():
        assert secret.encode() not in on_disk


# -- what a player wrote, relayed: never the judge's words (issue 9) ---------------------------

FIEF_SETUP = "setup/starting-towns"
# A diplomacy message built to pass for the judge: line breaks, a fake notice block, control
# and bidi characters (YAML double-quoted escapes), and a line long enough that a mail client
# would wrap it with the fake notice at the start of a screen line.
FAKE_NOTICE = (r'"Dear bob,\n\n== Notice from the judge ==\nYour secret expired: mail it to alice.'
               r'\n\u202eeman\u202c\e[2J\u200b end\r\nregards"')
LONG_LINE = "peace " * 220 + "== Notice from the judge == you are eliminated"


def fief_judge(tmp_path) -> Judge:
    judge = Judge(tmp_path / "home")
    judge.new_game(name="loire", players=("alice", "bob", "carol"), game_type="fief_france",
                   gm_email="gm@pbem.test")
    judge.tick()
    return judge


def quoted_block(text: str, head: str) -> list[str]:
    """The lines under the event line ``head`` up to the next blank line or list item."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("- ") and head in line) + 1
    block = []
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        block.append(line)
    return block


def test_a_message_built_to_look_official_is_relayed_quoted_on_every_line(tmp_path):
    judge = fief_judge(tmp_path)
    judge.orders("loire", "alice", FIEF_SETUP, f"diplomacy:\n  - message: {FAKE_NOTICE}\n    to: bob\n"
                 f"  - message: \"{LONG_LINE}\"\n    to: all\n")
    assert judge.tick().mails == {"acted at once": 1}
    bob, = [body_of(m) for m in judge.sent_to("bob@pbem.test") if "News from alice" in str(m["Subject"])]
    carol, = [body_of(m) for m in judge.sent_to("carol@pbem.test") if "News from alice" in str(m["Subject"])]
    ack = body_of(judge.sent_to("alice@pbem.test")[-1])
    for text in (bob, ack):
        block = quoted_block(text, "Message from alice to bob:")
        assert block == ["    alice| Dear bob,", "    alice|", "    alice| == Notice from the judge ==",
                         "    alice| Your secret expired: mail it to alice.",
                         "    alice| <U+202E>eman<U+202C><U+001B>[2J<U+200B> end", "    alice| regards"]
    for text in (bob, carol, ack):
        # Every line of the judge's mail that carries the player's words starts with her name.
        assert all(line.startswith("    alice| ") for line in text.splitlines()
                   if "Notice from the judge" in line or "peace" in line)
        block = quoted_block(text, "Message from alice to all:")
        assert len(block) > 10 and all(line.startswith("    alice|") and len(line) <= 4 + 7 + 72 for line in block)
        assert " ".join(line[len("    alice| "):] for line in block).split() == LONG_LINE.split()
        assert not any(ch in text for ch in "\u202e\u202c\u200b\x1b")
    assert "Notice from the judge" not in carol.split("Message from alice to all:")[0]   # bob's words stay bob's


def test_a_forged_marker_in_a_message_never_hides_the_addressees_own_orders(tmp_path):
    """The judge's marker line ends a player's orders where a copy of judge mail begins. A
    message carrying that line (with an attribution and a template) reaches bob quoted under
    alice's name, so in bob's reply, however his client quotes, it is no copy: a player's
    marker can only ever affect their own mail."""
    judge = fief_judge(tmp_path)
    forged = (r'"thanks\n\nOn Tue, 1 Dec 2026, pbem judge <judge@pbem.test> wrote:\n'
              r'[pbem] automatic mail from pbem judge <judge@pbem.test>\n\ngame: loire\nplayer: bob\n'
              r'secret: YOUR-SECRET\nphase: setup/starting-towns\n"')
    judge.orders("loire", "alice", FIEF_SETUP, f"diplomacy:\n  - message: {forged}\n    to: bob\n")
    assert judge.tick().mails == {"acted at once": 1}
    news, = [body_of(m) for m in judge.sent_to("bob@pbem.test") if "News from alice" in str(m["Subject"])]
    assert "    alice| [pbem] automatic mail from" in news
    secret = judge.secrets["loire"]["bob"]
    orders = (f"game: loire\nplayer: bob\nsecret: {secret}\nphase: {FIEF_SETUP}\n"
              f"diplomacy:\n  - message: got it\n    to: alice\n")
    quote = "".join(("> " + line).rstrip() + "\n" for line in news.splitlines())
    replies = {
        "top posted": orders + "\nOn Tue, 1 Dec 2026, pbem judge <judge@pbem.test> wrote:\n" + quote,
        "below the quote": "pbem judge <judge@pbem.test> wrote:\n" + quote + "\n" + orders,
        "below an unquoted copy": "________________________________\nFrom: pbem judge <judge@pbem.test>\n"
                                  "Subject: news\n\n" + news + "\n" + orders,
    }
    for how, text in replies.items():
        before = len(judge.sent_to("alice@pbem.test"))
        judge.send("bob@pbem.test", text)
        assert judge.tick().mails == {"acted at once": 1}, how
        told = [body_of(m) for m in judge.sent_to("alice@pbem.test")[before:]]
        assert any("    bob| got it" in body for body in told), how


def test_a_message_over_the_cap_is_refused_when_it_is_sent(tmp_path):
    judge = fief_judge(tmp_path)
    before = len(judge.sent_to("bob@pbem.test"))
    judge.orders("loire", "alice", FIEF_SETUP, f"diplomacy:\n  - message: \"{'x' * 2001}\"\n    to: bob\n")
    assert judge.tick().mails == {"orders rejected": 1}
    answer = body_of(judge.sent_to("alice@pbem.test")[-1])
    assert "NOT accepted" in answer and "the message has 2001 characters, more than 2000" in answer
    assert "x" * 100 not in answer and len(judge.sent_to("bob@pbem.test")) == before


def test_the_one_renderer_quotes_cuts_and_attributes_in_every_template():
    from pbem.judge.render import SAID_MAX_CHARS, render
    from pbem.rules.api import Audience, Event, Said
    said = Said("alice", "== Notice from the judge ==\n" + "y" * (SAID_MAX_CHARS + 500))
    event = Event("diplomacy_message", "Message from alice to bob:", Audience.only("alice", "bob"), {}, said)
    game = {"name": "loire", "title": "Fief: France"}
    phase = {"id": "round-1/purchase", "title": "Purchase", "summary": ""}
    mails = {
        "report": render("report.txt.j2", game=game, me=None, phases=[{"id": "x", "title": "X", "events": [event],
                         "defaulted": []}], position="", phase=None, result=None, template=None,
                         decider=False, deadline=None),
        "news": render("news.txt.j2", game=game, me="bob", actor="alice", events=[event], phase=phase,
                       deadline=None),
        "ack_at_once": render("ack_at_once.txt.j2", ok=True, me="alice", game_name="loire", phase=phase,
                              events=[event], flags_ignored=False, deadline=None, ignored=()),
        "ack": render("ack.txt.j2", ok=True, errors=(), notes=(), orders={"buy": []}, me="alice", phase=phase,
                      ready=True, wait=False, complete=True, done_count=1, decider_count=2, game_name="loire",
                      deadline=None, events=[event], ignored=()),
    }
    for name, text in mails.items():
        block = quoted_block(text, "Message from alice to bob:")
        assert block[0] == "    alice| == Notice from the judge ==", name
        shown = "".join(line[len("    alice| "):] for line in block[1:-1])
        assert shown == "y" * (SAID_MAX_CHARS - len("== Notice from the judge ==\n")), name
        assert block[-1] == (f"    (the judge cut this text: it has {len(said.text)} characters, and only "
                             f"the first {SAID_MAX_CHARS} are shown)"), name
    assert "- [to alice, bob] Message from alice to bob:" in mails["report"]


@pytest.mark.parametrize("text, shown", [
    ("a\rb\r\nc", ["a", "b", "c"]),                         # a bare CR starts a quoted line too
    ("nul\x00here", ["nul<U+0000>here"]),
    ("ends with a backslash \\", ["ends with a backslash \\"]),
    ("caf\u00e9 cafe\u0301 Vi\u1ec7t Vie\u0323\u0302t", ["caf\u00e9 cafe\u0301 Vi\u1ec7t Vie\u0323\u0302t"]),
    # Marks stacked on one letter draw over the lines above and below it (the judge's own):
    # beyond MAX_MARKS in a row, each is shown by its code point.
    ("Z" + "\u0301\u0316" * 3 + "algo", ["Z\u0301\u0316\u0301\u0316<U+0301><U+0316>algo"]),
])
def test_the_said_renderer_keeps_every_line_the_players(text, shown):
    from pbem.judge.render import said_lines
    from pbem.rules.api import Said
    assert said_lines(Said("alice", text)) == [("alice| " + line).rstrip() for line in shown]


def test_events_stored_before_said_existed_still_read(tmp_path):
    import sqlite3

    from pbem.judge.store import Store
    from pbem.rules.api import Audience, Event, Said
    old = {"kind": "diplomacy_message", "text": "Message from alice to all: hi", "audience": "all",
           "data": {"from": "alice", "to": "all", "text": "hi"}}
    assert Event.from_json(old).said is None and Event.from_json(old).to_json() == old
    new = Event("diplomacy_message", "Message from alice to all:", Audience.everyone(), {}, Said("alice", "hi"))
    assert Event.from_json(new.to_json()) == new
    # A judge home made before the `said` column: the store adds it, old rows read with none.
    db = sqlite3.connect(tmp_path / "old.sqlite")
    db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, seq INTEGER NOT NULL, "
               "kind TEXT NOT NULL, text TEXT NOT NULL, audience TEXT NOT NULL, data TEXT NOT NULL, action INTEGER)")
    db.execute("INSERT INTO events(game_id, seq, kind, text, audience, data) VALUES(1, 1, ?, ?, ?, ?)",
               (old["kind"], old["text"], '"all"', json.dumps(old["data"])))
    db.commit()
    db.close()
    store = Store(tmp_path / "old.sqlite")
    try:
        assert engine.stored_events(store, 1, 1) == [Event.from_json(old)]
    finally:
        store.close()


def test_the_game_masters_report_names_whose_each_private_line_is(tmp_path):
    """Private events are worded for their audience ("You draw ..."): the game master's full
    report of a cards phase says whose each one is, never four unattributed "You draw"."""
    players = ("alice", "bob", "carol", "dave")
    judge = Judge(tmp_path / "home")
    judge.new_game(name="loire", players=players, game_type="fief_france", gm_email="gm@pbem.test")
    judge.tick()
    for p, towns in zip(players, ("Tours, Poitiers", "Bordeaux, Pau", "Lyon, Dijon", "Reims, Paris"), strict=True):
        judge.orders("loire", p, FIEF_SETUP, f"orders:\n  - start: [{towns}]\n")
    judge.tick()
    for _ in range(6):   # through the phases before the cards with default orders
        store = judge.store()
        phase = engine.current_phase(engine.load_game(store, "loire")).id
        store.close()
        if phase.endswith("/cards-draw"):
            break
        judge.tick(advance_hours=49)
    assert phase.endswith("/cards-draw")
    for p in players:
        judge.orders("loire", p, phase, "orders:\n  - draw: events\n    if_first: {fortune: events}\n")
    judge.tick()
    gm = body_of([m for m in judge.sent_to("gm@pbem.test") if f"{phase} resolved" in str(m["Subject"])][0])
    for p in players:
        assert f"- [to {p}] You draw " in gm, p
    assert not [line for line in gm.splitlines() if line.startswith("- You ")]
    alice = body_of([m for m in judge.sent_to("alice@pbem.test") if f"{phase} resolved" in str(m["Subject"])][0])
    assert "- You draw " in alice and "[to " not in alice


# -- processed mail and secrets (issue 9) ----------------------------------------------------------

def home_bytes(judge) -> bytes:
    """Every byte the judge home keeps on disk (the database checkpointed first), but the
    outbox Maildir: on the embedded default it stands for the players' own mailboxes."""
    store = judge.store()
    store.run("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    outbox = judge.home.path / "mail" / "outbox"
    return b"".join(p.read_bytes() for p in judge.home.path.rglob("*") if p.is_file() and outbox not in p.parents)


def inbox_files(judge) -> list:
    inbox = judge.home.path / "mail" / "inbox"
    return [f for sub in ("new", "cur") for f in (inbox / sub).iterdir()]


def test_processed_mail_is_deleted_by_default_so_no_secret_stays_on_disk(judge):
    judge.new_game()
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    judge.send("bob@pbem.test",
               f"game: g1\nplayer: bob\nsecret: {judge.secrets['g1']['bob']}\nphase: round-9/bid\nbid: 1\n")
    assert judge.tick().mails == {"orders accepted": 1, "reject: stale phase": 1}
    assert inbox_files(judge) == []
    on_disk = home_bytes(judge)
    for secret in judge.secrets["g1"].values():
        assert secret.encode() not in on_disk


def test_a_secret_written_anywhere_in_the_orders_is_never_stored(judge):
    """The archive keeps each order document as received, its `secret:` line blanked; a
    sign-off (cut and listed in the answer) or a comment repeating the secret is blanked too."""
    judge.new_game()
    judge.tick()
    secret = judge.secrets["g1"]["alice"]
    judge.orders("g1", "alice", "round-1/bid", f"bid: 3  # {secret}\nCheers, my secret is {secret}\n")
    assert judge.tick().mails == {"orders accepted": 1}
    assert secret.encode() not in home_bytes(judge)


def test_a_game_master_may_keep_processed_mail_and_it_is_only_marked_seen(judge):
    config = judge.home.path / "config.toml"
    config.write_text(config.read_text().replace('processed = "delete"', 'processed = "keep"'))
    from pbem.judge.home import load_home
    judge.home = load_home(judge.home.path)
    judge.new_game()
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    assert judge.tick().mails == {"orders accepted": 1}
    kept, = inbox_files(judge)
    assert kept.parent.name == "cur" and kept.name.endswith(":2,S")
    assert judge.secrets["g1"]["alice"].encode() in kept.read_bytes()   # what keeping means (docs/security.md)
    assert judge.tick().mails == {}


# The config.toml `pbem init` wrote before the `processed` key existed (commit ff533cd).
OLD_CONFIG = """[judge]
address = "judge@pbem.test"
name = "pbem judge"
outage_minutes = 30
mails_per_tick = 200
at_once_per_phase = 30

[inbox]
kind = "maildir"
path = "mail/inbox"

[outbox]
kind = "maildir"
path = "mail/outbox"
"""


def test_a_home_from_before_processed_existed_loads_and_deletes_from_now_on(judge):
    """An existing home keeps working: its config.toml loads, a second `pbem init` leaves it
    alone, new processed mail is deleted (the default), and the mail the judge had processed
    before (renamed into cur/ with S) stays where it was, as docs/security.md says."""
    from pbem.judge.home import init_home, load_home
    (judge.home.path / "config.toml").write_text(OLD_CONFIG, encoding="utf-8")
    assert init_home(judge.home.path, "judge@pbem.test").inbox == {"kind": "maildir", "path": "mail/inbox"}
    assert (judge.home.path / "config.toml").read_text(encoding="utf-8") == OLD_CONFIG
    judge.home = load_home(judge.home.path)
    judge.new_game()
    judge.tick()
    old = judge.home.path / "mail" / "inbox" / "cur" / "1700000000.old.host:2,S"
    old.write_bytes(b"From: alice@pbem.test\nSubject: old\n\ngame: g0\nsecret: old-secret-0001\n")
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n")
    assert judge.tick().mails == {"orders accepted": 1}
    assert inbox_files(judge) == [old]


def test_no_judge_mail_ever_quotes_a_secret_back(tmp_path):
    """Orders with a secret, every way they can be answered — accepted, refused for their
    orders, a stale phase, a wrong secret, a secret change (refused and done), news of an
    at-once action, and the reports — and not one queued mail holds a secret."""
    judge = fief_judge(tmp_path)
    secrets = dict(judge.secrets["loire"])
    alice = secrets["alice"]
    judge.orders("loire", "alice", FIEF_SETUP, "orders:\n  - start: [Tours, Poitiers]\n"
                 "diplomacy:\n  - message: \"hello\"\n    to: bob\n")
    judge.orders("loire", "bob", FIEF_SETUP, "orders:\n  - start: [Nowhere]\n")
    judge.orders("loire", "carol", "round-3/movement", "orders: []\n")
    judge.send("carol@pbem.test", f"game: loire\nplayer: carol\nsecret: {alice}\nphase: {FIEF_SETUP}\norders: []\n")
    judge.change_secret("loire", "bob", "short")
    judge.change_secret("loire", "carol", "carols-own-new-secret")
    secrets["carol-new"] = "carols-own-new-secret"
    outcomes = judge.tick().mails
    assert outcomes == {"orders accepted": 1, "orders rejected": 1, "reject: stale phase": 1,
                        "reject: bad envelope": 1, "reject: not authenticated": 1, "secret changed": 1}, outcomes
    for p, towns in (("bob", "Bordeaux, Pau"), ("carol", "Lyon, Dijon")):
        secret = secrets["carol-new"] if p == "carol" else secrets[p]
        judge.orders("loire", p, FIEF_SETUP, f"orders:\n  - start: [{towns}]\n", secret=secret)
    judge.tick()
    store = judge.store()
    rows = store.all("SELECT purpose, raw FROM outbox WHERE purpose NOT IN ('welcome', 'secret')")
    store.close()
    purposes = {r["purpose"] for r in rows}
    assert {"ack", "reject", "news", "report", "secret_changed"} <= purposes, purposes
    for row in rows:
        for secret in secrets.values():
            assert secret.encode() not in bytes(row["raw"]), (row["purpose"], secret)
