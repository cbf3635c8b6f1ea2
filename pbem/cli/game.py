"""`pbem game ...`: the game master's commands on one game (the players' seats and settings
are in pbem/cli/seats.py)."""
from __future__ import annotations

import json
import time
from pathlib import Path

import click

from pbem.cli.base import HOME_OPTION, check_address, expect_open, fail, gm_action, plain_name, session, main
from pbem.games import UnknownGameType, rules_for
from pbem.judge import absences, engine, gm, player_secrets, quarantine, reminders
from pbem.judge.mailer import Mailer
from pbem.judge.settings import parse_settings, store_settings
from pbem.judge.render import event_lines, render
from pbem.judge.retry import resolve_game
from pbem.rules.api import MapUnavailable, NoMap, map_drawing


@main.group()
def game() -> None:
    """Game-master commands."""


class _SeatsInOrder(click.Command):
    """`game new` keeps the command line's order of --player and --bot (the seating order)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["seat_order"] = _seat_order(args)
        return super().parse_args(ctx, args)


def _seat_order(args: list[str]) -> list[str]:
    """The seats' names as --player NAME:EMAIL and --bot NAME come on the command line."""
    names, it = [], iter(args)
    for arg in it:
        flag, eq, value = arg.partition("=")
        if flag in ("--player", "--bot"):
            value = value if eq else next(it, "")
            names.append(value.partition(":")[0].strip() if flag == "--player" else value.strip())
    return names


@game.command("new", cls=_SeatsInOrder)
@HOME_OPTION
@click.argument("game_type")
@click.option("--name", required=True, help="A short name for the game, used in every mail.")
@click.option("--player", "player_specs", multiple=True, metavar="NAME:EMAIL",
              help="A player, in seating order; repeat for each player.")
@click.option("--bot", "bot_names", multiple=True, metavar="NAME",
              help="A seat the game's computer player holds (docs/computer-players.md), in seating order "
                   "among the --player ones; repeat for each.")
@click.option("--option", "option_specs", multiple=True, metavar="KEY=VALUE",
              help="A game option (see `pbem game options GAME_TYPE`).")
@click.option("--phase-hours", default=48.0, show_default=True, help="Hours players have for each phase.")
@click.option("--reminder-hours", default=12.0, show_default=True,
              help="Remind late players this many hours before a deadline (0: never).")
@click.option("--gm-email", default=None, help="Where the game master's full reports go.")
@click.option("--setting", "setting_specs", multiple=True, metavar="KEY=VALUE",
              help="A correspondence setting (see `pbem game settings`), e.g. civil_disorder_after=3.")
def game_new(home_dir, game_type, name, player_specs, bot_names, option_specs, phase_hours, reminder_hours,
             gm_email, setting_specs):
    """Start a game of GAME_TYPE; each player is mailed a welcome with their secret."""
    with session(home_dir) as (home, store):
        rules = rules_for(game_type)
        seats = _seats([_player_spec(spec) for spec in player_specs], list(bot_names))
        options = _options(rules, option_specs)
        try:
            settings = parse_settings(list(setting_specs))
        except ValueError as exc:
            fail(f"--setting {exc}")
        if not plain_name(name):
            fail(f"--name {name!r}: use letters, digits, - and _ only (it appears in every mail)")
        now = time.time()
        with store.transaction():
            game_obj, secrets = engine.create_game(store, game_type, name, seats, options, phase_hours,
                                                   reminder_hours, gm_email, now, computers=bot_names)
            if settings:
                store_settings(store, game_obj.row, settings)
                game_obj = engine.reload(store, game_obj)
            Mailer(store, home).welcomes(game_obj, secrets)
        bots = f" ({len(bot_names)} played by the computer: {', '.join(bot_names)})" if bot_names else ""
        click.echo(f"game {name!r} ({rules.title}) started with {len(seats)} players{bots}; "
                   f"welcome mails are in the outbox (sent at the next tick)")


def _seats(people: list[tuple[str, str]], bots: list[str]) -> list[tuple[str, str]]:
    """Every seat (name, address; a computer seat has none) in the command line's order."""
    if not people and not bots:
        fail("give the players: --player NAME:EMAIL for a person, --bot NAME for the computer, one per seat")
    for bot in bots:
        if not plain_name(bot):
            fail(f"--bot {bot!r}: use letters, digits, - and _ only (it appears in every mail)")
    seats = dict(people) | {bot: "" for bot in bots}
    if len(seats) != len(people) + len(bots):
        fail("two seats have the same name; each --player and --bot NAME must be different")
    order = click.get_current_context().meta.get("seat_order") or list(seats)
    return [(n, seats[n]) for n in order if n in seats]


def _player_spec(spec: str) -> tuple[str, str]:
    name, sep, email = spec.partition(":")
    if not sep or not name.strip() or "@" not in email:
        fail(f"--player {spec!r}: write NAME:EMAIL, e.g. --player marie:marie@example.org")
    if not plain_name(name.strip()):
        # The name heads the lines of what the player wrote, relayed (docs/security.md).
        fail(f"--player {spec!r}: the name: use letters, digits, - and _ only (it appears in every mail)")
    check_address(email.strip(), f"--player {spec!r}")
    return name.strip(), email.strip()


def _options(rules, specs) -> dict:
    known = {o.name: o for o in rules.options()}
    values = {o.name: o.default for o in known.values()}
    for spec in specs:
        key, sep, text = spec.partition("=")
        if not sep:
            fail(f"--option {spec!r}: write KEY=VALUE")
        if key not in known:
            fail(f"--option {key}: {rules.title} has no such option; options: {', '.join(sorted(known))}")
        try:
            values[key] = known[key].parse(text)
        except ValueError as exc:
            fail(str(exc))
    return values


@game.command("options")
@click.argument("game_type")
def game_options(game_type):
    """List the options of GAME_TYPE."""
    try:
        rules = rules_for(game_type)
    except UnknownGameType as exc:
        fail(str(exc))
    for option in rules.options():
        click.echo(f"{option.name} (default {option.default!r}): {option.help}")


@game.command("list")
@HOME_OPTION
def game_list(home_dir):
    """List the games with their phase and deadline."""
    with session(home_dir) as (home, store):
        rows = store.all("SELECT g.name, g.game_type, g.status, g.deadline, g.stuck, p.phase_id FROM games g "
                         "JOIN phases p ON p.game_id=g.id AND p.seq=g.phase_seq ORDER BY g.name")
        if not rows:
            click.echo("no games yet (start one with `pbem game new`)")
        for r in rows:
            deadline = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(r["deadline"])) if r["deadline"] else "-"
            click.echo(f"{r['name']}\t{r['game_type']}\t{r['status']}\t{r['phase_id']}\tdeadline {deadline}"
                       + _stopped(r))


def _stopped(row) -> str:
    """The list's note on a game the judge stopped after an error of its own."""
    stop = quarantine.stuck(row)
    if stop is None:
        return ""
    return (f"\tSTOPPED, needs the game master: {stop.get('doing', 'resolving')} {stop['phase']} failed with "
            f"{stop['error'].splitlines()[-1]} (`pbem game retry {row['name']}` after a fix)")


@game.command("show")
@HOME_OPTION
@click.argument("name")
@click.option("--as", "as_player", default=None, help="Show exactly what this player may see.")
@click.option("--json", "as_json", is_flag=True, help="The view as JSON.")
@click.option("--map", "map_file", default=None, metavar="FILE",
              help="Write the map of this view as a PNG picture to FILE (docs/maps.md).")
def game_show(home_dir, name, as_player, as_json, map_file):
    """Show a game: the full position (game master), or one player's view with --as."""
    with session(home_dir) as (home, store):
        g = engine.load_game(store, name)
        if as_player is not None and as_player not in [p["name"] for p in engine.players(store, g.id)]:
            fail(f"game {name!r} has no player {as_player!r}")
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
        if as_player is None and quarantine.stuck(g.row):
            click.echo(_stopped(dict(g.row)).strip().replace("\t", ""))
        problem = _map_problem(g.rules, view) if as_player is None else None
        if problem is not None:
            click.echo(f"Map: cannot be drawn, the reports go without it: {problem} (docs/maps.md)")
        if as_player is None:
            click.echo(f"Complete orders: {', '.join(done) or 'none'}; waiting on: "
                       f"{', '.join(p for p in deciders if p not in done) or 'nobody'}"
                       f"{'; someone asked to wait for the deadline' if waiting else ''}")
            seated = engine.players(store, g.id)
            disorder = [p["name"] for p in seated if p["disorder"]]
            computers = [p["name"] for p in seated if p["kind"] == engine.COMPUTER]
            if computers:
                click.echo(f"Played by the computer: {', '.join(computers)} (their reports: "
                           f"`pbem game show {g.name} --as PLAYER`)")
            away = sorted({r["player"] + (f" (stand-in {r['standin']})" if r["standin"] else "") for r in store.all(
                "SELECT player, standin FROM absences WHERE game_id=? AND away_from<=? AND away_to>?",
                g.id, time.time(), time.time())})
            observers = store.row("SELECT COUNT(*) AS n FROM observers WHERE game_id=?", g.id)["n"]
            click.echo(f"In civil disorder: {', '.join(disorder) or 'nobody'}; away now: "
                       f"{', '.join(away) or 'nobody'}; observers: {observers} (settings: `pbem game settings "
                       f"{g.name}`)")
        else:
            row = store.one("SELECT canonical FROM orders WHERE game_id=? AND seq=? AND player=?",
                            g.id, g.seq, as_player)
            click.echo(f"{as_player}'s orders for this phase: "
                       + (json.dumps(json.loads(row["canonical"]), ensure_ascii=False) if row else "none yet"))


def _map_problem(rules, view) -> str | None:
    """Why the map of a game that has one cannot be drawn now, or None (drawn, or no map declared)."""
    from pbem.judge.maps import MapError, draw_png   # Pillow is loaded only for a map
    try:
        draw_png(map_drawing(rules, view))
    except NoMap:
        return None
    except (MapUnavailable, MapError) as exc:
        return str(exc)
    return None


def _write_map(rules, view, path: Path) -> int:
    """Draw ``view`` and write the PNG whole (a temporary file renamed), or fail in one line."""
    from pbem.judge.maps import MapError, draw_png   # Pillow is loaded only for a map
    if path.is_dir():
        fail(f"--map {path}: is a folder; give a file name such as {path / 'map.png'}")
    if not path.parent.is_dir():
        fail(f"--map {path}: no folder {path.parent}; create it first or choose another path")
    try:
        png = draw_png(map_drawing(rules, view))
    except (MapUnavailable, MapError) as exc:
        fail(f"cannot draw the map: {exc}")
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(png)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        fail(f"--map {path}: cannot write it ({exc.strerror or exc}); choose a path you may write to")
    return len(png)


@game.command("extend")
@HOME_OPTION
@click.argument("name")
@click.option("--hours", type=float, required=True, help="Hours to add to the current deadline.")
def game_extend(home_dir, name, hours):
    """Extend the current phase's deadline."""
    gm_action(home_dir, name, lambda store, home, g, now: (
        gm.extend(store, g, hours), f"the deadline of {g.name} was extended by {hours:g} hours"))


@game.command("pause")
@HOME_OPTION
@click.argument("name")
def game_pause(home_dir, name):
    """Pause a game: its deadline stops running until `resume`."""
    gm_action(home_dir, name, lambda store, home, g, now: (gm.pause(store, g, now), f"game {g.name} is paused"))


@game.command("resume")
@HOME_OPTION
@click.argument("name")
def game_resume(home_dir, name):
    """Resume a paused game with the time that was left."""
    gm_action(home_dir, name, lambda store, home, g, now: (gm.resume(store, g, now), f"game {g.name} is resumed"))


@game.command("set-address")
@HOME_OPTION
@click.argument("name")
@click.argument("player")
@click.argument("email")
def game_set_address(home_dir, name, player, email):
    """Change a player's mail address."""
    check_address(email, "EMAIL")

    def action(store, home, g, now):
        old = gm.set_address(store, g, player, email)
        # The old address is told too, so a player learns if someone moved their mail away.
        return g, f"{player}'s mail address was changed", (player, old)
    gm_action(home_dir, name, action)


@game.command("new-secret")
@HOME_OPTION
@click.argument("name")
@click.argument("player")
def game_new_secret(home_dir, name, player):
    """Give PLAYER a new secret (when they lost theirs), mailed to them alone; the game
    master never sees it."""
    with session(home_dir) as (home, store):
        with store.transaction():
            g = engine.load_game(store, name)
            row = store.one("SELECT email FROM players WHERE game_id=? AND name=?", g.id, player)
            if row is None:
                fail(f"game {name!r} has no player {player!r}")
            secret = player_secrets.new_secret()
            player_secrets.change_secret(store, g, player, secret, generated=True)
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
    with session(home_dir) as (home, store):
        with store.transaction():
            g = engine.load_game(store, name)
            if not store.set_mail_html(g.id, player, choice == "yes"):
                fail(f"game {name!r} has no player {player!r}")
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
        if quarantine.stuck(g.row):
            raise engine.JudgeError(f"game {g.name!r} was stopped by an error in the judge's code; after a fix, "
                                    f"`pbem game retry {g.name}` clears the mark and resolves it if it is due "
                                    f"(then `pbem game resolve` works again); nothing was done")
        expect_open(g, expect_phase)
        g, resolved = engine.resolve_due(store, g, now, force=True)
        chain.extend(resolved)
        return g, f"the game master resolved {chain[0].phase_id} before its deadline"
    def then(mailer, g):
        # An absence may move the new phase's deadline (as after a tick's resolution): before
        # the reports show it.
        g = absences.extend_for_absences(mailer.store, mailer, g, time.time())
        mailer.reports(g, chain)
    # The notice first, then the reports it explains: a player must not read the report of a
    # phase that, as far as they knew, still had hours to run, and only then learn why.
    gm_action(home_dir, name, action, then=then)


@game.command("rollback")
@HOME_OPTION
@click.argument("name")
@click.option("--phase", "expect_phase", default=None, metavar="PHASE",
              help="Roll back only if the game now waits on PHASE (the phase after the resolution "
                   "you mean to undo).")
def game_rollback(home_dir, name, expect_phase):
    """Undo the last resolution; the phase reopens with the orders sent for it."""
    def action(store, home, g, now):
        expect_open(g, expect_phase)
        g = gm.rollback(store, g, now)
        return g, f"the game master rolled back the last resolution; {engine.current_phase(g).id} is open again"
    gm_action(home_dir, name, action)


@game.command("preview")
@HOME_OPTION
@click.argument("name")
def game_preview(home_dir, name):
    """Dry-run the current phase with the orders in hand (game master only; nothing changes)."""
    with session(home_dir) as (home, store):
        g = engine.load_game(store, name)
        if g.row["status"] == "over":
            fail(f"game {name!r} is over")
        preview = engine.outcome(store, g)
        click.echo(f"Preview of {preview.row['phase_id']} (nothing is stored; default orders for: "
                   f"{', '.join(preview.defaulted) or 'nobody'})")
        for event in preview.resolution.events:
            click.echo(event_lines(event, None))
        click.echo(f"Next phase would be: {g.rules.phase(preview.resolution.state).id}")


@game.command("retry")
@HOME_OPTION
@click.argument("name")
def game_retry(home_dir, name):
    """Resolve again a game the judge stopped after an error in its own code (after a fix):
    the mark is cleared, and the game resolves now if it is due."""
    with session(home_dir) as (home, store):
        now = time.time()
        failed = None
        with store.transaction():
            row = store.one("SELECT id, stuck FROM games WHERE name=?", name)
            if row is None:
                engine.load_game(store, name)   # the usual error, naming the games there are
                return
            if row["stuck"] is None:
                fail(f"game {name!r} was not stopped by an error; nothing to retry "
                     f"(`pbem game list` marks the games that were)")
            quarantine.clear_stuck(store, row["id"])
            doing = "resolving"
            try:
                with store.part():
                    mailer = Mailer(store, home)
                    chain, graced = resolve_game(store, mailer, row["id"], name, now)
                    doing = "reminding"   # what came due of the open phase's reminders, as a tick would
                    reminders.remind(store, mailer, engine.load_game(store, name), now)
            except Exception as exc:  # still the bug: the game stays stopped, nobody is mailed again
                quarantine.mark_stuck(store, row["id"], exc, now, doing)
                failed = exc
        if failed is not None:
            fail(f"game {name!r}: {doing} still fails: {quarantine.error_line(failed)}; nothing changed and "
                 f"the game stays stopped (try again after a fix)")
        g = engine.load_game(store, name)
        if chain:
            click.echo(f"game {name}: resolved {', '.join(r.phase_id for r in chain)}; the reports are in the outbox")
        elif graced:
            click.echo(f"game {name}: no longer stopped; its deadline passed and its grace period began")
        else:
            waits = "is over" if g.row["status"] == "over" else f"waits on {engine.current_phase(g).id} " \
                "until its deadline or every order"
            click.echo(f"game {name}: no longer stopped; it is not due yet and {waits}")