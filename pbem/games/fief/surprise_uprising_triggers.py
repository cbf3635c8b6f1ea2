"""Standing triggers around uprisings (G.4.2.1, G.4.2.2), kept under `policies: surprise:`.

    policies:
      surprise:
        - uprising_at_battle_start: Tours   # a battle starts in Tours: raise an uprising there
          targets: [bob]                    #   optional: the families hit, in order
          underground: yes                  #   optional: also play an underground card against
                                            #   the Fortress penalty
        - underground_in_uprising: Nantes   # an uprising in Nantes would suffer a Fortress
                                            #   penalty: your underground card cancels it

G.4.2.1: "uprising cards may be played at the beginning of a battle to try to weaken one of
the sides". Every player's trigger on the battle's town cumulates into one uprising (H.3: the
first in turn order rolls and chooses), fully resolved before the battle (G.4: a surprise
effect stops the ongoing action); the battle then goes on with what is left.
G.4.2.2: an underground card "at any time ... ignore any Fortress penalty when resolving an
uprising": one card cancels the whole penalty of that uprising.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.orders_common import Problems, check_keys
from pbem.games.fief.state import FiefState
from pbem.games.fief.surprise_standing import lacks_card, spend_trigger, triggers_of
from pbem.games.fief.surprise_uprising import raise_uprising, state_grounds
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

AT_BATTLE = "uprising_at_battle_start"
IN_UPRISING = "underground_in_uprising"


# -- checking (at send time, against the sender's view) -----------------------------------------

def check_uprising_trigger(view: dict, player: str, item: dict, town: str, where: int | None,
                           problems: Problems) -> dict | None:
    """`uprising_at_battle_start: TOWN`: the grounds (a famine, another player's tax) are checked
    when the battle starts, since the cards played later in the round may bring them."""
    from pbem.games.fief.surprise_orders import uprising_targets, yes_no
    check_keys(item, (AT_BATTLE, "targets", "underground"), f"an `{AT_BATTLE}` trigger", problems)
    underground = yes_no(item, "underground", problems)
    if lacks_card(view, "uprising", where, problems):
        return None
    if underground and lacks_card(view, "underground", where, problems,
                                  "you hold no underground card for `underground: yes`"):
        return None
    targets = uprising_targets(view, item, problems)
    return {"trigger": AT_BATTLE, "town": town, "targets": targets, "underground": bool(underground)}


def check_underground_trigger(view: dict, player: str, item: dict, town: str, where: int | None,
                              problems: Problems) -> dict | None:
    check_keys(item, (IN_UPRISING,), f"an `{IN_UPRISING}` trigger", problems)
    if lacks_card(view, "underground", where, problems):
        return None
    return {"trigger": IN_UPRISING, "town": town}


# -- firing ---------------------------------------------------------------------------------

def fire_uprising_triggers(state: FiefState, board: Board, town: str, rng: Rng) -> list[Event]:
    """A battle is about to start in ``town``: every `uprising_at_battle_start` trigger there
    whose player still holds the card and may raise an uprising there fires, all of them into
    one uprising (G.4.2.1 "cumulate"), in turn order (H.3)."""
    cards: list[tuple[str, dict[str, Any]]] = []
    fired: list[Event] = []
    for player in state.turn_order():
        if state.families[player].eliminated:
            continue
        left = Counter(state.families[player].hand)
        for trigger in triggers_of(state, player, AT_BATTLE):
            if trigger["town"] != town or left["uprising"] <= 0 or state_grounds(state, board, player, town):
                continue
            left["uprising"] -= 1
            # raise_uprising takes the card from the hand and discards it; only the trigger goes here.
            fired.append(spend_trigger(state, player, trigger, None,
                                       f"an uprising at the start of the battle in {town}"))
            cards.append((player, {"targets": trigger.get("targets") or [],
                                   "underground": trigger.get("underground", False)}))
    if not cards:
        return []
    events = [Event("battle_uprising", f"As a battle starts in {town}, an uprising breaks out (G.4.2.1): "
                    "it is resolved before the battle.", data={"town": town})]
    return events + fired + raise_uprising(state, board, town, cards, rng)


def underground_for_uprising(state: FiefState, town: str, askers: list[str], penalty: int,
                             events: list[Event]) -> bool:
    """G.4.2.2: is an underground card played to ignore this uprising's Fortress penalty? The
    uprising's own players who asked for it (`underground: yes`, in turn order), else the
    standing `underground_in_uprising` triggers on the town, in turn order; one card is enough."""
    if penalty <= 0:
        for p in askers:
            events.append(Event("card_not_played", f"{p}'s underground card is not needed: no Fortress penalty in "
                                f"{town}; it stays in hand.", Audience.only(p), {"player": p, "card": "underground"}))
        return False
    for i, p in enumerate(askers):
        if "underground" not in state.families[p].hand:
            events.append(Event("card_not_played", f"{p} no longer holds an underground card for the uprising in "
                                f"{town}.", Audience.only(p), {"player": p, "card": "underground"}))
            continue
        state.families[p].hand.remove("underground")
        state.events_discard.append("underground")   # H.2
        events.append(_played(p, town, penalty))
        # A card that stays in hand stays secret: told to its holder only.
        events += [Event("card_not_played", f"{o}'s underground card is not needed: {p}'s cancels the Fortress "
                         "penalty already; it stays in hand.", Audience.only(o), {"player": o, "card": "underground"})
                   for o in askers[i + 1:]]
        return True
    for p in state.turn_order():
        if state.families[p].eliminated or "underground" not in state.families[p].hand:
            continue
        trigger = next((t for t in triggers_of(state, p, IN_UPRISING) if t["town"] == town), None)
        if trigger is not None:
            events.append(_played(p, town, penalty))
            events.append(spend_trigger(state, p, trigger, "underground", f"underground in the uprising in {town}"))
            return True
    return False


def _played(player: str, town: str, penalty: int) -> Event:
    return Event("surprise_played", f"{player} plays an underground card: the uprising in {town} ignores the "
                 f"Fortress penalty ({penalty}) (G.4.2.2).",
                 data={"player": player, "card": "underground", "town": town})
