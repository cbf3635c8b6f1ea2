"""A tiny game for testing the judge without any real game's rules.

Each round every player bids a number from 1 to 6 (secret until the round resolves); each bid
gets a d6 added; the highest total scores a point (ties: nobody). Every player also holds a
secret "hand" word dealt at setup that only they may see. After each bid phase comes an
automatic "tally" phase with no deciders, to exercise chains of resolutions. First to
``target`` points wins.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

from pbem.orders.yamlsafe import YMap
from pbem.rules.api import (ActsAtOnce, Audience, Event, GameResult, GameRules, OptionSpec, OrderCheck, OrderError,
                            Phase, Resolution, Said)
from pbem.rules.rng import Rng

WORDS = ["amber", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath"]


class TinyGame:
    type_name = "tiny"
    title = "Tiny Bidding"
    min_players = 2
    max_players = 4

    def options(self) -> Sequence[OptionSpec]:
        return [OptionSpec("target", "points needed to win", 2, kind="int")]

    def setup(self, options: Mapping[str, Any], players: Sequence[str], rng: Rng) -> Any:
        words = list(WORDS)
        rng.shuffle(words, "deal")
        return {"players": list(players), "round": 1, "step": "bid", "target": int(options.get("target", 2)),
                "scores": {p: 0 for p in players}, "hands": {p: words[i] for i, p in enumerate(players)}}

    def phase(self, state: Any) -> Phase:
        if state["step"] == "bid":
            return Phase(f"round-{state['round']}/bid", "Bidding", tuple(state["players"]),
                         "bid a number from 1 to 6")
        return Phase(f"round-{state['round']}/tally", "Tally", ())

    def view(self, state: Any, player: str | None) -> Any:
        view = {"me": player, "round": state["round"], "step": state["step"], "scores": dict(state["scores"])}
        if player is None:
            view["hands"] = dict(state["hands"])
        else:
            view["hand"] = state["hands"][player]
        return view

    def check_orders(self, view: Any, player: str, document: Any) -> OrderCheck:
        unknown = [k for k in document if k != "bid"] if isinstance(document, YMap) else []
        if unknown:
            return OrderCheck(None, (OrderError(document.line_of(unknown[0]), f"unknown order `{unknown[0]}`",
                                                "the only order is `bid: N`"),))
        bid = document.get("bid") if isinstance(document, YMap) else None
        if bid is None:
            return OrderCheck(None, (OrderError(getattr(document, "line", None), "`bid:` is missing", "add `bid: 3`"),))
        if not (isinstance(bid, str) and bid.isdigit() and 1 <= int(bid) <= 6):
            return OrderCheck(None, (OrderError(document.line_of("bid"), f"a bid is a number from 1 to 6, not {bid!r}",
                                                "write e.g. `bid: 4`"),))
        return OrderCheck({"bid": int(bid)})

    # -- at once (pbem.rules.api.ActsAtOnce): `shout: TEXT`, told to everyone at once --------
    at_once_keys = ("shout",)

    def check_at_once(self, view: Any, player: str, document: Any) -> OrderCheck:
        text = document.get("shout")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            return OrderCheck(None, (OrderError(document.line_of("shout"), "a shout is 1 to 200 characters",
                                                'write e.g. `shout: "Hello!"`'),))
        return OrderCheck({"shout": text})

    def act(self, state: Any, player: str, action: Any, rng: Rng) -> Resolution:
        state = copy.deepcopy(state)
        state["shouts"] = state.get("shouts", 0) + 1
        echo = rng.d6("echo")
        # What the player wrote travels as `said`, quoted in every mail, never in the sentence.
        return Resolution(state, (Event("shout", f"{player} shouts (echo {echo}):",
                                        said=Said(player, action["shout"])),))

    def at_once_template(self, view: Any, player: str) -> str:
        return '# shout: "..."   # told to everyone at once\n'

    def default_orders(self, view: Any, player: str) -> Any:
        return {"bid": 1}

    def resolve(self, state: Any, orders: Mapping[str, Any], rng: Rng) -> Resolution:
        state = copy.deepcopy(state)
        events = []
        if state["step"] == "bid":
            totals = {}
            for player in state["players"]:
                roll = rng.d6(f"{player}'s die")
                totals[player] = orders[player]["bid"] + roll
                events.append(Event("bid", f"{player} bid {orders[player]['bid']} and rolled {roll}."))
            events.append(Event("hand", f"Your hand is still {state['hands'][state['players'][0]]}.",
                                Audience.only(state["players"][0])))
            best = max(totals.values())
            leaders = [p for p, t in totals.items() if t == best]
            state["last_leader"] = leaders[0] if len(leaders) == 1 else None
            state["last_bids"] = {p: orders[p]["bid"] for p in state["players"]}  # revealed now
            state["step"] = "tally"
        else:
            leader = state.pop("last_leader", None)
            if leader:
                state["scores"][leader] += 1
                events.append(Event("point", f"{leader} scores a point."))
            else:
                events.append(Event("point", "A tie: nobody scores."))
            state["round"] += 1
            state["step"] = "bid"
        return Resolution(state, tuple(events))

    def order_template(self, view: Any, player: str) -> str:
        return "bid: 1          # a number from 1 to 6\n"

    def report_template(self) -> str:
        return "generic_position.txt.j2"

    def result(self, state: Any) -> GameResult | None:
        winners = [p for p, s in state["scores"].items() if s >= state["target"]]
        if winners:
            return GameResult(tuple(winners), f"{winners[0]} reached {state['target']} points.")
        return None

    def board(self) -> Any:
        return {}


RULES = TinyGame()

# The rules contract, checked by mypy in .ci/run (pyproject.toml, [tool.mypy]): the tiny game
# stands in for a game in the judge's tests, so it must keep to it like a real one.
_GAME_RULES: GameRules = RULES
_ACTS_AT_ONCE: ActsAtOnce = RULES
