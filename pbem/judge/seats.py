"""Who sits around a game besides its players as they started (issue 15): observers, who get
the public report of each phase and can never order; replacements, a position handed to a new
player; civil disorder, a position that missed too many deadlines in a row. Everything works in
the caller's transaction; mail goes through the Mailer, queued with the change it tells."""
from __future__ import annotations

import json
from typing import Sequence

from pbem.judge import absences, engine, player_secrets
from pbem.judge.mailer import Mailer
from pbem.judge.settings import settings_of
from pbem.judge.store import Store


def observe(store: Store, game: engine.Game, email: str, now: float) -> None:
    email = email.lower()
    if email in engine.observers(store, game.id):
        raise engine.JudgeError(f"{email} already observes game {game.name!r}")
    if email in {p["email"] for p in engine.players(store, game.id)}:
        raise engine.JudgeError(f"{email} plays in game {game.name!r}: a player gets their own reports, "
                                f"not the public one")
    store.run("INSERT INTO observers(game_id, email, added_at) VALUES(?,?,?)", game.id, email, now)


def unobserve(store: Store, game: engine.Game, email: str) -> None:
    if store.run("DELETE FROM observers WHERE game_id=? AND email=?", game.id, email.lower()).rowcount != 1:
        known = engine.observers(store, game.id)
        raise engine.JudgeError(f"{email} does not observe game {game.name!r}; observers: "
                                + (", ".join(known) if known else "none"))


def replace(store: Store, mailer: Mailer, game: engine.Game, player: str, email: str) -> str:
    """Hand ``player``'s position to the player at ``email``: a new secret (the old one and the
    old address stop working at once), out of civil disorder, mailed their secret, the current
    report and the position's history. Returns the old address."""
    old = engine.player_row(store, game, player)["email"]
    if email.lower() == old:
        raise engine.JudgeError(f"{email} already plays {player} in game {game.name!r}; to give them a new "
                                f"secret use `pbem game new-secret {game.name} {player}`")
    secret = player_secrets.new_secret()
    player_secrets.change_secret(store, game, player, secret, generated=True)
    # What was the old player's own goes with them: their time zone and the absences they announced.
    store.run("UPDATE players SET email=?, missed=0, disorder=0, timezone=NULL WHERE game_id=? AND name=?",
              email.lower(), game.id, player)
    for row in store.all("SELECT * FROM absences WHERE game_id=? AND player=?", game.id, player):
        absences.end_standin(store, mailer, game, row, f"the game master handed {player}'s position to a new player")
    store.run("DELETE FROM absences WHERE game_id=? AND player=?", game.id, player)
    mailer.replacement(game, player, email.lower(), secret)
    return old


def note_missed(store: Store, mailer: Mailer, game: engine.Game, chain: Sequence[engine.Resolved]) -> None:
    """After a phase resolved at its deadline: each decider who got default orders missed one more
    deadline in a row, the others none. At the game's ``civil_disorder_after`` a position falls
    into civil disorder (the game master is told); a player who orders again is out of it."""
    if not chain:
        return
    first = chain[0]
    deciders = json.loads(store.row("SELECT deciders FROM phases WHERE game_id=? AND seq=?",
                                    game.id, first.seq)["deciders"])
    limit = settings_of(game.row)["civil_disorder_after"]
    for name in deciders:
        row = engine.player_row(store, game, name)
        if name in first.defaulted:
            missed = row["missed"] + 1
            falls = bool(limit) and missed >= limit and not row["disorder"]
            store.run("UPDATE players SET missed=?, disorder=? WHERE game_id=? AND name=?",
                      missed, 1 if falls or row["disorder"] else 0, game.id, name)
            if falls:
                mailer.to_game_master(game, "civil_disorder.txt.j2", f"{name} is in civil disorder",
                                      player=name, missed=missed, back=False)
        else:
            store.run("UPDATE players SET missed=0, disorder=0 WHERE game_id=? AND name=?", game.id, name)
            if row["disorder"]:
                mailer.to_game_master(game, "civil_disorder.txt.j2", f"{name} is back from civil disorder",
                                      player=name, missed=0, back=True)
