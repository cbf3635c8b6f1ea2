"""What one player may see of a Fief game (DESIGN.md "Hidden information").

The view is an allow-list: every field is copied in on purpose, so a field added to the state
later stays hidden until someone decides it may be shown. Secrets and who sees them:
- hands: their owner (others see the count, 2.2);
- the characters and events piles, and the disasters track (face down, 2.3): counts only;
  the top card of each discard pile is public (2.1);
- under fog of war (I.2) the type of another family's unit pawns: shown as {"hidden": n};
- a family's pool of pawns left (it would give away types under fog of war): its owner;
- standing policies: their owner;
- orders sent for a phase are never in the state, so never in a view.
The game master (player None) sees everything.
"""
from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from pbem.games.fief.battle.orders import describe_battle_policies
from pbem.games.fief.board import Board
from pbem.games.fief.end_of_round.phase import victory_points
from pbem.games.fief.control import Forces, controller, forces_by_town, is_besieged
from pbem.games.fief.surprise.policies import describe_all_policies
from pbem.games.fief.hear_ye.phase import hear_ye_view
from pbem.games.fief.purchase.titles import cardinal_title_view
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.rules.api import RULES_VERSION_KEY

# Public options: the edition's (France: I.1-I.4, 2.5), the board file, and `rules_version`
# (docs/fief-france.md, "Rules versions"): the orders are checked against the view by the rules of
# the game's version (orders_common.view_rules_version).
CORE_OPTIONS = ("board", RULES_VERSION_KEY)


# The viewer of the public view (pbem.rules.api.ShowsPublicView): no player's name (a name is letters,
# digits, - and _), so it sees what any player sees of the others (I.2: every unit pawn face down).
NOBODY = "(nobody)"
# The record's `words:` the report template reads (the view's `words`, with the title and the coin).
REPORT_WORDS = ("board_heading", "chief_town", "sea", "district", "harbor", "fortified_city")


def phase_id(state: FiefState) -> str:
    if state.phase == "setup":
        return "setup/starting-towns"
    if state.phase == "over":
        return f"round-{state.round}/over"
    if state.phase == "cards":    # the Cards Phase's first sub-phase (cards/phase.py)
        return f"round-{state.round}/cards-draw"
    return f"round-{state.round}/{state.phase.replace('_', '-')}"


def pool_left(state: FiefState, family: str) -> dict[str, int]:
    """A.1: pawns of each type the family may still put on the board."""
    used = Counter(p.kind for p in state.pawns.values() if p.family == family)
    edition = edition_of(state)
    if edition.hooks.units_off_map is not None:   # England: knights held in Sherwood (13.4)
        used.update(edition.hooks.units_off_map(state, family))
    return {kind: unit.pool - used[kind] for kind, unit in edition.units.items()}


def supply(state: FiefState) -> dict[str, int]:
    """B: tiles left in the common supply (a city uses a stronghold tile, flipped)."""
    fortresses = sum(1 for t in state.towns.values() if t.fortress)
    mills = sum(t.mills for t in state.towns.values())
    edition = edition_of(state)
    return {"strongholds": edition.strongholds - fortresses, "mills": edition.mills - mills}


def build_view(state: FiefState, board: Board, player: str | None) -> dict[str, Any]:
    gm = player is None
    edition = edition_of(state)
    fog = edition.fog(state.options)
    forces = forces_by_town(state)
    view: dict[str, Any] = {
        "game": state.variant,
        "me": player,
        "round": state.round,
        "phase": state.phase,
        "phase_id": phase_id(state),
        "players": list(state.players),
        "turn_order": state.turn_order(),
        "first_player": state.players[state.first_player],
        "options": {k: state.options[k] for k in (*(o.name for o in edition.options), *CORE_OPTIONS)
                    if k in state.options},
        "families": {p: _family(state, p, gm or p == player, edition.money_public) for p in state.players},
        "lords": {n: _lord(state, n) for n in state.lords},
        "towns": {t: _town(state, board, t, forces, player, fog) for t in board.towns},
        "offshore": {"forces": _forces_map(_at_sea(forces, board), player, fog)},   # 5.3
        "fiefs": {f: _fief(state, board, f) for f in board.fiefs},
        "bishoprics": {str(n): {"name": b.name, "chief_town": b.chief_town, "towns": list(b.towns),
                                "bishop": next((l.name for l in state.lords.values()
                                                if l.bishopric == n), None)}
                       for n, b in board.bishoprics.items()},
        "board_effects": [{"card": e.card, "target": e.target, "player": e.player, "lord": e.lord}
                          for e in state.board_effects],
        "disasters_track": len(state.disasters_track),
        "piles": {"characters": len(state.character_pile), "events": len(state.events_pile),
                  "characters_discard_top": state.character_discard[-1] if state.character_discard else None,
                  "events_discard_top": _events_top(state)},
        "supply": supply(state),
        # 4.4: the king title's side is public; null in an edition without the privilege (`privileged`)
        "king_offer_used": state.king_offer_used if edition.hooks.privileged else None,
        "cardinal_title": cardinal_title_view(state),  # 4.5: the tile for sale, or its holder
        # 1.2: the ballots this phase may hold and, once named, their public candidates; the
        # votes are orders, never in the state, so never here before they are revealed.
        "hear_ye": hear_ye_view(state, board),
        # the report's words, the edition record's (its `words:`, its money)
        "words": {"title": edition.title.upper(), "coin": edition.coin_plural,
                  **{k: edition.words[k] for k in REPORT_WORDS}},
        "winners": list(state.winners),
        "result_text": state.result_text,
    }
    if len(board.seas) > 1:   # E 5.4: each Region's Sea apart (the map writes forces at their own Sea)
        view["seas"] = {s: {"forces": _forces_map(forces.get(s, {}), player, fog)} for s in board.seas}
    if state.family_players:   # 13.7: who runs which family (public: the boards lie side by side)
        view["family_players"] = dict(state.family_players)
    if edition.hooks.view_parts is not None:   # the edition's own (England: the Regions rolled, 13.6)
        view.update(edition.hooks.view_parts(state, board, player))
    if gm:
        view["pawns"] = [_pawn(p) for p in state.pawns.values()]
        view["hands"] = {p: list(f.hand) for p, f in state.families.items()}
        view["disasters_track_cards"] = list(state.disasters_track)
        view["policies"] = {}       # "policies" is the viewer's own; the GM has none
        view["policies_by_family"] = {p: copy.deepcopy(f.policies) for p, f in state.families.items()}
        view["my_pawns"] = []
        view["exchange_offers"] = copy.deepcopy(state.exchange_offers)
    else:
        view["my_pawns"] = [_pawn(p) for p in state.pawns.values() if p.family == player]
        view["hand"] = list(state.families[player].hand) if player in state.families else []
        # a deep copy: whatever a caller does with the view must not reach the state
        view["policies"] = copy.deepcopy(state.families[player].policies) if player in state.families else {}
        view["policies_text"] = describe_all_policies(view["policies"], edition) + \
            describe_battle_policies(view["policies"], edition.coin_plural)   # for the report
        # F: an exchange offer is between the two players of the private talk only.
        view["exchange_offers"] = [copy.deepcopy(o) for o in state.exchange_offers
                                   if player in (o["from"], o["with"])]
    return view


def _events_top(state: FiefState) -> str | None:
    """2.1: the top card is apparent, unless a disaster was discarded face down (2.3)."""
    if not state.events_discard:
        return None
    if len(state.events_discard) - 1 in state.events_discard_face_down:
        return "face_down"
    return state.events_discard[-1]


def _pawn(pawn) -> dict[str, Any]:
    return {"id": pawn.id, "kind": pawn.kind, "family": pawn.family, "location": pawn.location,
            "steps": pawn.steps}


def _family(state: FiefState, player: str, own: bool, money_public: bool) -> dict[str, Any]:
    fam = state.families[player]
    out: dict[str, Any] = {
        "lords": [l.name for l in state.lords.values() if l.family == player],
        "hand_size": len(fam.hand),
        "diplomacy_pawns": fam.diplomacy_pawns,
        "eliminated": fam.eliminated,
        "vp": victory_points(state, player),
        "units_on_board": sum(1 for p in state.pawns.values() if p.family == player),
    }
    if own or money_public:   # France: public (A.6, 3); England's money is secret
        out["deniers"] = fam.deniers
    if own:
        out["pool"] = pool_left(state, player)
    return out


def _lord(state: FiefState, name: str) -> dict[str, Any]:
    lord = state.lords[name]
    return {
        "family": lord.family, "female": lord.female, "location": lord.location,
        "captive_of": lord.captive_of, "titles": _titles(lord), "fief_titles": list(lord.fief_titles),
        "bishopric": lord.bishopric, "cardinal": lord.cardinal, "pope": lord.pope,
        "political": lord.political, "excommunicated": lord.excommunicated,
        "spouse": lord.spouse, "assassin": lord.assassin, "steps": lord.steps,
    }


def _titles(lord) -> list[str]:
    out = list(lord.fief_titles)
    if lord.bishopric:
        out.append(f"bishop {lord.bishopric}")
    out += [t for t, on in (("cardinal", lord.cardinal), ("pope", lord.pope)) if on]
    if lord.political:
        out.append(lord.political)
    return out


def _at_sea(forces: dict[str, dict[str, Forces]], board: Board) -> dict[str, Forces]:
    """5.3: each family's forces at the board's seas (France: the one off-shore area), together."""
    if len(board.seas) == 1:
        return forces.get(board.seas[0], {})
    out: dict[str, Forces] = {}
    for sea in board.seas:
        for family, f in forces.get(sea, {}).items():
            into = out.setdefault(family, Forces())
            into.lords += f.lords
            into.captives += f.captives
            into.units.update(f.units)
    return out


def _forces_map(by_family: dict[str, Forces], player: str | None, fog: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for family, f in by_family.items():
        if f.empty():
            continue
        if fog and player is not None and family != player:
            units: dict[str, int] = {"hidden": sum(f.units.values())} if f.units else {}
        else:
            units = {k: n for k, n in sorted(f.units.items())}
        out[family] = {"lords": list(f.lords), "captives": list(f.captives), "units": units}
    return out


def _town(state: FiefState, board: Board, name: str, forces, player, fog) -> dict[str, Any]:
    town = state.towns[name]
    info = board.towns[name]
    return {
        "fief": info.fief, "bishopric": info.bishopric, "chief": info.chief, "harbor": info.harbor,
        "controller": controller(state, board, name, forces),
        "fortress": town.fortress, "mills": town.mills, "mills_room": edition_of(state).mills_per_town - town.mills,
        "besieged": is_besieged(state, name), "besiegers": dict(town.besiegers),
        "arrivals": list(town.arrivals),
        "forces": _forces_map(forces.get(name, {}), player, fog),
    }


def _fief(state: FiefState, board: Board, fief: str) -> dict[str, Any]:
    holder = state.fief_titles.get(fief)
    governed = bool(state.governed.get(fief))
    info = board.fiefs[fief]
    return {"name": info.name, "rank": info.rank, "towns": list(info.towns), "price": info.title_price,
            "holder": holder, "family": state.lords[holder].family if holder in state.lords else None,
            "governed": governed, "vacant": governed and holder is None}
