"""Abbesses and their Abbeys (E 2.13, 3.0, 3.1, rulings R18, R72, R73).

An ABBESS card, played in the Cards phase (2.6), founds an Abbey in a city controlled by the
player's family (or the noblewoman's, an ally's) or an Independent City, where no Building stands
(4.2: one Building a city - Stronghold, Fortified City, Royal Stronghold or Abbey); the unmarried
noblewoman it goes on becomes its Abbess (an Abbess may manage several Abbeys). An Abbess of
the Royal Family founds the Royal Abbey. The Abbey protects the nobles in its city from
REBELLION, PLAGUE and JUSTICE (not their troops), earns its income (3.0, 3.1, R18), is not
tithed (2.8), and once destroyed (Invaders, Pillage, Rebellion) may be rebuilt free by its
Abbess in any city without a Building in the next Purchase phase.

State: ``edition_state["abbeys"] = {city: {"abbey": name, "abbess": noble | None (dead),
"royal": bool}}``, the Abbeys standing on the map; the Abbess title is the Church's
``edition_state["church"]["abbesses"] = {noble: [abbey names]}``, which keeps the Abbeys she may
rebuild (``church["destroyed"] = {abbey: the round of the Purchase phase to rebuild it in}``).
All of it is public (the tiles and title cards lie face up).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.control import controller, forces_by_town, is_besieged
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.card_data import england_cards
from pbem.games.fief_england.church import clergy
from pbem.rules.api import Event

KEY = "abbeys"
# Definitions (l.893): "Royal Family: The King, Queen, and Prince of Wales" (the Sovereign Queen
# is the elected King's counterpart, 9.1).
ROYAL = ("king", "queen", "sovereign_queen", "prince_of_wales")
PROTECTS = ("rebellion", "plague", "justice")   # 2.13 "Abbey's Powers and Effects"


def _st(state: FiefState) -> dict[str, dict[str, Any]]:
    return state.edition_state.setdefault(KEY, {})


def abbey_in(state: FiefState, city: str) -> str | None:
    """The name of the Abbey standing in ``city``, if any."""
    here = (state.edition_state.get(KEY) or {}).get(city)
    return here["abbey"] if here else None


def abbeys_of(state: FiefState, noble: str) -> list[str]:
    """The Abbeys ``noble`` is Abbess of, standing or destroyed (2.13: she may manage several)."""
    return list(clergy.church_state(state)["abbesses"].get(noble, []))


def is_abbess(state: FiefState, noble: str) -> bool:
    return bool(abbeys_of(state, noble))


def city_of(state: FiefState, abbey: str) -> str | None:
    return next((c for c, a in _st(state).items() if a["abbey"] == abbey), None)


def royal(lord: Lord) -> bool:
    return lord.political in ROYAL


def building_in(state: FiefState, city: str) -> str | None:
    """4.2: the one Building of a city, if any."""
    if abbey_in(state, city):
        return "an Abbey"
    fortress = state.towns[city].fortress
    if fortress:
        return {"stronghold": "a Stronghold", "city": "a Fortified City"}.get(fortress, f"a {fortress}")
    return None


# -- founding (2.13) ------------------------------------------------------------------------------

def abbess_problem(lord: dict[str, Any]) -> str | None:
    """2.13: "Only an unmarried Noblewoman can be appointed Abbess"."""
    if not lord["female"]:
        return "an ABBESS card goes on a noblewoman only (2.13)"
    if lord["spouse"]:
        return "she is married (2.13: an unmarried noblewoman only)"
    return None


def free_abbeys(state: FiefState) -> list[str]:
    """The Abbey tiles of the ABBESS cards not in play (a destroyed Abbey keeps its tile while its
    Abbess lives)."""
    taken = {a["abbey"] for a in _st(state).values()}
    taken |= {a for names in clergy.church_state(state)["abbesses"].values() for a in names}
    return [a for a in england_cards().abbeys if a not in taken]


def site_problem(state: FiefState, board: Board, families: Iterable[str], city: str) -> str | None:
    """2.13: "a Family Controlled or an Independent City which has NO Stronghold or Fortified
    City"; 4.2: no other Building either."""
    here = controller(state, board, city, forces_by_town(state))
    if here is not None and here not in families:
        return f"{city} is controlled by {here} (2.13: a city of your family or an Independent City)"
    building = building_in(state, city)
    if building:
        return f"{city} has {building} already (2.13, 4.2: one Building a city)"
    return None


def found(state: FiefState, board: Board, player: str, noble: str, city: str,
          abbey: str | None = None) -> list[Event] | str:
    """2.13: the ABBESS card played on ``noble``: the Abbey (``abbey``, else the first free tile)
    is placed in ``city`` and she becomes its Abbess. Checked again as it is carried out."""
    lord = state.lords.get(noble)
    if lord is None:
        return f"{noble} is no longer in play"
    families = clergy.allies(state, player)
    if lord.family not in families:
        return f"{noble} is not of your family nor of a family allied to yours by marriage (2.13, 9.0)"
    why = abbess_problem(vars(lord)) or site_problem(state, board, {player, lord.family}, city)
    if why:
        return f"{noble}: {why}" if not why.startswith(city) else why
    tiles = free_abbeys(state)
    if not tiles or (abbey is not None and abbey not in tiles):
        return f"the {abbey} tile is in play already" if tiles else "every Abbey tile is in play"
    name = abbey or tiles[0]
    is_royal = royal(lord)
    _st(state)[city] = {"abbey": name, "abbess": noble, "royal": is_royal}
    clergy.church_state(state)["abbesses"].setdefault(noble, []).append(name)
    kind = "the Royal Abbey" if is_royal else "an Abbey"
    return [Event("abbey_founded", f"{player} plays ABBESS on {noble} ({lord.family}): she is Abbess of {name}, "
                  f"{kind} founded in {city} (2.13).", data={"player": player, "noble": noble, "abbey": name,
                                                             "city": city, "royal": is_royal})]


# -- protection (2.13) ------------------------------------------------------------------------------

def protected(state: FiefState, noble: str, danger: str) -> bool:
    """2.13: a noble in an Abbey's city is safe from REBELLION, PLAGUE and JUSTICE (R72: every
    noble in the city is in its one Building, as in a Stronghold); their troops are not."""
    lord = state.lords.get(noble)
    return bool(lord and danger in PROTECTS and lord.location and abbey_in(state, lord.location))


# -- income (3.0, 3.1, R18) ---------------------------------------------------------------------------

def _number(state: FiefState, key: str) -> int:
    """3.0, 3.1: the edition record's number (games/fief_england/edition.yaml `income:`: abbey,
    abbey_visitor, abbey_royal_visitor, abbey_relic, abbey_excalibur, abbey_mill_bonus)."""
    return int(edition_of(state).extra[f"income.{key}"])


def receiver(state: FiefState, board: Board, city: str) -> str | None:
    """R18: the family of the Abbess of the Abbey in ``city``; with her dead, the city's controller."""
    abbess = state.lords.get(_st(state)[city]["abbess"] or "")
    if abbess is not None:
        return abbess.family
    return controller(state, board, city, forces_by_town(state))


def abbey_income(state: FiefState, board: Board, bonus: Callable[[str], int],
                 relics_at: Callable[[str], int], excalibur_at: str | None) -> dict[str, list[tuple[str, int]]]:
    """3.0, 3.1, R18: each standing Abbey's income for its receiver: 2 for the Abbey (+ the
    fortune bonuses of its Region, ``bonus``), 2 per Abbess or Lord present, 3 per Royal Family
    member (a visitor counts once, at the higher rate), 3 per relic present (``relics_at``:
    lying there or carried, 12.0), 3 for Excalibur. A besieged Abbey earns nothing (3.0, 7.9);
    FAMINE does not stop it. -> family -> [(what, shillings)]."""
    out: dict[str, list[tuple[str, int]]] = {}
    for city, abbey in sorted(_st(state).items()):
        name = abbey["abbey"]
        if is_besieged(state, city):
            continue
        family = receiver(state, board, city)
        if family is None:
            continue
        parts = [(f"{name}", _number(state, "abbey") + bonus(city))]
        for lord in sorted((lo for lo in state.lords.values() if lo.location == city and not lo.captive_of),
                           key=lambda lo: lo.name):
            if royal(lord):
                parts.append((f"{lord.name} visiting, royal", _number(state, "abbey_royal_visitor")))
            elif lord.fief_titles or is_abbess(state, lord.name):
                parts.append((f"{lord.name} visiting", _number(state, "abbey_visitor")))
        relics = relics_at(city)
        if relics:
            parts.append((f"{relics} relic(s)", relics * _number(state, "abbey_relic")))
        if excalibur_at == city:
            parts.append(("Excalibur", _number(state, "abbey_excalibur")))
        out.setdefault(family, []).extend((f"{what} ({name})" if what != name else what, v) for what, v in parts)
    return out


def mill_bonus(state: FiefState, board: Board, city: str) -> int:
    """3.1, 2.13: +1 to the Mill of an Abbey's city and to each Mill one road away, whoever owns
    it (R18), for each standing Abbey so placed."""
    per = _number(state, "abbey_mill_bonus")
    return per * sum(1 for here in _st(state) if here == city or board.adjacent(here, city))


def mill_receiver(state: FiefState, board: Board, city: str, owner: str | None) -> str | None:
    """2.13 (R18): "An Abbess receives the revenues of the Abbey and Mill located in the City"."""
    return receiver(state, board, city) if abbey_in(state, city) else owner


def tithe_exempt(state: FiefState, city: str) -> bool:
    """2.8, 2.13: "The Abbey and its Mill are not subject to Tithes"."""
    return abbey_in(state, city) is not None


# -- destroyed, pillaged, rebuilt ------------------------------------------------------------------------

def destroy(state: FiefState, city: str, cause: str) -> list[Event]:
    """2.13: an Abbey destroyed by Invaders (6.5), Pillage (7.10) or a REBELLION (10.1) leaves the
    map; its Abbess keeps her title and may rebuild it in the next Purchase phase."""
    here = _st(state).pop(city, None)
    if here is None:
        return []
    name = here["abbey"]
    if here["abbess"] in state.lords:
        before_purchase = state.phase in ("hear_ye", "hear_ye_votes", "cards", "cards_play", "income")
        clergy.church_state(state)["destroyed"][name] = state.round if before_purchase else state.round + 1
        more = "; its Abbess may rebuild it in the next Purchase phase"
    else:
        more = ""
    return [Event("abbey_destroyed", f"{name} in {city} is destroyed ({cause}){more} (2.13).",
                  data={"abbey": name, "city": city, "cause": cause})]


def rebuild_problem(state: FiefState, player: str, name: str, city: str) -> str | None:
    church = clergy.church_state(state)
    abbess = next((n for n, names in church["abbesses"].items() if name in names), None)
    if abbess is None or city_of(state, name) is not None:
        return f"{name} is not a destroyed Abbey whose Abbess lives"
    if state.lords[abbess].family != player:
        return f"{name}'s Abbess {abbess} is not a noble of your family (2.13: rebuilt by its Abbess)"
    if church["destroyed"].get(name) != state.round or state.phase != "purchase":
        return f"{name} may be rebuilt only in the Purchase phase after its destruction (2.13)"
    if city not in state.towns:
        return f"there is no city {city!r}"
    building = building_in(state, city)
    if building:
        return f"{city} has {building} already (4.2: one Building a city)"
    return None


def rebuild(state: FiefState, player: str, name: str, city: str) -> list[Event] | str:
    """2.13: "the Abbey can be rebuilt in any City, free of charge, by its Abbess during the next
    Purchase Phase"."""
    why = rebuild_problem(state, player, name, city)
    if why:
        return why
    church = clergy.church_state(state)
    abbess = next(n for n, names in church["abbesses"].items() if name in names)
    del church["destroyed"][name]
    _st(state)[city] = {"abbey": name, "abbess": abbess, "royal": royal(state.lords[abbess])}
    return [Event("abbey_rebuilt", f"{abbess} rebuilds {name} in {city}, free of charge (2.13).",
                  data={"abbey": name, "city": city, "abbess": abbess})]


def abbess_died(state: FiefState, lord: Lord) -> list[Event]:
    """4.8: the Abbess title card is discarded (one ABBESS card per Abbey she was given) and the
    Character Deck reshuffled; "An associated Abbey on the board remains in place" (its income
    then goes to the city's controller, R18); a destroyed one can no longer be rebuilt."""
    church = clergy.church_state(state)
    names = church["abbesses"].pop(lord.name, [])
    if not names:
        return []
    for here in _st(state).values():
        if here["abbess"] == lord.name:
            here["abbess"] = None
    for name in names:
        church["destroyed"].pop(name, None)
        state.character_discard.append("abbess")
    clergy.due_reshuffle(state)
    return [Event("abbess_title_discarded", f"{lord.name} was Abbess of {', '.join(names)}: the ABBESS card is "
                  "discarded, the Abbey stays, the whole Character Deck will be reshuffled (4.8).",
                  data={"noble": lord.name, "abbeys": names})]
