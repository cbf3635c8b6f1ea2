"""`pbem game observe | unobserve | replace | standin | settings`: the people around a game
(issue 15; docs/players-guide.md): observers, a position handed to a new player, a stand-in
while its player is away, and the game master's correspondence settings (civil disorder,
absences, grace, reminders, a public game)."""
from __future__ import annotations

import datetime

import click

from pbem.cli.base import HOME_OPTION, check_address, fail, gm_action, session
from pbem.cli.game import game
from pbem.judge import absences, engine, seats
from pbem.judge.mailer import Mailer
from pbem.judge.settings import SETTINGS, parse_settings, settings_of, shown, store_settings


@game.command("observe")
@HOME_OPTION
@click.argument("name")
@click.argument("email")
def game_observe(home_dir, name, email):
    """Let EMAIL follow game NAME: the public report of each phase; never orders."""
    check_address(email, "EMAIL")

    def action(store, home, g, now):
        seats.observe(store, g, email, now)
        return g, "the game master added an observer: they get the public report of each phase"
    gm_action(home_dir, name, action)


@game.command("unobserve")
@HOME_OPTION
@click.argument("name")
@click.argument("email")
def game_unobserve(home_dir, name, email):
    """Stop sending game NAME's public reports to EMAIL."""
    with session(home_dir) as (home, store):
        with store.transaction():
            seats.unobserve(store, engine.load_game(store, name), email)
        click.echo(f"{email} no longer observes game {name}")


@game.command("replace")
@HOME_OPTION
@click.argument("name")
@click.argument("player")
@click.argument("email")
def game_replace(home_dir, name, player, email):
    """Hand PLAYER's position to a new player at EMAIL: a new secret, the current report and the
    position's history are mailed to them; the old address loses access; everyone is told."""
    check_address(email, "EMAIL")

    def action(store, home, g, now):
        old = seats.replace(store, Mailer(store, home), g, player, email)
        # The old address is told too: its player learns the position is no longer theirs.
        # (A seat the computer held from the start has no old address.)
        return g, f"{player} is now played by someone else; the old address no longer has access", \
            *([(player, old)] if old else [])
    gm_action(home_dir, name, action)


@game.command("bot")
@HOME_OPTION
@click.argument("name")
@click.argument("player")
@click.option("--off", is_flag=True, help="Hand the seat back to the person at its address (a new secret, the "
              "current report and the history are mailed to them).")
def game_bot(home_dir, name, player, off):
    """Hand PLAYER's seat to the game's computer player, which orders for it from the next tick on
    (it gets no mail; read its position with `pbem game show NAME --as PLAYER`), or with --off
    back to its player; everyone is told."""
    def action(store, home, g, now):
        mailer = Mailer(store, home)
        if off:
            seats.to_person(store, mailer, g, player)
            return g, f"{player} is played by a person again, no longer by the computer"
        old = seats.to_computer(store, mailer, g, player)
        # Its player is told at their address: the seat no longer mails them.
        return g, f"the computer player now plays {player}", *([(player, old)] if old else [])
    gm_action(home_dir, name, action)


@game.command("settings")
@HOME_OPTION
@click.argument("name")
@click.argument("specs", nargs=-1, metavar="[KEY=VALUE]...")
def game_settings(home_dir, name, specs):
    """Show game NAME's correspondence settings, or change some with KEY=VALUE (e.g.
    civil_disorder_after=3 grace_hours=12 reminders=48,12,2 away_policy=extend away_days=10
    public=yes). A change is announced to the players."""
    try:
        changes = parse_settings(list(specs))
    except ValueError as exc:
        fail(str(exc))
    if not changes:
        with session(home_dir) as (home, store):
            values = settings_of(engine.load_game(store, name).row)
        for key, setting in SETTINGS.items():
            click.echo(f"{key} = {shown(values[key])}\t{setting.help}")
        return

    def action(store, home, g, now):
        store_settings(store, g.row, changes)
        return engine.reload(store, g), "the game master changed the settings: " + ", ".join(
            f"{k} = {shown(v)}" for k, v in changes.items())
    gm_action(home_dir, name, action)


@game.command("standin")
@HOME_OPTION
@click.argument("name")
@click.argument("player")
@click.argument("email")
@click.option("--until", "until", metavar="DATE", default=None,
              help="a stand-in from now to the end of DATE (YEAR-MONTH-DAY, the player's time zone); without "
                   "it, for the absence PLAYER announced (the current one, else the next)")
def game_standin(home_dir, name, player, email, until):
    """Name EMAIL the stand-in of PLAYER while they are away (away_policy=standin): it gets
    PLAYER's reports and a secret of its own to order with, until the absence ends; everyone
    is told."""
    check_address(email, "EMAIL")
    try:
        day = None if until is None else datetime.date.fromisoformat(until)
    except ValueError:
        fail(f"--until {until!r}: write a date as YEAR-MONTH-DAY, e.g. --until 2027-01-03")

    def action(store, home, g, now):
        return g, absences.name_standin(store, Mailer(store, home), g, player, email, day, now)
    gm_action(home_dir, name, action)
