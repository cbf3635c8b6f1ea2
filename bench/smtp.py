"""Sending through SMTP (issue 13: at least 5 times a sequential smtplib loop), against the
tests' loopback servers: an aiosmtpd relay that takes connections concurrently and hands each
mail to a private Dovecot over LMTP (tests/mailservers.py: root and Dovecot needed).

    python3 bench/smtp.py --mails 1000
    python3 bench/smtp.py --mails 1000 --concurrency 4 --concurrency 8 --concurrency 16

The peer: smtplib, one connection, one `sendmail` after the other. Then pbem's SmtpSender
(pbem/mail/outbox.py) sends the same mails at each concurrency given (connections at once),
and the table gives both rates and their ratio. Every mail is a judge's report as compose
writes it (5 KB of text), to one of the relay's users; each run's mails are counted in
Dovecot afterwards, so a lost mail shows. A benchmark, not a test: it asserts nothing about time.

    python3 bench/smtp.py --mails 1000 --delivery-ms 10

sends instead to bench/sink.py, a loopback server that takes connections concurrently and holds
each mail's answer that many milliseconds without using the CPU: the delivery time of a real
server (its disk's sync, or the network's round trips to a hosted one). Against the relay above,
on a 2-core machine whose cores the relay, Dovecot and the sender share, a mail costs the server
CPU and connections at once cannot hide it; against a server elsewhere they hide its delivery
time, which is what concurrency is for (docs/performance.md, "Sending over SMTP").
"""
from __future__ import annotations

import argparse
import smtplib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

from bench.loopback import mail_servers  # noqa: E402
from bench.sink import Sink  # noqa: E402
from pbem.mail.outbox import Outgoing, SmtpSender  # noqa: E402
from pbem.mail.outgoing import OutMail, compose  # noqa: E402

JUDGE = "judge@bench.example"


class SinkServers:
    """bench/sink.py in the place of the relay: the same attributes mails(), peer() and pbem() read."""

    def __init__(self, delay_ms: float) -> None:
        self.sink = Sink(delay=delay_ms / 1000)
        self.passwords = {f"player{n}": "" for n in range(1, 5)}

    def __enter__(self) -> SinkServers:
        self.sink.start()
        self.smtp_host, self.smtp_port = self.sink.host, self.sink.port
        return self

    def __exit__(self, *exc: object) -> None:
        self.sink.stop()

    @staticmethod
    def address(user: str) -> str:
        return f"{user}@players.example"


def mails(servers, count: int, tag: str) -> list[Outgoing]:
    users = sorted(u for u in servers.passwords if u != "judge")
    body = "\n".join(f"Line {n} of the report: the position, the events of the phase." for n in range(80))
    out = []
    for n in range(count):
        to = servers.address(users[n % len(users)])
        raw = compose(OutMail(to=to, subject=f"[bench] report {tag} {n}", body=body), JUDGE, "pbem judge")
        out.append(Outgoing(f"{tag}{n}", (to,), raw))
    return out


def peer(servers, batch: list[Outgoing]) -> float:
    started = time.perf_counter()
    with smtplib.SMTP(servers.smtp_host, servers.smtp_port, timeout=30) as smtp:
        for item in batch:
            smtp.sendmail(JUDGE, list(item.recipients), item.raw)
    return time.perf_counter() - started


def pbem(servers, batch: list[Outgoing], concurrency: int) -> float:
    sender = SmtpSender(servers.smtp_host, servers.smtp_port, security="none", concurrency=concurrency)
    started = time.perf_counter()
    results = sender.send(batch)
    seconds = time.perf_counter() - started
    failed = [r for r in results if not r.ok]
    if failed:
        raise SystemExit(f"{len(failed)} mails not sent: {failed[0].error}")
    return seconds


def delivered(servers) -> int:
    return sum(len(servers.mailbox(u)) for u in servers.passwords if u != "judge")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, action="append",
                        help="pbem's connections at once (repeat for several; default 4, 8 and 16)")
    parser.add_argument("--delivery-ms", type=float, default=None,
                        help="send to bench/sink.py, which answers each mail after this many ms "
                             "(a real server's delivery time), instead of the relay and Dovecot")
    args = parser.parse_args(argv)
    if args.delivery_ms is None:
        with mail_servers("pbem-bench-smtp-") as (servers, _):
            rows, expected = runs(servers, args)
            got = delivered(servers)
        where = "each delivered to Dovecot over LMTP"
    else:
        with SinkServers(args.delivery_ms) as sink_servers:
            rows, expected = runs(sink_servers, args)
            got = sink_servers.sink.mails
        where = f"to a loopback server answering each mail after {args.delivery_ms:g} ms"
    if got != expected:
        raise SystemExit(f"{expected} mails sent but {got} delivered")
    base = rows[0][1]
    print(f"{args.mails} mails a run, {where} ({got} in all)")
    for name, seconds in rows:
        print(f"{name:52} {seconds:7.2f} s {args.mails / seconds:8.0f} mails/s   x{base / seconds:5.2f}")


def runs(servers, args: argparse.Namespace) -> tuple[list[tuple[str, float]], int]:
    seconds = peer(servers, mails(servers, args.mails, "peer"))
    rows = [("smtplib, one connection, one mail after the other", seconds)]
    for concurrency in args.concurrency or [4, 8, 16]:
        seconds = pbem(servers, mails(servers, args.mails, f"c{concurrency}-"), concurrency)
        rows.append((f"pbem SmtpSender, concurrency {concurrency}", seconds))
    return rows, args.mails * len(rows)


if __name__ == "__main__":
    main()
