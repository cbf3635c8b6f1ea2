"""Random election orders (IV. Election of Officials): a sealed bid of some of the treasury (or
none), and, from the Palatine, whom he makes the winner of a tie."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.random_orders import draw
from pbem.rules.rng import Rng


def write(view: dict[str, Any], player: str, rng: Rng) -> list[str]:
    lines = []
    money = view["treasury"][player]
    if player in view["bidders"] and draw.chance(rng, 85):
        bid = draw.between(rng, 0, money) if draw.chance(rng, 30) else draw.between(rng, 0, min(money, 12))
        lines.append(f"bid: {bid}")
    if view["offices"]["palatine"] == player and draw.chance(rng, 70):
        lines.append(f"if_tied: {draw.flow_list([draw.name(p) for p in draw.some(rng, view['players'], 3, 1)])}")
    return lines
