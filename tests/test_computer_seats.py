"""Computer players at the table (docs/computer-players.md): seats the computer holds from the
start, handed to it and back, away_policy=bot and disorder_policy=bot; the tick's step that has
each of them order once a phase, through the same path as a mail's orders, replayed exactly; a
computer player whose orders are refused plays its defaults and the game master is told once."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import tinygame
from judge_support import Judge
from pbem.cli import main
from pbem.games import rules_for
from pbem.judge import archive, computer, engine
from pbem.judge.mailer import Mailer
from pbem.judge.store import SCHEMA_VERSION, Store
from pbem.judge.tick import EXIT_ATTENTION
from test_stored_games import raw_schema, stored_home

BID = "round-1/bid"


def bids(self, view, player, rng):
    """The tiny game's computer player: a bid drawn from its generator (its view decides nothing)."""
    return f"bid: {rng.choice(range(1, 7), 'bid')}\n"


@pytest.fixture
def computers(monkeypatch):
    monkeypatch.setattr(tinygame.TinyGame, "computer_orders", bids, raising=False)


def new_game(judge: Judge, seats, computers=(), settings=None, gm_email="gm@pbem.test", name="g1"):
    store = judge.store()
    try:
        with store.transaction():
            game, secrets = engine.create_game(store, "tiny", name, [(p, "" if p in computers else f"{p}@pbem.test")
                                                                   for p in seats], {"target": 2}, 48, 12,
                                               gm_email, judge.now, seed="s33d", computers=computers)
            if settings:
                store.run("UPDATE games SET settings=? WHERE id=?", json.dumps(settings), game.id)
                game = engine.reload(store, game)
            Mailer(store, judge.home).welcomes(game, secrets)
        judge.secrets[name] = secrets
    finally:
        store.close()


def rows(judge: Judge, sql: str, *args):
    store = judge.store()
    try:
        return [dict(r) for r in store.all(sql, *args)]
    finally:
        store.close()


def recipients(judge: Judge) -> list[str]:
    return [r["recipient"] for r in rows(judge, "SELECT recipient FROM outbox ORDER BY id")]


def replayed(judge: Judge, name: str = "g1"):
    store = judge.store()
    try:
        return archive.replay(store, engine.load_game(store, name))
    finally:
        store.close()


# -- the store ----------------------------------------------------------------------------------

def test_a_store_before_version_10_migrates_every_seat_to_a_person(tmp_path):
    home = stored_home(tmp_path, "fief_france-demo-f3da6be.sqlite.gz")
    version, tables = raw_schema(home)
    assert version < 10 and "kind" not in tables["players"]
    store = Store(home / "pbem.sqlite")
    try:
        assert store.one("PRAGMA user_version")[0] == SCHEMA_VERSION >= 10
        seats = store.all("SELECT kind, computer_alerted FROM players")
        assert seats and {(r["kind"], r["computer_alerted"]) for r in seats} == {("person", 0)}
    finally:
        store.close()
    # Its game plays on, its seats mailed as before (the reports of a resolution go to each player).
    assert CliRunner().invoke(main, ["game", "resolve", "demo", "--home", str(home)]).exit_code == 0
    store = Store(home / "pbem.sqlite")
    try:
        reported = {r["recipient"] for r in store.all("SELECT recipient FROM outbox WHERE purpose='report'")}
        assert {r["email"] for r in store.all("SELECT email FROM players")} <= reported
    finally:
        store.close()


# -- seats --------------------------------------------------------------------------------------

def test_game_new_seats_a_computer_player_in_the_command_lines_order_and_mails_it_nothing(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    result = CliRunner().invoke(main, ["game", "new", "tiny", "--home", str(judge.home.path), "--name", "g1",
                                       "--player", "anna:anna@pbem.test", "--bot", "bela",
                                       "--player=carl:carl@pbem.test", "--gm-email", "gm@pbem.test"])
    assert result.exit_code == 0, result.output
    assert "1 played by the computer: bela" in result.output
    seats = rows(judge, "SELECT name, kind, email FROM players ORDER BY seat")
    assert [(s["name"], s["kind"]) for s in seats] == [("anna", "person"), ("bela", "computer"), ("carl", "person")]
    assert sorted(recipients(judge)) == ["anna@pbem.test", "carl@pbem.test"]   # no welcome for bela
    shown = CliRunner().invoke(main, ["game", "show", "g1", "--home", str(judge.home.path)])
    assert "Played by the computer: bela" in shown.output
    judge.tick()
    welcome = judge.sent_to("anna@pbem.test")[0].get_body(("plain",)).get_content()
    assert "Players, in seating order: anna, bela, carl.\nPlayed by the judge's computer player: bela" in welcome


def test_a_game_without_a_computer_player_refuses_a_bot_seat(tmp_path):
    judge = Judge(tmp_path / "home")
    result = CliRunner().invoke(main, ["game", "new", "tiny", "--home", str(judge.home.path), "--name", "g1",
                                       "--player", "anna:anna@pbem.test", "--bot", "bela"])
    assert result.exit_code == 1
    assert "Tiny Bidding has no computer player yet; seat a person" in result.output
    assert "Traceback" not in result.output


def test_the_computer_orders_once_a_phase_like_a_mail_and_the_game_replays(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"), computers=("bela",))
    judge.tick()
    judge.tick()   # a second tick in the same phase writes nothing more
    mails = rows(judge, "SELECT player, message_id, document, understood, errors FROM order_mails")
    assert [m["player"] for m in mails] == ["bela"]
    assert mails[0]["message_id"].startswith("<computer.") and "bid:" in mails[0]["document"]
    assert json.loads(mails[0]["understood"])["bid"] in range(1, 7) and json.loads(mails[0]["errors"]) == []
    assert rows(judge, "SELECT outcome FROM processed WHERE message_id=?", mails[0]["message_id"]) == [
        {"outcome": computer.OUTCOME}]
    # anna orders: the phase resolves at once (bela's orders are complete), the game goes on.
    judge.orders("g1", "anna", BID, "bid: 6\n")
    report = judge.tick()
    assert "g1: round-1/bid" in report.resolved and report.exit_code == 0
    judge.tick()
    assert [m["player"] for m in rows(judge, "SELECT player FROM order_mails WHERE seq=3")] == ["bela"]
    # Nothing was ever addressed to bela, and its orders were never acknowledged by mail.
    assert "" not in recipients(judge)
    assert replayed(judge).ok


def test_the_computer_players_generator_is_the_games_seed_phase_and_player(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela", "carl"), computers=("bela", "carl"))
    store = judge.store()
    try:
        game = engine.load_game(store, "g1")
        first = [tuple(computer.computer_rng(game, p).choice(range(10**9)) for _ in range(3))
                 for p in ("bela", "carl", "bela")]
    finally:
        store.close()
    assert first[0] == first[2] and first[0] != first[1]


def refusing(self, view, player, rng):
    return "bid: 9\n"


def test_refused_computer_orders_play_the_defaults_and_alert_the_game_master_once(tmp_path, monkeypatch):
    monkeypatch.setattr(tinygame.TinyGame, "computer_orders", refusing, raising=False)
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"), computers=("bela",))
    report = judge.tick()
    assert report.exit_code == EXIT_ATTENTION
    assert any("computer player of bela failed in round-1/bid" in line and "1 to 6" in line
               for line in report.attention)
    orders = rows(judge, "SELECT canonical, ready FROM orders WHERE player='bela'")
    default = rules_for("tiny").default_orders({}, "bela")
    assert [json.loads(o["canonical"]) for o in orders] == [default] and orders[0]["ready"] == 1
    judge.orders("g1", "anna", BID, "bid: 6\n")
    judge.tick()
    again = judge.tick()   # the next phase: refused again, said again, but not mailed again
    assert again.exit_code == EXIT_ATTENTION
    alerts = rows(judge, "SELECT recipient FROM outbox WHERE purpose='alert'")
    assert [a["recipient"] for a in alerts] == ["gm@pbem.test"]
    body = [m for m in judge.sent_to("gm@pbem.test") if "computer player of bela" in str(m["Subject"])]
    text = body[0].get_body(("plain",)).get_content()
    assert "bid: 9" in text and "default orders" in text
    assert replayed(judge).ok


def raising(self, view, player, rng):
    raise KeyError("no such town")


def test_a_computer_player_that_raises_plays_the_defaults_and_the_game_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(tinygame.TinyGame, "computer_orders", raising, raising=False)
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"), computers=("bela",))
    report = judge.tick()
    assert any("KeyError" in line for line in report.attention)
    judge.orders("g1", "anna", BID, "bid: 6\n")
    assert "g1: round-1/bid" in judge.tick().resolved
    assert rows(judge, "SELECT stuck FROM games") == [{"stuck": None}]


def test_a_seat_handed_to_the_computer_and_back(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"))
    home = str(judge.home.path)
    result = CliRunner().invoke(main, ["game", "bot", "g1", "anna", "--home", home])
    assert result.exit_code == 0, result.output
    assert "the computer player now plays anna" in result.output
    told = [m for m in judge.store().all("SELECT recipient FROM outbox WHERE purpose='announce'")]
    assert {r["recipient"] for r in told} == {"anna@pbem.test", "bela@pbem.test", "gm@pbem.test"}
    # anna's own mail is refused now, saying how to get the seat back.
    judge.orders("g1", "anna", BID, "bid: 2\n")
    judge.tick()
    answer = judge.sent_to("anna@pbem.test")[-1].get_body(("plain",)).get_content()
    assert "computer player holds anna's seat" in " ".join(answer.split())
    assert [r["player"] for r in rows(judge, "SELECT player FROM order_mails")] == ["anna"]
    assert "<computer." in rows(judge, "SELECT message_id FROM order_mails")[0]["message_id"]
    again = CliRunner().invoke(main, ["game", "bot", "g1", "anna", "--home", home])
    assert again.exit_code == 1 and "already plays anna" in again.output
    nobody = CliRunner().invoke(main, ["game", "bot", "g1", "zeno", "--home", home])
    assert nobody.exit_code == 1 and "has no player 'zeno'" in nobody.output
    back = CliRunner().invoke(main, ["game", "bot", "g1", "anna", "--off", "--home", home])
    assert back.exit_code == 0, back.output
    judge.tick()
    welcome = [m for m in judge.sent_to("anna@pbem.test") if "You now play anna" in str(m["Subject"])]
    assert welcome, "anna gets a new secret with her seat"
    assert rows(judge, "SELECT kind FROM players WHERE name='anna'") == [{"kind": "person"}]


def test_a_seat_seated_as_a_computer_has_no_address_to_hand_back_to(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"), computers=("bela",))
    home = str(judge.home.path)
    result = CliRunner().invoke(main, ["game", "bot", "g1", "bela", "--off", "--home", home])
    assert result.exit_code == 1 and "pbem game replace g1 bela EMAIL" in result.output
    replaced = CliRunner().invoke(main, ["game", "replace", "g1", "bela", "bela@pbem.test", "--home", home])
    assert replaced.exit_code == 0, replaced.output
    assert rows(judge, "SELECT kind FROM players WHERE name='bela'") == [{"kind": "person"}]


def test_away_policy_bot_has_the_computer_play_an_absent_player_who_did_not_order(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela", "carl"), settings={"away_policy": "bot"})
    store = judge.store()
    try:
        with store.transaction():
            store.run("INSERT INTO absences(game_id, player, away_from, away_to, announced_at) VALUES(1,?,?,?,?)",
                      "anna", judge.now - 10, judge.now + 86400 * 3, judge.now)
            store.run("INSERT INTO absences(game_id, player, away_from, away_to, announced_at) VALUES(1,?,?,?,?)",
                      "bela", judge.now - 10, judge.now + 86400 * 3, judge.now)
    finally:
        store.close()
    judge.orders("g1", "bela", BID, "bid: 3\n")   # bela ordered: the computer leaves hers alone
    judge.tick()
    mails = rows(judge, "SELECT player, message_id FROM order_mails ORDER BY id")
    assert [(m["player"], m["message_id"].startswith("<computer.")) for m in mails] == [("bela", False),
                                                                                        ("anna", True)]
    # anna is still a person: she keeps her reports.
    judge.orders("g1", "carl", BID, "bid: 1\n")
    judge.tick()
    reported = {r["recipient"] for r in rows(judge, "SELECT recipient FROM outbox WHERE purpose='report'")}
    assert "anna@pbem.test" in reported


def test_disorder_policy_bot_hands_a_position_in_civil_disorder_to_the_computer(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"), settings={"civil_disorder_after": 1, "disorder_policy": "bot"})
    judge.orders("g1", "bela", BID, "bid: 3\n")
    judge.tick()
    judge.tick(49)   # the deadline passes: anna missed it
    assert rows(judge, "SELECT kind FROM players WHERE name='anna'") == [{"kind": "computer"}]
    notices = [m for m in judge.sent_to("anna@pbem.test") if "anna missed 1 deadlines" in str(m["Subject"])
               or "computer player takes" in m.get_body(("plain",)).get_content()]
    assert notices, "anna is told the computer takes her seat"
    judge.tick()
    assert rows(judge, "SELECT player FROM order_mails WHERE seq=3 AND message_id LIKE '<computer.%'") == [
        {"player": "anna"}]
    assert replayed(judge).ok


def test_the_settings_take_the_bot_policies(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"))
    home = str(judge.home.path)
    result = CliRunner().invoke(main, ["game", "settings", "g1", "away_policy=bot", "disorder_policy=bot",
                                       "--home", home])
    assert result.exit_code == 0, result.output
    wrong = CliRunner().invoke(main, ["game", "settings", "g1", "disorder_policy=robot", "--home", home])
    assert wrong.exit_code == 1 and "takes one of default, bot" in wrong.output


def kek_computer(self, view, player, rng):
    """Kard és Korona's random orders, standing in for its computer player until it has one: mostly
    legal, now and then a deliberate mistake (which the judge refuses: the seat plays its defaults)."""
    return self.random_orders(view, player, rng)


def test_kard_es_korona_computer_seats_order_every_phase_through_the_judge(tmp_path, monkeypatch):
    rules = rules_for("kard_es_korona")
    monkeypatch.setattr(type(rules), "computer_orders", kek_computer, raising=False)
    judge = Judge(tmp_path / "home")
    store = judge.store()
    try:
        with store.transaction():
            engine.create_game(store, "kard_es_korona", "k1", [("anna", "anna@pbem.test"), ("bela", ""), ("carl", "")],
                               {o.name: o.default for o in rules.options()}, 48, 12, "gm@pbem.test", judge.now,
                               seed="kek-seed", computers=("bela", "carl"))
    finally:
        store.close()
    refused = 0
    for _ in range(12):   # anna never orders: each deadline passes with her defaults
        report = judge.tick(49)
        assert all("it plays its default orders" in line for line in report.attention), report.lines()
        refused += len(report.attention)
    ordered = rows(judge, "SELECT player, document FROM order_mails WHERE message_id LIKE '<computer.%'")
    assert {r["player"] for r in ordered} == {"bela", "carl"}
    # A refused text is not kept: the seat's orders of that phase are its defaults, saying why.
    assert sum(r["document"].startswith("(default orders") for r in ordered) == refused < len(ordered)
    assert len(rows(judge, "SELECT 1 FROM phases WHERE resolved_at IS NOT NULL")) >= 10
    assert replayed(judge, "k1").ok


def test_a_game_of_computers_only_and_the_seat_order_of_the_command_line(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    home = str(judge.home.path)
    result = CliRunner().invoke(main, ["game", "new", "tiny", "--home", home, "--name", "g1", "--bot=zoe",
                                       "--bot", "abel"])
    assert result.exit_code == 0, result.output
    assert [r["name"] for r in rows(judge, "SELECT name FROM players ORDER BY seat")] == ["zoe", "abel"]
    for _ in range(6):
        judge.tick(1)
    assert rows(judge, "SELECT status FROM games") == [{"status": "over"}]
    assert rows(judge, "SELECT COUNT(*) AS n FROM outbox WHERE recipient=''") == [{"n": 0}]
    assert replayed(judge).ok
    same = CliRunner().invoke(main, ["game", "new", "tiny", "--home", home, "--name", "g2", "--bot", "abel",
                                     "--player", "abel:abel@pbem.test"])
    assert same.exit_code == 1 and "two seats have the same name" in same.output
    none = CliRunner().invoke(main, ["game", "new", "tiny", "--home", home, "--name", "g3"])
    assert none.exit_code == 1 and "--bot NAME for the computer" in none.output


def test_a_computer_seat_is_never_reminded_nor_told_the_news(tmp_path, computers):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela", "carl"), computers=("carl",))
    judge.tick()
    judge.tick(40)   # 8 hours before the deadline: anna and bela are reminded, carl has ordered anyway
    store = judge.store()
    try:
        with store.transaction():   # a position handed to the computer after it was reminded once
            store.run("UPDATE players SET kind='computer' WHERE name='bela'")
    finally:
        store.close()
    judge.orders("g1", "anna", BID, "bid: 4\n", extra="shout: hello\n")
    judge.tick()
    purposes = {(r["recipient"], r["purpose"]) for r in rows(judge, "SELECT recipient, purpose FROM outbox")}
    assert ("anna@pbem.test", "reminder") in purposes
    assert not {p for p in purposes if p[0] in ("", "bela@pbem.test") and p[1] in ("news", "report")}


def test_the_computer_player_is_handed_its_seats_view_and_nothing_else(tmp_path, monkeypatch):
    seen = []

    def watching(self, view, player, rng):
        seen.append((player, view))
        return "bid: 2\n"
    monkeypatch.setattr(tinygame.TinyGame, "computer_orders", watching, raising=False)
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"), computers=("bela",))
    judge.tick()
    store = judge.store()
    try:
        game = engine.load_game(store, "g1")
        assert seen == [("bela", game.rules.view(game.state, "bela"))]
    finally:
        store.close()
    assert "hands" not in seen[0][1] and seen[0][1]["hand"] == game.state["hands"]["bela"]


def templates(self, view, player, rng):
    """A stand-in computer player for a game that has none yet: its order template as it comes
    (every order commented out: the default orders), the demo's players for such a game."""
    return self.order_template(view, player)


@pytest.mark.parametrize("game_type, seats", [("fief_france", 3), ("fief_england", 2)])
def test_every_game_takes_computer_orders_through_the_judge(tmp_path, monkeypatch, game_type, seats):
    rules = rules_for(game_type)
    monkeypatch.setattr(type(rules), "computer_orders", templates, raising=False)
    judge = Judge(tmp_path / "home")
    names = ["anna", "bela", "csaba", "dora"][:seats]
    store = judge.store()
    try:
        with store.transaction():
            engine.create_game(store, game_type, "f1", [(n, "") for n in names],
                               {o.name: o.default for o in rules.options()}, 48, 12, "gm@pbem.test", judge.now,
                               seed="fief-seed", computers=names)
    finally:
        store.close()
    for _ in range(8):   # every seat the computer's: each phase resolves at the tick it opens after
        report = judge.tick(1)
        assert report.exit_code == 0, report.lines()
    assert len(rows(judge, "SELECT 1 FROM phases WHERE resolved_at IS NOT NULL")) >= 6
    assert not rows(judge, "SELECT 1 FROM order_mails WHERE errors != '[]' OR document LIKE '(default%'")
    assert rows(judge, "SELECT COUNT(*) AS n FROM outbox WHERE recipient != 'gm@pbem.test'") == [{"n": 0}]
    assert replayed(judge, "f1").ok


def test_a_failure_outside_any_one_seat_stops_the_game_until_retry(tmp_path, computers, monkeypatch):
    judge = Judge(tmp_path / "home")
    new_game(judge, ("anna", "bela"), computers=("bela",))
    view = tinygame.TinyGame.view

    def broken(self, state, player):
        if player == "bela":
            raise IndexError("injected")
        return view(self, state, player)
    monkeypatch.setattr(tinygame.TinyGame, "view", broken)
    report = judge.tick()
    assert report.exit_code == EXIT_ATTENTION
    assert any("game g1 stopped" in line and "IndexError: injected" in line for line in report.attention)
    stuck = json.loads(rows(judge, "SELECT stuck FROM games")[0]["stuck"])
    assert stuck["doing"] == "computer" and stuck["phase"] == BID
    assert rows(judge, "SELECT COUNT(*) AS n FROM order_mails") == [{"n": 0}]
    assert judge.tick().exit_code == 0   # passed by, not mailed about again
    monkeypatch.setattr(tinygame.TinyGame, "view", view)
    retried = CliRunner().invoke(main, ["game", "retry", "g1", "--home", str(judge.home.path)])
    assert retried.exit_code == 0, retried.output
    judge.tick()
    assert [r["player"] for r in rows(judge, "SELECT player FROM order_mails")] == ["bela"]
