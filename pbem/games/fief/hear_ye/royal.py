"""Marriages (1.1): the Hear Ye phase's first mail; the royal guard given and replaced when its
lord leaves (1.5.5; which guard: the edition's `royal_guard` hook). What a marriage or an
annulment does to titles, who may not marry (the edition's `married`, `unmarried` and
`marriage_blocker` hooks), France's queen (1.5.4, D.3.2), succession (D.3.3) and crown prince
(G.1.1) are France's own: pbem/games/fief_france/royal.py; its annulments (D.2.3) are its own
Hear Ye orders (pbem/games/fief_france/hear_ye.py)."""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.hear_ye.elections import ecclesiastical
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState, Lord
from pbem.rules.api import Event


def marriage_blocker(state: FiefState, lord: Lord) -> str | None:
    """Why ``lord`` cannot marry now (1.1.2, D.2, D.3.4), or None."""
    if not edition_of(state).may_marry(len(state.players)):
        return f"no marriage in a {len(state.players)}-player game (England 13.8)"
    if lord.spouse:
        return f"{lord.name} is already married"
    if ecclesiastical(lord):
        return f"{lord.name} is an ecclesiastic (D.2: bishops cannot marry)"
    blocker = edition_of(state).hooks.marriage_blocker   # France G.4.1.1: D'Arc "cannot be married"
    why = blocker(lord) if blocker else None
    if why:
        return why
    if any(l.spouse for l in state.lords.values() if l.family == lord.family):
        return f"{lord.family} already has a marriage (1.1.2: one at a time)"
    return None


def marriages(state: FiefState, orders: Mapping[str, Any]) -> list[Event]:
    """1.1: a marriage happens when both families order it for the same pair."""
    wanted = {}
    for player in state.turn_order():
        m = (orders.get(player) or {}).get("marry")
        if m and m.get("lord") in state.lords and state.lords[m["lord"]].family == player:
            wanted[player] = (m["lord"], m.get("to"))
    events = []
    done: set[str] = set()   # the second family of an agreed pair, told with the first
    for player, (mine, theirs) in wanted.items():
        other = state.lords.get(theirs or "")
        if player in done:
            continue
        if other is None or wanted.get(other.family) != (theirs, mine):
            events.append(Event("marriage_not_agreed", f"{player} proposes {mine} to marry {theirs}: "
                                f"{theirs}'s family did not order the same marriage ({edition_of(state).cite('1.1')}).",
                                data={"lords": [mine, theirs]}))
            continue
        done.add(other.family)
        a, b = state.lords[mine], other
        why = marriage_blocker(state, a) or marriage_blocker(state, b) or \
            (None if a.female != b.female else "the spouses must be a man and a woman") or \
            (None if not state.family_players or state.player_of(a.family) == state.player_of(b.family) else
             "at two players a marriage joins only a player's own two families (13.7)")
        if why:
            events.append(Event("marriage_refused", f"{mine} and {theirs} cannot marry: {why}.",
                                data={"lords": [mine, theirs]}))
            continue
        a.spouse, b.spouse = b.name, a.name
        events.append(Event("marriage", f"{a.name} ({a.family}) marries {b.name} ({b.family}) "
                            f"({edition_of(state).cite('1.1')}).",
                            data={"lords": [a.name, b.name], "families": [a.family, b.family]}))
        married = edition_of(state).hooks.married   # France 1.1.2, 1.5.4: the king's spouse is queen
        events += married(state, a, b) if married else []
    return events


def royal_guard(state: FiefState, lord: Lord) -> list[Event]:
    """1.5.5.1-2: up to the guard's size of pawns of its unit type in the lord's army become
    guard pawns, for free (the edition's `royal_guard` hook: the guard serving the lord's title;
    France: the king's retinue knights, the queen's retinue sergeants)."""
    found = next(((k, g) for k, g in edition_of(state).hooks.royal_guard.items() if lord.political in g.titles),
                 None)
    if found is None or lord.location is None or lord.captive_of:
        return []
    guard, kind = found
    unit = kind.unit
    mine = [p for p in state.pawns.values()
            if p.family == lord.family and p.location == lord.location and p.kind == unit][:kind.size]
    for pawn in mine:
        pawn.kind = guard
    if not mine:
        return []
    word = kind.word
    return [Event("royal_guard", f"{lord.name}'s royal guard: {len(mine)} {word} pawn"
                  f"{'s' if len(mine) > 1 else ''} replace{'s' if len(mine) == 1 else ''} "
                  f"{'as many' if len(mine) > 1 else 'a'} {unit.replace('_', '-')} pawn"
                  f"{'s' if len(mine) > 1 else ''} in {lord.location} (1.5.5).",
                  data={"lord": lord.name, "kind": guard, "count": len(mine)})]


def royal_guard_replaced(state: FiefState, name: str) -> list[Event]:
    """1.5.5: the guard pawns of the king's (queen's) family standing with them are replaced by
    knights (men-at-arms) from the family's pool while it has some; the others are removed.
    Idempotent: a second call finds no guard left."""
    lord = state.lords[name]
    kinds = [k for k, g in edition_of(state).hooks.royal_guard.items() if lord.political in g.titles]
    if not kinds or lord.location is None:
        return []
    guard_kind = kinds[0]
    unit = edition_of(state).hooks.royal_guard[guard_kind].unit
    guards = [p for p in state.pawns.values()
              if p.family == lord.family and p.kind == guard_kind and p.location == lord.location]
    if not guards:
        return []
    left = edition_of(state).pool(unit) - sum(1 for p in state.pawns.values()
                                              if p.family == lord.family and p.kind == unit)
    replaced = 0
    for pawn in guards:
        if left > 0:
            pawn.kind = unit
            left -= 1
            replaced += 1
        else:
            del state.pawns[pawn.id]
    removed = len(guards) - replaced
    word = "knight" if unit == "knight" else "man-at-arms"
    text = (f"{name}'s royal guard in {lord.location} is replaced by {replaced} {word} "
            f"pawn{'s' if replaced != 1 else ''} from {lord.family}'s pool"
            + (f"; {removed} cannot be replaced and {'is' if removed == 1 else 'are'} removed" if removed else "")
            + " (1.5.5).")
    return [Event("royal_guard_replaced", text, data={"lord": name, "family": lord.family,
                                                        "replaced": replaced, "removed": removed})]
