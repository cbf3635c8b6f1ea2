"""England's own at-once orders of the Church and the family boards (2.12-2.13, 4.9, 11.1,
12.0-12.4; docs/orders-fief-england.md "At once"): retainers given and accepted, relics revealed,
given, left and picked up, the Royal Stronghold consented to, crossbowmen lent and borrowed,
Mata's exchange, the Chasuble and the Shinbone. A few of each, the checks saying which fit."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, free_lords, others

SEAS = ("I", "II", "III", "IV", "V", "VI")


def church_acts(view: JSON, player: str, draw: Draws) -> list[Item]:
    church = view.get("church") or {}
    nobles = free_lords(view, player)
    items: list[Item] = []
    if not nobles:
        return items
    items += _retainers(view, player, church, nobles, draw)
    items += _relics(view, player, church, nobles, draw)
    items += _crossbowmen(view, player, church, nobles, draw)
    if view["phase"] == "purchase" and draw.chance(5):
        lords = [n for n in nobles if view["lords"][n]["fief_titles"]]
        if lords:
            items.append({"consent_royal_stronghold": view["lords"][draw.pick(lords)]["location"]})
    return items


def _retainers(view: JSON, player: str, church: JSON, nobles: list[str], draw: Draws) -> list[Item]:
    items: list[Item] = []
    mine = [n for n in nobles if n in (church.get("retainers") or {})]
    if view["phase"] == "cards_play" and mine and draw.chance(10):   # 2.12: in the Cards phase
        giver = draw.pick(mine)
        takers = [n for n in view["lords"] if n != giver and view["lords"][n]["location"]]
        if takers:
            item: Item = {"give_retainer": giver, "to": draw.pick(takers)}
            if draw.chance(30):
                item["price"] = draw.below(3)
            items.append(item)
    for offer in church.get("retainer_offers") or []:
        if view["lords"].get(offer.get("receiver"), {}).get("family") == player and draw.chance(60):
            items.append({"accept_retainer": offer["giver"]})
    hand = list(view.get("hand") or [])
    swappers = [n for n in mine if "swap_hand_card" in str(church["retainers"][n].get("ability", ""))]
    if swappers and hand and others(view, player) and draw.chance(30):   # 2.12: Mata's exchange
        items.append({"swap_card": draw.pick(hand), "by": draw.pick(swappers),
                      "with": draw.pick(others(view, player))})
    return items


def _relics(view: JSON, player: str, church: JSON, nobles: list[str], draw: Draws) -> list[Item]:
    relics = church.get("relics") or {}
    items: list[Item] = []
    abbesses = (church.get("clergy") or {}).get("abbesses", {})
    clerics = [n for n in nobles if (view["lords"][n]["bishopric"] or n in abbesses)
               and view["lords"][n]["location"] in (relics.get("face_down_in") or ())]
    if clerics and draw.chance(40):
        items.append({"reveal_relic": draw.pick(clerics)})
    for relic, where in (relics.get("face_up") or {}).items():
        carrier = where.get("carried_by")
        if carrier in nobles and draw.chance(15):
            here = [n for n in view["lords"] if n != carrier
                    and view["lords"][n]["location"] == view["lords"][carrier]["location"]]
            items.append({"give_relic": relic, "to": draw.pick(here)} if here and draw.chance(50)
                         else {"leave_relic": relic})
            if relic == "Chasuble" and draw.chance(30):
                items.append({"chasuble": draw.pick(SEAS), "to": draw.pick(SEAS)})   # 12.2
            if relic == "Shinbone" and draw.chance(30):
                items.append({"shinbone": "famine"})   # 12.4
        elif carrier is None and where.get("lies_in"):
            takers = [n for n in nobles if view["lords"][n]["location"] == where["lies_in"]]
            if takers and draw.chance(40):
                items.append({"take_relic": relic, "by": draw.pick(takers)})
    return items


def _crossbowmen(view: JSON, player: str, church: JSON, nobles: list[str], draw: Draws) -> list[Item]:
    """11.1: lend from my MERCENARY card; accept an offer made to me."""
    items: list[Item] = []
    on_card = (church.get("crossbowmen_on_card") or {}).get(player, 0)
    if on_card and others(view, player) and draw.chance(10):
        item: Item = {"lend_crossbowmen": 1 + draw.below(on_card), "to": draw.pick(others(view, player))}
        if draw.chance(40):
            item.update(price=1 + draw.below(3), paid_to=draw.pick(nobles))
        items.append(item)
    for offer in church.get("crossbowmen_offers") or []:
        if offer.get("borrower") == player and draw.chance(60):
            item = {"borrow_crossbowmen": offer["lender"]}
            if offer.get("price"):
                item["paid_by"] = draw.pick(nobles)
            items.append(item)
    return items


def parliament_extras(view: JSON, player: str, draw: Draws) -> Item:
    """9.3, 11.2: a BURGHER's votes added to the marker."""
    card = (view.get("church") or {}).get("family_card", {}).get(player)
    return {"burgher": True} if card == "burgher" and draw.chance(50) else {}

