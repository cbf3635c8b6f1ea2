"""`pbem demo`: the whole judge on the embedded default, with nothing but this machine.

It creates a judge home (Maildir in and out, SQLite), starts a 4-player Fief: France game,
and then plays the four players: for each phase they must order, it writes each player's
order mail — built only from what that player may see, like a person reading their report —
into the judge's inbox Maildir, and runs ticks, until a full round has resolved. Every mail
the judge wrote is in the outbox Maildir, one folder per player.
"""
from __future__ import annotations

import mailbox
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any, Callable, Iterator

from pbem.judge import engine
from pbem.judge.home import Home, init_home
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store
from pbem.judge.tick import run_tick

PLAYERS = ("alice", "bob", "carol", "dave")
DOMAIN = "example.org"
# A.5: each player's wishes for a starting town, best first (resolved in turn order).
START_WISHES = {
    "alice": ["Tours", "Poitiers", "Orléans"],
    "bob": ["Bordeaux", "Toulouse", "Pau"],
    "carol": ["Lyon", "Dijon", "Avignon"],
    "dave": ["Rennes", "Nantes", "Lisieux"],
}
MAX_TICKS = 20


def run_demo(path: Path) -> Iterator[str]:
    home = _demo_home(path)
    store = Store(home.db_path)
    try:
        name = _free_name(store)
        game, secrets = _start(store, home, name)
        yield f"judge home: {home.path}"
        yield f"started Fief: France game {name!r} with {', '.join(PLAYERS)}"
        now = time.time()
        start_round = None
        for _ in range(MAX_TICKS):
            game = engine.load_game(store, name)
            state = game.state   # parsed once: each Game.state reads the stored JSON again
            state_round = state.get("round", 0)
            start_round = state_round if start_round is None and state_round >= 1 else start_round
            if game.row["status"] != "running" or (start_round is not None and state_round > start_round):
                break
            phase = game.rules.phase(state)
            for player in phase.deciders:
                view = game.rules.view(state, player)
                _mail_orders(home, name, player, secrets[player], phase.id, _script(phase.id)(view, player))
            yield f"mailed orders for {phase.id} from {', '.join(phase.deciders)}"
            now += 60
            report = run_tick(home, now=now)
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


def _start(store: Store, home: Home, name: str) -> tuple[engine.Game, dict[str, str]]:
    seats = [(p, f"{p}@{DOMAIN}") for p in PLAYERS]
    with store.transaction():   # every option at its default: create_game fills them in
        game, secrets = engine.create_game(store, "fief_france", name, seats, {}, 48, 12,
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


# -- what each demo player orders, from their own view -------------------------------------

def _my_lord(view: dict[str, Any], player: str) -> tuple[str, str] | None:
    for lord in view["families"][player]["lords"]:
        info = view["lords"][lord]
        if info["location"] and not info.get("captive_of"):
            return lord, info["location"]
    return None


def _setup_orders(view: dict[str, Any], player: str) -> str:
    return "orders:\n  - start: [" + ", ".join(START_WISHES[player]) + "]\n"


def _purchase_orders(view: dict[str, Any], player: str) -> str:
    found = _my_lord(view, player)
    if found is None:
        return "orders: []\n"
    _, town = found
    return (f"orders:\n  - buy: man_at_arms\n    count: 2\n    in: {town}\n"
            f"  - build: mill\n    in: {town}\n")


def _movement_orders(view: dict[str, Any], player: str) -> str:
    from pbem.games.fief.board import load_board   # the public board, as printed
    found = _my_lord(view, player)
    if found is None:
        return "orders: []\n"
    lord, town = found
    empty = [t for t in load_board().neighbours(town) if not view["towns"][t]["forces"]]
    if not empty:
        return "orders: []\n"
    return (f"orders:\n  - move: {lord}\n    with: {{man_at_arms: 2}}\n    path: [{empty[0]}]\n"
            f"policies:\n  safe_passage: {{others: refuse}}\n")


def _no_orders(view: dict[str, Any], player: str) -> str:
    """The demo families keep the peace: no battle declared, standing policies unchanged."""
    return "orders: []\n"


ORDER_SCRIPTS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "starting-towns": _setup_orders,
    "purchase": _purchase_orders,
    "movement": _movement_orders,
}


def _script(phase_id: str) -> Callable[[dict[str, Any], str], str]:
    return ORDER_SCRIPTS.get(phase_id.split("/")[-1], _no_orders)


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
