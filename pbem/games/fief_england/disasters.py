"""England's Disaster cards (E 2.3-2.5, 2.10): the track's cards revealed left to right after
the draws, each placed on the Sea of the Region the first player's d6 names (every result
strikes, R43), a second card of a type already there discarded (2.4); round 1's cards lie on
their Seas without acting and act with round 2's (2.4 l.127, R12).

- PLAGUE: every army in each city of the Region loses half its troops, rounded down (knights,
  men-at-arms, archers, crossbowmen counted together; bombards and trebuchets spared), and every
  noble there rolls a d6, dying on 1-3 - unless in an Abbey (2.13). An army entering the Region
  later rolls the same way once (2.5, R22): ``enter_plague``.
- STORMS: no movement within, into or out of the Region, land and sea, and no battle there
  (``storms_block``, ``storms_forbid_battle``); PASSAGE allows one Move (10.2).
- FAMINE: the Region's mills produce nothing (``famine_in``); a REBELLION may be played there.
- INVADERS: the card lies on the Region's Sea as ``BoardEffect("invaders", numeral)`` until the
  Invaders phase lands its armies (6.2, the Invaders part, pbem/games/fief_england/invaders/),
  which also discards it; this module never removes it.

Where the cards lie: ``FiefState.board_effects`` (``BoardEffect(kind, "I".."VI")``) once they
act; round 1's in ``edition_state["disasters"]["waiting"]`` (public: face up on their Seas).
"""
from __future__ import annotations

from typing import Iterable

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import CardSet
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.hooks import Weather
from pbem.games.fief.movement.events import Teller
from pbem.games.fief.policies import loss_order
from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief_england.church.protection import shielded
from pbem.games.fief_england.reading import abbey_in
from pbem.games.fief_england.troops import hits_to_defeat, troops_text
from pbem.games.fief_england.regions import (NUMERALS, numeral, record, region_cities, region_name, region_of,
                                              regions_of, storm_regions)
from pbem.rules.api import Event
from pbem.rules.rng import Rng

KEY = "disasters"
DISASTERS = ("plague", "storms", "famine", "invaders")
NAMES = {"plague": "PLAGUE", "storms": "STORMS", "famine": "FAMINE", "invaders": "INVADERS"}


def lying(state: FiefState, kind: str, target: str) -> BoardEffect | None:
    return next((e for e in state.board_effects if e.card == kind and e.target == target), None)


def waiting(state: FiefState, kind: str) -> list[str]:
    """The Seas where a card of ``kind`` placed in round 1 lies waiting to act in round 2 (2.4, R12)."""
    return [w["region"] for w in state.edition_state.get(KEY, {}).get("waiting", []) if w["card"] == kind]


def _waiting(state: FiefState) -> list[dict]:
    return state.edition_state.setdefault(KEY, {}).setdefault("waiting", [])


def full_track_face_up(state: FiefState) -> bool:
    """2.3 (l.115; Ex l.119: Dave "discards it face-up onto the Fortune & Disaster Discard Pile,
    since the Disaster Card Track is filled up"): a disaster drawn to a full track is shown to all.
    From rules version 3; a game of version 2 discards it face down, as France does."""
    return state.rules_version >= 3


def resolve_disasters(state: FiefState, board: Board, cards: CardSet, rng: Rng) -> list[Event]:
    """2.4: once every player has drawn, the track's cards are turned one after the other from
    left to right; the first player rolls the d6 for each. In round 1 they are placed without
    acting (R12); in round 2 round 1's act first, in the order they were placed, then the new.
    The edition's ``disasters`` hook (``cards``: the card set, unused: a card's id is its type)."""
    first = state.players[state.first_player]
    track, state.disasters_track = list(state.disasters_track), []
    events: list[Event] = []
    quiet = state.round in record(state, "no_disasters_in_round")   # 2.4 (l.127): round 1
    if not quiet:
        for held in state.edition_state.get(KEY, {}).pop("waiting", []):
            events += _strike(state, board, rng, held["card"], held["region"],
                              f"The {NAMES[held['card']]} card lying on Sea {held['region']} since round 1 now acts")
        if not state.edition_state.get(KEY):
            state.edition_state.pop(KEY, None)
    for card in track:
        roll = rng.d6(f"disaster {NAMES[card]}: the Region (2.4)")
        target = numeral(roll)   # 2.4, R43: the d6 numbers the six Regions' Seas
        how = f"{first} rolls {roll}"
        if lying(state, card, target) or any(w["card"] == card and w["region"] == target
                                             for w in state.edition_state.get(KEY, {}).get("waiting", [])):
            state.events_discard.append(card)
            events.append(Event("disaster_duplicate", f"A {NAMES[card]} card is revealed; {how}: "
                                f"{region_name(board, target)} already has a {NAMES[card]}, the card is "
                                "discarded (2.4).", data={"card": card, "roll": roll, "region": target}))
        elif quiet:
            _waiting(state).append({"card": card, "region": target})
            events.append(Event("disaster_waiting", f"A {NAMES[card]} card is revealed; {how}: it is placed "
                                f"on the Sea of {region_name(board, target)}. No disaster acts in round 1: it "
                                "acts in round 2 (2.4).", data={"card": card, "roll": roll, "region": target}))
        else:
            events += _strike(state, board, rng, card, target, f"A {NAMES[card]} card is revealed; {how}: it "
                              f"lies on Sea {target}", roll)
    return events


def _strike(state: FiefState, board: Board, rng: Rng, card: str, target: str, how: str,
            roll: int | None = None) -> list[Event]:
    data = {"card": card, "region": target, **({"roll": roll} if roll is not None else {})}
    if lying(state, card, target):
        state.events_discard.append(card)
        return [Event("disaster_duplicate", f"{how}, but {region_name(board, target)} already has a "
                      f"{NAMES[card]}: the card is discarded (2.4).", data=data)]
    state.board_effects.append(BoardEffect(card, target))
    what = {"plague": "its armies lose half their troops and every noble there rolls for their life",
            "storms": "no movement within, into or out of it, land and sea, and no battle there",
            "famine": "its mills produce nothing at Income, and a REBELLION may be played on its cities",
            "invaders": "Invader armies may land at its port in the Invaders phase (6.2)"}[card]
    events = [Event("disaster", f"{how}: {NAMES[card]} strikes {region_name(board, target)} until the end of the "
                    f"round - {what} (2.5).", data=data)]
    if card == "plague":
        events += plague(state, board, rng, target)
    return events


def plague(state: FiefState, board: Board, rng: Rng, target: str) -> list[Event]:
    """2.5: in each city of the Region, in turn order, each family's army loses half its troops
    rounded down, then each of its nobles rolls the d6 (1-3: dies), except in an Abbey (2.13)."""
    events: list[Event] = []
    for city in region_cities(board, target):
        for family in state.turn_order():
            nobles = [l.name for l in state.lords.values() if l.location == city and l.family == family]
            pawns = [p.id for p in state.pawns.values() if p.location == city and p.family == family]
            events += strike(state, board, rng, target, city, family, nobles, pawns)
    return events


def strike(state: FiefState, board: Board, rng: Rng, target: str, city: str, family: str,
           nobles: Iterable[str], pawns: Iterable[str]) -> list[Event]:
    """2.5: the PLAGUE strikes a family's nobles and troops in ``city`` of Region ``target``
    (where they stand when it acts, or as they enter, R22). Each noble and troop is struck at
    most once a round (``FiefState.plague_struck``: "leaving and re-entering the same PLAGUE
    Region do not roll again", nor entering an adjacent one). The owner's `plague_losses`
    policy (the core's loss order) says which troops go."""
    struck = set(state.plague_struck)
    where = f"PLAGUE in {region_name(board, target)}, {city}"
    events: list[Event] = []
    troops = hits_to_defeat(state)   # 2.5: "Bombards and Trebuchets are not affected by the Plague"
    fresh = [pid for pid in pawns if pid not in struck and pid in state.pawns and state.pawns[pid].kind in troops]
    rank = {kind: i for i, kind in enumerate(loss_order(state.families[family].policies, edition_of(state)))}
    fresh.sort(key=lambda pid: (rank.get(state.pawns[pid].kind, len(rank)), pid))
    lost = fresh[: len(fresh) // 2]   # 2.5: "half of their Troops, rounded down"
    state.plague_struck.extend(fresh)
    if fresh:   # 4.1, R96: the owner sees the kinds lost, the others how many (fog of war)
        kinds = [state.pawns[pid].kind for pid in lost]
        teller = Teller(state)
        head = f"{where}: {family}'s army of {len(fresh)} troops loses {len(lost)}"
        teller.public("plague_troops", family, f"{head} ({troops_text(state, kinds)}) (2.5).", f"{head} (2.5).",
                      {"family": family, "city": city, "region": target, "lost": lost, "kinds": kinds},
                      {"family": family, "city": city, "region": target, "lost": len(lost)})
        events += teller.events
    for pid in lost:
        del state.pawns[pid]
    dead: list[str] = []
    for name in nobles:
        if name in struck or name not in state.lords:
            continue
        state.plague_struck.append(name)
        jailer = state.lords[name].captive_of
        if jailer:   # R57 (7.6): a safe captive dies only by ASSASSINATION
            events.append(Event("plague_captive_spared", f"{where}: {name} ({family}), captive of {jailer}, does not "
                                "roll (7.6, R57).",
                                data={"lord": name, "jailer": jailer, "city": city, "region": target}))
            continue
        shield = shielded(state, name, "plague")   # 2.13: an Abbey; 2.12: a retainer immune to it
        if shield:
            why, used = shield
            kind = "plague_abbey" if abbey_in(state, city) else "plague_immune"
            events.append(Event(kind, f"{where}: {name} ({family}) is spared: {why}.",
                                data={"lord": name, "city": city, "region": target}))
            events += used
            continue
        roll = rng.d6(f"plague: {name}")
        dies = roll in record(state, "dice.plague_death")   # 2.5: "A result of 1 - 3"
        if dies:
            dead.append(name)
        events.append(Event("plague_noble", f"{where}: {name} ({family}) rolls {roll} and "
                            f"{'dies' if dies else 'survives'} (2.5).",
                            data={"lord": name, "roll": roll, "city": city, "region": target,
                                  "dies": dies}))
    for name in dead:
        events += eliminate_lord(state, board, name)
    return events


def enter_plague(state: FiefState, board: Board, rng: Rng, frm: str, to: str, family: str,
                 nobles: Iterable[str], pawns: Iterable[str]) -> list[Event]:
    """2.5, R22: "Nobles, Troops, and Invaders entering a PLAGUE Region must immediately roll":
    an army's step from ``frm`` into city ``to`` of a plagued Region it was not in. For the
    movement step; nothing happens when the Region has no PLAGUE or the army was in it."""
    target = region_of(board, to)
    if target is None or not lying(state, "plague", target) or region_of(board, frm) == target:
        return []
    return strike(state, board, rng, target, to, family, nobles, pawns)


def storms_at(state: FiefState, board: Board, place: str) -> str | None:
    """The numeral of the STORMS Region ``place`` (a city or a Sea) lies in, or None."""
    target = region_of(board, place)
    return target if target in storm_regions(state) else None


def storms_block(state: FiefState, board: Board, frm: str, to: str) -> str | None:
    """2.5: "No movement is allowed within or into/out of the affected Region and applies to
    all of its Cities and Sea": why the step ``frm`` -> ``to`` (cities or Seas) is refused, or
    None. PASSAGE allows one such Move (10.2)."""
    for place in (frm, to):
        target = storms_at(state, board, place)
        if target:
            return (f"STORMS lie on {region_name(board, target)}: no movement within, into or out of it, "
                    "land or sea (2.5); a PASSAGE card allows one Move (10.2) and GOOD WEATHER cancels the "
                    "STORMS (2.7)")
    return None


def storms_forbid_battle(board: Board, effects: Iterable[tuple[str, str]], city: str) -> str | None:
    """2.5: "No battles are allowed in the Region": ``effects`` are the board's cards as (card,
    target) pairs (the state's, or a view's when a mail is read)."""
    target = region_of(board, city)
    if target is None or target not in regions_of(effects, "storms"):
        return None
    return f"STORMS lie on {region_name(board, target)}: no battle is allowed there (2.5)"


# The edition's ``weather`` hook: STORMS and PLAGUE met by moves and battles.
WEATHER = Weather(blocks=storms_block, forbids_battle=storms_forbid_battle, enter=enter_plague,
                  battle_hint="a GOOD WEATHER card played at once (`at_once:`) cancels the STORMS (2.7); "
                              "else remove this order")


def famine_in(state: FiefState, board: Board, city: str) -> bool:
    """2.5: the city's Region has FAMINE: its mills produce nothing at Income."""
    target = region_of(board, city)
    return bool(target and lying(state, "famine", target))


def end_of_round(state: FiefState) -> list[Event]:
    """2.10, 8.0: the cards on the map are discarded at the end of the round - every disaster,
    fortune and TAX card on a Region but INVADERS, which the Invaders part discards once it
    lands (or keeps while STORMS hold it, 6.2, R12). Round 1's disasters stay for round 2
    (they wait in ``edition_state``, not on the board)."""
    kept, gone = [], 0
    for effect in state.board_effects:
        if effect.card == "invaders" or effect.target not in NUMERALS:
            kept.append(effect)
        else:
            state.events_discard.append(effect.card if effect.card not in ("tallage", "tithe") else "tax")
            gone += 1
    state.board_effects = kept
    if not gone:
        return []
    return [Event("cards_leave_map", f"{gone} disaster and fortune card(s) leave the map (2.10, 8.0).",
                  data={"count": gone})]
