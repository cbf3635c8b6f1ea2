"""6.2 Invader landings: in each Region with an INVASION card, in Region Number order, one
Battle Die is rolled; each 'f' lands one Invader army (its Leader and 5 Foot Soldiers) in the
Region's Port City, as long as armies are available (Ex 6-1: never more than 4 on the map).
No 'f' is a false alarm. Either way the card is then discarded (R82). Round 1's INVASION cards
stay at sea until round 2, and so does one in a Region with STORMS, until a round without
(2.5, 6.2, R12). In a Region with the PLAGUE the landed army suffers it at once (6.2).

The armies land in their fixed order (the lowest available number first, R82). Landing is not a
Move (R11): the landed army's turn comes in step C (moves.py)."""
from __future__ import annotations

from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief_england.compass import Compass
from pbem.games.fief_england.invaders.armies import army_name, available, new_army, numbers, on_map, record
from pbem.games.fief_england.invaders.plague import plague_strikes
from pbem.games.fief_england.invaders.regions import INVASION, PLAGUE, STORMS, region_of, struck
from pbem.rules.api import Event
from pbem.rules.rng import Rng

BATTLE_DIE = (0, 1, 1, 2, 2, 3)   # 7.1: blank, f, f, ff, ff, fff (edition.yaml dice.battle_die)


def held_at_sea(state: FiefState, effect: BoardEffect) -> bool:
    """8.0, R12: an INVASION card still on the board at the End of Round is one STORMS (or round
    1) held at sea: it stays there for the next round's landings, not discarded with the other
    disasters (version 3; a game of version 2 discarded it)."""
    return state.rules_version >= 3 and effect.card == INVASION


def land(state: FiefState, compass: Compass, rng: Rng) -> list[Event]:
    events: list[Event] = []
    cards = sorted((r, i, e) for i, e in enumerate(state.board_effects)
                   if e.card == INVASION and (r := region_of(e)) is not None)
    for region, _, card in cards:
        label, port = compass.region_label(region), compass.ports[region]
        if state.round <= 1:      # 2.4, 2.5, 6.2: "Round 1 INVASIONS are delayed until Round 2"
            events.append(Event("invasion_delayed", f"The INVASION on Sea {label} stays at sea: round 1's "
                                "invasions land in round 2 (6.2).", data={"region": region, "why": "round 1"}))
            continue
        if region in struck(state, STORMS):   # 6.2: STORMS delay the invasion; no die is rolled
            events.append(Event("invasion_delayed", f"STORMS hold the INVASION on Sea {label} at sea until a round "
                                "without STORMS there (6.2).", data={"region": region, "why": "storms"}))
            continue
        hits = rng.die(BATTLE_DIE, f"invasion of region {label}")   # 6.2: one Battle Die
        state.board_effects.remove(card)
        state.events_discard.append(card.card)
        room = numbers().on_map - len(on_map(state))
        landing = available(state)[:min(hits, room)]
        face = "a blank" if not hits else "'" + "f" * hits + "'"
        if not hits:
            events.append(Event("invasion_false_alarm", f"The INVASION on Sea {label} rolls {face}: a false alarm, "
                                "the card is discarded (6.2).", data={"region": region, "roll": hits}))
            continue
        if not landing:
            events.append(Event("invasion_none_left", f"The INVASION on Sea {label} rolls {face}, but no Invader "
                                f"army is left to land (Ex 6-1): the card is discarded (6.2).",
                                data={"region": region, "roll": hits}))
            continue
        armies = "1 Invader army lands" if len(landing) == 1 else f"{len(landing)} Invader armies land"
        events.append(Event("invasion_landed", f"The INVASION on Sea {label} rolls {face}: {armies} "
                            f"in {port} ({', '.join(landing)})"
                            + (f"; only {len(landing)} of {hits} could (Ex 6-1: at most {numbers().on_map} on the map)"
                               if len(landing) < hits else "") + " (6.2).",
                            data={"region": region, "roll": hits, "port": port, "armies": landing}))
        rec = record(state)
        for army_id in landing:
            rec["armies"][army_id] = new_army(port)   # 6.2: 1 Leader and 5 Foot Soldiers
            events.append(Event("invaders_army_landed", f"{army_name(army_id)} lands in {port}: a Leader and "
                                f"{rec['armies'][army_id]['foot']} Foot Soldiers (6.2).",
                                data={"army": army_id, "city": port}))
            if region in struck(state, PLAGUE):       # 6.2: the PLAGUE strikes on landing
                events += plague_strikes(state, army_id, rng)
    return events
