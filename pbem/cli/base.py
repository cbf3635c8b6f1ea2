"""What every command shares: the `pbem` group, the judge home option, one-line failures, a
session on the judge's store, and the checks and the announcement of game-master actions."""
from __future__ import annotations

import contextlib
import sqlite3
import time
from typing import Iterator, NoReturn

import click

from pbem.games import UnknownGameType
from pbem.judge import engine
from pbem.judge.home import Home, HomeError, load_home, resolve_home
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store, StoreBusy, StoreTooNew
from pbem.mail.config import MailConfigError
from pbem.mail.outgoing import address_problem

HOME_OPTION = click.option("--home", "home_dir", envvar="PBEM_HOME", metavar="DIR",
                           help="The judge home (default: $PBEM_HOME).")


def fail(message: str) -> NoReturn:
    raise click.ClickException(message)


@contextlib.contextmanager
def session(home_dir: str | None) -> Iterator[tuple[Home, Store]]:
    try:
        home = load_home(resolve_home(home_dir))
    except HomeError as exc:
        fail(str(exc))
    try:
        store = Store(home.db_path)
    except (StoreBusy, StoreTooNew) as exc:
        fail(str(exc))
    try:
        yield home, store
    except (engine.JudgeError, UnknownGameType, MailConfigError, StoreBusy) as exc:
        fail(str(exc))
    except sqlite3.DatabaseError as exc:  # a full disk, a damaged file: nothing half-done is stored
        fail(f"the judge's database {home.db_path}: {exc}")
    except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
        raise
    except Exception as exc:  # the judge's own bug (a game's rules raising): one line, never a traceback
        fail(f"internal error in pbem: {type(exc).__name__}: {exc}; what the command was doing was undone "
             f"(its transaction); after a fix, run it again")
    finally:
        store.close()


@click.group()
def main() -> None:
    """pbem: a play-by-email judge for Fief: France (Fief: England and Kard és Korona to come)."""


def plain_name(name: str) -> bool:
    """A game's or player's name as every mail may carry it: letters, digits, - and _ only."""
    return name.replace("-", "").replace("_", "").isalnum()


def check_address(email: str, where: str) -> None:
    """Refuse an address the judge could not write to now, not when the first report is due."""
    problem = address_problem(email)
    if problem:
        fail(f"{where}: {problem}")


def gm_action(home_dir, name, action, then=None):
    """Run a game-master action in one transaction and announce it to the players.
    ``action(store, home, game, now)`` returns the changed game and one line saying what it did
    (and the (name, address) of someone else to tell). ``then(mailer, game)`` queues mail that
    must follow the announcement: the reports of a resolution it explains, which must never
    arrive before it (the outbox sends in the order mail was queued)."""
    with session(home_dir) as (home, store):
        now = time.time()
        with store.transaction():
            g, text, *also = action(store, home, engine.load_game(store, name), now)
            mailer = Mailer(store, home)
            mailer.announce(g, text, also)
            if then is not None:
                then(mailer, g)
        click.echo(text)


def expect_open(g, expect_phase: str | None) -> None:
    """Refuse a command aimed at a phase that is no longer open: ticks run between the moment
    the game master looked and the moment the command runs (docs/reliability.md)."""
    if expect_phase is None:
        return
    current = engine.current_phase(g).id if g.row["status"] != "over" else None
    if current != expect_phase:
        now_text = f"now waits on {current!r}" if current else "is over"
        raise engine.JudgeError(f"game {g.name!r} {now_text}, not {expect_phase!r} (a tick has moved it on); "
                                f"nothing was done - check `pbem game show {g.name}` and try again")

