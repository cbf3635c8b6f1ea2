"""Mercenary crossbowmen lent or rented to another family (E 11.1, l.746: "A Player can lend or rent
their Mercenaries, in whole or in part, to other Players. One just needs to agree on a price
(2.15)"; rulings R141-R144). By mail two at-once orders (R41), an offer and its acceptance, as
the game's other exchanges between families (R101, R110):

    at_once:
      - lend_crossbowmen: 2      # the owner of a MERCENARY card: 2 of the crossbowmen on it ...
        to: bob                  #   ... to this family, for this round (11.1, R141)
        price: 3                 #   optional: the rent in shillings (none or 0: lent free)
        paid_to: Henri           #   with a price: your noble the borrower's pigeon flies to (2.15)
      - borrow_crossbowmen: ann  # the borrower accepts ann's offer ...
        paid_by: Hugh            #   with a price: your noble who sends it (2.15, R142)
        in: Oxford               #   optional: hire them at once into this city, 2 shillings each

- The offer is told to the two families only (the count and the price: shillings are secret); a
  new offer to the same family replaces it; it lapses at the End of Round.
- On acceptance the price goes as 2.15 carries shillings (``pigeons.pay_price``, R142): in one
  City for one of the borrower's pigeons and no die, nothing between married allies there (9.0);
  between two Strongholds, Fortified Cities or Abbeys by a pigeon that is lost on a 6 — the
  shillings stay with the borrower, no crossbowmen change hands and the offer still stands
  (2.15: "you or the other Player may decide to send another Carrier Pigeon"). A loan (no price)
  needs no pigeon.
- Then the crossbowmen leave the lender's card, lent to the borrower for the round (public: the
  cards and their crossbowmen lie face up; the price is not told). The borrower hires them as its
  own troops (R143: for 11.1's 2 shillings each, paid by the borrower), with the `in:` above,
  the at-once `hire:` order or the battle plan's `hire_crossbowmen` (``hired.hire``). At the End
  of Round they all return to the lender's card, hired or not; those defeated go to the
  stockpile and a card with none left is discarded (11.1, ``hired.end_of_round``); the lender's
  card discarded takes them off the map with it (11.1's last line, R144).

State: the lending on the card (``hired``: ``edition_state["mercenaries"][card]["lent"]``) and
the offers waiting in ``edition_state["crossbowmen_offers"]`` = [{lender, borrower, count,
price, paid_to}].
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.hooks import AtOnceVerb
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import hired, pigeons
from pbem.orders.reading import Problems, check_keys, fold, suggest, whole_number
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

KEY = hired.LOAN_OFFERS


def _offers(state: FiefState) -> list[dict[str, Any]]:
    return state.edition_state.setdefault(KEY, [])


def _men(count: int) -> str:
    return f"{count} crossbowm{'a' if count == 1 else 'e'}n"


def _terms(price: int) -> str:
    return f"for {price} shilling(s)" if price else "free"


def lend_problem(state: FiefState, lender: str, borrower: str, count: int, price: int,
                 paid_to: str | None) -> str | None:
    if not str(hired.card_on(state, lender) or "").startswith("mercenary"):
        return "you have no MERCENARY card on your family board (11.1)"
    if borrower not in state.families or state.player_of(borrower) == state.player_of(lender):
        return f"{borrower} is not another player's family (11.1: lent \"to other Players\")"
    if count > hired.available(state, lender):
        return f"only {hired.available(state, lender)} crossbowmen lie on your MERCENARY card (11.1)"
    lord = state.lords.get(paid_to or "")
    if price and (lord is None or lord.family != lender):
        return f"{paid_to} is not a noble of your family in play: the price is sent to one (2.15)"
    return None


def lend(state: FiefState, lender: str, borrower: str, count: int, price: int,
         paid_to: str | None) -> list[Event] | str:
    """11.1: the card's owner offers ``count`` of its crossbowmen to ``borrower`` for the round,
    at ``price`` (0: a loan); waits for ``accept``. Told to the two families only."""
    why = lend_problem(state, lender, borrower, count, price, paid_to)
    if why:
        return why
    offers = _offers(state)
    offers[:] = [o for o in offers if not (o["lender"] == lender and o["borrower"] == borrower)]
    offers.append({"lender": lender, "borrower": borrower, "count": count, "price": price,
                   "paid_to": paid_to if price else None})
    sent = f", sent to {paid_to}" if price else ""
    return [Event("crossbowmen_offered", f"{lender} offers {borrower} {_men(count)} of its "
                  f"{hired.card_name(hired.card_on(state, lender) or '')} card for this round, {_terms(price)}{sent}; "
                  f"{borrower} accepts with `borrow_crossbowmen: {lender}` (11.1).",
                  Audience.only(*sorted({lender, borrower})),
                  {"lender": lender, "borrower": borrower, "count": count, "price": price})]


def accept(state: FiefState, borrower: str, lender: str, paid_by: str | None, city: str | None,
           rng: Rng) -> list[Event] | str:
    """11.1: the borrower takes the offer: the price by 2.15's rules (R142), then the crossbowmen
    lent for the round (R141), hired at once into ``city`` if given (R143)."""
    offer = next((o for o in state.edition_state.get(KEY) or [] if o["lender"] == lender and o["borrower"] == borrower),
                 None)
    if offer is None:
        return f"no offer of crossbowmen from {lender} to you is waiting"
    count, price = offer["count"], offer["price"]
    if hired.available(state, lender) < count or not str(hired.card_on(state, lender) or "").startswith("mercenary"):
        return f"{lender}'s MERCENARY card no longer holds the {_men(count)} offered (11.1)"
    cost = price + (count * hired.price(state) if city else 0)
    if state.families[borrower].deniers < cost:
        return f"you have {state.families[borrower].deniers} shillings, not the {cost} this needs (11.1)"
    both = Audience.only(*sorted({lender, borrower}))
    events: list[Event] = []
    if price:
        payer, payee = state.lords.get(paid_by or ""), state.lords.get(offer["paid_to"])
        if payer is None or payer.family != borrower:
            return f"name a noble of yours in play to send the {price} shilling(s) (`paid_by:`, 2.15)"
        if payee is None or payee.family != lender:
            return f"{offer['paid_to']}, to whom the price was to go, is no longer {lender}'s noble in play"
        paid = pigeons.pay_price(state, borrower, paid_by or "", offer["paid_to"], price, rng)
        if isinstance(paid, str):
            return paid
        arrived, events = paid
        if not arrived:   # 2.15: the shillings stay with the sender; another pigeon may follow
            return events + [Event("crossbowmen_not_lent", f"The price for {lender}'s crossbowmen went astray: "
                                   f"none are lent; the offer still stands (11.1, 2.15).", both,
                                   {"lender": lender, "borrower": borrower})]
    _offers(state).remove(offer)
    if not _offers(state):
        state.edition_state.pop(KEY)
    card = hired.card_on(state, lender) or ""
    merc = state.edition_state[hired.MERCENARIES][card]
    merc["on_card"] -= count
    lent = merc.setdefault("lent", {})
    lent[borrower] = lent.get(borrower, 0) + count
    events += [Event("crossbowmen_rented", f"{borrower} takes {_men(count)} from {lender}'s card for this round, "
                     f"{_terms(price)} (11.1).", both,
                     {"lender": lender, "borrower": borrower, "count": count, "price": price}),
               Event("crossbowmen_lent", f"{lender} lends {_men(count)} of its {hired.card_name(card)} card to "
                     f"{borrower} for this round (11.1).", data={"lender": lender, "borrower": borrower,
                                                                 "count": count})]
    if city:
        done = hired.hire(state, borrower, count, city, from_card=card)
        events += done if isinstance(done, list) else [_refused(borrower, "borrow_crossbowmen", done)]
    return events


def offers_view(state: FiefState, viewer: str | None) -> list[dict[str, Any]]:
    """The offers waiting that the viewer is a party to (the game master: all; at 2 players the
    player of either family, 13.7): the price is the two families' secret."""
    return [dict(o) for o in state.edition_state.get(KEY) or [] if viewer is None
            or state.player_of(viewer) in (state.player_of(o["lender"]), state.player_of(o["borrower"]))]


def lent_view(state: FiefState) -> dict[str, int]:
    """Public: the crossbowmen lent to each family and not yet hired (11.1: they lie face up)."""
    out: dict[str, int] = {}
    for merc in (state.edition_state.get(hired.MERCENARIES) or {}).values():
        for family, n in (merc.get("lent") or {}).items():
            out[family] = out.get(family, 0) + n
    return out


# -- by mail ------------------------------------------------------------------------------------------

def _choose(text: Any, choices: list[str], what: str, line: int | None, problems: Problems) -> str | None:
    found = next((c for c in choices if fold(c) == fold(str(text))), None)
    if found is None:
        problems.add(line, f"{text!r} is not {what}", suggest(str(text), choices) if choices else "")
    return found


def _own_nobles(view: dict, family: str) -> list[str]:
    return sorted(n for n, lo in view["lords"].items() if lo["family"] == family)


def check_lend(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("lend_crossbowmen", "to", "price", "paid_to"), "a lend_crossbowmen order", problems)
    count = whole_number(item["lend_crossbowmen"], line_of(item, "lend_crossbowmen") or line,
                         "lend_crossbowmen", problems)
    price = whole_number(item["price"], line_of(item, "price") or line, "price", problems, low=0) \
        if "price" in item else 0
    if count is None or price is None:
        return None
    if "to" not in item:
        problems.add(line, "say to which family (`to:`)", "write e.g. `to: bob`")
        return None
    owners = view.get("family_players") or {}
    mine = owners.get(player, player)
    others = [f for f in view["families"] if owners.get(f, f) != mine]
    borrower = _choose(item["to"], others, "another player's family (11.1: lent \"to other Players\")",
                       line_of(item, "to") or line, problems)
    paid_to = None
    if not price and "paid_to" in item:
        problems.add(line_of(item, "paid_to") or line, "`paid_to:` names who receives a price, and this "
                     "lending has none", "add `price: N`, or leave out `paid_to:` to lend them free")
        return None
    if price:
        if "paid_to" not in item:
            example = next(iter(_own_nobles(view, player)), "NOBLE")
            problems.add(line, "say which noble of yours receives the price (`paid_to:`): it is sent by "
                         "carrier pigeon (2.15)", f"write e.g. `paid_to: {example}`, or leave out `price:` to "
                         "lend them free")
            return None
        paid_to = _choose(item["paid_to"], _own_nobles(view, player), "a noble of your family",
                          line_of(item, "paid_to") or line, problems)
        if paid_to is None:
            return None
    if borrower is None:
        return None
    church = view.get("church") or {}
    left = (church.get("crossbowmen_on_card") or {}).get(player, 0)
    if not str((church.get("family_card") or {}).get(player) or "").startswith("mercenary"):
        problems.add(line, "you have no MERCENARY card on your family board (11.1)",
                     "play a MERCENARY card first (11.0)")
        return None
    if count > left:
        problems.add(line_of(item, "lend_crossbowmen") or line,
                     f"only {left} crossbowmen lie on your MERCENARY card (11.1)", f"lend at most {left}")
        return None
    return {"to": borrower, "count": count, "price": price, "paid_to": paid_to}


def act_lend(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    done = lend(state, player, order["to"], order["count"], order["price"], order["paid_to"])
    return done if isinstance(done, list) else [_refused(player, "lend_crossbowmen", done)]


def check_borrow(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("borrow_crossbowmen", "paid_by", "in"), "a borrow_crossbowmen order", problems)
    waiting = [o for o in (view.get("church") or {}).get("crossbowmen_offers") or [] if o["borrower"] == player]
    lender = _choose(item["borrow_crossbowmen"], [o["lender"] for o in waiting],
                     "a family whose offer of crossbowmen to you is waiting",
                     line_of(item, "borrow_crossbowmen") or line, problems)
    if lender is None:
        return None
    offer = next(o for o in waiting if o["lender"] == lender)
    paid_by = city = None
    if not offer["price"] and "paid_by" in item:
        problems.add(line_of(item, "paid_by") or line, f"{lender} lends them free: there is no price to send",
                     "leave out `paid_by:`")
        return None
    if offer["price"]:
        if "paid_by" not in item:
            problems.add(line, f"say which noble of yours sends the {offer['price']} shilling(s) (`paid_by:`): "
                         "they go by carrier pigeon (2.15)", "write e.g. `paid_by: "
                         + next(iter(_own_nobles(view, player)), "NOBLE") + "`")
            return None
        paid_by = _choose(item["paid_by"], _own_nobles(view, player), "a noble of your family",
                          line_of(item, "paid_by") or line, problems)
        if paid_by is None:
            return None
        payee = view["lords"].get(offer["paid_to"])
        if payee is None or payee["family"] != lender:   # slain or gone since the offer (as ``accept``)
            problems.add(line_of(item, "borrow_crossbowmen") or line,
                         f"{offer['paid_to']}, to whom the price was to go, is no longer {lender}'s noble in play",
                         f"ask {lender} to offer them again, with a noble in play to receive the price")
            return None
        why = pigeons.price_problem(view, player, paid_by, offer["paid_to"], offer["price"])
        if why:
            problems.add(line_of(item, "paid_by") or line, why[0], why[1])
            return None
    if "in" in item:
        city = _choose(item["in"], sorted(view["towns"]), "a city", line_of(item, "in") or line, problems)
        if city is None:
            return None
        each = int(load_edition(view["game"]).extra["hired_units"][hired.UNIT]["price"])   # 11.1
        money, cost = view["families"][player].get("deniers", 0), offer["price"] + offer["count"] * each
        if money < cost:
            problems.add(line_of(item, "in") or line, f"the price and the hire of {_men(offer['count'])} cost "
                         f"{cost} shillings (11.1: {each} each); you have {money}",
                         "leave out `in:` and hire them later with `hire:`")
            return None
    return {"lender": lender, "paid_by": paid_by, "in": city}


def act_borrow(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    done = accept(state, player, order["lender"], order["paid_by"], order["in"], rng)
    return done if isinstance(done, list) else [_refused(player, "borrow_crossbowmen", done)]


def _refused(family: str, what: str, why: str) -> Event:
    return Event("order_void", f"Your {what} order is void: {why}.", Audience.only(family),
                 {"player": family, "order": what})


VERBS = {
    "lend_crossbowmen": AtOnceVerb(check_lend, act_lend, (
        ("- lend_crossbowmen: N", "from your MERCENARY card, this round (11.1)"),
        ("  to: FAMILY", ""), ("  price: 0", "the rent; with one: `paid_to: YOUR_NOBLE`"))),
    "borrow_crossbowmen": AtOnceVerb(check_borrow, act_borrow, (
        ("- borrow_crossbowmen: FAMILY", "accept its offer (11.1)"),
        ("  paid_by: YOUR_NOBLE", "with a price: sent by pigeon (2.15)"),
        ("  in: CITY", "optional: hire them at once, 2 each"))),
}
