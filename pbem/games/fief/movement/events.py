"""Telling movement: who sees what.

Movement on the board is public (the pawns stand on the map). Under fog of war (option
fog_of_war, I.2) unit pawns stand face down: other players see how many pawns moved, not their
kinds; the owner sees the kinds. A refused safe passage is told to the mover and the refusers.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable

from pbem.games.fief.edition import Edition, edition_of
from pbem.games.fief.movement.presence import Place
from pbem.games.fief.state import FiefState
from pbem.rules.api import Audience, Event



def kinds_of(state: FiefState, pawn_ids: Iterable[str], kinds: dict[str, str] | None = None) -> dict[str, int]:
    """kind -> count; ``kinds`` remembers the kind of pawns that may be gone from the state."""
    counts: Counter = Counter()
    for pid in pawn_ids:
        kind = state.pawns[pid].kind if pid in state.pawns else (kinds or {}).get(pid)
        if kind:
            counts[kind] += 1
    return dict(sorted(counts.items()))


def units_text(edition: Edition, units: dict[str, int]) -> str:
    """Pawns by kind as the reports write them (the edition record's words: "1 knight, 3 men-at-arms")."""
    if not units:
        return f"no {edition.words['unit']}s"
    return ", ".join(edition.unit_text(k, n) for k, n in units.items())


def hidden_text(edition: Edition, units: dict[str, int]) -> str:
    """Pawns face down (I.2; England's Troops, 4.1): their number, in the edition's word (unit pawn, unit)."""
    n = sum(units.values())
    word = edition.words["unit"]
    return f"no {word}s" if n == 0 else f"{n} {word}{'s' if n != 1 else ''}"


def hide(value: Any, kinds: tuple[str, ...]) -> Any:
    """Replace every kind -> count mapping in event data with {"hidden": n} (I.2); ``kinds``: the
    edition's pawn kinds."""
    if isinstance(value, dict):
        if value and all(k in kinds for k in value) and all(isinstance(v, int) for v in value.values()):
            return {"hidden": sum(value.values())}
        return {k: hide(v, kinds) for k, v in value.items()}
    if isinstance(value, list):
        return [hide(v, kinds) for v in value]
    return value


class Teller:
    """Collects the phase's events with the right audiences."""

    def __init__(self, state: FiefState):
        self.state = state
        self.fog = edition_of(state).fog(state.options)
        self.events: list[Event] = []

    def public(self, kind: str, family: str, text: str, hidden: str, data: dict,
               hidden_data: dict | None = None) -> None:
        """An event about ``family``'s forces: the kinds for the owner; under fog of war the
        other players get ``hidden`` (pawn counts) and data with the kinds removed."""
        if not self.fog:
            self.events.append(Event(kind, text, Audience.everyone(), data))
            return
        mine = self.state.families_of(self.state.player_of(family))   # 13.7: the player's own families
        others = [p for p in self.state.players if p not in mine]
        self.events.append(Event(kind, text, Audience.only(*mine), data))
        if others:
            self.events.append(Event(kind, hidden, Audience.only(*others),
                                     hide(data if hidden_data is None else hidden_data,
                                          edition_of(self.state).pawn_kinds())))

    def private(self, kind: str, players: Iterable[str], text: str, data: dict) -> None:
        self.events.append(Event(kind, text, Audience.only(*players), data))

    def add(self, events: Iterable[Event]) -> None:
        self.events.extend(events)


class MoveLog:
    """What a move did, for its report line."""

    def __init__(self, start: str):
        self.start = start
        self.steps: list[tuple[str, bool, bool]] = []   # (town reached, stopped on the road, went back)
        self.units: dict[str, int] = {}
        self.left: dict[str, dict[str, int]] = {}
        self.picked: dict[str, dict[str, int]] = {}
        self.notes: list[str] = []
        self.underground: list[int] = []   # indexes in ``steps`` made by an underground card (G.4.2.2)
        self.card_word = "underground"     # how the route names such a step (England: passage, 10.2)

    def text(self, lead: str, units: str, fmt: Callable[[dict], str], outcome: str, reason: str,
             forced: bool, notes: list[str], cite: Callable[[str], str] = str) -> str:
        """The move as the report tells it; ``cite``: the edition's section for France's."""
        route = " -> ".join([self.start] + [t + (f" ({self.card_word})" if i in self.underground else "")
                                            for i, (t, _, _) in enumerate(self.steps)])
        parts = [f"{lead} ({units})" + (f" moves {route}" if self.steps else f" stays in {self.start}")]
        if forced:
            parts.append(f"landing by default: forces at sea must land in a harbor ({cite('5.3')})")
        for town, units_left in self.left.items():
            parts.append(f"leaves {fmt(units_left)} in {town}")
        for town, units_picked in self.picked.items():
            parts.append(f"picks up {fmt(units_picked)} in {town}")
        if self.steps and self.steps[-1][1] and outcome == "completed":
            parts.append(f"waits on the road outside {self.steps[-1][0]}, held by another family "
                         f"({cite('5.2.1')}); placed there at the end of the phase")
        if outcome != "completed" and reason:
            parts.append(reason)
        parts += notes
        return "; ".join(parts) + "."


def where_text(place: Place, seas: tuple[str, ...]) -> str:
    """Where an army stands, in a report: "in Tours", at a sea its name ("offshore", 5.3), on a road."""
    if place[0] == "town":
        return place[1] if place[1] in seas else f"in {place[1]}"
    if place[1] in seas:
        return f"outside {place[2]}, held by another family (placed there at the end of the phase)"
    return (f"on the road from {place[1]} to {place[2]} (placed in {place[2]} at the end of the "
            "phase, 5)")
