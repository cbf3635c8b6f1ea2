"""Scorched Earth by mail (E 3.4, R26, R97): the at-once order `scorch:`, allowed while the
Purchase phase is open - the first moment after Income a player writes a mail, and before the
shillings are spent (3.4: "Or you may just need money to buy more Troops in Phase 4").

    at_once:
      - scorch: [Durham, York]      # your own Mills (in cities you control), 2 shillings each
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.control import controllers
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hooks import AtOnceVerb
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.fortune import scorched_earth
from pbem.orders.reading import Problems, as_seq, fold, suggest
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event
from pbem.rules.rng import Rng

PHASE = "purchase"   # R97: while round-N/purchase is open


def check_scorch(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    if view["phase"] != PHASE:
        problems.add(line, "Scorched Earth is done after Income (3.4): by mail, while the Purchase phase is open",
                     "send it once round-N/purchase is open, before your purchases")
        return None
    towns = view["towns"]
    cities = []
    for text in as_seq(item.get("scorch"), line_of(item, "scorch") or line, "scorch", problems):
        city = next((t for t in towns if fold(t) == fold(str(text))), None)
        if city is None:
            problems.add(line, f"there is no city {text!r}", suggest(str(text), towns))
        elif not towns[city].get("mills"):
            problems.add(line, f"there is no Mill in {city} to burn (3.4)", "name a city with your Mill")
        elif towns[city].get("controller") != player:
            problems.add(line, f"the Mill of {city} is not yours: you do not control {city} (3.4)",
                         "burn only your own Mills")
        else:
            cities.append(city)
    return {"cities": cities} if cities and len(cities) == len(set(cities)) else None


def act_scorch(state: FiefState, board: Board, player: str, order: dict[str, Any], rng: Rng) -> list[Event]:
    return scorched_earth(state, player, list(order["cities"]), controllers(state, board),
                          edition_of(state).money_public)


SCORCH = AtOnceVerb(check=check_scorch, act=act_scorch,
                    template=(("- scorch: [CITY]", "3.4: burn your own Mills, 2 shillings each (Purchase phase)"),),
                    phases=(PHASE,))
