"""The Church's, the retainers' and the family-board cards' entries in England's hooks
(hooks.py): what they add to the Income phase, the End of Round and the Cards phase's draws."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england import excalibur, hired, retainers
from pbem.games.fief_england.board_loader import EnglandBoard
from pbem.games.fief_england.church import clergy, relics
from pbem.games.fief_england.church.income import church_income
from pbem.rules.api import Event
from pbem.rules.rng import Rng

BONUS_CARDS = ("bountiful_harvest", "good_weather")   # 2.7, 3.0 (R9: both stack)


def fortune_on(state: FiefState, board: Board, city: str) -> int:
    """3.0, R9: +1 for each BOUNTIFUL HARVEST and GOOD WEATHER on the Sea of ``city``'s Region
    (the fortune part lays them as ``BoardEffect(card, numeral)``)."""
    region = EnglandBoard.of(board).region_number(board.towns[city].fief)
    return sum(1 for e in state.board_effects if e.card in BONUS_CARDS and e.target == region)


def income_parts(state: FiefState, board: Board) -> tuple[dict[str, list[tuple[str, int]]], list[Event]]:
    """3.0, 3.1 (R18): the Abbeys' income and the `income` retainers'."""
    return church_income(state, board, lambda city: fortune_on(state, board, city), excalibur.where(state))


def end_of_round(state: FiefState, board: Board) -> list[Event]:
    """8.0: the Spent retainers turned face up; 11.1: crossbowmen back on their card; 11.2: a
    BURGHER without a titled Lord in the family discarded."""
    return retainers.end_of_round(state) + hired.end_of_round(state)


def captured(state: FiefState, lord: Lord) -> list[Event]:
    """12.0: "A Relic can be recovered by another Noble in the same City, if the one who held it
    is ... taken captive": the relics the captive carried lie where they were taken; 13.2:
    Excalibur is taken by another nobleman there."""
    return relics.holder_lost(state, lord.name, lord.location) \
        + excalibur.holder_lost(state, lord, lord.location, lord.captive_of)


def before_draws(state: FiefState, rng: Rng) -> list[Event]:
    """4.8, R71: the Character Deck reshuffled after a cleric's death, before the next draw."""
    return clergy.reshuffle_if_due(state, rng)
