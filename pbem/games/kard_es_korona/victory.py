"""V. Victory: the five ways to win the Holy Crown.

I. the last province lord standing (the others fallen or vassals); II. all offices won in one
election (elections.py calls ``office_victory``); III. whole regions (3, or 4 with 2-3 players,
the home province among them: ruling K19); IV. castles, at the moment the last is taken; V. at
the end of the last year: most castles, then counties, then cavalry, then money.
"""
from __future__ import annotations

from pbem.games.kard_es_korona.state import (State, board_of, castles_held, free_players, held_by,
                                             regions_held)
from pbem.rules.api import Event

CASTLES_TO_WIN = {"basic": {2: 9, 3: 7, 4: 7, 5: 6, 6: 6}, "advanced": {2: 13, 3: 11, 4: 11, 5: 9, 6: 9}}


def _win(state: State, winner: str, text: str, how: str) -> list[Event]:
    state["result"] = {"winners": [winner], "text": text}
    state["step"] = "over"
    return [Event("victory", text, data={"player": winner, "how": how})]


def no_lord_left(state: State) -> list[Event]:
    """Every player is out (II, l.126: lords not ransomed in time die, several in one year):
    no free lord is left to win by V.I or to be ranked by V.V, and the game ends without a winner."""
    text = "No free province lord is left in the game: no one wins the Holy Crown."
    state["result"] = {"winners": [], "text": text}
    state["step"] = "over"
    return [Event("victory", text, data={"how": "no lord left"})]


def castle_victory(state: State, player: str) -> list[Event]:
    """V.IV: checked whenever a castle is taken (vassals' castles count for the overlord)."""
    if state["result"] is not None:
        return []
    side = state["vassal_of"].get(player, player)
    need = CASTLES_TO_WIN[state["version"]][len(state["players"])]
    have = len(castles_held(state, side))
    if have >= need:
        return _win(state, side, f"{side} holds {have} castles and wins the Holy Crown (V.IV).", "castles")
    return []


def office_victory(state: State, player: str) -> list[Event]:
    return _win(state, player, f"{player} wins every office in one election and the Holy Crown (V.II).", "offices")


def check(state: State) -> list[Event]:
    """V.I and V.III after every phase; V.IV as well (a castle taken in battle)."""
    if state["result"] is not None:
        return []
    free = free_players(state)
    if not free:
        return no_lord_left(state)
    if len(free) == 1 and len(state["players"]) > 1:
        return _win(state, free[0], f"{free[0]} is the last free province lord and wins the Holy Crown (V.I).",
                    "last lord")
    need = 4 if len(state["players"]) <= 3 else 3
    for player in free:
        regions = regions_held(state, player)
        if len(regions) >= need and state["home"][player] in regions:
            names = ", ".join(board_of(state).province(r).name for r in regions)
            return _win(state, player, f"{player} holds {len(regions)} whole regions ({names}) and wins the Holy "
                        "Crown (V.III).", "regions")
    for player in free:
        events = castle_victory(state, player)
        if events:
            return events
    return []


def final_ranking(state: State) -> list[tuple[str, tuple[int, int, int, int]]]:
    """V.V: castles, then counties (all held, castles included: ruling K20), then cavalry on the
    board (his own units), then money."""
    def key(player: str) -> tuple[int, int, int, int]:
        cavalry = sum(a["units"]["cavalry"] for a in state["armies"].values() if a["owner"] == player)
        return (len(castles_held(state, player)), len(held_by(state, player)), cavalry, state["treasury"][player])
    ranked = [(p, key(p)) for p in free_players(state)]
    return sorted(ranked, key=lambda pk: pk[1], reverse=True)


def last_year(state: State) -> list[Event]:
    """V.V: at the end of 1308 (basic) or 1312 (advanced)."""
    if state["result"] is not None:
        return []
    ranked = final_ranking(state)
    if not ranked:
        return no_lord_left(state)
    best = ranked[0][1]
    winners = [p for p, k in ranked if k == best]
    c, n, k, m = best
    text = (f"{state['year']} ends: {', '.join(winners)} {'wins' if len(winners) == 1 else 'share'} the Holy Crown "
            f"with {c} castles, {n} counties, {k} cavalry and {m} garas (V.V).")
    state["result"] = {"winners": winners, "text": text}
    state["step"] = "over"
    return [Event("victory", text, data={"players": winners, "how": "last year",
                                         "ranking": [[p, list(k)] for p, k in ranked]})]

