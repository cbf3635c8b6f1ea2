"""The Fief family's GameRules: setup, the round (round.py: its phases as a table of named steps,
E), order checking, views, templates and actions done at once. An edition
(pbem/games/fief/edition.py: games/<edition>/edition.yaml and the edition's hooks; France's rules
object is pbem/games/fief_france/rules.py) supplies its numbers, its round, its options and the
rules only it has.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

from pbem.games.fief import at_once, families as fam
from pbem.games.fief.battle.orders import plan_spending
from pbem.games.fief.board import Board, board_names, load_board
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.cards.phase import play_deciders
from pbem.games.fief.computer import computer_orders
from pbem.games.fief.echo.orders import echo_orders
from pbem.games.fief.edition import Edition, edition_of
from pbem.games.fief.hear_ye.phase import vote_deciders
from pbem.games.fief.map_view import map_drawing
from pbem.orders.reading import Problems, check_keys
from pbem.orders.yamlsafe import line_of, sub_map
from pbem.games.fief.orders_common import view_rules_version
from pbem.games.fief.policies import merge_policies
from pbem.games.fief.random_orders import random_orders
from pbem.games.fief.round import AFTER_THE_GAME, BY_PHASE, PART_OF, Step, step_of
from pbem.games.fief.setup.rules import new_game
from pbem.games.fief.state import RULES_VERSION, FiefState
from pbem.games.fief.surprise.phase_start import fire_phase_start
from pbem.games.fief.views import NOBODY, build_view, phase_id
from pbem.rules.api import JSON, GameResult, OptionSpec, OrderCheck, OrderError, Phase, Resolution
from pbem.rules.rng import Rng




class FiefRules:
    rules_version = RULES_VERSION   # docs/fief-france.md, "Rules versions"

    def __init__(self, edition: Edition):
        self.edition = edition
        self.rules_version = edition.new_rules_version   # an edition fixed on its own (England)
        self.type_name = edition.type_name
        self.title = edition.title
        self.min_players = edition.min_players
        self.max_players = edition.max_players
        # 13.7: the at-once part of a two-player mail names the family it acts for (`family:`)
        self.at_once_keys = at_once.KEYS + (("family",) if edition.families_per_player
                                            and max(edition.families_per_player.values()) > 1 else ())

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
        own = self.edition.hooks.setup   # an edition's own Game Setup (England, X14), else A
        start = own.new_game if own is not None else new_game
        state, _ = start(self.type_name, dict(options), players, board, load_cards(self.type_name), rng)
        return state.to_json()

    def _step(self, state: FiefState) -> Step:
        step = step_of(state.phase, state.variant)
        if step is None:
            raise ValueError(f"phase {state.phase!r} is no phase of {state.variant} (pbem/games/fief/round.py, "
                             "or the edition's `phases` hook)")
        return step

    def _deciders(self, state: FiefState, step: Step) -> tuple[str, ...]:
        if not step.takes_orders:
            return ()
        active = [p for p in state.turn_order() if not state.families[p].eliminated]
        if step.deciders is not None:   # an edition's own step (E)
            return step.deciders(state, self._board(state.options), active)
        if step.name == "cards_play":   # 2.6: only a player holding a card to play
            return play_deciders(state)
        if step.name == "hear_ye_votes":   # 1.2: only a family with a vote or a candidate
            return vote_deciders(state, self._board(state.options), active)
        if step.name != "movement":
            return tuple(active)
        # 5: only a family with a free lord in play, or forces offshore to bring ashore (5.3).
        movers = {l.family for l in state.lords.values() if l.location and not l.captive_of}
        movers |= {p.family for p in state.pawns.values() if p.location in self._board(state.options).seas}
        return tuple(p for p in active if p in movers)

    def phase(self, state: JSON) -> Phase:
        st = FiefState.from_json(state)
        if st.phase == "over":
            return Phase(phase_id(st), "The game is over", (), st.result_text)
        step = self._step(st)
        core = BY_PHASE.get(step.name)   # a title of the core's cites France: the edition's sections
        title = self.edition.cite_in(step.title) if core is not None and core.title == step.title else step.title
        return Phase(phase_id(st), title if st.phase == "setup" else f"Round {st.round}: {title}",
                     fam.players_of(st.family_players, self._deciders(st, step)), step.summary)

    def resolve(self, state: JSON, orders: Mapping[str, JSON], rng: Rng) -> Resolution:
        st = FiefState.from_json(copy.deepcopy(state))   # never touch the caller's state
        board = self._board(st.options)
        step = self._step(st)
        orders = fam.split_orders(st.family_players, orders)   # 13.7: each family's own orders
        _store_policies(st, orders)
        events = list(step.resolve(st, board, orders, rng))
        if st.phase == step.name:    # the step did not move the game on by itself
            st.phase = edition_of(st).after(PART_OF.get(step.name, step.name), st.round)
        while (nxt := step_of(st.phase, st.variant)) is not None and nxt.skip is not None and nxt.skip(st):
            st.phase = edition_of(st).after(nxt.name, st.round)   # an edition's own step with nothing to do
        events += fire_phase_start(st, board, rng)
        return Resolution(st.to_json(), fam.to_players(st.family_players, events))

    def result(self, state: JSON) -> GameResult | None:
        if state.get("phase") != "over":
            return None
        return GameResult(tuple(state.get("winners", ())), state.get("result_text", ""))   # players (13.7)

    # -- per player -------------------------------------------------------------------------
    def view(self, state: JSON, player: str | None) -> JSON:
        st = FiefState.from_json(state)
        board = self._board(st.options)
        if not st.family_players or player is None or player not in st.player_names():
            return build_view(st, board, player)
        step = step_of(st.phase, st.variant)   # 13.7: both families of the player, as their own
        ordering = self._deciders(st, step) if step is not None else ()
        mine = st.families_of(player)
        return fam.player_view({f: build_view(st, board, f) for f in mine}, player,
                               [f for f in ordering if f in mine])

    def public_view(self, state: JSON) -> JSON:   # pbem.rules.api.ShowsPublicView: the view of no player
        st = FiefState.from_json(state)
        return build_view(st, self._board(st.options), NOBODY)

    def map_drawing(self, view: JSON) -> JSON:   # pbem.rules.api.DrawsMap; map_view.py
        return map_drawing(view, self.type_name, self.title)

    # -- at once (pbem.rules.api.ActsAtOnce; at_once.py) ------------------------------------
    at_once_keys: tuple[str, ...] = at_once.KEYS   # F, G.4, 5.2.2: "at any time"

    def check_at_once(self, view: JSON, player: str, document: Any) -> OrderCheck:
        if not fam.families_apart(view):
            if "family" in document:
                return OrderCheck(None, (OrderError(line_of(document, "family"), "`family:` names one of your "
                                                    "two families in a two-player game (13.7); you run one family",
                                                    "remove the line"),))
            return at_once.check_at_once(view, player, document)
        problems = Problems()
        family = fam.at_once_family(view, document, problems)   # 13.7: the family it acts for
        if family is None:
            return OrderCheck(None, tuple(problems))
        check = at_once.check_at_once(fam.family_view(view, family), family,
                                      sub_map(document, lambda k: k != "family"))
        return OrderCheck({**(check.orders or {}), "family": family}, check.errors)

    def at_once_template(self, view: JSON, player: str) -> str:
        if not fam.families_apart(view):
            return at_once.at_once_template(view, player)
        first = view["my_families"][0]
        return (at_once.at_once_template(fam.family_view(view, first), first)
                + f"# family: {first}   # at two players: the family the part done at once acts for "
                  f"({', '.join(view['my_families'])}; 13.7)\n")

    def act(self, state: JSON, player: str, action: JSON, rng: Rng) -> Resolution:
        st = FiefState.from_json(copy.deepcopy(state))   # never touch the caller's state
        family = action.get("family", player) if st.family_players else player   # 13.7
        action = {k: v for k, v in action.items() if k != "family"}
        events = at_once.act(st, self._board(st.options), family, action, rng)
        return Resolution(st.to_json(), fam.to_players(st.family_players, events))

    def check_orders(self, view: JSON, player: str, document: Any) -> OrderCheck:
        if fam.families_apart(view):   # 13.7: a block of orders per family
            problems = Problems()
            shared = view_rules_version(view) >= 3   # 13.7: one purse (R154, R159), one hand (R158)
            canonical, notes = fam.check_family_orders(view, player, document, self._check_one, problems,
                                                       self._purse_left if shared else None,
                                                       self._hand_left if shared else None,
                                                       self._plans_reserve if shared else None)
            return OrderCheck(canonical, tuple(problems), notes)
        return self._check_one_document(view, player, document)

    def _purse_left(self, view: JSON, canonical: Any) -> int | None:
        """The money a family's accepted orders leave in its purse, if its phase spends any."""
        step = _for_orders(view)
        return step.purse(view, self._board(view.get("options", {})), canonical) if step.purse else None

    @staticmethod
    def _plans_reserve(view: JSON, canonical: Any) -> int:
        """What a family's battle plan of the mail may spend as a battle begins (England 11.1:
        crossbowmen hired, R159), after every purchase."""
        return plan_spending(view, (canonical or {}).get("policies") or {})

    def _hand_left(self, view: JSON, canonical: Any) -> list[str | None] | None:
        """The cards a family's accepted orders leave in its hand, if its phase takes any."""
        step = _for_orders(view)
        return step.hand(view, canonical) if step.hand else None

    def _check_one(self, view: JSON, player: str, document: Any, problems: Problems) -> tuple[Any, tuple[str, ...]]:
        check = self._check_one_document(view, player, document)
        for error in check.errors:
            problems.add(error.line, error.message, error.hint)
        return check.orders, check.notes

    def _check_one_document(self, view: JSON, player: str, document: Any) -> OrderCheck:
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
        if fam.families_apart(view):   # 13.7: each family ordering now, its default
            return {"families": {f: self.default_orders(fam.family_view(view, f), f) for f in view["ordering"]}}
        return {**_for_orders(view).default(), "policies": {}}   # standing policies stay

    def echo_orders(self, view: JSON, player: str, orders: JSON) -> str:
        """pbem.rules.api.EchoesOrders: the canonical orders in the order language (echo/orders.py)."""
        if fam.families_apart(view):   # 13.7: `families:`, an item per family
            return "families:\n" + "".join(
                fam.indented(echo_orders(fam.family_view(view, f), f, own), f)
                for f, own in ((orders or {}).get("families") or {}).items())
        return echo_orders(view, player, orders)

    def random_orders(self, view: JSON, player: str, rng: Rng) -> str:
        """pbem.rules.api.WritesRandomOrders: a random mail body from ``view`` (random_orders/)."""
        return random_orders(view, player, rng)

    def computer_orders(self, view: JSON, player: str, rng: Rng) -> str:
        """pbem.rules.api.PlaysAsComputer: the computer player's mail from ``view`` (computer/),
        each order kept only if this player's own check accepts it."""
        return computer_orders(self.check_orders, view, player, rng)

    def order_template(self, view: JSON, player: str) -> str:
        if fam.families_apart(view):   # 13.7: `families:`, an item per family ordering now
            return (f"# You run two families (13.7): {', '.join(view['my_families'])}. Each family that orders in\n"
                    "# this phase has its own item below, with its own `orders:` and `policies:`.\n"
                    "families:\n" + "".join(fam.indented(self.order_template(fam.family_view(view, f), f), f)
                                            for f in view["ordering"]))
        return _for_orders(view).template(view, self._board(view.get("options", {})), player)

    def report_template(self) -> str:
        return "fief/position.txt.j2"


def _for_orders(view: JSON) -> Step:
    return step_of(view["phase"], view["game"]) or AFTER_THE_GAME


def _store_policies(state: FiefState, orders: Mapping[str, Any]) -> None:
    """Policies given in any phase's mail are kept until changed (DESIGN.md)."""
    given = {p: (o or {}).get("policies") for p, o in orders.items() if p in state.families}
    if not any(given.values()):
        return
    for player, policies in given.items():
        if policies:
            state.families[player].policies = merge_policies(state.families[player].policies, policies)
