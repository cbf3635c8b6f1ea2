"""Doing one player's `diplomacy:` at once (F: "at any time during the game"), as soon as the
judge accepts their mail (pbem.rules.api.ActsAtOnce): first the gifts and messages, in the
order written, then the exchanges.

- gifts of deniers: free and public (A.6: the treasury is public);
- messages: told to the sender and the addressees only; a private one spends a pawn (F:
  "generate a private talk"), one to all is free; with public diplomacy (I.3) no pawn is used;
- exchanges: an exchange order is an offer to the partner, kept in the state
  (``FiefState.exchange_offers``, seen by the two players only) until the partner sends the
  mirror order — the cards then move at once — or it is replaced, withdrawn, or the round
  ends (7). The first of the two in turn order spends the pawn; the two see the cards, the
  others only that an exchange took place.
The mail was checked against the sender's view a moment ago, but an offer waits for its
answer: what changed since (a card played, a pawn spent) is refused with a typed
`diplomacy_refused` event, never raised.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from pbem.games.fief.cards.phase import card_name
from pbem.games.fief.edition import edition_of
from pbem.games.fief.diplomacy.orders import pays_exchange, public_diplomacy
from pbem.games.fief.state import FiefState
from pbem.rules.api import Audience, Event, Said


def act_diplomacy(state: FiefState, player: str, orders: Mapping[str, Any]) -> list[Event]:
    events: list[Event] = []
    for gift in orders.get("give", []):
        events.append(_give(state, player, gift))
    for message in orders.get("messages", []):
        events.extend(_message(state, player, message))
    for ex in orders.get("exchanges", []):
        events.extend(_exchange(state, player, ex))
    return events


def _refused(player: str, why: str, audience: Audience | None = None) -> Event:
    return Event("diplomacy_refused", f"Diplomacy of {player} refused: {why}.",
                 audience or Audience.only(player), {"player": player, "reason": why})


def _live(state: FiefState, player: str) -> bool:
    return player in state.families and not state.families[player].eliminated


def _give(state: FiefState, player: str, gift: dict) -> Event:
    fam, to, n = state.families[player], gift["to"], int(gift["deniers"])
    coins = edition_of(state).coins   # the edition's money (`money.unit`)
    if not _live(state, to):
        return _refused(player, f"{to} is no longer in the game, so no {edition_of(state).coin_plural} go to them")
    if n > fam.deniers:
        # A.6 (France): the treasury is public; an edition keeping it secret tells the giver only
        return _refused(player, f"{coins(n)} to give to {to} but only {fam.deniers} left",
                        Audience.everyone() if edition_of(state).money_public else None)
    fam.deniers -= n
    state.families[to].deniers += n
    return Event("diplomacy_gift", f"{player} gives {coins(n)} to {to} (F).", Audience.everyone(),
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
    # The player's words travel as `said`, never inside the judge's sentence: every mail shows
    # them quoted and attributed line by line (pbem.judge.render.said_lines).
    to, said = message["to"], Said(player, message["text"])
    if to == "all":
        return [Event("diplomacy_message", f"Message from {player} to all:", Audience.everyone(),
                      {"from": player, "to": "all"}, said)]
    to = [p for p in to if _live(state, p)]
    if not to:
        return [_refused(player, "no addressee of your message is still in the game")]
    if not _spend_pawn(state, player):
        return [_refused(player, "no diplomacy pawn left for a private message (F)")]
    names = ", ".join(to)
    # The text only to those in the talk; the others see that a talk took place (at the
    # table they see the players step aside) and, unless I.3, the pawn spent.
    return [Event("diplomacy_message", f"Message from {player} to {names}:",
                  Audience.only(player, *to), {"from": player, "to": list(to)}, said),
            Event("diplomacy_talk", f"{player} holds a private talk with {names}"
                  + ("." if public_diplomacy(state.options) else " (a diplomacy pawn spent, F)."),
                  Audience.everyone(), {"from": player, "to": list(to)})]


def _names(state: FiefState, cards: list[str]) -> str:
    return ", ".join(card_name(state.variant, c) for c in cards) or "nothing"


def _exchange(state: FiefState, player: str, ex: dict) -> list[Event]:
    partner = ex["with"]
    both = Audience.only(player, partner)
    if not _live(state, partner):
        return [_refused(player, f"no exchange with {partner}: they are no longer in the game")]
    offers = state.exchange_offers
    theirs = next((o for o in offers if o["from"] == partner and o["with"] == player), None)
    mine = next((o for o in offers if o["from"] == player and o["with"] == partner), None)
    if mine is not None:
        offers.remove(mine)              # a new exchange order with the same partner replaces the offer
    if not ex["give"] and not ex["take"]:
        return [Event("diplomacy_offer_withdrawn", f"{player} withdraws the card exchange offered to "
                      f"{partner} (F).", both, {"from": player, "with": partner})]
    if theirs is not None and Counter(theirs["give"]) == Counter(ex["take"]) \
            and Counter(theirs["take"]) == Counter(ex["give"]):
        offers.remove(theirs)
        return _swap(state, partner, player, theirs["give"], ex["give"])
    offers.append({"from": player, "with": partner, "give": list(ex["give"]), "take": list(ex["take"])})
    return [Event("diplomacy_offer", f"{player} offers {partner} a card exchange: {player} gives "
                  f"{_names(state, ex['give'])} and takes {_names(state, ex['take'])}. It is done as soon as "
                  f"{partner} sends the mirror order (it stands until the end of the round) (F).", both,
                  {"from": player, "with": partner, "give": list(ex["give"]), "take": list(ex["take"])})]


def _swap(state: FiefState, first: str, second: str, first_gives: list[str], second_gives: list[str]) -> list[Event]:
    """``first`` offered, ``second`` answered with the mirror order: the cards move now."""
    both = Audience.only(first, second)
    hands = {first: state.families[first].hand, second: state.families[second].hand}
    gives = {first: first_gives, second: second_gives}
    if any(Counter(gives[p]) - Counter(hands[p]) for p in hands):
        return [_refused(second, f"no exchange with {first}: a card to give is no longer in hand", both)]
    limit = edition_of(state).hand_limit   # F: "a player's hand cannot exceed 3 cards"
    for p, other in ((first, second), (second, first)):
        if len(hands[p]) - len(gives[p]) + len(gives[other]) > limit:
            return [_refused(second, f"no exchange with {first}: a hand would exceed {limit} cards (F)", both)]
    payer = pays_exchange(state.turn_order(), first, second)
    if not _spend_pawn(state, payer):
        return [_refused(second, f"no exchange with {first}: {payer} has no diplomacy pawn left (F)", both)]
    for p, other in ((first, second), (second, first)):
        for card in gives[p]:
            hands[p].remove(card)
            hands[other].append(card)
    return [Event("diplomacy_exchange", f"{first} gives {second} {_names(state, first_gives)}; {second} gives "
                  f"{first} {_names(state, second_gives)} (F).", both,
                  {"players": [first, second], "cards": {first: first_gives, second: second_gives}}),
            Event("diplomacy_exchange_public", f"{first} and {second} exchange cards "
                  f"({len(first_gives)} for {len(second_gives)}"
                  + (")." if public_diplomacy(state.options) else f"; {payer} spends a diplomacy pawn, F)."),
                  Audience.everyone(), {"players": [first, second], "payer": payer})]
