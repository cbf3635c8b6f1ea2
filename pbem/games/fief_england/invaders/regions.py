"""The disaster cards lying on a Region's Sea, as the Invaders read them (E 2.4, 2.5, 6.2): an
INVASION card (`invaders`), STORMS (`storms`) and PLAGUE (`plague`) in ``FiefState.board_effects``,
whose target is the Region: its numeral ("V") or its fief id ("midlands"), as England's card
rules place them."""
from __future__ import annotations

from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief_england.compass import NUMERALS, Compass

INVASION, STORMS, PLAGUE = "invaders", "storms", "plague"   # games/fief_england/cards.yaml ids


def region_of(effect: BoardEffect, compass: Compass) -> int | None:
    target = str(effect.target).strip()
    if target in NUMERALS:
        return NUMERALS.index(target) + 1
    return compass.fief_region.get(target)


def struck(state: FiefState, compass: Compass, card: str) -> set[int]:
    """The Regions a card of this kind lies on."""
    return {r for e in state.board_effects if e.card == card and (r := region_of(e, compass)) is not None}
