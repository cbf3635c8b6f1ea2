"""`pbem selfplay` (docs/computer-players.md, "Self-play"): whole games through the real judge,
mailed and ticked to their end, replayed exactly; any internal error makes it exit non-zero."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import tinygame
from judge_support import Judge  # noqa: F401  (registers the tiny game)
from pbem.cli import main
from pbem.games import rules_for
from pbem.judge.store import Store


def selfplay(tmp_path, *args):
    result = CliRunner().invoke(main, ["selfplay", *args, "--home", str(tmp_path / "home")])
    assert "Traceback" not in result.output
    return result


def stored(tmp_path, sql, *args):
    store = Store(tmp_path / "home" / "pbem.sqlite")
    try:
        return [dict(r) for r in store.all(sql, *args)]
    finally:
        store.close()


def test_kard_es_korona_basic_plays_to_its_end_with_random_players_and_replays(tmp_path):
    result = selfplay(tmp_path, "kard_es_korona", "--players", "3", "--mix", "random", "--seed", "ci")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("selfplay1-1: ") and "winner " in first and "FAILED" not in first
    assert "1 game(s), 1 ended cleanly and replayed exactly" in result.output
    games = stored(tmp_path, "SELECT status FROM games")
    assert games == [{"status": "over"}]
    # Every order came in as a mail, and every report went to the outbox.
    assert stored(tmp_path, "SELECT COUNT(*) AS n FROM order_mails")[0]["n"] > 10
    assert stored(tmp_path, "SELECT COUNT(*) AS n FROM outbox WHERE purpose='report'")[0]["n"] > 10
    again = selfplay(tmp_path, "kard_es_korona", "--players", "3", "--mix", "random", "--seed", "ci")
    assert again.exit_code == 0 and again.output.splitlines()[0].replace("selfplay2", "selfplay1") \
        .split("; ")[0] == first.split("; ")[0], "the same seed plays the same game"


def test_fief_england_two_players_play_to_its_end_with_random_players(tmp_path):
    # (Fief: France by random players alone runs past a hundred rounds: it is played with its
    # computer players, below.)
    result = selfplay(tmp_path, "fief_england", "--players", "2", "--mix", "random", "--seed", "ci")
    assert result.exit_code == 0, result.output
    assert "1 game(s), 1 ended cleanly and replayed exactly" in result.output


@pytest.mark.parametrize("game, args", [
    ("fief_france", ("--players", "3", "--mix", "bot")),
    ("kard_es_korona", ("--players", "4", "--option", "version=advanced", "--mix", "bot,random")),
], ids=["france-3-computers", "korona-advanced-4"])
def test_computer_players_play_a_whole_game_through_the_judge(tmp_path, game, args):
    """Every game's computer player through the judge's own step (France's game ends with its
    computer players at the table; Kard és Korona's advanced version beside random players)."""
    result = selfplay(tmp_path, game, *args, "--seed", "ci")
    assert result.exit_code == 0, result.output
    assert "1 game(s), 1 ended cleanly and replayed exactly" in result.output
    assert "winner" in result.output.splitlines()[0] and "(bot)" in result.output.splitlines()[0]


def tiny_bid(self, view, player, rng):
    return f"bid: {rng.choice(range(1, 7), 'bid')}\n"


@pytest.fixture
def tiny_players(monkeypatch):
    monkeypatch.setattr(tinygame.TinyGame, "computer_orders", tiny_bid, raising=False)
    monkeypatch.setattr(tinygame.TinyGame, "random_orders", tiny_bid, raising=False)


def test_a_mix_of_computer_random_and_default_seats(tmp_path, tiny_players):
    result = selfplay(tmp_path, "tiny", "--players", "3", "--mix", "bot,random,default", "--games", "3")
    assert result.exit_code == 0, result.output
    assert "3 game(s), 3 ended cleanly and replayed exactly" in result.output
    kinds = stored(tmp_path, "SELECT g.name, p.name AS player, p.kind FROM players p JOIN games g ON g.id=p.game_id "
                             "ORDER BY g.name, p.seat")
    first = [k["kind"] for k in kinds if k["name"] == "selfplay1-1"]
    second = [k["kind"] for k in kinds if k["name"] == "selfplay1-2"]
    assert first == ["computer", "person", "person"] and second == ["person", "person", "computer"]
    # The computer seat mailed nothing and was mailed nothing; the random seat's orders came by mail.
    mails = stored(tmp_path, "SELECT player, message_id FROM order_mails o JOIN games g ON g.id=o.game_id "
                             "WHERE g.name='selfplay1-1'")
    assert {m["player"] for m in mails if m["message_id"].startswith("<computer.")} == {"anna"}
    assert {m["player"] for m in mails if not m["message_id"].startswith("<computer.")} == {"bela"}
    assert not stored(tmp_path, "SELECT 1 FROM outbox WHERE recipient=''")
    assert "wins by kind: bot " in result.output and "games a minute" in result.output


def test_an_internal_error_makes_selfplay_exit_non_zero(tmp_path, tiny_players, monkeypatch):
    resolve = tinygame.TinyGame.resolve
    calls = []

    def broken(self, state, orders, rng):
        calls.append(1)
        if len(calls) == 3:
            raise ZeroDivisionError("injected")
        return resolve(self, state, orders, rng)
    monkeypatch.setattr(tinygame.TinyGame, "resolve", broken)
    result = selfplay(tmp_path, "tiny", "--players", "2", "--mix", "random")
    assert result.exit_code == 1, result.output
    assert "FAILED" in result.output and "ZeroDivisionError: injected" in result.output
    assert json.loads(stored(tmp_path, "SELECT stuck FROM games")[0]["stuck"])["phase"]


def test_refused_computer_orders_make_selfplay_exit_non_zero(tmp_path, tiny_players, monkeypatch):
    monkeypatch.setattr(tinygame.TinyGame, "computer_orders", lambda self, view, player, rng: "bid: 0\n",
                        raising=False)
    result = selfplay(tmp_path, "tiny", "--players", "2", "--mix", "bot,random")
    assert result.exit_code == 1 and "computer player of anna failed" in result.output


def test_a_game_that_does_not_end_within_the_bound_fails(tmp_path, tiny_players):
    result = selfplay(tmp_path, "tiny", "--players", "2", "--mix", "default", "--max-ticks", "3")
    assert result.exit_code == 1 and "not over after 3 ticks" in result.output


def test_a_game_without_a_computer_player_or_random_orders_is_refused_in_one_line(tmp_path):
    assert not hasattr(rules_for("tiny"), "random_orders")
    no_bot = selfplay(tmp_path, "tiny", "--mix", "bot")
    assert no_bot.exit_code == 1 and "Tiny Bidding has no computer player yet" in no_bot.output
    no_random = selfplay(tmp_path, "tiny", "--mix", "random")
    assert no_random.exit_code == 1 and "Tiny Bidding has no random orders yet" in no_random.output
    wrong = selfplay(tmp_path, "tiny", "--mix", "bot,robot")
    assert wrong.exit_code == 1 and "write kinds from bot, random, default" in wrong.output
    unknown = selfplay(tmp_path, "chess")
    assert unknown.exit_code == 1 and "unknown game type 'chess'" in unknown.output


def test_selfplay_refuses_a_home_with_games_still_running(tmp_path, tiny_players):
    failed = selfplay(tmp_path, "tiny", "--players", "2", "--mix", "default", "--max-ticks", "2")
    assert failed.exit_code == 1
    again = selfplay(tmp_path, "tiny", "--players", "2", "--mix", "random")
    assert again.exit_code == 1 and "holds games that are not over (selfplay1-1)" in again.output
