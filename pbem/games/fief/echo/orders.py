"""Fief's canonical orders written back in its order language (pbem.rules.api.EchoesOrders):
the judge's answer to an order mail shows what it understood as the player would write it,
and the player may send that text back unchanged (docs/orders.md, "The judge's answers").

Each phase's canonical form (the checkers named in round.py's steps) is turned back into the
order items its checker reads: `towns` into `- start: [...]`, a lord card play into
`- play: Aliénor` with `in:`, and so on. The `wait`/`ready` flags are the judge's, not here.
Movement and battle orders: echo/moves.py; standing policies and triggers: echo/policies.py.
The round trip (check, echo, check again: the same canonical orders) is tested over the
golden games and every scenario (tests/test_fief_echo.py).
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.echo.moves import battle_items, movement_items
from pbem.games.fief.edition import load_edition
from pbem.games.fief.echo.policies import policies_document, surprise_play
from pbem.orders.echo import write_orders


def echo_orders(view: dict[str, Any], player: str, orders: dict[str, Any]) -> str:
    """The part of a mail below the envelope that gives ``orders`` (canonical, in the phase
    ``view`` shows): `orders:` (`[]` when there are none) and the `policies:` it gave."""
    # an edition's own phase (its `phases` hook, E) writes its own back
    own = next((s.echo for s in load_edition(view["game"]).hooks.phases if s.name == view["phase"] and s.echo), None)
    items = (own or ITEMS.get(view["phase"], _nothing))(view, orders or {})
    document: dict[str, Any] = {"orders": items}
    policies = (orders or {}).get("policies")
    if policies:
        document["policies"] = policies_document(policies, view)
    return write_orders(document)


def _nothing(view: dict, orders: dict) -> list:
    return []




def _setup(view: dict, orders: dict) -> list:
    # setup/orders.py: one `start:` list, best first (A.5)
    return [{"start": orders["towns"]}] if orders.get("towns") else []


def _hear_ye(view: dict, orders: dict) -> list:
    # hear_ye_orders.check_first: the edition's own orders first (France: the pope's, annulments)
    own = load_edition(view["game"]).hooks.hear_ye_orders
    items: list[dict[str, Any]] = own.echo_first(orders) if own else []
    if orders.get("marry"):
        items.append({"marry": orders["marry"]["lord"], "to": orders["marry"]["to"]})
    # in the order given: a candidate for pope not yet a bishop comes after his bishop candidacy
    items += [{"candidate": lord, "for": ballot} for ballot, lord in (orders.get("candidates") or {}).items()]
    return items


def _votes(view: dict, orders: dict) -> list:
    # hear_ye_orders.check_votes (1.2), then the edition's own (France: the new pope's act, 1.4)
    items = [{"vote": ballot, **marks} for ballot, marks in (orders.get("votes") or {}).items()]
    own = load_edition(view["game"]).hooks.hear_ye_orders
    return items + (own.echo_votes(orders) if own else [])


def _draw(view: dict, orders: dict) -> list:
    # cards_orders.check_draw_orders (2.1, 2.2)
    items: list[dict[str, Any]] = [_one_play(view, play) for play in orders.get("play") or []]   # England 2.0
    if orders.get("discard"):
        items.append({"discard": orders["discard"]})
    if orders.get("draw"):
        draw: dict[str, Any] = {"draw": orders["draw"]}
        if orders.get("if_first"):
            draw["if_first"] = orders["if_first"]
        items.append(draw)
    return items


def _play(view: dict, orders: dict) -> list:
    # cards_orders.check_play_orders (2.6, G.1, G.3) and surprise/orders.py (G.4)
    return [_one_play(view, play) for play in orders.get("play") or []]


def _one_play(view: dict, play: dict[str, Any]) -> dict[str, Any]:
    card = play["card"]
    own = load_edition(view["game"]).hooks.card_plays   # the edition's own cards (England: 2.7-2.8, 10.0)
    if own is not None and own.echo is not None and card in own.cards:
        return own.echo(view, play)
    if card in ("good_weather", "good_harvest"):
        return {"play": card, "on": play["bishopric"]}
    if card == "tax":
        target = play["target"]
        if play["tax"] == "tallage":
            target = fief_name(view, target)
        return {"play": card, play["tax"]: target, "lord": play["lord"]}
    if card in load_cards(view["game"]).lords:   # a lord card (G.1)
        item: dict[str, Any] = {"play": card}
        if play.get("town"):
            item["in"] = play["town"]
        for key in load_edition(view["game"]).hooks.lord_card_keys:   # France: crown_prince, G.1.1
            if play.get(key.name):
                item[key.name] = True
        return item
    return surprise_play(play, view)


def fief_name(view: dict, fief: str) -> str:
    """A fief id ("bretagne") by the name a player writes: "Bretagne" for "Barony of Bretagne"
    (Board.find_fief reads both)."""
    name = (view.get("fiefs") or {}).get(fief, {}).get("name", fief)
    return name.split(" of ", 1)[-1]


# purchase/orders.py: the canonical keys that a mail writes under another name, or leaves out
PURCHASE_KEYS = {"town": "in"}


def _purchase(view: dict, orders: dict) -> list:
    items = []
    for order in orders.get("orders") or []:
        item = {PURCHASE_KEYS.get(k, k): v for k, v in order.items() if v is not None}
        if item.get("count") == 1:
            del item["count"]   # 1 is what `buy:` and `build: mill` leave out (4.2, 4.3)
        for verb in ("title", "offer_title"):   # 4.4: the fief by its name
            if verb in item:
                item[verb] = fief_name(view, item[verb])
        items.append(item)
    return items


ITEMS: dict[str, Callable[[dict, dict], list]] = {
    "setup": _setup, "hear_ye": _hear_ye, "hear_ye_votes": _votes, "cards": _draw, "cards_play": _play,
    "purchase": _purchase, "movement": lambda view, orders: movement_items(orders),
    "battle": lambda view, orders: battle_items(orders),
}
