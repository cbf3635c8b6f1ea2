"""Resolving the `diplomacy:` orders of a mail (F), before anything else of the phase (H.2:
playing a diplomacy pawn is primary), player by player in turn order (H.3).

- gifts of deniers: free and public (A.6: the treasury is public);
- messages: relayed to the sender and the addressees only; a private one spends a pawn (F:
  "generate a private talk"), one to all is free; with public diplomacy (I.3) no pawn is used;
- exchanges: both players' orders must mirror each other; the first of the two in turn order
  spends a pawn; the two see the cards, the others only that an exchange took place.
Orders were checked against the view when the mail came; what changed since (a gift spent,
a pawn spent, a card played) is refused here with a typed `diplomacy_refused` event.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from pbem.games.fief.cards_phase import HAND_LIMIT, card_name
from pbem.games.fief.diplomacy_orders import pays_exchange, public_diplomacy
from pbem.games.fief.state import FiefState
from pbem.rules.api import Audience, Event


def resolve_diplomacy(state: FiefState, orders: Mapping[str, Any]) -> list[Event]:
    given = {p: (o or {}).get("diplomacy") for p, o in orders.items() if p in state.families}
    if not any(given.values()):
        return []
    events: list[Event] = []
    order = state.turn_order()
    for player in order:
        mine = given.get(player) or {}
        for gift in mine.get("give", []):
            events.append(_give(state, player, gift))
        for message in mine.get("messages", []):
            events.extend(_message(state, player, message))
    done: set[frozenset] = set()
    for player in order:
        for ex in (given.get(player) or {}).get("exchanges", []):
            pair = frozenset((player, ex["with"]))
            if pair not in done:
                done.add(pair)
                events.extend(_exchange(state, player, ex, given.get(ex["with"]) or {}))
    return events


def _refused(player: str, why: str, audience: Audience | None = None) -> Event:
    return Event("diplomacy_refused", f"Diplomacy of {player} refused: {why}.",
                 audience or Audience.only(player), {"player": player, "reason": why})


def _live(state: FiefState, player: str) -> bool:
    return player in state.families and not state.families[player].eliminated


def _give(state: FiefState, player: str, gift: dict) -> Event:
    fam, to, n = state.families[player], gift["to"], int(gift["deniers"])
    if not _live(state, to):
        return _refused(player, f"{to} is no longer in the game, so no deniers go to them")
    if n > fam.deniers:
        return _refused(player, f"{n} deniers to give to {to} but only {fam.deniers} left",
                        Audience.everyone())   # A.6: the treasury is public
    fam.deniers -= n
    state.families[to].deniers += n
    return Event("diplomacy_gift", f"{player} gives {n} deniers to {to} (F).", Audience.everyone(),
                 {"from": player, "to": to, "deniers": n})


def _spend_pawn(state: FiefState, player: str) -> bool:
    """F: one pawn per private talk or exchange; I.3: the pawns are not used."""
    if public_diplomacy(state.options):
        return True
    fam = state.families[player]
    if fam.diplomacy_pawns <= 0:
        return False
    fam.diplomacy_pawns -= 1
    return True


def _message(state: FiefState, player: str, message: dict) -> list[Event]:
    to, text = message["to"], message["text"]
    if to == "all":
        return [Event("diplomacy_message", f"Message from {player} to all: {text}", Audience.everyone(),
                      {"from": player, "to": "all", "text": text})]
    to = [p for p in to if _live(state, p)]
    if not to:
        return [_refused(player, "no addressee of your message is still in the game")]
    if not _spend_pawn(state, player):
        return [_refused(player, "no diplomacy pawn left for a private message (F)")]
    names = ", ".join(to)
    # The text only to those in the talk; the others see that a talk took place (at the
    # table they see the players step aside) and, unless I.3, the pawn spent.
    return [Event("diplomacy_message", f"Message from {player} to {names}: {text}",
                  Audience.only(player, *to), {"from": player, "to": list(to), "text": text}),
            Event("diplomacy_talk", f"{player} holds a private talk with {names}"
                  + ("." if public_diplomacy(state.options) else " (a diplomacy pawn spent, F)."),
                  Audience.everyone(), {"from": player, "to": list(to)})]


def _exchange(state: FiefState, player: str, ex: dict, theirs: dict) -> list[Event]:
    partner = ex["with"]
    match = next((e for e in theirs.get("exchanges", []) if e["with"] == player), None)
    both = Audience.only(player, partner)
    if match is None or Counter(match["give"]) != Counter(ex["take"]) or Counter(match["take"]) != Counter(ex["give"]):
        return [_refused(player, f"no exchange with {partner}: the two orders do not give and take "
                         "the same cards", both)]
    mine, other = state.families[player].hand, state.families[partner].hand
    if Counter(ex["give"]) - Counter(mine) or Counter(match["give"]) - Counter(other):
        return [_refused(player, f"no exchange with {partner}: a card to give is no longer in hand", both)]
    for hand, out, into in ((mine, ex["give"], ex["take"]), (other, match["give"], match["take"])):
        if len(hand) - len(out) + len(into) > HAND_LIMIT:
            return [_refused(player, f"no exchange with {partner}: a hand would exceed {HAND_LIMIT} cards (F)",
                             both)]
    payer = pays_exchange(state.turn_order(), player, partner)
    if not _spend_pawn(state, payer):
        return [_refused(player, f"no exchange with {partner}: {payer} has no diplomacy pawn left (F)", both)]
    for card in ex["give"]:
        mine.remove(card)
        other.append(card)
    for card in match["give"]:
        other.remove(card)
        mine.append(card)

    def names(cards: list[str]) -> str:
        return ", ".join(card_name(c) for c in cards) or "nothing"
    return [Event("diplomacy_exchange", f"{player} gives {partner} {names(ex['give'])}; {partner} gives "
                  f"{player} {names(match['give'])} (F).", both,
                  {"players": [player, partner], "cards": {player: ex["give"], partner: match["give"]}}),
            Event("diplomacy_exchange_public", f"{player} and {partner} exchange cards "
                  f"({len(ex['give'])} for {len(match['give'])}"
                  + (")." if public_diplomacy(state.options) else f"; {payer} spends a diplomacy pawn, F)."),
                  Audience.everyone(), {"players": [player, partner], "payer": payer})]
