"""Deadline conveniences (issue 15; docs/players-guide.md, "Reminders and the grace period"):
reminders at the times the game master chose (settings.reminders: hours before the deadline),
each naming exactly what the judge still misses from the player, and a grace period: when a
deadline passes with orders missing, the judge waits `grace_hours` more, once, and tells the
late players what is missing."""
from __future__ import annotations

from typing import Any

from pbem.judge import engine
from pbem.judge.mailer import Mailer
from pbem.judge.settings import settings_of
from pbem.judge.store import Store


def missing(store: Store, game: engine.Game, now: float) -> list[tuple[str, str, str]]:
    """(player, address, what is missing) for each decider the open phase waits for without a
    complete set: no orders at all, or orders kept with `ready: no`; a stand-in is reminded with
    the player it stands in for. Players the phase does not wait for (civil disorder, away under
    the `default` policy) are not reminded."""
    deciders, done, _ = engine.orders_status(store, game)
    excused = engine.excused(store, game, now)
    kept = {r["player"] for r in store.all("SELECT player FROM orders WHERE game_id=? AND seq=? AND ready=0",
                                           game.id, game.seq)}
    out = []
    standins = engine.standins_now(store, game)
    for p in engine.people(store, game.id):   # a computer seat is never reminded
        name = p["name"]
        if name in deciders and name not in done and name not in excused:
            what = ("your orders are kept but do not count as complete: you wrote `ready: no`; send them "
                    "again without it (or with `ready: yes`)" if name in kept else
                    "no orders from you yet")
            out += [(name, email, what) for email in (p["email"], *standins.get(name, ()))]
    return out


def due_reminders(game_row: Any, now: float) -> int:
    """How many of a game's reminder times (its row in `games`) have come for the open phase's
    deadline."""
    deadline = game_row["deadline"]
    if deadline is None:
        return 0
    return sum(1 for hours in settings_of(game_row)["reminders"] if deadline - hours * 3600 <= now)


def remind(store: Store, mailer: Mailer, game: engine.Game, now: float) -> int:
    """Send the reminders whose time came since the last one (one mail per late player however
    many came at once; a stand-in's besides); returns how many mails."""
    due = due_reminders(game.row, now)
    if game.row["status"] != "running" or due <= game.row["reminded"]:
        return 0
    late = missing(store, game, now)
    mailer.reminders(game, late)
    store.run("UPDATE games SET reminded=? WHERE id=?", due, game.id)
    return len(late)


def start_grace(store: Store, mailer: Mailer, game: engine.Game, now: float) -> bool:
    """At a passed deadline with orders missing, under a grace period not yet used in this
    phase: push the deadline back by it, tell everyone, and tell each late player what is
    missing. True when the grace began (the phase does not resolve now)."""
    hours = settings_of(game.row)["grace_hours"]
    if not hours or game.row["in_grace"] or game.row["deadline"] is None or game.row["deadline"] > now:
        return False
    late = missing(store, game, now)
    if not late:
        return False
    store.run("UPDATE games SET deadline=?, in_grace=1, deadline_sequence=deadline_sequence+1 WHERE id=?",
              now + hours * 3600, game.id)
    game = engine.reload(store, game)
    players = len({name for name, _, _ in late})
    mailer.notice(game, f"the deadline passed with orders missing from {players} player(s): the grace "
                        f"period of {hours:g} hours began, and the phase resolves at its end")
    mailer.reminders(game, late, grace=True)
    return True

