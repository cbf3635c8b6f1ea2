"""Kard és Korona's rules object: the phase table of a year (III. Order of a Round) and the
view. Each phase's orders and resolution live in their own module; this one only routes.

    setup/placement            every player places his starting army (III)
    YEAR/event                 no orders: the year begins, the event card, tax income (III 1-2)
    YEAR/recruitment           every player recruits (III 2; not in the first year)
    YEAR/movement              every player's list of steps, interleaved (III 3); by the
                               traditional method (VI) each player's steps and then his battles
    YEAR/battles               no orders: the battles due, in the rulebook's order (III 4)
    YEAR/election-OFFICE       three sealed bids in an election year (III 5; IV)
"""
from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

from pbem.games.kard_es_korona import (battles, economy, elections, events, gifts, map_view, movement,
                                       movement_orders, placement, setup, traditional, victory, warlords)
from pbem.games.kard_es_korona import demo_players as demo
from pbem.games.kard_es_korona import random_orders as random_players
from pbem.games.kard_es_korona.computer import computer_orders as computer_player
from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.state import (OFFICE_NAMES, OFFICES, State, active_players, election_year, neutral_names,
                                             steps_allowed)
from pbem.rules.api import Event, GameResult, OptionSpec, OrderCheck, Phase, Resolution
from pbem.rules.rng import Rng

TITLES = {"placement": ("Placing the Starting Armies", "place your starting army and your province lord"),
          "event": ("The Year Begins", "the event card and tax income"),
          "recruitment": ("Tax Income and Recruitment", "recruit units in your castles"),
          "movement": ("Movement", "your whole list of steps; the judge plays them one a player in turn"),
          "battles": ("Battles and Sieges", "the battles due are fought"),
          "election": ("Election of Officials", "a sealed bid for the office")}
PUBLIC = ("version", "year", "last_year", "step", "starting", "players", "home", "armies", "owner", "closed",
          "lords", "captive", "vassal_of", "eliminated", "offices", "elections", "event", "lasting", "battles",
          "first_pass", "election_due", "result")


class KardEsKoronaRules:
    type_name = "kard_es_korona"
    title = "Kard és Korona"
    min_players = 2
    max_players = 6
    rules_version = 2

    def options(self) -> Sequence[OptionSpec]:
        return setup.options()

    def setup(self, options: Mapping[str, Any], players: Sequence[str], rng: Rng) -> Any:
        state = setup.new_state(options, players, rng)
        state["deck"] = events.new_deck(rng)
        return state

    # -- the phase table --------------------------------------------------------------------
    def phase(self, state: Any) -> Phase:
        step = state["step"]
        if step == "placement":
            title, summary = TITLES["placement"]
            return Phase("setup/placement", title, tuple(state["players"]), summary)
        if step.startswith("election-"):
            office = step.removeprefix("election-")
            title, summary = TITLES["election"]
            return Phase(f"{state['year']}/{step}", f"{title}: {OFFICE_NAMES[office]}",
                         tuple(elections.deciders(state)), summary, share=1 / len(OFFICES))   # ruling K6
        title, summary = TITLES.get(step, (step, ""))
        deciders = () if step in ("event", "battles", "over") else tuple(active_players(state))
        return Phase(f"{state['year']}/{step}", title, deciders, summary)

    def resolve(self, state: Any, orders: Mapping[str, Any], rng: Rng) -> Resolution:
        state = copy.deepcopy(state)
        step = state["step"]
        out: list[Event] = []
        gone = [p for p, o in orders.items() if isinstance(o, Mapping) and o.get("left")]
        if gone and step != "placement" and state["rules_version"] >= 2:   # II (l.120), ruling K32
            out += warlords.players_leave(state, gone) + victory.check(state)
            orders = {p: o for p, o in orders.items() if p not in gone}
            if state["result"] is not None:
                return Resolution(state, tuple(out))
        if step == "placement":
            out += setup.place_starting_armies(state, orders)
            state["step"] = "event"
        elif step == "event":
            out += self._year_begins(state, rng)
        elif step == "recruitment":
            out += economy.resolve(state, dict(orders))
            state["step"] = "movement"
        elif step == "movement" and traditional.enabled(state):   # VI: each player moves and fights in turn
            out += traditional.resolve(state, dict(orders), rng)
            if state["result"] is None:
                state["step"] = "battles-done"
        elif step == "movement":
            out += movement.resolve(state, dict(orders))
            if state["result"] is None:
                state["step"] = "battles" if state["battles"] else "battles-done"
        elif step == "battles":
            out += battles.resolve(state, rng)
            state["step"] = "battles-done"
        elif step.startswith("election-"):
            office = step.removeprefix("election-")
            out += elections.resolve(state, office, dict(orders), rng)
            if state["result"] is None:
                nxt = OFFICES.index(office) + 1
                state["step"] = f"election-{OFFICES[nxt]}" if nxt < len(OFFICES) else "year-done"
        if state["step"] == "battles-done":
            out += victory.check(state)
            if state["result"] is None:
                due = election_year(state) or state["election_due"]
                state["step"] = f"election-{OFFICES[0]}" if due and elections.bidders(state) else "year-done"
        if state["step"] == "year-done":
            out += self._year_ends(state, rng)
        return Resolution(state, tuple(out))

    def _year_begins(self, state: State, rng: Rng) -> list[Event]:
        out = warlords.ransom_deadlines(state)
        out += events.turn_card(state, rng)
        if state["year"] > setup.FIRST_YEAR:   # III 2: no income in the first year
            out += economy.collect_income(state)
            state["step"] = "recruitment"
        else:
            state["step"] = "movement"
        return out + victory.check(state)

    def _year_ends(self, state: State, rng: Rng) -> list[Event]:
        out = victory.check(state)
        if state["result"] is not None:
            return out
        if state["year"] >= state["last_year"]:
            return out + victory.last_year(state)
        state["year"] += 1
        if traditional.enabled(state):   # VI. Traditional Movement Method: drawn by dice every year
            state["starting"], drawn = traditional.draw_starting_player(state, rng)
            out += drawn
        else:
            state["starting"] = state["first_pass"] or state["starting"]   # III: the first to pass starts
        state["event"] = None
        state["step"] = "event"
        return out + [Event("year", f"The year {state['year']} begins; {state['starting']} starts.")]

    # -- views and orders -------------------------------------------------------------------
    def view(self, state: Any, player: str | None) -> Any:
        view = {key: copy.deepcopy(state[key]) for key in PUBLIC}
        view["me"] = player
        view["neutral_names"] = neutral_names()   # how the report names royal and neutral units
        view["board"] = load_board(state["version"]).listing()   # the text report's board (II)
        view["cavalry_limit"] = state["options"]["cavalry_limit"]
        view["movement_method"] = state["options"].get(traditional.OPTION, traditional.METHODS[0])
        view["steps_allowed"] = {p: steps_allowed(state, p) for p in state["players"]}
        view["bidders"] = elections.bidders(state)
        view["event_name"] = events.cards()[state["event"]]["name"] if state["event"] else None
        view["office"] = state["step"].removeprefix("election-") if state["step"].startswith("election-") else None
        secret = view["office"] is not None   # ruling K1: treasuries are not public while bids are made
        view["treasury"] = {p: n for p, n in state["treasury"].items() if player is None or not secret or p == player}
        if player is None:
            view["battle_orders"] = copy.deepcopy(state["battle_orders"])
        elif player in state["battle_orders"]:
            view["battle_orders"] = {player: copy.deepcopy(state["battle_orders"][player])}
        return view

    def check_orders(self, view: Any, player: str, document: Any) -> OrderCheck:
        return self._module(view["step"]).check(view, player, document)

    def default_orders(self, view: Any, player: str) -> Any:
        step = view["step"]
        if step == "placement":
            return placement.default(view, player)
        if step == "recruitment":
            return {"recruit": {}, "ransom": False}
        if step == "movement":
            return {"steps": [], "battle": dict(movement_orders.DEFAULT_BATTLE), "veto": []}
        return {"bid": 0, "if_tied": []}

    def left_orders(self, view: Any, player: str) -> Any:
        """A position in civil disorder (pbem.rules.api.LeavesGame): its player has stopped
        playing, and his units become neutral when the phase resolves (II, l.120; ruling K32)."""
        return {**self.default_orders(view, player), "left": True}

    def order_template(self, view: Any, player: str) -> str:
        return self._module(view["step"]).template(view, player)

    def echo_orders(self, view: Any, player: str, orders: Any) -> str:
        return self._module(view["step"]).echo(orders) + "\n"

    def _module(self, step: str) -> Any:
        if step.startswith("election-"):
            return elections
        return {"placement": placement, "recruitment": economy, "movement": movement_orders}[step]

    def map_drawing(self, view: Any) -> Any:
        return map_view.map_drawing(view)

    # -- done at once (pbem.rules.api.ActsAtOnce): gifts of garas (I; gifts.py) ----------------
    at_once_keys = (gifts.KEY,)

    def check_at_once(self, view: Any, player: str, document: Any) -> OrderCheck:
        return gifts.check(view, player, document)

    def act(self, state: Any, player: str, action: Any, rng: Rng) -> Resolution:
        state = copy.deepcopy(state)
        return Resolution(state, tuple(gifts.act(state, player, action)))

    def at_once_template(self, view: Any, player: str) -> str:
        return gifts.template(view, player)

    # -- random legal orders (pbem.rules.api.WritesRandomOrders; random_orders/) -----------------
    def random_orders(self, view: Any, player: str, rng: Rng) -> str:
        return random_players.random_orders(view, player, rng)

    # -- the computer player (pbem.rules.api.PlaysAsComputer; computer/) ----------------------
    def computer_orders(self, view: Any, player: str, rng: Rng) -> str:
        return computer_player(view, player, rng)

    # -- the demo's players (main's optional PlaysDemo part; demo_players.py) ------------------
    demo_players: tuple[str, ...] = demo.DEMO_PLAYERS

    def demo_orders(self, view: Any, player: str) -> str:
        return demo.demo_orders(view, player)

    def demo_done(self, first: Any, state: Any) -> bool:
        return demo.demo_done(first, state)

    def report_template(self) -> str:
        return "kard_es_korona/position.txt.j2"

    def result(self, state: Any) -> GameResult | None:
        if state["result"] is None:
            return None
        return GameResult(tuple(state["result"]["winners"]), state["result"]["text"])

    def board(self) -> Any:
        return {"basic": load_board("basic").to_json(), "advanced": load_board("advanced").to_json()}
