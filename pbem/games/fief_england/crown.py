"""The Crown's privileges in the Purchase Phase (E 4.5, 4.6), by mail at-once orders (R41; the
hooks' ``at_once_verbs``) done when the judge reads the mail while `round-N/purchase` is open:

    at_once:
      - kings_will: Midlands     # the Sovereign's family: an unclaimed Fiefdom Title, free (4.5)
        to: Anabel               # any noble whose family controls every City of the Region, one
        city: Nottingham         #   with a Stronghold; `city:` the Stronghold made its Fortified
                                 #   City (4.4), when the Region has none yet
      - hand_title: Marches      # a Lord of your family hands one of his titles (4.6)
        to: Lucia                # to another noble of your family

- King's Will (4.5): "If there is a King or Sovereign Queen, they may choose to give an unclaimed
  Fiefdom Title to any Noble at no cost during this Phase" - any number (the rulebook sets no
  limit), no captivity rule (4.5 has none); unclaimed: no noble holds it (never bought, or back
  on the Titles Deck, 4.8). A price asked for it is an open dealing: the shillings go by pigeon.
- Multiple Titles (4.6): a Lord with several Fiefdom Titles hands one to another noble of his
  family, keeping one of the largest he holds (Duchy > County > Barony).
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.hear_ye.titles import PRESTIGE, grant_fief_title
from pbem.games.fief.hooks import AtOnceVerb
from pbem.games.fief.state import FiefState
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.hear_ye.elimination import replace_troop
from pbem.games.fief.views import build_view
from pbem.games.fief_england.names import noble_named
from pbem.orders.reading import Problems, check_keys, suggest
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

SOVEREIGN_TITLES = ("king", "sovereign_queen")


def _board(view: dict) -> Board:
    return load_board(view["game"], (view.get("options") or {}).get("board", "board"))


def _read(view: dict, player: str, item: dict, verb: str, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, (verb, "to", "city"), f"a {verb} order", problems)
    board = _board(view)
    fief = board.find_fief(str(item.get(verb)))
    if fief is None:
        problems.add(line, f"`{item.get(verb)}` is not a Region of the board",
                     suggest(str(item.get(verb)), [f.name for f in board.fiefs.values()]))
        return None
    to = noble_named(view, item, "to", line, problems, f"to: {next(iter(view['lords']), 'Anabel')}")
    if to is None:
        return None
    city = item.get("city")
    if city is not None and board.find_town(str(city)) is None:
        problems.add(line_of(item, "city") or line, f"`{city}` is not a City of the board",
                     suggest(str(city), list(board.towns)))
        return None
    order = {"fief": fief, "to": to, "city": board.find_town(str(city)) if city is not None else None}
    why = (_will_problem if verb == "kings_will" else _hand_problem)(view, board, player, order)
    if why:
        problems.add(line, why[0], why[1])
        return None
    return order


PURCHASE = ("purchase",)   # 4.5, 4.6, 4.9: the Purchase Phase's


def _purchase(view: dict) -> tuple[str, str] | None:
    if view["phase"] not in PURCHASE:
        return "this is done only in the Purchase Phase (4.5, 4.6)", "send it while round-N/purchase is open"
    return None


def _will_problem(view: dict, board: Board, player: str, order: dict) -> tuple[str, str] | None:
    """4.5, with 4.3's conditions for the noble's family and 4.4's Fortified City."""
    if _purchase(view):
        return _purchase(view)
    if not any(l["political"] in SOVEREIGN_TITLES and l["family"] == player for l in view["lords"].values()):
        return "only the King's or Sovereign Queen's family gives a title by the King's Will (4.5)", "remove it"
    info = view["fiefs"][order["fief"]]
    if info["holder"]:
        return f"the title of the {info['name']} is held by {info['holder']}", "give an unclaimed title (4.5)"
    family = view["lords"][order["to"]]["family"]
    towns = fief_towns(view, order["fief"], tuple(info["towns"]))   # R19
    lacking = [t for t in towns if view["towns"][t]["controller"] != family]
    if lacking:
        return (f"{family} does not control {', '.join(lacking)}",
                "the noble's family must control every City of the Region (4.5)")
    fortresses = {t: view["towns"][t]["fortress"] for t in towns}
    if not any(f == "stronghold" for f in fortresses.values()) and "city" not in fortresses.values():
        return f"there is no Stronghold in the {info['name']}", "a Stronghold must stand in the Region (4.5)"
    if "city" not in fortresses.values():   # 4.4: a Stronghold of the new Fiefdom becomes its Fortified City
        if order["city"] is None or fortresses.get(order["city"]) != "stronghold":
            strongholds = [t for t, f in fortresses.items() if f == "stronghold"]
            return ("name with `city:` the Stronghold that becomes the Fiefdom's Fortified City (4.4)",
                    f"one of {', '.join(strongholds)}")
    elif order["city"] is not None:
        return f"the {info['name']} has its Fortified City already", "leave out `city:`"
    return None


def _hand_problem(view: dict, board: Board, player: str, order: dict) -> tuple[str, str] | None:
    """4.6: "the Lord must keep the Title of the largest Fiefdom for themself"."""
    if _purchase(view):
        return _purchase(view)
    fief = order["fief"]
    holder = view["fiefs"][fief]["holder"]
    if holder is None or view["lords"][holder]["family"] != player:
        return f"no Lord of your family holds the title of the {view['fiefs'][fief]['name']}", "name a title you hold"
    if order["city"] is not None:
        return "a title handed on keeps its Fortified City", "leave out `city:`"
    if order["to"] == holder or view["lords"][order["to"]]["family"] != player:
        return f"{order['to']} is not another noble of your family", "hand it within your family (4.6)"
    titles = view["lords"][holder]["fief_titles"]
    rest = [f for f in titles if f != fief]
    rank = PRESTIGE[board.fiefs[fief].rank]
    if not rest or max(PRESTIGE[board.fiefs[f].rank] for f in rest) < rank:
        return (f"{holder} must keep the title of his largest Fiefdom (4.6: Duchy > County > Barony)",
                "hand one of his smaller titles")
    return None


def check_will(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    return _read(view, player, item, "kings_will", line, problems)


def check_hand(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    return _read(view, player, item, "hand_title", line, problems)


def kings_will(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    why = _will_problem(build_view(state, board, player), board, player, order) if order["to"] in state.lords \
        else (f"{order['to']} is no longer in play", "")
    if why:
        return [_refused(player, why[0])]
    king = next(l for l in state.lords.values() if l.political in SOVEREIGN_TITLES and l.family == player)
    if order["city"]:
        state.towns[order["city"]].fortress = "city"   # 4.4
    events = [Event("kings_will", f"By the King's Will {king.name} gives the title of the "
                    f"{board.fiefs[order['fief']].name} to {order['to']} ({state.lords[order['to']].family}) at no "
                    "cost" + (f"; {order['city']} becomes its Fortified City" if order["city"] else "") + " (4.5).",
                    data={"sovereign": king.name, **order})]
    return events + grant_fief_title(state, board, order["fief"], order["to"])


def hand_title(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    why = _hand_problem(build_view(state, board, player), board, player, order) if order["to"] in state.lords \
        else (f"{order['to']} is no longer in play", "")
    if why:
        return [_refused(player, why[0])]
    holder = state.fief_titles[order["fief"]]
    return [Event("title_handed", f"{holder} hands the title of the {board.fiefs[order['fief']].name} to "
                  f"{order['to']} ({player}) (4.6).", data={"from": holder, **order})] \
        + grant_fief_title(state, board, order["fief"], order["to"])


# -- the Royal Stronghold (4.9, R19) ---------------------------------------------------------------

ROYAL = "royal_stronghold"
ROYAL_FAMILY = ("king", "sovereign_queen", "queen")   # Definitions (l.892): the King, Queen (Prince of Wales)


def royal_city(state: FiefState) -> str | None:
    return (state.edition_state.get(ROYAL) or {}).get("city")


def fief_towns(view: dict, fief: str, towns: tuple[str, ...]) -> tuple[str, ...]:
    """4.9, R19: the Royal Stronghold's City "is no longer part of its Region"; the Region keeps
    its title and cost (the core's title purchase reads this through the `fief_towns` hook)."""
    city = (view.get(ROYAL) or {}).get("city")
    return tuple(t for t in towns if t != city)


def royal_view(state: FiefState) -> dict[str, Any]:
    """Public: where the Royal Stronghold stands, and the Cities whose Lord consented to one."""
    built = state.edition_state.get(ROYAL) or {}
    return {ROYAL: {"city": built.get("city"), "consents": dict(built.get("consents") or {})}}


def _city(view: dict, item: dict, verb: str, line: int | None, problems: Problems) -> tuple[Board, str] | None:
    """The City an order's verb names (checked with its keys), on the view's board."""
    check_keys(item, (verb,), f"a {verb} order", problems)
    board = _board(view)
    city = board.find_town(str(item.get(verb)))
    if city is None:
        problems.add(line, f"`{item.get(verb)}` is not a City of the board",
                     suggest(str(item.get(verb)), list(board.towns)))
        return None
    return board, city


def check_consent(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    found = _city(view, item, "consent_royal_stronghold", line, problems)
    if found is None:
        return None
    board, city = found
    holder = view["fiefs"][board.towns[city].fief]["holder"]
    if holder is None or view["lords"][holder]["family"] != player:
        problems.add(line, f"{city} is not in a Fiefdom whose Lord is of your family",
                     "only the Region's Lord consents (4.9)")
        return None
    return {"city": city}


def consent(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    """4.9: "if a City is part of a Fiefdom, its Lord must give their consent" - kept until used."""
    holder = state.fief_titles.get(board.towns[order["city"]].fief)
    if holder is None or state.lords[holder].family != player:
        return [_refused(player, f"{order['city']} is no longer in a Fiefdom of your family")]
    state.edition_state.setdefault(ROYAL, {"city": None}).setdefault("consents", {})[order["city"]] = holder
    region = board.fiefs[board.towns[order["city"]].fief].name
    return [Event("royal_stronghold_consent", f"{holder} ({player}), Lord of the {region}, consents to a Royal "
                  f"Stronghold in {order['city']} (4.9).", data={"lord": holder, **order})]


def _royal_problem(view: dict, board: Board, player: str, city: str) -> tuple[str, str] | None:
    if _purchase(view):
        return _purchase(view)
    if not any(l["political"] in ROYAL_FAMILY and l["family"] == player for l in view["lords"].values()):
        return "only the Royal Family (the King, the Queen) builds the Royal Stronghold (4.9)", "remove it"
    built = view.get(ROYAL) or {}
    if built.get("city"):
        return f"the Royal Stronghold stands in {built['city']} already (one in the game)", "remove it"
    here = view["towns"][city]
    abbeys = view.get("abbeys") or (view.get("church") or {}).get("abbeys") or {}   # the mail's view: `church`
    if here["fortress"] or city in abbeys:
        return f"{city} has a building already (one a City, 4.2)", "choose a City without one"
    fief = view["fiefs"][here["fief"]]
    if fief["holder"] is not None:
        if built.get("consents", {}).get(city) != fief["holder"]:
            return (f"{city} is in the Fiefdom of {fief['holder']}, who has not consented (4.9)",
                    f"their family orders `consent_royal_stronghold: {city}` first")
    elif here["controller"] not in (None, player) and fief["governed"]:
        return f"{city} is neither independent nor in an ungoverned Region (4.9)", "choose another City"
    price = load_edition(view["game"]).extra["prices.royal_stronghold"]
    if view["families"][player]["deniers"] < price:
        return (f"the Royal Stronghold costs {price} shillings; you have {view['families'][player]['deniers']}",
                "gather the shillings first")
    return None


def check_royal(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    found = _city(view, item, "royal_stronghold", line, problems)
    if found is None:
        return None
    board, city = found
    why = _royal_problem(view, board, player, city)
    if why:
        problems.add(line, why[0], why[1])
        return None
    return {"city": city}


def build_royal(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    """4.9: 5 shillings; the Royal Family controls the City, which leaves its Region (R19)."""
    view = {**build_view(state, board, player), "abbeys": state.edition_state.get("abbeys") or {}}
    why = _royal_problem(view, board, player, order["city"])
    if why:
        return [_refused(player, why[0])]
    price = edition_of(state).extra["prices.royal_stronghold"]
    state.families[player].deniers -= price
    town = state.towns[order["city"]]
    town.fortress, town.controller = "stronghold", player
    state.edition_state[ROYAL] = {"city": order["city"], "family": player}
    region = board.fiefs[board.towns[order["city"]].fief].name
    return [Event("royal_stronghold_built", f"{player} builds the Royal Stronghold in {order['city']}: the Royal "
                  f"Family controls it and it is no longer part of the {region} (4.9, R19).",
                  data={"player": player, "city": order["city"]}),
            Event("royal_stronghold_paid", f"You pay {price} shillings for the Royal Stronghold (4.9).",
                  Audience.only(player), {"shillings": price})]


def follow_sovereign(state: FiefState) -> list[Event]:
    """4.9: "If the Sovereign changes, the Troops in the Royal Stronghold change sides. Replace these
    with the new Sovereign's Troops (as available)": the City and its troops become the new
    Sovereign's family's (a troop its pool lacks leaves the board)."""
    built = state.edition_state.get(ROYAL) or {}
    king = next((l for l in state.lords.values() if l.political in SOVEREIGN_TITLES), None)
    city = built.get("city")
    if not city or king is None or built.get("family") == king.family:
        return []
    old, new = str(built.get("family") or ""), king.family
    _, moved, removed = replace_troop(state, city, old, new)
    state.towns[city].controller = new
    built["family"] = new
    return [Event("royal_stronghold_changes_sides", f"The Royal Stronghold in {city} changes sides with the "
                  f"Sovereign: {new} now holds it, {moved} troop(s) of {old} replaced by {new}'s"
                  + (f", {removed} not available and removed" if removed else "") + " (4.9).",
                  data={"city": city, "from": old, "to": new, "moved": moved, "removed": removed})]


def royal_destroyed(state: FiefState, board: Board, city: str, by: str) -> list[Event]:
    """4.9: "The Royal Stronghold can be destroyed by a REBELLION (10.1) or Invaders (6.5)" - the
    caller has removed the Stronghold of ``city``; if it was the Royal Stronghold, its marker goes
    back to the supply (6.5: "destroy, and return to supply"), so the Royal Family may build it
    again, and the City is part of its Region again (R19 no longer applies; R135)."""
    if royal_city(state) != city:
        return []
    built = state.edition_state.pop(ROYAL)   # its consents were used when it was built (build_royal)
    region = board.fiefs[board.towns[city].fief].name
    return [Event("royal_stronghold_destroyed", f"The Royal Stronghold in {city} is destroyed by {by}: it returns "
                  f"to the supply and {city} is part of the {region} again (4.9, R135).",
                  data={"city": city, "family": built.get("family"), "by": by})]


def royal_conquered(state: FiefState, board: Board, city: str) -> list[Event]:
    """4.9: the Royal Stronghold "cannot become a Fortified City and becomes a normal Stronghold if
    conquered by another Family": once a battle leaves ``city`` to a family other than the Royal
    Family that holds it, the Stronghold stays, the conqueror's, and the City is part of its Region
    again (R19 no longer applies); the Royal Family may build a Royal Stronghold again."""
    built = state.edition_state.get(ROYAL) or {}
    conqueror = state.towns[city].controller
    if built.get("city") != city or conqueror is None or conqueror == built.get("family"):
        return []
    state.edition_state.pop(ROYAL)
    region = board.fiefs[board.towns[city].fief].name
    return [Event("royal_stronghold_conquered", f"{conqueror} conquers the Royal Stronghold in {city}: it is a "
                  f"normal Stronghold now, {conqueror}'s, and {city} is part of the {region} again (4.9).",
                  data={"city": city, "from": built.get("family"), "to": conqueror})]


def _refused(player: str, why: str) -> Event:
    return Event("crown_refused", f"Not done: {why}.", Audience.only(player), {"player": player, "reason": why})


VERBS: dict[str, Any] = {
    "royal_stronghold": AtOnceVerb(check=check_royal, act=build_royal, template=(
        ("- royal_stronghold: CITY", "the Royal Family, in the Purchase Phase: 5 shillings (4.9)"),),
        phases=PURCHASE),
    "consent_royal_stronghold": AtOnceVerb(check=check_consent, act=consent, template=(
        ("- consent_royal_stronghold: CITY", "your Lord consents to a Royal Stronghold there (4.9)"),)),
    "kings_will": AtOnceVerb(check=check_will, act=kings_will, template=(
        ("- kings_will: REGION", "the Sovereign's family, in the Purchase Phase: an"),
        ("  to: NOBLE", "unclaimed title given free (4.5); `city:` its new"),
        ("  city: STRONGHOLD_CITY", "Fortified City, if it has none (4.4)")), phases=PURCHASE),
    "hand_title": AtOnceVerb(check=check_hand, act=hand_title, template=(
        ("- hand_title: REGION", "in the Purchase Phase: a Lord hands a title, not his"),
        ("  to: NOBLE", "largest, to another noble of the family (4.6)")), phases=PURCHASE),
}
