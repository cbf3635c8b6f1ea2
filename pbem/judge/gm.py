"""The game master's actions on a game's clock and history (`pbem game rollback | extend | pause
| resume | set-address`) and the tick's catch-up after an outage: each works in the caller's
transaction and moves the deadline's .ics SEQUENCE on (games.deadline_sequence) when it moves
the deadline."""
from __future__ import annotations

import json

from pbem.judge import engine
from pbem.judge.store import Store, unpack_state


def rollback(store: Store, game: engine.Game, now: float) -> engine.Game:
    """Undo the last resolution: the game returns to the phase it resolved, with the orders
    players had sent for it (and what they did at once during it), and a fresh deadline. The
    undone phases stay in no archive."""
    last = store.one("SELECT * FROM phases WHERE game_id=? AND resolved_at IS NOT NULL "
                     "ORDER BY seq DESC LIMIT 1", game.id)
    if last is None:
        raise engine.JudgeError(f"game {game.name!r} has not resolved any phase yet; nothing to roll back")
    # Automatic phases resolve in a chain after the one players ordered: undo back to the
    # last phase that had deciders, so the game waits on players again.
    target = last
    while not json.loads(target["deciders"]):
        earlier = store.one("SELECT * FROM phases WHERE game_id=? AND seq<? ORDER BY seq DESC LIMIT 1",
                            game.id, target["seq"])
        if earlier is None:
            break
        target = earlier
    seq = target["seq"]
    for table in ("events", "orders", "order_mails", "actions"):
        store.run(f"DELETE FROM {table} WHERE game_id=? AND seq>?", game.id, seq)
    store.run("DELETE FROM phases WHERE game_id=? AND seq>?", game.id, seq)
    store.run("UPDATE phases SET resolved_at=NULL, orders_used=NULL, defaulted=NULL, "
              "state_after_hash=NULL, rolls=NULL WHERE game_id=? AND seq=?", game.id, seq)
    store.run("DELETE FROM events WHERE game_id=? AND seq=? AND action IS NULL", game.id, seq)
    # What players did at once during that phase was told to them and stands: the game returns
    # to the position after the last of those actions.
    done = engine.actions_of(store, game.id, seq)
    state_text = unpack_state(done[-1]["state_after"] if done else target["state_before"])
    status = "running" if game.row["status"] == "over" else game.row["status"]
    hours = game.row["phase_hours"] * game.rules.phase(json.loads(state_text)).share
    store.run("UPDATE games SET state=?, phase_seq=?, status=?, result=NULL, reminded=0, deadline=?, "
              "paused_left=?, in_grace=0, deadline_sequence=deadline_sequence+1 WHERE id=?", state_text, seq, status,
              None if status == "paused" else now + hours * 3600,
              hours * 3600 if status == "paused" else None, game.id)
    return engine.reload(store, game)


def extend(store: Store, game: engine.Game, hours: float) -> engine.Game:
    if game.row["status"] == "over":
        raise engine.JudgeError(f"game {game.name!r} is over")
    if game.row["status"] == "paused":
        store.run("UPDATE games SET paused_left=paused_left+? WHERE id=?", hours * 3600, game.id)
    else:
        store.run("UPDATE games SET deadline=deadline+?, reminded=0, deadline_sequence=deadline_sequence+1 "
                  "WHERE id=?", hours * 3600, game.id)
    return engine.reload(store, game)


def pause(store: Store, game: engine.Game, now: float) -> engine.Game:
    if game.row["status"] != "running":
        raise engine.JudgeError(f"game {game.name!r} is {game.row['status']}, not running")
    store.run("UPDATE games SET status='paused', paused_left=?, deadline=NULL WHERE id=?",
              max(0.0, game.row["deadline"] - now), game.id)
    return engine.reload(store, game)


def resume(store: Store, game: engine.Game, now: float) -> engine.Game:
    if game.row["status"] != "paused":
        raise engine.JudgeError(f"game {game.name!r} is {game.row['status']}, not paused")
    store.run("UPDATE games SET status='running', deadline=?, paused_left=NULL, "
              "deadline_sequence=deadline_sequence+1 WHERE id=?",
              now + (game.row["paused_left"] or 0.0), game.id)
    return engine.reload(store, game)


def set_address(store: Store, game: engine.Game, player: str, email: str) -> str:
    """Give ``player`` the address ``email``; returns the old one."""
    if "@" not in email:
        raise engine.JudgeError(f"{email!r} is not a mail address")
    old = engine.player_row(store, game, player)["email"]
    store.run("UPDATE players SET email=? WHERE game_id=? AND name=?", email.lower(), game.id, player)
    return old


def shift_deadlines_after_outage(store: Store, last_tick: float, now: float) -> int:
    """Deadlines that fell while the judge was not running are pushed back by the outage, so
    players do not lose a phase to a dead cron (issue 2, section 2)."""
    gap = now - last_tick
    cursor = store.run("UPDATE games SET deadline=deadline+?, deadline_sequence=deadline_sequence+1 "
                       "WHERE status='running' AND deadline>? AND deadline<=?", gap, last_tick, now)
    return cursor.rowcount
