"""What the store keeps per phase (issue 13, disk): state copies compressed (schema version 5,
read back to the very text), and a sent mail's body dropped without leaving its pages empty."""
from __future__ import annotations

import json
import sqlite3
import zlib

import pytest

from judge_support import Judge
from pbem.judge import archive, engine
from pbem.judge.store import SCHEMA_VERSION, Store, dumps, pack_state, unpack_state
from test_stored_games import stored_home


def state_copies(db: sqlite3.Connection) -> dict[tuple, object]:
    copies = {("phase", g, s): v for g, s, v in db.execute("SELECT game_id, seq, state_before FROM phases")}
    copies.update({("action", g, s, n): v for g, s, n, v in db.execute("SELECT game_id, seq, n, state_after "
                                                                         "FROM actions")})
    return copies


def test_the_migration_compresses_every_stored_state_copy_and_gives_back_the_same_text(tmp_path):
    home = stored_home(tmp_path, "fief_france-full4-9311133.sqlite.gz")
    plain = sqlite3.connect(home / "pbem.sqlite")
    before = state_copies(plain)
    assert plain.execute("PRAGMA user_version").fetchone()[0] < 5
    plain.close()
    assert len(before) > 20 and all(isinstance(v, str) for v in before.values())
    store = Store(home / "pbem.sqlite")
    try:
        after = state_copies(store.db)
        assert store.one("PRAGMA user_version")[0] == SCHEMA_VERSION >= 5
        assert after.keys() == before.keys()
        assert all(isinstance(v, bytes) for v in after.values())
        assert {k: unpack_state(v) for k, v in after.items()} == before
        assert sum(map(len, after.values())) * 3 < sum(len(v.encode()) for v in before.values())
        assert archive.replay(store, engine.load_game(store, "full4")).ok
    finally:
        store.close()
    Store(home / "pbem.sqlite").close()   # opened again: nothing left to migrate


def test_a_new_phase_stores_its_state_compressed(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game()
    for bid, player in enumerate(("alice", "bob", "carol"), 1):
        judge.orders("g1", player, "round-1/bid", f"bid: {bid}\n")
    judge.tick()
    store = judge.store()
    try:
        game = engine.load_game(store, "g1")
        rows = store.all("SELECT state_before FROM phases WHERE game_id=? ORDER BY seq", game.id)
        assert len(rows) >= 2 and all(isinstance(r["state_before"], bytes) for r in rows)
        assert unpack_state(rows[-1]["state_before"]) == dumps(game.state)
        assert json.loads(unpack_state(rows[0]["state_before"]))   # the setup, for replay
        assert archive.replay(store, game).ok
    finally:
        store.close()


def test_unpack_reads_copies_stored_before_version_5_as_they_are():
    text = dumps({"round": 1, "towns": ["Tours", "Blois"]})
    assert unpack_state(text) == text
    assert unpack_state(pack_state(text)) == text
    assert zlib.decompress(pack_state(text)) == text.encode()


def test_a_sent_mail_keeps_its_row_and_loses_its_body(tmp_path):
    store = Store(tmp_path / "pbem.sqlite")
    try:
        with store.transaction():
            for n in range(3):
                store.queue_mail(f"<m{n}@x>", None, f"p{n}@x", "report", b"body %d" % n)
        before = {r["message_id"]: dict(r) for r in store.all("SELECT * FROM outbox")}
        with store.transaction():
            assert store.mark_sent("<m1@x>", 1234.5)
            assert not store.mark_sent("<m1@x>", 2000.0)   # already marked: unchanged
            assert not store.mark_sent("<unknown@x>", 2000.0)
        after = {r["message_id"]: dict(r) for r in store.all("SELECT * FROM outbox")}
        assert after["<m0@x>"] == before["<m0@x>"] and after["<m2@x>"] == before["<m2@x>"]
        assert after["<m1@x>"] == before["<m1@x>"] | {"raw": b"", "sent_at": 1234.5, "attempts": 1}
        assert [r["message_id"] for r in store.pending_mail(10)] == ["<m0@x>", "<m2@x>"]
    finally:
        store.close()


def test_sent_reports_leave_no_pages_nearly_empty(tmp_path):
    """A hundred 80 KB mails sent: their bodies' pages go back to the free list and the rows that
    stay fit in a few pages (shrunk in place, each would keep a page of its own)."""
    store = Store(tmp_path / "pbem.sqlite")
    try:
        with store.transaction():
            for n in range(100):
                store.queue_mail(f"<m{n}@x>", 1, "p@x", "report", bytes([n]) * 80_000)
        with store.transaction():
            for n in range(100):
                store.mark_sent(f"<m{n}@x>", 1.0)
        store.run("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, free = (store.one(f"PRAGMA {p}")[0] for p in ("page_count", "freelist_count"))
        tables = store.one("SELECT COUNT(*) FROM sqlite_schema")[0]
        assert pages - free <= tables + 12, (pages, free)
    finally:
        store.close()



# Every mail that carries a secret in clear: a player's welcome (and a replacement's), a new
# secret, and the stand-in's own secret (pbem.judge.absences, purpose "standin").
@pytest.mark.parametrize("purpose", ["welcome", "secret", "standin"])
def test_a_sent_welcome_leaves_no_copy_of_its_secret_on_disk_and_deletes_stay_secure(tmp_path, purpose):
    store = Store(tmp_path / "pbem.sqlite")
    try:
        secret = b"kwpx-secret-" * 600   # 7 KB: past a page, on overflow pages too
        with store.transaction():
            store.queue_mail("<w@x>", 1, "p@x", purpose, b"Subject: welcome\r\n\r\n" + secret)
            store.queue_mail("<r@x>", 1, "p@x", "report", b"Subject: report\r\n\r\n" + b"r" * 90_000)
        with store.transaction(durable=False):
            assert store.mark_sent("<r@x>", 1.0) and store.mark_sent("<w@x>", 1.0)
        assert store.one("PRAGMA secure_delete")[0] == 1   # on again for every other delete
        store.run("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        store.close()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.glob("pbem.sqlite*"))
    assert b"kwpx-secret-" not in on_disk
