"""The Hear Ye phase (1; England 9.0-9.1): marriages and candidates in the first mail, sealed
votes in the second; England's Parliament (9.2-9.3) after it."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.england import parliament_extras
from pbem.games.fief.random_orders.seen import JSON, all_lords, edition_of, england, free_lords, my_lords, others


def _unmarried(view: JSON, names: list[str]) -> list[str]:
    return [n for n in names if not view["lords"][n]["spouse"] and view["lords"][n]["location"]]


def _suitors(view: JSON, player: str) -> list[str]:
    """The families a marriage may join (England 13.7: one's own two; 13.8: none at 3 players)."""
    owners = view.get("family_players") or {}
    if owners:
        return [f for f, p in owners.items() if p == owners.get(player) and f != player]
    if england(view) and len(view["players"]) == 3:
        return []
    return others(view, player)


def first_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    items: list[Item] = []
    mine = _unmarried(view, my_lords(view, player))
    theirs = [n for p in _suitors(view, player) for n in _unmarried(view, my_lords(view, p))]
    if mine and theirs and draw.chance(40):   # 1.1: the other family must order the same pair
        lord = draw.pick(mine)
        match = [n for n in theirs if view["lords"][n]["female"] != view["lords"][lord]["female"]]
        if match:
            items.append({"marry": lord, "to": draw.pick(match)})
    possible = list(view["hear_ye"]["possible"])
    if possible and draw.chance(60):
        names = free_lords(view, player) if draw.chance(70) else all_lords(view)
        if names:
            items.append({"candidate": draw.pick(names), "for": draw.pick(possible)})
    if edition_of(view).hooks.hear_ye_orders is not None:   # the edition's own (France: the pope's acts)
        items += _pope(view, player, draw)
    return items


def _pope(view: JSON, player: str, draw: Draws) -> list[Item]:
    """France 1.1, D.2.3: an annulment asked for; the pope's family excommunicates, lifts, grants."""
    items: list[Item] = []
    married = [n for n in my_lords(view, player) if view["lords"][n]["spouse"]]
    if married and draw.chance(10):
        items.append({"annul": draw.pick(married)})
    if not any(view["lords"][n]["pope"] for n in my_lords(view, player)):
        return items
    banned = [n for n, lord in view["lords"].items() if lord["excommunicated"]]
    if banned and draw.chance(40):
        items.append({"lift": draw.pick(banned)})
    if draw.chance(40):
        items.append({"excommunicate": draw.pick([n for n in view["lords"] if not view["lords"][n]["pope"]])})
    if draw.chance(40):
        items.append({"annulments": draw.pick(["grant", "refuse"])})
    return items


def vote_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    """A sealed vote on some ballots (1.2), for one of its candidates, sometimes with a decoy."""
    items: list[Item] = []
    for ballot in view["hear_ye"]["ballots"]:
        if ballot["candidates"] and draw.chance(80):
            items.append({"vote": ballot["id"], "for": draw.pick(ballot["candidates"])})
    return items


def parliament_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    """England 9.2-9.3: the Sovereign's family may convene; every family votes for or against."""
    items: list[Item] = []
    sovereign = any(lord["family"] == player and lord["political"] in ("king", "sovereign_queen")
                    for lord in view["lords"].values())
    if sovereign and draw.chance(60):
        share = {p: draw.below(5) for p in draw.some(others(view, player), 2)}
        items.append({"convene": True, "share": share} if share else {"convene": True})
    if draw.chance(80):
        items.append({"vote": draw.pick(["for", "against"]), **parliament_extras(view, player, draw)})
    return items
