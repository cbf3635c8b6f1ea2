"""The two titles of the Purchase Phase that are not fief titles bought outright:

- the king's privilege (4.4, D.3.1, 7): once a round the king, or the regent queen when there
  is no king, may offer an ungoverned fief title to a player able to purchase it, who then
  pays nothing. By mail the king's family orders `- offer_title: FIEF` + `to: PLAYER`; the
  whole phase's orders are known when it resolves, so the offer is read before anyone's
  purchases and stands whatever the turn order; the beneficiary's own `- title:` order takes
  it. The privilege is used only when the title is actually given.
- the single cardinal title for sale (4.5), bought by the cardinal card's rules (G.4.1.2):
  any bishop in play, even captive or another family's, the pope's leave asked by his
  standing `new_cardinal` policy (D.2.3).

These helpers read plain view entries (dicts) where they can, so the same rule serves the
check of a mail (against the sender's view) and the resolution (against the state).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event

def privilege_lord(lords: Mapping[str, Mapping[str, Any]], privileged: tuple[str, ...]) -> str | None:
    """The lord holding the privilege to offer a fief title (4.4): the first of the edition's
    ``privileged`` titles in play (its `privileged` hook; France: the king, else the regent
    queen, 1.5.3: a regent queen is no longer regent once a king is elected). A captive or
    offshore king keeps it: neither 4.4 nor D.3.1 restricts it (ruling)."""
    for title in privileged:
        found = next((n for n, l in lords.items() if l["political"] == title), None)
        if found:
            return found
    return None


def cardinal_target_problem(lord: Mapping[str, Any]) -> str | None:
    """G.4.1.2 (4.5 follows it): any bishop in play, even captive, even another family's."""
    if not lord["bishopric"]:
        return "only a bishop may become a cardinal (G.4.1.2, D.2.2)"
    if lord["cardinal"]:
        return "he is a cardinal already (D: one cardinal title per lord)"
    return None


def cardinal_title_holder(state: FiefState) -> str | None:
    """Who holds the bought cardinal tile (4.5), or None when it is for sale. The tile comes
    back to the sale when its cardinal leaves play (D.4) or loses the title (excommunication,
    D.2.3.1); a lord of the same name made cardinal later by a card (his card on the frieze)
    holds that card's tile, not this one."""
    name = state.cardinal_title
    lord = state.lords.get(name) if name else None
    if lord is None or not lord.cardinal or state.frieze.get(lord.name) == "cardinal":
        return None
    return name


def cardinal_title_view(state: FiefState) -> dict[str, Any] | None:
    """Public (the tile lies on the board or above a lord card); None in an edition without
    cardinals (its `cardinals` hook)."""
    if not edition_of(state).hooks.cardinals:
        return None
    holder = cardinal_title_holder(state)
    return {"for_sale": holder is None, "holder": holder, "price": edition_of(state).price("cardinal_title")}


def buy_cardinal_title(state: FiefState, board: Board, player: str, lord_name: str) -> list[Event]:
    """Done after the checks (purchase.Ledger): the bishop becomes a cardinal like a card-made one
    (``Lord.cardinal``: votes, tithe, calming uprisings); the tile goes above his card."""
    lord = state.lords[lord_name]
    assert lord.bishopric is not None   # the checks: only a bishop buys the title (4.5)
    lord.cardinal = True
    state.cardinal_title = lord_name
    whose = "" if lord.family == player else f" of {lord.family}"
    price = edition_of(state).price("cardinal_title")   # 4.5
    return [Event("cardinal_title_bought", f"{player} buys the cardinal title for {price} deniers: "
                  f"{lord_name}{whose}, bishop of {board.bishoprics[lord.bishopric].name}, becomes a cardinal "
                  "(4.5, G.4.1.2).", data={"player": player, "lord": lord_name, "family": lord.family,
                                           "deniers": price})]


@dataclass
class Offer:
    """The king's (regent queen's) offer of one fief title this round (4.4)."""

    lord: str          # the king or the regent queen
    family: str        # who ordered it
    fief: str
    to: str            # the beneficiary player
    done: bool = False   # taken, or void: nothing more to say about it

    def who(self, state: FiefState) -> str:
        title = "king" if state.lords[self.lord].political == "king" else "regent queen"
        return f"the {title} {self.lord} ({self.family})"


def offer_announced(state: FiefState, board: Board, offer: Offer) -> Event:
    who = offer.who(state)
    return Event("title_offer", f"{who[0].upper()}{who[1:]} offers the title of the "
                 f"{board.fiefs[offer.fief].name} to {offer.to} (4.4).",
                 data={"lord": offer.lord, "family": offer.family, "fief": offer.fief, "to": offer.to})


def offer_taken(state: FiefState, board: Board, offer: Offer) -> Event:
    """4.4: "flip the king title to its 'privilege used' side up" (back at the End of Round, 7)."""
    offer.done = True
    state.king_offer_used = True
    return Event("king_privilege_used", f"{offer.to} takes the offered title of the "
                 f"{board.fiefs[offer.fief].name} for nothing: {offer.who(state)} has used the privilege "
                 "this round (4.4).", data={"lord": offer.lord, "fief": offer.fief, "to": offer.to})


def offer_void(state: FiefState, board: Board, offer: Offer, why: str) -> Event:
    """4.4: a title is offered only "to a player able to purchase it"; otherwise nothing is
    offered, and the privilege stays unused."""
    offer.done = True
    return Event("title_offer_void", f"The offer of the {board.fiefs[offer.fief].name} title to {offer.to} "
                 f"is void: {why}; {offer.who(state)} keeps the privilege unused (4.4).",
                 data={"lord": offer.lord, "fief": offer.fief, "to": offer.to})
