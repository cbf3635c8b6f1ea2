"""England's Invaders phase (6.9-6.10): a Danegeld or a cleric's intervention, now and then."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, free_lords, others


def invader_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    items: list[Item] = []
    armies = [int(a) for a in (view.get("invaders") or {}).get("armies", {})]
    for noble in draw.some(free_lords(view, player), 2):
        verb = "intervene" if view["lords"][noble]["bishopric"] or draw.chance(20) else "danegeld"
        item: Item = {verb: noble}
        if armies and draw.chance(40):
            item["army"] = draw.pick(armies)
        items.append(item)
    if "passage" in (view.get("hand") or []) and draw.chance(40):   # 10.2, R146: PASSAGE lent to them
        lend: Item = {"passage": draw.pick(["storms", "tunnels"])}
        if armies and draw.chance(50):
            lend["army"] = draw.pick(armies)
        if lend["passage"] == "tunnels" and others(view, player) and draw.chance(50):
            lend["against"] = draw.pick(others(view, player))
        items.append(lend)
    return items
