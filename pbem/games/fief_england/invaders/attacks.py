"""6.4-6.6: what an Invader army does in the city it stands in or reaches. It attacks each
family's Troops there, one family after the other in turn order, as long as it outnumbers them
(6.4, Ex 6-3: nobles, bombards and trebuchets are not counted, R15; against a fortress it must
also roll a melee die, R14). At the first family it does not outnumber, or does not defeat, it
stops fighting there (6.8). No battle in a Region with STORMS (2.5).

When no family's Troops are left there (none were, or all were defeated): lone nobles are
captured (7.5), and the city's Mill and Stronghold are destroyed (6.5, R10); a Fortified City is
taken instead, and its fiefdom's title is lost (6.6): the strongest Invader army there stays in
it for good. The city is then controlled by no family."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import crown
from pbem.games.fief_england.church import abbeys, relics
from pbem.games.fief_england.compass import Compass
from pbem.games.fief_england.invaders.armies import army_name, in_city, record, strength, troops
from pbem.games.fief_england.invaders.battle import fight, fortress_of, may_attack
from pbem.games.fief_england.invaders.captives import capture
from pbem.games.fief_england.invaders.passage import Lending, into_fortress
from pbem.rules.api import Event
from pbem.rules.rng import Rng

CLEARED, STOPPED = "cleared", "stopped"


def engage(state: FiefState, board: Board, compass: Compass, city: str, mover: str, storms: set[int],
           rng: Rng, lent: Lending | None = None) -> tuple[str, list[Event]]:
    """CLEARED: no family's troop is left in the city; STOPPED: the army stays beside them.
    ``lent``: the PASSAGE orders waiting to aid the Invaders against a fortress (10.2, R146)."""
    events: list[Event] = []
    defenders = troops(state, city)
    if defenders and compass.region[city] in storms:
        events.append(Event("invaders_no_battle", f"No battle in {city}: STORMS rage over the Region (2.5).",
                            data={"city": city}))
        return STOPPED, events
    for family in [f for f in state.turn_order() if defenders.get(f)]:
        passage = False
        fortress = fortress_of(state, city, family)
        # 10.2 "Aid Invaders": a PASSAGE lent, where the Invaders outnumber the fortress's Troops
        if lent and lent.waiting and fortress and may_attack(state, city, family, passage=True) is None:
            passage, told = into_fortress(state, lent, mover, city, family,
                                          "Fortified City" if fortress == "city" else "Stronghold")
            events += told
        why = may_attack(state, city, family, passage=passage)
        if why is not None:    # 6.4, Ex 6-4: they ignore the troops (and move on if they can)
            events.append(Event("invaders_no_attack", f"{army_name(mover)} does not attack {family} in {city}: "
                                f"{why}.", data={"army": mover, "city": city, "family": family}))
            return STOPPED, events
        events.append(Event("invaders_attack", f"{army_name(mover)} attacks {family}'s {defenders[family]} Troops "
                            f"in {city} (6.4).", data={"army": mover, "city": city, "family": family}))
        fought = fight(state, board, city, family, mover, rng, passage)
        events += fought.events
        if not fought.won or not in_city(state, city):
            return STOPPED, events
    return CLEARED, events + take_city(state, board, compass, city, mover)


def take_city(state: FiefState, board: Board, compass: Compass, city: str, mover: str) -> list[Event]:
    events: list[Event] = []
    armies = record(state)["armies"]
    captor = mover if armies[mover]["leader"] else next((a for a in in_city(state, city) if armies[a]["leader"]), None)
    for lord in [l for l in state.lords.values() if l.location == city and not l.captive_of]:
        if captor is not None:    # 7.5, R84: nobles alone in a city are captured by an opposing army
            events += capture(state, captor, lord.name)
    town = state.towns[city]
    lost: list[str] = []
    if town.mills:                # 6.5, R10
        lost.append("mill")
        town.mills = 0
    if town.fortress == "stronghold":
        lost.append("stronghold")
        town.fortress = None
    if lost:
        record(state)["destroyed"].append({"round": state.round, "city": city, "what": lost})
        events.append(Event("invaders_destroy", f"The Invaders destroy the {' and the '.join(lost)} of {city} (6.5).",
                            data={"city": city, "what": lost, "army": mover}))
    if "stronghold" in lost:   # 4.9, R10: the Royal Stronghold too
        events += crown.royal_destroyed(state, board, city, "the Invaders (6.5)")
    if abbeys.abbey_in(state, city) is not None:   # R10, 2.13: the Abbey too (its Abbess may rebuild)
        events += abbeys.destroy(state, city, "the Invaders, 6.5")
    if relics.KEY in state.edition_state:   # R10, 12.0: a relic lying there is revealed and removed
        events += relics.invaders_take(state, city)
    if town.fortress == "city":
        events += _take_fortified_city(state, board, compass, city)
    if town.controller is not None:
        events.append(Event("invaders_hold_city", f"{town.controller} no longer controls {city}: the Invaders hold "
                            "it (6.4).", data={"city": city, "family": town.controller}))
    town.controller = None        # R87: no family controls a city the Invaders hold
    town.arrivals = []
    return events


def _take_fortified_city(state: FiefState, board: Board, compass: Compass, city: str) -> list[Event]:
    """6.6, R87: the Fiefdom's title is lost, its card back to the deck (the fiefdom ungoverned);
    the strongest Invader army there stays in the Fortified City and never moves out again."""
    armies = record(state)["armies"]
    here = in_city(state, city)
    if any(armies[a]["holds"] for a in here):
        return []
    keeper = max(here, key=lambda a: (strength(armies[a]), -int(a)))
    armies[keeper]["holds"] = True
    fief = board.towns[city].fief
    holder = state.fief_titles.get(fief)
    events = [Event("invaders_take_fortified_city", f"{army_name(keeper)} takes the Fortified City of {city} and "
                    "will never move out of it (6.6).", data={"army": keeper, "city": city, "fief": fief})]
    if holder:
        lord = state.lords.get(holder)
        if lord is not None and fief in lord.fief_titles:
            lord.fief_titles.remove(fief)
        state.fief_titles[fief] = None
        state.governed[fief] = False
        events.append(Event("invaders_title_lost", f"{holder} loses the title of the {board.fiefs[fief].name} "
                            "and its Victory Point: the title card goes back to the deck until the Fortified "
                            f"City of {city} is retaken (6.6).",
                            data={"lord": holder, "family": lord.family if lord else None, "fief": fief}))
    return events
