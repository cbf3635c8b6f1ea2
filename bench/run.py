"""The judge's benchmark (issue 13): how long a tick takes for N games whose every order mail
waits in the inbox, and what an idle tick costs beside `pbem --help`.

    python3 bench/run.py --games 100 --games 1000      # the table in docs/performance.md
    python3 bench/run.py --games 20                    # a quick look (about a minute)

For each N it builds a judge home of N four-player Fief: France games (bench/build.py), then
runs `pbem tick` in a fresh process, again and again, until every order mail is handled, every
game has resolved its phase and every answer and report is in the outbox Maildir. It prints,
for each N: the ticks that took, the first tick's time and all ticks' together (whole process,
as cron runs it), where the time went (per step of the tick, measured inside it), mails per
second read and answered, mails out, and the largest resident memory of a tick. Then the
ratio of the total times of the largest N to the smallest, and the idle tick (the largest
home, nothing left to do) against `pbem --help`: the two run in turn, pair by pair, and the
median ratio is printed.

It is a benchmark, not a test: it asserts nothing about time. Homes are built in a temporary
folder (or --work DIR, kept) and removed afterwards.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.build import build, progress  # noqa: E402

MAX_TICKS = 100


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    for name in ("PBEM_FAULT", "PBEM_FAULT_DELAY", "PBEM_FAULT_TRACE", "PBEM_HOME"):
        env.pop(name, None)
    return env


def tick_child(home_dir: str) -> None:
    """One tick, in this process, timed step by step; prints one JSON line."""
    import resource

    from pbem.judge.home import load_home
    from pbem.judge.tick import Tick, run_tick

    seconds: dict[str, float] = {}

    def timed(name, step):
        def run(tick):
            started = time.perf_counter()
            try:
                step(tick)
            finally:
                seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - started
        return run

    Tick.STEPS = tuple((name, timed(name, step)) for name, step in Tick.STEPS)
    report = run_tick(load_home(Path(home_dir)))
    print(json.dumps({"steps": seconds, "mails": sum(report.mails.values()), "outcomes": report.mails,
                      "resolved": len(report.resolved), "sent": report.sent, "errors": report.errors,
                      "cpu": (usage := resource.getrusage(resource.RUSAGE_SELF)).ru_utime + usage.ru_stime,
                      # the tick's own thread: the CPU on its path, without the pictures' PNGs
                      # written beside it (pbem.judge.maps.Drawn) nor the flushes waited for
                      "main_cpu": time.thread_time(),
                      "maxrss_kb": usage.ru_maxrss}))


def run_ticks(home: Path, waiting=None) -> dict:
    """`pbem tick` (timed step by step) in fresh processes until nothing is left to do;
    ``waiting(home)``: order mails not read yet, when they are not in the home's Maildir."""
    ticks = []
    for _ in range(MAX_TICKS):
        started = time.perf_counter()
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "_tick", str(home)],
                              capture_output=True, text=True, env=_env(), cwd=ROOT)
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"the tick failed:\n{done.stdout}\n{done.stderr}")
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        if figures["errors"]:
            raise SystemExit(f"the tick reported errors: {figures['errors'][:5]}")
        figures["wall"] = wall
        figures["load"] = os.getloadavg()[0]   # the machine's, over the last minute: the tick's own among it
        ticks.append(figures)
        left = progress(_home(home))
        if waiting is not None:
            left["inbox_pending"] = waiting(home)
        # Done when every mail is read and sent and every game resolved: a tick the budget
        # stopped while resolving may still have sent all it had queued.
        if not left["inbox_pending"] and not left["outbox_pending"] and left["resolved_games"] >= left["games"]:
            break
    else:
        raise SystemExit(f"still work left after {MAX_TICKS} ticks: {left}")
    steps: dict[str, float] = {}
    for figures in ticks:
        for name, value in figures["steps"].items():
            steps[name] = steps.get(name, 0.0) + value
    mails = sum(t["mails"] for t in ticks)
    return {"ticks": len(ticks), "first": ticks[0]["wall"], "total": sum(t["wall"] for t in ticks),
            "cpu": sum(t["cpu"] for t in ticks), "main_cpu": sum(t["main_cpu"] for t in ticks),
            "steps": steps, "mails_in": mails, "sent": sum(t["sent"] for t in ticks),
            "ingest": mails / steps["read and answer mail"] if steps.get("read and answer mail") else 0.0,
            "peak_mb": max(t["maxrss_kb"] for t in ticks) / 1024, "progress": left,
            "load": (min(t["load"] for t in ticks), max(t["load"] for t in ticks))}


def _home(path: Path):
    from pbem.judge.home import load_home
    return load_home(path)


def paired(a: list[str], b: list[str], runs: int) -> tuple[float, float, float]:
    """Median wall time of a and of b, run in turn (a b a b ...) after one warm-up each, and
    the median of the pairwise ratios a/b (robust to the machine's speed drifting)."""
    def once(cmd: list[str]) -> float:
        started = time.perf_counter()
        subprocess.run(cmd, capture_output=True, env=_env(), cwd=ROOT, check=True)
        return time.perf_counter() - started
    once(a), once(b)
    times_a, times_b = [], []
    for _ in range(runs):
        times_a.append(once(a))
        times_b.append(once(b))
    ratios = [x / y for x, y in zip(times_a, times_b, strict=True)]
    return statistics.median(times_a), statistics.median(times_b), statistics.median(ratios)


def main(argv: list[str] | None = None) -> None:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["_tick"]:
        tick_child(argv[1])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, action="append", metavar="N",
                        help="games in a home; repeat for several sizes (default: 20)")
    parser.add_argument("--history", type=int, default=0, metavar="M",
                        help="processed mails already in inbox/cur of each home (default 0)")
    parser.add_argument("--idle-runs", type=int, default=7, metavar="K",
                        help="pairs of idle tick and `pbem --help` to time (default 7; 0: skip)")
    parser.add_argument("--work", type=Path, help="build the homes here and keep them (default: a temporary folder)")
    args = parser.parse_args(argv)
    sizes = sorted(set(args.games or [20]))
    if any(n < 1 for n in sizes):
        parser.error("--games must be at least 1")
    work = args.work or Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpu(s), load {os.getloadavg()[0]:.2f}; "
          f"homes in {work}", flush=True)
    rows = []
    try:
        for n in sizes:
            where = work / f"games-{n}"
            if where.exists():
                shutil.rmtree(where)
            built = build(where, n, history=args.history)
            print(f"built {n} games ({built.order_mails} order mails waiting, {args.history} in history) "
                  f"in {built.seconds:.1f}s", flush=True)
            result = run_ticks(where)
            rows.append((n, result))
            print(f"  {result['ticks']} tick(s), {result['total']:.2f}s", flush=True)
        print()
        print(f"{'games':>6} {'mails in':>8} {'ticks':>5} {'tick 1 s':>8} {'all s':>7} {'cpu s':>7} {'main':>6} "
              f"{'s/game':>7} {'read s':>7} {'resolve s':>9} {'send s':>7} {'mails/s in':>10} {'mails out':>9} "
              f"{'peak MB':>7} {'load':>9}")
        for n, r in rows:
            s = r["steps"]
            print(f"{n:>6} {r['mails_in']:>8} {r['ticks']:>5} {r['first']:>8.2f} {r['total']:>7.2f} {r['cpu']:>7.2f} "
                  f"{r['main_cpu']:>6.2f} "
                  f"{r['total'] / n:>7.3f} {s.get('read and answer mail', 0):>7.2f} "
                  f"{s.get('resolve due phases', 0):>9.2f} {s.get('send the outbox', 0):>7.2f} "
                  f"{r['ingest']:>10.1f} {r['sent']:>9} {r['peak_mb']:>7.1f} {r['load'][0]:>4.1f}-{r['load'][1]:<4.1f}")
        if len(rows) > 1:
            (n0, r0), (n1, r1) = rows[0], rows[-1]
            print(f"\nt({n1})/t({n0}) = {r1['total'] / r0['total']:.2f} wall, {r1['cpu'] / r0['cpu']:.2f} cpu  "
                  f"(games x{n1 / n0:g})")
        if args.idle_runs:
            home = work / f"games-{sizes[-1]}"
            tick_time, help_time, ratio = paired(
                [sys.executable, "-m", "pbem", "tick", "--home", str(home)],
                [sys.executable, "-m", "pbem", "--help"], args.idle_runs)
            print(f"idle tick ({sizes[-1]} games, {args.history} mails in history): {tick_time:.3f}s; "
                  f"pbem --help: {help_time:.3f}s; ratio {ratio:.2f} (median of {args.idle_runs} pairs)")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
