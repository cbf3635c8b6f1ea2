"""The game master's command line, on the tiny test game: every command works, every action is
announced to the players, and every mistake is one clear line, never a traceback."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import judge_support  # noqa: F401  (registers the tiny game)
from judge_support import Judge
from pbem.cli import main


@pytest.fixture
def home(tmp_path):
    path = tmp_path / "home"
    result = CliRunner().invoke(main, ["init", "--home", str(path), "--address", "judge@pbem.test"])
    assert result.exit_code == 0, result.output
    return path


def run(home, *args, ok=True):
    result = CliRunner().invoke(main, [*args[:2], "--home", str(home), *args[2:]] if args[0] == "game"
                                else [args[0], "--home", str(home), *args[1:]])
    if ok:
        assert result.exit_code == 0, result.output
    return result


def new_game(home):
    return run(home, "game", "new", "tiny", "--name", "t1", "--player", "alice:alice@pbem.test",
               "--player", "bob:bob@pbem.test", "--gm-email", "gm@pbem.test")


def test_a_game_master_runs_a_game_from_the_command_line(home, tmp_path):
    assert "started with 2 players" in new_game(home).output
    assert "round-1/bid" in run(home, "game", "list").output
    full = run(home, "game", "show", "t1").output
    assert "waiting on: alice, bob" in full
    as_bob = json.loads(run(home, "game", "show", "t1", "--as", "bob", "--json").output)
    assert as_bob["me"] == "bob" and "hands" not in as_bob and "hand" in as_bob
    assert "extended by 24 hours" in run(home, "game", "extend", "t1", "--hours", "24").output
    assert "paused" in run(home, "game", "pause", "t1").output
    assert "paused" in run(home, "game", "list").output
    assert "resumed" in run(home, "game", "resume", "t1").output
    assert "Preview of round-1/bid" in run(home, "game", "preview", "t1").output
    assert "resolved round-1/bid" in run(home, "game", "resolve", "t1").output
    assert "round-2/bid" in run(home, "game", "list").output
    assert "replayed" in run(home, "replay", "t1").output
    assert "wrote 3 files" in run(home, "export", "t1", str(tmp_path / "export")).output
    assert "round-1/bid is open again" in run(home, "game", "rollback", "t1").output
    assert "changed" in run(home, "game", "set-address", "t1", "bob", "bob@new.test").output
    # Every action above was announced to both players and the game master.
    from pbem.judge.store import Store
    store = Store(home / "pbem.sqlite")
    announced = store.all("SELECT recipient, COUNT(*) AS n FROM outbox WHERE purpose='announce' GROUP BY recipient")
    store.close()
    counts = {r["recipient"]: r["n"] for r in announced}
    assert counts["gm@pbem.test"] == 6 and counts["alice@pbem.test"] == 6
    # The address change reached both the old and the new address.
    assert counts["bob@pbem.test"] == 6 and counts["bob@new.test"] == 1


@pytest.mark.parametrize("args, message", [
    (("game", "new", "chess", "--name", "x", "--player", "a:a@x.test"), "unknown game type 'chess'"),
    (("game", "new", "tiny", "--name", "x", "--player", "alice"), "write NAME:EMAIL"),
    (("game", "new", "tiny", "--name", "x", "--player", "a:a@x.test"), "takes 2 to 4 players"),
    (("game", "new", "tiny", "--name", "x", "--player", "a:a@x.test", "--player", "b:b@x.test",
      "--option", "colour=red"), "has no such option"),
    (("game", "new", "tiny", "--name", "x", "--player", "a:a@x.test", "--player", "b:b@x.test",
      "--option", "target=many"), "takes a whole number"),
    # A player's name heads every line of their relayed words (`marie| ...`) and the judge's
    # sentences: no line break, space, bar or bracket that could make it pass for other text.
    (("game", "new", "tiny", "--name", "x", "--player", "bob| I:a@x.test", "--player", "b:b@x.test"),
     "use letters, digits, - and _ only"),
    (("game", "new", "tiny", "--name", "x", "--player", "[pbem] judge\nx:a@x.test", "--player", "b:b@x.test"),
     "use letters, digits, - and _ only"),
    (("game", "show", "nope"), "no game named 'nope'"),
    (("game", "resume", "nope"), "no game named 'nope'"),
    (("replay", "nope"), "no game named 'nope'"),
])
def test_mistakes_are_one_clear_line(home, args, message):
    result = run(home, *args, ok=False)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_commands_without_a_home_say_how_to_make_one(tmp_path, monkeypatch):
    monkeypatch.delenv("PBEM_HOME", raising=False)
    result = CliRunner().invoke(main, ["game", "list"])
    assert result.exit_code != 0 and "pbem init --home DIR" in result.output
    result = CliRunner().invoke(main, ["game", "list", "--home", str(tmp_path / "none")])
    assert result.exit_code != 0 and "is not a judge home" in result.output


def test_show_as_a_player_never_shows_another_players_pending_orders(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game(players=("alice", "bob"))
    judge.tick()
    judge.orders("g1", "alice", "round-1/bid", "bid: 6\n")
    judge.tick()
    result = CliRunner().invoke(main, ["game", "show", "g1", "--home", str(judge.home.path), "--as", "bob"])
    assert result.exit_code == 0
    assert "bid" not in result.output.split("orders for this phase:")[1].replace("none yet", "")
    mine = CliRunner().invoke(main, ["game", "show", "g1", "--home", str(judge.home.path), "--as", "alice"])
    assert '"bid": 6' in mine.output


def test_an_address_the_judge_could_not_write_to_is_refused_at_once(home):
    result = run(home, "game", "new", "tiny", "--name", "t2", "--player", "josé:josé@example.org",
                 "--player", "b:b@x.test", ok=False)
    assert result.exit_code != 0 and "--player 'josé:josé@example.org'" in result.output
    new_game(home)
    result = run(home, "game", "set-address", "t1", "bob", "a@b@c", ok=False)
    assert result.exit_code != 0 and "Traceback" not in result.output


def test_options_map_and_outbox_commands(home):
    assert "target (default 2): points needed to win" in CliRunner().invoke(main, ["game", "options", "tiny"]).output
    as_json = CliRunner().invoke(main, ["map", "fief_france", "--json"])
    assert as_json.exit_code == 0 and "Rennes" in json.loads(as_json.output)["towns"]
    readable = CliRunner().invoke(main, ["map", "fief_france"])
    assert readable.exit_code == 0 and readable.output.startswith("variant: fief_france\n")   # YAML
    assert "\ntowns:\n  Rennes:\n    fief: bretagne\n" in readable.output
    assert "no mail waiting or refused" in run(home, "outbox").output
    new_game(home)
    waiting = run(home, "outbox").output.splitlines()
    assert len(waiting) == 2 and all(line.startswith("waiting\tt1\twelcome\t") for line in waiting)
    assert run(home, "outbox", "--all").output.splitlines() == waiting


def test_the_notice_of_an_early_resolution_is_queued_before_the_reports_it_explains(home):
    """`pbem game resolve`: every player (and the game master) gets "resolved before its
    deadline" before, never after, the report of that phase (the outbox sends in its order)."""
    new_game(home)
    run(home, "game", "resolve", "t1")
    from pbem.judge.store import Store
    store = Store(home / "pbem.sqlite")
    rows = store.all("SELECT recipient, purpose FROM outbox WHERE purpose IN ('announce', 'report') ORDER BY id")
    store.close()
    for who in ("alice@pbem.test", "bob@pbem.test", "gm@pbem.test"):
        assert [r["purpose"] for r in rows if r["recipient"] == who] == ["announce", "report"], who


def test_init_refuses_an_address_it_could_not_write_to_and_writes_nothing(tmp_path):
    result = CliRunner().invoke(main, ["init", "--home", str(tmp_path / "h"), "--address", 'ju"dge@example.org'])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "--address: 'ju\"dge@example.org' is not a mail address the judge can write from" in result.output
    assert not (tmp_path / "h" / "config.toml").exists()


@pytest.mark.parametrize("value", ['ju"dge', "back\\slash", "tab\there", "line\nbreak", "nul\x00del\x7f", "é ü \u202e"])
def test_config_values_are_written_as_toml_strings_that_read_back_the_same(value):
    import tomllib

    from pbem.judge.home import toml_string
    assert tomllib.loads(f"key = {toml_string(value)}\n")["key"] == value


def test_a_broken_config_is_explained_by_init_and_repaired_with_force(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    # What `pbem init --address 'ju"dge@example.org'` wrote before it checked the address.
    broken = '[judge]\naddress = "ju"dge@example.org"\n[inbox]\nkind = "maildir"\npath = "mail/inbox"\n'
    (home / "config.toml").write_text(broken, encoding="utf-8")
    again = CliRunner().invoke(main, ["init", "--home", str(home), "--address", "judge@example.org"])
    assert again.exit_code == 1 and "Traceback" not in again.output
    assert "config.toml: not valid TOML" in again.output and "was left alone" in again.output
    assert f"pbem init --home {home} --address ADDRESS --force" in again.output
    assert (home / "config.toml").read_text(encoding="utf-8") == broken
    fixed = CliRunner().invoke(main, ["init", "--home", str(home), "--address", "judge@example.org", "--force"])
    assert fixed.exit_code == 0, fixed.output
    assert (home / "config.toml.bak").read_text(encoding="utf-8") == broken
    from pbem.judge.home import load_home
    assert load_home(home).address == "judge@example.org"
    # A config that reads, with an address the judge cannot write from, is named too.
    (home / "config.toml").write_text((home / "config.toml").read_text().replace(
        'address = "judge@example.org"', 'address = "judge at example.org"'), encoding="utf-8")
    told = CliRunner().invoke(main, ["init", "--home", str(home)])
    assert told.exit_code == 1 and "[judge] address: 'judge at example.org' is not a mail address" in told.output
    kept = CliRunner().invoke(main, ["init", "--home", str(home), "--address", "other@example.org", "--force"])
    assert kept.exit_code == 0 and load_home(home).address == "other@example.org"
    assert "already there and is kept: address other@example.org" in run(home, "init").output
