"""Every goal of issue 13 in one run: each measure beside its peer, one table of ratios.

    python3 bench/goals.py            # the issue's sizes: about 5 minutes on a quiet 2-core machine
    python3 bench/goals.py --quick    # a tenth of the sizes, to see that it all runs

It runs, one after the other, the measures of bench/run.py (one phase of N games on the Maildir
default, the same at a tenth of N for the ratio, the idle tick with processed mails in history
against `pbem --help`), bench/servers.py (the phase through a private Dovecot and a loopback SMTP
server), bench/imap.py (IMAP ingest against imap-tools, one fetch a mail), bench/smtp.py (pbem's
sender against a sequential smtplib loop, the server taking --delivery-ms to deliver each mail)
and bench/disk.py (the store's growth per game per ordered phase); it starts and stops its own
servers (root and Dovecot needed, as for the end-to-end tests), and prints the table of
docs/performance.md "Every goal measured at a quiet moment". Each script alone prints more of
each measure. A benchmark, not a test: it asserts nothing about time; the last column says
whether a goal was met in this run, on this machine, at its load (printed).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

from bench import disk, imap, servers, smtp  # noqa: E402
from bench.build import build  # noqa: E402
from bench.loopback import mail_servers  # noqa: E402
from bench.run import paired, run_ticks  # noqa: E402


@dataclass(frozen=True)
class Row:
    goal: str
    measured: str
    value: float
    limit: float
    at_most: bool    # the goal is value <= limit (else value >= limit)

    @property
    def met(self) -> bool:
        return self.value <= self.limit if self.at_most else self.value >= self.limit


def maildir_rows(work: Path, games: int, history: int, idle_runs: int) -> list[Row]:
    small = max(1, games // 10)
    results = {}
    for n in (small, games):
        built = build(work / f"games-{n}", n)
        results[n] = run_ticks(built.home.path)
        print(f"  Maildir, {n} games: {results[n]['ticks']} tick(s), {results[n]['total']:.1f} s", flush=True)
    big, little = results[games], results[small]
    idle_home = build(work / "history", max(1, games // 50), history=history).home.path
    run_ticks(idle_home)
    tick_time, help_time, idle = paired([sys.executable, "-m", "pbem", "tick", "--home", str(idle_home)],
                                        [sys.executable, "-m", "pbem", "--help"], idle_runs)
    return [
        Row(f"{games} games' phase in one tick, Maildir (s)",
            f"{big['ticks']} tick(s), {big['cpu']:.1f} s CPU", big["total"] if big["ticks"] == 1 else float("inf"),
            60, True),
        Row(f"t({games} games) / t({small} games), wall", f"{big['total']:.1f} s / {little['total']:.1f} s",
            big["total"] / little["total"], 11, True),
        Row(f"peak memory of a tick, {games} games (MB)", "", big["peak_mb"], 200, True),
        Row(f"idle tick / pbem --help, {history} processed mails",
            f"{tick_time:.3f} s / {help_time:.3f} s, median of {idle_runs}", idle, 1.2, True),
    ]


def servers_row(games: int) -> Row:
    with mail_servers("pbem-bench-goals-") as (running, work):
        r = servers.measure(running, games, 8, 40, work)
    print(f"  Dovecot + SMTP: {r['ticks']} tick(s), {r['total']:.1f} s", flush=True)
    return Row(f"{games} games' phase through Dovecot + SMTP (s)", f"{r['ticks']} tick(s), {r['cpu']:.1f} s CPU",
               r["total"], 120, True)


def imap_row(mails: int) -> Row:
    with mail_servers("pbem-bench-goals-") as (running, work):
        f = imap.measure(running, mails, ROOT, work)
    pbem_rate, peer_rate = f["pbem_mails"] / f["read_seconds"], f["peer_mails"] / f["peer_seconds"]
    return Row(f"IMAP ingest / imap-tools one fetch a mail, {mails} mails",
               f"{pbem_rate:.0f} / {peer_rate:.0f} mails/s", pbem_rate / peer_rate, 0.10, False)


def smtp_row(mails: int, delivery_ms: float) -> Row:
    with smtp.SinkServers(delivery_ms) as sink:
        rows, _ = smtp.runs(sink, argparse.Namespace(mails=mails, concurrency=[8]))
    (_, loop), (_, pbem) = rows
    return Row(f"sending, 8 connections / smtplib loop, {delivery_ms:g} ms a mail",
               f"{mails / pbem:.0f} / {mails / loop:.0f} mails/s", loop / pbem, 5, False)


def disk_row(work: Path, games: int, phases: int) -> Row:
    f = disk.measure(work / "disk", games, phases)
    return Row(f"store per game per ordered phase (KiB), {games} games x {phases}", "",
               f["per_game_phase"] / 1024, 15, True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of every size")
    parser.add_argument("--idle-runs", type=int, default=7, help="pairs of idle tick and `pbem --help`")
    parser.add_argument("--delivery-ms", type=float, default=10, help="the SMTP server's time a mail (default 10)")
    args = parser.parse_args(argv)
    tenth = 10 if args.quick else 1
    games, mails, history = 1000 // tenth, 2000 // tenth, 100_000 // tenth
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-goals-"))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpu(s), load {os.getloadavg()[0]:.2f}", flush=True)
    try:
        rows = maildir_rows(work, games, history, args.idle_runs)
        rows.append(servers_row(games))
        rows.append(imap_row(mails))
        rows.append(smtp_row(1000 // tenth, args.delivery_ms))
        rows.append(disk_row(work, max(4, 40 // tenth), 6))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\nissue 13's goals, load {os.getloadavg()[0]:.2f} at the end\n")
    print(f"{'goal':58} {'value':>9} {'limit':>7}  met  {'measured'}")
    for row in rows:
        sign = "<=" if row.at_most else ">="
        print(f"{row.goal:58} {row.value:>9.3g} {sign}{row.limit:<5g}  {'yes' if row.met else 'NO ':3}  {row.measured}")


if __name__ == "__main__":
    main()
