"""The computer player's way of writing orders: the board's spelling of counties, the
rulebook's words for the kinds (docs/orders-kard-es-korona.md), player names quoted when YAML
would read them otherwise."""
from __future__ import annotations

from pbem.games.kard_es_korona.random_orders.draw import name
from pbem.games.kard_es_korona.units import UNIT_KINDS


def units_text(units: dict[str, int]) -> str:
    return "{" + ", ".join(f"{k}: {units[k]}" for k in UNIT_KINDS if units.get(k)) + "}"


def places_text(places: dict[str, dict[str, int]]) -> str:
    return "{" + ", ".join(f"{c}: {units_text(u)}" for c, u in places.items() if sum(u.values())) + "}"


def names_text(players: list[str]) -> str:
    return "[" + ", ".join(name(p) for p in players) + "]"
