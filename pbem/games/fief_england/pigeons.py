"""Carrier pigeons (E 2.15, 9.0; rulings R27, R42, R47), England's in place of France's diplomacy
pawns: three a family for the whole game, sent at any time, so by mail an at-once order (R41;
the hooks' ``at_once_verbs``), done when the judge reads the mail:

    at_once:
      - pigeon: Henri          # your noble who sends it (not a captive)
        to: Anabel             # another family's noble
        shillings: 2           # any number (optional)
        cards: [good weather]  # cards of your hand (optional); between cities at most one
        message: "..."         # same City only: information (the sender's words, to the two)
        take_shillings: 1      # same City only: an exchange offer, done by the mirror order (R101)
        take_cards: [tax]

- both nobles in the same City: any number of shillings and cards, no die (R27); married allies
  there need no pigeon at all (9.0);
- in different Cities: both nobles in a Stronghold, a Fortified City or an Abbey, one card and/or
  shillings; the d6 (the seeded ``Rng``): a 6 (the record's ``dice: pigeon_lost``) and it goes
  astray: the card is discarded unshown, the shillings stay with the sender;
- a pigeon that would leave the receiver's hand above its limit is refused whole (R47);
- whatever the result the pigeon leaves the game.
Who learns what (R42): everyone, that a pigeon flew between the two nobles and whether it arrived
(the die is public); what it carried, the sender and, if it arrived, the receiver only.

State: ``edition_state["pigeons"] = {"spent": {player: pigeons spent}, "offers": [exchanges offered
in one City, waiting for the mirror order]}`` (absent: none).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.cards.effects import discard_face_down
from pbem.games.fief.cards.orders import card_id
from pbem.games.fief.cards.phase import card_name, is_character
from pbem.games.fief.diplomacy.orders import MAX_TEXT
from pbem.games.fief.edition import edition_of, edition_of_view
from pbem.games.fief.hooks import AtOnceVerb
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.board_loader import EnglandBoard
from pbem.games.fief_england.movement import sherwood
from pbem.games.fief_england.movement.sherwood import KING_OR_QUEEN
from pbem.games.fief_england.movement.waters import waters_of
from pbem.orders.reading import Problems, check_keys, suggest
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Audience, Event, Said
from pbem.rules.rng import Rng

KEY = "pigeons"


def pigeons_left(state: FiefState, player: str) -> int:
    """2.15: "3 per Player" for the whole game (the record's ``supply.carrier_pigeons``)."""
    spent = ((state.edition_state.get(KEY) or {}).get("spent") or {}).get(player, 0)
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


def _amount(item: dict, key: str, line: int | None, problems: Problems) -> int | None:
    value = item.get(key, 0)
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    problems.add(line_of(item, key) or line, f"`{key}: {value}` must be a whole number, 0 or more",
                 f"e.g. `{key}: 2`")
    return None


def _cards(view: dict, item: dict, key: str, line: int | None, problems: Problems) -> list[str] | None:
    given = item.get(key) or []
    names = given if isinstance(given, list) else [given]
    cards = load_cards(view["game"])
    ids = [card_id(cards, n) for n in names]
    bad = [n for n, c in zip(names, ids, strict=True) if c is None]
    if bad:
        problems.add(line_of(item, key) or line, f"`{bad[0]}` is not a card",
                     f"name cards as in your report, e.g. `{key}: [good weather]`")
        return None
    return [c for c in ids if c is not None]   # every one, after the check above


def _message(item: dict, line: int | None, problems: Problems) -> str | None:
    text = item.get("message")
    if text is None:
        return ""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        problems.add(line_of(item, "message") or line, f"the message must be some text of at most {MAX_TEXT} "
                     "characters", 'write it after `message:` in quotes')
        return None
    return text


def check_pigeon(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("pigeon", "to", "shillings", "cards", "message", "take_shillings", "take_cards"),
               "a pigeon order", problems)
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
    parts = (_amount(item, "shillings", line, problems), _cards(view, item, "cards", line, problems),
             _message(item, line, problems), _amount(item, "take_shillings", line, problems),
             _cards(view, item, "take_cards", line, problems))
    if any(p is None for p in parts):
        return None
    shillings, cards, text, take_shillings, take_cards = parts
    order = {"from": sender, "to": receiver, "shillings": shillings, "cards": cards, "message": text,
             "take_shillings": take_shillings, "take_cards": take_cards}
    missing = Counter(cards) - Counter(view.get("hand") or [])
    why = ((f"you do not hold {', '.join(missing)}", "send only cards of your hand") if missing
           else _why_not(view, player, order))
    if why:
        problems.add(line, why[0], why[1])
        return None
    return order


def _why_not(view: dict, player: str, order: dict) -> tuple[str, str] | None:
    """Why this pigeon may not fly now (problem, fix), from a view (the mail's) or from the state
    (``_state_view``, as it is resolved)."""
    lords, s, r = view["lords"], view["lords"][order["from"]], view["lords"][order["to"]]
    other, families = r["family"], view["families"]
    if not (order["shillings"] or order["cards"] or order["message"] or _takes(order)):
        return "this pigeon carries nothing", "give `shillings:`, `cards:` or both"
    if s["captive_of"] or r["captive_of"]:
        return (f"{order['from'] if s['captive_of'] else order['to']} is a captive: no pigeon reaches or "
                "leaves a captive (2.15, R99)", "send it between free nobles")
    if not s["location"] or not r["location"]:
        return "both nobles must be on the map", "send it to a noble on the map"
    if order["shillings"] > families[player]["deniers"]:
        return (f"you have {families[player]['deniers']} shillings, not {order['shillings']}",
                "send fewer shillings")
    limit = edition_of_view(view).hand_limit
    for who, gets, gives in ((other, order["cards"], order["take_cards"]),
                             (player, order["take_cards"], order["cards"])):
        after = families[who]["hand_size"] + len(gets) - len(gives)
        if after > limit:   # R47: the whole exchange refused
            return (f"{who} would hold {after} cards, more than {limit} (2.15, R47)", "exchange fewer cards")
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
        if _takes(order) or order["message"]:
            return ("a pigeon between two Cities carries one way, a card and/or shillings only (2.15)",
                    "leave out `take_shillings:`, `take_cards:` and `message:`, or meet in one City")
    if view["pigeons"]["left"][player] <= 0:
        return "your family has no carrier pigeon left (3 for the game, 2.15)", "exchange in person instead"
    return None


def _takes(order: dict) -> bool:
    return bool(order["take_shillings"] or order["take_cards"])


def _allied_view(lords: dict, a: str, b: str) -> bool:
    return any(l["family"] == a and l["spouse"] in lords and lords[l["spouse"]]["family"] == b
               for l in lords.values())


def _state_view(state: FiefState) -> dict:
    """What ``_why_not`` reads, from the state as it is now."""
    return {"game": state.variant,
            "lords": {n: {"family": l.family, "captive_of": l.captive_of, "location": l.location,
                          "spouse": l.spouse} for n, l in state.lords.items()},
            "families": {p: {"deniers": f.deniers, "hand_size": len(f.hand)} for p, f in state.families.items()},
            **view(state)}


def _mirror(order: dict) -> dict:
    return {"from": order["to"], "to": order["from"], "shillings": order["take_shillings"],
            "cards": sorted(order["take_cards"]), "take_shillings": order["shillings"],
            "take_cards": sorted(order["cards"])}


def _same(a: dict, b: dict) -> bool:
    return all(a[k] == b[k] for k in ("from", "to", "shillings", "take_shillings")) \
        and sorted(a["cards"]) == sorted(b["cards"]) and sorted(a["take_cards"]) == sorted(b["take_cards"])


def send_pigeon(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    sender, receiver = state.lords.get(order["from"]), state.lords.get(order["to"])
    if sender is None or receiver is None or sender.family != player:
        gone = order["from"] if sender is None or sender.family != player else order["to"]
        return [_refused(player, f"{gone} is no longer in play")]
    other = receiver.family
    if Counter(order["cards"]) - Counter(state.families[player].hand):
        return [_refused(player, "a card to send is no longer in your hand")]
    why = _why_not(_state_view(state), player, order)
    if why:
        return [_refused(player, why[0])]
    if _takes(order):
        return _offer_or_exchange(state, player, other, order)
    return _fly(state, player, other, order, rng)


def _price_order(sender: str, receiver: str, shillings: int) -> dict:
    return {"from": sender, "to": receiver, "shillings": shillings, "cards": [], "message": "",
            "take_shillings": 0, "take_cards": []}


def price_problem(view: dict, player: str, sender: str, receiver: str, shillings: int) -> tuple[str, str] | None:
    """Why ``shillings`` agreed as a price (e.g. 11.1's rent "(2.15)") may not go now from the
    player's noble ``sender`` to another family's ``receiver`` by 2.15's rules: (problem, fix)."""
    return _why_not(view, player, _price_order(sender, receiver, shillings))


def pay_price(state: FiefState, player: str, sender: str, receiver: str, shillings: int,
              rng: Rng) -> tuple[bool, list[Event]] | str:
    """An agreed price sent as a pigeon would carry it (2.15, 9.0, R27, R42): refused (the reason),
    or whether the shillings arrived (a pigeon lost on a 6 leaves them with the sender) and the
    events, the amount told to the two families only."""
    why = price_problem(_state_view(state), player, sender, receiver, shillings)
    if why:
        return why[0]
    events = _fly(state, player, state.lords[receiver].family, _price_order(sender, receiver, shillings), rng)
    return not any(e.kind == "pigeon_lost_cargo" for e in events), events


def _offer_or_exchange(state: FiefState, player: str, other: str, order: dict) -> list[Event]:
    """2.15 "In the Same City, any number of Shillings and Cards can be exchanged": by mail an
    offer, kept until the other family sends the mirror order (R101), as France's card exchanges."""
    offers = _offers(state)
    theirs = next((o for o in offers if _same(o, _mirror(order))), None)
    offers[:] = [o for o in offers if not (o["from"] == order["from"] and o["to"] == order["to"])]
    both = Audience.only(player, other)
    if theirs is None:
        offers.append({k: order[k] for k in ("from", "to", "shillings", "cards", "take_shillings", "take_cards")})
        return [Event("pigeon_offer", f"{order['from']} ({player}) offers {order['to']} ({other}) an exchange: "
                      f"{_carried(state, order['shillings'], order['cards'])} for "
                      f"{_carried(state, order['take_shillings'], order['take_cards'])}. It is done when {other} "
                      "sends the mirror pigeon order (2.15).", both, {"from": order["from"], "to": order["to"]},
                      _said(player, order))]
    offers.remove(theirs)
    back = state.families[other]
    if theirs["shillings"] > back.deniers or Counter(theirs["cards"]) - Counter(back.hand):
        return [_refused(player, f"{other} no longer holds what they offered", both)]
    offerer = state.lords[theirs["from"]].family
    if not allied(state, player, other):
        _spend(state, offerer)                    # the offerer's pigeon carried the exchange
    _deliver(state, player, other, order["shillings"], order["cards"])
    _deliver(state, other, player, theirs["shillings"], theirs["cards"])
    told = (f"{theirs['from']} ({offerer}) and {theirs['to']} exchange in {state.lords[order['from']].location}: "
            f"{_carried(state, order['shillings'], order['cards'])} to {other}, "
            f"{_carried(state, theirs['shillings'], theirs['cards'])} to {player} (2.15).")
    return [Event("pigeon_carried", told, both, {"from": order["from"], "to": order["to"], "carried": told},
                  _said(player, order)),
            Event("pigeon_sent", f"{other} and {player} exchange by carrier pigeon in "
                  f"{state.lords[order['from']].location}: {offerer} spends the pigeon (2.15, R27).",
                  Audience.everyone(), {"players": [other, player], "payer": offerer, "arrived": True})]


def _offers(state: FiefState) -> list[dict]:
    return state.edition_state.setdefault(KEY, {}).setdefault("offers", [])


def _spend(state: FiefState, player: str) -> None:
    spent = state.edition_state.setdefault(KEY, {}).setdefault("spent", {})
    spent[player] = spent.get(player, 0) + 1       # 2.15: "removed from the game" whatever the result


def _said(player: str, order: dict) -> Said | None:
    # The player's words travel as `said`, never inside the judge's sentence.
    return Said(player, order["message"]) if order.get("message") else None


def _fly(state: FiefState, player: str, other: str, order: dict, rng: Rng) -> list[Event]:
    sender, receiver, fam = state.lords[order["from"]], state.lords[order["to"]], state.families[player]
    both = Audience.only(player, other)
    what = _carried(state, order["shillings"], order["cards"])
    public = _public(order, player, other)
    if sender.location == receiver.location and allied(state, player, other):
        _deliver(state, player, other, order["shillings"], order["cards"])   # 9.0: no pigeon between allies
        return [Event("allies_exchange", f"{order['from']} gives {order['to']} {what} in {sender.location} "
                      "(allies, 9.0).", both, {**public, "carried": what}, _said(player, order)),
                Event("allies_exchange_public", f"{player} and {other}, allies, exchange in {sender.location} (9.0).",
                      Audience.everyone(), public)]
    _spend(state, player)
    flight = f"{order['from']} ({player}) sends a carrier pigeon to {order['to']} ({other})"
    if sender.location == receiver.location:      # R27: in one City, no die
        _deliver(state, player, other, order["shillings"], order["cards"])
        return [Event("pigeon_carried", f"{flight}: {what} (2.15).", both, {**public, "carried": what},
                      _said(player, order)),
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
    _deliver(state, player, other, order["shillings"], order["cards"])
    return [Event("pigeon_carried", f"{flight}: {what} (2.15).", both, {**public, "carried": what}),
            Event("pigeon_sent", f"{flight} from {sender.location} to {receiver.location}: rolls {roll}, "
                  "it arrives (2.15).", Audience.everyone(), {**public, "roll": roll, "arrived": True})]


def _public(order: dict, player: str, other: str) -> dict:
    return {"from": order["from"], "to": order["to"], "players": [player, other]}


def _carried(state: FiefState, shillings: int, cards: list[str]) -> str:
    parts = [f"{shillings} shilling(s)"] if shillings else []
    parts += [card_name(state.variant, c) for c in cards]
    return " and ".join(parts) or "nothing"


def _deliver(state: FiefState, player: str, other: str, shillings: int, cards: list[str]) -> None:
    giver, taker = state.families[player], state.families[other]
    giver.deniers -= shillings
    taker.deniers += shillings
    for card in cards:
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


def _refused(player: str, why: str, audience: Audience | None = None) -> Event:
    return Event("pigeon_refused", f"The carrier pigeon of {player} does not fly: {why}.",
                 audience or Audience.only(player),
                 {"player": player, "reason": why})


def check_interdiction(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    """13.4 "King's Interdiction": "the King or Queen can spend one of their Carrier Pigeons to have
    a Captive of their choice immediately set free" (a captive of Sherwood's bandits)."""
    check_keys(item, ("interdiction", "by"), "an interdiction order", problems)
    noble, by = item.get("interdiction"), item.get("by")
    royal = sorted(n for n, l in view["lords"].items() if l["family"] == player and l["political"] in KING_OR_QUEEN)
    held = [c["noble"] for c in view.get("sherwood") or []]
    if by not in royal:
        problems.add(line_of(item, "by") or line, f"`{by}` is not your family's King or Queen",
                     f"name {royal[0]}" if royal else "only the King or Queen frees a captive so (13.4)")
        return None
    if noble not in held:
        problems.add(line, f"`{noble}` is not a captive of the bandits",
                     suggest(str(noble), held) if held else "the bandits hold no one")
        return None
    if view["pigeons"]["left"][player] <= 0:
        problems.add(line, "your family has no carrier pigeon left (3 for the game, 2.15)", "pay the ransom instead")
        return None
    return {"noble": noble, "by": by}


def interdiction(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    why = sherwood.interdiction_problem(state, order["by"], order["noble"])
    if why is None and pigeons_left(state, player) <= 0:
        why = "your family has no carrier pigeon left (2.15)"
    if why:
        return [_refused(player, why)]
    _spend(state, player)   # 13.4: one of their Carrier Pigeons, removed from the game (2.15)
    return sherwood.interdiction(state, board, waters_of(EnglandBoard.of(board)), order["by"], order["noble"])


PIGEON = AtOnceVerb(check=check_pigeon, act=send_pigeon, template=(
    ("- pigeon: YOUR_NOBLE", "a carrier pigeon (2.15): to another family's noble"),
    ("  to: THEIR_NOBLE", "same City: any shillings and cards, no die"),
    ("  shillings: 0", "between Strongholds, Fortified Cities, Abbeys:"),
    ("  cards: [CARD]", "one card, lost on a 6"),
    ("  take_cards: [CARD]", "same City: an exchange, done by their mirror"),
))
VERBS = {"pigeon": PIGEON, "interdiction": AtOnceVerb(check=check_interdiction, act=interdiction, template=(
    ("- interdiction: CAPTIVE", "the King or Queen frees a captive of the bandits"),
    ("  by: KING_OR_QUEEN", "with a carrier pigeon (13.4)")))}
