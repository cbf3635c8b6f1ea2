"""Standing policies (kept until changed): alliances accepted by a simple rule - a friend (a
family married into mine, 1.1.2; my other family, 13.7) is given safe passage and accepted in a
coalition, every other family is refused passage (5.2.3.1) and refused a coalition; a besieged
army of a friend may leave (6.4.2)."""
from __future__ import annotations

from pbem.games.fief.computer.sight import allies
from pbem.games.fief.random_orders.draws import Item
from pbem.games.fief.random_orders.seen import JSON


def standing_policies(view: JSON, player: str) -> Item:
    friends = sorted(allies(view, player))
    policies: Item = {"safe_passage": {"allow": friends, "others": "refuse"}}
    if friends:
        policies["coalition"] = {"accept": friends}
        policies["besieged_may_leave"] = {"allow": friends, "others": "refuse"}
    return policies
