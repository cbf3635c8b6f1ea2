"""How the judge keeps players' secrets (docs/security.md, "Secrets"), and stores written by an
older pbem: the scheme each secret was hashed with is kept per player, so a game created
before the change goes on with its players' secrets."""
from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from pathlib import Path

import pytest

from judge_support import Judge
from pbem.judge import engine, player_secrets
from pbem.judge.store import SCHEMA_VERSION, Store, StoreTooNew

DATA = Path(__file__).parent / "data"


@pytest.fixture
def judge(tmp_path):
    return Judge(tmp_path / "home")


def player_rows(judge: Judge) -> dict[str, sqlite3.Row]:
    store = judge.store()
    try:
        return {r["name"]: r for r in store.all("SELECT * FROM players")}
    finally:
        store.close()


def test_secrets_the_judge_draws_are_kept_as_a_keyed_hash_under_a_salt_of_their_own(judge):
    judge.new_game()
    rows = player_rows(judge)
    assert {r["secret_scheme"] for r in rows.values()} == {player_secrets.KEYED}
    assert len({r["secret_salt"] for r in rows.values()}) == 3
    for player, row in rows.items():
        secret = judge.secrets["g1"][player]
        expected = hmac.new(row["secret_salt"].encode(), secret.encode(), hashlib.sha256).hexdigest()
        assert row["secret_hash"] == expected
        assert secret not in json.dumps([tuple(r) for r in rows.values()])
        assert player_secrets.check_secret(row, secret)
        assert not player_secrets.check_secret(row, secret.upper())
        assert not player_secrets.check_secret(row, judge.secrets["g1"]["bob" if player != "bob" else "alice"])


def test_a_secret_the_player_chose_is_stretched_and_a_reset_one_is_keyed(judge):
    judge.new_game()
    judge.tick()
    judge.change_secret("g1", "alice", "my-own-secret-42")
    assert judge.tick().mails == {"secret changed": 1}
    row = player_rows(judge)["alice"]
    assert row["secret_scheme"] == player_secrets.STRETCHED
    assert row["secret_hash"] == hashlib.pbkdf2_hmac("sha256", b"my-own-secret-42", row["secret_salt"].encode(),
                                                     100_000).hex()
    assert "my-own-secret-42" not in str(tuple(row))
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n", secret="my-own-secret-42")
    assert judge.tick().mails == {"orders accepted": 1}
    # The game master's reset draws a secret again: keyed again.
    from click.testing import CliRunner
    from pbem.cli import main
    result = CliRunner().invoke(main, ["game", "new-secret", "g1", "alice", "--home", str(judge.home.path)])
    assert result.exit_code == 0, result.output
    assert player_rows(judge)["alice"]["secret_scheme"] == player_secrets.KEYED
    judge.orders("g1", "alice", "round-1/bid", "bid: 3\n", secret="my-own-secret-42")
    assert judge.tick().mails == {"reject: not authenticated": 1}


def old_home(tmp_path: Path) -> tuple[Judge, dict[str, str]]:
    """A judge home whose database pbem wrote before schema versions (tests/data/make_store_v0.py)."""
    judge = Judge(tmp_path / "old")
    db = sqlite3.connect(judge.home.db_path)
    db.executescript((DATA / "store_v0.sql").read_text(encoding="utf-8"))
    db.close()
    facts = json.loads((DATA / "store_v0.json").read_text(encoding="utf-8"))
    judge.now = facts["now"] + 60
    judge.secrets["g1"] = facts["secrets"]
    return judge, facts["secrets"]


def test_a_store_written_before_secret_schemes_still_authenticates_its_players_and_plays_on(tmp_path):
    judge, secrets = old_home(tmp_path)
    raw = sqlite3.connect(judge.home.db_path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 0
    assert "secret_scheme" not in {r[1] for r in raw.execute("PRAGMA table_info(players)")}
    raw.close()
    rows = player_rows(judge)     # opening the store migrates it
    assert {r["secret_scheme"] for r in rows.values()} == {player_secrets.STRETCHED}
    raw = sqlite3.connect(judge.home.db_path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()
    # A wrong secret is refused; every player's own (drawn or chosen) is taken.
    judge.orders("g1", "bob", "round-1/bid", "bid: 2\n", secret=secrets["carol"])
    assert judge.tick().mails == {"reject: not authenticated": 1}
    judge.orders("g1", "bob", "round-1/bid", "bid: 2\n")
    judge.orders("g1", "carol", "round-1/bid", "bid: 6\n")
    report = judge.tick()
    assert report.mails == {"orders accepted": 2}
    assert report.resolved == ["g1: round-1/bid", "g1: round-1/tally"]   # alice had ordered before
    store = judge.store()
    from pbem.judge import archive
    assert archive.replay(store, engine.load_game(store, "g1")).ok
    store.close()
    # Old rows keep their scheme until the secret changes.
    assert player_rows(judge)["carol"]["secret_scheme"] == player_secrets.STRETCHED
    # A new game in the old home gets the new scheme.
    judge.new_game("g2", players=("dave", "erin"))
    assert {r["secret_scheme"] for n, r in player_rows(judge).items()
            if n in ("dave", "erin")} == {player_secrets.KEYED}


def test_opening_an_old_store_twice_migrates_it_once(tmp_path):
    judge, _ = old_home(tmp_path)
    first, second = judge.store(), judge.store()
    first.close()
    second.close()
    assert "secret_scheme" in {r[1] for r in sqlite3.connect(judge.home.db_path).execute("PRAGMA table_info(players)")}


def test_a_store_written_by_a_newer_pbem_is_refused_with_what_to_do(judge):
    judge.new_game()
    raw = sqlite3.connect(judge.home.db_path)
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StoreTooNew, match="newer pbem"):
        Store(judge.home.db_path)
    from click.testing import CliRunner
    from pbem.cli import main
    for args in (["tick"], ["game", "list"]):
        result = CliRunner().invoke(main, args + ["--home", str(judge.home.path)])
        assert "written by a newer pbem" in result.output and "Traceback" not in result.output
        assert result.exit_code != 0
