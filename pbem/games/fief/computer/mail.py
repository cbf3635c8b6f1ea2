"""What the families of one mail have decided so far (England 13.7: a player's two families
ordered in one mail): the towns their armies already go to and the money they already spend
from the one purse (R154), so the second family plays beside the first, not against it."""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.fief.random_orders.draws import Item
from pbem.games.fief.random_orders.seen import JSON, edition_of


@dataclass
class Mail:
    claimed: set[str] = field(default_factory=set)   # towns an army of the mail goes to or holds
    spent: int = 0                                   # money the mail's purchases spend

    def add(self, view: JSON, item: Item) -> None:
        """Note an order kept in the mail."""
        if "move" in item:
            self.claimed.update([item["path"][-1]] + list(item.get("leave") or {}))
        self.spent += cost(view, item)


def cost(view: JSON, item: Item) -> int:
    """What a purchase order of mine costs (4.2-4.4)."""
    edition = edition_of(view)
    if "buy" in item and item["buy"] in edition.units:
        return edition.unit_price(item["buy"]) * int(item.get("count", 1))
    if "build" in item:
        return edition.price(item["build"]) * int(item.get("count", 1))
    if "title" in item:
        return next((f["price"] for f in view["fiefs"].values() if f["name"] == item["title"]), 0)
    return 0
