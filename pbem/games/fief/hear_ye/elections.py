"""What the elections of every edition read of a lord (1.2), and the majority count. The
edition's own ballots (France: bishops, pope, king, 1.3-1.5) are its hooks' (``Elections``,
pbem/games/fief/hooks.py; France's in pbem/games/fief_france/elections.py); the mail rounds
around them are in hear_ye/phase.py. A ballot is a plain dict kept in ``FiefState.hear_ye``
between the two mails: ``{"id": "bishop 2" | "pope" | "king", "candidates": [lord, ...]}``.
"""
from __future__ import annotations

from pbem.games.fief.state import FiefState, Lord


def can_act(lord: Lord) -> bool:
    """1.2: a captive or excommunicated lord never stands nor votes."""
    return not lord.captive_of and not lord.excommunicated and lord.location is not None


def pope_lord(state: FiefState) -> Lord | None:
    return next((l for l in state.lords.values() if l.pope), None)


def ecclesiastical(lord: Lord) -> bool:
    return bool(lord.bishopric or lord.cardinal or lord.pope)


def count(tally: dict[str, int]) -> tuple[str | None, str]:
    """The candidate with a majority of the votes cast (more than all others together), or
    None and why: a tie or a split defers the ballot to the next round (1.2)."""
    cast = sum(tally.values())
    if not cast:
        return None, "no vote was cast"
    best = max(tally.values())
    leaders = [c for c, v in tally.items() if v == best]
    if len(leaders) > 1:
        return None, f"a tie at {best} votes"
    if best * 2 <= cast:
        return None, f"{leaders[0]} has {best} of {cast} votes, not a majority"
    return leaders[0], f"{best} of {cast} votes"
