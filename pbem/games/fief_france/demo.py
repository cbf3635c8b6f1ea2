"""The demo's four Fief: France players (pbem.rules.api.PlaysDemo; `pbem demo`, and the order
mails of the benchmark, bench/build.py): each writes orders from their own view only, as a
person reading their report would — a starting town, two men-at-arms and a mill, one step
along an empty road, and peace (no battle declared)."""
from __future__ import annotations

from typing import Any, Callable

from pbem.games.fief.board import load_board
from pbem.games.fief.demo import free_lord, no_orders

PLAYERS = ("alice", "bob", "carol", "dave")
# A.5: each player's wishes for a starting town, best first (resolved in turn order).
START_WISHES = {
    "alice": ["Tours", "Poitiers", "Orléans"],
    "bob": ["Bordeaux", "Toulouse", "Pau"],
    "carol": ["Lyon", "Dijon", "Avignon"],
    "dave": ["Rennes", "Nantes", "Lisieux"],
}


def demo_orders(view: dict[str, Any], player: str) -> str:
    return _SCRIPTS.get(view["phase_id"].split("/")[-1], no_orders)(view, player)


def _setup_orders(view: dict[str, Any], player: str) -> str:
    return "orders:\n  - start: [" + ", ".join(START_WISHES[player]) + "]\n"


def _purchase_orders(view: dict[str, Any], player: str) -> str:
    found = free_lord(view, player)
    if found is None:
        return "orders: []\n"
    _, town = found
    return (f"orders:\n  - buy: man_at_arms\n    count: 2\n    in: {town}\n"
            f"  - build: mill\n    in: {town}\n")


def _movement_orders(view: dict[str, Any], player: str) -> str:
    found = free_lord(view, player)
    if found is None:
        return "orders: []\n"
    lord, town = found
    empty = [t for t in load_board("fief_france").neighbours(town) if not view["towns"][t]["forces"]]
    if not empty:
        return "orders: []\n"
    return (f"orders:\n  - move: {lord}\n    with: {{man_at_arms: 2}}\n    path: [{empty[0]}]\n"
            f"policies:\n  safe_passage: {{others: refuse}}\n")


_SCRIPTS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "starting-towns": _setup_orders,
    "purchase": _purchase_orders,
    "movement": _movement_orders,
}
