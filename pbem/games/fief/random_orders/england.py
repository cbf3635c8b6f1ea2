"""England's own at-once orders (its `at_once_verbs` hook; docs/orders-fief-england.md): Scorched
Earth (3.4), Excalibur (13.2), carrier pigeons (2.15), the Crown's privileges (4.5, 4.6), the
Garter (13.3), crossbowmen hired, lent and borrowed (11.1), retainers given, accepted and Mata's
exchange (2.12), relics revealed, given, left and picked up, the Chasuble and the Shinbone
(12.0-12.4), the Royal Stronghold consented to (4.9); and the BURGHER's votes in Parliament
(9.3, 11.2). A few of each, the checks saying which fit."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, controlled, free_lords, others

SEAS = ("I", "II", "III", "IV", "V", "VI")


def own_acts(view: JSON, player: str, draw: Draws) -> list[Item]:
    """England's own at-once orders (its `at_once_verbs` hook): Scorched Earth (3.4), Excalibur
    (13.2), pigeons (2.15), the Crown's privileges (4.5, 4.6), the Garter (13.3), crossbowmen
    hired (11.1), and the Church's (below)."""
    items: list[Item] = []
    nobles = free_lords(view, player)
    if view["phase"] == "purchase" and draw.chance(8):
        mills = [t for t in controlled(view, player) if view["towns"][t].get("mills")]
        if mills:
            items.append({"scorch": draw.some(mills) or mills[:1]})   # 3.4
    sword = (view.get("excalibur") or {}).get("city") if not (view.get("excalibur") or {}).get("carried_by") else None
    men = [n for n in nobles if view["lords"][n]["location"] == sword and not view["lords"][n]["female"]]
    if view["phase"] in ("movement", "battle") and men and draw.chance(50):
        items.append({"draw_excalibur": draw.pick(men)})
    theirs = [n for p in others(view, player) for n in free_lords(view, p)]
    if nobles and theirs and (view.get("pigeons") or {}).get("left", {}).get(player) and draw.chance(5):
        item: Item = {"pigeon": draw.pick(nobles), "to": draw.pick(theirs)}
        money = view["families"][player].get("deniers", 0)
        hand = list(view.get("hand") or [])
        if money and draw.chance(70) or not hand:
            item["shillings"] = 1 + draw.below(max(money, 1))
        else:
            item["cards"] = [draw.pick(hand)]
        items.append(item)
    if view["phase"] == "purchase":
        items += _crown(view, player, nobles, draw)
    items += _garter(view, player, draw)
    items += church_acts(view, player, draw)
    mercenary = (view.get("church") or {}).get("family_card", {}).get(player) == "mercenary"
    if mercenary and draw.chance(20):
        items.append({"hire": 1 + draw.below(3), "in": draw.pick(list(view["towns"]))})   # 11.1
    return items


def _crown(view: JSON, player: str, nobles: list[str], draw: Draws) -> list[Item]:
    """4.5 King's Will, 4.6 a title handed within the family (the checks say who may)."""
    items: list[Item] = []
    sovereign = any(view["lords"][n]["political"] in ("king", "sovereign_queen") for n in nobles)
    free = [info["name"] for info in view["fiefs"].values() if not info["holder"]]
    if sovereign and free and draw.chance(30):
        anyone = [n for n, lord in view["lords"].items() if lord["location"] and not lord["captive_of"]]
        items.append({"kings_will": draw.pick(free), "to": draw.pick(anyone)})
    titled = [(f, n) for n in nobles for f in view["lords"][n]["fief_titles"]]
    if titled and len(nobles) > 1 and draw.chance(15):
        fief, lord = draw.pick(titled)
        items.append({"hand_title": view["fiefs"][fief]["name"], "to": draw.pick([n for n in nobles if n != lord])})
    return items


def _garter(view: JSON, player: str, draw: Draws) -> list[Item]:
    """13.3: the Sovereign's family gives the Garter to an eligible Lord."""
    garter = (view.get("royal") or {}).get("garter") or {}
    eligible = list(garter.get("eligible") or {})
    sovereign = any(lo["family"] == player and lo["political"] in ("king", "sovereign_queen")
                    for lo in view["lords"].values())
    if not sovereign and not draw.chance(5):   # the Sovereign's family gives it (now and then another tries)
        return []
    return [{"garter": draw.pick(eligible)}] if eligible and draw.chance(50) else []


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
    swappers = [n for n in mine if "swap_hand_card" in church["retainers"][n].get("effects", ())]
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

