"""I: players may hand each other garas (as a price or pledge of an agreement) at any time, but
never during an election (IV). By mail (ruling K27) this is done at once
(pbem.rules.api.ActsAtOnce), in any mail and any phase but an election's:

    give: {Bela: 5}      # garas from your treasury to Bela's, now

An eliminated player neither gives nor receives; what a treasury cannot pay is refused.
"""
from __future__ import annotations

from typing import Any

from pbem.orders.reading import Problems, suggest, whole_number
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event, OrderCheck

KEY = "give"


def check(view: dict[str, Any], player: str, document: Any) -> OrderCheck:
    problems = Problems()
    raw = document.get(KEY) if isinstance(document, dict) else None
    line = line_of(document, KEY) if isinstance(document, dict) else None
    gifts: dict[str, int] = {}
    if view.get("office"):
        problems.add(line, "no money changes hands during an election (IV)", "give after the election")
    elif player in view["eliminated"]:
        problems.add(line, "you are out of the game")
    elif not isinstance(raw, dict) or not raw:
        problems.add(line, "`give:` lists players, each with the garas you give", f"e.g. `{example(view, player)}`")
    else:
        others = [p for p in view["players"] if p != player and p not in view["eliminated"]]
        for name, amount in raw.items():
            where = line_of(raw, name) or line
            if str(name) not in others:
                problems.add(where, f"you cannot give to {name!r}", suggest(str(name), others))
                continue
            n = whole_number(amount, where, "garas", problems)
            if n is not None:
                gifts[str(name)] = n
        if sum(gifts.values()) > view["treasury"][player]:
            problems.add(line, f"you give {sum(gifts.values())} garas but have {view['treasury'][player]}",
                         "give at most what your treasury holds")
    if problems:
        return OrderCheck(None, tuple(problems))
    return OrderCheck({KEY: gifts})


def act(state: dict[str, Any], player: str, action: dict[str, Any]) -> list[Event]:
    """Hand the garas over now, as far as the treasury still holds them (checked again: the
    position may have moved since the mail was checked)."""
    events = []
    for name, amount in action[KEY].items():
        if state["step"].startswith("election-") or name in state["eliminated"] or player in state["eliminated"]:
            events.append(Event("gift", f"{player} cannot give garas now.", data={"player": player}))
            break
        if amount > state["treasury"][player]:
            events.append(Event("gift", f"{player} has not the {amount} garas to give {name}.",
                                data={"player": player}))
            continue
        state["treasury"][player] -= amount
        state["treasury"][name] += amount
        events.append(Event("gift", f"{player} gives {name} {amount} garas (I).",
                            data={"player": player, "to": name, "amount": amount}))
    return events


def example(view: dict[str, Any], player: str) -> str:
    """A gift as the player writes it, to another player of his game."""
    others = [p for p in view["players"] if p != player and p not in view["eliminated"]]
    return f"give: {{{others[0] if others else player}: 5}}"


def template(view: dict[str, Any], player: str) -> str:
    return f"# {example(view, player)}   # garas to another player, done at once (I); not during an election (IV)\n"
