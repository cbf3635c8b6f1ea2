"""The bookkeeping every standing surprise trigger shares (G.4, H.2): where the triggers are
kept (``Family.policies["surprise"]``, private to their owner), the send-time check that the
trigger's card is in hand, and what firing one does: the trigger is removed, its card (if any)
leaves the hand for the events discard pile even if the effect then fails (H.2), and the owner
alone is told which of their triggers fired.
"""
from __future__ import annotations

from typing import Any

from pbem.orders.reading import Problems
from pbem.games.fief.state import FiefState
from pbem.rules.api import Audience, Event

KEY = "surprise"


def triggers_of(state: FiefState, player: str, kind: str) -> list[dict[str, Any]]:
    """The player's standing triggers of one kind, in the order they wrote them."""
    return [t for t in state.families[player].policies.get(KEY) or [] if t.get("trigger") == kind]


def lacks_card(view: dict, card: str, where: int | None, problems: Problems,
               text: str | None = None) -> bool:
    """At send time: is the trigger's card missing from the sender's hand? Then the error
    (by default "you hold no CARD card for this trigger") shows the hand."""
    hand = view.get("hand") or []
    if card in hand:
        return False
    problems.add(where, text or f"you hold no {card} card for this trigger",
                 "your hand: " + (", ".join(hand) or "empty"))
    return True


def spend_trigger(state: FiefState, player: str, trigger: dict[str, Any], card: str | None,
                  what: str) -> Event:
    """Remove a fired trigger and discard its card (H.2); the owner's private notice."""
    family = state.families[player]
    family.policies[KEY] = [t for t in family.policies.get(KEY) or [] if t is not trigger]
    if card is not None:   # an events card (uprising, underground); at-once plays: surprise/play.py
        family.hand.remove(card)
        state.events_discard.append(card)
    return Event("trigger_fired", f"Your surprise trigger fired: {what}.", Audience.only(player),
                 {"player": player, "trigger": trigger})
