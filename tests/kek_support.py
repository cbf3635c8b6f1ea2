"""Driving Kard és Korona's rules in tests: orders as the YAML a player mails, checked against
the player's view as the judge does, phases without deciders resolved at once."""
from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.games import rules_for
from pbem.orders.yamlsafe import load
from pbem.rules.api import Event
from pbem.rules.rng import Rng

RULES = rules_for("kard_es_korona")
OPTIONS = {"version": "basic", "provinces": "default", "cavalry_limit": True,
           "rules_version": RULES.rules_version}   # the current rules; a test of an old version says so


def new_game(players: list[str], seed: str = "kek", **options: Any) -> dict[str, Any]:
    state = RULES.setup({**OPTIONS, **options}, players, Rng(f"{seed}/setup"))
    return state


def check(state: dict[str, Any], player: str, text: str):
    return RULES.check_orders(RULES.view(state, player), player, load(text))


def resolve_once(state: dict[str, Any], texts: Mapping[str, str],
                 seed: str = "kek") -> tuple[dict[str, Any], list[Event]]:
    """Resolve only the current phase (the battles after a movement are left due)."""
    phase = RULES.phase(state)
    given = {p: RULES.default_orders(RULES.view(state, p), p) for p in phase.deciders}
    for player, text in texts.items():
        result = check(state, player, text)
        assert result.ok, [str(e) for e in result.errors]
        given[player] = result.orders
    resolution = RULES.resolve(state, given, Rng(f"{seed}/{phase.id}"))
    return resolution.state, list(resolution.events)


def step(state: dict[str, Any], texts: Mapping[str, str] | None = None, seed: str = "kek",
         orders: Mapping[str, Any] | None = None) -> tuple[dict[str, Any], list[Event]]:
    """Resolve the current phase with these players' orders (the others' defaults), then every
    phase without deciders after it."""
    phase = RULES.phase(state)
    given = dict(orders or {})
    for player, text in (texts or {}).items():
        result = check(state, player, text)
        assert result.ok, [str(e) for e in result.errors]
        given[player] = result.orders
    for player in phase.deciders:
        given.setdefault(player, RULES.default_orders(RULES.view(state, player), player))
    resolution = RULES.resolve(state, given, Rng(f"{seed}/{phase.id}"))
    state, events = resolution.state, list(resolution.events)
    while RULES.result(state) is None and not RULES.phase(state).deciders:
        phase = RULES.phase(state)
        resolution = RULES.resolve(state, {}, Rng(f"{seed}/{phase.id}"))
        state, events = resolution.state, events + list(resolution.events)
    return state, events


def texts_of(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def hidden_twin(state: dict[str, Any], player: str, richer: int = 7) -> dict[str, Any]:
    """``state`` changed only in what ``player`` may not see: the event deck, the units that
    moved, the others' standing battle orders and, while bids are made, the others' treasuries.
    Whatever reads ``player``'s view alone writes the same from both."""
    other = copy.deepcopy(state)
    other["deck"] = list(reversed(other["deck"]))
    other["moved"] = {"Pest": {"cavalry": 9, "infantry": 0, "archers": 0}}
    other["battle_orders"] = {p: {"if_defeated": "escape"} for p in state["players"] if p != player}
    if player in state["battle_orders"]:
        other["battle_orders"][player] = state["battle_orders"][player]
    if state["step"].startswith("election-"):
        other["treasury"] = {p: n + (richer if p != player else 0) for p, n in state["treasury"].items()}
    return other
