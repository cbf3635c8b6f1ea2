"""III. Placing Units at the Start of the Game, by mail: every player sends one placement order.

    counties: [Sopron, Győr, Moson, Komárom, Veszprém, Fejér]   # advanced game only (6 counties)
    place:
      Sopron: {infantry: 3, archers: 2, cavalry: 2}
      Győr: {infantry: 3, archers: 3, cavalry: 2}
    lord: Sopron

The basic game's player holds all 7 home counties (III. Basic Version); the advanced game's
player holds the 6 he chooses (III. Advanced Setup). The army must be exactly the starting army.
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.board import Board, load_board
from pbem.games.kard_es_korona.reading import county_name, county_units
from pbem.games.kard_es_korona.setup import ADVANCED_COUNTIES, advanced_choice_problem
from pbem.games.kard_es_korona.state import castle_problem, describe, total
from pbem.games.kard_es_korona.units import STARTING_ARMY, UNIT_KINDS
from pbem.orders.reading import Problems, as_seq, check_keys
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import OrderCheck

KEYS = ("counties", "place", "lord")


def check(view: dict[str, Any], player: str, document: Any) -> OrderCheck:
    board = load_board(view["version"])
    problems = Problems()
    doc = document if isinstance(document, dict) else {}
    check_keys(doc, KEYS, "the placement orders", problems)
    home = view["home"][player]
    advanced = view["version"] == "advanced"
    held = board.in_province(home)
    mine = held[0]   # the errors' examples name a county of the player's own province
    if advanced:
        raw = as_seq(doc.get("counties"), line_of(doc, "counties"), "counties", problems)
        names = [county_name(c, held, line_of(doc, "counties"), problems) for c in raw]
        held = [n for n in names if n]
        wrong = advanced_choice_problem(board, home, held) if len(held) == len(raw) else None
        if wrong:
            problems.add(line_of(doc, "counties"), wrong, f"list {ADVANCED_COUNTIES} neighbouring counties "
                         "of your province, at most one with a castle")
    elif "counties" in doc:
        problems.add(line_of(doc, "counties"), "the basic game has no choice of counties: you hold your whole "
                     "province", "leave out `counties:`")
    place: dict[str, dict[str, int]] = {}
    if not doc.get("place"):
        problems.add(line_of(doc, "place"), "`place:` must list your units county by county",
                     f"e.g. `place: {{{mine}: {{infantry: 3, archers: 2}}}}`")
    for county, units, line in county_units(doc.get("place"), held, line_of(doc, "place"), "place",
                                            f"{{{mine}: {{infantry: 3}}}}", problems, "county of yours"):
        place[county] = units
        wrong = castle_problem(view["version"], units) if board.counties[county].castle else None
        if wrong:
            problems.add(line, f"{county}: {wrong}", "spread the units over more counties")
    army = STARTING_ARMY[view["version"]]
    placed = {kind: sum(u[kind] for u in place.values()) for kind in UNIT_KINDS}
    if place and not problems and placed != army:
        problems.add(line_of(doc, "place"), f"you placed {describe(placed)}; the starting army is exactly "
                     f"{describe(army)} (III)", "place every unit of the starting army once")
    lord = _lord(doc, held, place, problems)
    if lord and place and total(place.get(lord, {})) == 0:
        problems.add(line_of(doc, "lord"), f"the province lord may not stand alone: place units in {lord} too "
                     "(II. Royal / Neutral Units, the escort)", "put the lord with some of your units")
    if problems:
        return OrderCheck(None, tuple(problems))
    place = {c: u for c, u in place.items() if total(u)}
    return OrderCheck({"counties": held if advanced else [], "place": place, "lord": lord})


def _lord(doc: dict[str, Any], held: list[str], place: dict[str, dict[str, int]], problems: Problems) -> str | None:
    """III: the county the province lord starts in, one of the player's."""
    if doc.get("lord") is None:
        escorted = [c for c in held if total(place.get(c, {}))] or held
        example = f"e.g. `lord: {escorted[0]}`" if escorted else "`lord:` and the name"
        problems.add(line_of(doc, "lord"), "`lord:` is missing: the county where your province lord starts",
                     f"add {example}, a county where you place units")
        return None
    return county_name(doc.get("lord"), held, line_of(doc, "lord"), problems, "county of yours")


def default(view: dict[str, Any], player: str) -> dict[str, Any]:
    """Documented default: the castle(s) first, 7 units each at most, kinds dealt in turn; the
    advanced game's six counties are the first castle and its nearest five castle-less counties."""
    board = load_board(view["version"])
    home = board.in_province(view["home"][player])
    castles = [c for c in home if board.counties[c].castle]
    if view["version"] == "advanced":
        chosen = next(c for c in (_around(board, castle, home) for castle in castles) if c)
        held, slots = chosen, [chosen[0]] * 7
    else:
        held, slots = home, [c for c in castles for _ in range(6)]
    slots += [c for c in held if not board.counties[c].castle] * 3
    units = [kind for kind in UNIT_KINDS for _ in range(STARTING_ARMY[view["version"]][kind])]
    units = [units[i] for i in sorted(range(len(units)), key=lambda i: (i % 3, i))]   # deal the kinds in turn
    place: dict[str, dict[str, int]] = {}
    for slot, kind in zip(slots, units, strict=False):
        place.setdefault(slot, {k: 0 for k in UNIT_KINDS})[kind] += 1
    return {"counties": held if view["version"] == "advanced" else [], "place": place, "lord": slots[0]}


def _around(board: Board, castle: str, home: list[str]) -> list[str]:
    """``castle`` and the nearest castle-less counties of ``home`` around it, six in all (or [])."""
    chosen = [castle]
    for here in chosen:
        for county in sorted(board.borders[here]):
            if county in home and county not in chosen and not board.counties[county].castle:
                chosen.append(county)
    return chosen[:ADVANCED_COUNTIES] if len(chosen) >= ADVANCED_COUNTIES else []


def template(view: dict[str, Any], player: str) -> str:
    board = load_board(view["version"])
    home = board.province(view["home"][player])
    names = board.in_province(home.id)
    lines = [f"# Place your starting army ({describe(STARTING_ARMY[view['version']])}) and your province lord",
             f"# in {home.name}: {', '.join(n + (' (castle)' if board.counties[n].castle else '') for n in names)}."]
    if view["version"] == "advanced":
        lines.append("# Advanced: first choose 6 neighbouring counties, at most one with a castle (III).")
    lines.append("# A castle holds at most 7 units; an empty castle gets a neutral squad (III).")
    lines.append(echo(default(view, player)))
    return "\n".join(lines) + "\n"


def echo(orders: dict[str, Any]) -> str:
    out = []
    if orders["counties"]:
        out.append(f"counties: [{', '.join(orders['counties'])}]")
    out.append("place:")
    for county, units in orders["place"].items():
        out.append(f"  {county}: {{{', '.join(f'{k}: {n}' for k, n in units.items() if n)}}}")
    out.append(f"lord: {orders['lord']}")
    return "\n".join(out)
