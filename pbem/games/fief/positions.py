"""Build a FiefState from a compact "position": the starting point of a scenario test.

A position is a mapping (plain YAML data):

    players: [enguerand, marie, olivier]   # seating order, clockwise (required)
    first_player: enguerand                 # holder of the first player card (default: first listed)
    round: 2                                # default 1
    phase: purchase                         # hear_ye|cards|income|purchase|movement|battle|end_of_round|setup,
                                            # or an edition's own phase (England: invaders)
    options: {fog_of_war: true}             # game options (default: none set; `rules_version`
                                            # defaults to today's, the edition's: write
                                            # `rules_version: 1` for a game stored before issue 9)
    family_players: {kirsten-2: kirsten}   # England 13.7: a family run by another player (a
                                           # player's second family shares its purse and hand)
    deniers: {enguerand: 10}                # default 5 each (A.6)
    hands: {marie: [tax, Aliénor]}          # card ids
    lords:                                  # every lord in play
      Baudoin:
        family: enguerand
        at: Tours                           # a town, a sea of the board ("offshore"), or null (off the board)
        female: false                       # default: from the lord cards, else false
        titles: [bretagne, bishop 2, cardinal, pope, king]   # fief id or name, "bishop N",
                                            # cardinal, pope, king, queen, regent_queen, crown_prince, darc
        captive_of: marie                   # jailer family (the lord stands with the jailer's forces)
        spouse: Aliénor
        excommunicated: false
    units:                                  # town -> family -> kind -> count
      Tours: {enguerand: {knight: 1, man_at_arms: 3}}
    towns:                                  # only towns that differ from empty
      Tours: {controller: enguerand, fortress: stronghold, mills: 2, besieged_by: {marie: 1}}
    vacant: [aquitaine]                     # governed fiefs whose title is vacant (D.1.1)
    governed: [poitou]                      # more governed fiefs (a held title is governed anyway)
    effects: [{card: tallage, target: aquitaine, player: marie, lord: Charles}]
        # targets: a fief id, a bishopric number, "offshore", or "all" (the papal tithe)
    disasters_track: [famine]
    piles: {characters: [...], events: [...]}   # top card last
    policies: {marie: {safe_passage: {others: allow}}}
    king_offer_used: false
    plague_struck: [Quentin, p3]            # lords / pawn ids that suffered a plague this round
    edition_state: {garter: [Henri]}        # the edition's own state (FiefState.edition_state)

A town holding the forces of one family only is controlled by that family unless the position
says otherwise; a town holding several families' forces must name its controller.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.setup.rules import empty_state
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.state import BoardEffect, FiefState, Lord, Pawn
from pbem.rules.api import RULES_VERSION_KEY

PHASES = ("setup", "hear_ye", "cards", "income", "purchase", "movement", "battle", "end_of_round")
POLITICAL = ("king", "queen", "regent_queen", "crown_prince", "darc", "sovereign_queen",   # England 9.1
             "prince_of_wales")   # England 9.0
ROYAL_GUARD = ("kings_knight", "queens_sergeant")


class PositionError(Exception):
    pass


def scenario_state(data: dict[str, Any], game_type: str) -> dict[str, Any]:
    """The state JSON of a scenario's position (the scenario runner's hook for every game,
    tests/test_fief_scenarios.py)."""
    return build_position(data, game_type).to_json()


def build_position(data: dict[str, Any], variant: str) -> FiefState:
    """The state of a short position (the format above) in a game of ``variant`` (its game type:
    the edition whose board, cards and record it is played with)."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise PositionError("a position needs `players: [names in seating order]`")
    options = dict(data.get("options") or {})
    # A scenario plays by today's rules unless it names an older version (docs/fief-france.md,
    # "Rules versions"), as a game the judge creates today records its edition's version.
    options.setdefault(RULES_VERSION_KEY, load_edition(variant).new_rules_version)
    board = load_board(variant, options.get("board", "board"))
    players = [str(p) for p in data["players"]]
    state = empty_state(variant, options, players, board)
    first = data.get("first_player", players[0])
    if first not in players:
        raise PositionError(f"first_player {first!r} is not one of the players")
    state.first_player = players.index(first)
    owners = {str(f): str(p) for f, p in (data.get("family_players") or {}).items()}
    for family, player in owners.items():
        if family not in players or player not in players:
            raise PositionError(f"family_players: {family!r} and {player!r} must both be among the players")
    if owners:   # 13.7: every family mapped, a player's own family to them
        state.family_players = {f: owners.get(f, f) for f in players}
        state.link_purses()
    state.round = int(data.get("round", 1))
    state.phase = str(data.get("phase", "purchase"))
    own = tuple(step.name for step in edition_of(state).hooks.phases)   # the edition's own (England: invaders)
    if state.phase not in PHASES + own:
        raise PositionError(f"phase {state.phase!r} is not one of {', '.join(PHASES + own)}")
    for player, amount in (data.get("deniers") or {}).items():
        _family(state, player).deniers = int(amount)
    for player, hand in (data.get("hands") or {}).items():
        _family(state, player).hand = [str(c) for c in hand]
    for player, policies in (data.get("policies") or {}).items():
        _family(state, player).policies = dict(policies)
    # the edition's own modules' state, as stored; before the lords: one may be its captive (England 6.7)
    state.edition_state = dict(data.get("edition_state") or {})
    _lords(state, board, data.get("lords") or {})
    _units(state, board, data.get("units") or {})
    _towns(state, board, data.get("towns") or {})
    for fief in data.get("governed") or []:
        state.governed[_fief(board, fief)] = True
    for fief in data.get("vacant") or []:
        fid = _fief(board, fief)
        state.governed[fid] = True
        state.fief_titles[fid] = None
    for effect in data.get("effects") or []:
        state.board_effects.append(BoardEffect(str(effect["card"]), str(effect["target"]),
                                               effect.get("player"), effect.get("lord")))
    state.disasters_track = [str(c) for c in data.get("disasters_track") or []]
    piles = data.get("piles") or {}
    if "characters" in piles:
        state.character_pile = [str(c) for c in piles["characters"]]
    if "events" in piles:
        state.events_pile = [str(c) for c in piles["events"]]
    state.king_offer_used = bool(data.get("king_offer_used", False))
    state.plague_struck = [str(x) for x in data.get("plague_struck") or []]
    _default_control(state)
    return state


def _family(state: FiefState, player: str):
    if player not in state.families:
        raise PositionError(f"{player!r} is not one of the players {', '.join(state.players)}")
    return state.families[player]


def _fief(board: Board, text: str) -> str:
    fid = board.find_fief(str(text))
    if fid is None:
        raise PositionError(f"{text!r} is not a fief ({', '.join(board.fiefs)})")
    return fid


def _town(board: Board, text: Any) -> str | None:
    if text is None:
        return None
    if str(text) in board.seas:   # 5.3 (France: `offshore`)
        return str(text)
    town = board.find_town(str(text))
    if town is None:
        raise PositionError(f"{text!r} is not a town of the board")
    return town


def _lords(state: FiefState, board: Board, lords: dict) -> None:
    cards = load_cards(state.variant)
    for name, spec in lords.items():
        spec = spec or {}
        family = str(spec.get("family", ""))
        _family(state, family)
        card = cards.find_lord(name)
        female = bool(spec["female"]) if "female" in spec else bool(card and cards.lords[card].female)
        lord = Lord(str(name), family, female, _town(board, spec.get("at")))
        lord.captive_of = spec.get("captive_of")
        if lord.captive_of is not None and lord.captive_of not in state.edition_state:
            _family(state, lord.captive_of)   # a family, or an edition's own captor (England: invaders)
        lord.spouse = spec.get("spouse")
        lord.excommunicated = bool(spec.get("excommunicated", False))
        lord.assassin = bool(spec.get("assassin", False))
        lord.steps = int(spec.get("steps", 0))
        for title in spec.get("titles") or []:
            _title(state, board, lord, str(title))
        state.lords[lord.name] = lord


def _title(state: FiefState, board: Board, lord: Lord, title: str) -> None:
    low = title.lower().strip()
    if low.startswith("bishop"):
        rest = low.replace("bishop", "").replace("of", "").strip()
        number = int(rest) if rest.isdigit() else next(
            (b.number for b in board.bishoprics.values() if b.name.lower() == rest), None)
        if number not in board.bishoprics:
            raise PositionError(f"{lord.name}: {title!r} names no bishopric (write `bishop 2`)")
        lord.bishopric = number
    elif low == "cardinal":
        lord.cardinal = True
    elif low == "pope":
        lord.pope = True
    elif low in POLITICAL:
        lord.political = low
    else:
        fid = _fief(board, title)
        lord.fief_titles.append(fid)
        state.fief_titles[fid] = lord.name
        state.governed[fid] = True


def _units(state: FiefState, board: Board, units: dict) -> None:
    unit_types = edition_of(state).unit_types
    for town_text, by_family in units.items():
        town = _a_town(board, town_text, "units")
        for family, kinds in (by_family or {}).items():
            _family(state, family)
            for kind, count in (kinds or {}).items():
                if kind not in unit_types + ROYAL_GUARD:
                    raise PositionError(f"{kind!r} is not a unit type ({', '.join(unit_types)})")
                for _ in range(int(count)):
                    pid = state.new_pawn_id()
                    state.pawns[pid] = Pawn(pid, kind, family, town)


def _a_town(board: Board, text: Any, where: str) -> str:
    town = _town(board, text)
    if town is None:
        raise PositionError(f"{where}: a town name is missing (an empty key): name the town")
    return town


def _towns(state: FiefState, board: Board, towns: dict) -> None:
    for town_text, spec in towns.items():
        town = state.towns[_a_town(board, town_text, "towns")]
        spec = spec or {}
        if "controller" in spec:
            town.controller = spec["controller"]
        town.fortress = spec.get("fortress")
        if town.fortress not in (None, "stronghold", "city"):
            raise PositionError(f"{town.name}: fortress must be stronghold or city")
        town.mills = int(spec.get("mills", 0))
        besiegers = spec.get("besieged_by") or {}
        if isinstance(besiegers, list):
            besiegers = {f: 1 for f in besiegers}
        town.besiegers = {str(f): int(side) for f, side in besiegers.items()}
        if "arrivals" in spec:
            town.arrivals = [str(f) for f in spec["arrivals"]]


def _default_control(state: FiefState) -> None:
    present: dict[str, list[str]] = {}
    for lord in state.lords.values():
        if lord.location in state.towns and not lord.captive_of:   # not at sea (5.3)
            present.setdefault(lord.location, []).append(lord.family)
    for pawn in state.pawns.values():
        if pawn.location in state.towns:
            present.setdefault(pawn.location, []).append(pawn.family)
    for name, families in present.items():
        town = state.towns[name]
        distinct = list(dict.fromkeys(families))
        if town.controller is None:
            if len(distinct) > 1:
                raise PositionError(f"{name} holds forces of {', '.join(distinct)}: "
                                    "say which controls it (towns: {name}: {controller: ...})")
            town.controller = distinct[0]
        if not town.arrivals:
            town.arrivals = [town.controller] + [f for f in distinct if f != town.controller]
