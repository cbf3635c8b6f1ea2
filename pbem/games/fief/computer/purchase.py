"""The Purchase Phase (4): where my ransomed lords come back (4.1), the fief titles my family
can take (4.4: every town of the fief controlled, a stronghold in it: the victory points), the
stronghold such a fief still lacks and one where a rival army stands next to my lord (4.2), a
mill in a safe town while the game is young (4.2: income), then troops beside my lords where
the rivals are nearest (4.3: knights while the purse allows, men-at-arms to fill the four places
of a town). Money is kept back for a title within reach."""
from __future__ import annotations

from pbem.games.fief.computer.cards import strong_towns
from pbem.games.fief.computer.sight import fief_share, lord_towns, threat
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, board_of, controlled, edition_of, free_lords, my_lords

NEW_PAWNS = 4          # 4.3: at most four new pawns a town in one Purchase Phase
MILL_ROUNDS = 4        # mills pay back only in a long enough game


def purchase_choices(view: JSON, player: str, draw: Draws) -> list[list[Item]]:
    edition = edition_of(view)
    money = view["families"][player].get("deniers", 0)
    choices: list[list[Item]] = []
    towns = strong_towns(view, player)
    for lord in my_lords(view, player):   # 4.1: paid without an order; where they come back
        if view["lords"][lord]["captive_of"] and towns:
            choices.append([{"ransom": lord, "place": t} for t in towns[:3]])
    titles, wanting, reserve = _titles(view, player)
    choices += titles
    spend = money - sum(edition.price("title_per_town") * len(view["fiefs"][f]["towns"]) for f in wanting[:1])
    for fief in wanting:   # a fief all mine but for its stronghold (4.4)
        bare = [t for t in view["fiefs"][fief]["towns"] if view["towns"][t].get("controller") == player]
        if bare and not any(view["towns"][t].get("fortress") for t in view["fiefs"][fief]["towns"]):
            choices.append([{"build": "stronghold", "in": t} for t in bare])
            spend -= edition.price("stronghold")
    spend -= reserve
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
    choices += _troops(view, player, front + [t for t in towns if t not in front], spend)
    return choices


def _titles(view: JSON, player: str) -> tuple[list[list[Item]], list[str], int]:
    """The titles to buy now, the fiefs all mine but for a stronghold, and the money to keep for
    the fief I hold most of (4.4)."""
    edition = edition_of(view)
    lords = sorted(free_lords(view, player), key=lambda n: (len(view["lords"][n]["fief_titles"]),
                                                            bool(view["lords"][n]["bishopric"]), n))
    choices: list[list[Item]] = []
    wanting: list[str] = []
    reserve = 0
    for fief, info in sorted(view["fiefs"].items()):
        if info["holder"] or info.get("governed"):
            continue
        share = fief_share(view, fief, player)
        if share == 1:
            if any(view["towns"][t].get("fortress") for t in info["towns"]):
                choices.append([{"title": info["name"], "lord": n} for n in lords])
            else:
                wanting.append(fief)
    return choices, wanting, reserve


def _troops(view: JSON, player: str, towns: list[str], spend: int) -> list[list[Item]]:
    edition = edition_of(view)
    pool = view["families"][player].get("pool") or {}
    placeable = set(lord_towns(view, player)) | {t for t in controlled(view, player) if view["towns"][t].get("fortress")}
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
