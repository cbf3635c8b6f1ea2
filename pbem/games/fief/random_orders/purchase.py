"""The Purchase Phase (4): units, strongholds, mills and fief titles in towns I control; a
ransom's placement and a lower offer (4.1); France's king offers a title and a cardinal title
is bought (4.4, 4.5). Counts and places are random, within what the view says I may afford,
now and then past it (the checker's refusal is part of the test)."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, controlled, edition_of, england, free_lords, my_lords, others

KINDS = ("man_at_arms", "archer", "knight", "bombard")


def purchase_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    mine = controlled(view, player)
    money = view["families"][player].get("deniers", 0)
    items: list[Item] = []
    items += _ransoms(view, player, draw)
    edition = edition_of(view)
    for _ in range(draw.below(4)):
        kind = draw.pick(_kinds(view, player))
        if mine:   # within the purse mostly (a tenth of the time whatever)
            most = money // edition.unit_price(kind) if kind in edition.units and draw.chance(90) else 4
            if most > 0:
                items.append({"buy": kind, "count": draw.count(min(4, most)), "in": draw.pick(mine)})
                money -= edition.unit_price(kind) if kind in edition.units else 0
    if mine and draw.chance(35):
        what = draw.pick(["mill", "mill", "stronghold"])
        if money < edition.price(what) and draw.chance(90):   # within the purse mostly
            return items + _titles(view, player, draw) + ([] if england(view) else _royal(view, player, draw))
        bare = ([t for t in mine if not view["towns"][t].get("fortress")] if what == "stronghold"
                else [t for t in mine if view["towns"][t].get("mills_room", 1) > 0])
        if bare:
            items.append({"build": what, "in": draw.pick(bare)})
    items += _titles(view, player, draw)
    if not england(view):
        items += _royal(view, player, draw)
    return items


def _kinds(view: JSON, player: str) -> list[str]:
    pool = view["families"][player].get("pool") or {}
    return [k for k in pool if pool[k] > 0 and not k.startswith(("royal_", "queens_", "kings_"))] or list(KINDS)


def _ransoms(view: JSON, player: str, draw: Draws) -> list[Item]:
    """4.1: where a ransomed lord comes into play; sometimes a lower offer to the jailer."""
    captive = [n for n in my_lords(view, player) if view["lords"][n]["captive_of"]]
    if not captive or draw.chance(50):
        return []
    lord = draw.pick(captive)
    if draw.chance(30):
        return [{"offer": draw.below(6), "for": [lord]}]
    towns = controlled(view, player) or list(view["towns"])
    return [{"ransom": lord, "place": draw.pick(towns)}]


def _titles(view: JSON, player: str, draw: Draws) -> list[Item]:
    """4.4: a fief whose every town I control (the checker says whether its stronghold is there)."""
    lords = free_lords(view, player)
    if not lords:
        return []
    mine = set(controlled(view, player))
    fiefs = [f for f, info in view["fiefs"].items() if not info["holder"] and set(info["towns"]) <= mine]
    if not fiefs or draw.chance(30):
        return []
    item: Item = {"title": view["fiefs"][draw.pick(fiefs)]["name"], "lord": draw.pick(lords)}
    if not england(view) and draw.chance(20):
        item["only_if_offered"] = True
    return [item]


def _royal(view: JSON, player: str, draw: Draws) -> list[Item]:
    """France 4.4: the king offers an ungoverned fief; 4.5: a cardinal title on a bishop."""
    items: list[Item] = []
    king = any(view["lords"][n]["political"] in ("king", "regent_queen") for n in my_lords(view, player))
    open_fiefs = [info["name"] for info in view["fiefs"].values() if not info["governed"]]
    if king and open_fiefs and draw.chance(30):
        items.append({"offer_title": draw.pick(open_fiefs), "to": draw.pick([player] + others(view, player))})
    bishops = [n for n, lord in view["lords"].items() if lord["bishopric"] and not lord["cardinal"]]
    if bishops and "cardinal_title" in edition_of(view).prices and draw.chance(15):
        items.append({"cardinal": draw.pick(bishops)})
    return items
