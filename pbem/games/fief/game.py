"""The Fief family's GameRules: setup, the round's seven phases as a table of named steps
(E: 1 Hear Ye, 2 Cards, 3 Income, 4 Purchase, 5 Movement, 6 Battle, 7 End of Round), order
checking, views and templates. An edition (pbem/games/fief/edition.py: games/<edition>/edition.yaml
and the edition's hooks; France's rules object is pbem/games/fief_france/rules.py) supplies its
numbers, its round, its options and the rules only it has.

The Hear Ye phase is two mails (hear_ye/phase.py: candidates, then sealed votes when a ballot has
a candidate), the Cards Phase two sub-phases (cards/phase.py). The Battle Phase and the
cavalcade come from the battle rules (battle/phase.py, battle/orders.py).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from pbem.games.fief import at_once
from pbem.games.fief.battle.orders import (BATTLE_POLICIES, check_battle_orders, check_battle_policies,
                                           empty_orders)
from pbem.games.fief.battle.phase import resolve_battle_phase, resolve_cavalcade
from pbem.games.fief.battle.template import battle_template
from pbem.games.fief.board import Board, board_names, load_board
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.cards.orders import check_draw_orders, check_play_orders
from pbem.games.fief.cards.phase import play_deciders, resolve_draw, resolve_play
from pbem.games.fief.cards.template import draw_template, play_template
from pbem.games.fief.echo.orders import echo_orders
from pbem.games.fief.edition import Edition, edition_of
from pbem.games.fief.end_of_round.phase import resolve_end_of_round
from pbem.games.fief.hear_ye.phase import resolve_hear_ye, resolve_votes, vote_deciders
from pbem.games.fief.hear_ye.orders import check_first, check_votes, empty_first
from pbem.games.fief.hear_ye.template import first_template, votes_template
from pbem.games.fief.income.phase import money, resolve_income
from pbem.games.fief.map_view import map_drawing
from pbem.games.fief.movement.phase import resolve_movement
from pbem.games.fief.movement.orders import check_movement_orders
from pbem.games.fief.movement.template import movement_template
from pbem.orders.reading import Problems, check_keys, order_items
from pbem.games.fief.policies import check_policies, merge_policies
from pbem.games.fief.purchase.phase import resolve_purchase
from pbem.games.fief.purchase.orders import check_purchase_orders
from pbem.games.fief.setup.rules import new_game, resolve_starting_towns
from pbem.games.fief.setup.orders import check_setup_orders
from pbem.games.fief.state import OFFSHORE, RULES_VERSION, FiefState
from pbem.games.fief.surprise.phase_start import fire_phase_start
from pbem.games.fief.surprise.uprising_triggers import ON_FAMINE, fire_uprisings
from pbem.games.fief.setup.templates import purchase_template, setup_template
from pbem.games.fief.views import build_view, phase_id
from pbem.orders.yamlsafe import line_of, sub_map
from pbem.rules.api import (JSON, Event, GameResult, OptionSpec, OrderCheck, OrderError, Phase,
                            Resolution)
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
    policies = _check_policies(view, player, document.get("policies"), problems, board)
    if order_items(document, problems):
        problems.add(line_of(document, "orders"), f"there is nothing to order in the {view['phase']} phase",
                     "send only `policies:` now, or wait for the next report")
    return {"policies": policies}, ()


def _listed(check: ListChecker) -> Checker:
    """A phase whose mail is an `orders:` list beside the standing `policies:`."""
    def checker(view: JSON, board: Board, player: str, document: dict,
                problems: Problems) -> tuple[dict, tuple[str, ...]]:
        policies = _check_policies(view, player, document.get("policies"), problems, board)
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


def _draw(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    # G.2.3 "famines may lead to uprisings": the `uprising_on_famine` triggers fire after step C.
    return resolve_draw(state, board, orders, rng) + fire_uprisings(state, board, ON_FAMINE, rng)


def _movement(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    # 5.2.4: a cavalcade is fought by the battle rules
    return resolve_movement(state, board, dict(orders), rng, cavalcade=resolve_cavalcade)


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
        notes = (f"after ransoms and these orders you will have {money(left)} left"
                 if bought else "you buy nothing this phase",)
        if any("offer" in o for o in bought):
            notes += ("that count supposes your lower ransom offer refused (the full ransoms "
                      "paid); accepted, the offer is paid instead (4.1)",)
    return {"orders": bought}, notes


def _check_movement(view: JSON, board: Board, player: str, document: dict,
                    problems: Problems) -> tuple[dict, tuple[str, ...]]:
    # movement_orders checks the standing policies itself (safe passage, 5.2.2), not issue 4's.
    battle, rest = _battle_policies(view, player, document.get("policies"), problems, board)
    canonical, errors = check_movement_orders(view, player, document.get("orders"), rest)
    problems.extend(errors)
    canonical["policies"] = {**canonical.get("policies", {}), **battle}
    return canonical, ()


def _check_battle(view: JSON, board: Board, player: str, items: list,
                  problems: Problems) -> tuple[dict, tuple[str, ...]]:
    canonical = check_battle_orders(view, board, player, items, problems)
    if not problems and not any(canonical[k] for k in ("battles", "sieges", "lifts", "plunder", "captives")):
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


ROUND: tuple[Step, ...] = (
    Step("hear_ye", "Hear Ye, Hear Ye! Phase (1)", "marriages, the pope's acts, candidates", True,
         resolve_hear_ye, _listed(lambda v, b, p, i, pr: (check_first(v, b, p, i, pr), ())),
         empty_first,                                        # no marriage, no candidacy (1)
         lambda v, b, p: first_template(v, p)),
    Step("cards", "Cards Phase (2), steps A-C", "discard and draw cards; then the disasters", True,
         _draw, _listed(_check_draw),                        # 2.1-2.5
         lambda: {"discard": [], "draw": [], "if_first": {}},    # 2.1, 2.2: nothing
         lambda v, b, p: draw_template(v, p)),
    Step("cards_play", "Cards Phase (2), step D", "play lord, good weather, good harvest and tax cards",
         True, resolve_play, _listed(_check_play),           # 2.6
         lambda: {"play": []},                               # 2.6: nothing
         lambda v, b, p: play_template(v, p)),
    Step("income", "Income Phase (3)", "every family collects its income", False,
         lambda s, b, o, r: resolve_income(s, b, r)),
    Step("purchase", "Purchase Phase (4)", "pay ransoms; buy strongholds, mills, units and fief titles",
         True, lambda s, b, o, r: resolve_purchase(s, b, o), _listed(_check_purchase),
         lambda: {"orders": []},                             # buy nothing (ransoms are forced, 4.1)
         lambda v, b, p: purchase_template(v, b)),
    Step("movement", "Movement Phase (5)", "move your lords and their armies", True, _movement,
         _check_movement, lambda: {"moves": [], "land": None},   # hold
         lambda v, b, p: movement_template(v, p)),
    Step("battle", "Battle Phase (6)", "declare battles, sieges and plunder", True, resolve_battle_phase,
         _listed(_check_battle), empty_orders,               # no battle, sieges go on, no plunder
         lambda v, b, p: battle_template(v, p)),
    Step("end_of_round", "End of Round Phase (7)", "victory check", False,
         lambda s, b, o, r: resolve_end_of_round(s, b)),
)
# 1.2: the second mail of the Hear Ye phase, only when a ballot has a candidate (hear_ye/phase.py).
HEAR_YE_VOTES = Step("hear_ye_votes", "Hear Ye, Hear Ye! Phase (1): the ballots", "sealed votes", True,
                     resolve_votes, _listed(lambda v, b, p, i, pr: (check_votes(v, p, i, pr), ())),
                     lambda: {"votes": {}},                  # abstain (1.2)
                     lambda v, b, p: votes_template(v, p))
SETUP = Step("setup", "Setup: starting towns (A.5)", "choose your starting town", True,
             lambda s, b, o, r: resolve_starting_towns(s, b, dict(o)), _listed(_check_setup),
             lambda: {"towns": []},                          # the default town (A.5)
             lambda v, b, p: setup_template(v, b))
BY_PHASE = {s.name: s for s in ROUND + (HEAR_YE_VOTES, SETUP)}
PART_OF = {HEAR_YE_VOTES.name: "hear_ye"}   # a second mail of a phase: the round goes on after the phase
# After the game ("over") a mail has nothing to order.
AFTER_THE_GAME = Step("over", "The game is over", "", False, lambda s, b, o, r: [])


class FiefRules:
    rules_version = RULES_VERSION   # docs/fief-france.md, "Rules versions"

    def __init__(self, edition: Edition):
        self.edition = edition
        self.type_name = edition.type_name
        self.title = edition.title
        self.min_players = edition.min_players
        self.max_players = edition.max_players

    # -- data -------------------------------------------------------------------------------
    def _board(self, options: Mapping[str, Any]) -> Board:
        return load_board(self.type_name, options.get("board", "board"))

    def board(self) -> JSON:
        return load_board(self.type_name).to_json()

    def options(self) -> Sequence[OptionSpec]:
        return self.edition.options + (   # the edition's (France: I.1-I.4, 2.5), then the board file
            OptionSpec("board", "the board data file games/<game>/NAME.yaml (see docs/fief-france.md)",
                       "board", "choice", tuple(board_names(self.type_name))),
        )

    # -- lifecycle --------------------------------------------------------------------------
    def setup(self, options: Mapping[str, JSON], players: Sequence[str], rng: Rng) -> JSON:
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                             f"not {len(players)}")
        board = self._board(options)
        state, _ = new_game(self.type_name, dict(options), players, board, load_cards(self.type_name), rng)
        return state.to_json()

    def _step(self, state: FiefState) -> Step:
        return BY_PHASE[state.phase]

    def _deciders(self, state: FiefState, step: Step) -> tuple[str, ...]:
        if not step.takes_orders:
            return ()
        active = [p for p in state.turn_order() if not state.families[p].eliminated]
        if step.name == "cards_play":   # 2.6: only a player holding a card to play
            return play_deciders(state)
        if step.name == "hear_ye_votes":   # 1.2: only a family with a vote or a candidate
            return vote_deciders(state, self._board(state.options), active)
        if step.name != "movement":
            return tuple(active)
        # 5: only a family with a free lord in play, or forces offshore to bring ashore (5.3).
        movers = {l.family for l in state.lords.values() if l.location and not l.captive_of}
        movers |= {p.family for p in state.pawns.values() if p.location == OFFSHORE}
        return tuple(p for p in active if p in movers)

    def phase(self, state: JSON) -> Phase:
        st = FiefState.from_json(state)
        if st.phase == "over":
            return Phase(phase_id(st), "The game is over", (), st.result_text)
        step = self._step(st)
        return Phase(phase_id(st), step.title if st.phase == "setup" else f"Round {st.round}: {step.title}",
                     self._deciders(st, step), step.summary)

    def resolve(self, state: JSON, orders: Mapping[str, JSON], rng: Rng) -> Resolution:
        st = FiefState.from_json(copy.deepcopy(state))   # never touch the caller's state
        board = self._board(st.options)
        step = self._step(st)
        _store_policies(st, orders)
        events = list(step.resolve(st, board, orders, rng))
        if st.phase == step.name:    # the step did not move the game on by itself
            st.phase = edition_of(st).after(PART_OF.get(step.name, step.name), st.round)
        events += fire_phase_start(st, board)
        return Resolution(st.to_json(), tuple(events))

    def result(self, state: JSON) -> GameResult | None:
        if state.get("phase") != "over":
            return None
        return GameResult(tuple(state.get("winners", ())), state.get("result_text", ""))

    # -- per player -------------------------------------------------------------------------
    def view(self, state: JSON, player: str | None) -> JSON:
        st = FiefState.from_json(state)
        return build_view(st, self._board(st.options), player)

    def map_drawing(self, view: JSON) -> JSON:   # pbem.rules.api.DrawsMap; map_view.py
        return map_drawing(view, self.type_name, self.title)

    # -- at once (pbem.rules.api.ActsAtOnce; at_once.py) ------------------------------------
    at_once_keys = at_once.KEYS   # F, G.4, 5.2.2: "at any time"

    def check_at_once(self, view: JSON, player: str, document: Any) -> OrderCheck:
        return at_once.check_at_once(view, player, document)

    def at_once_template(self, view: JSON, player: str) -> str:
        return at_once.at_once_template(view, player)

    def act(self, state: JSON, player: str, action: JSON, rng: Rng) -> Resolution:
        st = FiefState.from_json(copy.deepcopy(state))   # never touch the caller's state
        events = at_once.act(st, self._board(st.options), player, action)
        return Resolution(st.to_json(), tuple(events))

    def check_orders(self, view: JSON, player: str, document: Any) -> OrderCheck:
        problems = Problems()
        if document is not None and not isinstance(document, dict):
            return OrderCheck(None, (OrderError(getattr(document, "line", None),
                                                "the order document must have an `orders:` list",
                                                "start with `orders:` and one `- ` line per order"),))
        document = document or {}
        check_keys(document, ("orders", "policies"), "the order document", problems)
        board = self._board(view.get("options", {}))
        canonical, notes = _for_orders(view).check(view, board, player, document, problems)
        return OrderCheck(canonical, tuple(problems), notes)

    def default_orders(self, view: JSON, player: str) -> JSON:
        """Documented in docs/fief-france.md: the default starting town, buy nothing, hold."""
        return {**_for_orders(view).default(), "policies": {}}   # standing policies stay

    def echo_orders(self, view: JSON, player: str, orders: JSON) -> str:
        """pbem.rules.api.EchoesOrders: the canonical orders in the order language (echo/orders.py)."""
        return echo_orders(view, player, orders)

    def order_template(self, view: JSON, player: str) -> str:
        return _for_orders(view).template(view, self._board(view.get("options", {})), player)

    def report_template(self) -> str:
        return "fief/position.txt.j2"


def _for_orders(view: JSON) -> Step:
    return BY_PHASE.get(view["phase"], AFTER_THE_GAME)


def _check_policies(view: JSON, player: str, given: Any, problems: Problems, board: Board) -> dict:
    if given is None:
        return {}
    battle, given = _battle_policies(view, player, given, problems, board)
    canonical, errors = check_policies(view, player, given)
    problems.extend(errors)
    return {**canonical, **battle}


def _battle_policies(view: JSON, player: str, given: Any, problems: Problems, board: Board) -> tuple[dict, Any]:
    """The policies of issue 4 (coalition, battle_plan, lower_ransom) may come with any mail,
    like every standing policy: (their canonical form, the rest of `policies:` for policies.py)."""
    if not isinstance(given, dict) or not any(k in given for k in BATTLE_POLICIES):
        return {}, given
    battle = check_battle_policies(view, board, player, given, problems)
    return battle, sub_map(given, lambda k: k not in BATTLE_POLICIES)


def _store_policies(state: FiefState, orders: Mapping[str, Any]) -> None:
    """Policies given in any phase's mail are kept until changed (DESIGN.md)."""
    given = {p: (o or {}).get("policies") for p, o in orders.items() if p in state.families}
    if not any(given.values()):
        return
    for player, policies in given.items():
        if policies:
            state.families[player].policies = merge_policies(state.families[player].policies, policies)
