"""Build a judge home for the benchmark: N four-player Fief: France games on the embedded
default (Maildir + SQLite), each at its first ordered phase, with every player's order mail
for that phase waiting in the inbox.

The games are made as `pbem game new` makes them (engine.create_game, welcome mails composed),
then the welcome mails are marked delivered: the home looks like one whose players all
answered at once. The orders are the demo players' (pbem.rules.api.PlaysDemo; Fief: France's
in pbem/games/fief_france/demo.py, on the core's script, pbem/games/fief/demo.py), written from
each player's own view, so every mail is accepted and every game resolves.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from pbem.demo import order_mail
from pbem.games import rules_for
from pbem.judge import engine
from pbem.judge.home import Home, init_home
from pbem.rules.api import demo_script
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store

DOMAIN = "bench.example"
GAME_TYPE = "fief_france"


@dataclass
class Built:
    home: Home
    games: int
    players: int
    order_mails: int
    seconds: float
    secrets: dict[tuple[str, str], str]   # (game, player): the secret, for the orders of later phases


def game_name(i: int) -> str:
    return f"b{i:05d}"


def player_address(game: str, player: str) -> str:
    """One address per player and game: a judge's players are not the same four people."""
    return f"{player}.{game}@{DOMAIN}"


def build(path: Path, games: int, history: int = 0) -> Built:
    """A fresh judge home at ``path`` (which must not exist) with ``games`` games and their
    order mails in the inbox, and ``history`` already-processed mails in ``inbox/cur``."""
    started = time.perf_counter()
    path.mkdir(parents=True)
    home = init_home(path, f"judge@{DOMAIN}")
    rules = rules_for(GAME_TYPE)
    script = demo_script(rules)
    now = time.time()
    store = Store(home.db_path)
    mails: list[tuple[str, str, str, str, str]] = []   # game, player, secret, phase, body
    every_secret: dict[tuple[str, str], str] = {}
    players = 0
    try:
        with store.transaction():
            mailer = Mailer(store, home)
            for i in range(games):
                name = game_name(i)
                seats = [(p, player_address(name, p)) for p in script.players]
                game, secrets = engine.create_game(store, GAME_TYPE, name, seats, {}, 48, 12,
                                                   f"gm.{name}@{DOMAIN}", now, seed=f"bench-{i}")
                mailer.welcomes(game, secrets)
                every_secret.update(((name, p), s) for p, s in secrets.items())
                players += len(seats)
                state = game.state
                phase = rules.phase(state)
                for player in phase.deciders:
                    body = script.orders(rules.view(state, player), player)
                    mails.append((name, player, secrets[player], phase.id, body))
            # The welcome mails went out long ago (and their copies were blanked, as the tick
            # does for mail carrying a secret).
            store.run("UPDATE outbox SET sent_at=?, attempts=1, raw=X'', parts=NULL WHERE sent_at IS NULL", now)
            store.run("DELETE FROM outbox_parts")
            store.set_meta("last_tick", repr(now))
    finally:
        store.close()
    inbox = path / "mail" / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    write_orders(home, mails)
    for n in range(history):
        # Mail a tick handled long ago: moved to cur/ with the S (seen) flag.
        (inbox / "cur" / f"{int(now) - 86400}.H{n}.bench:2,S").write_bytes(_history_mail(home, n))
    return Built(home, games, players, len(mails), time.perf_counter() - started, every_secret)


def write_orders(home: Home, mails: list[tuple[str, str, str, str, str]], tag: str = "") -> None:
    """Each (game, player, secret, phase, body) as an order mail waiting in the home's inbox."""
    new = home.path / "mail" / "inbox" / "new"
    now = int(time.time())
    for n, (name, player, secret, phase, body) in enumerate(mails):
        (new / f"{now}.M{n}{tag}P{os.getpid()}.bench").write_bytes(
            order_mail(home, name, player, player_address(name, player), secret, phase, body,
                       f"<order.{n}{tag}.{name}.{player}@{DOMAIN}>"))


def _history_mail(home: Home, n: int) -> bytes:
    return (f"From: someone.{n}@{DOMAIN}\r\nTo: {home.address}\r\nSubject: old orders\r\n"
            f"Message-ID: <history.{n}@{DOMAIN}>\r\n\r\norders of a past phase\r\n").encode("ascii")


def pending_inbox(home: Home) -> int:
    """Mails the judge has not processed yet (what MaildirInbox would fetch)."""
    inbox = home.path / "mail" / "inbox"
    new = sum(1 for _ in os.scandir(inbox / "new"))
    cur = sum(1 for e in os.scandir(inbox / "cur") if "S" not in e.name.partition(":2,")[2])
    return new + cur


def progress(home: Home) -> dict[str, int]:
    """Counts that say how far the judge got with the phase the bench set up."""
    store = Store(home.db_path)
    try:
        def count(sql: str) -> int:
            return store.one(sql)["n"]
        return {
            "games": count("SELECT COUNT(*) AS n FROM games"),
            "players": count("SELECT COUNT(*) AS n FROM players"),
            "resolved_games": count("SELECT COUNT(DISTINCT game_id) AS n FROM phases WHERE resolved_at IS NOT NULL"),
            "orders": count("SELECT COUNT(*) AS n FROM orders"),
            "outbox_pending": count("SELECT COUNT(*) AS n FROM outbox WHERE sent_at IS NULL AND failed=0"),
            "mails_sent": count("SELECT COUNT(*) AS n FROM outbox WHERE sent_at IS NOT NULL AND purpose<>'welcome'"),
            "inbox_pending": pending_inbox(home),
        }
    finally:
        store.close()
