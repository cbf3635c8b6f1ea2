"""Stored games outlive the code: games stored by an earlier pbem replay exactly under today's
code, and a running one plays its next phases (docs/architecture.md, "Rules versions").

The fixtures in tests/fixtures/stored_games/ are judge databases written by the commit named in
their file name and never rewritten: a 4-player Fief: France game played to its winner (the
scripted game of test_fief_full_game) and the demo's game, stopped after its first round. Those
of 9311133 predate rules versions (version 1, dice 1); those of f3da6be are the last written by
the flat Fief package, before the Fief core and the France package (issue 10): rules version 2,
dice 2 (their sent mails' bodies blanked, as the outbox keeps none of a sent mail's use). A
change that breaks one of these tests breaks real games; version the change instead
(`FiefState.rules_version`, `state.added_later`)."""
from __future__ import annotations

import gzip
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from judge_support import Judge
from pbem.games.fief.state import RULES_VERSION, FiefState, added_later, plain
from pbem.judge import archive, engine
from pbem.judge.home import init_home
from pbem.judge.store import Store

FIXTURES = Path(__file__).parent / "fixtures" / "stored_games"


def stored_home(tmp_path: Path, fixture: str) -> Path:
    home = tmp_path / "home"
    init_home(home, "judge@pbem.test")
    with gzip.open(FIXTURES / fixture, "rb") as packed, open(home / "pbem.sqlite", "wb") as db:
        shutil.copyfileobj(packed, db)
    return home


def raw_schema(home: Path) -> tuple[int, dict[str, set[str]]]:
    """The schema version of ``home``'s store as it lies on disk, before any pbem opens (and
    migrates) it, and each table's columns."""
    import sqlite3
    raw = sqlite3.connect(home / "pbem.sqlite")
    try:
        tables = [r[0] for r in raw.execute("SELECT name FROM sqlite_schema WHERE type='table'")]
        return (raw.execute("PRAGMA user_version").fetchone()[0],
                {t: {r[1] for r in raw.execute(f"PRAGMA table_info({t})")} for t in tables})
    finally:
        raw.close()


def as_version(home: Path, version: int, *statements: tuple) -> None:
    """The store of ``home`` as a pbem of schema ``version`` left it: ``statements`` (SQL and
    its parameters) undo what came after, and its version is set back."""
    import sqlite3
    raw = sqlite3.connect(home / "pbem.sqlite")
    for statement in statements:
        raw.execute(*statement)
    raw.execute(f"PRAGMA user_version={version}")
    raw.commit()
    raw.close()


@pytest.mark.parametrize("fixture, name, version", [
    ("fief_france-full4-9311133.sqlite.gz", "full4", None),   # stored before versions were recorded
    ("fief_france-demo-9311133.sqlite.gz", "demo", None),
    ("fief_france-full4-f3da6be.sqlite.gz", "full4", 2),
    ("fief_france-demo-f3da6be.sqlite.gz", "demo", 2),
])
def test_a_game_stored_by_an_earlier_version_replays_exactly(tmp_path, fixture, name, version):
    store = Store(stored_home(tmp_path, fixture) / "pbem.sqlite")
    try:
        game = engine.load_game(store, name)
        assert game.state["options"].get("rules_version") == version
        replayed = archive.replay(store, game)
        assert replayed.ok, replayed
        assert replayed.phases >= 8
    finally:
        store.close()


@pytest.mark.parametrize("fixture, version", [
    ("fief_france-demo-9311133.sqlite.gz", 1),
    ("fief_france-demo-f3da6be.sqlite.gz", 2),
])
def test_a_running_game_stored_by_an_earlier_version_plays_on_and_still_replays(tmp_path, fixture, version):
    home = stored_home(tmp_path, fixture)
    for _ in range(8):   # round 2's phases, each with default orders for everyone
        result = CliRunner().invoke(main, ["game", "resolve", "demo", "--home", str(home)])
        assert result.exit_code == 0, result.output
    store = Store(home / "pbem.sqlite")
    try:
        game = engine.load_game(store, "demo")
        assert game.state["round"] >= 2 and engine.current_phase(game).id != "round-2/hear-ye"
        assert FiefState.from_json(game.state).rules_version == version   # the rules it was created under
        assert archive.replay(store, game).ok
    finally:
        store.close()


def test_the_events_of_a_game_stored_before_said_existed_still_export_and_print(tmp_path):
    """Events stored before player text travelled as `said` (no `said` column) read with none
    and print as stored: the archive shows the old messages as the players received them, and
    every stored event of both fixtures renders for the game master."""
    from pbem.judge.render import event_text
    for fixture, name in (("fief_france-full4-9311133.sqlite.gz", "full4"),
                          ("fief_france-demo-9311133.sqlite.gz", "demo")):
        store = Store(stored_home(tmp_path / name, fixture) / "pbem.sqlite")
        try:
            game = engine.load_game(store, name)
            assert "said" in {r["name"] for r in store.all("PRAGMA table_info(events)")}   # migrated
            rows = store.all("SELECT seq FROM phases WHERE game_id=? AND resolved_at IS NOT NULL", game.id)
            events = [e for r in rows for e in engine.stored_events(store, game.id, r["seq"])]
            assert events and all(e.said is None for e in events)
            assert all(event_text(e, None) for e in events)
            written = archive.export(store, game, tmp_path / name / "export")
            assert len(written) == len(rows) + 1
        finally:
            store.close()
        if name == "full4":
            text = "".join(path.read_text(encoding="utf-8") for path in written)
            assert "Message from alice to all: alice, round 1: peace." in text


def test_a_new_game_records_its_rules_version_in_its_stored_options(tmp_path):
    judge = Judge(tmp_path)
    judge.new_game(name="new", players=("alice", "bob", "carol"), game_type="fief_france")
    store = judge.store()
    try:
        game = engine.load_game(store, "new")
        stored = json.loads(game.row["options"])
        assert stored["rules_version"] == RULES_VERSION >= 2
        assert {o.name for o in game.rules.options()} <= set(stored)   # every option, defaults filled in
        assert FiefState.from_json(game.state).rules_version == RULES_VERSION
    finally:
        store.close()


@dataclass
class _Later:
    kept: int = 0
    added: list = added_later(factory=list)
    flag: bool = added_later(False)


def test_a_field_added_later_leaves_the_json_of_a_state_that_does_not_use_it_unchanged():
    assert plain(_Later()) == {"kept": 0}
    assert plain(_Later(added=[1], flag=True)) == {"kept": 0, "added": [1], "flag": True}
    assert plain({"x": [_Later(kept=2)]}) == {"x": [{"kept": 2}]}


def test_players_stored_before_the_html_choice_get_html_reports_and_can_opt_out(tmp_path):
    """Schema version 4 adds players.mail_html: every player of an older store gets the HTML
    part and the map (the default), and the choice is stored for them from then on."""
    from pbem.judge.store import SCHEMA_VERSION
    home = stored_home(tmp_path, "fief_france-demo-9311133.sqlite.gz")
    store = Store(home / "pbem.sqlite")
    try:
        assert store.one("PRAGMA user_version")[0] == SCHEMA_VERSION >= 4
        rows = store.all("SELECT name, mail_html FROM players")
        assert rows and all(r["mail_html"] == 1 for r in rows)
        game = engine.load_game(store, "demo")
        with store.transaction():
            assert store.set_mail_html(game.id, rows[0]["name"], False)
        assert store.one("SELECT mail_html FROM players WHERE name=?", rows[0]["name"])["mail_html"] == 0
    finally:
        store.close()


def test_a_store_written_before_schema_version_6_gains_the_correspondence_columns_with_their_old_behaviour(tmp_path):
    """Schema version 6 (issue 15): games.settings (empty: every setting at its default, the one
    reminder the game had), deadline_sequence and in_grace; players.timezone (UTC), missed,
    disorder, away_days_used; the observers and absences tables. The stored game plays on."""
    from pbem.judge.settings import settings_of
    from pbem.judge.store import SCHEMA_VERSION
    home = stored_home(tmp_path, "fief_france-demo-9311133.sqlite.gz")
    version, tables = raw_schema(home)
    assert version < 6 and "settings" not in tables["games"]
    store = Store(home / "pbem.sqlite")
    try:
        assert store.one("PRAGMA user_version")[0] == SCHEMA_VERSION >= 6
        game = engine.load_game(store, "demo")
        assert game.row["deadline_sequence"] == 0 and game.row["in_grace"] == 0
        settings = settings_of(game.row)
        assert settings["public"] is False and settings["civil_disorder_after"] == 0
        assert settings["reminders"] == ([game.row["reminder_hours"]] if game.row["reminder_hours"] else [])
        rows = store.all("SELECT timezone, missed, disorder, away_days_used FROM players WHERE game_id=?", game.id)
        assert rows and all(tuple(r) == (None, 0, 0, 0) for r in rows)
        assert store.all("SELECT * FROM observers") == [] and store.all("SELECT * FROM absences") == []
    finally:
        store.close()


def test_a_store_written_at_schema_version_6_gains_stand_ins_and_its_absences_keep_their_behaviour(tmp_path):
    """Schema version 7 (issue 15, stand-ins): absences.standin, standin_salt, standin_hash and
    standin_state, and the index of the stand-ins due. An absence stored before has no stand-in;
    the stored game plays on, and a stand-in can be named for that absence."""
    from pbem.judge.store import SCHEMA_VERSION
    home = stored_home(tmp_path, "fief_france-demo-f3da6be.sqlite.gz")
    Store(home / "pbem.sqlite").close()
    # The store as schema version 6 left it (no fixture was written by a pbem of version 6): the
    # columns of version 7 dropped, an absence announced.
    as_version(home, 6, ("DROP INDEX absences_standin",),
               *((f"ALTER TABLE absences DROP COLUMN {column}",)
                 for column in ("standin", "standin_salt", "standin_hash", "standin_state")),
               ("INSERT INTO absences(game_id, player, away_from, away_to, announced_at) "
                "SELECT id, (SELECT name FROM players WHERE game_id=games.id ORDER BY seat LIMIT 1), "
                "1.0, 4e9, 1.0 FROM games WHERE name='demo'",))
    store = Store(home / "pbem.sqlite")
    try:
        assert store.one("PRAGMA user_version")[0] == SCHEMA_VERSION >= 7
        row = store.one("SELECT * FROM absences")
        assert (row["away_to"], row["standin"], row["standin_hash"], row["standin_state"]) == (4e9, None, None, 0)
        assert store.one("SELECT 1 FROM sqlite_master WHERE name='absences_standin'") is not None
        absent = row["player"]
    finally:
        store.close()
    said = []
    for args in (["settings", "demo", "away_policy=standin"], ["standin", "demo", absent, "friend@elsewhere.test"],
                 ["resolve", "demo"]):
        result = CliRunner().invoke(main, ["game", *args, "--home", str(home)])
        assert result.exit_code == 0, result.output
        said.append(result.output)
    assert f"friend@elsewhere.test stands in for {absent}" in said[1]
    store = Store(home / "pbem.sqlite")
    try:
        assert tuple(store.one("SELECT standin, standin_state FROM absences")) == ("friend@elsewhere.test", 1)
        assert store.one("SELECT COUNT(*) FROM outbox WHERE purpose='standin' AND recipient=?",
                         "friend@elsewhere.test")[0] == 1
        # The phase resolved by the game master: the stand-in got the absent player's report too.
        assert store.one("SELECT COUNT(*) FROM outbox WHERE purpose='report' AND recipient=?",
                         "friend@elsewhere.test")[0] == 1
        assert archive.replay(store, engine.load_game(store, "demo")).ok
    finally:
        store.close()


def test_a_store_written_at_schema_version_7_sends_its_waiting_mail_whole_and_stores_pictures_once(tmp_path):
    """Schema version 8 (issue 13): outbox.parts and outbox_parts. A mail queued before it is
    whole (parts NULL) and is sent as it is; the stored game plays on, and its next reports'
    picture is stored once and put back into each mail sent."""
    import email
    import email.policy
    from pbem.judge.store import SCHEMA_VERSION
    from pbem.judge.tick import run_tick
    from pbem.judge.home import load_home
    home = stored_home(tmp_path, "fief_france-demo-f3da6be.sqlite.gz")
    Store(home / "pbem.sqlite").close()
    # The store as schema version 7 left it, with a whole mail waiting (no fixture was written
    # by a pbem of version 7).
    waiting = (b"From: judge@pbem.test\r\nTo: a@pbem.test\r\nSubject: old\r\nMessage-ID: <old.1@pbem.test>\r\n"
               b"\r\nold mail\r\n")
    as_version(home, 7, ("DROP TABLE outbox_parts",), ("ALTER TABLE outbox DROP COLUMN parts",),
               ("INSERT INTO outbox(message_id, recipient, purpose, raw, created_at) VALUES(?,?,?,?,?)",
                ("<old.1@pbem.test>", "a@pbem.test", "report", waiting, 1.0)))
    store = Store(home / "pbem.sqlite")
    try:
        assert store.one("PRAGMA user_version")[0] == SCHEMA_VERSION >= 8
        (row,) = store.all("SELECT * FROM outbox WHERE sent_at IS NULL AND failed=0")
        assert row["parts"] is None and store.mail_bytes(row) == waiting
    finally:
        store.close()
    result = CliRunner().invoke(main, ["game", "resolve", "demo", "--home", str(home)])
    assert result.exit_code == 0, result.output
    store = Store(home / "pbem.sqlite")
    try:
        (part,) = store.all("SELECT key, users FROM outbox_parts")
        assert part["users"] == store.one("SELECT COUNT(*) FROM outbox WHERE parts IS NOT NULL")[0] >= 2
    finally:
        store.close()
    report = run_tick(load_home(home))
    assert not report.errors and report.sent >= 3
    files = [f.read_bytes() for f in (home / "mail" / "outbox" / "new").iterdir()]
    assert waiting.replace(b"\r\n", b"\n") in files
    pictures = [p.get_content() for f in files
                for p in email.message_from_bytes(f, policy=email.policy.default).walk()
                if p.get_content_type() == "image/png"]
    assert len(pictures) == part["users"] and len(set(pictures)) == 1 and pictures[0].startswith(b"\x89PNG")
    store = Store(home / "pbem.sqlite")
    try:
        assert store.one("SELECT COUNT(*) FROM outbox_parts")[0] == 0
        assert archive.replay(store, engine.load_game(store, "demo")).ok
    finally:
        store.close()
