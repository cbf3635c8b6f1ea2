"""`pbem demo`: the whole judge on the embedded default, with nothing but this machine.

It creates a judge home (Maildir in and out, SQLite), starts a game of the chosen type, and
then plays its players: for each phase they must order, it writes each player's order mail —
built only from what that player may see, like a person reading their report — into the
judge's inbox Maildir, and runs ticks, until the game's demo has shown enough (Fief: France: a
full round). The players and their orders are the game's (pbem.rules.api.PlaysDemo), or, for a
game without a demo of its own, its order templates: every player takes the default orders.
Every mail the judge wrote is in the outbox Maildir, one folder per player.
"""
from __future__ import annotations

import mailbox
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Iterator

from pbem.games import rules_for
from pbem.judge import engine
from pbem.judge.home import Home, init_home
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store
from pbem.judge.tick import run_tick
from pbem.rules.api import DemoScript, demo_script

DEFAULT_GAME = "fief_france"
DOMAIN = "example.org"
MAX_TICKS = 40


def run_demo(path: Path, game_type: str = DEFAULT_GAME, players: int | None = None) -> Iterator[str]:
    rules = rules_for(game_type)
    script = demo_script(rules)
    if players is not None:   # the demo's first N players (`--players N`)
        if not rules.min_players <= players <= min(rules.max_players, len(script.players)):
            raise ValueError(f"the {rules.title} demo plays {rules.min_players} to "
                             f"{min(rules.max_players, len(script.players))} players, not {players}")
        script = DemoScript(script.players[:players], script.orders, script.done)
    home = _demo_home(path)
    store = Store(home.db_path)
    try:
        name = _free_name(store)
        game, secrets = _start(store, home, name, game_type, script)
        yield f"judge home: {home.path}"
        yield f"started {rules.title} game {name!r} with {', '.join(script.players)}"
        now = time.time()
        first = None
        resolved = 0
        for _ in range(MAX_TICKS):
            game = engine.load_game(store, name)
            state = game.state   # parsed once: each Game.state reads the stored JSON again
            first = state if first is None else first
            if game.row["status"] != "running" or script.done(first, state, resolved):
                break
            phase = game.rules.phase(state)
            for player in phase.deciders:
                view = game.rules.view(state, player)
                _mail_orders(home, name, player, secrets[player], phase.id, script.orders(view, player))
            yield f"mailed orders for {phase.id} from {', '.join(phase.deciders)}"
            now += 60
            report = run_tick(home, now=now)
            resolved += len(report.resolved)
            for line in report.lines():
                yield f"  tick: {line}"
        yield from _where_reports_are(home, name)
    finally:
        store.close()


def _demo_home(path: Path) -> Home:
    return init_home(path, f"judge@{DOMAIN}", per_recipient=True)


def _free_name(store: Store) -> str:
    taken = {r["name"] for r in store.all("SELECT name FROM games")}
    return next(n for n in (f"demo{i}" if i else "demo" for i in range(1000)) if n not in taken)


def _start(store: Store, home: Home, name: str, game_type: str,
           script: DemoScript) -> tuple[engine.Game, dict[str, str]]:
    seats = [(p, f"{p}@{DOMAIN}") for p in script.players]
    with store.transaction():   # every option at its default: create_game fills them in
        game, secrets = engine.create_game(store, game_type, name, seats, {}, 48, 12,
                                           f"gm@{DOMAIN}", time.time())
        Mailer(store, home).welcomes(game, secrets)
    return game, secrets


def _mail_orders(home: Home, game: str, player: str, secret: str, phase: str, body: str) -> None:
    raw = order_mail(home, game, player, f"{player}@{DOMAIN}", secret, phase, body, make_msgid(domain=DOMAIN))
    mailbox.Maildir(str(home.path / "mail" / "inbox"), create=True).add(raw)


def order_mail(home: Home, game: str, player: str, address: str, secret: str, phase: str, body: str,
               message_id: str) -> bytes:
    """A player's order mail to the judge, as a mail client writes it: a greeting, the envelope,
    the orders ``body``, a signature (also the benchmark's, bench/build.py)."""
    msg = EmailMessage()
    msg["From"] = f"{player.capitalize()} <{address}>"
    msg["To"] = home.address
    msg["Subject"] = f"Re: [{game}] orders for {phase}"
    msg["Message-ID"] = message_id
    msg.set_content(f"Here are my orders.\n\ngame: {game}\nplayer: {player}\nsecret: {secret}\n"
                    f"phase: {phase}\n{body}\n-- \n{player.capitalize()}\n")
    return bytes(msg)


def _where_reports_are(home: Home, name: str) -> Iterator[str]:
    """Each recipient's Maildir (the outbox keeps one per address) and their reports in it."""
    import email
    import email.policy
    outbox = home.path / "mail" / "outbox"
    yield ""
    yield "Where the mail is (Maildirs: read them with any mail client, e.g. `mutt -f DIR`):"
    yield f"- the judge's inbox, with the players' order mails: {home.path / 'mail' / 'inbox'}"
    for folder in sorted(p for p in outbox.iterdir() if (p / "new").is_dir()):
        files = sorted((folder / "new").iterdir())
        subjects = [str(email.message_from_bytes(f.read_bytes(), policy=email.policy.default)["Subject"])
                    for f in files]
        reports = sum(1 for s in subjects if "resolved" in s)
        yield f"- {folder.name}: {folder}  ({len(files)} mails, {reports} reports)"
    yield f"Read a player's view now with: pbem game show {name} --home {home.path} --as alice"
