"""A game of Kard és Korona as plain JSON data, and the questions every part asks of it.

The state is a dict (stored by the judge as it is; ``resolve`` works on a deep copy):

- ``version`` "basic" | "advanced"; ``rules_version``; ``options`` (the game master's options:
  ``cavalry_limit``, and ``movement`` only when "traditional", VI);
- ``players`` in seating (clockwise) order; ``home``: player -> province id;
- ``year`` (1301...), ``last_year`` (1308 basic, 1312 advanced, VI); ``starting``: the starting
  player of the year (III. Determining the Order of Play); ``step``: the phase waited on;
- ``treasury``: player -> garas; ``armies``: county -> {owner, units: {kind: n}}, one owner a
  county (a battle's attackers wait in ``battles`` until the battle step);
- ``owner``: county -> who holds it (a player, "royal", "neutral-<province>"), kept when the
  army moves on (II. Counties; ruling K3); ``closed``: counties out of play (5 players, I);
- ``lords``: player -> county of his province lord (None while captive or after his fall);
- ``captive``: player -> the year by which he must be ransomed (II. Royal / Neutral Units);
- ``vassal_of``: vassal -> overlord; ``eliminated``: players out of the game;
- ``offices``: office -> holder or None (IV); ``elections``: how many were held;
- ``deck``/``event``/``lasting``: the event cards (II. Event Cards);
- ``moved``: county -> {kind: n} units that moved this year; ``battles``: battles due (county,
  attacker, defender, the attacking units, lord, the counties they set out from, when entered, the
  defenders free of the reverse tie-down; from rules version 2 ``via``, the counties bordering
  the battle they came in through, ruling K29); ``tied``: players who may not move any more this year;
  ``fought`` (the traditional method only): counties whose units fought this year;
- ``battle_orders``: player -> standing battle decisions from the movement orders; ``vetoes``:
  overlord -> vassals whose battles he forbids this year; ``won_now``: offices won in the
  election under way;
- ``result``: None or {winners, text}.
"""
from __future__ import annotations

from typing import Any, Iterable

from pbem.games.kard_es_korona.board import Board, load_board
from pbem.games.kard_es_korona.units import ROYAL, UNIT_KINDS

State = dict[str, Any]
OFFICES = ("judge_royal", "treasurer", "palatine")          # IV, in the order of the bidding
OFFICE_NAMES = {"judge_royal": "Judge Royal (országbíró)", "treasurer": "Lord High Treasurer (tárnokmester)",
                "palatine": "Palatine (nádor)"}
NEUTRAL_PREFIX = "neutral-"
MAX_STEPS = 6                                                 # III. Movement
CASTLE_LIMIT = 7                                              # II. Castles


def board_of(state: State) -> Board:
    return load_board(state["version"])


def is_neutral(owner: str | None) -> bool:
    """Royal units and the units of an unplayed province (II. Royal / Neutral Units)."""
    return owner is not None and (owner == ROYAL or owner.startswith(NEUTRAL_PREFIX))


def neutral_owner(province: str, royal: bool) -> str:
    return ROYAL if royal else NEUTRAL_PREFIX + province


def neutral_names() -> dict[str, str]:
    """Every royal or neutral owner as the players read it, the same words at every player count:
    on whose behalf the units stand, the king's or a province lord's not in play, and "neutral"
    (II. Royal / Neutral Units, l.118): "royal neutral", "Tiszahát neutral"."""
    board = load_board("basic")   # both maps have the same provinces
    names = {ROYAL: "royal neutral"}
    names.update({neutral_owner(p.id, False): f"{p.name} neutral" for p in board.home_provinces})
    return names


def side_name(owner: str) -> str:
    """An army's owner in a player's text: a player's own name, or neutral_names'."""
    return neutral_names().get(owner, owner)


def no_units() -> dict[str, int]:
    return {kind: 0 for kind in UNIT_KINDS}


def units_at(state: State, county: str, owner: str) -> dict[str, int]:
    """``owner``'s units in ``county`` (a copy; none if someone else's stand there)."""
    here = state["armies"].get(county)
    return dict(here["units"]) if here and here["owner"] == owner else no_units()


def battle_at(state: State, county: str) -> dict[str, Any] | None:
    """The battle due in ``county`` this year (III. Battle: one a county), or None."""
    return next((b for b in state["battles"] if b["county"] == county), None)


def add_units(state: State, county: str, owner: str, units: dict[str, int]) -> None:
    """Put units in ``county`` (which must hold no one else's)."""
    here = state["armies"].setdefault(county, {"owner": owner, "units": no_units()})
    assert here["owner"] == owner, f"{county} holds {here['owner']}'s units, not {owner}'s"
    for kind, n in units.items():
        here["units"][kind] += n
    if not is_neutral(owner):
        state["owner"][county] = owner


def remove_units(state: State, county: str, units: dict[str, int]) -> None:
    here = state["armies"][county]
    for kind, n in units.items():
        here["units"][kind] -= n
        assert here["units"][kind] >= 0
    if sum(here["units"].values()) == 0:
        del state["armies"][county]


def active_players(state: State) -> list[str]:
    """Players still in the game, in the turn order of the year (starting player first)."""
    players = state["players"]
    start = players.index(state["starting"]) if state.get("starting") in players else 0
    ordered = players[start:] + players[:start]
    return [p for p in ordered if p not in state["eliminated"]]


def free_players(state: State) -> list[str]:
    """Active players who are nobody's vassal."""
    return [p for p in active_players(state) if p not in state["vassal_of"]]


def held_by(state: State, player: str, include_vassals: bool = True) -> list[str]:
    """The counties ``player`` holds (ruling K3), with his vassals' when asked (V)."""
    sides = {player} | ({v for v, o in state["vassal_of"].items() if o == player} if include_vassals else set())
    return [c for c, o in state["owner"].items() if o in sides]


def castles_held(state: State, player: str, include_vassals: bool = True) -> list[str]:
    board = board_of(state)
    return [c for c in held_by(state, player, include_vassals) if board.counties[c].castle]


def regions_held(state: State, player: str) -> list[str]:
    """Provinces (and the royal territory) of which ``player`` holds every county in play."""
    board = board_of(state)
    mine = set(held_by(state, player))
    closed = set(state["closed"])
    out = []
    for province in board.provinces:
        names = [n for n in board.in_province(province.id) if n not in closed]
        if names and len(names) == len(board.in_province(province.id)) and set(names) <= mine:
            out.append(province.id)
    return out


def steps_allowed(state: State, player: str) -> int:
    """III. Movement: castles held + 2, at most 6 (ruling K9: his own castles only)."""
    return min(MAX_STEPS, len(castles_held(state, player, include_vassals=False)) + 2)


def election_year(state: State) -> bool:
    """IV: at the end of year 3 and 6, and of year 9 in the advanced game (1303, 1306, 1309)."""
    return state["year"] - 1300 in ((3, 6, 9) if state["version"] == "advanced" else (3, 6))


def total(units: dict[str, int]) -> int:
    return sum(units.values())


def describe(units: dict[str, int]) -> str:
    """'2 cavalry, 1 infantry' (kinds in the rulebook's order; nothing: 'no units')."""
    parts = [f"{n} {kind}" for kind in UNIT_KINDS if (n := units.get(kind, 0))]
    return ", ".join(parts) if parts else "no units"


def others(players: Iterable[str], player: str) -> list[str]:
    return [p for p in players if p != player]


def castle_problem(version: str, units: dict[str, int]) -> str | None:
    """What is wrong with ``units`` standing in a castle, or None. II. Castles: at most 7 units
    (the lord does not count); in the advanced game the half rule as well (``half_rule``)."""
    count = total(units)
    if count > CASTLE_LIMIT:
        return f"a castle holds at most {CASTLE_LIMIT} units, not {count}"
    return half_rule(units) if version == "advanced" else None


def half_rule(units: dict[str, int]) -> str | None:
    """VI. Weapon-Type Limit (ruling K5: the advanced game only): in an army of more than 4 units
    no kind may be more than half, rounded up (II. Rounding: of 7, 4; of 9, 5; of 5, 3)."""
    count = total(units)
    cap = -(-count // 2)
    for kind in UNIT_KINDS:
        if count > 4 and units.get(kind, 0) > cap:
            return (f"in the advanced game at most {cap} of {count} units at a castle may be {kind}, "
                    f"not {units[kind]} (VI. Weapon-Type Limit)")
    return None
