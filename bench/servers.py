"""A phase of N games through mail servers on loopback (issue 13: within 120 s through Dovecot +
SMTP): order mails read from a private Dovecot over IMAP, every answer and report sent over
SMTP.

    python3 bench/servers.py --games 1000
    python3 bench/servers.py --games 100 --concurrency 8

It builds a home of N four-player Fief: France games with every order mail of their first
phase waiting (bench/build.py), puts the mails into the judge's IMAP INBOX on Dovecot
(tests/mailservers.py: root and Dovecot needed), points the home at Dovecot for its inbox
(processed mail moved to a folder) and at a loopback SMTP server for its outbox, then runs
`pbem tick` in fresh processes until the INBOX is empty, every phase resolved and every mail
sent. The SMTP server is bench/sink.py: connections taken concurrently, every mail accepted,
counted and dropped (the players' addresses are made up), so the figure is the judge's side.
It prints the ticks, their wall and CPU time, the time of each step and the mails sent.
A benchmark, not a test: it asserts nothing about time.
"""
from __future__ import annotations

import argparse
import imaplib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

from bench.build import build  # noqa: E402
from bench.imap import fill_inbox, point_home_at  # noqa: E402
from bench.loopback import mail_servers  # noqa: E402
from bench.run import run_ticks  # noqa: E402
from bench.sink import Sink  # noqa: E402


def point_outbox_at(home: Path, port: int, concurrency: int) -> None:
    config = home / "config.toml"
    text = config.read_text(encoding="utf-8")
    before, _, _ = text.partition("[outbox]")
    config.write_text(before + f'[outbox]\nkind = "smtp"\nhost = "127.0.0.1"\nport = {port}\n'
                      f'security = "none"\nconcurrency = {concurrency}\n', encoding="utf-8")


def inbox_left(servers):
    def waiting(home: Path) -> int:
        imap = imaplib.IMAP4(servers.imap_host, servers.imap_port, timeout=30)
        try:
            imap.login("judge", servers.password("judge"))
            imap.select("INBOX", readonly=True)
            _, data = imap.uid("SEARCH", None, "UNDELETED")
            return len(data[0].split())
        finally:
            imap.logout()
    return waiting


def measure(servers, games: int, concurrency: int, tick_seconds: float, work: Path) -> dict:
    """The phase played through ``servers`` (Dovecot) and a loopback SMTP sink of our own."""
    sink = Sink()
    sink.start()
    try:
        built = build(work / "home", games)
        mails = fill_inbox(servers, built.home.path)
        point_home_at(built.home.path, servers)
        point_outbox_at(built.home.path, sink.port, concurrency)
        config = built.home.path / "config.toml"
        config.write_text(config.read_text(encoding="utf-8").replace(
            "tick_seconds = 3600", f"tick_seconds = {tick_seconds:g}"), encoding="utf-8")
        print(f"{games} games, {mails} order mails in Dovecot's INBOX; SMTP concurrency {concurrency}", flush=True)
        figures = run_ticks(built.home.path, waiting=inbox_left(servers))
    finally:
        sink.stop()
    return figures | {"order_mails": mails, "smtp_mails": sink.mails, "smtp_bytes": sink.bytes}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=8, help="the outbox's SMTP connections (default 8)")
    parser.add_argument("--tick-seconds", type=float, default=40, help="the tick's budget (default 40, as pbem's)")
    args = parser.parse_args(argv)
    with mail_servers("pbem-bench-servers-") as (servers, work):
        r = measure(servers, args.games, args.concurrency, args.tick_seconds, work)
    s = r["steps"]
    print(f"ticks {r['ticks']}; first {r['first']:.1f} s; all {r['total']:.1f} s wall, {r['cpu']:.1f} s CPU "
          f"({r['main_cpu']:.1f} s of it the tick's own thread) (issue 13's goal: within 120 s); "
          f"load {r['load'][0]:.1f} to {r['load'][1]:.1f}")
    print(f"steps: read and answer {s.get('read and answer mail', 0):.1f} s, resolve "
          f"{s.get('resolve due phases', 0):.1f} s, send {s.get('send the outbox', 0):.1f} s")
    print(f"mails read {r['mails_in']}, sent {r['sent']} (the SMTP server took {r['smtp_mails']}, "
          f"{r['smtp_bytes'] / 1e6:.0f} MB); peak memory of a tick {r['peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
