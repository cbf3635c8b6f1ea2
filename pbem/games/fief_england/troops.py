"""England's troops as the cards strike them (E 7.5, 2.5, 10.1)."""
from __future__ import annotations

from collections import Counter

from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.regions import record


def hits_to_defeat(state: FiefState) -> dict[str, int]:
    """7.5: the hits that defeat each troop, equal to its Strength Points (7.3): the units'
    (bombards and trebuchets have none: not troops), the hired crossbowmen's (11.1) and the
    royal guard's (13.1), from the edition record."""
    edition = edition_of(state)
    out = {kind: unit.combat_points for kind, unit in edition.units.items() if unit.combat_points}
    for group in ("hired_units", "royal_guard"):
        out.update({kind: spec["combat_points"] for kind, spec in record(state, group).items()})
    return out


def troops_text(state: FiefState, kinds: list[str]) -> str:
    """Troops by kind in the reports' words ("2 men-at-arms, 1 knight"); "none" for none. Kinds the
    edition record has no words for (hired crossbowmen, the royal guard) are written by their id."""
    edition = edition_of(state)
    counts = Counter(kinds)
    return ", ".join(edition.unit_text(k, n) if k in edition.units else f"{n} {k.replace('_', ' ')}"
                     for k, n in counts.items()) or "none"
