"""Trebuchets under construction paid in the Purchase Phase mail (E 7.9 "Construct Trebuchets"),
England's own purchase order (the core's `purchase_verbs` hook, ``PurchaseVerb``):

    orders:
      - construct: London   # 7.9: 5 shillings, your trebuchet 'Under Construction' at your siege of
        count: 2            #   London stands 'Active'; `count: 2` adds a second for 5 more

"In the next Round during Phase 4 - Purchasing, the Besieger must pay 5 Shilling to construct
the Trebuchet, turning it 'Active' side up. The Besieger can place a second 'Active' Trebuchet by
paying an additional 5 Shillings. If the Besieger does not pay for any Trebuchet, it is removed
from the Map and the Siege is lifted" - at the end of the phase (``lift_unpaid``, the core's
`purchase_end` hook). The order is judged on the family's books (purchase/books.py) as the core's
are: when the mail is read on the player's view, then in the player's turn on the state as it is.
What a siege has under construction is public (the marker lies on the board): the view's
`sieges` (``sieges_view``).
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.hooks import PurchaseVerb
from pbem.games.fief.purchase.books import Books, Failure
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.battle import siege
from pbem.orders.reading import Problems, suggest, whole_number
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event

VERB = "construct"


def sieges_view(state: FiefState) -> dict[str, Any]:
    """The view's `sieges` (public): {city: {family: {"building": N, "declared": round}}}; absent
    while no siege stands, so that a view without one is unchanged."""
    held = state.edition_state.get(siege.KEY) or {}
    return {"sieges": {c: {f: dict(v) for f, v in by.items()} for c, by in held.items()}} if held else {}


def read(view: dict, board: Board, item: dict, problems: Problems) -> dict | None:
    city = board.find_town(str(item[VERB])) if isinstance(item[VERB], str) else None
    if city is None:
        problems.add(line_of(item, VERB), f"`{VERB}:` names the City you besiege, not {item[VERB]!r}",
                     suggest(str(item[VERB]), list(board.towns)) or "e.g. `- construct: London`")
        return None
    count = whole_number(item["count"], line_of(item, "count"), "count", problems) if "count" in item else 1
    if count is None:
        return None
    return {VERB: city, "count": count}


def try_order(books: Books, order: dict) -> Failure | None:
    """7.9, the rule of ``siege.construction_problem`` on the family's books."""
    city, count = order[VERB], order["count"]
    held = ((books.view.get("sieges") or {}).get(city) or {}).get(books.me)
    done = books.own.setdefault(VERB, [])
    if held is None or not held.get("building") or city in done:
        return Failure("siege", f"you have no trebuchet under construction at {city}",
                       "7.9: a siege you declared in an earlier round's Battle Phase (`siege:`)")
    if held["declared"] >= books.view["round"]:
        return Failure("siege", f"your siege of {city} was declared this round",
                       "you pay in the next round's Purchase phase (7.9)")
    if count not in (1, siege.MOST):
        return Failure("count", f"you pay for 1 or {siege.MOST} trebuchets, not {count}",
                       "7.9: the one under construction, and a second")
    building = sum(int(by.get(books.me, {}).get("building", 0)) for c, by in (books.view.get("sieges") or {}).items()
                   if c not in done)
    if count > 1 and books.pool.get("trebuchet", 0) - building < count - 1:
        return Failure("pool", "your stockpile has no second trebuchet (l.30: 2 a family)", "write `count: 1`")
    cost = siege.PRICE * count
    fail = books._pay(cost, f"{count} trebuchet{'s' if count > 1 else ''} at {city}")
    if fail:
        return fail
    books.deniers -= cost
    books.pool["trebuchet"] = books.pool.get("trebuchet", 0) - count
    done.append(city)
    return None


def act(state: FiefState, board: Board, player: str, order: dict) -> list[Event]:
    return siege.activate(state, player, order[VERB], order["count"])


def describe(order: dict) -> str:
    count = order["count"]
    return f"to pay for {count} trebuchet{'s' if count > 1 else ''} at {order[VERB]}"


def template(view: dict, board: Board) -> list[str]:
    me = view["me"]
    lines = []
    for city, by in sorted((view.get("sieges") or {}).items()):
        held = by.get(me) or {}
        if held.get("building") and held["declared"] < view["round"]:
            lines += [f"#  - {VERB}: {city:<14} # 7.9: your trebuchet under construction, {siege.PRICE} shillings;",
                      f"#    count: 1             #   2: a second for {siege.PRICE} more. Unpaid, the siege lifts"]
    return lines


def lift_unpaid(state: FiefState, board: Board) -> list[Event]:
    """The end of the Purchase phase (the core's `purchase_end` hook): 7.9's unpaid trebuchets."""
    return siege.lift_unpaid(state)


CONSTRUCT = PurchaseVerb(keys=(VERB, "count"), read=read, try_order=try_order, act=act, describe=describe,
                         template=template)
