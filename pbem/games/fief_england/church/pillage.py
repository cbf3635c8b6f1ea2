"""Pillaging an Abbey (E 7.10, 2.13, 12.0, R31), for the battle rules' Pillage step: the Abbey is
destroyed, the pillaging noble's family collects 10 shillings, takes the relics lying there and
the noble is marked with the Heresy marker (JUSTICE may then strike them, 10.4)."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.church import abbeys, relics
from pbem.orders.reading import Problems, fold, suggest
from pbem.rules.api import Audience, Event

HERESY = "heresy"   # the noble bearing the one Heresy marker (R31)


def pillage_problem(state: FiefState, player: str, noble: str, city: str) -> str | None:
    lord = state.lords.get(noble)
    if lord is None or lord.family != player or lord.captive_of:
        return f"{noble} is not a free noble of your family"
    if lord.location != city:
        return f"{noble} is not in {city}"
    if abbeys.abbey_in(state, city) is None:
        return f"no Abbey stands in {city}"
    return None


def pillage_abbey(state: FiefState, player: str, noble: str, city: str) -> list[Event] | str:
    """7.10: "Abbeys can be destroyed. Collect 10 Shillings per Abbey destroyed, take any Relics
    located in the Abbey (12.0), and mark the pillaging Noble with a Heresy Marker"."""
    why = pillage_problem(state, player, noble, city)
    if why:
        return why
    name = abbeys.abbey_in(state, city)
    events = [Event("abbey_pillaged", f"{noble} ({player}) pillages {name} in {city} (7.10).",
                    data={"player": player, "noble": noble, "city": city, "abbey": name})]
    events += abbeys.destroy(state, city, "pillaged")
    events += relics.pillaged(state, city, noble)
    gain = int(edition_of(state).extra["income.pillage_abbey"])   # 7.10 (l.593): 10 shillings
    state.families[player].deniers += gain
    events.append(Event("pillage_shillings", f"You collect {gain} shillings for the Abbey (7.10).",
                        Audience.only(player), {"player": player, "shillings": gain}))
    before = state.edition_state.get(HERESY)
    state.edition_state[HERESY] = noble
    was = f" (taken from {before})" if before and before != noble else ""
    events.append(Event("heresy_marker", f"{noble} ({player}) bears the Heresy marker{was}: JUSTICE may strike "
                        "them (7.10, 10.4).", data={"noble": noble}))
    return events


def check_abbey_key(view: dict, me: str, town: str, value: Any, line: int | None, problems: Problems) -> str | None:
    """The Battle Phase mail's `plunder: CITY` with `abbey: NOBLE` (the battle rules' `plunder_keys`):
    the noble leading the pillage (2.13: marked with the Heresy marker) is a free noble of the
    player's family in the City, and an Abbey stands there - as the view shows it when the mail is
    read; the battles before the Pillage may change it (told then, 7.10)."""
    mine = {fold(n): n for n, lo in view["lords"].items() if lo["family"] == me}
    name = mine.get(fold(str(value)))
    if name is None:
        problems.add(line, f"`abbey:` names the noble of your family who leads the pillage, not {value!r}",
                     suggest(str(value), list(mine.values())) or "write `abbey: NOBLE`")
        return None
    lord = view["lords"][name]
    if lord.get("captive_of") or lord.get("location") != town:
        problems.add(line, f"{name} is not a free noble of yours in {town}",
                     "the pillage is led by your noble in the City (2.13)")
        return None
    if town not in ((view.get("church") or {}).get("abbeys") or {}):
        problems.add(line, f"no Abbey stands in {town}", "remove `abbey:` (7.10: Mills and siege engines only)")
        return None
    return name
