"""What the cards read of the other England parts' state (``FiefState.edition_state``, one key
per owning module): the Church's abbeys and Heresy marker. One place, so a change of their
format is one change here.
"""
from __future__ import annotations

from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.church import abbeys

ABBEYS = "abbeys"   # the Church's: city -> its abbey (2.13)
HERESY = "heresy"   # the Church's: the name of the noble bearing the Heresy marker (R31), or absent

# The Royal Family (9.0, 10.4): never the target of JUSTICE.
ROYAL_FAMILY = ("king", "sovereign_queen", "queen", "prince_of_wales")


def abbey_in(state: FiefState, city: str) -> bool:
    """2.13: an Abbey stands in ``city`` (it protects the nobles there from plague, rebellion
    and justice); the Church part's record (church/abbeys.py)."""
    return abbeys.abbey_in(state, city) is not None


def heresy_bearer(state: FiefState) -> str | None:
    name = state.edition_state.get(HERESY)
    return name if isinstance(name, str) and name in state.lords else None


def give_heresy(state: FiefState, lord: Lord) -> str | None:
    """R31: the one Heresy marker moves to ``lord``; returns its earlier bearer (None: none)."""
    before = heresy_bearer(state)
    state.edition_state[HERESY] = lord.name
    return before


def royal(lord: Lord) -> bool:
    return lord.political in ROYAL_FAMILY


PARLIAMENT = "parliament_rebellion"   # this part's: the PARLIAMENT card lies on its Rebellion side (9.3)
FAMILY_CARD = "family_card"           # the card on a family board's right-hand space (11.0): family -> card id


def abbess_of(state: FiefState, lord: Lord) -> bool:
    """2.13: ``lord`` is the Abbess of an Abbey (the Church part's ``abbeys``: city -> {"abbess": name})."""
    return any(isinstance(a, dict) and a.get("abbess") == lord.name
               for a in (state.edition_state.get(ABBEYS) or {}).values())


def cleric(state: FiefState, lord: Lord) -> bool:
    """10.1: an Abbess, Bishop or Archbishop (who may quell a rebellion)."""
    return bool(lord.bishopric) or abbess_of(state, lord)


def parliament_rebellion(state: FiefState) -> bool:
    """9.3: the Royal Tax passed this round: the PARLIAMENT card adds one Rebellion anywhere."""
    return bool(state.edition_state.get(PARLIAMENT))


def burgher(state: FiefState, family: str) -> bool:
    """11.2: the family has a BURGHER card on its board's right-hand space."""
    return str((state.edition_state.get(FAMILY_CARD) or {}).get(family, "")).startswith("burgher")
