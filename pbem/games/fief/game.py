"""The Fief family's GameRules: setup, the round (round.py: its phases as a table of named steps,
E), order checking, views, templates and actions done at once. An edition
(pbem/games/fief/edition.py: games/<edition>/edition.yaml and the edition's hooks; France's rules
object is pbem/games/fief_france/rules.py) supplies its numbers, its round, its options and the
rules only it has.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

from pbem.games.fief import at_once
from pbem.games.fief.board import Board, board_names, load_board
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.cards.phase import play_deciders
from pbem.games.fief.echo.orders import echo_orders
from pbem.games.fief.edition import Edition, edition_of
from pbem.games.fief.hear_ye.phase import vote_deciders
from pbem.games.fief.map_view import map_drawing
from pbem.orders.reading import Problems, check_keys
from pbem.games.fief.policies import merge_policies
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
                     self._deciders(st, step), step.summary)

    def resolve(self, state: JSON, orders: Mapping[str, JSON], rng: Rng) -> Resolution:
        st = FiefState.from_json(copy.deepcopy(state))   # never touch the caller's state
        board = self._board(st.options)
        step = self._step(st)
        _store_policies(st, orders)
        events = list(step.resolve(st, board, orders, rng))
        if st.phase == step.name:    # the step did not move the game on by itself
            st.phase = edition_of(st).after(PART_OF.get(step.name, step.name), st.round)
        while (nxt := step_of(st.phase, st.variant)) is not None and nxt.skip is not None and nxt.skip(st):
            st.phase = edition_of(st).after(nxt.name, st.round)   # an edition's own step with nothing to do
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

    def public_view(self, state: JSON) -> JSON:   # pbem.rules.api.ShowsPublicView: the view of no player
        st = FiefState.from_json(state)
        return build_view(st, self._board(st.options), NOBODY)

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
        events = at_once.act(st, self._board(st.options), player, action, rng)
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
    return step_of(view["phase"], view["game"]) or AFTER_THE_GAME


def _store_policies(state: FiefState, orders: Mapping[str, Any]) -> None:
    """Policies given in any phase's mail are kept until changed (DESIGN.md)."""
    given = {p: (o or {}).get("policies") for p, o in orders.items() if p in state.families}
    if not any(given.values()):
        return
    for player, policies in given.items():
        if policies:
            state.families[player].policies = merge_policies(state.families[player].policies, policies)
