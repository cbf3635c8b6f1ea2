"""I. Setup and III. Placing Units at the Start of the Game: who plays which province, the
starting armies (a placement order of every player), and the royal and neutral units.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any, Mapping, Sequence

from pbem.games.kard_es_korona.board import BARANYA, SLAVONIA, Board, connected, load_board
from pbem.games.kard_es_korona.state import State, add_units, neutral_owner, no_units
from pbem.games.kard_es_korona.units import NEUTRAL_SQUAD, ROYAL
from pbem.rules.api import Event, OptionSpec
from pbem.rules.rng import Rng

FIRST_YEAR = 1301
LAST_YEAR = {"basic": 1308, "advanced": 1312}          # V.V; VI
ADVANCED_COUNTIES = 6                                  # III. Advanced Setup

# I: which provinces play. 6: all; 5: all but Szlavónia; 4 and 3: the rulebook's two choices
# each; 2: any two (the first pair is the default: opposite sides of the ring).
PROVINCE_SETS: dict[int, list[tuple[str, ...]]] = {
    6: [("ERD", "DEL", "SZL", "PAN", "FEL", "TIS")],
    5: [("ERD", "DEL", "PAN", "FEL", "TIS")],
    4: [("ERD", "DEL", "PAN", "FEL"), ("DEL", "SZL", "FEL", "TIS")],
    3: [("ERD", "SZL", "FEL"), ("DEL", "PAN", "TIS")],
    2: [("ERD", "PAN")] + [tuple(p) for p in combinations(("ERD", "DEL", "SZL", "PAN", "FEL", "TIS"), 2)
                           if p != ("ERD", "PAN")],
}
# III (l.154): the royal troops of a 2-4 player game.
ROYAL_EXTRAS = {"Bihar": "cavalry", "Kunság": "archers", "Nógrád": "infantry"}
# III (l.152): the neutral units of an empty province in a 2-3 player game, one a plain county
# (ruling K2: the basic game's three are one of each kind).
EMPTY_PROVINCE_UNITS = {"basic": ["cavalry", "infantry", "archers"],
                        "advanced": ["cavalry", "archers", "archers", "infantry", "infantry"]}


def options() -> list[OptionSpec]:
    sets = sorted({"+".join(s) for group in PROVINCE_SETS.values() for s in group})
    return [
        OptionSpec("version", "basic (8 years, 7 counties a province) or advanced (12 years, 10 counties, VI)",
                   "basic", kind="choice", choices=("basic", "advanced")),
        OptionSpec("provinces", "the provinces in play, e.g. FEL+TIS+DEL+SZL (I); default: the rulebook's first "
                   "choice for the number of players; each player's province is drawn",
                   "default", kind="choice", choices=("default", *sets)),
        OptionSpec("cavalry_limit", "the optional limit on recruiting cavalry (III; VI. Limit on Cavalry Units)",
                   True),
        OptionSpec("movement", "interleaved (one step a player in turn, III. Movement) or traditional (advanced "
                   "only, VI. Traditional Movement Method: the starting player drawn by dice every year, and "
                   "each player moves and fights his whole turn in turn)", "interleaved", kind="choice",
                   choices=("interleaved", "traditional")),
    ]


def provinces_in_play(choice: str, count: int) -> tuple[str, ...]:
    """The provinces the option names for ``count`` players, or ValueError saying which fit."""
    legal = PROVINCE_SETS[count]
    if choice == "default":
        return legal[0]
    wanted = tuple(choice.split("+"))
    for s in legal:
        if sorted(s) == sorted(wanted):
            return s
    raise ValueError(f"with {count} players the provinces in play are one of "
                     f"{', '.join('+'.join(s) for s in legal)} (rulebook I), not {choice}")


def new_state(options: Mapping[str, Any], players: Sequence[str], rng: Rng) -> State:
    version = options.get("version", "basic")
    board = load_board(version)
    chosen = list(provinces_in_play(str(options.get("provinces", "default")), len(players)))
    rng.shuffle(chosen, "provinces drawn for the players")                      # I: by a draw
    home = dict(zip(players, chosen, strict=True))
    starting = rng.choice(list(players), "starting player of 1301")            # III: by a die roll
    closed = [c for c in board.in_province(SLAVONIA) if c != BARANYA] if len(players) == 5 else []
    movement = str(options.get("movement", "interleaved"))
    if movement == "traditional" and version != "advanced":
        raise ValueError("the traditional movement method is an option of the advanced version (VI): "
                         "add --option version=advanced, or leave out --option movement=traditional")
    state: State = {
        "version": version, "rules_version": int(options.get("rules_version", 1)),
        "options": {"cavalry_limit": bool(options.get("cavalry_limit", True))},
        "players": list(players), "home": home, "year": FIRST_YEAR, "last_year": LAST_YEAR[version],
        "starting": starting, "step": "placement", "treasury": {p: 0 for p in players},
        "armies": {}, "owner": {}, "closed": closed, "lords": {p: None for p in players},
        "captive": {}, "vassal_of": {}, "eliminated": [], "offices": {o: None for o in
                                                                        ("judge_royal", "treasurer", "palatine")},
        "elections": 0, "deck": [], "event": None, "lasting": [], "moved": {}, "battles": [],
        "battle_orders": {}, "first_pass": None, "election_due": False, "result": None,
    }
    if movement == "traditional":   # stored only when chosen: a game set up before the option replays as it was
        state["options"]["movement"] = movement
    return state


def place_starting_armies(state: State, placements: Mapping[str, Any]) -> list[Event]:
    """Apply every player's checked placement, then the royal and neutral units (III)."""
    board = load_board(state["version"])
    events = []
    for player in state["players"]:
        order = placements[player]
        held = order["counties"] if state["version"] == "advanced" else board.in_province(state["home"][player])
        for county in held:
            state["owner"][county] = player
        for county, units in order["place"].items():
            add_units(state, county, player, units)
        state["lords"][player] = order["lord"]
        events.append(Event("placed", f"{player} holds {', '.join(held)}; the province lord stands in {order['lord']}.",
                            data={"player": player, "counties": held, "lord": order["lord"]}))
    events.extend(_neutrals(state, board))
    return events


def _neutrals(state: State, board: Board) -> list[Event]:
    played = set(state["home"].values())
    count = len(state["players"])
    squads = []
    for province in board.provinces:     # the ring, then the royal territory (R1; ruling K4)
        owner = ROYAL if province.royal or province.id in played else neutral_owner(province.id, False)
        for county in board.in_province(province.id):
            if board.counties[county].castle and county not in state["armies"] and county not in state["closed"]:
                squads.append((county, owner))
    events = []
    for index, (county, owner) in enumerate(squads):
        squad = dict(NEUTRAL_SQUAD)
        # III (l.150): in a 6-player advanced game two royal knights are missing: ruling K4,
        # the last two squads placed get an infantry for their cavalry.
        if state["version"] == "advanced" and count == 6 and index >= len(squads) - 2:
            squad = {**squad, "cavalry": 0, "infantry": squad["infantry"] + 1}
        _hold(state, county, owner, squad)
    events.append(Event("neutrals", f"Neutral squads hold the empty castles: {', '.join(c for c, _ in squads)}.",
                        data={"castles": [c for c, _ in squads]}))
    if count <= 3:   # III (l.152): every empty province's plain counties (ruling K2: in board order)
        for province in board.home_provinces:
            if province.id in played:
                continue
            plain = [c for c in board.in_province(province.id)
                     if board.counties[c].terrain == "plain" and not board.counties[c].castle]
            for county, kind in zip(plain, EMPTY_PROVINCE_UNITS[state["version"]], strict=True):
                _hold(state, county, neutral_owner(province.id, False), {kind: 1})
    if count <= 4:   # III (l.154)
        for county, kind in ROYAL_EXTRAS.items():
            _hold(state, county, ROYAL, {kind: 1})
    for province in board.provinces:   # the royal territory and unplayed provinces are the crown's
        if province.royal or province.id not in played:
            for county in board.in_province(province.id):
                if county not in state["closed"]:
                    state["owner"].setdefault(county, neutral_owner(province.id, province.royal))
    return events


def _hold(state: State, county: str, owner: str, units: dict[str, int]) -> None:
    full = no_units()
    full.update(units)
    add_units(state, county, owner, full)
    state["owner"][county] = owner


def advanced_choice_problem(board: Board, province: str, counties: Sequence[str]) -> str | None:
    """III. Advanced Setup: 6 counties of the home province, bordering each other, at most one
    castle among them. None when the choice is legal, else what is wrong."""
    outside = [c for c in counties if c not in board.counties or board.counties[c].province != province]
    if outside:
        return f"{', '.join(outside)} {'is' if len(outside) == 1 else 'are'} not in your province"
    if len(set(counties)) != ADVANCED_COUNTIES:
        return f"choose {ADVANCED_COUNTIES} different counties, not {len(set(counties))}"
    if sum(1 for c in counties if board.counties[c].castle) > 1:
        return "at most one of the six may have a castle"
    if not connected(counties, board.borders):
        return "the six counties must border each other (form one connected piece)"
    return None
