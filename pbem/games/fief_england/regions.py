"""England's six Regions (E Setup l.25, 2.4): numbered I-VI, each at once a fiefdom and the land
of its Sea. A disaster or fortune card lies on a Region's Sea and is named by its numeral
(``BoardEffect.target`` "I".."VI"), which the core's readers of bishopric numbers ("1".."5")
never mistake for theirs.

The core's ``Board`` holds a Region as a fief (``Board.fiefs``, in the board file's order I-VI,
``TownInfo.fief``); the numbers are that order.
"""
from __future__ import annotations

from pbem.games.fief.board import Board

NUMERALS = ("I", "II", "III", "IV", "V", "VI")


def numeral(number: int) -> str:
    return NUMERALS[number - 1]


def number_of(target: str) -> int | None:
    """The Region number of a numeral ("III" -> 3), None for anything else."""
    return NUMERALS.index(target) + 1 if target in NUMERALS else None


def region_fief(board: Board, number: int) -> str:
    """The fief id of Region ``number`` (1-6)."""
    return list(board.fiefs)[number - 1]


def region_of(board: Board, place: str) -> str | None:
    """The numeral of the Region a city lies in, or of a Sea ("Sea III", "III"); None: neither."""
    info = board.towns.get(place)
    if info is not None:
        return numeral(list(board.fiefs).index(info.fief) + 1)
    word = str(place).split()[-1] if place else ""
    return word if word in NUMERALS else None


def region_cities(board: Board, target: str) -> tuple[str, ...]:
    """The cities of the Region named by its numeral."""
    number = number_of(target)
    return board.fiefs[region_fief(board, number)].towns if number else ()


def region_name(board: Board, target: str) -> str:
    """"Region III (Barony of the Marches)" for the reports."""
    number = number_of(target)
    return f"Region {target} ({board.fiefs[region_fief(board, number)].name})" if number else target
