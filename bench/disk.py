"""Disk per game per ordered phase (issue 13: at most 15 KB, exact replay and export kept).

    python3 bench/disk.py --games 50 --phases 8

Builds a home of N four-player Fief: France games with their first phase's orders waiting
(bench/build.py), runs `pbem tick` until that phase is resolved and every mail sent, then
plays K more ordered phases: each player of each game mails the demo's orders for it, written
from their own view, and the ticks run until the phase is resolved and every mail sent. The
figure is the growth of the database's used pages (the file less its free pages, after a WAL
checkpoint) over those K phases, per game and phase: what a running judge adds to its disk
every phase, welcome mails and the games' first state copies aside. The outbox Maildir (the
mail "sent") is not counted: on a real judge it is the mail server's. It also prints where
the bytes are (SQLite's dbstat, table by table). A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.build import build, write_orders  # noqa: E402
from bench.run import run_ticks  # noqa: E402


def used_bytes(db_path: Path) -> tuple[int, dict[str, int]]:
    """Bytes of the database's pages in use, and per table and index (when SQLite has dbstat)."""
    db = sqlite3.connect(str(db_path))
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, free, size = (db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count",
                                                                                 "page_size"))
        try:
            tables = dict(db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall())
        except sqlite3.OperationalError:   # SQLite built without dbstat
            tables = {}
        return (pages - free) * size, tables
    finally:
        db.close()


def next_orders(home_path: Path, secrets: dict[tuple[str, str], str]) -> list[tuple[str, str, str, str, str]]:
    """Every decider's order mail for each game's open phase (the demo's orders, from their view)."""
    from pbem.rules.api import demo_script
    from pbem.judge import engine
    from pbem.judge.store import Store
    store = Store(home_path / "pbem.sqlite")
    try:
        mails = []
        for row in store.all("SELECT name FROM games WHERE status='running' ORDER BY name"):
            game = engine.load_game(store, row["name"])
            phase = game.rules.phase(game.state)
            for player in phase.deciders:
                body = demo_script(game.rules).orders(game.rules.view(game.state, player), player)
                mails.append((row["name"], player, secrets[(row["name"], player)], phase.id, body))
        return mails
    finally:
        store.close()


def measure(work: Path, games: int, phases: int) -> dict:
    """The home built in ``work``, played, measured: the figures as a dict."""
    built = build(work / "home", games)
    db_path = built.home.db_path
    run_ticks(built.home.path)
    start, start_tables = used_bytes(db_path)
    ordered = mails = 0
    for k in range(phases):
        batch = next_orders(built.home.path, built.secrets)
        if not batch:
            break
        write_orders(built.home, batch, tag=f"x{k}")
        run_ticks(built.home.path)
        ordered += 1
        mails += len(batch)
    end, end_tables = used_bytes(db_path)
    growth = {name: end_tables.get(name, 0) - start_tables.get(name, 0) for name in end_tables}
    return {"start": start, "end": end, "ordered": ordered, "order_mails": mails,
            "per_game_phase": (end - start) / (games * ordered) if ordered else 0.0,
            "tables": {name: grew / (games * ordered) for name, grew in growth.items() if grew and ordered}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--phases", type=int, default=8, help="ordered phases measured after the first")
    parser.add_argument("--work", type=Path, help="keep the home in this folder (default: a temporary one)")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="pbem-bench-disk-"))
    try:
        f = measure(work, args.games, args.phases)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{args.games} games, first ordered phase played: {f['start'] / 1024:.0f} KiB in use")
    print(f"{f['ordered']} more ordered phases ({f['order_mails']} order mails): "
          f"{(f['end'] - f['start']) / 1024:.0f} KiB more in use; {f['per_game_phase'] / 1024:.1f} KiB per game "
          f"per ordered phase (issue 13's goal: at most 15)")
    if f["tables"]:
        print("\nwhere it went, KiB per game per ordered phase:")
        for name, grew in sorted(f["tables"].items(), key=lambda item: -item[1]):
            print(f"  {name:32} {grew / 1024:7.2f}")


if __name__ == "__main__":
    main()
