"""The Relics (E 12.0-12.4, rulings R10, R36, R108, R109).

Setup lays the four relics face down, one on each cathedral city, shuffled with the seeded
generator (R36): which relic lies where is hidden from every player until it is revealed. A
Bishop or Archbishop reveals the relic of his own district's cathedral city, an Abbess any, by
being there (R108) - moving into it (R119: England's movement calls ``discover`` after each
step into a City), given the title there or by the order `reveal_relic:`; the relic goes face up
onto their card and moves with them. It may be given
(to the Sovereign: the first giver's family takes the 1 VP Relic marker), left in a city or an
Abbey (3 shillings a round in an Abbey, 3.1), picked up by a noble there, dropped where its
holder dies or is taken captive (12.0: "recovered by another Noble in the same City"). Invaders
taking a city remove its relics from the game, revealed (R10); a pillaged Abbey's relics go to
the pillager (7.10).

State: ``edition_state["relics"] = {"relics": {id: {"city": city | None, "holder": noble | None,
"face_up": bool}}, "vp_marker": family | None, "skull_used": bool, "chasuble_round": {storms card
place: round}}``. A relic removed from the game has no entry. Secret: the id of a face-down
relic (``relics_view`` shows every player "a face-down relic"; events never name it).
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.card_data import england_cards
from pbem.games.fief_england.church import abbeys, clergy
from pbem.rules.api import Event
from pbem.rules.rng import Rng

KEY = "relics"
SOVEREIGN = ("king", "sovereign_queen")   # Definitions (l.891): "the elected King or elected Queen"


def _st(state: FiefState) -> dict[str, Any]:
    return state.edition_state.setdefault(KEY, {"relics": {}, "vp_marker": None, "skull_used": False,
                                                "chasuble_round": {}})


def name(relic: str) -> str:
    return england_cards().relics[relic]


def place_at_setup(state: FiefState, board: Board, rng: Rng) -> list[Event]:
    """Relics (l.776), R36: one relic face down on each cathedral city, at random."""
    ids = sorted(england_cards().relics)
    rng.shuffle(ids, "relics on the cathedral cities (12.0, R36)")
    cities = [board.bishoprics[n].chief_town for n in sorted(board.bishoprics)]
    _st(state)["relics"] = {rid: {"city": city, "holder": None, "face_up": False}
                            for rid, city in zip(ids, cities, strict=True)}
    return [Event("relics_placed", f"A relic is laid face down on each cathedral city: {', '.join(cities)} "
                  "(12.0).", data={"cities": cities})]


def where(state: FiefState, relic: str) -> str | None:
    """The city a relic is in: its holder's, or where it lies."""
    info = _st(state)["relics"][relic]
    if info["holder"]:
        lord = state.lords.get(info["holder"])
        return lord.location if lord else None
    return info["city"]


def held_by(state: FiefState, noble: str) -> list[str]:
    return sorted(r for r, i in _st(state)["relics"].items() if i["holder"] == noble)


def holder_of(state: FiefState, relic: str) -> str | None:
    info = _st(state)["relics"].get(relic)
    return info["holder"] if info else None


def controller_of(state: FiefState, relic: str) -> str | None:
    """R109: the family of the noble carrying the relic (a relic lying in a city has none)."""
    holder = holder_of(state, relic)
    return state.lords[holder].family if holder in state.lords else None


def present_in(state: FiefState, city: str) -> int:
    """3.1: the relics in a city, lying there or carried ("This counts even if a Noble
    possessing a Relic is in the Abbey")."""
    return sum(1 for r in _st(state)["relics"] if where(state, r) == city)


def relic_vp(state: FiefState, family: str) -> int:
    """8.1, 12.0: the Relic VP marker's points (the record's `victory.relic_vp`, 1) to the family
    holding it; the victory count's `family_points` hook reads it here."""
    held = (state.edition_state.get(KEY) or {}).get("vp_marker")
    return int(edition_of(state).extra["victory.relic_vp"]) if held == family else 0


# -- discovery (12.0) -------------------------------------------------------------------------------

def may_reveal(state: FiefState, board: Board, noble: str, city: str) -> bool:
    """12.0: a Bishop or Archbishop in HIS district's cathedral city; an Abbess in any."""
    lord = state.lords.get(noble)
    if lord is None or lord.captive_of:
        return False
    cathedrals = {b.chief_town: n for n, b in board.bishoprics.items()}
    if city not in cathedrals:
        return False
    if abbeys.is_abbess(state, noble):
        return True
    return bool(clergy.rank_of(state, noble)) and lord.bishopric == cathedrals[city]


def discover(state: FiefState, board: Board, noble: str) -> list[Event]:
    """12.0, R108: a noble who may reveal it, in a cathedral city whose relic lies face down
    there, reveals it and takes it onto their card."""
    lord = state.lords.get(noble)
    if lord is None or lord.location is None or not may_reveal(state, board, noble, lord.location):
        return []
    events = []
    for relic, info in sorted(_st(state)["relics"].items()):
        if info["holder"] is None and info["city"] == lord.location and not info["face_up"]:
            info.update(holder=noble, city=None, face_up=True)
            events.append(Event("relic_revealed", f"{noble} ({lord.family}) reveals the relic of {lord.location}: "
                                f"{name(relic)}, now on {noble}'s card (12.0).",
                                data={"noble": noble, "relic": relic, "city": lord.location}))
    return events


def discover_all(state: FiefState, board: Board) -> list[Event]:
    """R108: every noble who may reveal a relic where they stand does (after a Move, a new title)."""
    events: list[Event] = []
    for noble in sorted(state.lords):
        events += discover(state, board, noble)
    return events


# -- carried, given, left, picked up (12.0) ------------------------------------------------------------

def give_problem(state: FiefState, player: str, relic: str, giver: str, receiver: str) -> str | None:
    if _st(state)["relics"].get(relic, {}).get("holder") != giver or giver not in state.lords:
        return f"{giver} does not carry {name(relic)}"
    if state.lords[giver].family != player:
        return f"{giver} is not a noble of your family"
    other = state.lords.get(receiver)
    if other is None:
        return f"{receiver} is not in play"
    if other.location != state.lords[giver].location:
        return f"{receiver} is not in {state.lords[giver].location} (12.0: to another Noble in the same City)"
    return None


def give(state: FiefState, player: str, relic: str, giver: str, receiver: str) -> list[Event] | str:
    """12.0: "Relics can be given ... to another Noble in the same City"; given to the Sovereign,
    the first giver's family takes the Relic 1VP marker."""
    why = give_problem(state, player, relic, giver, receiver)
    if why:
        return why
    _st(state)["relics"][relic]["holder"] = receiver
    other = state.lords[receiver]
    events = [Event("relic_given", f"{giver} ({player}) gives {name(relic)} to {receiver} ({other.family}) in "
                    f"{other.location} (12.0).", data={"relic": relic, "from": giver, "to": receiver})]
    if other.political in SOVEREIGN and _st(state)["vp_marker"] is None:
        _st(state)["vp_marker"] = player
        events.append(Event("relic_marker", f"{player} is the first to give a relic to the Sovereign: the Relic "
                            "marker (1 VP) is theirs for the rest of the game (12.0, 8.1).", data={"family": player}))
    return events


def leave(state: FiefState, player: str, relic: str, noble: str) -> list[Event] | str:
    """12.0: "A Relic can be left in a City or an Abbey where it can be picked up"."""
    info = _st(state)["relics"].get(relic)
    lord = state.lords.get(noble)
    if info is None or info["holder"] != noble or lord is None or lord.family != player:
        return f"{noble} of your family does not carry {name(relic)}"
    info.update(holder=None, city=lord.location)
    return [Event("relic_left", f"{noble} ({player}) leaves {name(relic)} in {lord.location} (12.0).",
                  data={"relic": relic, "noble": noble, "city": lord.location})]


def pick_up(state: FiefState, player: str, relic: str, noble: str) -> list[Event] | str:
    """12.0: a face-up relic lying in a city is picked up by any Noble there."""
    info = _st(state)["relics"].get(relic)
    lord = state.lords.get(noble)
    if lord is None or lord.family != player or lord.captive_of:
        return f"{noble} is not a free noble of your family"
    if info is None or info["holder"] or not info["face_up"] or info["city"] != lord.location:
        return f"{name(relic)} does not lie face up in {lord.location}"
    info.update(holder=noble, city=None)
    return [Event("relic_taken", f"{noble} ({player}) picks up {name(relic)} in {lord.location} (12.0).",
                  data={"relic": relic, "noble": noble, "city": lord.location})]


def holder_lost(state: FiefState, noble: str, city: str | None) -> list[Event]:
    """12.0: the relics of a noble assassinated, ambushed, taken captive or slain lie in the city
    (``city``: where it happened), for another noble there to recover."""
    events = []
    for relic in held_by(state, noble):
        _st(state)["relics"][relic].update(holder=None, city=city)
        events.append(Event("relic_dropped", f"{name(relic)}, carried by {noble}, lies in {city} (12.0).",
                            data={"relic": relic, "noble": noble, "city": city}))
    return events


def invaders_take(state: FiefState, city: str) -> list[Event]:
    """12.0, R10: "When captured by Invaders, a Relic is revealed and removed from the game" - the
    relics lying in a city the Invaders take."""
    relics = _st(state)["relics"]
    gone = sorted(r for r, i in relics.items() if i["holder"] is None and i["city"] == city)
    for relic in gone:
        del relics[relic]
    return [Event("relic_lost", f"The Invaders take {name(r)} in {city}: it is removed from the game (12.0).",
                  data={"relic": r, "city": city}) for r in gone]


def pillaged(state: FiefState, city: str, noble: str) -> list[Event]:
    """7.10, 12.0: the relics lying in a pillaged Abbey go face up onto the pillager's card."""
    events = []
    for relic, info in sorted(_st(state)["relics"].items()):
        if info["holder"] is None and info["city"] == city:
            info.update(holder=noble, city=None, face_up=True)
            events.append(Event("relic_pillaged", f"{noble} takes {name(relic)} from the pillaged Abbey of {city} "
                                "(7.10, 12.0).", data={"relic": relic, "noble": noble, "city": city}))
    return events


# -- what players see ------------------------------------------------------------------------------------

def relics_view(state: FiefState) -> dict[str, Any]:
    """The same for every player (R36): a face-down relic is named by its city only."""
    face_down, known = [], {}
    for relic, info in sorted(_st(state)["relics"].items(), key=lambda kv: str(kv[1]["city"])):
        if not info["face_up"]:
            face_down.append(info["city"])
        else:
            known[name(relic)] = {"carried_by": info["holder"], "lies_in": info["city"]}
    return {"face_down_in": sorted(face_down), "face_up": known, "relic_marker": _st(state)["vp_marker"],
            "skull_used": bool(_st(state).get("skull_used"))}   # 12.3: "inactive" is seen
