"""Game Setup (A): families, deniers, piles, each player's first lord, first player, and the
starting towns (A.5) — chosen by mail in the phase "setup/starting-towns", or fixed by the
lord drawn under the optional rule I.4 (Mandatory placement).

By mail the players cannot choose one after another, so each sends a preference list; the
judge resolves them in turn order from the first player: each gets their first choice still
empty. A player who sent nothing, or whose choices are all taken, gets the default: the empty
town farthest by road from the starting towns already taken (ties: board order).
"""
from __future__ import annotations

from typing import Any, Sequence

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import CardSet, check_start_towns
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import Family, FiefState, Lord, Pawn, Town
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng


def empty_state(variant: str, options: dict[str, Any], players: Sequence[str], board: Board) -> FiefState:
    state = FiefState(variant=variant, options=dict(options), players=list(players))
    edition = edition_of(state)
    state.families = {p: Family(p, deniers=edition.starting_money,              # A.6
                                diplomacy_pawns=edition.diplomacy_pawns)        # A.1
                      for p in players}
    state.towns = {t: Town(t) for t in board.towns}
    state.fief_titles = {f: None for f in board.fiefs}
    state.governed = {f: False for f in board.fiefs}
    return state


def new_game(variant: str, options: dict[str, Any], players: Sequence[str], board: Board,
             cards: CardSet, rng: Rng) -> tuple[FiefState, list[Event]]:
    state = empty_state(variant, options, players, board)
    state.first_player = rng.choice(range(len(players)), "first player (A.5)")
    pile = cards.character_cards()
    rng.shuffle(pile, "characters pile (A.2)")
    aside: list[str] = []
    events: list[Event] = []
    for player in state.turn_order():
        card = pile.pop()
        while card in cards.other_characters:   # A.2: a Cardinal or D'Arc is put aside, draw again
            aside.append(card)
            card = pile.pop()
        info = cards.lords[card]
        state.lords[card] = Lord(card, player, info.female, None)
        events.append(Event("first_lord", f"{player} draws the lord {card}.",
                            data={"player": player, "lord": card}))
    pile += aside
    rng.shuffle(pile, "characters pile, reshuffled (A.2)")
    state.character_pile = pile
    events_pile = cards.event_cards()
    rng.shuffle(events_pile, "events pile (A.3)")
    state.events_pile = events_pile
    first = state.players[state.first_player]
    events.append(Event("first_player", f"{first} is the first player (A.5).", data={"player": first}))
    if options.get("mandatory_placement"):
        check_start_towns(cards, board)
        for player in state.turn_order():
            lord = next(l for l in state.lords.values() if l.family == player)
            events += place_start(state, player, cards.lords[lord.name].start, "I.4")
        state.round, state.phase = 1, edition_of(state).opening(1)   # E: France ignores Hear Ye in the 1st round
    else:
        state.phase = "setup"
    return state, events


def place_start(state: FiefState, player: str, town: str, why: str) -> list[Event]:
    """A.5: 1 stronghold, the edition's starting units (France: 1 knight, 3 men-at-arms) and the
    player's lord in ``town``."""
    here = state.towns[town]
    here.fortress = "stronghold"
    here.controller = player
    here.arrivals = [player]
    lord = next(l for l in state.lords.values() if l.family == player)
    lord.location = town
    for kind, count in edition_of(state).start_units.items():
        for _ in range(count):
            pid = state.new_pawn_id()
            state.pawns[pid] = Pawn(pid, kind, player, town)
    return [Event("starting_town", f"{player} establishes {lord.name} in {town} with a stronghold, "
                  f"1 knight and 3 men-at-arms ({why}).", Audience.everyone(),
                  {"player": player, "town": town, "lord": lord.name})]


def default_start(state: FiefState, board: Board, taken: list[str]) -> str:
    """A.5 by mail: the empty town farthest by road from the starts already taken (board order
    on ties; docs/fief-france.md "Starting towns by mail")."""
    far: dict[str, int] = {t: len(board.towns) for t in board.towns}
    for start in taken:
        for town, dist in board.distances(start).items():
            far[town] = min(far[town], dist)
    free = [t for t in board.towns if t not in taken]
    return max(free, key=lambda t: far[t])   # max keeps the first on ties: board order


def resolve_starting_towns(state: FiefState, board: Board, orders: dict[str, Any]) -> list[Event]:
    events: list[Event] = []
    taken: list[str] = []
    for player in state.turn_order():
        wishes = (orders.get(player) or {}).get("towns") or []
        town = next((t for t in wishes if t not in taken), None)
        why = "A.5, their choice"
        if town is None:
            town = default_start(state, board, taken)
            why = ("A.5, default: every town they chose was taken" if wishes
                   else "A.5, default: they chose no town")
        taken.append(town)
        events += place_start(state, player, town, why)
    state.round, state.phase = 1, edition_of(state).opening(1)   # E: France ignores Hear Ye in the 1st round
    return events
