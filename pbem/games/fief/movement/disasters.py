"""Disasters lying on the board that bear on movement and battles: bad weather (G.2.2) and
entering a plagued bishopric (G.2.1.3). A lord struck down is eliminated by hear_ye/elimination.py (D.4);
a captive lord is not (6.3, from rules version 2: docs/fief-france.md, ruling 35).
"""
from __future__ import annotations

from typing import Iterable

from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.board import Board
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.policies import loss_order
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event
from pbem.rules.rng import Rng


def bishoprics_with(state: FiefState, card: str) -> set[int]:
    """Bishopric numbers a disaster card of this kind lies on (2.5: targets "1".."5")."""
    return numbers_with(((e.card, e.target) for e in state.board_effects), card)


def numbers_with(effects: Iterable[tuple[str, str]], card: str) -> set[int]:
    """The same over (card, target) pairs: the state's board effects or a view's."""
    return {int(target) for kind, target in effects if kind == card and str(target).isdigit()}


def bad_weather_in(board: Board, effects: Iterable[tuple[str, str]], town: str) -> int | None:
    """G.2.2: "No battle nor land move are allowed in the affected bishopric": the number of the
    bishopric under bad weather that ``town`` lies in (no battle there), or None."""
    number = bishopric_of(board, town)
    return number if number in numbers_with(effects, "bad_weather") else None


def no_battle_for_weather(board: Board, effects: Iterable[tuple[str, str]], town: str) -> str | None:
    """Why G.2.2 forbids a battle in ``town`` (None: it does not): read by the Battle Phase's
    order check (the view's board effects) and by its resolution (the state's)."""
    own = load_edition(board.variant).hooks.weather
    if own is not None:   # the edition's own (England: STORMS by Region, 2.5)
        return own.forbids_battle(board, effects, town)
    number = bad_weather_in(board, effects, town)
    if number is None:
        return None
    return (f"bad weather lies on the bishopric of {board.bishoprics[number].name} ({number}): "
            "no battle is allowed there (G.2.2)")


def bishopric_of(board: Board, town: str) -> int | None:
    return None if town in board.seas else board.towns[town].bishopric


def plagued_places(state: FiefState, board: Board) -> set[int | str]:
    """Where a plague lies: bishopric numbers, and the seas a plague card without the dice icon
    strikes (2.5: "a disaster affects all the lords and all the troops ... located in the
    bishopric or the offshore area")."""
    return bishoprics_with(state, "plague") | {
        e.target for e in state.board_effects if e.card == "plague" and e.target in board.seas}


def place_text(number: int | str) -> str:
    """A disaster's place in the players' words: a bishopric by its number ("bishopric 3"), France's
    sea by its id ("the offshore area"), or the name an edition gives it (England: "York, North
    (IV)", "Sea IV")."""
    if isinstance(number, int) or number.isdigit():
        return f"bishopric {number}"
    return f"the {number} area" if number.isidentifier() and number.islower() else number


def bad_weather_blocks(board: Board, bad: set[int], frm: str, to: str) -> int | None:
    """G.2.2: no land move in the affected bishopric, 'including to get in or out of it'.
    The blocking bishopric number, or None."""
    for town in (frm, to):
        number = bishopric_of(board, town)
        if number in bad:
            return number
    return None


def enters_plague(board: Board, plagued: set[int | str], frm: str, to: str) -> int | str | None:
    """G.2.1.3: the step enters a plagued bishopric (from another bishopric or from sea), or a
    plagued offshore area (ruling 41: the offshore area is struck as a bishopric is, 2.5)."""
    def place(town: str) -> int | str | None:
        return town if town in board.seas else bishopric_of(board, town)
    number = place(to)
    if number in plagued and place(frm) != number:
        return number
    return None


def strike(state: FiefState, board: Board, rng: Rng, number: int | str, lords: Iterable[str],
           pawns: Iterable[str], family: str) -> tuple[list[str], list[str], list[Event]]:
    """G.2.1.3: an army enters plagued bishopric ``number`` (or a sea), or G.2.1: the plague
    strikes where it stands: a d6 per lord not struck yet this round (1-3: eliminated, G.2.1.1;
    from rules version 2 a captive lord is spared, 6.3), then half its pawns not struck yet are
    lost, rounded down, the owner's `plague_losses` policy saying which go first (G.2.1.2).
    Returns (eliminated lords, lost pawn ids, events)."""
    struck = set(state.plague_struck)
    dead_lords: list[str] = []
    events: list[Event] = []
    for name in lords:
        if name in struck or name not in state.lords:
            continue
        jailer = state.lords[name].captive_of
        if jailer and state.rules_version >= 2:
            # 6.3: "A captive lord cannot be eliminated, except with an assassination card, or in
            # case of an uprising" - not by the plague (ruling 35): no roll, not struck.
            events.append(Event("plague_captive_spared", f"Plague in {place_text(number)}: {name}, captive "
                                f"of {jailer}, cannot be eliminated ({edition_of(state).cite('6.3')}): no roll.",
                                data={"lord": name, "jailer": jailer, "bishopric": number}))
            continue
        roll = rng.d6(f"plague in {place_text(number)}: {name}")
        state.plague_struck.append(name)
        if roll <= 3:
            dead_lords.append(name)
        events.append(Event("plague_lord", f"Plague in {place_text(number)}: {name} rolls {roll} and "
                            f"{'dies' if roll <= 3 else 'survives'} ({edition_of(state).cite('G.2.1.1')}).",
                            data={"lord": name, "roll": roll, "bishopric": number,
                                  "eliminated": roll <= 3}))
    fresh = [pid for pid in pawns if pid not in struck and pid in state.pawns]
    order = loss_order(state.families[family].policies, edition_of(state))
    rank = {kind: i for i, kind in enumerate(order)}
    fresh.sort(key=lambda pid: (rank.get(state.pawns[pid].kind, len(rank)), pid))
    lost = fresh[: len(fresh) // 2]
    state.plague_struck.extend(fresh)
    if fresh:
        kinds = ", ".join(edition_of(state).unit_word(state.pawns[pid].kind, 1) for pid in lost) or "nothing"
        events.append(Event("plague_troop", f"Plague in {place_text(number)}: {family}'s army of "
                            f"{len(fresh)} unit pawns loses {len(lost)} ({kinds}) "
                            f"({edition_of(state).cite('G.2.1.2')}).",
                            data={"family": family, "bishopric": number, "lost": lost,
                                  "kinds": [state.pawns[pid].kind for pid in lost]}))
    for pid in lost:
        del state.pawns[pid]
    for name in dead_lords:
        events += eliminate_lord(state, board, name)
    return dead_lords, lost, events
