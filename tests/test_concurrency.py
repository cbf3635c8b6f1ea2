"""Concurrency (issue 3): two ticks at once, and game-master commands while a tick works.

Every command runs as its own process through the real CLI, as cron and a game master's shell
would run them. Delay fault points (PBEM_FAULT_DELAY, pbem/judge/faults.py) hold a tick inside
its transactions so the races happen every time, not by luck. After each race the store must
be whole: SQLite's integrity check passes, phases follow each other with no gap, no phase is
resolved twice, the archive replays, and every command either did its work or said in one line
why it did nothing.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge_support import Judge
from pbem.judge import archive, engine, store as store_module
from pbem.judge.store import Store

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
CLI = (
    "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
    "import judge_support  # registers the tiny test game\n"
    "from pbem.cli import main\n"
    "main(args=sys.argv[3:], prog_name='pbem')\n"
)


@pytest.fixture
def judge(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game(gm_email="gm@pbem.test", options={"target": 9})
    return judge


def start(judge: Judge, *args: str, delay: str = "") -> subprocess.Popen:
    """A pbem command in its own process. With ``delay`` ("point=seconds"), the command sleeps
    at that fault point, and this returns only once it got there: the race is then certain."""
    env = dict(os.environ, PBEM_HOME=str(judge.home.path))
    env.pop("PBEM_FAULT", None)
    trace = None
    if delay:
        env["PBEM_FAULT_DELAY"] = delay
        trace = judge.home.path.parent / f"trace-{time.monotonic_ns()}"
        env["PBEM_FAULT_TRACE"] = str(trace)
    process = subprocess.Popen([sys.executable, "-c", CLI, str(TESTS), str(ROOT), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if trace is not None:
        point = delay.partition("=")[0]
        deadline = time.monotonic() + 30
        while not (trace.exists() and point in trace.read_text().split()):
            assert process.poll() is None and time.monotonic() < deadline, f"never reached {point}"
            time.sleep(0.02)
    return process


def finish(process: subprocess.Popen) -> tuple[int, str]:
    out, err = process.communicate(timeout=60)
    text = out + err
    assert "Traceback" not in text, text
    return process.returncode, text


def bids(judge: Judge, phase: str = "round-1/bid", players=("alice", "bob", "carol")) -> None:
    for player in players:
        judge.orders("g1", player, phase, "bid: 3\n")


def check_whole(judge: Judge) -> dict:
    """The store after a race: intact, phases in order, none resolved twice, replayable."""
    store = Store(judge.home.db_path)
    try:
        assert store.one("PRAGMA integrity_check")[0] == "ok"
        game = engine.load_game(store, "g1")
        phases = store.all("SELECT seq, phase_id, resolved_at FROM phases WHERE game_id=? ORDER BY seq", game.id)
        assert [p["seq"] for p in phases] == list(range(1, game.seq + 1))     # no gap, no double
        assert all(p["resolved_at"] is not None for p in phases[:-1])
        assert phases[-1]["resolved_at"] is None or game.row["status"] == "over"
        # Events belong to resolved phases only, and each resolution told its story once.
        resolved = {p["seq"] for p in phases if p["resolved_at"] is not None}
        event_seqs = {r["seq"] for r in store.all("SELECT DISTINCT seq FROM events WHERE game_id=?", game.id)}
        assert event_seqs <= resolved
        for seq in resolved:
            kinds = [r["kind"] for r in store.all("SELECT kind FROM events WHERE game_id=? AND seq=?", game.id, seq)]
            assert kinds.count("bid") in (0, 3) and kinds.count("point") <= 1
        assert archive.replay(store, game).ok
        return {"phases": [p["phase_id"] for p in phases], "seq": game.seq,
                "outcomes": sorted(r["outcome"] for r in store.all("SELECT outcome FROM processed"))}
    finally:
        store.close()


def test_two_ticks_at_once_one_runs_and_the_other_says_skipped(judge):
    bids(judge)
    first = start(judge, "tick", delay="after-fetch=1.0")
    second = start(judge, "tick")
    code2, text2 = finish(second)
    code1, text1 = finish(first)
    assert (code2, text2.strip()) == (0, f"skipped: another tick is running in {judge.home.path}")
    assert code1 == 0 and "mail: 3 x orders accepted" in text1 and "resolved g1: round-1/bid" in text1
    assert check_whole(judge)["outcomes"] == ["orders accepted"] * 3


def test_many_ticks_racing_handle_every_mail_once(judge):
    for round_ in range(3):
        bids(judge, f"round-{round_ + 1}/bid")
        racers = [start(judge, "tick") for _ in range(4)]
        results = [finish(p) for p in racers]
        assert all(code == 0 for code, _ in results)
        ran = [text for _, text in results if not text.startswith("skipped:")]
        assert len(ran) >= 1
        state = check_whole(judge)
        assert state["outcomes"] == ["orders accepted"] * 3 * (round_ + 1)
        assert state["phases"][-1] == f"round-{round_ + 2}/bid"


def test_a_game_master_resolve_aimed_at_a_phase_a_tick_is_resolving_is_refused(judge):
    bids(judge)
    # The tick holds the write lock inside its resolution for a second; the game master's
    # command waits for it, then finds round-1/bid gone and says so.
    tick = start(judge, "tick", delay="in-resolution-commit=1.0")
    gm = start(judge, "game", "resolve", "g1", "--phase", "round-1/bid")
    code, text = finish(gm)
    assert finish(tick)[0] == 0
    assert code == 1
    assert text.strip() == ("Error: game 'g1' now waits on 'round-2/bid', not 'round-1/bid' (a tick has moved it "
                            "on); nothing was done - check `pbem game show g1` and try again")
    assert check_whole(judge)["phases"] == ["round-1/bid", "round-1/tally", "round-2/bid"]


def test_a_tick_reading_orders_while_the_game_master_resolves_finds_them_stale(judge):
    bids(judge)
    # The game master's resolution holds the lock; the tick's first mail waits for it, and then
    # every order mail is for a phase that has gone: each player is told, nothing is applied twice.
    gm = start(judge, "game", "resolve", "g1", "--phase", "round-1/bid", delay="in-resolution=1.0")
    tick = start(judge, "tick")
    code, text = finish(gm)
    assert code == 0 and "resolved round-1/bid" in text
    code, text = finish(tick)
    assert code == 0 and "mail: 3 x reject: stale phase" in text
    state = check_whole(judge)
    assert state["phases"] == ["round-1/bid", "round-1/tally", "round-2/bid"]
    store = Store(judge.home.db_path)
    used = json.loads(store.one("SELECT orders_used FROM phases WHERE seq=1")["orders_used"])
    store.close()
    assert used == {"alice": {"bid": 1}, "bob": {"bid": 1}, "carol": {"bid": 1}}   # defaults, once


@pytest.mark.parametrize("command, hold", [
    (("game", "extend", "g1", "--hours", "5"), "in-mail-commit=0.4"),
    (("game", "rollback", "g1"), "in-resolution-commit=0.8"),
    (("game", "rollback", "g1", "--phase", "round-2/bid"), "in-mail-commit=0.4"),
    (("game", "pause", "g1"), "mid-send=0.1"),
    (("game", "resolve", "g1"), "in-resolution-commit=0.8"),
    (("game", "new-secret", "g1", "bob"), "in-mail-commit=0.4"),
])
def test_game_master_commands_during_a_tick_are_done_or_refused_and_nothing_is_corrupted(judge, command, hold):
    bids(judge)
    if command[1] == "rollback":
        assert start(judge, "tick").wait(30) == 0            # something to roll back
        bids(judge, "round-2/bid")
    tick = start(judge, "tick", delay=hold)
    code, text = finish(start(judge, *command))
    tick_code, tick_text = finish(tick)
    assert tick_code == 0, tick_text
    # Done (and announced), or refused in one line; never a half-done change.
    assert code == 0 or (code == 1 and len(text.strip().splitlines()) == 1 and text.startswith("Error: ")), text
    check_whole(judge)


def test_a_command_kept_waiting_too_long_says_so_in_one_line(judge, monkeypatch):
    from pbem.cli import main
    from pbem.judge.tick import run_tick
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.2)
    blocker = Store(judge.home.db_path)
    blocker.run("BEGIN IMMEDIATE")
    try:
        result = CliRunner().invoke(main, ["game", "extend", "g1", "--hours", "1", "--home", str(judge.home.path)])
        assert result.exit_code == 1
        assert "stayed locked by another pbem process for 0.2s; nothing was changed, try again" in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        bids(judge)
        report = run_tick(judge.home, now=judge.now)
        assert report.errors and "stayed locked" in report.errors[0]
        assert len(report.errors) == 1
    finally:
        blocker.run("ROLLBACK")
        blocker.close()
    # Nothing was lost: the next tick reads the three mails.
    assert run_tick(judge.home, now=judge.now).mails == {"orders accepted": 3}
