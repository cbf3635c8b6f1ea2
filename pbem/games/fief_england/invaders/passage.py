"""PASSAGE lent to the Invaders (E 10.2: "A Player may even help Invaders move if they choose";
"Aid Invaders: A Player can help Invaders attacking other Players who are defending a Stronghold
or Fortified City"; 6.4: "Invaders may take advantage of a PASSAGE Card (10.1) provided by another
Player"; ruling R146). The Invaders phase runs between mails, so by mail the lender decides in the
Invaders phase's own mail, before any compass marker is drawn (orders.py):

    orders:
      - passage: storms     # one Move of an Invader army through STORMS (into, out of or within)
        army: 2             # optional: only Invader army 2 (default: the first army STORMS hold)
      - passage: tunnels    # the Invaders attacking another family's Stronghold or Fortified City
        army: 2             #   ignore its melee penalty (7.4), and attack it even where the penalty
        against: bob        #   would leave them no melee die (R14); `against:` optional
        by: burgher         # optional: the BURGHER's Secret Routes and a Treasure (11.2, 11.3)

Each order is played once, at the first moment it makes a difference: `storms` as an army is
about to draw a Move and STORMS close its city or a road out of it (R80) - the card is spent
before the draw, whatever road the draw then takes; `tunnels` as an army is about to attack a
family's fortress whose Troops it outnumbers (6.4), never the lender's own. 10.2's other movement
uses have nothing to do for the Invaders: they never ask leave to pass (6.4), are never besieged,
and move by road only (R16: no naval move). Played, it is public (the card and what it did);
unused it lapses, told to its player alone, and the card stays in hand.

The card belongs to the cards part, which imports this package: how a PASSAGE is held (on the
view) and spent (the hand's, or a BURGHER and a Treasure marker) reach the Invaders phase as the
``Card`` given to its step (``invaders/step.py`` ``invaders_step``; the wiring module
``pbem/games/fief_england/lent_passage.py`` gives the cards part's ``held`` and ``use_passage``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.compass import Compass
from pbem.games.fief_england.invaders.armies import army_name
from pbem.rules.api import Audience, Event

USES = {"storms": "storms", "tunnels": "aid_invaders"}   # the order's word -> 10.2's use (cards part)
CARD, BURGHER = "card", "burgher"                         # where the PASSAGE comes from (10.2, 11.2)


@dataclass(frozen=True)
class Card:
    """The cards part's PASSAGE: ``held(view, player, by)`` -> (plays left, why none, how to fix);
    ``spend(state, player, use, by)`` -> (spent?, events)."""

    held: Callable[[Mapping[str, Any], str, str], tuple[int, str, str]]
    spend: Callable[[FiefState, str, str, str], tuple[bool, list[Event]]]


@dataclass
class Lent:
    """A PASSAGE order waiting for its moment (R146)."""

    player: str
    use: str              # "storms" | "tunnels"
    army: str | None
    against: str | None = None
    by: str = "card"


@dataclass
class Lending:
    """The phase's PASSAGE orders still waiting, and the card that spends them."""

    card: Card | None
    waiting: list[Lent] = field(default_factory=list)


def lending_from(state: FiefState, orders: Mapping[str, Any], card: Card | None) -> Lending:
    return Lending(card, [Lent(player, o["use"], o.get("army"), o.get("against"), o.get("by") or CARD)
                          for player in state.turn_order() for o in (orders.get(player) or {}).get("passage") or []])


def stormy(compass: Compass, city: str, storms: set[int]) -> bool:
    """STORMS hold a Move out of ``city``: its Region, or a Region a road leads to (2.5, R80)."""
    return compass.region[city] in storms or any(compass.region[to] in storms
                                                 for to in compass.roads_out(city).values())


def through_storms(state: FiefState, lending: Lending, army_id: str, city: str) -> tuple[bool, list[Event]]:
    """10.2 "Move in STORMS": the first waiting `storms` order for this army plays its PASSAGE: the
    army's next Move is drawn as if no STORMS were on the map. (played?, events)"""
    return _play(state, lending, lambda lent: lent.use == "storms" and lent.army in (None, army_id), army_id,
                 f"{army_name(army_id)} may take one Move from {city} through the STORMS (10.2, R146)")


def into_fortress(state: FiefState, lending: Lending, army_id: str, city: str, family: str,
                  where: str) -> tuple[bool, list[Event]]:
    """10.2 "Aid Invaders": the first waiting `tunnels` order for this army against ``family`` (never
    the lender's own fortress) plays its PASSAGE: no melee penalty for the Invaders (7.4)."""
    return _play(state, lending, lambda lent: (lent.use == "tunnels" and lent.army in (None, army_id)
                                               and lent.player != family and lent.against in (None, family)),
                 army_id, f"the Invaders attack {family}'s {where} in {city} through the tunnels: no melee "
                 "penalty (10.2, 7.4, R146)")


def _play(state: FiefState, lending: Lending, fits, army_id: str, what: str) -> tuple[bool, list[Event]]:
    events: list[Event] = []
    card = lending.card
    if card is None:
        return False, events
    for lent in [x for x in lending.waiting if fits(x)]:
        lending.waiting.remove(lent)
        spent, told = card.spend(state, lent.player, USES[lent.use], lent.by)
        events += told
        if spent:
            return True, events + [Event("passage_lent", f"{lent.player} lends the Invaders a PASSAGE: {what}.",
                                         data={"player": lent.player, "use": lent.use, "army": army_id,
                                               "by": lent.by})]
    return False, events


def lapsed(lending: Lending) -> list[Event]:
    why = {"storms": "no Invader army's Move was held by STORMS",
           "tunnels": "the Invaders attacked no other family's Stronghold or Fortified City"}
    return [Event("invaders_order_lapsed", f"Your `passage: {lent.use}` order"
                  + (f" for {army_name(lent.army)}" if lent.army else "") + f" was not used: {why[lent.use]} "
                  "(R146); nothing was spent.", Audience.only(lent.player),
                  data={"player": lent.player, "kind": "passage", "use": lent.use, "army": lent.army})
            for lent in lending.waiting]
