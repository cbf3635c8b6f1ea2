"""`pbem site`: the command of the archive's static site (pbem/judge/site.py; docs/site.md)."""
from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.base import HOME_OPTION, fail, main, session
from pbem.judge import engine
from pbem.judge.site import SiteError, write_all_site, write_game_site


@main.command("site")
@HOME_OPTION
@click.argument("targets", nargs=-1, metavar="GAME DIR | --all DIR")
@click.option("--all", "all_games", is_flag=True,
              help="An index of every game of the judge home, each game's site below it.")
@click.option("--reveal", is_flag=True,
              help="Show the orders, private messages and the seed of a game that is over.")
def site(home_dir, targets, all_games, reveal):
    """Write a game's archive as a static site in DIR (an index, a timeline, one page per phase
    with the public map after it): `pbem site GAME DIR`, or `pbem site --all DIR`."""
    wanted = 1 if all_games else 2
    if len(targets) != wanted:
        fail("give a game and a folder: `pbem site GAME DIR`, or every game with `pbem site --all DIR`"
             if not all_games else "with --all give only the folder: `pbem site --all DIR`")
    folder = Path(targets[-1])
    with session(home_dir) as (home, store):
        try:
            if all_games:
                written = write_all_site(store, folder, reveal)
            else:
                written = write_game_site(store, engine.load_game(store, targets[0]), folder, reveal)
        except SiteError as exc:
            fail(str(exc))
    pages = sum(n for _, n in written.games)
    revealed = f"; revealed: {', '.join(written.revealed)}" if written.revealed else ""
    click.echo(f"wrote the site of {len(written.games)} game(s) ({pages} phase pages, {written.maps} maps) "
               f"to {folder}{revealed}; open {folder / 'index.html'}")
