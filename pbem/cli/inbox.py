"""`pbem inbox ...`: the mails the judge keeps after an error in its own code (docs/reliability.md,
"When the judge itself has a bug"): listed, and fed to the judge again after a fix."""
from __future__ import annotations

import time

import click

from pbem.cli.base import HOME_OPTION, fail, session, main
from pbem.judge import quarantine
from pbem.judge.mailer import Mailer
from pbem.judge.retry import Failed, retry_mail


@main.group()
def inbox() -> None:
    """The mails the judge keeps after an error of its own."""


@inbox.command("list")
@HOME_OPTION
def inbox_list(home_dir):
    """List the kept mails: id, state, failures, sender, subject and the last error."""
    with session(home_dir) as (home, store):
        _list(store)


def _list(store) -> None:
    rows = quarantine.held_rows(store)
    if not rows:
        click.echo("no mail kept: every mail was handled")
    for r in rows:
        state = "held (waits for `pbem inbox retry`)" if r["state"] == "held" else "tried again at the next tick"
        failed = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(r["failed_at"]))
        click.echo(f"{r['id']}\t{state}\tfailed {r['failures']}x, last {failed}\t{r['sender'] or '-'}\t"
                   f"{r['subject'] or '-'}\t{r['error'].splitlines()[-1]}")


@inbox.command("retry")
@HOME_OPTION
@click.argument("ids", nargs=-1, type=int, metavar="[ID]...")
@click.option("--list", "only_list", is_flag=True, help="Only list the kept mails (as `pbem inbox list`).")
def inbox_retry(home_dir, ids, only_list):
    """Handle the kept mails ID... again (all of them without ID), after a fix: each is handled
    as if it had just arrived and its sender gets the usual answer. One still failing stays
    kept (exit 1)."""
    with session(home_dir) as (home, store):
        if only_list:
            _list(store)
            return
        rows = quarantine.held_rows(store, list(ids))
        missing = sorted(set(ids) - {r["id"] for r in rows})
        if missing:
            fail(f"no kept mail {', '.join(map(str, missing))}; `pbem inbox list` shows the ids (nothing was done)")
        if not rows:
            click.echo("no mail kept: nothing to retry")
            return
        still = []
        for r in rows:
            with store.transaction():
                outcome = retry_mail(store, Mailer(store, home), r["id"], time.time(), by_hand=True)
            if isinstance(outcome, Failed):
                still.append(f"{r['id']} ({outcome.line})")
            elif outcome is not None:
                click.echo(f"mail {r['id']} from {r['sender'] or '-'}: {outcome}")
        if still:
            fail(f"still failing, kept: {'; '.join(still)}")
