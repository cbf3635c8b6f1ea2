"""England's six Regions (E Setup l.25, 2.4): numbered I-VI, each at once a fiefdom and the land
of its Sea. A disaster or fortune card lies on a Region's Sea and is named by its numeral
(``BoardEffect.target`` "I".."VI"), which the core's readers of bishopric numbers ("1".."4")
never mistake for theirs. The numbers are England's board's (``EnglandBoard.regions``).
"""
from __future__ import annotations

from typing import Iterable

from pbem.games.fief.board import Board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.board_loader import EnglandBoard

NUMERALS = ("I", "II", "III", "IV", "V", "VI")


def numeral(number: int) -> str:
    return NUMERALS[number - 1]


def region_fief(board: Board, target: str) -> str:
    """The fief id of the Region named by its numeral."""
    return EnglandBoard.of(board).regions[target]


def region_of(board: Board, place: str) -> str | None:
    """The numeral of the Region a city lies in, or of a Sea ("Sea III"); None: neither."""
    england = EnglandBoard.of(board)
    info = board.towns.get(place)
    if info is not None:
        return england.region_number(info.fief)
    return next((england.region_number(f) for f, sea in england.sea_of.items() if sea == place), None)


def region_cities(board: Board, target: str) -> tuple[str, ...]:
    """The cities of the Region named by its numeral."""
    return board.fiefs[region_fief(board, target)].towns if target in NUMERALS else ()


def region_name(board: Board, target: str) -> str:
    """"Region III (Barony of the Marches)" for the reports."""
    return f"Region {target} ({board.fiefs[region_fief(board, target)].name})" if target in NUMERALS else target


def regions_with(state: FiefState, kind: str) -> set[str]:
    """The Regions, by numeral, a card of ``kind`` lies on (2.4: on the Region's Sea). The numeral
    is the one format of a card's target: every reader of a disaster on a Region asks here (the
    disasters part's STORMS and FAMINE, naval moves, the Chasuble, the Invaders' landings)."""
    return regions_of(((e.card, e.target) for e in state.board_effects), kind)


def regions_of(effects: Iterable[tuple[str, str]], kind: str) -> set[str]:
    """The same over (card, target) pairs: the state's board effects or a view's (a mail's check)."""
    return {target for card, target in effects if card == kind and target in NUMERALS}


def storm_regions(state: FiefState) -> set[str]:
    """2.5: the Regions, by numeral, under STORMS - land and sea (``disasters.storms_at``, the
    naval moves of 5.5, the Chasuble of 12.2 and the Invaders of 6.2, 6.3 read it)."""
    return regions_with(state, "storms")


def record(state: FiefState, key: str):
    """A number of England's edition record that only England's modules read (``Edition.extra``:
    `supply.treasures`, `income.fortune_bonus`, `dice.plague_death`, ...; dotted into `dice`)."""
    extra = load_edition(state.variant).extra
    if key in extra:
        return extra[key]
    head, _, rest = key.partition(".")
    return extra[head][rest]
