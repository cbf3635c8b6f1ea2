"""A game's correspondence settings: how the judge treats the people around a game, for every
game alike (the rules know nothing of them). Kept as JSON in ``games.settings`` (schema version
6); a key that is absent has its default, so a game stored before keeps its behaviour.

Set by the game master with ``pbem game settings GAME KEY=VALUE ...`` (docs/players-guide.md
says what players see of each).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

AWAY_POLICIES = ("extend", "default", "standin", "bot")
DISORDER_POLICIES = ("default", "bot")


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    help: str
    parse: Callable[[str], Any]


def _yes_no(text: str) -> bool:
    low = text.strip().lower()
    if low in ("yes", "true", "on", "1"):
        return True
    if low in ("no", "false", "off", "0"):
        return False
    raise ValueError("takes yes or no")


def _count(text: str) -> int:
    if not text.strip().isdigit():
        raise ValueError("takes a whole number, 0 or more")
    return int(text)


def _hours(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("takes a number of hours, 0 or more") from None
    if not 0 <= value <= 24 * 60:
        raise ValueError("takes a number of hours from 0 to 1440 (60 days)")
    return value


def _hours_list(text: str) -> list[float]:
    if not text.strip() or text.strip() == "none":
        return []
    values = sorted({_hours(part) for part in text.split(",")}, reverse=True)
    if len(values) > 5 or 0 in values:
        raise ValueError("takes up to 5 numbers of hours before the deadline, more than 0, "
                         "separated by commas (e.g. 48,12,2), or none")
    return values


def _one_of(choices: tuple[str, ...]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(f"takes one of {', '.join(choices)}")
        return text
    return parse


SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("public", False, "yes: anyone may ask the judge for the game's public description "
            "(`command: info`); no: the judge answers an unknown game and this one alike", _yes_no),
    Setting("civil_disorder_after", 0, "after this many deadlines missed in a row, a position falls "
            "into civil disorder: the game master is told, and it plays its default orders without "
            "being waited for until it is replaced (0: never)", _count),
    Setting("away_policy", "extend", "what a player's absence (`away:`) does: extend (a deadline that "
            "falls in it moves to its end, up to away_days per player per game) or default (the "
            "phase does not wait for the player: default orders, unless they ordered) or standin (a stand-in "
            "the player or the game master names plays the position meanwhile, with a secret of its own; "
            "without one, as default) or bot (the game's computer player plays the position meanwhile, unless "
            "the player ordered; a game without one: as default)", _one_of(AWAY_POLICIES)),
    Setting("disorder_policy", "default", "what a position in civil disorder (civil_disorder_after) plays: "
            "default (its default orders until it is replaced) or bot (the game's computer player takes the "
            "seat, everyone is told; the game master hands it back with `pbem game bot GAME PLAYER --off`)",
            _one_of(DISORDER_POLICIES)),
    Setting("away_days", 7, "the days of deadline extension each player's absences may take in the "
            "whole game (away_policy extend)", _count),
    Setting("grace_hours", 0.0, "when a deadline passes with orders missing, the judge waits this many "
            "hours more, once, and tells the late players exactly what is missing (0: no grace)", _hours),
    Setting("reminders", None, "hours before the deadline at which late players are reminded, e.g. "
            "48,12,2 (none: never; unset: the game's --reminder-hours)", _hours_list),
)}


def settings_of(row: Any) -> dict[str, Any]:
    """A game row's settings (a sqlite3.Row of games), every one with its value (the default where unset)."""
    stored = json.loads(row["settings"] or "{}")
    values = {name: stored.get(name, s.default) for name, s in SETTINGS.items()}
    if values["reminders"] is None:
        hours = row["reminder_hours"]
        values["reminders"] = [hours] if hours and hours > 0 else []
    return values


def parse_settings(specs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` texts as settings, or ValueError naming the one that is wrong and the fix."""
    out: dict[str, Any] = {}
    for spec in specs:
        key, sep, text = spec.partition("=")
        key = key.strip()
        if not sep:
            raise ValueError(f"{spec!r}: write KEY=VALUE, e.g. grace_hours=12")
        if key not in SETTINGS:
            raise ValueError(f"{key!r} is not a setting; settings: {', '.join(SETTINGS)}")
        try:
            out[key] = SETTINGS[key].parse(text.strip())
        except ValueError as exc:
            raise ValueError(f"{key}={text}: {key} {exc}") from None
    return out


def store_settings(store: Any, game_row: Any, changes: dict[str, Any]) -> None:
    """Keep ``changes`` in the game's settings (in the caller's transaction). The earliest
    reminder time is also the game's reminder_hours: the tick finds a game to remind by it."""
    stored = {**json.loads(game_row["settings"] or "{}"), **changes}
    store.run("UPDATE games SET settings=? WHERE id=?", json.dumps(stored, sort_keys=True), game_row["id"])
    if "reminders" in changes:
        store.run("UPDATE games SET reminder_hours=? WHERE id=?", max(changes["reminders"], default=0),
                  game_row["id"])


def shown(value: Any) -> str:
    """A setting's value as the command line takes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(f"{v:g}" for v in value) or "none"
    return f"{value:g}" if isinstance(value, float) else str(value)
