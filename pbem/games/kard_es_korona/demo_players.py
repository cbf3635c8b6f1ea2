"""Kard és Korona's scripted players for `pbem demo --game kard_es_korona` (the rules contract's
optional demo part): each writes his orders from his own view only, like a person reading his
report. They place the default army, recruit an infantry a year, step into an empty county of
their own and bid nothing: they keep the peace, so the demo shows the years without a battle."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona import placement
from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.economy import recruit_places
from pbem.games.kard_es_korona.state import total

DEMO_PLAYERS = ("alice", "bob", "carol", "dave")


def demo_orders(view: dict[str, Any], player: str) -> str:
    step = view["step"]
    if step == "placement":
        return placement.echo(placement.default(view, player)) + "\n"
    if step == "recruitment":
        return _recruitment(view, player)
    if step == "movement":
        return _movement(view, player)
    return "bid: 0\n"


def demo_done(first: dict[str, Any], state: dict[str, Any]) -> bool:
    """1301 and 1302 (the first year with recruitment) have resolved, or the game is over."""
    return state["result"] is not None or state["year"] > first["year"] + 1


def _recruitment(view: dict[str, Any], player: str) -> str:
    places = recruit_places(view, player)
    if not places or view["treasury"][player] < 5 or total(view["armies"].get(places[0], {}).get("units", {})) >= 7:
        return "recruit: {}\n"
    return f"recruit: {{{places[0]}: {{infantry: 1}}}}\n"


def _movement(view: dict[str, Any], player: str) -> str:
    """One infantry from the lord's county into an empty county of his next to it."""
    where = view["lords"].get(player)
    army = view["armies"].get(where or "", {})
    if not where or army.get("owner") != player or army["units"]["infantry"] < 1 or total(army["units"]) < 2:
        return "steps: []\n"
    board = load_board(view["version"])
    empty = [c for c in sorted(board.borders[where]) if c not in view["armies"] and view["owner"].get(c) == player
             and board.step_cost(where, c) <= 2]
    if not empty:
        return "steps: []\n"
    return f"steps:\n  - to: {empty[0]}\n    from: {{{where}: {{infantry: 1}}}}\n"
