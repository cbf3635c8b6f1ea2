"""The archive: replay a game's whole stored history, and export it as readable YAML."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pbem.judge import engine
from pbem.judge.render import event_text
from pbem.judge.store import Store, dumps, unpack_state
from pbem.rules.api import acts_at_once
from pbem.rules.rng import Rng


@dataclass
class ReplayResult:
    ok: bool
    phases: int
    message: str


def stored(state: Any) -> Any:
    """A state as the store gives it back (pbem.judge.store.dumps: keys in order)."""
    return json.loads(dumps(state))


def replay(store: Store, game: engine.Game) -> ReplayResult:
    """Re-run the game from its setup with the stored orders, at-once actions and the game's
    seed, and compare every resulting state hash with the stored one. Stops at the first
    difference."""
    names = [p["name"] for p in engine.players(store, game.id)]
    options = json.loads(game.row["options"])
    setup_rng = Rng.for_phase(game.row["seed"], "setup", engine.game_dice(game))
    # Each state as the judge stores and loads it (canonical JSON: mappings in key order), so that
    # rules iterating a mapping meet it in the order they met it when the game was played.
    state = stored(game.rules.setup(options, names, setup_rng))
    rows = store.all("SELECT * FROM phases WHERE game_id=? ORDER BY seq", game.id)
    if rows and engine.state_hash(state) != engine.state_hash(json.loads(unpack_state(rows[0]["state_before"]))):
        return ReplayResult(False, 0, "setup: the replayed starting position differs from the stored one")
    count = 0
    for row in rows:
        phase = game.rules.phase(state)
        if phase.id != row["phase_id"]:
            return ReplayResult(False, count, f"phase {row['seq']}: replay reached {phase.id!r}, "
                                              f"the archive has {row['phase_id']!r}")
        for action in engine.actions_of(store, game.id, row["seq"]):
            rng = engine.action_rng(game, row["seq"], row["phase_id"], action["n"])
            state = stored(acts_at_once(game.rules).act(state, action["player"], json.loads(action["canonical"]),
                                                        rng).state)
            if engine.state_hash(state) != action["state_after_hash"]:
                return ReplayResult(False, count, f"phase {row['seq']} ({row['phase_id']}), at-once action "
                                                  f"{action['n']} of {action['player']}: the replayed state "
                                                  f"differs from the archived one")
        if row["resolved_at"] is None:
            break
        rng = engine.phase_rng(game, row["seq"], row["phase_id"])
        state = stored(game.rules.resolve(state, json.loads(row["orders_used"]), rng).state)
        if engine.state_hash(state) != row["state_after_hash"]:
            return ReplayResult(False, count, f"phase {row['seq']} ({row['phase_id']}): the replayed state "
                                              f"differs from the archived one")
        count += 1
    return ReplayResult(True, count, f"{count} phase(s) replayed; every state matches the archive")


def export(store: Store, game: engine.Game, folder: Path) -> list[Path]:
    """One YAML file per resolved phase: the orders as understood (revealed once resolved),
    who got default orders, the public events, and the resulting state hash."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    names = [p["name"] for p in engine.players(store, game.id)]
    summary = {"game": game.name, "type": game.row["game_type"], "title": game.rules.title,
               "players": names, "options": json.loads(game.row["options"]), "status": game.row["status"]}
    if game.row["result"]:
        summary["result"] = json.loads(game.row["result"])
        summary["seed"] = game.row["seed"]  # the seed stays secret until the game ends
    written.append(_write(folder / "game.yaml", summary))
    for row in store.all("SELECT * FROM phases WHERE game_id=? AND resolved_at IS NOT NULL ORDER BY seq", game.id):
        events = engine.stored_events(store, game.id, row["seq"])
        record = {
            "phase": row["phase_id"], "title": row["title"], "seq": row["seq"],
            "orders": json.loads(row["orders_used"]),
            "default_orders_for": json.loads(row["defaulted"]),
            "at_once": [{"n": a["n"], "player": a["player"], "action": json.loads(a["canonical"])}
                        for a in engine.actions_of(store, game.id, row["seq"])],
            "public_events": [event_text(e) for e in events if e.audience.kind == "all"],
            "state_hash": row["state_after_hash"],
        }
        written.append(_write(folder / f"{row['seq']:04d}-{row['phase_id'].replace('/', '-')}.yaml", record))
    return written


def _write(path: Path, data: object) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path
