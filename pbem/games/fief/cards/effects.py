"""Card effects of the Cards Phase (2.5, 2.6): disasters revealed from the track and fortune
cards played from a hand. Each effect becomes a ``BoardEffect`` exactly as the income rules
(income/phase.py) and the movement rules (movement/disasters.py) read it.

Which disaster cards carry the dice icon (2.5) is a field of the card data (cards.yaml,
cards/deck.py); where a card strikes is the edition's `disaster_target` hook (France: a card with
the icon strikes the bishopric the first player's d6 names, 6: false alarm, one without strikes
the offshore area, ruling 41). The shipped data gives every card the icon
(ruling 17). The beginners' option (2.5, ruling 40) discards the 1st round's disasters unseen.
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import CardSet, has_dice_icon
from pbem.games.fief.edition import edition_of
from pbem.games.fief.movement.disasters import place_text, strike
from pbem.games.fief.movement.events import Teller
from pbem.games.fief.state import BoardEffect, FiefState
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

DISASTERS = ("plague", "bad_weather", "famine")
NAMES = {"plague": "plague", "bad_weather": "bad weather", "famine": "famine",
         "good_weather": "good weather", "good_harvest": "good harvest", "tax": "tax"}
# G.3.1, G.3.2: a fortune card cancels its opposite disaster, and cannot be placed on a
# bishopric where the other disaster lies.
CANCELS = {"good_weather": "bad_weather", "good_harvest": "famine"}
BLOCKED_BY = {"good_weather": "famine", "good_harvest": "bad_weather"}


def effect_on(state: FiefState, card: str, target: str) -> BoardEffect | None:
    return next((e for e in state.board_effects if e.card == card and e.target == target), None)


def resolve_disasters(state: FiefState, board: Board, cards: CardSet, rng: Rng) -> list[Event]:
    """2.5, step C: flip the track's cards and solve them left to right."""
    track, state.disasters_track = list(state.disasters_track), []
    if track and state.options.get("beginners") and state.round == 1:
        return [_ignore(state, track)]
    events: list[Event] = []
    for card in track:
        kind = cards.disaster_kind(card) or card
        name = NAMES.get(kind, kind)
        strike = edition_of(state).hooks.disaster_target(state, board, name, has_dice_icon(card), rng)   # 2.5
        data = {"card": card, **strike.data}
        target, how, where = strike.target, strike.how, strike.where
        if target is None:
            state.events_discard.append(card)
            events.append(Event("disaster_false_alarm", f"A {name} card is revealed; {how}false alarm, the card "
                                "is discarded (2.5).", data=data))
            continue
        if effect_on(state, kind, target):
            state.events_discard.append(card)
            events.append(Event("disaster_duplicate", f"A {name} card is revealed; {how}{where} already "
                                f"suffers a {name}, the card is discarded (2.5).", data=data))
            continue
        state.board_effects.append(BoardEffect(kind, target))
        events.append(Event("disaster", f"A {name} card is revealed; {how}it strikes {where} until the "
                            "end of the round (2.5).", data=data))
        if kind == "plague":
            events += plague(state, board, rng, strike.place)   # G.2.1: at once
    return events


def _ignore(state: FiefState, track: list[str]) -> Event:
    """The beginners' option (2.5: "on the 1st round we advise you to ignore and discard
    disaster cards", ruling 40): the cards are not flipped; they go face down to the discard
    pile, as a disaster discarded from a full track (2.3), and nobody learns which they were."""
    for card in track:
        discard_face_down(state, card)
    return Event("disasters_ignored", f"Beginners' option (2.5): on the 1st round the disasters are ignored; "
                 f"the {len(track)} disaster card(s) on the track are discarded face down, unrevealed.",
                 data={"count": len(track)})


def discard_face_down(state: FiefState, card: str) -> None:
    """2.3: a disaster discarded unrevealed: only its back shows on top of the discard pile."""
    state.events_discard.append(card)
    state.events_discard_face_down.append(len(state.events_discard) - 1)


def plague(state: FiefState, board: Board, rng: Rng, number: int | str) -> list[Event]:
    """G.2.1.1-2: a d6 per lord in the bishopric (``number``; or a sea of the board, 2.5),
    and half of each family's troop in each town (the owner's `plague_losses` policy choosing
    the pawns), in turn order (H.3). Every lord and pawn struck is recorded in
    ``plague_struck`` (G.2.1.3)."""
    teller = Teller(state)
    order = state.turn_order()
    places = [number] if number in board.seas else board.bishoprics[int(number)].towns
    for town in places:
        for family in order:
            lords = [l.name for l in state.lords.values() if l.location == town and l.family == family]
            pawns = [p.id for p in state.pawns.values() if p.location == town and p.family == family]
            if lords or pawns:
                for event in strike(state, board, rng, number, lords, pawns, family)[2]:
                    _tell_plague(teller, event, family, number)
    return teller.events


def _tell_plague(teller: Teller, event: Event, family: str, number: int | str) -> None:
    """I.2: under fog of war the others learn how many pawns the troop lost, not which kinds
    (as when an army enters the plague, movement/phase.py)."""
    if event.kind != "plague_troop":
        teller.add([event])
        return
    n = len(event.data["lost"])
    hidden = (f"Plague in {place_text(number)}: {family}'s troop loses {n} unit pawn"
              f"{'s' if n != 1 else ''} (G.2.1.2).")
    teller.public(event.kind, family, event.text, hidden, dict(event.data),
                  {"family": family, "bishopric": number, "lost": {"hidden": n}})


def play_weather(state: FiefState, board: Board, player: str, card: str, number: int) -> tuple[bool, Event]:
    """G.3.1 / G.3.2 with 2.6.1. (played?, the event saying what happened)."""
    name, target = NAMES[card], str(number)
    where = f"bishopric {board.bishoprics[number].name} ({number})"
    cancelled = effect_on(state, CANCELS[card], target)
    if cancelled is not None:
        state.board_effects.remove(cancelled)
        state.events_discard += [cancelled.card, card]
        return True, Event("card_cancels", f"{player} plays a {name} card on {where}: it cancels the "
                           f"{NAMES[cancelled.card]}; both cards are discarded ({_sec(card)}).",
                           data={"player": player, "card": card, "cancelled": cancelled.card,
                                 "bishopric": number})
    if effect_on(state, BLOCKED_BY[card], target):
        return False, Event("card_not_played", f"{player} cannot play a {name} card on {where}: a "
                            f"{NAMES[BLOCKED_BY[card]]} lies there ({_sec(card)}); the card stays in hand.",
                            audience=Audience.only(player), data={"player": player, "card": card, "bishopric": number})
    if effect_on(state, card, target):
        return False, Event("card_not_played", f"{player} cannot play a {name} card on {where}: one "
                            "already lies there and a second copy would add nothing (2.6.1); the card "
                            "stays in hand.", audience=Audience.only(player),
                            data={"player": player, "card": card, "bishopric": number})
    state.board_effects.append(BoardEffect(card, target, player))
    return True, Event("card_played", f"{player} plays a {name} card on {where}: "
                       f"+{edition_of(state).money_text(1)} per mill there in the Income Phase ({_sec(card)}).",
                       data={"player": player, "card": card, "bishopric": number})


def _sec(card: str) -> str:
    return "G.3.1" if card == "good_weather" else "G.3.2"


def tax_problem(state: FiefState, board: Board, player: str, kind: str, target: str, lord: str) -> str | None:
    """G.3.3: why this tax card cannot be played now (None: it can)."""
    who = state.lords.get(lord)
    if who is None or who.family != player:
        return f"{lord} is not a lord of your family in play"
    if kind == "tallage":
        if state.fief_titles.get(target) == lord:
            return None
        if who.political == "king" and not state.governed.get(target):
            return None    # the royal tallage (D.3.1)
        return (f"{lord} neither holds the title of the {board.fiefs[target].name} nor is the king "
                "taking the royal tallage on an ungoverned fief (G.3.3.1)")
    if target == "all":
        return None if who.pope else f"{lord} is not the pope: only the pope takes the papal tithe (G.3.3.2)"
    number = int(target)
    if who.bishopric == number:
        return None
    governed = any(l.bishopric == number for l in state.lords.values())
    if who.cardinal and governed:
        return None
    if who.cardinal:
        return f"bishopric {number} has no bishop: a cardinal takes a tithe only on a governed bishopric (G.3.3.2)"
    return f"{lord} is neither the bishop of bishopric {number} nor a cardinal (G.3.3.2)"


def play_tax(state: FiefState, board: Board, player: str, kind: str, target: str, lord: str) -> tuple[bool, Event]:
    """G.3.3: a tallage on a fief id, a tithe on a bishopric number or "all" (the papal tithe)."""
    what = (f"a tallage on the {board.fiefs[target].name}" if kind == "tallage" else
            "the papal tithe on every governed bishopric" if target == "all" else
            f"a tithe on bishopric {board.bishoprics[int(target)].name} ({target})")
    problem = tax_problem(state, board, player, kind, target, lord)
    if problem is None and any(e.card == kind and e.target == target and e.player == player
                               for e in state.board_effects):
        problem = "your family already plays that tax there this round"
    if problem is None and kind == "tithe" and state.rules_version >= 2 and edition_of(state).hooks.cardinals:
        problem = marker_problem(lord, target, player, _bishop_families(state),
                                 [(e.card, e.target, e.player, e.lord) for e in state.board_effects])
    if problem:
        return False, Event("card_not_played", f"{player} cannot play a tax card for {what}: {problem}; "
                            "the card stays in hand.", audience=Audience.only(player),
                            data={"player": player, "card": "tax", "target": target})
    state.board_effects.append(BoardEffect(kind, target, player, lord))
    sec = "G.3.3.1" if kind == "tallage" else "G.3.3.2"
    return True, Event("card_played", f"{player} plays a tax card: {lord} collects {what} in the "
                       f"Income Phase ({sec}).", data={"player": player, "card": "tax", "tax": kind,
                                                        "target": target, "lord": lord})


def needs_tithe_marker(target: str, family: str, bishop_family: str | None) -> bool:
    """G.3.3.2: a tithe on a bishopric whose title the family does not own is marked with the
    cardinal tithe marker of the collecting cardinal (the papal tithe lies on the round track)."""
    return target != "all" and bishop_family != family


def marker_problem(lord: str, target: str, family: str, bishop_families: dict[str, str | None],
                   effects: list[tuple[str, str, str | None, str | None]]) -> str | None:
    """G.3.3.2: each cardinal has one cardinal tithe marker, so he collects at most one tithe on
    a bishopric his family does not own at a time (the marker comes back with the tax card, after
    the Income Phase). ``effects``: (card, target, player, lord) of the tithes already lying on
    the board (or ordered before in the same mail); ``bishop_families``: bishopric number (text)
    -> the family of its bishop."""
    if not needs_tithe_marker(target, family, bishop_families.get(target)):
        return None
    for card, other, player, by in effects:
        if card == "tithe" and by == lord and needs_tithe_marker(other, player or "", bishop_families.get(other)):
            return (f"{lord}'s cardinal tithe marker already lies on bishopric {other}: a cardinal has one "
                    "marker, so one tithe at a time on a bishopric his family does not own (G.3.3.2)")
    return None


def _bishop_families(state: FiefState) -> dict[str, str | None]:
    return {str(l.bishopric): l.family for l in state.lords.values() if l.bishopric}
