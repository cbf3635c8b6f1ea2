"""A lord leaves play (D.4): the one elimination shared by the movement rules (plague), the
battle engine and the cards (plague, assassination, justice, uprising).

D.4.2: the fief titles go to the other lords of the family (D.1.1); if the lord was the
family's last, a spouse takes them (D.1.1 again: what cannot be transmitted is vacant) and the
troops in each fief city so transmitted become the spouse family's pawns (those the spouse's
pool cannot match are removed); an unmarried last lord leaves the titles vacant.
1.5.5: a king or queen eliminated (or made captive) has their royal guard replaced by knights
(men-at-arms) from the family's pool, if able (hear_ye/royal.py: royal_guard_replaced).

D.3.3: the crown prince becomes king when the king is eliminated; D.2.3.1: the pope's
elimination lifts the excommunication (the edition's hook ``after_elimination``; France's:
pbem/games/fief_france/royal.py). An ecclesiastical
title left free is filled by the next Hear Ye elections (1.3, 1.4).
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.games.fief.hear_ye.royal import royal_guard_replaced
from pbem.games.fief.hear_ye.titles import PRESTIGE, city_of, family_lords, grant_fief_title
from pbem.rules.api import Event


def eliminate_lord(state: FiefState, board: Board, name: str) -> list[Event]:
    """Remove a lord from play and settle D.4 and 1.5.5."""
    spare = edition_of(state).hooks.spared
    saved = spare(state, name) if spare is not None else None
    if saved is not None:   # England 12.3: the Skull of Saint Caradoc
        return saved
    events = royal_guard_replaced(state, name)
    lord = state.lords.pop(name)
    state.character_discard.append(name)
    if name in state.frieze:   # G.4.1.2: the D'Arc / cardinal card goes back to the discard pile
        state.character_discard.append(state.frieze.pop(name))
    events.append(Event("lord_eliminated", f"{name} ({lord.family}) is eliminated.",
                        data={"lord": name, "family": lord.family}))
    spouse = state.lords.get(lord.spouse) if lord.spouse else None
    if spouse is not None:
        spouse.spouse = None   # 1.1.3: the marriage ends
    events += edition_of(state).hooks.after_elimination(state, lord)   # France: D.3.3, D.2.3.1
    titles = list(lord.fief_titles)
    lord.fief_titles.clear()
    kin = family_lords(state, lord.family)
    # D.4.2: the last lord's titles go to the spouse, another family's lord.
    heirs = kin or ([spouse] if spouse is not None else [])
    for fief in sorted(titles, key=lambda f: -_rank(board, f)):   # the most prestigious first
        state.fief_titles[fief] = None
        if not heirs:
            events.append(Event("title_vacant", f"The title of the {board.fiefs[fief].name} is vacant: "
                                f"{name} was the last lord of {lord.family}, unmarried (D.4.2).",
                                data={"fief": fief, "family": lord.family}))
            continue
        # D.1.1: the heir with the fewest titles; one holding 2 already passes the least
        # prestigious of 3 on to their family, or leaves it vacant (grant_fief_title).
        heir = min(heirs, key=lambda h: len(h.fief_titles))
        events += grant_fief_title(state, board, fief, heir.name)
        holder = state.fief_titles.get(fief)
        if not kin and holder in state.lords and state.lords[holder].family != lord.family:
            events += _city_changes_hands(state, board, fief, lord.family, state.lords[holder].family)
    return events


def _rank(board: Board, fief: str) -> int:
    return PRESTIGE[board.fiefs[fief].rank]


def replace_troop(state: FiefState, city: str, old: str, new: str) -> tuple[int, int, int]:
    """``old``'s troop in ``city`` replaced by ``new``'s unit pawns as its pool allows (the others
    removed from the board), and the city's control with it (D.4.2; England 4.9's Royal
    Stronghold). Returns (the troop's size, replaced, removed)."""
    troop = [p for p in state.pawns.values() if p.location == city and p.family == old]
    units = edition_of(state).units   # A.1: the new family's pool
    left = {kind: unit.pool - sum(1 for p in state.pawns.values() if p.family == new and p.kind == kind)
            for kind, unit in units.items()}
    replaced = removed = 0
    for pawn in troop:
        if left.get(pawn.kind, 0) > 0:   # a royal guard pawn has no counterpart: removed
            left[pawn.kind] -= 1
            pawn.family = new
            replaced += 1
        else:
            del state.pawns[pawn.id]
            removed += 1
    here = state.towns[city]
    if here.controller == old:
        here.controller = new
    here.arrivals[:] = list(dict.fromkeys(new if f == old else f for f in here.arrivals))
    return len(troop), replaced, removed


def _city_changes_hands(state: FiefState, board: Board, fief: str, old: str, new: str) -> list[Event]:
    """D.4.2: "Any troop in the fief city which title has been transmitted is replaced by the
    corresponding unit pawns of the new owning family (those which cannot be replaced are
    removed from the board)". The city follows its troop: the new family controls it."""
    city = city_of(state, board, fief)
    if city is None:
        return []
    troop, replaced, removed = replace_troop(state, city, old, new)
    if not troop:
        return []
    return [Event("troop_replaced", f"{old}'s troop in {city} is replaced by {new}'s pawns: {replaced} "
                  f"replaced, {removed} removed (D.4.2).",
                  data={"town": city, "from": old, "to": new, "replaced": replaced, "removed": removed})]


def captive_markers_left(state: FiefState) -> int:
    """6.3, B: the captive markers not on a captive lord's card. From rules version 2 a lord is
    taken captive only with a marker left (ruling 39); version 1 had no cap: every lord in play
    could be taken."""
    markers = edition_of(state).captive_markers
    if state.rules_version < 2 or markers is None:   # no cap (England has no captive markers, 7.6)
        return len(state.lords)
    return markers - sum(1 for lo in state.lords.values() if lo.captive_of)


def capture_lord(state: FiefState, board: Board, name: str, jailer: str) -> list[Event]:
    """6.3: flip the lord to 'captive'; they stay where they stand, with their jailer's forces."""
    state.lords[name].captive_of = jailer
    events = royal_guard_replaced(state, name)
    captured = edition_of(state).hooks.captured   # England 12.0: the relics they carried drop there
    return (events + captured(state, state.lords[name])) if captured is not None else events
