"""Income Phase (3): every family's income from towns, mills, tallage, tithe and the queen,
then the good weather, good harvest and tax cards leave the board.

The cards that put these effects on the board are played in the Cards Phase (2.6); the
income rules apply to whatever lies on the board (``FiefState.board_effects``):
- ``tallage`` on a fief id, ``tithe`` on a bishopric number or on ``all`` (the papal tithe);
- ``good_weather`` / ``good_harvest`` / ``famine`` on a bishopric number.

G.3.3 "collecting tallage or tithe may lead to uprisings": the standing `uprising_when_taxed`
triggers fire first, while the tax cards still lie on the board (surprise/uprising_triggers.py).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from pbem.games.fief.board import Board
from pbem.games.fief.control import controllers, holder_family, is_besieged
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief.surprise.uprising_triggers import WHEN_TAXED, fire_uprisings
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng


def money(state: FiefState, n: int) -> str:
    """``n`` in the game's coin (France: deniers; England: shillings)."""
    return edition_of(state).money_text(n)

TAX_CARDS = ("tallage", "tithe")
INCOME_CARDS = ("good_weather", "good_harvest") + TAX_CARDS   # discarded after income (3)


@dataclass
class Income:
    towns: int = 0
    mills: int = 0
    tallage: dict[str, int] = field(default_factory=dict)   # fief -> deniers
    tithe: dict[int, int] = field(default_factory=dict)     # bishopric -> deniers
    queen: int = 0
    extra: list[tuple[str, int]] = field(default_factory=list)   # the edition's own (England: Abbeys, 3.1)

    def total(self) -> int:
        return (self.towns + self.mills + sum(self.tallage.values()) + sum(self.tithe.values()) + self.queen
                + sum(v for _, v in self.extra))


def resolve_income(state: FiefState, board: Board, rng: Rng) -> list[Event]:
    events = fire_uprisings(state, board, WHEN_TAXED, rng)   # G.3.3, G.4.2.1: as the taxes are collected
    ctrl = controllers(state, board)
    income = edition_of(state).income
    incomes: dict[str, Income] = defaultdict(Income)
    rules = edition_of(state).hooks.income_rules   # the edition's own (England: R17, 2.5, 2.7)
    for town, family in ctrl.items():
        if family and not is_besieged(state, town):   # 3: per non-besieged town controlled
            incomes[family].towns += rules.town(state, board, town) if rules is not None else income["town"]
    events += _tallages(state, board, incomes)
    collectors, tithe_events = tithe_collectors(state, board)
    events += tithe_events
    _mills(state, board, ctrl, collectors, incomes)
    queens = edition_of(state).hooks.queen_titles   # 3 (France: the queen and regent queen, D.3.2)
    for lord in state.lords.values():
        if lord.political in queens:
            incomes[lord.family].queen += income["queen"]
    own = edition_of(state).hooks.income_parts
    if own is not None:   # the edition's own incomes (England: the Abbeys and retainers, 3.1)
        parts, used = own(state, board)
        events += used
        for family, items in parts.items():
            incomes[family].extra += items
    public = edition_of(state).money_public   # France: wealth is public (3); else told to its owner only
    adjust = edition_of(state).hooks.income_total   # England 3.3: halved while Invaders are in England
    for player in state.turn_order():
        inc = incomes[player]
        total, why = adjust(state, player, inc.total()) if adjust else (inc.total(), None)
        state.families[player].deniers += total
        events.append(Event("income", f"{player} collects {money(state, total)} ({_breakdown(state, inc, board)}"
                            f"{'; ' + why if why else ''}) and now has {state.families[player].deniers} "
                            f"({edition_of(state).cite('3')}).",
                            Audience.everyone() if public else Audience.only(player),
                            data={"player": player, "deniers": total, "towns": inc.towns,
                                  "mills": inc.mills, "tallage": inc.tallage,
                                  "tithe": {str(k): v for k, v in inc.tithe.items()}, "queen": inc.queen,
                                  **({"extra": [[w, v] for w, v in inc.extra]} if inc.extra else {}),
                                  "treasury": state.families[player].deniers}))
    events += _discard_income_cards(state)
    return events


def _breakdown(state: FiefState, inc: Income, board: Board) -> str:
    towns = edition_of(state).words["towns"]   # the edition's word (England: Cities)
    parts = [f"{towns} {inc.towns}", f"mills {inc.mills}"]
    parts += [f"tallage on the {board.fiefs[f].name} {v}" for f, v in inc.tallage.items()]
    parts += [f"tithe of bishopric {board.bishoprics[b].name} ({b}) {v}" for b, v in inc.tithe.items()]
    parts += [f"{what} {v}" for what, v in inc.extra]
    if inc.queen:
        parts.append(f"queen {inc.queen}")
    return ", ".join(parts)


def _tallages(state: FiefState, board: Board, incomes: dict[str, Income]) -> list[Event]:
    """G.3.3.1: 2 deniers per town of the fief, whoever controls it, besieged or not. A titled
    lord's tallage holds while the title stays in the family; the king's royal tallage is on an
    ungoverned fief (D.3.1), even if he is captive."""
    events = []
    for effect in state.board_effects:
        if effect.card != "tallage" or effect.target not in board.fiefs or effect.player not in state.families:
            continue
        fief = effect.target
        royal = not state.governed.get(fief) and any(
            l.political == "king" and l.family == effect.player for l in state.lords.values())
        if holder_family(state, fief) == effect.player or royal:
            per_town = edition_of(state).income["tallage_per_town"]   # 3, G.3.3.1
            incomes[effect.player].tallage[fief] = per_town * len(board.fiefs[fief].towns)
        else:
            events.append(Event("tallage_cancelled", f"{effect.player}'s tallage on the {board.fiefs[fief].name} "
                                "is cancelled: the title is no longer in the family (G.3.3.1).",
                                data={"player": effect.player, "fief": fief}))
    return events


def tithe_collectors(state: FiefState, board: Board) -> tuple[dict[int, str], list[Event]]:
    """G.3.3.2: who collects the tithe of each bishopric: the claimant the edition ranks first
    (its ``tithe_rank`` hook; France: its bishop, else the first cardinal in turn order, else
    the pope, whose papal tithe lies on every governed bishopric)."""
    rank_of = edition_of(state).hooks.tithe_rank
    governed = {l.bishopric for l in state.lords.values() if l.bishopric}
    order = {p: i for i, p in enumerate(state.turn_order())}
    best: dict[int, tuple[int, int, str, str]] = {}
    events: list[Event] = []
    for effect in state.board_effects:
        if effect.card != "tithe":
            continue
        lord = state.lords.get(effect.lord or "")
        if lord is None or lord.family != effect.player:
            events.append(Event("tithe_cancelled", f"{effect.player}'s tithe is cancelled: the lord "
                                f"{effect.lord} who requested it is no longer in play (G.3.3.2).",
                                data={"player": effect.player, "lord": effect.lord}))
            continue
        if effect.target != "all" and not effect.target.isdigit():
            continue   # a tithe lies on a bishopric number or on "all" (the papal tithe)
        targets = sorted(governed) if effect.target == "all" else [int(effect.target)]
        for number in targets:
            rank = rank_of(lord, effect.target, number, governed)
            if rank is None:
                continue
            key = (rank, order.get(effect.player, 99), effect.player, lord.name)
            if number not in best or key < best[number]:
                best[number] = key
    return {n: k[2] for n, k in best.items()}, events


def _mills(state: FiefState, board: Board, ctrl: dict, collectors: dict[int, str],
           incomes: dict[str, Income]) -> None:
    """3: 2 deniers per mill in a non-besieged town, +1 good weather, +1 good harvest, none
    under famine (G.2.3); the bishopric's tithe collector takes it instead of the controller."""
    cards: dict[str, set[str]] = defaultdict(set)
    for effect in state.board_effects:
        cards[effect.target].add(effect.card)   # 2.6.1: several copies count once
    for town, here in state.towns.items():
        if not here.mills or is_besieged(state, town):
            continue
        number = board.towns[town].bishopric
        on = cards[str(number)]
        rules = edition_of(state).hooks.income_rules
        if rules is not None:   # the edition's own (England: FAMINE and the fortune cards by Region)
            value = here.mills * rules.mill(state, board, town)
        elif "famine" in on:
            continue
        else:
            value = here.mills * (edition_of(state).income["mill"] + ("good_weather" in on) + ("good_harvest" in on))
        share = edition_of(state).hooks.mill_share
        if share is not None:   # the edition's own (England: an Abbey's Mill and its +1, 2.13, 3.1, R18)
            for family, amount, why in share(state, board, town, ctrl[town], value, collectors):
                if family and why == "tithe":
                    incomes[family].tithe[number] = incomes[family].tithe.get(number, 0) + amount
                elif family:
                    incomes[family].mills += amount
            continue
        if number in collectors:
            inc = incomes[collectors[number]]
            inc.tithe[number] = inc.tithe.get(number, 0) + value
        elif ctrl[town]:
            incomes[ctrl[town]].mills += value


def _discard_income_cards(state: FiefState) -> list[Event]:
    """3: once all incomes are received, good weather, good harvest and tax cards are discarded."""
    kept: list[BoardEffect] = []
    gone = 0
    rules = edition_of(state).hooks.income_rules
    leaving = rules.leave_after if rules is not None else INCOME_CARDS   # England: the TAX card stays (2.8)
    for effect in state.board_effects:
        if effect.card in leaving:
            state.events_discard.append("tax" if effect.card in TAX_CARDS else effect.card)
            gone += 1
        else:
            kept.append(effect)
    state.board_effects = kept
    if not gone:
        return []
    if rules is not None:
        return [Event("income_cards_discarded", f"{gone} fortune card(s) leave the board after Income (3).",
                      data={"count": gone})]
    return [Event("income_cards_discarded", f"{gone} good weather, good harvest and tax card(s) "
                  "leave the board (3).", data={"count": gone})]
