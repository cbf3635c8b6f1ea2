"""The disaster cards lying on a Region's Sea, as the Invaders read them (E 2.4, 2.5, 6.2): an
INVASION card (`invaders`), STORMS (`storms`) and PLAGUE (`plague`) in ``FiefState.board_effects``,
whose target is the Region's numeral ("V"), the one format England's card rules lay them in;
the disasters part reads them (``disasters.regions_with``), the Invaders count Regions 1-6."""
from __future__ import annotations

from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief_england.regions import NUMERALS, regions_with

INVASION, STORMS, PLAGUE = "invaders", "storms", "plague"   # games/fief_england/cards.yaml ids


def region_of(effect: BoardEffect) -> int | None:
    """The Region number (1-6) of a card lying on a Region's Sea, or None."""
    return NUMERALS.index(effect.target) + 1 if effect.target in NUMERALS else None


def struck(state: FiefState, card: str) -> set[int]:
    """The Regions (1-6) a card of this kind lies on."""
    return {NUMERALS.index(n) + 1 for n in regions_with(state, card)}
