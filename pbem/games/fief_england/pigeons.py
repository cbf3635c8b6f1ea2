"""Carrier pigeons (E 2.15, 9.0; rulings R27, R42, R47), England's in place of France's diplomacy
pawns: three a family for the whole game, sent at any time, so by mail an at-once order (R41;
the hooks' ``at_once_verbs``), done when the judge reads the mail:

    at_once:
      - pigeon: Henri          # your noble who sends it (not a captive)
        to: Anabel             # another family's noble
        shillings: 2           # any number (optional)
        cards: [good weather]  # cards of your hand (optional); between cities at most one

- both nobles in the same City: any number of shillings and cards, no die (R27); married allies
  there need no pigeon at all (9.0);
- in different Cities: both nobles in a Stronghold, a Fortified City or an Abbey, one card and/or
  shillings; the d6 (the seeded ``Rng``): a 6 (the record's ``dice: pigeon_lost``) and it goes
  astray: the card is discarded unshown, the shillings stay with the sender;
- a pigeon that would leave the receiver's hand above its limit is refused whole (R47);
- whatever the result the pigeon leaves the game.
Who learns what (R42): everyone, that a pigeon flew between the two nobles and whether it arrived
(the die is public); what it carried, the sender and, if it arrived, the receiver only.

State: ``edition_state["pigeons"] = {player: pigeons spent}`` (absent: none spent).
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.cards.effects import discard_face_down
from pbem.games.fief.cards.orders import card_id
from pbem.games.fief.cards.phase import card_name, is_character
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.hooks import AtOnceVerb
from pbem.games.fief.state import FiefState
from pbem.orders.reading import Problems, check_keys, suggest
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

KEY = "pigeons"


def pigeons_left(state: FiefState, player: str) -> int:
    """2.15: "3 per Player" for the whole game (the record's ``supply.carrier_pigeons``)."""
    spent = (state.edition_state.get(KEY) or {}).get(player, 0)
    return edition_of(state).extra["supply.carrier_pigeons"] - spent


def posts(state: FiefState) -> list[str]:
    """2.15: the Cities a pigeon flies between: a Stronghold, a Fortified City (the core's
    ``Town.fortress``, the Royal Stronghold among them) or an Abbey (``edition_state["abbeys"]``,
    the Church part's, keyed by city)."""
    abbeys = state.edition_state.get("abbeys") or {}
    return sorted(t for t, town in state.towns.items() if town.fortress or t in abbeys)


def allied(state: FiefState, a: str, b: str) -> bool:
    """9.0: two families joined by a marriage (a noble of one is the spouse of a noble of the other)."""
    return any(l.family == a and l.spouse and state.lords[l.spouse].family == b
               for l in state.lords.values() if l.spouse in state.lords)


def view(state: FiefState) -> dict[str, Any]:
    """Public: the pigeons each family has left (at the table, markers off the game) and where
    pigeons fly."""
    return {"pigeons": {"left": {p: pigeons_left(state, p) for p in state.players}, "posts": posts(state)}}


def _amount(item: dict, line: int | None, problems: Problems) -> int | None:
    value = item.get("shillings", 0)
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    problems.add(line_of(item, "shillings") or line, f"`shillings: {value}` must be a whole number, 0 or more",
                 "e.g. `shillings: 2`")
    return None


def _cards(view: dict, item: dict, line: int | None, problems: Problems) -> list[str] | None:
    given = item.get("cards") or []
    names = given if isinstance(given, list) else [given]
    cards = load_cards(view["game"])
    ids = [card_id(cards, n) for n in names]
    bad = [n for n, c in zip(names, ids, strict=True) if c is None]
    if bad:
        problems.add(line_of(item, "cards") or line, f"`{bad[0]}` is not a card",
                     "name cards as in your report, e.g. `cards: [good weather]`")
        return None
    hand = list(view.get("hand") or [])
    for c in ids:
        if c not in hand:
            problems.add(line_of(item, "cards") or line, f"you do not hold {c}", "send only cards of your hand")
            return None
        hand.remove(c)
    return [c for c in ids if c is not None]


def check_pigeon(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("pigeon", "to", "shillings", "cards"), "a pigeon order", problems)
    lords = view["lords"]
    mine = sorted(n for n, l in lords.items() if l["family"] == player)
    theirs = sorted(n for n, l in lords.items() if l["family"] != player)
    sender, receiver = item.get("pigeon"), item.get("to")
    if sender not in mine:
        problems.add(line, f"`{sender}` is not a noble of your family", suggest(str(sender), mine))
        return None
    if receiver not in theirs:
        problems.add(line_of(item, "to") or line, f"`{receiver}` is not another family's noble",
                     suggest(str(receiver), theirs))
        return None
    shillings, cards = _amount(item, line, problems), _cards(view, item, line, problems)
    if shillings is None or cards is None:
        return None
    order = {"from": sender, "to": receiver, "shillings": shillings, "cards": cards}
    why = _why_not(view, player, order)
    if why:
        problems.add(line, why[0], why[1])
        return None
    return order


def _why_not(view: dict, player: str, order: dict) -> tuple[str, str] | None:
    """Why this pigeon may not fly now (problem, fix), from a view (the mail's) or from the state
    (``view_of``, as it is resolved)."""
    lords, s, r = view["lords"], view["lords"][order["from"]], view["lords"][order["to"]]
    other = r["family"]
    if not order["shillings"] and not order["cards"]:
        return "this pigeon carries nothing", "give `shillings:`, `cards:` or both"
    if s["captive_of"] or r["captive_of"]:
        return (f"{order['from'] if s['captive_of'] else order['to']} is a captive: no pigeon reaches or "
                "leaves a captive (2.15)", "send it between free nobles")
    if not s["location"] or not r["location"]:
        return "both nobles must be on the map", "send it to a noble on the map"
    if order["shillings"] > view["families"][player]["deniers"]:
        return (f"you have {view['families'][player]['deniers']} shillings, not {order['shillings']}",
                "send fewer shillings")
    hand_after = view["families"][other]["hand_size"] + len(order["cards"])
    limit = load_edition(view["game"]).hand_limit
    if hand_after > limit:   # R47: the whole exchange refused
        return (f"{other} would hold {hand_after} cards, more than {limit} (2.15, R47)", "send fewer cards")
    if s["location"] == r["location"]:
        if _allied_view(lords, player, other):
            return None      # 9.0: married allies in one City exchange freely
    else:
        where = view["pigeons"]["posts"]
        away = [n for n in (order["from"], order["to"]) if lords[n]["location"] not in where]
        if away:
            return (f"{away[0]} is in {lords[away[0]]['location']}, not in a Stronghold, Fortified City or "
                    "Abbey: a pigeon between two Cities flies only between those (2.15)",
                    "send it when both nobles are in one, or in the same City")
        if len(order["cards"]) > 1:
            return "a pigeon between two Cities carries at most 1 card (2.15)", "send one card"
    if view["pigeons"]["left"][player] <= 0:
        return "your family has no carrier pigeon left (3 for the game, 2.15)", "exchange in person instead"
    return None


def _allied_view(lords: dict, a: str, b: str) -> bool:
    return any(l["family"] == a and l["spouse"] in lords and lords[l["spouse"]]["family"] == b
               for l in lords.values())


def _state_view(state: FiefState, player: str) -> dict:
    """What ``_why_not`` reads, from the state as it is now."""
    return {"game": state.variant,
            "lords": {n: {"family": l.family, "captive_of": l.captive_of, "location": l.location,
                          "spouse": l.spouse} for n, l in state.lords.items()},
            "families": {p: {"deniers": f.deniers, "hand_size": len(f.hand)} for p, f in state.families.items()},
            **view(state)}


def send_pigeon(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    sender, receiver = state.lords.get(order["from"]), state.lords.get(order["to"])
    if sender is None or receiver is None or sender.family != player:
        gone = order["from"] if sender is None or sender.family != player else order["to"]
        return [_refused(player, f"{gone} is no longer in play")]
    fam, other = state.families[player], receiver.family
    if any(order["cards"].count(c) > fam.hand.count(c) for c in order["cards"]):
        return [_refused(player, "a card to send is no longer in your hand")]
    why = _why_not(_state_view(state, player), player, order)
    if why:
        return [_refused(player, why[0])]
    both = Audience.only(player, other)
    what = _carried(state, order)
    if sender.location == receiver.location and allied(state, player, other):
        _deliver(state, player, other, order)   # 9.0: no pigeon between allies in one City
        return [Event("allies_exchange", f"{order['from']} gives {order['to']} {what} in {sender.location} "
                      "(allies, 9.0).", both, {**_public(order, player, other), "carried": what}),
                Event("allies_exchange_public", f"{player} and {other}, allies, exchange in {sender.location} (9.0).",
                      Audience.everyone(), _public(order, player, other))]
    spent = state.edition_state.setdefault(KEY, {})
    spent[player] = spent.get(player, 0) + 1       # 2.15: "removed from the game" whatever the result
    public = _public(order, player, other)
    flight = f"{order['from']} ({player}) sends a carrier pigeon to {order['to']} ({other})"
    if sender.location == receiver.location:      # R27: in one City, no die
        _deliver(state, player, other, order)
        return [Event("pigeon_carried", f"{flight}: {what} (2.15).", both, {**public, "carried": what}),
                Event("pigeon_sent", f"{flight} in {sender.location}: it arrives (2.15, R27).",
                      Audience.everyone(), {**public, "arrived": True})]
    roll = rng.d6(f"carrier pigeon of {player} (2.15)")
    if roll in edition_of(state).extra["dice"]["pigeon_lost"]:
        for card in order["cards"]:   # R42: discarded unshown; the shillings stay with the sender
            fam.hand.remove(card)
            _discard_unshown(state, card)
        return [Event("pigeon_lost_cargo", f"Your carrier pigeon to {order['to']} is lost: {what} "
                      + ("is discarded" if order["cards"] else "stays with you")
                      + (", your shillings stay with you" if order["cards"] and order["shillings"] else "")
                      + " (2.15).", Audience.only(player), {**public, "carried": what}),
                Event("pigeon_sent", f"{flight} from {sender.location} to {receiver.location}: rolls {roll}, "
                      "it goes astray (2.15).", Audience.everyone(), {**public, "roll": roll, "arrived": False})]
    _deliver(state, player, other, order)
    return [Event("pigeon_carried", f"{flight}: {what} (2.15).", both, {**public, "carried": what}),
            Event("pigeon_sent", f"{flight} from {sender.location} to {receiver.location}: rolls {roll}, "
                  "it arrives (2.15).", Audience.everyone(), {**public, "roll": roll, "arrived": True})]


def _public(order: dict, player: str, other: str) -> dict:
    return {"from": order["from"], "to": order["to"], "players": [player, other]}


def _carried(state: FiefState, order: dict) -> str:
    parts = [f"{order['shillings']} shilling(s)"] if order["shillings"] else []
    parts += [card_name(state.variant, c) for c in order["cards"]]
    return " and ".join(parts)


def _deliver(state: FiefState, player: str, other: str, order: dict) -> None:
    giver, taker = state.families[player], state.families[other]
    giver.deniers -= order["shillings"]
    taker.deniers += order["shillings"]
    for card in order["cards"]:
        giver.hand.remove(card)
        taker.hand.append(card)


def _discard_unshown(state: FiefState, card: str) -> None:
    """R42: a lost card goes to its discard pile without being shown: an event card face down
    (2.3's way); a character card under the character discards (its face shows there only when
    the pile was empty: R46 turns character discards face up anyway)."""
    if is_character(load_cards(state.variant), card):
        state.character_discard.insert(0, card)
    else:
        discard_face_down(state, card)


def _refused(player: str, why: str) -> Event:
    return Event("pigeon_refused", f"Your carrier pigeon does not fly: {why}.", Audience.only(player),
                 {"player": player, "reason": why})


PIGEON = AtOnceVerb(check=check_pigeon, act=send_pigeon, template=(
    ("- pigeon: YOUR_NOBLE", "a carrier pigeon (2.15): to another family's noble"),
    ("  to: THEIR_NOBLE", "same City: any shillings and cards, no die"),
    ("  shillings: 0", "between Strongholds, Fortified Cities, Abbeys:"),
    ("  cards: [CARD]", "one card, lost on a 6"),
))
VERBS = {"pigeon": PIGEON}
