"""The Fief round (E: 1 Hear Ye, 2 Cards, 3 Income, 4 Purchase, 5 Movement, 6 Battle, 7 End of
Round) as a table of named steps: each phase's resolution, what its mail may order (its order
checker, beside the standing policies every mail may give), the orders of a player who sent
none and its order template. The rules object (game.py) walks it.

The Hear Ye phase is two mails (hear_ye/phase.py: candidates, then sealed votes when a ballot has
a candidate), the Cards Phase two sub-phases (cards/phase.py). The Battle Phase and the
cavalcade come from the battle rules (battle/phase.py, battle/orders.py); the surprise rules'
triggers are handed to the phases that reach them (G.4: BATTLE_START, before_move, ON_FAMINE).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from pbem.games.fief.battle.orders import (BATTLE_POLICIES, check_battle_orders, check_battle_policies,
                                           empty_orders)
from pbem.games.fief.battle.phase import BattleStart, resolve_battle_phase, resolve_cavalcade
from pbem.games.fief.battle.template import battle_template
from pbem.games.fief.board import Board
from pbem.games.fief.cards.orders import check_draw_orders, check_play_orders, hand_after_draw, hand_after_play
from pbem.games.fief.cards.phase import resolve_draw, resolve_play
from pbem.games.fief.cards.template import draw_template, play_template
from pbem.games.fief.edition import load_edition
from pbem.games.fief.end_of_round.phase import resolve_end_of_round
from pbem.games.fief.hear_ye.phase import resolve_hear_ye, resolve_votes
from pbem.games.fief.hear_ye.orders import check_first, check_votes, empty_first
from pbem.games.fief.hear_ye.template import first_template, votes_template
from pbem.games.fief.income.phase import resolve_income
from pbem.games.fief.movement.phase import resolve_movement
from pbem.games.fief.movement.orders import check_movement_orders
from pbem.games.fief.movement.template import movement_template
from pbem.orders.reading import Problems, order_items
from pbem.games.fief.purchase.phase import resolve_purchase
from pbem.games.fief.purchase.orders import check_purchase_orders, deniers_after
from pbem.games.fief.setup.rules import resolve_starting_towns
from pbem.games.fief.setup.orders import check_setup_orders
from pbem.games.fief.state import FiefState
from pbem.games.fief.surprise.policies import check_all_policies
from pbem.games.fief.surprise.triggers import fire_battle_triggers
from pbem.games.fief.surprise.uprising_triggers import (ON_FAMINE, fire_before_move, fire_uprising_triggers,
                                                        fire_uprisings)
from pbem.games.fief.setup.templates import purchase_template, setup_template
from pbem.games.fief.views import build_view
from pbem.orders.yamlsafe import line_of, sub_map
from pbem.rules.api import JSON, Event
from pbem.rules.rng import Rng


Resolver = Callable[[FiefState, Board, Mapping[str, Any], Rng], list[Event]]
# A phase's mail: (view, board, player, document, problems) -> (canonical orders, notes).
Checker = Callable[[JSON, Board, str, dict, Problems], tuple[dict, tuple[str, ...]]]
# A phase's `orders:` list alone: (view, board, player, items, problems) -> (canonical, notes).
ListChecker = Callable[[JSON, Board, str, list, Problems], tuple[dict, tuple[str, ...]]]
NOTHING_TO_ORDER = ("# Nothing to order in this phase. You may still set standing policies:\n"
                    "# policies:\n#   safe_passage: {allow: [], others: refuse}\n")


def _check_nothing(view: JSON, board: Board, player: str, document: dict,
                   problems: Problems) -> tuple[dict, tuple[str, ...]]:
    policies = _check_policies(view, player, document.get("policies"), problems, board, line_of(document, "policies"))
    if order_items(document, problems):
        problems.add(line_of(document, "orders"), f"there is nothing to order in the {view['phase']} phase",
                     "send only `policies:` now, or wait for the next report")
    return {"policies": policies}, ()


def listed_orders(check: ListChecker) -> Checker:
    """A phase whose mail is an `orders:` list beside the standing `policies:`."""
    def checker(view: JSON, board: Board, player: str, document: dict,
                problems: Problems) -> tuple[dict, tuple[str, ...]]:
        policies = _check_policies(view, player, document.get("policies"), problems, board,
                                   line_of(document, "policies"))
        canonical, notes = check(view, board, player, order_items(document, problems), problems)
        return {**canonical, "policies": policies}, notes
    return checker


@dataclass(frozen=True)
class Step:
    """One phase (or mail sub-phase): its resolution, and what its mail may order, the orders
    of a player who sent none (docs/fief-france.md "Default orders") and the order template."""
    name: str            # FiefState.phase
    title: str
    summary: str
    takes_orders: bool
    resolve: Resolver
    check: Checker = _check_nothing
    default: Callable[[], dict] = lambda: {"orders": []}
    template: Callable[[JSON, Board, str], str] = lambda view, board, player: NOTHING_TO_ORDER
    # An edition's own step (E): (state, board, the active players in turn order) -> those asked
    # to send a mail now (none: the step resolves at once); without it every active player.
    deciders: Callable[[FiefState, Board, list[str]], tuple[str, ...]] | None = None
    # An edition's own step: (view, canonical orders) -> the order items written back (echo);
    # without it the core's table of its phases (echo/orders.py).
    echo: Callable[[dict, dict], list] | None = None
    # An edition's own step: (state) -> True when it has nothing to do now; the round passes it
    # by without a mail or a resolution of its own (game.py ``resolve``).
    skip: Callable[[FiefState], bool] | None = None
    # A step whose orders spend money: (a family's view, board, its canonical orders) -> the
    # money left; at two players (England 13.7) the next family of the mail checks against it.
    purse: Callable[[JSON, Board, dict], int] | None = None
    # A step whose orders take cards from the hand: (a family's view, its canonical orders) -> the
    # cards left, a None for each place a card drawn will fill; at two players (England 13.7: "only
    # one Hand") the next family checks against it.
    hand: Callable[[JSON, dict], list[str | None]] | None = None


def _draw(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    # G.2.3 "famines may lead to uprisings": the `uprising_on_famine` triggers fire after step C.
    return resolve_draw(state, board, orders, rng) + fire_uprisings(state, board, ON_FAMINE, rng)


def _movement(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    # 5.2.4: a cavalcade is fought by the battle rules; 5.2.1, G.4.2.1: uprisings before a lord moves
    return resolve_movement(state, board, dict(orders), rng, cavalcade=resolve_cavalcade,
                            before_move=fire_before_move)


# G.4: the surprise triggers of a battle's start (the battle rules declare the moments).
BATTLE_START = BattleStart(uprisings=fire_uprising_triggers, cards=fire_battle_triggers)


def _battle(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    return resolve_battle_phase(state, board, orders, rng, BATTLE_START)


def _check_setup(view: JSON, board: Board, player: str, items: list,
                 problems: Problems) -> tuple[dict, tuple[str, ...]]:
    towns = check_setup_orders(view, board, items, problems)
    if len(towns) < len(view["turn_order"]) and not problems:
        return {"towns": towns}, (f"you named {len(towns)} town(s): if all are taken by players before "
                                  "you, you get the default town (the empty town farthest from those taken)",)
    return {"towns": towns}, ()


def _check_purchase(view: JSON, board: Board, player: str, items: list,
                    problems: Problems) -> tuple[dict, tuple[str, ...]]:
    bought, left = check_purchase_orders(view, board, items, problems)
    notes: tuple[str, ...] = ()
    if not problems:
        notes = (f"after ransoms and these orders you will have {load_edition(view['game']).money_text(left)} left"
                 if bought else "you buy nothing this phase",)
        if any("offer" in o for o in bought):
            notes += ("that count supposes your lower ransom offer refused (the full ransoms "
                      "paid); accepted, the offer is paid instead (4.1)",)
    return {"orders": bought}, notes


def _check_movement(view: JSON, board: Board, player: str, document: dict,
                    problems: Problems) -> tuple[dict, tuple[str, ...]]:
    # movement/orders.py checks the standing policies itself (safe passage, 5.2.2), not issue 4's.
    battle, rest = _battle_policies(view, player, document.get("policies"), problems, board)
    canonical, errors = check_movement_orders(view, player, document.get("orders"), rest,
                                              line_of(document, "orders"), line_of(document, "policies"))
    problems.extend(errors)
    canonical["policies"] = {**canonical.get("policies", {}), **battle}
    return canonical, ()


def _check_battle(view: JSON, board: Board, player: str, items: list,
                  problems: Problems) -> tuple[dict, tuple[str, ...]]:
    canonical = check_battle_orders(view, board, player, items, problems)
    if not problems and not any(canonical.get(k) for k in ("battles", "sieges", "lifts", "plunder", "captives",
                                                             "own")):
        return canonical, ("no battle, siege or plunder from you this phase; your sieges in progress "
                           "continue while a lord of yours is there",)
    return canonical, ()


def _check_draw(view: JSON, board: Board, player: str, items: list,
                problems: Problems) -> tuple[dict, tuple[str, ...]]:
    canonical = check_draw_orders(view, player, items, problems)
    return canonical, (() if problems or canonical["discard"] or canonical["draw"]
                       else ("you discard and draw nothing this round",))


def _check_play(view: JSON, board: Board, player: str, items: list,
                problems: Problems) -> tuple[dict, tuple[str, ...]]:
    canonical = check_play_orders(view, board, player, items, problems)
    return canonical, () if problems or canonical["play"] else ("you play no card this round",)


# 1: the first Hear Ye mail; an edition's own orders in it (its `hear_ye_orders` hook; France: the
# pope's acts) add to its summary and its defaults (step_of).
HEAR_YE = Step("hear_ye", "Hear Ye, Hear Ye! Phase (1)", "marriages, candidates", True,
               resolve_hear_ye, listed_orders(lambda v, b, p, i, pr: (check_first(v, b, p, i, pr), ())),
               empty_first,                                  # no marriage, no candidacy (1)
               lambda v, b, p: first_template(v, p))
ROUND: tuple[Step, ...] = (
    HEAR_YE,
    Step("cards", "Cards Phase (2), steps A-C", "discard and draw cards; then the disasters", True,
         _draw, listed_orders(_check_draw),                        # 2.1-2.5
         lambda: {"discard": [], "draw": [], "if_first": {}},    # 2.1, 2.2: nothing
         lambda v, b, p: draw_template(v, p), hand=hand_after_draw),
    Step("cards_play", "Cards Phase (2), step D", "play lord, good weather, good harvest and tax cards",
         True, resolve_play, listed_orders(_check_play),           # 2.6
         lambda: {"play": []},                               # 2.6: nothing
         lambda v, b, p: play_template(v, p), hand=hand_after_play),
    Step("income", "Income Phase (3)", "every family collects its income", False,
         lambda s, b, o, r: resolve_income(s, b, r)),
    Step("purchase", "Purchase Phase (4)", "pay ransoms; buy strongholds, mills, units and fief titles",
         True, lambda s, b, o, r: resolve_purchase(s, b, o, build_view), listed_orders(_check_purchase),
         lambda: {"orders": []},                             # buy nothing (ransoms are forced, 4.1)
         lambda v, b, p: purchase_template(v, b),
         purse=lambda v, b, canonical: deniers_after(v, b, canonical.get("orders") or [])),
    Step("movement", "Movement Phase (5)", "move your lords and their armies", True, _movement,
         _check_movement, lambda: {"moves": [], "land": None},   # hold
         lambda v, b, p: movement_template(v, p)),
    Step("battle", "Battle Phase (6)", "declare battles, sieges and plunder", True, _battle,
         listed_orders(_check_battle), empty_orders,               # no battle, sieges go on, no plunder
         lambda v, b, p: battle_template(v, p)),
    Step("end_of_round", "End of Round Phase (7)", "victory check", False,
         lambda s, b, o, r: resolve_end_of_round(s, b)),
)
# 1.2: the second mail of the Hear Ye phase, only when a ballot has a candidate (hear_ye/phase.py).
HEAR_YE_VOTES = Step("hear_ye_votes", "Hear Ye, Hear Ye! Phase (1): the ballots", "sealed votes", True,
                     resolve_votes, listed_orders(lambda v, b, p, i, pr: (check_votes(v, p, i, pr), ())),
                     lambda: {"votes": {}},                  # abstain (1.2)
                     lambda v, b, p: votes_template(v, p))
SETUP = Step("setup", "Setup: starting towns (A.5)", "choose your starting town", True,
             lambda s, b, o, r: resolve_starting_towns(s, b, dict(o)), listed_orders(_check_setup),
             lambda: {"towns": []},                          # the default town (A.5)
             lambda v, b, p: setup_template(v, b))
BY_PHASE = {s.name: s for s in ROUND + (HEAR_YE_VOTES, SETUP)}
PART_OF = {HEAR_YE_VOTES.name: "hear_ye"}   # a second mail of a phase: the round goes on after the phase
# After the game ("over") a mail has nothing to order.
AFTER_THE_GAME = Step("over", "The game is over", "", False, lambda s, b, o, r: [])


def step_of(phase: str, type_name: str) -> Step | None:
    """The step of ``phase`` in a game of ``type_name``: the core's (the first Hear Ye mail with the
    edition's own orders, its `hear_ye_orders` hook), or the edition's own Game Setup (its `setup`
    hook), or one of the edition's own phases (its `phases` hook, E); None for neither (a game
    over)."""
    hooks = load_edition(type_name).hooks
    if phase == SETUP.name and hooks.setup is not None:   # the edition's own Game Setup
        return hooks.setup.step
    if phase == HEAR_YE.name:
        own = hooks.hear_ye_orders
        if own is None:
            return HEAR_YE
        return replace(HEAR_YE, summary=f"marriages, {own.heading}, candidates",
                       default=lambda: {**own.first_defaults(), **empty_first()})
    if phase in BY_PHASE:
        return BY_PHASE[phase]
    return next((s for s in hooks.phases if s.name == phase), None)


def _check_policies(view: JSON, player: str, given: Any, problems: Problems, board: Board,
                    line: int | None = None) -> dict:
    if given is None:
        return {}
    battle, given = _battle_policies(view, player, given, problems, board)
    canonical, errors = check_all_policies(view, player, given, line)
    problems.extend(errors)
    return {**canonical, **battle}


def _battle_policies(view: JSON, player: str, given: Any, problems: Problems, board: Board) -> tuple[dict, Any]:
    """The policies of issue 4 (coalition, battle_plan, lower_ransom) may come with any mail,
    like every standing policy: (their canonical form, the rest of `policies:` for policies.py)."""
    if not isinstance(given, dict) or not any(k in given for k in BATTLE_POLICIES):
        return {}, given
    battle = check_battle_policies(view, board, player, given, problems)
    return battle, sub_map(given, lambda k: k not in BATTLE_POLICIES)
