"""What the Church and the retainers bring to England's Income phase (E 2.8, 2.13, 3.0-3.2, R18),
for the part that runs England's Income: one call per phase, ``church_income``, and one per Mill,
``mill_share``. The fortune bonus of a city (BOUNTIFUL HARVEST, GOOD WEATHER, R9) and whether a
FAMINE stops its Mill are the fortune part's; they come in as ``bonus`` and the Mill's value.

The Tithe (2.8, 3.2): a TAX card played with ``play_tithe`` lies on the board as
``BoardEffect("tithe", district number, player, cleric)``; at Income the cleric's family takes
the Mills' income of the district (2 shillings a Mill plus the fortune bonuses), the Mills of an
Abbey's city excepted, while the cleric lives and governs it (FAQ l.866).
"""
from __future__ import annotations

from typing import Callable

from pbem.games.fief.board import Board
from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief_england import retainers
from pbem.games.fief_england.church import abbeys, clergy, relics
from pbem.rules.api import Event

TITHE = "tithe"
TREASURE = "tax_tithe"   # 11.3: the Treasure marker a Tithe needs


def church_income(state: FiefState, board: Board, bonus: Callable[[str], int],
                  excalibur_at: str | None = None) -> tuple[dict[str, list[tuple[str, int]]], list[Event]]:
    """3.0, 3.1 (R18): each standing Abbey's income for its Abbess's family; the vocabulary's
    ``income`` retainers (docs/fief-england.md "Retainers"). -> family -> [(what, shillings)],
    and the events of the retainers used."""
    out = abbeys.abbey_income(state, board, bonus, lambda city: relics.present_in(state, city), excalibur_at)
    events: list[Event] = []
    for family in state.players:
        extra, used = retainers.income_bonus(state, family)
        if extra:
            out.setdefault(family, []).append(("retainers", extra))
        events += used
    return out, events


def tithe_collectors(state: FiefState) -> dict[int, str]:
    """2.8, FAQ (l.866): district -> the family collecting its Tithe this round: the TAX card's
    cleric still governing it (a dead or replaced cleric's Tithe is not collected)."""
    out = {}
    for effect in state.board_effects:
        if effect.card != TITHE or not effect.target.isdigit():
            continue
        cleric = clergy.tithe_collector(state, int(effect.target))
        if cleric is not None and cleric.name == effect.lord and cleric.family == effect.player:
            out[int(effect.target)] = cleric.family
    return out


def mill_share(state: FiefState, board: Board, city: str, owner: str | None, value: int,
               collectors: dict[int, str]) -> list[tuple[str | None, int, str]]:
    """One Mill's income: [(who receives, how much, why)]. ``value``: the Mill's own income (2
    plus the fortune bonuses; 0 under FAMINE). 3.1: +1 for each Abbey in the city or one road
    away, to the Mill's owner (R18); R18: the Mill of an Abbey's city goes to its Abbess, and it
    is not tithed (2.13); 2.8: a Tithe takes the 2 and the fortune bonuses of the district's
    other Mills ("Players that actually control the Mills gain nothing")."""
    if value <= 0:
        return []
    extra = abbeys.mill_bonus(state, board, city)
    if abbeys.abbey_in(state, city):
        return [(abbeys.mill_receiver(state, board, city, owner), value + extra, "abbey's mill")]
    district = board.towns[city].bishopric
    if district in collectors:
        return [(collectors[district], value, "tithe")] + ([(owner, extra, "abbey bonus")] if extra else [])
    return [(owner, value + extra, "mill")]


def tithe_problem(state: FiefState, board: Board, player: str, cleric: str, number: int) -> str | None:
    """2.8: "A Bishop or Archbishop on his own Bishopric/Archbishopric" (R3), once a district a
    round (2.9)."""
    lord = state.lords.get(cleric)
    if lord is None or lord.family != player:
        return f"{cleric} is not a noble of your family in play"
    if not clergy.rank_of(state, cleric) or lord.bishopric != number:
        return f"{cleric} is not the Bishop or Archbishop of {board.bishoprics[number].name} (2.8: his own district)"
    if any(e.card == TITHE and e.target == str(number) for e in state.board_effects):
        return f"a Tithe lies on {board.bishoprics[number].name} already this round (2.9)"
    return None


def play_tithe(state: FiefState, board: Board, player: str, cleric: str, number: int,
               spend_treasure: Callable[[FiefState, str, str], str | None]) -> list[Event] | str:
    """2.8, 11.3: the TAX card played as a Tithe, a Treasure marker on its icon (``spend_treasure``:
    the fortune part's one function for Treasure markers)."""
    why = tithe_problem(state, board, player, cleric, number)
    if why:
        return why
    why = spend_treasure(state, player, TREASURE)
    if why:
        return why
    state.board_effects.append(BoardEffect(TITHE, str(number), player, cleric))
    title = clergy.district_title(board, clergy.rank_of(state, cleric) or "bishop", number)
    return [Event("tithe_played", f"{player} plays a TAX card: {cleric}, {title}, tithes his district, a Treasure "
                  "marker on its icon: its Mills' income goes to him at Income, Abbeys' excepted (2.8, 11.3).",
                  data={"player": player, "lord": cleric, "district": number})]
