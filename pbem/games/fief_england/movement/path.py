"""The path of an England move as a mail writes it (E 5.0, 5.4, 13.4): a list of places, one
after the other, each a city, a sea or Sherwood, and what each step costs in Moves.

    path: [Oxford, London]                 # by road, 1 Move a city (5.0, Ex 5-1)
    path: [Sea V, King's Lynn, Coventry]   # sail into Sea V (1 Move), land at its port, on by
                                           # road (1 Move) (5.4, Ex 5-3)
    path: [Sea V, Sea VI, London]          # 2 Moves at sea, landing in London (Ex 5-4)
    path: [Sherwood, King's Lynn]          # through Sherwood, 1 Move (13.4, Ex 13-1)

A sea is named as the board names it or by its number (`Sea V`, `V`, `5`, `sea region 5`).
Naming the port after the last sea is landing there: no Move of its own ("Each move into a new
Sea counts as one move", 5.4; Whitby to King's Lynn is 1 Move, Ex 5-3). Sherwood "is not a
City, so moving through it does not cost an extra Move" (13.4): Sherwood and the city after it
are one Move.

``read_path`` is pure: the mail checker reports its problem (naming the step and the fix), and
the resolution reads the same legs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from pbem.games.fief_england.movement.waters import Waters
from pbem.orders.reading import suggest

ROAD, SHERWOOD, SEA, LAND = "road", "sherwood", "sea", "land"


class Roads(Protocol):
    """What a path needs of the board (the core's ``Board``)."""

    towns: Any

    def adjacent(self, a: str, b: str) -> bool: ...
    def neighbours(self, town: str) -> tuple[str, ...]: ...
    def find_town(self, text: str) -> str | None: ...


@dataclass(frozen=True)
class Leg:
    """One place of a path: how it is reached and the Moves it costs."""

    kind: str       # road | sherwood (a city through the forest) | sea (a sea sailed into) | land
    place: str      # a city, or a sea's number for `sea`
    moves: int      # 1, or 0 for landing at the port of the last sea


@dataclass(frozen=True)
class PathProblem:
    index: int      # the step of the path (0-based) the problem is at
    problem: str
    fix: str


def read_path(board: Roads, waters: Waters, start: str, raw: list[Any], max_seas: int) -> list[Leg] | PathProblem:
    """The legs of ``raw`` from ``start``, or the first problem. Only the rules that the path
    itself shows are checked here (``max_seas``: the record's `moves.naval_seas`, "one or two
    contiguous Sea Regions away"); who may sail (the round's start, STORMS, a blocked port) is
    checked by naval.py when the move is made."""
    legs: list[Leg] = []
    here, at_sea, voyage, forest = start, False, 0, False
    for i, text in enumerate(raw):
        step = i + 1
        if waters.is_forest(text):   # 13.4
            if forest:
                return PathProblem(i, f"step {step}: Sherwood twice in a row", "name a city after Sherwood")
            if at_sea:
                return PathProblem(i, f"step {step}: an army at sea cannot enter Sherwood",
                                   f"land first at the port of Sea {here}, {waters.port_of(here)} (5.4)")
            if here not in waters.bandit_cities:
                return PathProblem(i, f"step {step}: no bandit path leaves {here} (13.4)",
                                   "the bandit paths join " + ", ".join(waters.bandit_cities))
            forest = True
            continue
        sea = waters.find_sea(text)
        if sea is not None:   # 5.4
            if forest:
                return PathProblem(i, f"step {step}: Sherwood leads to a city, not to a sea",
                                   "name the city after Sherwood: " + ", ".join(c for c in waters.bandit_cities
                                                                                 if c != here))
            if not at_sea:
                if i != 0:
                    return PathProblem(i, f"step {step}: a naval move begins in the port the army began the "
                                       "round in, as the first step of its path (5.4, Ex 5-6)",
                                       "make the sea the first step of the path, or move by road")
                if here not in waters.port_sea:
                    return PathProblem(i, f"step {step}: {here} is not a port: a naval move leaves from a "
                                       "port (5.4)", "the ports: " + ", ".join(waters.port_sea))
                home = waters.port_sea[here]
                if sea == home:
                    return PathProblem(i, f"step {step}: {here} lies on Sea {home} already",
                                       f"name the sea sailed into next: {_touching(waters, home)} (5.4)")
                if sea not in waters.touches[home]:
                    return PathProblem(i, f"step {step}: Sea {sea} does not touch Sea {home}, {here}'s sea (5.4)",
                                       f"from Sea {home} a fleet sails into {_touching(waters, home)}")
            elif sea not in waters.touches[here]:
                return PathProblem(i, f"step {step}: Sea {sea} does not touch Sea {here} (5.4)",
                                   f"from Sea {here} a fleet sails into {_touching(waters, here)}")
            voyage += 1
            if voyage > max_seas:
                return PathProblem(i, f"step {step}: a naval move reaches a port one or two seas away, "
                                   f"not {voyage} (5.4)", "land at a port before a third sea")
            legs.append(Leg(SEA, sea, 1))
            here, at_sea = sea, True
            continue
        if not isinstance(text, str):
            return PathProblem(i, f"step {step}: a city, a sea or Sherwood is expected here",
                               "write e.g. `London`, `Sea VI` or `Sherwood`")
        city = board.find_town(text)
        if city is None:
            return PathProblem(i, f"step {step}: there is no city or sea called {text!r}",
                               suggest(text, list(board.towns) + [waters.name(s) for s in waters.seas]
                                       + [waters.forest]))
        if at_sea:
            port = waters.port_of(here)
            if city != port:
                return PathProblem(i, f"step {step}: from Sea {here} an army lands at its port, {port}, "
                                   f"not {city} (5.4)", f"write `{port}` after `Sea {here}`")
            legs.append(Leg(LAND, city, 0))
            here, at_sea = city, False
            continue
        if forest:
            if not waters.bandit_path(here, city):
                return PathProblem(i, f"step {step}: the bandit paths join {', '.join(waters.bandit_cities)}; "
                                   f"{city} is not one of the others (13.4)",
                                   "name one of " + ", ".join(c for c in waters.bandit_cities if c != here))
            legs.append(Leg(SHERWOOD, city, 1))
            here, forest = city, False
            continue
        if city == here:
            return PathProblem(i, f"step {step}: the army is already in {city}", "name the next city on the road")
        if not board.adjacent(here, city):
            return PathProblem(i, f"step {step}: no road from {here} to {city}",
                               f"{here} connects to " + ", ".join(board.neighbours(here))
                               + (" (and Sherwood's bandit paths)" if here in waters.bandit_cities else ""))
        legs.append(Leg(ROAD, city, 1))
        here = city
    if not legs and not forest:
        return PathProblem(0, "the path is empty", "name at least one city")
    if forest:
        return PathProblem(len(raw) - 1, "the path ends in Sherwood: Sherwood is not a city (13.4)",
                           "name the city the bandit path leads to")
    if at_sea:
        return PathProblem(len(raw) - 1, f"the path ends at Sea {here}: an army never ends its move at sea "
                           "(5.4)", f"add the port to land at: {waters.port_of(here)}")
    return legs


def moves_of(legs: list[Leg]) -> int:
    return sum(leg.moves for leg in legs)


def _touching(waters: Waters, sea: str) -> str:
    return " or ".join(waters.name(s) for s in waters.seas if s in waters.touches[sea])
