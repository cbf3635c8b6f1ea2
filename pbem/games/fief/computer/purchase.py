"""The Purchase Phase (4): where my ransomed lords come back (4.1), the fief titles my family
can take (4.4: every town of the fief controlled, a stronghold in it: the victory points), the
stronghold such a fief still lacks and one where a rival army stands next to my lord (4.2), a
mill in a safe town while the game is young (4.2: income), then troops beside my lords where
the rivals are nearest (4.3: knights while the purse allows, men-at-arms to fill the four places
of a town). Money is kept back for a title within reach."""
from __future__ import annotations

from pbem.games.fief.computer.cards import strong_towns
from pbem.games.fief.computer.sight import fief_share, lord_towns, target_fiefs, threat
from pbem.games.fief.computer.mail import Mail
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import (JSON, board_of, controlled, edition_of, england, free_lords, my_lords,
                                                my_units)

NEW_PAWNS = 4          # 4.3: at most four new pawns a town in one Purchase Phase
MILL_ROUNDS = 4        # mills pay back only in a long enough game


def purchase_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    edition = edition_of(view)
    money = view["families"][player].get("deniers", 0) - mail.spent   # 13.7: one purse (R154)
    choices: list[list[Item]] = []
    towns = strong_towns(view, player)
    for lord in my_lords(view, player):   # 4.1: paid without an order; where they come back
        if view["lords"][lord]["captive_of"] and towns:
            choices.append([{"ransom": lord, "place": t} for t in towns[:3]])
    titles, spend = _titles(view, player, money)
    choices += _royal(view, player, titles) + titles
    # France 4.5's cardinal title is not bought: in the benchmark its 5 deniers did more as troops
    for fief in target_fiefs(view, player):   # the fief to complete next: its stronghold, its title
        info = view["fiefs"][fief]
        if fief_share(view, fief, player) < 0.5:
            continue
        if not any(view["towns"][t].get("fortress") for t in info["towns"]):
            mine = [t for t in info["towns"] if view["towns"][t].get("controller") == player]
            if spend >= edition.price("stronghold"):
                choices.append([{"build": "stronghold", "in": t} for t in mine])
            spend -= edition.price("stronghold")
        if fief_share(view, fief, player) < 1:
            spend -= info["price"]   # kept for the title
    spend = max(spend, money // 2 if not titles else 0)   # never more than half the purse kept back
    board = board_of(view)
    front = sorted(lord_towns(view, player), key=lambda t: (-threat(view, board, t, player), t))
    for town in front:
        if (not view["towns"][town].get("fortress") and view["towns"][town].get("controller") == player
                and threat(view, board, town, player) > 2 and spend >= edition.price("stronghold") + 4):
            choices.append([{"build": "stronghold", "in": town}])
            spend -= edition.price("stronghold")
            break
    safe = [t for t in towns if view["towns"][t].get("fortress") and view["towns"][t].get("mills_room", 0) > 0
            and view["towns"][t].get("controller") == player and threat(view, board, t, player) == 0]
    if safe and view.get("round", 1) <= MILL_ROUNDS and spend >= edition.price("mill") + 6:
        choices.append([{"build": "mill", "in": safe[0]}])
        spend -= edition.price("mill")
    alone = [t for t in front if not any(my_units(view, player, t).values()) and t in controlled(view, player)]
    for town in alone:   # a man-at-arms beside a lord alone: it holds the town when the lord rides on (5.2.2)
        if spend >= edition.unit_price("man_at_arms"):
            choices.append([{"buy": "man_at_arms", "in": town}])
            spend -= edition.unit_price("man_at_arms")
    choices += _troops(view, player, front + [t for t in towns if t not in front], spend)
    return choices


def _titles(view: JSON, player: str, money: int) -> tuple[list[list[Item]], int]:
    """The titles to buy now (4.4: every town of the fief mine, a stronghold in it) and the
    money they leave."""
    lords = sorted(free_lords(view, player), key=lambda n: (len(view["lords"][n]["fief_titles"]),
                                                            bool(view["lords"][n]["bishopric"]), n))
    choices: list[list[Item]] = []
    for fief, info in sorted(view["fiefs"].items()):
        if info["holder"] or info.get("governed") or fief_share(view, fief, player) < 1:
            continue
        if any(view["towns"][t].get("fortress") for t in info["towns"]) and lords:
            choices.append([{"title": info["name"], "lord": n} for n in lords])
            money -= info["price"]
    return choices, money


def _royal(view: JSON, player: str, titles: list[list[Item]]) -> list[list[Item]]:
    """France 4.4: my king offers the titles my family takes to my family: they come free."""
    king = any(view["lords"][n]["political"] in ("king", "regent_queen") for n in my_lords(view, player))
    if not king or view.get("king_offer_used") or england(view) or not titles:
        return []
    return [[{"offer_title": choice[0]["title"], "to": player}] for choice in titles[:1]]


def _troops(view: JSON, player: str, towns: list[str], spend: int) -> list[list[Item]]:
    edition = edition_of(view)
    pool = view["families"][player].get("pool") or {}
    forts = {t for t in controlled(view, player) if view["towns"][t].get("fortress")}
    placeable = set(lord_towns(view, player)) | forts
    choices: list[list[Item]] = []
    for town in [t for t in towns if t in placeable]:
        room = NEW_PAWNS
        for kind in ("knight", "man_at_arms"):
            if kind not in edition.units or spend <= 0:
                continue
            price = edition.unit_price(kind)
            most = min(room, spend // price, pool.get(kind, room))
            if most <= 0:
                continue
            choices.append([{"buy": kind, "count": n, "in": town} for n in range(most, 0, -1)])
            room -= most
            spend -= most * price
    return choices
