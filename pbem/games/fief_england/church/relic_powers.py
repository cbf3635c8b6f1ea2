"""The powers of the relics (E 12.1-12.4, rulings R109, R113, R114). A relic is controlled by the family
of the noble carrying it (R109; one lying in a city or an Abbey has no power).

- The Holy Grail (12.1): attacker dice showing 'ff' have no effect against the side defending
  with its carrier - ``grail_defends``, for the battle rules.
- The Chasuble of Thomas Becket (12.2): move a STORMS card from its Sea to a contiguous one, once
  a round for each STORMS card, in any phase - the at-once order `chasuble:`.
- Saint Eanswith's Shinbone (12.4): its carrier discards the FAMINE cards of the Ecclesiastic
  District they stand in, as often as needed - the at-once order `shinbone:`.
- The Skull of Saint Caradoc (12.3): once a game, a noble about to die is spared, as its
  controller chose in advance with the at-once order `skull:` (R114) - ``skull_spares``, the
  core's ``spared`` hook.

The disasters lie as the fortune part lays them: ``BoardEffect("storms" | "famine", numeral)``,
the numeral of the Region whose Sea holds the card (pbem/games/fief_england/regions.py).
"""
from __future__ import annotations

from typing import Iterable

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.board_loader import EnglandBoard, sea_name
from pbem.games.fief_england.church import relics
from pbem.games.fief_england.regions import storm_regions
from pbem.rules.api import Audience, Event

GRAIL, CHASUBLE, SKULL, SHINBONE = "holy_grail", "chasuble", "skull", "shinbone"
FAMILY = "family"   # `skull: family`: every noble of the controller's family


def grail_defends(state: FiefState, defenders: Iterable[str]) -> bool:
    """12.1: "This power applies if the Noble that is carrying the Holy Grail is at the Battle and
    is not part of the Attacking side that initiated the Battle" (``defenders``: the nobles of
    the other side)."""
    return relics.holder_of(state, GRAIL) in set(defenders) if GRAIL in _relics(state) else False


def _relics(state: FiefState) -> dict:
    return (state.edition_state.get(relics.KEY) or {}).get("relics") or {}


def _controls(state: FiefState, player: str, relic: str) -> str | None:
    """Why ``player`` does not control ``relic`` now (None: they do, R109)."""
    if relics.controller_of(state, relic) != player:
        return f"no noble of your family carries {relics.name(relic)} (R109)"
    return None


# -- the Chasuble (12.2) ---------------------------------------------------------------------------------

def chasuble_problem(state: FiefState, board: Board, player: str, frm: str, to: str) -> str | None:
    why = _controls(state, player, CHASUBLE)
    if why:
        return why
    storms = storm_regions(state)   # 2.5: the one reader of the cards on a Region (regions.py)
    if frm not in storms:
        return f"no STORMS card lies on {sea_name(frm)}"
    if frozenset((sea_name(frm), sea_name(to))) not in EnglandBoard.of(board).sea_links:
        return f"{sea_name(to)} does not touch {sea_name(frm)} (12.2: to an adjacent Sea)"
    if to in storms:
        return f"a STORMS card lies on {sea_name(to)} already (2.4: one of a type a Region)"
    if _moved(state).get(frm) == state.round:
        return f"the STORMS card on {sea_name(frm)} was moved this round already (12.2: once per Round, per Card)"
    return None


def _moved(state: FiefState) -> dict[str, int]:
    return state.edition_state.setdefault(relics.KEY, {}).setdefault("chasuble_round", {})


def move_storms(state: FiefState, board: Board, player: str, frm: str, to: str) -> list[Event] | str:
    """12.2: "The Player that controls the Chasuble can move an in-play STORMS Card from one Sea to
    an adjacent Sea. This may be done once per Round, per Card, and in any Phase"."""
    why = chasuble_problem(state, board, player, frm, to)
    if why:
        return why
    card = next(e for e in state.board_effects if e.card == "storms" and e.target == frm)
    card.target = to
    moved = _moved(state)
    moved.pop(frm, None)
    moved[to] = state.round
    return [Event("storms_moved", f"{player}, with the Chasuble of Thomas Becket, moves the STORMS card from "
                  f"{sea_name(frm)} to {sea_name(to)} (12.2).", data={"player": player, "from": frm, "to": to})]


# -- the Shinbone (12.4) -----------------------------------------------------------------------------------

def district_regions(board: Board, city: str) -> list[str]:
    """The numerals of the Regions of the Ecclesiastic District ``city`` lies in (2.14)."""
    england = EnglandBoard.of(board)
    number = board.towns[city].bishopric
    fiefs = {board.towns[c].fief for c in board.bishoprics[number].towns}
    return sorted(england.region_number(f) for f in fiefs)


def shinbone_discard(state: FiefState, board: Board, player: str) -> list[Event] | str:
    """12.4: "The Noble that possesses the Shinbone may discard one or more FAMINE Cards from the
    entire Ecclesiastic District they are located in"."""
    why = _controls(state, player, SHINBONE)
    if why:
        return why
    noble = state.lords[relics.holder_of(state, SHINBONE) or ""]
    if noble.location not in board.towns:
        return f"{noble.name} is not in a city"
    regions = district_regions(board, noble.location)
    gone = [e for e in state.board_effects if e.card == "famine" and e.target in regions]
    if not gone:
        return f"no FAMINE card lies in {noble.name}'s Ecclesiastic District"
    for effect in gone:
        state.board_effects.remove(effect)
        state.events_discard.append("famine")
    seas = ", ".join(sea_name(e.target) for e in gone)
    return [Event("famine_discarded", f"{noble.name} ({player}), with Saint Eanswith's Shinbone, discards the "
                  f"FAMINE on {seas} (12.4).", data={"player": player, "noble": noble.name,
                                                     "regions": [e.target for e in gone]})]


# -- the Skull (12.3, R114) ------------------------------------------------------------------------------------

def _skull(state: FiefState) -> dict:
    return state.edition_state.setdefault(relics.KEY, {}).setdefault("skull_saves", {})


def choose_skull(state: FiefState, player: str, nobles: list[str]) -> list[Event]:
    """R114: the nobles the Skull will save if they die while ``player``'s family controls it
    (``["family"]``: every noble of the family; ``[]``: none). Told to the player alone."""
    _skull(state)[player] = list(nobles)
    said = "every noble of your family" if nobles == [FAMILY] else (", ".join(nobles) or "no one")
    return [Event("skull_choice", f"The Skull of Saint Caradoc, while you control it, will save {said} (12.3, R114).",
                  Audience.only(player), {"player": player, "nobles": list(nobles)})]


def skull_spares(state: FiefState, name: str) -> list[Event] | None:
    """12.3: "The Player that controls the Skull can use it once per game to resurrect any Noble
    in the City where they just died ... who then remains alive and retains all of their
    Titles. The Skull then becomes inactive." None: the noble is not saved."""
    lord = state.lords.get(name)
    owner = relics.controller_of(state, SKULL) if SKULL in _relics(state) else None
    if lord is None or owner is None or (state.edition_state.get(relics.KEY) or {}).get("skull_used"):
        return None
    chosen = _skull(state).get(owner, [])
    if name not in chosen and not (FAMILY in chosen and lord.family == owner):
        return None
    state.edition_state[relics.KEY]["skull_used"] = True
    return [Event("skull_used", f"{owner} uses the Skull of Saint Caradoc: {name} ({lord.family}) rises again in "
                  f"{lord.location} and keeps every title; the Skull is now inactive (12.3).",
                  data={"player": owner, "noble": name, "city": lord.location})]
