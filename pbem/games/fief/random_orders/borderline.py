"""Now and then an order a careless player writes: a value of the wrong shape (a list for a name,
a mapping for a count, a negative or huge number, nothing), a misspelt key. The checker must
answer each with an error naming its line, never raise: these are the generator's borderline
share."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.random_orders.draws import Draws, Item

PERCENT = 4     # of the mails: one order of the mail is mangled


def mangled(items: list[Item], draw: Draws) -> list[Item]:
    """``items`` with one order's value or key mangled, a few times in a hundred mails."""
    if not items or not draw.chance(PERCENT):
        return items
    at = draw.below(len(items))
    item = dict(items[at])
    key = draw.pick(list(item))
    if draw.chance(20):
        item[key + "x"] = item.pop(key)   # a misspelt key
    else:
        item[key] = _wrong(item[key], draw)
    return items[:at] + [item] + items[at + 1:]


def _wrong(value: Any, draw: Draws) -> Any:
    return draw.pick([[value], {"x": value}, -1, 10 ** 6, "", None, 2.5, True, [[value]], "Nowhere"])
