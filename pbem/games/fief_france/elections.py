"""France's elections in the Hear Ye, Hear Ye! Phase (1.2-1.5): the bishops, the pope and the
king — who may stand, how many votes each family gives, who is elected and what the title
brings — and the pope's excommunications (1.1, 1.4, D.2.3.1). The Fief core runs the two mails
(candidates, then sealed votes), reveals and tallies (pbem/games/fief/hear_ye/phase.py); it
reaches these rules through the edition's hooks (``ELECTIONS``, hooks.py).

A ballot is named by its id: ``"bishop N"`` (bishopric N), ``"pope"`` or ``"king"``.

Ruling (candidacies that depend on an earlier ballot of the same phase): every candidacy is
named in the first mail. A lord standing for a bishopric may also stand for pope (1.4.1: "a
bishop newly elected may stand"); candidates are checked again when their ballot is counted, in
the order bishops (ascending) > pope > king, and one no longer eligible then (not elected
bishop, elected bishop elsewhere, now an ecclesiastic standing for king) is withdrawn: the
markers on him count for nothing. Vote weights are counted at that moment too.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controllers
from pbem.games.fief.hooks import Elections
from pbem.games.fief.hear_ye.elections import can_act, count, ecclesiastical, pope_lord
from pbem.games.fief_france.hear_ye import annulments
from pbem.games.fief_france.royal import crown_king, lose_queen
from pbem.games.fief.state import FiefState, Lord
from pbem.orders.reading import fold
from pbem.rules.api import Event

KING_MIN_VOTES = 3     # 1.5.3
TITLE_VOTES = {"pope": 3, "cardinal": 3, "bishop": 2}   # 1.3.2, for bishop elections


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


def ballot_named(view: dict[str, Any], word: str) -> str | None:
    """The ballot a mail names: `pope`, `king`, `bishop N` or a bishopric by its name or chief
    town (1.3-1.5)."""
    if word in ("pope", "king"):
        return word
    rest = word[len("bishop "):] if word.startswith("bishop ") else word
    found = None
    for n, b in view["bishoprics"].items():
        if rest in (n, fold(b["name"]), fold(b["chief_town"])):
            found = f"bishop {n}"
    return found


BALLOT_NAMES = "write `bishop 2` (or the bishopric's name), `pope` or `king`"


def also_stands(orders: Mapping[str, Any], player: str, lord: str, ballot: str) -> bool:
    """1.4.1: a candidate for a bishopric this phase may stand for pope too (checked at the count)."""
    if ballot != "pope":
        return False
    named = (orders.get(player) or {}).get("candidates") or {}
    return any(b.startswith("bishop") and l == lord for b, l in named.items())


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


def ballots_possible(state: FiefState, board: Board) -> list[str]:
    """The ballots that may be held this phase, before candidacies (1.3, 1.4, 1.5); the pope's
    and king's conditions are checked again when counted."""
    out = [f"bishop {n}" for n in bishoprics_to_elect(state, board)]
    if pope_ballot_possible(state):
        out.append("pope")
    if king_title_free(state) and titled_lords(state) + sum(1 for b in out if b.startswith("bishop")) >= 3:
        out.append("king")
    return out


def not_held(state: FiefState, ballot: str) -> str | None:
    """Why a ballot with candidates is not held when it is counted: the pope's and the king's
    conditions no longer met (1.4, 1.5)."""
    if ballot == "pope" and not pope_ballot_possible(state) or \
            ballot == "king" and (not king_title_free(state) or titled_lords(state) < 3):
        return "its conditions are no longer met (1.4, 1.5)"
    return None


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


def weights(state: FiefState, board: Board, ballot: str,
            elected_now: set[str]) -> tuple[dict[str, int], dict[str, list[Lord]]]:
    """Each family's votes in ``ballot``, and its voting lords (pope, king)."""
    if ballot.startswith("bishop"):
        return bishop_votes(state, board, int(ballot.split()[1]), controllers(state, board), elected_now), {}
    lords_of = voters_of(state, ballot)
    if ballot == "pope":   # 1.4.1: a bishop elected this phase cannot vote (he is no cardinal either)
        lords_of = {p: [l for l in ls if l.name not in elected_now] for p, ls in lords_of.items()}
    return {p: len(ls) for p, ls in lords_of.items() if ls}, lords_of


def king_backing(lords: list[Lord]) -> bool:
    """1.5.3: among the votes for him, 2 bishops, or 1 cardinal, or the pope."""
    return (sum(1 for l in lords if l.bishopric) >= 2 or any(l.cardinal for l in lords)
            or any(l.pope for l in lords))


def winner(state: FiefState, ballot: str, tally: dict[str, int], markers: dict[str, dict],
           lords_of: dict[str, list[Lord]]) -> tuple[str | None, str]:
    """1.2: a majority of the votes cast; 1.5.3: a king needs at least 3 votes including 2
    bishops, 1 cardinal or the pope."""
    elected, why = count({c: v for c, v in tally.items() if v})
    if elected and ballot == "king":
        backers = [l for p, m in markers.items() if m.get("for") == elected for l in lords_of.get(p, [])]
        if tally[elected] < KING_MIN_VOTES or not king_backing(backers):
            return None, (f"{elected} has {tally[elected]} votes: a king needs a majority of at least 3 "
                          "votes including 2 bishops, 1 cardinal or the pope (1.5.3)")
    return elected, why


def elect(state: FiefState, ballot: str, lord: Lord, why: str) -> list[Event]:
    events = []
    if ballot.startswith("bishop"):
        lord.bishopric = int(ballot.split()[1])
        text = f"{lord.name} ({lord.family}) is elected bishop of bishopric {lord.bishopric} ({why}) (1.3)."
        if lord.political == "crown_prince":   # D.3.3
            lord.political = None
            text += " As a bishop he is no longer crown prince (D.3.3)."
        return [Event("elected", text, data={"ballot": ballot, "lord": lord.name, "family": lord.family})]
    if ballot == "pope":
        lord.pope = True
        return [Event("elected", f"{lord.name} ({lord.family}) is elected pope ({why}) (1.4).",
                      data={"ballot": ballot, "lord": lord.name, "family": lord.family})]
    for other in state.lords.values():   # 1.5.3: the regent queen is not regent any more
        if other.political == "regent_queen":
            events += lose_queen(state, other)
    return events + crown_king(state, lord, Event(
        "elected", f"{lord.name} ({lord.family}) is elected king ({why}) (1.5).",
        data={"ballot": ballot, "lord": lord.name, "family": lord.family}))


# -- the pope's excommunications (1.1, 1.4, D.2.3.1) ------------------------------------------

def pope_acts(state: FiefState, orders: Mapping[str, Any]) -> list[Event]:
    """1.1, D.2.3: the pope may lift an excommunication and excommunicate 1 lord (one marker)."""
    pope = pope_lord(state)
    if pope is None:
        return []
    acts = (orders.get(pope.family) or {}).get("pope") or {}
    events = []
    for lord in state.lords.values():
        if lord.excommunicated and acts.get("lift") == lord.name:
            lord.excommunicated = False
            events.append(Event("excommunication_lifted", f"Pope {pope.name} lifts the excommunication "
                                f"of {lord.name} ({lord.family}) (D.2.3.1).", data={"lord": lord.name}))
    target = state.lords.get(acts.get("excommunicate") or "")
    if target is not None and target is not pope and not any(l.excommunicated for l in state.lords.values()):
        events += excommunicate(state, pope, target)
    return events


def excommunicate(state: FiefState, pope: Lord, target: Lord) -> list[Event]:
    """D.2.3.1: the lord loses every ecclesiastical title and may neither vote nor stand."""
    lost = [t for t, on in (("bishop", target.bishopric), ("cardinal", target.cardinal),
                            ("pope", target.pope)) if on]
    target.bishopric, target.cardinal, target.pope = None, False, False
    target.excommunicated = True
    if state.frieze.get(target.name) == "cardinal":   # the card marked a cardinal who is no more (ruling 31)
        state.character_discard.append(state.frieze.pop(target.name))
    text = f"Pope {pope.name} excommunicates {target.name} ({target.family})"
    text += f", who loses the {' and '.join(lost)} title{'s' if len(lost) > 1 else ''}" if lost else ""
    return [Event("excommunicated", text + " (D.2.3.1).", data={"lord": target.name, "lost": lost})]


def new_pope_acts(state: FiefState, ballot: str, orders: Mapping[str, Any]) -> list[Event]:
    """1.4: after the pope's ballot, the new pope may immediately excommunicate a lord (ordered in
    advance by his family, hear_ye/orders.py _check_new_pope); only while the excommunicated
    marker is free (1.1)."""
    if ballot != "pope":
        return []
    pope = pope_lord(state)
    act = (orders.get(pope.family) or {}).get("new_pope_excommunicates") if pope else None
    if pope is None or not act or act.get("pope") != pope.name:
        return []
    target = state.lords.get(act.get("lord") or "")
    if target is None or target is pope:
        return []
    if any(l.excommunicated for l in state.lords.values()):
        return [Event("excommunication_not_done", f"Pope {pope.name} cannot excommunicate {target.name}: "
                      "the excommunicated marker is in play (1.1).", data={"lord": target.name})]
    return excommunicate(state, pope, target)


def before_ballots(state: FiefState, orders: Mapping[str, Any]) -> list[Event]:
    """1.1, D.2.3: the pope's acts, then the annulments he grants or refuses."""
    return pope_acts(state, orders) + annulments(state, orders)


ELECTIONS = Elections(ballot_named=ballot_named, ballot_names=BALLOT_NAMES, before=before_ballots,
                      possible=ballots_possible, eligible=eligible, also_stands=also_stands,
                      not_held=not_held, weights=weights, winner=winner, elect=elect, after=new_pope_acts)
