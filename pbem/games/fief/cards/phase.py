"""The Cards Phase (2) by mail, in two sub-phases (DESIGN.md "Turning a table game into mail"):

- ``cards`` (phase id round-N/cards-draw): steps A and B. Every player sends their discards
  and their draws at once; "you may draw and look at the first one before deciding to draw a
  second one" (2.2) becomes a conditional order: ``if_first`` maps the first card drawn to the
  second pile (or none), so no extra mail round is needed. Then step C, the disasters, is
  solved at once with the first player's d6 (cards/effects.py).
- ``cards_play`` (round-N/cards-play): step D. Players holding a lord, good weather, good
  harvest or tax card say which they play; the orders are carried out in turn order (H.3),
  each player's in the order written.

Orders arrive checked and canonical (cards/orders.py); the state may still have changed since
(an earlier player's card), so each effect is checked again when it is carried out.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import CardSet, load_cards
from pbem.games.fief.cards.effects import NAMES, discard_face_down, play_tax, play_weather, resolve_disasters
from pbem.games.fief.surprise.play import at_once, play_surprise
from pbem.games.fief.surprise.uprising import UprisingStep
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief.hear_ye.titles import come_into_play, family_lords
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

PLAYABLE = ("good_weather", "good_harvest", "tax")   # fortune cards without the surprise icon (2.6)


# -- steps A, B, C ---------------------------------------------------------------------------

def resolve_draw(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    cards = load_cards(state.variant)
    active = [p for p in state.turn_order() if not state.families[p].eliminated]
    before = edition_of(state).hooks.before_draws
    events: list[Event] = before(state, rng) if before is not None else []   # England: 4.8, R71
    own = edition_of(state).hooks.card_plays
    for player in active:                                        # 2.1: step A, in turn order
        for play in (orders.get(player) or {}).get("play") or []:   # England 2.0: played instead of discarded
            if own is not None:
                events += own.play(state, board, player, play, rng)
        events += _discard(state, cards, player, (orders.get(player) or {}).get("discard") or [])
    for player in active:                                        # 2.2: step B, in turn order
        events += _draws(state, cards, player, orders.get(player) or {}, rng)
    disasters = edition_of(state).hooks.disasters                # England: by Region (2.4)
    events += (disasters or resolve_disasters)(state, board, cards, rng)   # 2.5: step C
    return events


def _discard(state: FiefState, cards: CardSet, player: str, wanted: list[str]) -> list[Event]:
    hand = state.families[player].hand
    done = []
    for card in wanted:
        if card in hand:       # checked with the orders; nothing can take a card since
            hand.remove(card)
            (state.character_discard if is_character(cards, card) else state.events_discard).append(card)
            done.append(card)
    if not done:
        return []
    names = ", ".join(card_name(state.variant, c) for c in done)
    return [Event("cards_discarded", f"{player} discards {names} ({edition_of(state).cite('2.1')}).",
                  data={"player": player, "cards": done})]


def _draws(state: FiefState, cards: CardSet, player: str, order: Mapping[str, Any], rng: Rng) -> list[Event]:
    edition = edition_of(state)
    plan = list(order.get("draw") or [])[:edition.draws]     # 2.2
    hand = state.families[player].hand
    events: list[Event] = []
    drawn: list[str] = []
    for i in range(edition.draws):
        pile = plan[i] if i < len(plan) else None
        if i == 1 and drawn:
            pile = second_pile(cards, drawn[0], order.get("if_first") or {}, pile)
        if pile is None or len(hand) >= edition.hand_limit:   # 2.2
            break
        if pile == "character" and sum(is_character(cards, c) for c in drawn) >= edition.character_draws:
            break   # 2.2: one character card at most (the orders were checked for it)
        card, more = draw_one(state, cards, player, pile, rng)
        events += more
        if card is None:
            break
        hand.append(card)
        drawn.append(card)
    if drawn:
        names = ", ".join(card_name(state.variant, c) for c in drawn)
        events.append(Event("cards_drawn", f"You draw {names} ({edition_of(state).cite('2.2')}).",
                            Audience.only(player), {"player": player, "cards": drawn}))
    piles = [("characters" if is_character(cards, c) else "events") for c in drawn]
    text = (f"{player} draws {len(drawn)} card(s)" + (f" ({', '.join(piles)})" if drawn else "")
            + f" and now holds {len(hand)} ({edition_of(state).cite('2.2')}).")
    events.append(Event("cards_draw_count", text, data={"player": player, "piles": piles, "hand": len(hand)}))
    return events


def second_pile(cards: CardSet, first: str, if_first: Mapping[str, str], planned: str | None) -> str | None:
    """2.2: the second draw after seeing the first card: the card's own key, else its group
    (``lord``, ``character``, ``fortune``), else the plan's second pile."""
    for key in (first, "lord" if first in cards.lords else None,
                "character" if is_character(cards, first) else "fortune"):
        if key and key in if_first:
            choice = if_first[key]
            return None if choice == "none" else choice
    return planned


def draw_one(state: FiefState, cards: CardSet, player: str, pile: str, rng: Rng) -> tuple[str | None, list[Event]]:
    """Draw one card for a hand; from the events pile, disasters go face down to the track
    (2.3) and the drawing goes on until a fortune card."""
    events: list[Event] = []
    while True:
        card, more = _top(state, pile, rng)
        events += more
        if card is None:
            events.append(Event("pile_empty", f"The {pile} pile and its discard pile are both empty: "
                                f"{player} draws nothing more ({edition_of(state).cite('2.4')}).", data={"pile": pile}))
            return None, events
        if not cards.is_disaster(card):
            return card, events
        if len(state.disasters_track) < edition_of(state).disaster_track:   # 2.3
            state.disasters_track.append(card)
            events.append(Event("disaster_drawn", f"{player} draws a disaster card and puts it face down on "
                                f"the disasters track, space {len(state.disasters_track)} (2.3).",
                                data={"player": player, "space": len(state.disasters_track)}))
        elif _face_up(state):   # England 2.3: shown to all on the discard pile
            state.events_discard.append(card)
            events.append(Event("disaster_drawn", f"{player} draws a disaster card; the disasters track is "
                                f"full, so it is discarded face up: {card.upper()} (2.3).",
                                data={"player": player, "space": None, "card": card}))
        else:
            discard_face_down(state, card)
            events.append(Event("disaster_drawn", f"{player} draws a disaster card; the disasters track is "
                                "full, so it is discarded face down (2.3).", data={"player": player, "space": None}))


def _face_up(state: FiefState) -> bool:
    own = edition_of(state).hooks.full_track_face_up
    return own is not None and own(state)


def _top(state: FiefState, pile: str, rng: Rng) -> tuple[str | None, list[Event]]:
    stack = state.character_pile if pile == "character" else state.events_pile
    events: list[Event] = []
    if not stack:
        discard = state.character_discard if pile == "character" else state.events_discard
        if not discard:
            return None, events
        stack.extend(discard)
        discard.clear()
        if pile == "events":
            state.events_discard_face_down = []
        rng.shuffle(stack, f"{pile} pile, reshuffled (2.4)")
        events.append(Event("pile_reshuffled", f"The {pile} pile is empty: its discard pile of {len(stack)} "
                            f"card(s) is reshuffled to form a new one ({edition_of(state).cite('2.4')}).",
                            data={"pile": pile, "cards": len(stack)}))
    return stack.pop(), events


# -- step D ----------------------------------------------------------------------------------

def playable(cards: CardSet, card: str) -> bool:
    """2.6: lord cards and cards without the surprise icon, in this step only."""
    return card in cards.lords or card in PLAYABLE


def play_deciders(state: FiefState) -> tuple[str, ...]:
    cards = load_cards(state.variant)
    own = edition_of(state).hooks.card_plays
    mine = own.cards if own is not None else ()
    return tuple(p for p in state.turn_order() if not state.families[p].eliminated
                 and any(playable(cards, c) or c in at_once(state.variant) or c in mine
                         for c in state.families[p].hand))


def resolve_play(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    cards = load_cards(state.variant)
    events: list[Event] = []
    uprisings = UprisingStep(orders)   # G.4.2.1: the uprising cards of one town cumulate
    own = edition_of(state).hooks.card_plays
    for player in state.turn_order():                             # H.3
        if state.families[player].eliminated:
            continue
        for play in (orders.get(player) or {}).get("play") or []:
            if own is not None and play["card"] in own.cards:    # the edition's own (England)
                events += own.play(state, board, player, play, rng)
            elif play["card"] == "uprising":
                events += uprisings.play(state, board, player, play, rng)
            else:
                events += _play(state, board, cards, player, play)
    if not events:   # say so, so every resolution tells the players something
        events.append(Event("no_cards_played", "Nobody plays a card in this Cards Phase (2.6).", data={}))
    return events


def _play(state: FiefState, board: Board, cards: CardSet, player: str, play: Mapping[str, Any]) -> list[Event]:
    card = play["card"]
    hand = state.families[player].hand
    if card not in hand:
        return [Event("card_not_played", f"{player} no longer holds a {card_name(state.variant, card)} card: "
                      "that order is void.", audience=Audience.only(player), data={"player": player, "card": card})]
    if card in cards.lords:
        return _play_lord(state, board, cards, player, play)
    if card in at_once(state.variant):   # G.4: surprise cards played at once
        return play_surprise(state, board, player, play)
    if card in ("good_weather", "good_harvest"):
        ok, event = play_weather(state, board, player, card, int(play["bishopric"]))
    else:
        ok, event = play_tax(state, board, player, play["tax"], play["target"], play["lord"])
    if ok:
        hand.remove(card)
    return [event]


def _play_lord(state: FiefState, board: Board, cards: CardSet, player: str, play: Mapping[str, Any]) -> list[Event]:
    name = play["card"]
    most = edition_of(state).lords_per_family
    if len(family_lords(state, player)) >= most:
        return [Event("card_not_played", f"{player} cannot play {name}: a family has at most {most} "
                      f"lords ({edition_of(state).cite('G.1')}); the card stays in hand.",
                      audience=Audience.only(player), data={"player": player, "card": name})]
    if name in state.lords:   # 2.4: only after the first one left play; guards a bad state
        return [Event("card_not_played", f"{player} cannot play {name}: a lord of that name is in play.",
                      audience=Audience.only(player), data={"player": player, "card": name})]
    state.families[player].hand.remove(name)
    state.lords[name] = Lord(name, player, cards.lords[name].female, None)
    events = [Event("lord_card_played", f"{player} plays the lord card {name} ({edition_of(state).cite('G.1')}).",
                    data={"player": player, "lord": name})]
    events += edition_of(state).hooks.lord_played(state, player, name, play)   # France: the crown prince (G.1.1)
    if state.lords[name].captive_of:   # the edition's hook made him a captive as he came (England 7.6)
        return events
    return events + come_into_play(state, board, name, play.get("town"))


# -- shared ----------------------------------------------------------------------------------

def is_character(cards: CardSet, card: str) -> bool:
    return card in cards.lords or card in cards.other_characters


def card_name(game: str, card: str) -> str:
    """A card's printed name: the core's fortune and disaster cards, the edition's character
    cards (its `characters` hook; France: D'Arc, Cardinal, G.4.1), else the card's id (a lord's
    name, a surprise card's) in words (England's `bountiful_harvest`: bountiful harvest)."""
    character = load_edition(game).hooks.characters.get(card)
    return NAMES.get(card) or (character.name if character else card.replace("_", " "))
