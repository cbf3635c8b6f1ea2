"""The judge's own commands: `pbem init`, `pbem tick` for cron, the outbox, export, replay, the
board, and the demo."""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import click
import yaml

from pbem.cli.base import HOME_OPTION, fail, session, main
from pbem.games import GAME_TYPES, rules_for
from pbem.judge import archive, engine
from pbem.judge.home import HomeError, init_home, load_home, resolve_home
from pbem.judge.store import Store, StoreBusy, StoreTooNew
from pbem.judge.tick import TickBusy, run_tick
from pbem.mail.config import MailConfigError


@main.command()
@HOME_OPTION
@click.option("--address", default="judge@localhost", show_default=True,
              help="The judge's own mail address.")
@click.option("--force", is_flag=True,
              help="Write a fresh config.toml even if one exists (the old one is kept as config.toml.bak).")
def init(home_dir: str | None, address: str, force: bool) -> None:
    """Create a judge home with the embedded default (Maildir in and out, SQLite). An existing
    config.toml is kept (a broken one is explained); --force replaces it."""
    try:
        path = resolve_home(home_dir)
        existed = (path / "config.toml").exists()
        home = init_home(path, address, force=force)
        Store(home.db_path).close()
    except (HomeError, StoreBusy, StoreTooNew) as exc:
        fail(str(exc))
    if existed and not force:
        click.echo(f"judge home ready: {home.path} (its config.toml was already there and is kept: "
                   f"address {home.address}; edit it, or use --force to write a fresh one)")
    else:
        kept = " (the old one is config.toml.bak)" if existed else ""
        click.echo(f"judge home ready: {home.path} (edit {home.path / 'config.toml'} for a real mailbox){kept}")


@main.command()
@HOME_OPTION
def tick(home_dir: str | None) -> None:
    """One pass: read mail, answer it, resolve due phases, remind, send. Safe every minute."""
    try:
        home = load_home(resolve_home(home_dir))
        report = run_tick(home)
    except HomeError as exc:
        fail(str(exc))
    except TickBusy as exc:
        click.echo(f"skipped: {exc}")
        return
    except MailConfigError as exc:
        fail(str(exc))
    except sqlite3.DatabaseError as exc:  # every step committed what it did: the next tick carries on
        fail(f"the judge's database {home.db_path}: {exc}; the next tick carries on from what was committed")
    for line in report.lines():
        click.echo(line)
    # 3: a mail put aside or a game stopped by the judge's own bug; 2: retried by the next tick.
    if report.exit_code:
        sys.exit(report.exit_code)


@main.command("outbox")
@HOME_OPTION
@click.option("--all", "show_all", is_flag=True, help="Also list mail already sent.")
def outbox_cmd(home_dir, show_all):
    """List mail waiting to be sent and mail refused for good, with the server's last words
    (never the mail itself: it may carry a secret)."""
    with session(home_dir) as (home, store):
        where = "" if show_all else "WHERE sent_at IS NULL"
        rows = store.all("SELECT o.recipient, o.purpose, o.attempts, o.sent_at, o.failed, o.last_error, "
                         f"g.name AS game FROM outbox o LEFT JOIN games g ON g.id=o.game_id {where} ORDER BY o.id")
        if not rows:
            click.echo("the outbox is empty" if show_all else "no mail waiting or refused")
        for r in rows:
            state = "sent" if r["sent_at"] is not None else "REFUSED" if r["failed"] else "waiting"
            click.echo(f"{state}\t{r['game'] or '-'}\t{r['purpose']}\t{r['recipient']}\t"
                       f"tries {r['attempts']}" + (f"\t{r['last_error']}" if r["last_error"] else ""))


@main.command("export")
@HOME_OPTION
@click.argument("name")
@click.argument("folder", type=click.Path(file_okay=False))
def export_cmd(home_dir, name, folder):
    """Write the game's history as readable YAML, one file per phase."""
    with session(home_dir) as (home, store):
        files = archive.export(store, engine.load_game(store, name), Path(folder))
        click.echo(f"wrote {len(files)} files to {folder}")


@main.command("replay")
@HOME_OPTION
@click.argument("name")
def replay_cmd(home_dir, name):
    """Re-run the whole stored history; exit 1 at the first phase whose state differs."""
    with session(home_dir) as (home, store):
        result = archive.replay(store, engine.load_game(store, name))
        click.echo(result.message)
        if not result.ok:
            sys.exit(1)


@main.command("map")
@click.argument("game_type", type=click.Choice(sorted(GAME_TYPES)))
@click.option("--json", "as_json", is_flag=True, help="Print the board data as JSON.")
def map_cmd(game_type, as_json):
    """The board of GAME_TYPE, as readable YAML (or JSON with --json)."""
    board = rules_for(game_type).board()
    click.echo(json.dumps(board, indent=2, ensure_ascii=False) if as_json
               else yaml.safe_dump(board, allow_unicode=True, sort_keys=False).rstrip("\n"))


@main.command()
@click.option("--home", "home_dir", default="pbem-demo", show_default=True, metavar="DIR",
              help="Where to create the demo judge home.")
@click.option("--game", "game_type", type=click.Choice(sorted(GAME_TYPES)), default="fief_france",
              show_default=True, help="The game type to demonstrate.")
@click.option("--players", "count", type=int, default=None, metavar="N",
              help="Play with the demo's first N players (default: all of them; e.g. 2 for "
                   "Fief: England's two-player game, 13.7).")
def demo(home_dir, game_type, count):
    """Create a judge home, start a game (by default a 4-player Fief: France game), mail each
    player's scripted orders into the inbox and tick until the game's demo has shown enough
    (Fief: France: a full round)."""
    from pbem.demo import run_demo
    try:
        for line in run_demo(Path(home_dir).resolve(), game_type, count):
            click.echo(line)
    except (engine.JudgeError, HomeError, ValueError) as exc:
        fail(str(exc))

