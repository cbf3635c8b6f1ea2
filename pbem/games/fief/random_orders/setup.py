"""Setup (A.5; England X14): a list of starting towns, best first, sometimes none."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, board_of


def setup_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    board = board_of(view)
    rolled = (view.get("setup") or {}).get("region")   # England 13.6: the Region rolled for me
    towns = draw.some([t for t in board.towns if not rolled or board.towns[t].fief == rolled or draw.chance(3)], 3)
    return [{"start": towns}] if towns or draw.chance(50) else []
