"""Bishops and Archbishops from cards (E 2.14, rulings R3, R49, R71), their Tithe (2.8, 3.2)
and a dead cleric's title card (4.8).

A BISHOP or ARCHBISHOP card is played in the Cards phase (2.6) on an unmarried, free nobleman
of the player's family or of a family allied by marriage (2.14, 9.0), naming a district no one
governs (R3, R49: one cleric a district); an ARCHBISHOP card may replace a Bishop's, who keeps
his district and whose BISHOP card is discarded (2.14, l.249). The core's ``Lord.bishopric``
holds the district (the board's bishopric number); the rank is England's own state, read by
every England part through pbem/games/fief_england/titles.py: ``edition_state["church"] =
{"archbishops": [nobles], "abbesses": {noble: [abbey names]}, "destroyed": {abbey: the round
of the Purchase phase it may be rebuilt in}, "reshuffle": bool}`` (a Bishop is a noble with a
``bishopric`` who is not among the archbishops), all public: the title cards lie face up under
their noble (l.236).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState, Lord
from pbem.orders.reading import fold
from pbem.rules.api import Event
from pbem.rules.rng import Rng

KEY = "church"
RANKS = ("bishop", "archbishop")
TITLE = {"bishop": "Bishop", "archbishop": "Archbishop"}
VOTES = {"bishop": 1, "archbishop": 2}   # 9.1 (l.655): "each Archbishop 2 Votes"; R4 for 9.2


def church_state(state: FiefState) -> dict[str, Any]:
    st = state.edition_state.setdefault(KEY, {})
    for key, empty in (("archbishops", list), ("abbesses", dict), ("destroyed", dict)):
        st.setdefault(key, empty())
    st.setdefault("reshuffle", False)
    return st


def rank_of(state: FiefState, noble: str) -> str | None:
    """"bishop", "archbishop" or None."""
    lord = state.lords.get(noble)
    if lord is None or not lord.bishopric:
        return None
    return "archbishop" if noble in church_state(state)["archbishops"] else "bishop"


def cleric_votes(state: FiefState, noble: str) -> int:
    """9.1 (l.655), R4: the votes a noble adds to the Vote Marker as a cleric (0: none as such)."""
    rank = rank_of(state, noble)
    return VOTES[rank] if rank else 0


def district_named(board: Board, text: Any) -> int | None:
    """A district by its number, its name ("Bishopric of Exeter", "Exeter") or cathedral city."""
    want = fold(str(text))
    for number, info in board.bishoprics.items():
        short = info.name.split(" of ", 1)[-1]
        if want in (str(number), fold(info.name), fold(short), fold(info.chief_town)):
            return number
    return None


def district_title(board: Board, rank: str, number: int) -> str:
    """"Archbishop of Exeter": the card's rank and the district's cathedral city (R3)."""
    return f"{TITLE[rank]} of {board.bishoprics[number].name.split(' of ', 1)[-1]}"


def allies(state: FiefState, player: str) -> set[str]:
    """9.0: the families allied to ``player`` by a marriage (and ``player``)."""
    out = {player}
    for lord in state.lords.values():
        if lord.family == player and lord.spouse in state.lords:
            out.add(state.lords[lord.spouse].family)
    return out


def appoint_problem(lord: Mapping[str, Any], rank: str, held: str | None) -> str | None:
    """2.14 and the FAQ: why the card may not go on this noble (his fields by name; ``held``: the
    rank he holds already), else None."""
    if lord["female"]:
        return f"a {TITLE[rank]} card goes on a nobleman only (2.14)"
    if lord["spouse"]:
        return "he is married (2.14: a non-married nobleman only)"
    if lord["captive_of"]:
        return f"he is a captive of {lord['captive_of']} (2.14: not a captive)"
    if held == rank or held == "archbishop":
        return f"he is {TITLE[held]} already (FAQ: one Bishop or Archbishop title a noble)"
    return None


def district_problem(state: FiefState, board: Board, rank: str, number: int, noble: str,
                     printed: str | None = None) -> str | None:
    """R3, R49: the named district has no cleric (an Archbishop card on a Bishop keeps his own);
    a card printed with a district governs only it."""
    holder = next((lo.name for lo in state.lords.values() if lo.bishopric == number), None)
    current = state.lords[noble].bishopric if noble in state.lords else None
    if current is not None and current != number:
        return (f"{noble} governs {board.bishoprics[current].name}: an Archbishop card on a Bishop keeps his "
                "district (2.14)")
    if holder is not None and holder != noble:
        return f"{board.bishoprics[number].name} has a cleric already, {holder} (R49: one a district)"
    if printed is not None and district_named(board, printed) != number:
        return f"this {TITLE[rank]} card is printed for {printed} (R3)"
    return None


def appoint(state: FiefState, board: Board, player: str, rank: str, noble: str, number: int) -> list[Event] | str:
    """2.14: the title is given; ``rank`` is the card played. The checks of the mail are made
    again (an earlier play of the step may have changed the position)."""
    lord = state.lords.get(noble)
    if lord is None:
        return f"{noble} is no longer in play"
    if lord.family not in allies(state, player):
        return f"{noble} is not of your family nor of a family allied to yours by marriage (2.14, 9.0)"
    held = rank_of(state, noble)
    why = appoint_problem(vars(lord), rank, held) or district_problem(state, board, rank, number, noble)
    if why:
        return f"{noble}: {why}"
    events: list[Event] = []
    if held == "bishop":   # l.249: the Archbishop card replaces the discarded Bishop card
        state.character_discard.append("bishop")
        events.append(Event("bishop_card_replaced", f"{noble}'s BISHOP card is discarded: the ARCHBISHOP card "
                            "replaces it (2.14).", data={"noble": noble}))
    if rank == "archbishop":
        church_state(state)["archbishops"].append(noble)
    lord.bishopric = number
    title = district_title(board, rank, number)
    return [Event("cleric_appointed", f"{player} plays {TITLE[rank].upper()} on {noble} ({lord.family}): {noble} "
                  f"is {title} (2.14).", data={"player": player, "noble": noble, "rank": rank,
                                                "district": number, "title": title})] + events


# -- a dead cleric (4.8) ------------------------------------------------------------------------

def cleric_died(state: FiefState, lord: Lord) -> list[Event]:
    """4.8: "A Bishop, Archbishop, or Abbess Title is discarded. Then all cards in the Character
    Deck are reshuffled." The card goes to the character discard; the reshuffle waits for the
    judge's next shuffle with the seeded generator (``reshuffle_if_due``, R71)."""
    st = church_state(state)
    if not lord.bishopric:
        return []
    rank = "archbishop" if lord.name in st["archbishops"] else "bishop"
    if lord.name in st["archbishops"]:
        st["archbishops"].remove(lord.name)
    lord.bishopric = None
    state.character_discard.append(rank)
    st["reshuffle"] = True
    return [Event("cleric_title_discarded", f"{lord.name} was {TITLE[rank]}: the {rank.upper()} card is discarded "
                  "and the whole Character Deck will be reshuffled (4.8).", data={"noble": lord.name, "rank": rank})]


def due_reshuffle(state: FiefState) -> None:
    """4.8 for any other title card discarded with its noble (an Abbess's): a reshuffle is due."""
    church_state(state)["reshuffle"] = True


def reshuffle_if_due(state: FiefState, rng: Rng) -> list[Event]:
    """R71: the Character Deck (its face-down cards and the face-up ones under it) shuffled into
    one face-down deck, before the next card is drawn from it."""
    st = church_state(state)
    if not st["reshuffle"]:
        return []
    st["reshuffle"] = False
    pile = state.character_pile + state.character_discard
    state.character_discard = []
    rng.shuffle(pile, "character deck, reshuffled after a cleric's death (4.8)")
    state.character_pile = pile
    return [Event("character_deck_reshuffled", f"A cleric died: the whole Character Deck ({len(pile)} cards) is "
                  "reshuffled (4.8).", data={"cards": len(pile)})]


# -- the Tithe (2.8, 3.2) -----------------------------------------------------------------------

def tithe_collector(state: FiefState, number: int) -> Lord | None:
    """2.8: "A Bishop or Archbishop on his own Bishopric/Archbishopric" - only there (R3). FAQ
    (l.866): a dead cleric's tithe is not collected."""
    return next((lo for lo in state.lords.values() if lo.bishopric == number and rank_of(state, lo.name)), None)


def tithe_rank(lord: Lord, target: str, number: int, governed: set[int]) -> int | None:
    """The core's ``tithe_rank`` hook for England: only the district's own cleric (2.8)."""
    return 0 if target != "all" and lord.bishopric == number else None


def tithe(board: Board, number: int, mills: Mapping[str, tuple[str | None, int]],
          exempt: Callable[[str], bool], bonus: Callable[[str], int], per_mill: int) -> tuple[int, dict[str, int]]:
    """3.2: the Tithe of district ``number``: 2 shillings per Mill (``per_mill``) plus the
    fortune bonuses of its Region (``bonus``: BOUNTIFUL HARVEST, GOOD WEATHER, R9), taken from
    the Mills' owners (``mills``: city -> (owner, mills producing)); Abbeys and their Mills are
    not tithed (``exempt``). -> (the collector's shillings, what each owner loses)."""
    total, lost = 0, dict[str, int]()
    for city in board.bishoprics[number].towns:
        owner, count = mills.get(city, (None, 0))
        if not count or exempt(city):
            continue
        value = count * (per_mill + bonus(city))
        total += value
        if owner:
            lost[owner] = lost.get(owner, 0) + value
    return total, lost
