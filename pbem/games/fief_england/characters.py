"""Fief: England's character cards that are not nobles (E 2.13, 2.14, 11.1, 11.2), the edition's
``characters`` hook (pbem/games/fief/hooks.py ``Character``): BISHOP, ARCHBISHOP and ABBESS
played in the Cards phase (2.6), MERCENARY and BURGHER (Opportunity cards, 11.0) in the Cards
phase or at once (R41). Each reads its own `play:` order (``read``) and places its card itself
(``places_card``: under the cleric, on the family board) - never on France's frieze.

    - play: bishop            # or archbishop (2.14)
      on: Godfrey             # an unmarried, free nobleman of your family or an ally's
      district: Exeter        # a district no cleric governs (R3, R49); an ARCHBISHOP card on a
                              #   Bishop keeps his own (leave it out)
    - play: abbess            # 2.13
      on: Lucia               # an unmarried noblewoman of your family or an ally's
      in: Oxford              # a city of your family (or hers) or an Independent City, no Building
      abbey: Autumn           # optional: the Abbey tile (default: the first free one)
    - play: mercenary         # 11.1: onto your family board (replacing the card there)
    - play: burgher           # 11.2: only while your family has a titled Lord
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.hooks import Character
from pbem.games.fief.orders_common import town_name
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import hired
from pbem.games.fief_england.church import abbeys, clergy, relics
from pbem.orders.reading import Problems, check_keys, fold, suggest
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event

PLAY_STEP = "cards_play"   # 2.6: the Cards phase's step D, round-N/cards-play


def edition_part(view: Mapping[str, Any], key: str) -> Any:
    """England's Church and cards as a player's view shows them (``view["church"]``,
    church_view.py, added by England's ``view_parts`` hook)."""
    return (view.get("church") or {}).get(key) or {}


def _allied(view: Mapping[str, Any], player: str) -> set[str]:
    lords = view["lords"]
    return {player} | {lords[lo["spouse"]]["family"] for lo in lords.values()
                       if lo["family"] == player and lo.get("spouse") in lords}


def _in_cards_phase(view: Mapping[str, Any], name: str, line: int | None, problems: Problems) -> bool:
    if view["phase"] == PLAY_STEP:
        return True
    problems.add(line, f"a {name} card is played in the Cards phase (2.6), not at once",
                 "put it in your round-N/cards-play orders")
    return False


def _noble(view: Mapping[str, Any], player: str, item: Mapping[str, Any], line: int | None, name: str,
           problems: Problems) -> str | None:
    lords = view["lords"]
    where = line_of(item, "on") or line
    if "on" not in item:
        problems.add(where, f"name the noble the {name} card goes on", "write e.g. `on: Godfrey`")
        return None
    noble = next((n for n in lords if fold(n) == fold(str(item["on"]))), None)
    if noble is None:
        problems.add(where, f"no noble {item['on']!r} is in play", suggest(str(item["on"]), list(lords)))
        return None
    if lords[noble]["family"] not in _allied(view, player):
        problems.add(where, f"{noble} is of {lords[noble]['family']}'s family: a {name} card goes on a noble of "
                     "your family or of a family allied to yours by marriage (2.13, 2.14, 9.0)")
        return None
    return noble


# -- BISHOP, ARCHBISHOP (2.14) ------------------------------------------------------------------------

def read_cleric(view: dict, board: Board, player: str, card: str, item: dict, line: int | None,
                problems: Problems) -> dict | None:
    title = clergy.TITLE[card].upper()
    check_keys(item, ("play", "on", "district"), f"{'an' if card == 'archbishop' else 'a'} {title} card", problems)
    if not _in_cards_phase(view, title, line, problems):
        return None
    noble = _noble(view, player, item, line, title, problems)
    if noble is None:
        return None
    lord = view["lords"][noble]
    held = None if not lord["bishopric"] else (
        "archbishop" if noble in edition_part(view, "clergy").get("archbishops", []) else "bishop")
    why = clergy.appoint_problem(lord, card, held)
    if why:
        problems.add(line_of(item, "on") or line, f"{noble}: {why}")
        return None
    if "district" not in item:
        if held == "bishop":
            return {"card": card, "on": noble, "district": lord["bishopric"]}
        problems.add(line, f"name the district {noble} will govern (R3)",
                     "add e.g. `district: Exeter` (" + ", ".join(b.name for b in board.bishoprics.values()) + ")")
        return None
    number = clergy.district_named(board, item["district"])
    if number is None:
        problems.add(line_of(item, "district"), f"there is no district {item['district']!r}",
                     suggest(str(item["district"]), [b.name for b in board.bishoprics.values()]))
        return None
    holder = next((n for n, lo in view["lords"].items() if lo["bishopric"] == number), None)
    if held == "bishop" and number != lord["bishopric"]:
        problems.add(line_of(item, "district"), f"{noble} governs {board.bishoprics[lord['bishopric']].name}: "
                     "an ARCHBISHOP card on a Bishop keeps his district (2.14)", "leave `district:` out")
        return None
    if holder is not None and holder != noble:
        governed = {lo["bishopric"] for lo in view["lords"].values()}
        free = [b.name for n, b in board.bishoprics.items() if n not in governed]
        problems.add(line_of(item, "district"), f"{board.bishoprics[number].name} has a cleric already, {holder} "
                     "(R49: one Bishop or Archbishop a district)", "free districts: " + (", ".join(free) or "none"))
        return None
    return {"card": card, "on": noble, "district": number}


def echo_cleric(view: dict, play: Mapping[str, Any]) -> dict[str, Any]:
    district = (view.get("bishoprics") or {}).get(str(play["district"]), {})
    return {"play": play["card"], "on": play["on"], "district": district.get("name", play["district"])}


def cleric_effect(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event] | str:
    done = clergy.appoint(state, board, player, play["card"], play["on"], int(play["district"]))
    return done if isinstance(done, str) else done + relics.discover(state, board, play["on"])   # R74


# -- ABBESS (2.13) -------------------------------------------------------------------------------------

def read_abbess(view: dict, board: Board, player: str, card: str, item: dict, line: int | None,
                problems: Problems) -> dict | None:
    check_keys(item, ("play", "on", "in", "abbey"), "an ABBESS card", problems)
    if not _in_cards_phase(view, "ABBESS", line, problems):
        return None
    noble = _noble(view, player, item, line, "ABBESS", problems)
    if noble is None:
        return None
    why = abbeys.abbess_problem(view["lords"][noble])
    if why:
        problems.add(line_of(item, "on") or line, f"{noble}: {why}")
        return None
    if "in" not in item:
        problems.add(line, "name the city of the new Abbey (2.13)", "add e.g. `in: Oxford`")
        return None
    city = town_name(board, item["in"], line_of(item, "in"), problems)
    if city is None:
        return None
    here = view["towns"][city]
    families = {player, view["lords"][noble]["family"]}
    standing = edition_part(view, "abbeys")
    if here["controller"] is not None and here["controller"] not in families:
        problems.add(line_of(item, "in"), f"{city} is controlled by {here['controller']} (2.13: a city of your "
                     "family or an Independent City)")
        return None
    if here["fortress"] or city in standing:
        what = "an Abbey" if city in standing else f"a {here['fortress']}"
        problems.add(line_of(item, "in"), f"{city} has {what} already (2.13, 4.2: one Building a city)")
        return None
    play: dict[str, Any] = {"card": card, "on": noble, "in": city, "abbey": None}
    if "abbey" in item:
        names = list(abbeys.england_cards().abbeys)
        want = fold(str(item["abbey"]))
        chosen = next((a for a in names if want in (fold(a), fold(a.rsplit(" ", 1)[-1]))), None)
        if chosen is None:
            problems.add(line_of(item, "abbey"), f"there is no Abbey {item['abbey']!r}", suggest(want, names))
            return None
        play["abbey"] = chosen
    return play


def echo_abbess(view: dict, play: Mapping[str, Any]) -> dict[str, Any]:
    item = {"play": play["card"], "on": play["on"], "in": play["in"]}
    return {**item, "abbey": play["abbey"]} if play.get("abbey") else item


def abbess_effect(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event] | str:
    done = abbeys.found(state, board, player, play["on"], play["in"], play.get("abbey"))
    return done if isinstance(done, str) else done + relics.discover(state, board, play["on"])   # R74


# -- MERCENARY CROSSBOWMEN, BURGHER (11.1, 11.2) --------------------------------------------------------

def read_family_card(view: dict, board: Board, player: str, card: str, item: dict, line: int | None,
                     problems: Problems) -> dict | None:
    check_keys(item, ("play",), f"a {card.upper()} card", problems)
    if card == "burgher" and not any(lo["fief_titles"] for lo in view["lords"].values() if lo["family"] == player):
        problems.add(line, "a BURGHER card is played only while your family has a titled Lord (11.2, 4.3)",
                     "keep it until one of your nobles holds a fiefdom title")
        return None
    return {"card": card}


def echo_family_card(view: dict, play: Mapping[str, Any]) -> dict[str, Any]:
    return {"play": play["card"]}


def family_card_effect(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event] | str:
    return hired.place(state, player, play["card"])


def _never_refused(state: FiefState, player: str, play: Mapping[str, Any]) -> Event | None:
    return None


def _no_lord_check(lord: Mapping[str, Any]) -> str | None:
    return None   # each card reads its own order (``read``)


# The lines of each card's `play:` item in the forms: the keys its ``read`` reads.
CLERIC_FORM = (("on: NOBLE", "an unmarried, free nobleman of your family or an ally's"),
               ("district: DISTRICT", "a district no cleric governs (2.14); not for an ARCHBISHOP on a Bishop"))
ABBESS_FORM = (("on: NOBLE", "an unmarried noblewoman of your family or an ally's"),
               ("in: CITY", "a City of your family (or hers) or an Independent City, no Building (2.13)"))

CHARACTERS = {
    "bishop": Character("BISHOP", _no_lord_check, _never_refused, cleric_effect, read=read_cleric, places_card=True,
                        echo=echo_cleric, form=CLERIC_FORM),
    "archbishop": Character("ARCHBISHOP", _no_lord_check, _never_refused, cleric_effect, read=read_cleric,
                            places_card=True, echo=echo_cleric, form=CLERIC_FORM),
    "abbess": Character("ABBESS", _no_lord_check, _never_refused, abbess_effect, read=read_abbess, places_card=True,
                        echo=echo_abbess, form=ABBESS_FORM),
    "mercenary": Character("MERCENARY CROSSBOWMEN", _no_lord_check, _never_refused, family_card_effect,
                           read=read_family_card, places_card=True, echo=echo_family_card, form=()),
    "burgher": Character("BURGHER", _no_lord_check, _never_refused, family_card_effect, read=read_family_card,
                         places_card=True, echo=echo_family_card, form=()),
}
