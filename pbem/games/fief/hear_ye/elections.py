"""Elections (1.2-1.5): who may stand, how many votes each family gives, who is elected.

Pure counting on a FiefState; the mail rounds around it are in hear_ye/phase.py. A ballot is a
plain dict kept in ``FiefState.hear_ye`` between the two mails:
``{"id": "bishop 2" | "pope" | "king", "bishopric": 2 | None, "candidates": [lord, ...]}``.
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.control import controllers
from pbem.games.fief.state import FiefState, Lord

KING_MIN_VOTES = 3     # 1.5.3
TITLE_VOTES = {"pope": 3, "cardinal": 3, "bishop": 2}   # 1.3.2, for bishop elections


def can_act(lord: Lord) -> bool:
    """1.2: a captive or excommunicated lord never stands nor votes."""
    return not lord.captive_of and not lord.excommunicated and lord.location is not None


def pope_lord(state: FiefState) -> Lord | None:
    return next((l for l in state.lords.values() if l.pope), None)


def ecclesiastical(lord: Lord) -> bool:
    return bool(lord.bishopric or lord.cardinal or lord.pope)


def eligible(lord: Lord, ballot: str) -> str | None:
    """Why ``lord`` may not stand in ``ballot`` now, or None when he may (1.2-1.5.1, D.2)."""
    if not can_act(lord):
        return "a captive or excommunicated lord (or one not on the board) cannot stand (1.2)"
    if lord.female:   # the D'Arc too: she is a female lord (G.4.1.1)
        return "the candidates are male lords (1.3.1, 1.4.1 with D.2, 1.5.1)"
    if ballot.startswith("bishop"):
        if lord.spouse:
            return "a bishop must be unmarried (1.3.1)"
        if lord.political == "king":
            return "the king cannot be a bishop (1.3.1)"
        if lord.bishopric:
            return "he is already a bishop (1.3.1)"
        return None
    if ballot == "pope":
        return None if lord.bishopric else "the pope must be a bishop or cardinal (1.4.1)"
    if ballot == "king":
        if not lord.fief_titles:
            return "a king candidate needs a fief title (1.5.1)"
        if ecclesiastical(lord):
            return "a king candidate cannot hold an ecclesiastical title (1.5.1)"
        if lord.political:
            return "he already holds a political title (D: at most 1)"
        return None
    return f"there is no ballot {ballot!r}"


def bishoprics_to_elect(state: FiefState, board: Board) -> list[int]:
    """1.3: every town of the bishopric controlled and no bishop; ascending order."""
    owner = controllers(state, board)
    held = {l.bishopric for l in state.lords.values() if l.bishopric}
    return [n for n in sorted(board.bishoprics)
            if n not in held and all(owner[t] for t in board.bishoprics[n].towns)]


def pope_ballot_possible(state: FiefState) -> bool:
    """1.4: the title available and at least 2 non-captive cardinals in play."""
    if any(l.pope for l in state.lords.values()):
        return False
    return sum(1 for l in state.lords.values() if l.cardinal and not l.captive_of) >= 2


def titled_lords(state: FiefState) -> int:
    return sum(1 for l in state.lords.values() if l.titled)


def king_title_free(state: FiefState) -> bool:
    return not any(l.political == "king" for l in state.lords.values())


def bishop_votes(state: FiefState, board: Board, number: int, owner: dict[str, str | None],
                 elected_now: set[str]) -> dict[str, int]:
    """1.3.2: 2 for the chief town, 1 per other town controlled; per lord, the votes of his most
    prestigious ecclesiastical title only (pope 3, cardinal 3, bishop 2, this one elected in an
    earlier round)."""
    votes: dict[str, int] = {}
    info = board.bishoprics[number]
    for town in info.towns:
        if holder := owner.get(town):
            votes[holder] = votes.get(holder, 0) + (2 if town == info.chief_town else 1)
    for lord in state.lords.values():
        if not can_act(lord) or lord.name in elected_now:
            continue
        best = max((TITLE_VOTES[t] for t, on in (("pope", lord.pope), ("cardinal", lord.cardinal),
                                                    ("bishop", bool(lord.bishopric))) if on), default=0)
        if best:
            votes[lord.family] = votes.get(lord.family, 0) + best
    return votes


def voters_of(state: FiefState, ballot: str) -> dict[str, list[Lord]]:
    """The voting lords of each family: cardinals for the pope (1.4), lords with a fief or
    bishop title for the king (1.5.2)."""
    out: dict[str, list[Lord]] = {}
    for lord in state.lords.values():
        if not can_act(lord):
            continue
        if (ballot == "pope" and lord.cardinal) or (ballot == "king" and (lord.fief_titles or lord.bishopric)):
            out.setdefault(lord.family, []).append(lord)
    return out


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


def king_backing(lords: list[Lord]) -> bool:
    """1.5.3: among the votes for him, 2 bishops, or 1 cardinal, or the pope."""
    return (sum(1 for l in lords if l.bishopric) >= 2 or any(l.cardinal for l in lords)
            or any(l.pope for l in lords))


# -- Titles (D) ----------------------------------------------------------------------------
# D: at most 2 fief titles, 1 bishop, 1 cardinal, 1 pope and 1 political title per lord. The
# elections keep them: a bishop candidate is not yet a bishop, a king candidate holds no
# political title; the fief titles' limit is hear_ye/titles.py's (D.1.1).
TITLE_LIMITS = {"fief": 2, "bishop": 1, "cardinal": 1, "pope": 1, "political": 1}
JUSTICE_IMMUNE = ("king", "queen", "regent_queen", "crown_prince")   # D.2.3, D.3.1-D.3.3, G.4.2.4


def justice_immune(lord: Lord) -> bool:
    """G.4.2.4: the justice card never targets the king, the queen (regent or not), the crown
    prince or the pope (for the cards' rules)."""
    return lord.pope or lord.political in JUSTICE_IMMUNE
