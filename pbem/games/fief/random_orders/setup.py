"""Setup (A.5; England X14): a list of starting towns, best first, sometimes none."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, board_of


def setup_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    towns = draw.some(list(board_of(view).towns), 3)
    return [{"start": towns}] if towns or draw.chance(50) else []
