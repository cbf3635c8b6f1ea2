"""The demo's four Fief: England players (pbem.rules.api.PlaysDemo; `pbem demo --game
fief_england`): each writes orders from their own view only, as a person reading their report
would — a starting City in a Region of their own (X14), two men-at-arms and a mill, one step
along a road to an empty City with a man-at-arms left behind (an emptied City is lost, 5.1), and
peace (no battle declared). At two players (`pbem demo --game fief_england --players 2`, 13.7)
alice and bob each run two families and one mail orders both (`families:`)."""
from __future__ import annotations

from typing import Any, Callable

from pbem.games.fief.board import load_board
from pbem.games.fief.demo import free_lord, no_orders
from pbem.games.fief.families import families_apart, family_view, indented

PLAYERS = ("alice", "bob", "carol", "dave")
# X14: each player's wishes for a starting City, best first (resolved in turn order, one a Region).
START_WISHES = {
    "alice": ["London", "Canterbury"],
    "bob": ["York", "Whitby"],
    "carol": ["Exeter", "Bristol"],
    "dave": ["Norwich", "Coventry"],
    "alice-2": ["Exeter", "Bristol"],   # 13.7: a player's second family
    "bob-2": ["Norwich", "Coventry"],
}


def demo_orders(view: dict[str, Any], player: str) -> str:
    if families_apart(view):   # 13.7: one item of `families:` per family ordering now
        return "families:\n" + "".join(indented(demo_orders(family_view(view, f), f), f) for f in view["ordering"])
    return _SCRIPTS.get(view["phase_id"].split("/")[-1], no_orders)(view, player)


def _setup_orders(view: dict[str, Any], player: str) -> str:
    return "orders:\n  - start: [" + ", ".join(START_WISHES[player]) + "]\n"


def _purchase_orders(view: dict[str, Any], player: str) -> str:
    found = free_lord(view, player)
    if found is None:
        return "orders: []\n"
    _, town = found
    mill = f"  - build: mill\n    in: {town}\n" if not view["towns"][town]["mills"] else ""
    return f"orders:\n  - buy: man_at_arms\n    count: 2\n    in: {town}\n" + mill


def _movement_orders(view: dict[str, Any], player: str) -> str:
    found = free_lord(view, player)
    if found is None:
        return "orders: []\n"
    noble, town = found
    empty = [t for t in load_board("fief_england").neighbours(town) if not view["towns"][t]["forces"]]
    units = view["towns"][town]["forces"].get(player, {}).get("units", {})
    if not empty or units.get("man_at_arms", 0) < 2:
        return "orders: []\n"
    return (f"orders:\n  - move: {noble}\n    with: {{man_at_arms: 1}}\n    path: [{empty[0]}]\n"
            f"policies:\n  safe_passage: {{others: refuse}}\n")


_SCRIPTS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "starting-towns": _setup_orders,
    "purchase": _purchase_orders,
    "movement": _movement_orders,
}
