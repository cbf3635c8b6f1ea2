"""A game's past as its players were told it, rebuilt from the archive (phases, events and the
state each phase resolved from): the last report again (`command: report`), a player's reports
for a range of phases (`command: history`), and a new player's history of their position
(`pbem game replace`). Nothing here is stored: the archive already holds it all."""
from __future__ import annotations

import json
import sqlite3
from typing import Any

from pbem.judge import engine
from pbem.judge.render import render
from pbem.judge.store import Store, unpack_state

# One history mail carries at most this many phases; the answer says how to ask for the rest.
MAX_HISTORY_PHASES = 60


def resolved_rows(store: Store, game: engine.Game) -> list[sqlite3.Row]:
    return store.all("SELECT seq, phase_id, title, defaulted, resolved_at FROM phases "
                     "WHERE game_id=? AND resolved_at IS NOT NULL ORDER BY seq", game.id)


def as_resolved(store: Store, game: engine.Game, row: sqlite3.Row) -> engine.Resolved:
    """A resolved phase as its report showed it: the resolution's events (what was done at once
    during it went out as news when it was done) and who got default orders."""
    return engine.Resolved(row["seq"], row["phase_id"], row["title"],
                           engine.stored_events(store, game.id, row["seq"], resolution_only=True),
                           json.loads(row["defaulted"] or "[]"))


def last_chain(store: Store, game: engine.Game) -> list[engine.Resolved]:
    """The phases the last report covered: those resolved together at the last resolution (a
    phase players ordered and the automatic ones after it); none before the first."""
    rows = resolved_rows(store, game)
    if not rows:
        return []
    last = rows[-1]["resolved_at"]
    return [as_resolved(store, game, r) for r in rows if r["resolved_at"] == last]


def state_after(store: Store, game: engine.Game, seq: int) -> Any:
    """The state phase ``seq`` left: the state the next phase opened with (or, for the last
    phase of a finished game, the game's state)."""
    row = store.one("SELECT state_before FROM phases WHERE game_id=? AND seq=?", game.id, seq + 1)
    return json.loads(unpack_state(row["state_before"])) if row is not None else game.state


class RangeError(ValueError):
    """A `from:`/`to:` naming no resolved phase: the message lists what may be asked."""


def phase_range(store: Store, game: engine.Game, first: str | None, last: str | None) -> list[sqlite3.Row]:
    """The resolved phases from ``first`` to ``last`` (phase ids; None: from the first, to the
    last), at most MAX_HISTORY_PHASES of them (the earliest)."""
    rows = resolved_rows(store, game)
    if not rows:
        raise RangeError(f"game {game.name!r} has not resolved any phase yet")
    ids = [r["phase_id"] for r in rows]

    def where(phase_id: str | None, default: int, key: str) -> int:
        if phase_id is None:
            return default
        if phase_id not in ids:
            raise RangeError(f"`{key}: {phase_id[:40]}` names no resolved phase of game {game.name!r}; "
                             f"resolved phases run from {ids[0]} to {ids[-1]}")
        # A phase id may come back after a rollback: the latest one counts.
        return len(ids) - 1 - ids[::-1].index(phase_id)

    start, end = where(first, 0, "from"), where(last, len(ids) - 1, "to")
    if start > end:
        raise RangeError(f"`from: {ids[start]}` comes after `to: {ids[end]}`; swap them")
    return rows[start:end + 1]


def history_context(store: Store, game: engine.Game, me: str, rows: list) -> dict[str, Any]:
    """``me``'s reports for the phases ``rows`` (resolved), as one digest: each phase's events
    that ``me`` may see, and the position ``me`` saw after the last of them."""
    shown = rows[:MAX_HISTORY_PHASES]
    chain = [as_resolved(store, game, r) for r in shown]
    view = game.rules.view(state_after(store, game, shown[-1]["seq"]), me)
    return {"phases": [{"id": r.phase_id, "title": r.title, "events": engine.visible_events(r.events, me),
                        "defaulted": r.defaulted} for r in chain],
            "position": render(game.rules.report_template(), view=view, me=me),
            "cut": shown[-1]["phase_id"] if len(rows) > len(shown) else None,
            "next": rows[len(shown)]["phase_id"] if len(rows) > len(shown) else None}
