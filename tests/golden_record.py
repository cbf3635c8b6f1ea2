"""Golden playthroughs a reviewer can read (DESIGN.md "Testing"; docs/fief-france.md, "Tests").

A game's record is a JSON list, one entry per phase, written one leaf per line so that a
re-record's `git diff` shows what changed in the game:

- `seq`, `phase`, the `orders` used, the `dice` drawn and the `events` told, as the archive
  holds them;
- `views`: what each player saw when the phase opened, as the leaves that changed since the
  phase before (`changed`: {dotted.path: value}, `removed`: [dotted.path]); the first phase
  holds each view whole;
- `at_once`: each action done at once while the phase was open, with the state leaves it
  changed;
- `state`: the state leaves the resolution changed (the first phase also holds the whole
  starting state under `start`).

A path is the keys from the root joined by dots (list items by their index); a list of plain
values is one leaf. Applying the changes in order rebuilds every state and view.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pbem.judge import engine
from pbem.judge.store import unpack_state

UPDATE = "PBEM_UPDATE_GOLDEN"
ONE_LINE = 100  # a list of plain values shorter than this stays on one line


def flatten(value: Any, prefix: str = "", out: dict | None = None) -> dict[str, Any]:
    """{dotted.path: leaf}: dicts and lists of dicts are walked, anything else is a leaf."""
    out = {} if out is None else out
    if isinstance(value, dict) and value:
        for key, item in value.items():
            key = str(key)
            assert "." not in key, f"a key with a dot cannot be a path: {prefix}{key}"
            flatten(item, f"{prefix}{key}.", out)
    elif isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        for i, item in enumerate(value):
            flatten(item, f"{prefix}{i}.", out)
    else:
        out[prefix[:-1]] = value
    return out


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict:
    """The leaves of `after` that differ from `before`, and the paths it no longer has."""
    diff: dict = {}
    changed = {path: value for path, value in after.items() if path not in before or before[path] != value}
    removed = [path for path in before if path not in after]
    if changed:
        diff["changed"] = changed
    if removed:
        diff["removed"] = removed
    return diff


def playthrough(store, game) -> list[dict]:
    """The whole game as the archive holds it, phase by phase (see the module docstring)."""
    names = [p["name"] for p in engine.players(store, game.id)]
    rows = store.all("SELECT * FROM phases WHERE game_id=? ORDER BY seq", game.id)
    out: list[dict] = []
    seen: dict[str, dict] = {p: {} for p in names}
    state: dict = {}
    for i, row in enumerate(rows):
        before = json.loads(unpack_state(row["state_before"]))
        opened = flatten(before)
        entry: dict = {"seq": row["seq"], "phase": row["phase_id"]}
        if i == 0:
            entry["start"] = opened
        else:
            # The state a phase opens on is the one the previous resolution left.
            assert opened == state, f"phase {row['seq']} does not open on the state the last one left"
        views = {}
        for player in names:
            view = flatten(game.rules.view(before, player))
            views[player] = changes(seen[player], view)
            seen[player] = view
        entry["views"] = views
        state = opened
        entry["at_once"] = []
        for action in engine.actions_of(store, game.id, row["seq"]):
            after = flatten(json.loads(unpack_state(action["state_after"])))
            entry["at_once"].append({"player": action["player"], "action": json.loads(action["canonical"]),
                                     "state": changes(state, after)})
            state = after
        entry["orders"] = json.loads(row["orders_used"] or "null")
        entry["dice"] = json.loads(row["rolls"] or "[]")
        entry["events"] = [e.text for e in engine.stored_events(store, game.id, row["seq"])]
        if row["resolved_at"] is not None:
            following = unpack_state(rows[i + 1]["state_before"]) if i + 1 < len(rows) else game.row["state"]
            after = flatten(json.loads(following))
            entry["state"] = changes(state, after)
            state = after
        out.append(entry)
    return out


def dump(value: Any, indent: int = 0) -> str:
    """JSON with one leaf per line: nested objects indented, a short list of plain values on
    its line, keys in order."""
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dump(v, indent + 1)}" for k, v in sorted(value.items())]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value:
        line = json.dumps(value, ensure_ascii=False)
        if len(line) <= ONE_LINE and not any(isinstance(v, dict) and v for v in value):
            return line
        return "[\n" + ",\n".join(f"{inner}{dump(v, indent + 1)}" for v in value) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def first_difference(want: Any, got: Any, path: str = "") -> str | None:
    """The path of the first place where `got` differs from `want`, or None."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in list(want) + [k for k in got if k not in want]:
            if key not in got or key not in want:
                return f"{path}{key}"
            found = first_difference(want[key], got[key], f"{path}{key} > ")
            if found is not None:
                return found
        return None
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            found = first_difference(w, g, f"{path}{i} > ")
            if found is not None:
                return found
        return None
    return None if want == got else path.rstrip(" >") or "(the whole value)"


def pick(data: Any, path: str) -> Any:
    for part in [p for p in path.split(" > ") if p]:
        if isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            return "(absent)"
    return data


def check_golden(folder: Path, name: str, record: list[dict]) -> None:
    """Diff the game against its stored record; `PBEM_UPDATE_GOLDEN=1` rewrites the record
    after a change of the rules that is meant to change this game (review its diff)."""
    path = folder / name
    if os.environ.get(UPDATE):
        path.parent.mkdir(exist_ok=True)
        path.write_text(dump(record) + "\n", encoding="utf-8")
        return
    assert path.exists(), f"no golden record {path}; write it with {UPDATE}=1"
    golden = json.loads(path.read_text(encoding="utf-8"))
    for want, got in zip(golden, record, strict=False):   # the lengths: compared below
        where = first_difference(want, got)
        if where is not None:
            raise AssertionError(
                f"{name}: phase {want['seq']} ({want['phase']}) differs from the golden record at "
                f"`{where}`:\n  golden: {str(pick(want, where))[:400]}\n  now:    {str(pick(got, where))[:400]}\n"
                f"If the rules changed on purpose, rewrite it with {UPDATE}=1 and review the diff.")
    assert len(golden) == len(record), f"{name}: {len(record)} phases now, {len(golden)} in the golden record"
