"""IMAP ingest against the real Dovecot (issue 13): how fast the judge reads, checks, stores and
answers order mail from an IMAP mailbox, beside a plain imap-tools fetch of the same mails, one
command per mail.

    python3 bench/imap.py --mails 2000
    python3 bench/imap.py --mails 2000 --pbem /path/to/other/checkout   # the same, older code

(`--pbem` runs the other checkout's tick on a home built by this one: both must know the same
store schema. Across a schema change, run the other checkout's own bench/imap.py instead.)

It starts a private Dovecot (tests/mailservers.py: root and Dovecot needed), builds a judge home
of mails/4 four-player Fief: France games whose order mails wait (bench/build.py), puts those
mails into the judge's IMAP INBOX, then:

1. the peer: imap-tools fetches every mail of the INBOX, one UID FETCH per mail
   (``fetch(bulk=False, mark_seen=False)``), and, for scale, all of them with one command
   (``bulk=True``); neither changes anything on the server;
2. pbem: one `pbem tick` in a fresh process (the time budget set out of the way), reading from
   Dovecot with the processed mail moved to a folder; the rate is mails / the time of its "read
   and answer mail" step (fetch, check, store, answer, move), wall time as for the peer, and
   the judge's CPU time beside it (the machine may be shared).

It prints both rates and their ratio (issue 13's goal: at least 0.10). A benchmark, not a
test: it asserts nothing about time.
"""
from __future__ import annotations

import argparse
import imaplib
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if len(sys.argv) == 4 and sys.argv[1] == "_tick":
    sys.path.insert(0, sys.argv[3])   # the checkout measured: its pbem, imported before any other
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

from bench.build import build  # noqa: E402
from bench.loopback import mail_servers  # noqa: E402
from bench.run import _env  # noqa: E402


def fill_inbox(servers, home: Path) -> int:
    """Move the home's waiting order mails from its Maildir into the judge's IMAP INBOX."""
    new = home / "mail" / "inbox" / "new"
    files = sorted(new.iterdir())
    imap = imaplib.IMAP4(servers.imap_host, servers.imap_port, timeout=30)
    try:
        imap.login("judge", servers.password("judge"))
        for file in files:
            raw = file.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            status, _ = imap.append("INBOX", None, None, raw)
            if status != "OK":
                raise SystemExit(f"APPEND refused: {status}")
            file.unlink()
    finally:
        imap.logout()
    return len(files)


def peer_fetch(servers, bulk: bool) -> tuple[int, float]:
    """imap-tools reading every mail of the INBOX without marking anything: (mails, seconds)."""
    from imap_tools import MailBoxUnencrypted
    started = time.perf_counter()
    with MailBoxUnencrypted(servers.imap_host, servers.imap_port) as box:
        box.login("judge", servers.password("judge"), initial_folder="INBOX")
        mails = sum(1 for _ in box.fetch(mark_seen=False, bulk=bulk))
    return mails, time.perf_counter() - started


def point_home_at(home: Path, servers) -> None:
    config = home / "config.toml"
    text = config.read_text(encoding="utf-8")
    before, _, rest = text.partition("[inbox]")
    _, _, after = rest.partition("[outbox]")
    before = before.replace("tick_seconds = 40", "tick_seconds = 3600")   # the budget out of the way
    config.write_text(before + f"""[inbox]
kind = "imap"
host = "{servers.imap_host}"
port = {servers.imap_port}
user = "judge"
password = "{servers.password('judge')}"
security = "none"
processed_folder = "pbem-processed"

[outbox]""" + after, encoding="utf-8")


def tick_child(home_dir: str) -> None:
    """One tick of the checkout first on sys.path, its mail step timed (wall and CPU); prints
    one JSON line."""
    from pbem.judge.home import load_home
    from pbem.judge.tick import Tick, run_tick

    steps = dict(Tick.STEPS)
    seconds: dict[str, float] = {}

    def read_mail(tick) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            steps["read and answer mail"](tick)
        finally:
            seconds["wall"], seconds["cpu"] = time.perf_counter() - wall, time.process_time() - cpu
    Tick.STEPS = tuple((name, read_mail if name == "read and answer mail" else step) for name, step in Tick.STEPS)
    report = run_tick(load_home(Path(home_dir)))
    print(json.dumps({"read": seconds, "mails": sum(report.mails.values()), "outcomes": report.mails,
                      "errors": report.errors}))


def pbem_tick(home: Path, code: Path) -> dict:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "_tick", str(home), str(code)],
                          capture_output=True, text=True, env=_env(), cwd=code)
    if done.returncode != 0:
        raise SystemExit(f"the tick failed:\n{done.stdout}\n{done.stderr}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["errors"]:
        raise SystemExit(f"the tick reported errors: {figures['errors'][:5]}")
    return figures


def measure(servers, mails: int, code: Path, work: Path) -> dict:
    """Both measures on running (empty) servers; the figures as a dict."""
    built = build(work / "home", max(1, mails // 4))
    mails = fill_inbox(servers, built.home.path)
    peer, peer_seconds = peer_fetch(servers, bulk=False)
    bulk, bulk_seconds = peer_fetch(servers, bulk=True)
    point_home_at(built.home.path, servers)
    figures = pbem_tick(built.home.path, code)
    return {"mails": mails, "peer_mails": peer, "peer_seconds": peer_seconds, "bulk_mails": bulk,
            "bulk_seconds": bulk_seconds, "read_seconds": figures["read"]["wall"],
            "read_cpu": figures["read"]["cpu"],
            "outcomes": figures["outcomes"], "pbem_mails": figures["mails"],
            "left": len(servers.mailbox("judge")), "moved": len(servers.mailbox("judge", "pbem-processed"))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=2000, help="order mails (four a game; default 2000)")
    parser.add_argument("--pbem", type=Path, default=ROOT,
                        help="the checkout whose tick is measured (default: this one)")
    args = parser.parse_args(argv)
    with mail_servers("pbem-bench-imap-") as (servers, work):
        f = measure(servers, args.mails, args.pbem.resolve(), work)
    pbem_rate, peer_rate = f["pbem_mails"] / f["read_seconds"], f["peer_mails"] / f["peer_seconds"]
    print(f"order mails in the IMAP INBOX       {f['mails']}")
    print(f"imap-tools, one UID FETCH a mail    {f['peer_seconds']:8.2f} s  {peer_rate:8.0f} mails/s")
    print(f"imap-tools, one UID FETCH for all   {f['bulk_seconds']:8.2f} s  "
          f"{f['bulk_mails'] / f['bulk_seconds']:8.0f} mails/s")
    print(f"pbem tick, read and answer mail     {f['read_seconds']:8.2f} s  {pbem_rate:8.0f} mails/s"
          f"   ({f['outcomes']}; {f['moved']} moved, {f['left']} left in INBOX)")
    print(f"  the same, CPU time of the judge   {f['read_cpu']:8.2f} s  "
          f"{f['pbem_mails'] / f['read_cpu']:8.0f} mails/s")
    print(f"pbem / imap-tools one a mail        {pbem_rate / peer_rate:8.3f}   (issue 13's goal: >= 0.10)")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "_tick":
        tick_child(sys.argv[2])
    else:
        main()
