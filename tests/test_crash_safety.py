"""Crash safety (issue 3): a tick killed with SIGKILL at any step loses nothing.

For each seed, a scripted history (order mails, some with a part done at once, duplicates, bad
orders, stale phases, clock jumps past deadlines and reminders) is played twice from the same
judge home: once without faults (the reference, in this process), once with ticks killed by a
real SIGKILL in a child process at fault points chosen from those the reference passed
(pbem/judge/faults.py), each followed by recovery ticks. The two stores must then be equal:
games, phases, orders, order mails, at-once actions, events, processed ids, outbox rows by
purpose, recipient and body. Delivered copies are counted: every
outbox mail arrives at least once; copies beyond one are the documented duplicates
(docs/reliability.md), at most one per kill.
"""
from __future__ import annotations

import collections
import concurrent.futures
import email
import functools
import multiprocessing
import os
import random
import shutil
import signal
import time
import traceback
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge_support import Judge
from pbem.judge import player_secrets
from pbem.judge.faults import POINTS
from pbem.judge.home import load_home
from pbem.judge.store import Store
from pbem.judge.tick import run_tick

SEEDS = int(os.environ.get("PBEM_CRASH_SEEDS", "48"))
STEPS = 6
WORKERS = 2  # seeds run in parallel processes: the suite must stay fast on 2 cores


GAMES = {"g1": ("alice", "bob", "carol"), "g2": ("dave", "erin")}


@pytest.fixture(scope="module")
def base_home(tmp_path_factory) -> tuple[Path, Judge]:
    """Two games created, welcome mails still in the outbox: the first tick sends them."""
    judge = Judge(tmp_path_factory.mktemp("crash") / "base")
    judge.new_game("g1", players=GAMES["g1"], options={"target": 3}, gm_email="gm@pbem.test")
    judge.new_game("g2", players=GAMES["g2"], options={"target": 2}, phase_hours=24, reminder_hours=6)
    return judge.home.path, judge


def copy_home(base: Path, where: Path) -> Path:
    shutil.copytree(base, where)
    return where


# -- the scripted history ---------------------------------------------------------------------

def open_phase(home: Path, game: str) -> tuple[str, str]:
    store = Store(home / "pbem.sqlite")
    try:
        row = store.one("SELECT g.status, p.phase_id FROM games g JOIN phases p "
                        "ON p.game_id=g.id AND p.seq=g.phase_seq WHERE g.name=?", game)
        return row["status"], row["phase_id"]
    finally:
        store.close()


def order_mail(judge: Judge, rng: random.Random, game: str, player: str, phase: str, serial: str) -> bytes:
    bid = rng.choice(["1", "2", "3", "4", "5", "6", "6", "9"])        # 9: a rejected order
    if rng.random() < 0.1:
        phase = "round-0/bid"                                            # a stale phase
    extra = "ready: no\n" if rng.random() < 0.1 else ""
    if rng.random() < 0.25:
        extra += f'shout: "{serial}"\n'                                # done at once, told to all
    msg = EmailMessage()
    msg["From"] = f"{player}@pbem.test"
    msg["To"] = judge.home.address
    msg["Subject"] = "orders"
    msg["Message-ID"] = f"<{serial}@player.test>"
    msg.set_content(f"game: {game}\nplayer: {player}\nsecret: {judge.secrets[game][player]}\n"
                    f"phase: {phase}\n{extra}bid: {bid}\n")
    return bytes(msg)


def script_step(judge: Judge, rng: random.Random, home: Path, seed: int, step: int,
                sent_before: list[bytes]) -> tuple[float, list[bytes]]:
    """The mails arriving before one tick, and how far the clock moves."""
    mails = []
    for game, players in GAMES.items():
        status, phase = open_phase(home, game)
        if status != "running" or not phase.endswith("/bid"):
            continue
        for player in players:
            if rng.random() < 0.75:
                mails.append(order_mail(judge, rng, game, player, phase, f"s{seed}.t{step}.{player}"))
    if sent_before and rng.random() < 0.4:
        mails.append(rng.choice(sent_before))                             # the same mail again
    hours = rng.choice([0.5, 2, 20, 40, 50])                              # 40: reminders; 50: deadlines
    return hours * 3600, mails


def deliver(home: Path, step: int, mails: list[bytes]) -> None:
    """Into the inbox Maildir, with names and times that fix the arrival order in both runs."""
    for sub in ("new", "cur", "tmp"):
        (home / "mail" / "inbox" / sub).mkdir(parents=True, exist_ok=True)
    new = home / "mail" / "inbox" / "new"
    for i, raw in enumerate(mails):
        file = new / f"{step:03d}{i:03d}.crashtest"
        file.write_bytes(raw)
        stamp = 1_700_000_000 + step * 1000 + i
        os.utime(file, (stamp, stamp))


# -- running ticks ----------------------------------------------------------------------------

def tick_in_process(home: Path, now: float, trace: Path | None = None) -> collections.Counter:
    if trace is not None:
        os.environ["PBEM_FAULT_TRACE"] = str(trace)
    try:
        run_tick(load_home(home), now=now)
    finally:
        os.environ.pop("PBEM_FAULT_TRACE", None)
    if trace is None or not trace.exists():
        return collections.Counter()
    return collections.Counter(trace.read_text().split())


def tick_killed(home: Path, now: float, fault: str) -> bool:
    """A tick in a child process with PBEM_FAULT set; True if it died by SIGKILL. The child is
    forked (no interpreter start-up to pay) and holds no database connection of ours: each
    tick opens its own."""
    pid = os.fork()
    if pid == 0:  # the child: run the tick, never return into pytest
        code = 0
        try:
            os.environ["PBEM_FAULT"] = fault
            os.environ.pop("PBEM_FAULT_TRACE", None)
            run_tick(load_home(home), now=now)
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return True
    assert os.WEXITSTATUS(status) == 0, f"tick with {fault} failed"
    return False


# -- comparing stores -------------------------------------------------------------------------

def body_of(raw: bytes) -> bytes:
    # Headers hold the random Message-ID and the Date; the body is what the judge said.
    raw = raw.replace(b"\r\n", b"\n")
    return raw.partition(b"\n\n")[2]


def snapshot(home: Path) -> dict:
    store = Store(home / "pbem.sqlite")
    try:
        def rows(sql):
            return sorted(tuple(r) for r in store.all(sql))
        return {
            "games": rows("SELECT name, state, status, phase_seq, deadline, reminded, result FROM games"),
            "phases": rows("SELECT game_id, seq, phase_id, deciders, opened_at, state_before, resolved_at, "
                           "orders_used, defaulted, state_after_hash, rolls FROM phases"),
            "orders": rows("SELECT game_id, seq, player, canonical, ready, wait FROM orders"),
            "order_mails": rows("SELECT game_id, seq, player, message_id, received_at, document, understood, "
                                "errors FROM order_mails"),
            "events": rows("SELECT game_id, seq, kind, text, audience, data, action FROM events"),
            "actions": rows("SELECT game_id, seq, n, player, canonical, state_after_hash, rolls FROM actions"),
            "processed": rows("SELECT message_id, outcome FROM processed"),
            "outbox": sorted((r["purpose"], r["recipient"], r["game_id"], r["sent_at"] is not None,
                              r["failed"], body_of(bytes(r["raw"])))
                             for r in store.all("SELECT * FROM outbox")),
            "recheck": rows("SELECT game_id FROM recheck"),
            "meta": rows("SELECT key, value FROM meta"),
        }
    finally:
        store.close()


def delivered_copies(home: Path) -> collections.Counter:
    """How many copies of each Message-ID reached the outbox Maildir."""
    out = home / "mail" / "outbox"
    copies: collections.Counter = collections.Counter()
    for sub in ("new", "cur"):
        for file in (out / sub).iterdir():
            with open(file, "rb") as handle:
                copies[str(email.message_from_binary_file(handle)["Message-ID"])] += 1
    return copies


def outbox_ids(home: Path) -> set[str]:
    store = Store(home / "pbem.sqlite")
    try:
        return {r["message_id"] for r in store.all("SELECT message_id FROM outbox WHERE sent_at IS NOT NULL")}
    finally:
        store.close()


def inbox_unseen(home: Path) -> int:
    inbox = home / "mail" / "inbox"
    return len(list((inbox / "new").iterdir())) + \
        sum(1 for f in (inbox / "cur").iterdir() if "S" not in f.name.partition(":2,")[2])


# -- the test ---------------------------------------------------------------------------------

def run_seed(seed: int, base: Path, judge: Judge, work: Path) -> dict:
    figures = {"kills": 0, "duplicates": 0, "mails": 0, "ticks": 0, "resolutions": 0, "actions": 0,
               "points": collections.Counter()}
    rng = random.Random(seed)
    reference = copy_home(base, work / f"ref{seed}")
    faulted = copy_home(base, work / f"crash{seed}")
    now = judge.now
    steps, traces, sent_before = [], [], []
    for step in range(STEPS):
        advance, mails = script_step(judge, rng, reference, seed, step, sent_before)
        sent_before.extend(mails)
        now += advance
        deliver(reference, step, mails)
        traces.append(tick_in_process(reference, now, work / f"trace{seed}.{step}"))
        steps.append((now, mails))
    # Kills: the first at the point this seed must cover, the others random; each at a step
    # where the reference passed that point, at a random occurrence of it.
    must = POINTS[seed % len(POINTS)]
    plan: dict[int, list[str]] = {}
    candidates = [s for s, t in enumerate(traces) if t[must]]
    if candidates:
        s = rng.choice(candidates)
        plan[s] = [f"{must}@{rng.randint(1, traces[s][must])}"]
    for _ in range(rng.randint(1, 2)):
        s = rng.randrange(STEPS)
        if s not in plan and traces[s]:
            point = rng.choice(sorted(traces[s]))
            plan[s] = [f"{point}@{rng.randint(1, traces[s][point])}"]
    for s in plan:
        if rng.random() < 0.3:  # the recovery tick dies too, somewhere
            plan[s].append(f"{rng.choice(POINTS)}@1")
    for step, (tick_now, mails) in enumerate(steps):
        deliver(faulted, step, mails)
        for fault in plan.get(step, []):
            killed = tick_killed(faulted, tick_now, fault)
            figures["kills"] += killed
            if killed:
                figures["points"][fault.partition("@")[0]] += 1
        tick_in_process(faulted, tick_now)   # the next tick catches up
        figures["ticks"] += 1
    expected, got = snapshot(reference), snapshot(faulted)
    for table in expected:
        assert got[table] == expected[table], f"seed {seed}: table {table} differs after kills {plan}"
    assert inbox_unseen(faulted) == 0
    ref_copies, copies = delivered_copies(reference), delivered_copies(faulted)
    assert set(ref_copies.values()) <= {1}
    ids = outbox_ids(faulted)
    assert set(copies) == ids, f"seed {seed}: a sent mail is missing from the recipients' mailboxes"
    duplicates = sum(n - 1 for n in copies.values())
    mid_send_kills = sum(1 for f in sum(plan.values(), []) if f.startswith("mid-send"))
    assert duplicates <= mid_send_kills, f"seed {seed}: {duplicates} duplicates from kills {plan}"
    figures["duplicates"] += duplicates
    figures["mails"] += len(ids)
    figures["resolutions"] += sum(1 for p in expected["phases"] if p[6] is not None)
    figures["actions"] += len(expected["actions"])
    return figures


def test_a_tick_killed_at_any_step_loses_nothing_and_resolves_nothing_twice(base_home, tmp_path, capsys,
                                                                            monkeypatch):
    base, judge = base_home
    # The secret hash is a pure function made slow on purpose (PBKDF2); the in-process ticks
    # remember its answers so the suite stays fast. The killed ticks, in subprocesses, do not.
    monkeypatch.setitem(player_secrets.SECRET_SCHEMES, player_secrets.STRETCHED,
                        functools.lru_cache(maxsize=None)(player_secrets.hash_secret))
    figures = {"kills": 0, "duplicates": 0, "mails": 0, "ticks": 0, "resolutions": 0, "actions": 0,
               "points": collections.Counter()}
    started = time.monotonic()
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(WORKERS, mp_context=context) as pool:
        for one in pool.map(run_seed, range(SEEDS), [base] * SEEDS, [judge] * SEEDS, [tmp_path] * SEEDS):
            for key, value in one.items():
                figures[key] += value
    # Every fault point was hit by a real SIGKILL at least once.
    assert set(figures["points"]) == set(POINTS), figures["points"]
    assert figures["actions"] > SEEDS, figures   # mails done at once (shouts) were in the histories
    with capsys.disabled():
        print(f"\ncrash safety: {SEEDS} seeds, {figures['kills']} SIGKILLs at {len(POINTS)} points "
              f"({dict(sorted(figures['points'].items()))}), {figures['ticks']} ticks, "
              f"{figures['resolutions']} resolutions, {figures['actions']} at-once actions, "
              f"{figures['mails']} mails sent, "
              f"{figures['duplicates']} duplicate deliveries, {time.monotonic() - started:.1f}s")


def test_a_fault_point_is_a_no_op_without_the_variable(monkeypatch):
    from pbem.judge import faults
    monkeypatch.delenv("PBEM_FAULT", raising=False)
    faults.fault_point("after-fetch")          # still alive
    monkeypatch.setenv("PBEM_FAULT", "mid-send@3")
    faults.fault_point("after-fetch")          # another point: still alive
    assert faults._wanted() == ("mid-send", 3)


def test_an_inbox_maildir_started_with_new_alone_is_read(tmp_path):
    """A delivery agent may create only new/; the tick must not fail on the missing cur/."""
    judge = Judge(tmp_path / "home")
    judge.new_game()
    shutil.rmtree(judge.home.path / "mail" / "inbox", ignore_errors=True)
    new = judge.home.path / "mail" / "inbox" / "new"
    new.mkdir(parents=True)
    (new / "1.mail").write_bytes(order_mail(judge, random.Random(1), "g1", "alice", "round-1/bid", "only-new"))
    report = judge.tick()
    assert report.mails == {"orders accepted": 1} and not report.errors
