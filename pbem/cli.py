"""The command line (DESIGN.md, layer 4): `pbem tick` for cron, `pbem game ...` for game
masters, `pbem demo` to see everything work on the embedded default. Every error is one line
naming the problem and the fix, with a non-zero exit; never a traceback."""
from __future__ import annotations

import contextlib
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Iterator, NoReturn

import click
import yaml

from pbem.games import GAME_TYPES, UnknownGameType, rules_for
from pbem.judge import archive, engine
from pbem.judge.home import Home, HomeError, init_home, load_home, resolve_home
from pbem.judge.mailer import Mailer
from pbem.judge.render import event_lines, render
from pbem.judge.store import Store, StoreBusy, StoreTooNew
from pbem.judge.tick import TickBusy, run_tick
from pbem.mail.config import MailConfigError
from pbem.mail.message import address_problem
from pbem.rules.api import MapUnavailable, map_drawing

HOME_OPTION = click.option("--home", "home_dir", envvar="PBEM_HOME", metavar="DIR",
                           help="The judge home (default: $PBEM_HOME).")


def _fail(message: str) -> NoReturn:
    raise click.ClickException(message)


@contextlib.contextmanager
def _session(home_dir: str | None) -> Iterator[tuple[Home, Store]]:
    try:
        home = load_home(resolve_home(home_dir))
    except HomeError as exc:
        _fail(str(exc))
    try:
        store = Store(home.db_path)
    except (StoreBusy, StoreTooNew) as exc:
        _fail(str(exc))
    try:
        yield home, store
    except (engine.JudgeError, UnknownGameType, MailConfigError, StoreBusy) as exc:
        _fail(str(exc))
    except sqlite3.DatabaseError as exc:  # a full disk, a damaged file: nothing half-done is stored
        _fail(f"the judge's database {home.db_path}: {exc}")
    finally:
        store.close()


@click.group()
def main() -> None:
    """pbem: a play-by-email judge for Fief: France (Fief: England and Kard és Korona to come)."""


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
        _fail(str(exc))
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
        _fail(str(exc))
    except TickBusy as exc:
        click.echo(f"skipped: {exc}")
        return
    except MailConfigError as exc:
        _fail(str(exc))
    except sqlite3.DatabaseError as exc:  # every step committed what it did: the next tick carries on
        _fail(f"the judge's database {home.db_path}: {exc}; the next tick carries on from what was committed")
    for line in report.lines():
        click.echo(line)
    if report.errors:
        sys.exit(2)


@main.group()
def game() -> None:
    """Game-master commands."""


@game.command("new")
@HOME_OPTION
@click.argument("game_type")
@click.option("--name", required=True, help="A short name for the game, used in every mail.")
@click.option("--player", "player_specs", multiple=True, required=True, metavar="NAME:EMAIL",
              help="A player, in seating order; repeat for each player.")
@click.option("--option", "option_specs", multiple=True, metavar="KEY=VALUE",
              help="A game option (see `pbem game options GAME_TYPE`).")
@click.option("--phase-hours", default=48.0, show_default=True, help="Hours players have for each phase.")
@click.option("--reminder-hours", default=12.0, show_default=True,
              help="Remind late players this many hours before a deadline (0: never).")
@click.option("--gm-email", default=None, help="Where the game master's full reports go.")
def game_new(home_dir, game_type, name, player_specs, option_specs, phase_hours, reminder_hours, gm_email):
    """Start a game of GAME_TYPE; each player is mailed a welcome with their secret."""
    with _session(home_dir) as (home, store):
        rules = rules_for(game_type)
        seats = [_player_spec(spec) for spec in player_specs]
        options = _options(rules, option_specs)
        if not _plain_name(name):
            _fail(f"--name {name!r}: use letters, digits, - and _ only (it appears in every mail)")
        now = time.time()
        with store.transaction():
            game_obj, secrets = engine.create_game(store, game_type, name, seats, options, phase_hours,
                                                   reminder_hours, gm_email, now)
            Mailer(store, home).welcomes(game_obj, secrets)
        click.echo(f"game {name!r} ({rules.title}) started with {len(seats)} players; "
                   f"welcome mails are in the outbox (sent at the next tick)")


def _plain_name(name: str) -> bool:
    """A game's or player's name as every mail may carry it: letters, digits, - and _ only."""
    return name.replace("-", "").replace("_", "").isalnum()


def _player_spec(spec: str) -> tuple[str, str]:
    name, sep, email = spec.partition(":")
    if not sep or not name.strip() or "@" not in email:
        _fail(f"--player {spec!r}: write NAME:EMAIL, e.g. --player marie:marie@example.org")
    if not _plain_name(name.strip()):
        # The name heads the lines of what the player wrote, relayed (docs/security.md).
        _fail(f"--player {spec!r}: the name: use letters, digits, - and _ only (it appears in every mail)")
    _check_address(email.strip(), f"--player {spec!r}")
    return name.strip(), email.strip()


def _check_address(email: str, where: str) -> None:
    """Refuse an address the judge could not write to now, not when the first report is due."""
    problem = address_problem(email)
    if problem:
        _fail(f"{where}: {problem}")


def _options(rules, specs) -> dict:
    known = {o.name: o for o in rules.options()}
    values = {o.name: o.default for o in known.values()}
    for spec in specs:
        key, sep, text = spec.partition("=")
        if not sep:
            _fail(f"--option {spec!r}: write KEY=VALUE")
        if key not in known:
            _fail(f"--option {key}: {rules.title} has no such option; options: {', '.join(sorted(known))}")
        try:
            values[key] = known[key].parse(text)
        except ValueError as exc:
            _fail(str(exc))
    return values


@game.command("options")
@click.argument("game_type")
def game_options(game_type):
    """List the options of GAME_TYPE."""
    try:
        rules = rules_for(game_type)
    except UnknownGameType as exc:
        _fail(str(exc))
    for option in rules.options():
        click.echo(f"{option.name} (default {option.default!r}): {option.help}")


@game.command("list")
@HOME_OPTION
def game_list(home_dir):
    """List the games with their phase and deadline."""
    with _session(home_dir) as (home, store):
        rows = store.all("SELECT g.name, g.game_type, g.status, g.deadline, p.phase_id FROM games g "
                         "JOIN phases p ON p.game_id=g.id AND p.seq=g.phase_seq ORDER BY g.name")
        if not rows:
            click.echo("no games yet (start one with `pbem game new`)")
        for r in rows:
            deadline = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(r["deadline"])) if r["deadline"] else "-"
            click.echo(f"{r['name']}\t{r['game_type']}\t{r['status']}\t{r['phase_id']}\tdeadline {deadline}")


@game.command("show")
@HOME_OPTION
@click.argument("name")
@click.option("--as", "as_player", default=None, help="Show exactly what this player may see.")
@click.option("--json", "as_json", is_flag=True, help="The view as JSON.")
@click.option("--map", "map_file", default=None, metavar="FILE",
              help="Write the map of this view as a PNG picture to FILE (docs/maps.md).")
def game_show(home_dir, name, as_player, as_json, map_file):
    """Show a game: the full position (game master), or one player's view with --as."""
    with _session(home_dir) as (home, store):
        g = engine.load_game(store, name)
        if as_player is not None and as_player not in [p["name"] for p in engine.players(store, g.id)]:
            _fail(f"game {name!r} has no player {as_player!r}")
        view = g.rules.view(g.state, as_player)
        if map_file is not None:
            size = _write_map(g.rules, view, Path(map_file))
            seen = f"as {as_player} sees it" if as_player else "the game master's view"
            click.echo(f"wrote the map of {name} ({seen}, {size} bytes) to {map_file}")
            return
        if as_json:
            click.echo(json.dumps(view, indent=2, ensure_ascii=False, sort_keys=True))
            return
        click.echo(render(g.rules.report_template(), view=view, me=as_player).rstrip())
        click.echo("")
        if g.row["status"] == "over":
            click.echo(f"The game is over: {json.loads(g.row['result'])['text']}")
            return
        phase = engine.current_phase(g)
        deciders, done, waiting = engine.orders_status(store, g)
        click.echo(f"Phase: {phase.title} ({phase.id}), game {g.row['status']}")
        if as_player is None:
            click.echo(f"Complete orders: {', '.join(done) or 'none'}; waiting on: "
                       f"{', '.join(p for p in deciders if p not in done) or 'nobody'}"
                       f"{'; someone asked to wait for the deadline' if waiting else ''}")
        else:
            row = store.one("SELECT canonical FROM orders WHERE game_id=? AND seq=? AND player=?",
                            g.id, g.seq, as_player)
            click.echo(f"{as_player}'s orders for this phase: "
                       + (json.dumps(json.loads(row["canonical"]), ensure_ascii=False) if row else "none yet"))


def _write_map(rules, view, path: Path) -> int:
    """Draw ``view`` and write the PNG whole (a temporary file renamed), or fail in one line."""
    from pbem.judge.maps import MapError, draw_png   # Pillow is loaded only for a map
    if path.is_dir():
        _fail(f"--map {path}: is a folder; give a file name such as {path / 'map.png'}")
    if not path.parent.is_dir():
        _fail(f"--map {path}: no folder {path.parent}; create it first or choose another path")
    try:
        png = draw_png(map_drawing(rules, view))
    except (MapUnavailable, MapError) as exc:
        _fail(f"cannot draw the map: {exc}")
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(png)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        _fail(f"--map {path}: cannot write it ({exc.strerror or exc}); choose a path you may write to")
    return len(png)


def _gm_action(home_dir, name, action, then=None):
    """Run a game-master action in one transaction and announce it to the players.
    ``action(store, home, game, now)`` returns the changed game and one line saying what it did
    (and the (name, address) of someone else to tell). ``then(mailer, game)`` queues mail that
    must follow the announcement: the reports of a resolution it explains, which must never
    arrive before it (the outbox sends in the order mail was queued)."""
    with _session(home_dir) as (home, store):
        now = time.time()
        with store.transaction():
            g, text, *also = action(store, home, engine.load_game(store, name), now)
            mailer = Mailer(store, home)
            mailer.announce(g, text, also)
            if then is not None:
                then(mailer, g)
        click.echo(text)


@game.command("extend")
@HOME_OPTION
@click.argument("name")
@click.option("--hours", type=float, required=True, help="Hours to add to the current deadline.")
def game_extend(home_dir, name, hours):
    """Extend the current phase's deadline."""
    _gm_action(home_dir, name, lambda store, home, g, now: (
        engine.extend(store, g, hours), f"the deadline of {g.name} was extended by {hours:g} hours"))


@game.command("pause")
@HOME_OPTION
@click.argument("name")
def game_pause(home_dir, name):
    """Pause a game: its deadline stops running until `resume`."""
    _gm_action(home_dir, name, lambda store, home, g, now: (engine.pause(store, g, now), f"game {g.name} is paused"))


@game.command("resume")
@HOME_OPTION
@click.argument("name")
def game_resume(home_dir, name):
    """Resume a paused game with the time that was left."""
    _gm_action(home_dir, name, lambda store, home, g, now: (engine.resume(store, g, now), f"game {g.name} is resumed"))


@game.command("set-address")
@HOME_OPTION
@click.argument("name")
@click.argument("player")
@click.argument("email")
def game_set_address(home_dir, name, player, email):
    """Change a player's mail address."""
    _check_address(email, "EMAIL")

    def action(store, home, g, now):
        old = {p["name"]: p["email"] for p in engine.players(store, g.id)}.get(player)
        engine.set_address(store, g, player, email)
        # The old address is told too, so a player learns if someone moved their mail away.
        return g, f"{player}'s mail address was changed", (player, old)
    _gm_action(home_dir, name, action)


@game.command("new-secret")
@HOME_OPTION
@click.argument("name")
@click.argument("player")
def game_new_secret(home_dir, name, player):
    """Give PLAYER a new secret (when they lost theirs), mailed to them alone; the game
    master never sees it."""
    with _session(home_dir) as (home, store):
        with store.transaction():
            g = engine.load_game(store, name)
            row = store.one("SELECT email FROM players WHERE game_id=? AND name=?", g.id, player)
            if row is None:
                _fail(f"game {name!r} has no player {player!r}")
            secret = engine.new_secret()
            engine.change_secret(store, g, player, secret, generated=True)
            Mailer(store, home).new_secret(g, player, row["email"], secret)
        click.echo(f"a new secret for {player} is in the outbox, addressed to them alone")


@game.command("html")
@HOME_OPTION
@click.argument("name")
@click.argument("player")
@click.argument("choice", type=click.Choice(["yes", "no"]))
def game_html(home_dir, name, player, choice):
    """Send PLAYER's reports with the HTML part and the map (yes, the default) or as plain
    text only (no); players choose it themselves with `html:` (docs/orders.md)."""
    with _session(home_dir) as (home, store):
        with store.transaction():
            g = engine.load_game(store, name)
            if not store.set_mail_html(g.id, player, choice == "yes"):
                _fail(f"game {name!r} has no player {player!r}")
        click.echo(f"{player}'s reports in game {name} now come " +
                   ("with the HTML part and the map" if choice == "yes" else "as plain text only"))


@game.command("resolve")
@HOME_OPTION
@click.argument("name")
@click.option("--phase", "expect_phase", default=None, metavar="PHASE",
              help="Resolve only if PHASE is still the open phase (a tick may have resolved it "
                   "since you looked).")
def game_resolve(home_dir, name, expect_phase):
    """Resolve the current phase now, with default orders for players who sent none."""
    chain: list = []

    def action(store, home, g, now):
        if g.row["status"] != "running":
            raise engine.JudgeError(f"game {g.name!r} is {g.row['status']}; only a running game resolves")
        _expect_open(g, expect_phase)
        g, resolved = engine.resolve_due(store, g, now, force=True)
        chain.extend(resolved)
        return g, f"the game master resolved {chain[0].phase_id} before its deadline"
    # The notice first, then the reports it explains: a player must not read the report of a
    # phase that, as far as they knew, still had hours to run, and only then learn why.
    _gm_action(home_dir, name, action, then=lambda mailer, g: mailer.reports(g, chain))


def _expect_open(g, expect_phase: str | None) -> None:
    """Refuse a command aimed at a phase that is no longer open: ticks run between the moment
    the game master looked and the moment the command runs (docs/reliability.md)."""
    if expect_phase is None:
        return
    current = engine.current_phase(g).id if g.row["status"] != "over" else None
    if current != expect_phase:
        now_text = f"now waits on {current!r}" if current else "is over"
        raise engine.JudgeError(f"game {g.name!r} {now_text}, not {expect_phase!r} (a tick has moved it on); "
                                f"nothing was done - check `pbem game show {g.name}` and try again")


@game.command("rollback")
@HOME_OPTION
@click.argument("name")
@click.option("--phase", "expect_phase", default=None, metavar="PHASE",
              help="Roll back only if the game now waits on PHASE (the phase after the resolution "
                   "you mean to undo).")
def game_rollback(home_dir, name, expect_phase):
    """Undo the last resolution; the phase reopens with the orders sent for it."""
    def action(store, home, g, now):
        _expect_open(g, expect_phase)
        g = engine.rollback(store, g, now)
        return g, f"the game master rolled back the last resolution; {engine.current_phase(g).id} is open again"
    _gm_action(home_dir, name, action)


@game.command("preview")
@HOME_OPTION
@click.argument("name")
def game_preview(home_dir, name):
    """Dry-run the current phase with the orders in hand (game master only; nothing changes)."""
    with _session(home_dir) as (home, store):
        g = engine.load_game(store, name)
        if g.row["status"] == "over":
            _fail(f"game {name!r} is over")
        preview = engine.outcome(store, g)
        click.echo(f"Preview of {preview.row['phase_id']} (nothing is stored; default orders for: "
                   f"{', '.join(preview.defaulted) or 'nobody'})")
        for event in preview.resolution.events:
            click.echo(event_lines(event, None))
        click.echo(f"Next phase would be: {g.rules.phase(preview.resolution.state).id}")


@main.command("outbox")
@HOME_OPTION
@click.option("--all", "show_all", is_flag=True, help="Also list mail already sent.")
def outbox_cmd(home_dir, show_all):
    """List mail waiting to be sent and mail refused for good, with the server's last words
    (never the mail itself: it may carry a secret)."""
    with _session(home_dir) as (home, store):
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
    with _session(home_dir) as (home, store):
        files = archive.export(store, engine.load_game(store, name), Path(folder))
        click.echo(f"wrote {len(files)} files to {folder}")


@main.command("replay")
@HOME_OPTION
@click.argument("name")
def replay_cmd(home_dir, name):
    """Re-run the whole stored history; exit 1 at the first phase whose state differs."""
    with _session(home_dir) as (home, store):
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
def demo(home_dir):
    """Create a judge home, start a 4-player Fief: France game, mail scripted orders into the
    inbox and tick until a full round has resolved."""
    from pbem.demo import run_demo
    try:
        for line in run_demo(Path(home_dir).resolve()):
            click.echo(line)
    except (engine.JudgeError, HomeError) as exc:
        _fail(str(exc))
