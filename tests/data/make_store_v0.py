"""Writes store_v0.sql and store_v0.json: a judge home's database as pbem wrote it before the
store had a schema version (main at 9311133: secrets PBKDF2-hashed, no players.secret_scheme).

Run it from the top of a checkout of THAT code, not this one (the point is an old store):

    git worktree add /tmp/old 9311133 && cd /tmp/old && python3 /path/to/tests/data/make_store_v0.py DIR

The tiny test game g1 with alice, bob and carol; bob changed his secret by mail (a secret he
chose); alice has ordered for round-1/bid. The secrets are in store_v0.json (test data).
"""
import json
import sqlite3
import sys
from pathlib import Path

sys.path[:0] = [".", "tests"]
from judge_support import Judge  # noqa: E402

out = Path(sys.argv[1])
judge = Judge(out / "home")
judge.new_game("g1", players=("alice", "bob", "carol"), seed="store-v0")
judge.tick()
judge.send("bob@pbem.test", f"game: g1\nplayer: bob\nsecret: {judge.secrets['g1']['bob']}\n"
                            "new_secret: bobs-own-choice-7\n")
assert judge.tick().mails == {"secret changed": 1}
judge.orders("g1", "alice", "round-1/bid", "bid: 4\n")
assert judge.tick().mails == {"orders accepted": 1}
db = sqlite3.connect(judge.home.db_path)
assert db.execute("PRAGMA user_version").fetchone()[0] == 0
(out / "store_v0.sql").write_text("\n".join(db.iterdump()) + "\n", encoding="utf-8")
secrets = dict(judge.secrets["g1"], bob="bobs-own-choice-7")
(out / "store_v0.json").write_text(json.dumps({"secrets": secrets, "now": judge.now}, indent=1) + "\n",
                                    encoding="utf-8")
