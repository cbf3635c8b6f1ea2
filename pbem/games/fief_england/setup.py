"""Fief: England's Game Setup (E Setup l.25-33, 13.6-13.8; reconstruction X14 in
docs/fief-england.md), through the edition's ``setup`` hook:

- each family starts with the record's money (5 shillings, secret: ``money.public: false``);
- the noble cards are split by gender and each pile shuffled; three of each are set aside unseen
  (they leave the game: no view shows them, ``edition_state["setup"]["set_aside"]``) and each
  family is dealt one man and one woman (l.31);
- the rest of the character deck (the other nobles, abbesses, bishops, archbishops, mercenaries,
  burghers) and the Fortune & Disaster deck are shuffled (l.28-31);
- the first player is drawn (X14). By mail, each player sends the Cities they want, best first;
  in turn order each gets the first whose Region no earlier player holds (X14: "a Region no one
  holds and a City in it"), and places there a Stronghold, both nobles and the record's starting
  units (1 knight, 3 men-at-arms). With the option ``random_stronghold_setup`` (13.6) each
  player's Region is rolled at setup on the d6 (I-VI, a Region already rolled is rolled again)
  and the City is chosen in it. A player who chose no City that is still open gets the open City
  farthest by road from the Cities taken (board order on ties), as France's default.

Two players (13.7, l.842): "set up like a four-Player game", each player running two families
side by side: the player's name and ``NAME-2`` (FiefState.family_players). Each family is dealt
its nobles, chooses its City and gets its troops as a player of a four-player game would; the
two families' shillings are one pot from the start (5 + 5, R126) and their hands one hand.
"""
from __future__ import annotations

from typing import Any, Sequence

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import CardSet
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.hooks import EditionSetup
from pbem.games.fief.round import Step, listed_orders
from pbem.games.fief.setup.orders import check_setup_orders
from pbem.games.fief.setup.rules import empty_state
from pbem.orders.yamlsafe import line_of
from pbem.games.fief.state import FiefState, Lord, Pawn
from pbem.games.fief_england import retainers
from pbem.games.fief_england.church import relics
from pbem.games.fief_england.board_loader import EnglandBoard
from pbem.orders.reading import Problems
from pbem.rules.api import JSON, Audience, Event
from pbem.rules.rng import Rng

RANDOM_OPTION = "random_stronghold_setup"   # 13.6


def new_game(variant: str, options: dict[str, Any], players: Sequence[str], board: Board,
             cards: CardSet, rng: Rng) -> tuple[FiefState, list[Event]]:
    edition = load_edition(variant)
    apart = edition.families_of(len(players))
    if apart == 1:
        state = empty_state(variant, options, players, board)
        state.first_player = rng.choice(range(len(players)), "first player (X14)")
    else:
        state = two_families_state(variant, options, players, board, apart)
        state.first_player = rng.choice(range(len(players)), "first player (X14)") * apart
    first = state.players[state.first_player]
    events = [Event("first_player", f"{state.player_of(first)} is the first player (X14).", data={"player": first})]
    nobles = {"male": [n for n, c in cards.lords.items() if not c.female],
              "female": [n for n, c in cards.lords.items() if c.female]}
    aside_counts = edition.extra["start.nobles_set_aside"]
    dealt_counts = edition.extra["start.nobles"]
    aside: list[str] = []
    for gender in ("male", "female"):
        rng.shuffle(nobles[gender], f"{gender} noble cards (Setup, l.31)")
        for _ in range(aside_counts[gender]):   # l.31: "remove three cards from each deck ... without looking"
            aside.append(nobles[gender].pop())
    for player in state.turn_order():
        for gender in ("male", "female"):       # l.31: "one Male and one Female, to each Family Board"
            for _ in range(dealt_counts[gender]):
                name = nobles[gender].pop()
                state.lords[name] = Lord(name, player, gender == "female", None)
        dealt = [n for n, l in state.lords.items() if l.family == player]
        events.append(Event("nobles_dealt", f"{player}'s family: {' and '.join(dealt)} (Setup, l.31).",
                            data={"player": player, "nobles": dealt}))
    pile = nobles["male"] + nobles["female"]
    for kind, count in cards.other_characters.items():
        pile += [kind] * count
    rng.shuffle(pile, "character deck (Setup, l.31)")
    state.character_pile = pile
    events_pile = cards.event_cards()
    rng.shuffle(events_pile, "Fortune & Disaster deck (Setup, l.28)")
    state.events_pile = events_pile
    own: dict[str, Any] = {"set_aside": sorted(aside)}
    if options.get(RANDOM_OPTION):
        own["regions"] = roll_regions(state, board, rng)
        for player, fief in own["regions"].items():
            events.append(Event("region_rolled", f"{player} rolls {board.fiefs[fief].name} for their "
                                "starting Region (13.6).", data={"player": player, "fief": fief}))
    state.edition_state["setup"] = own
    state.phase = "setup"
    retainers.shuffle_deck(state, rng)   # 2.12, R70: the dealt nobles draw theirs too
    for name in list(state.lords):
        events += retainers.draw_for(state, name)
    events += relics.place_at_setup(state, board, rng)   # 12.0, R36
    return state, events


def two_families_state(variant: str, options: dict[str, Any], players: Sequence[str], board: Board,
                       apart: int) -> FiefState:
    """13.7: four families for two players, each player's side by side (the player's name, then
    ``NAME-2``), one pot of shillings and one hand a player (R126: the pot holds what the
    families' boards would have held, 5 each)."""
    names = [p if i == 0 else f"{p}-{i + 1}" for p in players for i in range(apart)]
    clash = sorted(set(names[i] for i in range(len(names)) if names[i] in players and i % apart))
    if clash:
        raise ValueError(f"at {len(players)} players each player runs {apart} families, named after the player "
                         f"(NAME, NAME-2): {', '.join(clash)} would be both a player and a family; "
                         "choose other player names")
    state = empty_state(variant, options, names, board)
    state.family_players = {name: players[i // apart] for i, name in enumerate(names)}
    for player in players:
        first, *others = state.families_of(player)
        state.families[first].deniers += sum(state.families[f].deniers for f in others)   # R126
    state.link_purses()
    return state


def roll_regions(state: FiefState, board: Board, rng: Rng) -> dict[str, str]:
    """13.6: in turn order each player rolls the d6 for a Region (I-VI); one player per Region,
    so a Region already rolled is rolled again."""
    regions = EnglandBoard.of(board).regions
    numbers = list(regions)   # I-VI, in order: the d6's 1-6
    out: dict[str, str] = {}
    for player in state.turn_order():
        while True:
            fief = regions[numbers[rng.d6(f"{player}'s starting Region (13.6)") - 1]]
            if fief not in out.values():
                out[player] = fief
                break
    return out


def resolve_start(state: FiefState, board: Board, orders: dict[str, Any]) -> list[Event]:
    """X14: in turn order each player gets their first City still open: in a Region no earlier
    player holds (and in their rolled Region under 13.6)."""
    rolled = (state.edition_state.get("setup") or {}).get("regions") or {}
    events: list[Event] = []
    taken: list[str] = []
    for player in state.turn_order():
        held = {board.towns[t].fief for t in taken}
        open_ = [t for t in board.towns if board.towns[t].fief not in held
                 and (player not in rolled or board.towns[t].fief == rolled[player])]
        wishes = (orders.get(player) or {}).get("towns") or []
        city = next((t for t in wishes if t in open_), None)
        why = "X14, their choice"
        if city is None:
            city = farthest(board, open_, taken)
            why = "X14, default: " + ("no City they chose was open" if wishes else "they chose no City")
        taken.append(city)
        events += place_family(state, player, city, why)
    state.round, state.phase = 1, edition_of(state).opening(1)   # 1.0: Hear Ye is skipped in round 1
    return events


def farthest(board: Board, open_: list[str], taken: list[str]) -> str:
    """The open City farthest by road from the Cities taken (board order on ties)."""
    far = {t: len(board.towns) for t in open_}
    for start in taken:
        for town, dist in board.distances(start).items():
            if town in far:
                far[town] = min(far[town], dist)
    return max(open_, key=lambda t: far[t])


def place_family(state: FiefState, player: str, city: str, why: str) -> list[Event]:
    """X14: a Stronghold, the family's two nobles and the starting units in its City."""
    edition = edition_of(state)
    here = state.towns[city]
    if edition.extra["start.strongholds"]:
        here.fortress = "stronghold"
    here.controller = player
    here.arrivals = [player]
    nobles = [l for l in state.lords.values() if l.family == player]
    for lord in nobles:
        lord.location = city
    for kind, count in edition.start_units.items():
        for _ in range(count):
            pid = state.new_pawn_id()
            state.pawns[pid] = Pawn(pid, kind, player, city)
    units = ", ".join(edition.unit_text(k, n) for k, n in edition.start_units.items())
    return [Event("starting_town", f"{player} establishes {' and '.join(l.name for l in nobles)} in {city} "
                  f"with a stronghold and {units} ({why}).", Audience.everyone(),
                  {"player": player, "town": city, "lords": [l.name for l in nobles]})]


def check_start(view: JSON, board: Board, player: str, items: list,
                problems: Problems) -> tuple[dict, tuple[str, ...]]:
    towns = check_setup_orders(view, board, items, problems)
    rolled = (view.get("setup") or {}).get("region")
    if rolled:
        line = next((line_of(items, i) for i, item in enumerate(items) if isinstance(item, dict) and "start" in item),
                    None)   # the `start:` order's line
        for town in towns:
            if board.towns[town].fief != rolled:
                problems.add(line, f"{town} is not in {board.fiefs[rolled].name}, the Region you rolled (13.6)",
                             "name Cities of " + ", ".join(board.fiefs[rolled].towns))
    return {"towns": towns}, (() if problems else (
        "in turn order each player gets the first City of their list whose Region no earlier player holds",))


def setup_template(view: JSON, board: Board, player: str) -> str:
    me = view["me"]
    nobles = [n for n, l in view["lords"].items() if l["family"] == me]
    rolled = (view.get("setup") or {}).get("region")
    lines = [
        f"# Setup (X14): choose your starting City. Your nobles {' and '.join(nobles)} start there with a",
        "# Stronghold, 1 knight and 3 men-at-arms. Each Region holds one player's start only.",
        f"# Choices are settled in turn order: {', '.join(view['turn_order'])}. You get the first City of",
        "# your list whose Region no earlier player took; list several, best first.",
    ]
    if rolled:
        lines.append(f"# You rolled {board.fiefs[rolled].name} (13.6): choose among "
                     f"{', '.join(board.fiefs[rolled].towns)}.")
    lines.append("# Cities by Region:")
    for number, fief in EnglandBoard.of(board).regions.items():
        lines.append(f"#   {number} {board.fiefs[fief].name}: {', '.join(board.fiefs[fief].towns)}")
    first = board.fiefs[rolled].towns[0] if rolled else next(iter(board.towns))
    lines += ["orders:", f"  - start: [{first}]   # edit: your Cities, best first", ""]
    return "\n".join(lines)


SETUP = EditionSetup(new_game=new_game, step=Step(
    "setup", "Setup: starting Cities (X14)", "choose your starting City", True,
    lambda s, b, o, r: resolve_start(s, b, dict(o)), listed_orders(check_start),
    lambda: {"towns": []},                 # the default City (X14)
    setup_template))
