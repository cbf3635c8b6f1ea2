"""A noble leaves the game (E 4.8, 10.3, 10.4): what the Church, the retainers and the relics
lose with them. England's ``after_elimination`` hook calls ``church_after_death`` once the
core has taken the noble out of play (the titles of fiefdoms are the core's)."""
from __future__ import annotations

from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england import retainers
from pbem.games.fief_england.church import abbeys, clergy, relics
from pbem.rules.api import Event


def church_after_death(state: FiefState, gone: Lord) -> list[Event]:
    """4.8: the retainer is removed from the game (R48); a Bishop's, Archbishop's or Abbess's title
    card is discarded and the whole Character Deck reshuffled (R71), the Abbey staying; 12.0: the
    relics they carried lie where they died; R31: the Heresy marker leaves with its bearer."""
    events = retainers.remove_with(state, gone.name)
    events += clergy.cleric_died(state, gone)
    events += abbeys.abbess_died(state, gone)
    events += relics.holder_lost(state, gone.name, gone.location)
    if state.edition_state.get("heresy") == gone.name:
        del state.edition_state["heresy"]
    return events
