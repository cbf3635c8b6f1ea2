"""Mercenary crossbowmen hired in the middle of a battle (E 11.1: "They may be hired in middle of a
Battle"; R41: by mail a battle-plan standing order), through the cards part's ``hired.hire``:

    battle_plan:
      hire_crossbowmen: 3      # 11.1: at the start of each of your battles, after both sides reveal
                               #   their troops, hire up to 3 crossbowmen from your MERCENARY card
                               #   into the battle's city, 2 shillings each, paid at once

Each family of either side reads its own plan (the crossbowmen and the shillings are its own),
in turn order; a family hires as many as its card holds and its shillings pay, up to the number,
and is told alone why fewer (a shortfall at the table would be the same refusal). The mail's
check refuses the word without a MERCENARY card, above the crossbowmen on it, or above what the
family's shillings pay when the mail is read (``check_hire``)."""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.battle.context import Battle
from pbem.games.fief.edition import load_edition
from pbem.games.fief.families import RESERVED
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import hired
from pbem.games.fief_england.battle.sides import own_plan
from pbem.orders.reading import Problems, whole_number
from pbem.rules.api import Audience, Event

WORD = "hire_crossbowmen"


def check_hire(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> int:
    """The plan word's value: a whole number (0: hire none), checked on the player's view."""
    wanted = whole_number(value, line, WORD, problems, low=0)
    if not wanted:
        return 0
    can, left = hired.hirable_in_view(view, me)   # the family's own card and those lent to it
    if not can:
        problems.add(line, "you have no MERCENARY card on your family board (11.1)",
                     "play a MERCENARY card first (11.0), or remove `hire_crossbowmen`")
        return 0
    if wanted > left:
        problems.add(line, f"only {left} crossbowmen lie on your MERCENARY card (11.1)", f"write `{WORD}: {left}`")
        return 0
    money = view["families"][me]["deniers"] - view.get(RESERVED, 0)   # 13.7, R159: the families before
    each = _price(view)
    if money < wanted * each:
        after = " left after your other family's battle plan (13.7: one purse)" if view.get(RESERVED) else ""
        problems.add(line, f"{wanted} crossbowmen cost {wanted * each} shillings (11.1: {each} each); you have "
                     f"{max(money, 0)}{after}", f"write `{WORD}: {max(money, 0) // each}`, or send the word when you "
                     "can pay")
        return 0
    return wanted


def plan_spends(view: dict, plan: Mapping[str, Any]) -> int:
    """The shillings a family's canonical plan may spend on crossbowmen in one battle: its largest
    `hire_crossbowmen` (the plan's own or a town's) at 2 shillings each (11.1); at two players the
    next family of the mail is checked against the one purse after it (13.7, R159)."""
    words = [plan.get(WORD) or 0] + [(town or {}).get(WORD) or 0 for town in (plan.get("towns") or {}).values()]
    return max(words) * _price(view)


def _price(view: dict) -> int:
    return int(load_edition(view["game"]).extra["hired_units"][hired.UNIT]["price"])


def shortfall(state: FiefState, family: str, wanted: int) -> tuple[int, str | None]:
    """How many of ``wanted`` the family hires now, and why not all (11.1)."""
    if not hired.can_hire(state, family):
        return 0, "you have no MERCENARY card on your family board (11.1)"
    left, money, each = hired.hirable(state, family), state.families[family].deniers, hired.price(state)
    count = min(wanted, left, money // each)
    if count == wanted:
        return count, None
    if left < wanted and left <= money // each:
        return count, f"only {left} crossbowmen lie on your MERCENARY card (11.1)"
    return count, f"you have {money} shillings: a crossbowman costs {each} (11.1)"


def hire_into(state: FiefState, family: str, wanted: int, city: str) -> tuple[list[str], list[Event]]:
    """Hire up to ``wanted`` crossbowmen into ``city`` now: (the new pawns, the events: the hiring
    public, what was paid and any shortfall told to the family alone)."""
    count, why = shortfall(state, family, wanted)
    before = set(state.pawns)
    events = hired.hire_in_battle(state, family, count, city) if count else []
    pawns = [p for p in state.pawns if p not in before]
    if count:
        events.append(Event("crossbowmen_paid", f"You pay {count * hired.price(state)} shillings for "
                            f"{count} crossbowm{'a' if count == 1 else 'e'}n (11.1).", Audience.only(family),
                            {"family": family, "count": count, "shillings": count * hired.price(state)}))
    if why:
        events.append(Event("crossbowmen_not_hired", f"Your battle plan's `{WORD}: {wanted}` in {city}: "
                            f"{count} hired - {why}.", Audience.only(family),
                            {"family": family, "wanted": wanted, "hired": count, "city": city, "reason": why}))
    return pawns, events


def hire_crossbowmen(b: Battle) -> None:
    """11.1, R41: each family of the battle whose plan says `hire_crossbowmen`, in turn order; the
    crossbowmen join its side at once (2 SP, 2 hits, archers' projectiles, 7.2, 7.3)."""
    for family in [f for f in b.state.turn_order() if f in b.involved]:
        side = b.side_of_family(family)
        wanted = own_plan(b, family).hire_crossbowmen
        if side is None or not wanted:
            continue
        pawns, events = hire_into(b.state, family, wanted, b.setup.town)
        side.units += pawns
        b.events += events
