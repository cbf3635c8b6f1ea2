"""Where a noble's troops and a freed captive go when the noble leaves a city at once
(E 10.3-10.5, 7.6): "disbursed in groups of 4 (if possible) to their nearest Family Nobles or,
failing that, Fortified Cities, Strongholds, or Controlled Cities" (R92).
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.control import controllers
from pbem.games.fief.state import FiefState, Pawn
from pbem.games.fief_england.battle.numbers import england_numbers
from pbem.games.fief_england.battle.siege import building
from pbem.rules.api import Event

GROUP = 4                                  # 10.3, 10.4, 10.5: "in groups of 4 (if possible)"
SIEGE_ENGINES = ("bombard", "trebuchet")   # not troops (Definitions l.894; Ex 10-5: left behind)


def _by_distance(board: Board, start: str, places: set[str]) -> list[str]:
    dist = board.distances(start)
    return sorted((p for p in places if p in dist and p != start), key=lambda p: (dist[p], p))


def family_havens(state: FiefState, board: Board, family: str, start: str) -> list[str]:
    """10.3: the family's free nobles' cities, nearest first; failing those its Fortified Cities
    and Strongholds, then its other controlled cities (each group nearest first)."""
    nobles = {l.location for l in state.lords.values()
              if l.family == family and not l.captive_of and l.location in board.towns}
    if nobles - {start}:
        return _by_distance(board, start, nobles)
    ctrl = controllers(state, board)
    mine = {t for t, f in ctrl.items() if f == family}
    forts = {t for t in mine if state.towns[t].fortress}
    return _by_distance(board, start, forts) + _by_distance(board, start, mine - forts)


def leaderless_troops(state: FiefState, family: str, city: str) -> list[str]:
    """The family's troops in ``city`` left with no free noble of the family there."""
    if any(l.family == family and not l.captive_of and l.location == city for l in state.lords.values()):
        return []
    return sorted((p.id for p in state.pawns.values() if p.family == family and p.location == city
                   and p.kind not in SIEGE_ENGINES), key=lambda pid: int(pid.lstrip("p") or 0))


def scatter(state: FiefState, board: Board, family: str, city: str, why: str, taker: str | None = None) -> list[Event]:
    """R92: the leaderless troops of ``family`` in ``city`` go in groups of 4, the first group to
    the nearest haven, the next to the next nearest, round again when every haven has one;
    with no haven they are lost (returned to the stockpile). Bombards and trebuchets are not
    troops and stay (Ex 10-5: "Her Troops have to leave their Bombard behind"); an opposing
    army in the city (``taker``) takes them over (7.5: siege engines alone are captured)."""
    troops = leaderless_troops(state, family, city)
    events: list[Event] = []
    if troops:
        havens = family_havens(state, board, family, city)
        moved: dict[str, list[str]] = {}
        for i in range(0, len(troops), GROUP):
            group = troops[i:i + GROUP]
            if not havens:
                for pid in group:
                    del state.pawns[pid]
                moved.setdefault("", []).extend(group)
                continue
            to = havens[(i // GROUP) % len(havens)]
            for pid in group:
                state.pawns[pid].location = to
            moved.setdefault(to, []).extend(group)
        parts = [f"{len(g)} to {to}" if to else f"{len(g)} lost (no city to go to)" for to, g in moved.items()]
        events.append(Event("troops_scattered", f"{why}: {family}'s troops in {city} leave in groups of 4: "
                            f"{'; '.join(parts)} ({'10.3-10.5'}).",
                            data={"family": family, "from": city, "moved": moved}))
    engines = [p for p in state.pawns.values() if p.family == family and p.location == city
               and p.kind in SIEGE_ENGINES]
    if engines and taker and not any(l.family == family and not l.captive_of and l.location == city
                                     for l in state.lords.values()):
        events.append(_engines_left(state, family, city, taker, engines))
    return events


def in_stock(state: FiefState, family: str, kind: str) -> int:
    """The family's markers of a siege engine not on the map (l.30: 3 Bombards, 2 Trebuchets),
    a trebuchet under construction being out of the stockpile too (7.9)."""
    on_map = sum(1 for p in state.pawns.values() if p.family == family and p.kind == kind)
    return england_numbers().pools.get(kind, 0) - on_map - (building(state, family) if kind == "trebuchet" else 0)


def _engines_left(state: FiefState, family: str, city: str, taker: str, engines: list[Pawn]) -> Event:
    """Ex 10-5 (l.738): the Bombard left behind "is quickly replaced with Dave's available Bombard
    Marker": taken over while the taker has such a marker in stock, else destroyed (R78; from
    rules version 3: a game of version 2 takes them all over)."""
    if state.rules_version < 3:
        for pawn in engines:
            pawn.family = taker
        return Event("engines_taken", f"{family}'s {len(engines)} siege engine(s) left behind in {city} are "
                     f"taken over by {taker} (Ex 10-5, 7.5).",
                     data={"family": family, "taker": taker, "city": city, "pawns": [p.id for p in engines]})
    taken: list[str] = []
    destroyed: list[str] = []
    for pawn in engines:
        if in_stock(state, taker, pawn.kind) > 0:
            pawn.family = taker
            taken.append(pawn.id)
        else:
            destroyed.append(pawn.kind)
            del state.pawns[pawn.id]
    parts = [f"{len(taken)} taken over by {taker}"] if taken else []
    if destroyed:
        parts.append(f"{len(destroyed)} destroyed ({taker} has no such marker left in stock)")
    return Event("engines_taken", f"{family}'s {len(engines)} siege engine(s) left behind in {city}: "
                 f"{'; '.join(parts)} (Ex 10-5, R78).",
                 data={"family": family, "taker": taker, "city": city, "pawns": taken, "destroyed": destroyed})


def release_captives(state: FiefState, board: Board, jailer: str, city: str, why: str) -> list[Event]:
    """7.6, 10.3: the captives ``jailer`` holds in ``city`` with no free noble of its family
    left there are released, each to the nearest of their family's Strongholds and Fortified
    Cities or cities of their family's nobles (7.6 "Released Captives"); with none, they stay
    free where they are."""
    if any(l.family == jailer and not l.captive_of and l.location == city for l in state.lords.values()):
        return []
    events: list[Event] = []
    ctrl = controllers(state, board)
    for lord in sorted((l for l in state.lords.values() if l.captive_of == jailer and l.location == city),
                       key=lambda l: l.name):
        nobles = {l.location for l in state.lords.values() if l.family == lord.family and not l.captive_of
                  and l.location in board.towns}
        forts = {t for t, f in ctrl.items() if f == lord.family and state.towns[t].fortress}
        places = _by_distance(board, city, nobles | forts)
        lord.captive_of = None
        lord.location = places[0] if places else city
        events.append(Event("captive_released", f"{why}: {lord.name} ({lord.family}) is released and goes to "
                            f"{lord.location} (7.6).", data={"lord": lord.name, "to": lord.location}))
    return events
