"""The Cards Phase (2): discards and draws (steps A-B), then the plays of step D, each card
with the keys its own kind reads (France G.1, G.3, G.4; England 2.7-2.8, 2.11-2.14, 10.0-11.2)."""
from __future__ import annotations

from typing import Callable

from pbem.games.fief.edition import edition_of_view
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import (JSON, all_lords, board_of, cards_of, edition_of, free_lords,
                                                my_lords, others)

REGIONS = ("I", "II", "III", "IV", "V", "VI")


def draw_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    edition = edition_of_view(view)
    hand = list(view.get("hand") or [])
    items: list[Item] = []
    discard = draw.some(hand, 2) if draw.chance(30) else []
    if discard:
        items.append({"discard": discard})
    room = edition.hand_limit - len(hand) + len(discard) + (1 if draw.chance(5) else 0)   # now and then one too many
    piles = ["character"] * edition.character_draws + ["events"] * edition.draws
    wanted = draw.some(piles, min(room, edition.draws)) if room > 0 else []
    if wanted.count("character") > edition.character_draws:
        wanted = wanted[:1]
    if wanted:
        order: Item = {"draw": wanted}
        if len(wanted) == 1 and room > 1 and draw.chance(30):
            order["if_first"] = {draw.pick(["lord", "character", "fortune"]): draw.pick(["events", "none"])}
        items.append(order)
    return items


def play_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    """Some cards of the hand, each with random keys for its kind; sometimes nothing."""
    items: list[Item] = []
    for card in draw.some(list(view.get("hand") or []), 2):
        write = _play_writer(view, card)
        if write is not None:
            item = write(view, player, card, draw)
            if item is not None:
                items.append(item)
    return items


Writer = Callable[[JSON, str, str, Draws], Item | None]


def _play_writer(view: JSON, card: str) -> Writer | None:
    """A lord card (G.1; England 2.11); a card of the edition's own plays (its `card_plays` hook:
    England's fortune and Opportunity cards, 2.7-2.8, 10.0) in its forms; else the core's."""
    if card in cards_of(view).lords:
        return _lord_card
    return (OWN_PLAYS if card in own_cards(view) else CORE_PLAYS).get(card)


def own_cards(view: JSON) -> tuple[str, ...]:
    plays = edition_of(view).hooks.card_plays
    return tuple(plays.cards) if plays is not None else ()


def _lord_card(view: JSON, player: str, card: str, draw: Draws) -> Item:
    item: Item = {"play": card}
    if draw.chance(40):
        item["in"] = draw.pick(list(board_of(view).towns))
    for key in edition_of(view).hooks.lord_card_keys:   # the edition's own keys (France G.1.1: crown_prince)
        if draw.chance(20):
            item[key.name] = True
    return item


def _bishopric(view: JSON, draw: Draws) -> str | int:
    number = draw.pick(list(view["bishoprics"]))
    return int(number) if draw.chance(50) else view["bishoprics"][number]["name"]


def _weather(view: JSON, player: str, card: str, draw: Draws) -> Item:
    """G.3.1-G.3.2: on a bishopric; England's own (2.7): on a Region."""
    return {"play": card, "on": draw.pick(REGIONS) if card in own_cards(view) else _bishopric(view, draw)}


def _tallage(view: JSON, player: str, draw: Draws) -> Item | None:
    """A fief of one of my lords, or (the king) an ungoverned one; now and then any fief."""
    mine = [(f, n) for n in my_lords(view, player) for f in view["lords"][n]["fief_titles"]]
    king = [n for n in my_lords(view, player) if view["lords"][n]["political"] in ("king", "sovereign_queen")]
    if king:
        mine += [(f, king[0]) for f, info in view["fiefs"].items() if not info["governed"]]
    if not mine:
        return {"tallage": draw.pick(list(view["fiefs"]))} if draw.chance(10) else None
    fief, lord = draw.pick(mine)
    return {"tallage": view["fiefs"][fief]["name"], "lord": lord}


def _tax(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    """G.3.3: a tallage or a tithe."""
    keys = _tallage(view, player, draw) if draw.chance(50) else _tithe(view, player, draw)
    return None if keys is None else {"play": card, **keys}


def _own_tax(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    """England 2.8: a Tallage on a Lord's own fiefdom, or a Tithe by one of the family's clerics."""
    keys = _tallage(view, player, draw) if draw.chance(50) else _own_tithe(view, player, draw)
    return None if keys is None else {"play": card, **keys}


def _own_tithe(view: JSON, player: str, draw: Draws) -> Item | None:
    """England 2.8: a Tithe on a family's Bishop's or Archbishop's own district (its number, name
    or cathedral city), now and then on another district (refused)."""
    clerics = [n for n in my_lords(view, player) if view["lords"][n]["bishopric"]]
    if not clerics or draw.chance(10):
        return {"tithe": draw.pick(list(view["bishoprics"]))} if draw.chance(10) else None
    name = draw.pick(clerics)
    district = view["bishoprics"][str(view["lords"][name]["bishopric"])]
    return {"tithe": draw.pick([str(view["lords"][name]["bishopric"]), district["name"], district["chief_town"]]),
            **({"lord": name} if draw.chance(50) else {})}


def _tithe(view: JSON, player: str, draw: Draws) -> Item | None:
    for name in my_lords(view, player):
        lord = view["lords"][name]
        if lord["pope"]:
            return {"tithe": "all", "lord": name}
        if lord["bishopric"]:
            return {"tithe": lord["bishopric"], "lord": name}
        if lord["cardinal"]:
            return {"tithe": _bishopric(view, draw), "lord": name}
    return None


def _on_any_lord(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    """D'Arc, cardinal, justice: on a lord of any family who fits the card (G.4.1.1: an unmarried
    woman; G.4.1.2: a bishop; G.4.2.4, 10.4: an assassin or Heresy marker), now and then any."""
    lords = all_lords(view)
    fits = [n for n in lords if FITS.get(card, lambda lord: True)(view["lords"][n])]
    if card == "justice" and card in own_cards(view):   # England 10.4: the bearer of the Heresy marker
        fits = [n for n in lords if n == (view.get("church") or {}).get("heresy")]
    if not fits and draw.chance(80):
        return None
    pool = fits if fits and draw.chance(85) else lords
    return {"play": card, "on": draw.pick(pool)} if pool else None


FITS = {"darc": lambda lord: lord["female"] and not lord["spouse"],
        "cardinal": lambda lord: bool(lord["bishopric"]) and not lord["cardinal"],
        "justice": lambda lord: bool(lord.get("assassin"))}


def _assassination(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    theirs = [n for p in others(view, player) for n in my_lords(view, p) if view["lords"][n]["location"]]
    mine = free_lords(view, player)
    if not theirs or not mine:
        return None
    return {"play": card, "on": draw.pick(theirs), "sponsor": draw.pick(mine)}


def _uprising(view: JSON, player: str, card: str, draw: Draws) -> Item:
    """G.4.2.1: a town under a famine or a tax another family played, now and then any town."""
    board = board_of(view)
    grounds = [t for e in view.get("board_effects") or [] if e["card"] in ("famine", "tax", "tallage", "tithe")
               and e.get("player") != player for t in _towns_under(view, e["target"])]
    return {"play": card, "in": draw.pick(grounds if grounds and draw.chance(85) else list(board.towns))}


def _towns_under(view: JSON, target: str) -> list[str]:
    if target in view["bishoprics"]:
        return list(view["bishoprics"][target]["towns"])
    if target in view["fiefs"]:
        return list(view["fiefs"][target]["towns"])
    return [target] if target in view["towns"] else list(view["towns"])


def _underground(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    captives = [n for n, lord in view["lords"].items() if lord["captive_of"]]
    if not captives:
        return None
    key = "free"
    return {"play": card, key: draw.pick(captives)}


def _cleric(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    """England 2.14: a Bishop or Archbishop on an unmarried nobleman, in a district."""
    men = [n for n in free_lords(view, player) if not view["lords"][n]["female"] and not view["lords"][n]["spouse"]]
    if not men:
        return None
    item: Item = {"play": card, "on": draw.pick(men)}
    if card == "bishop" or not view["lords"][item["on"]]["bishopric"]:
        item["district"] = view["bishoprics"][draw.pick(list(view["bishoprics"]))]["name"]
    return item


def _abbess(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    """England 2.13: an unmarried noblewoman, in a city without a building."""
    women = [n for n in free_lords(view, player) if view["lords"][n]["female"] and not view["lords"][n]["spouse"]]
    if not women:
        return None
    places = [t for t, info in view["towns"].items() if not info.get("fortress")] or list(view["towns"])
    return {"play": card, "on": draw.pick(women), "in": draw.pick(places)}


def _bare(view: JSON, player: str, card: str, draw: Draws) -> Item:
    return {"play": card}


def _burgher(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    """11.2: only while my family has a titled Lord (now and then regardless)."""
    titled = any(view["lords"][n]["fief_titles"] for n in my_lords(view, player))
    return {"play": card} if titled or draw.chance(10) else None


def _rebellion(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    """England 10.1: in a taxed city or one in FAMINE (the check says which)."""
    return {"play": card, "in": draw.pick(list(view["towns"]))}


def _ambush(view: JSON, player: str, card: str, draw: Draws) -> Item | None:
    """England 10.5: my free noble captures another family's noble in the same city."""
    pairs = [(mine, theirs) for mine in free_lords(view, player) for theirs, lord in view["lords"].items()
             if lord["family"] != player and lord["location"] == view["lords"][mine]["location"]]
    if not pairs:
        return None
    by, on = draw.pick(pairs)
    return {"play": card, "on": on, "by": by}


# The core's cards in their forms (France's G.1-G.4; any edition's character cards read by the
# edition's `characters` hook: England's BISHOP, ARCHBISHOP, ABBESS, MERCENARY, BURGHER).
CORE_PLAYS: dict[str, Writer] = {
    "good_weather": _weather, "good_harvest": _weather, "tax": _tax, "darc": _on_any_lord,
    "cardinal": _on_any_lord, "justice": _on_any_lord, "assassination": _assassination,
    "uprising": _uprising, "underground": _underground,
    "bishop": _cleric, "archbishop": _cleric, "abbess": _abbess, "mercenary": _bare, "burgher": _burgher,
}
# The edition's own card plays (its `card_plays` hook; England 2.7-2.8, 10.0-10.5).
OWN_PLAYS: dict[str, Writer] = {
    "good_weather": _weather, "bountiful_harvest": _weather, "tax": _own_tax, "rebellion": _rebellion,
    "passage": _underground, "assassination": _assassination, "justice": _on_any_lord, "ambush": _ambush,
}
# Played in the cards-play step only, never at once (G.3; England 2.6-2.8)
FORTUNE = ("good_weather", "good_harvest", "bountiful_harvest", "tax")
