"""Fief: France's own orders of the Hear Ye mails, the edition's ``hear_ye_orders`` hook: the
pope's excommunications (1.1, D.2.3.1) and answer to annulments (D.2.3), a spouse's request for
an annulment, and the new pope's excommunication asked in advance (1.4). The pope's acts are
resolved by France's elections (elections.py ``pope_acts``, ``new_pope_acts``); the annulments
here, right after them.

First mail, ``round-N/hear-ye`` (before the core's `marry:` and `candidate:`):

    orders:
      - excommunicate: Gauvain     # the pope's family only (1.1, D.2.3.1); one marker in play
      - lift: Arthur               # the pope's family only: lift that excommunication
      - annulments: grant          # the pope's family only: grant the requests of this phase (default refuse)
      - annul: Aliénor             # a spouse of yours asks the pope for an annulment (D.2.3)

Second mail, ``round-N/hear-ye-votes`` (after the core's `vote:`):

    orders:
      - excommunicate: Gauvain     # 1.4: if your candidate is elected pope, he excommunicates
        if_pope: François          #      at once (before the king's ballot)
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hear_ye.elections import pope_lord
from pbem.games.fief.hear_ye.orders import lord_named, own_lord
from pbem.games.fief.hooks import HearYeOrders
from pbem.games.fief.state import FiefState
from pbem.orders.reading import Problems, check_keys, fold
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event

POPE_VERBS = ("excommunicate", "lift", "annulments")


def _is_pope(view: dict, player: str) -> bool:
    return any(v["pope"] and v["family"] == player for v in view["lords"].values())


def check_first(view: dict, board: Board, player: str, verb: str, item: Any, out: dict[str, Any],
                problems: Problems) -> None:
    at = line_of(item, verb)
    if verb in POPE_VERBS and not _is_pope(view, player):
        problems.add(at, f"only the pope's family may order `{verb}` (D.2.3)", "remove this order")
        return
    if verb == "annulments":
        answer = fold(str(item[verb]))
        if answer not in ("grant", "refuse"):
            problems.add(at, f"`annulments:` is `grant` or `refuse`, not {item[verb]!r}")
        else:
            out["annulments"] = answer
        return
    if verb == "annul":
        name = own_lord(view, player, item[verb], at, problems)
        if name is None:
            return
        if not view["lords"][name]["spouse"]:
            problems.add(at, f"{name} is not married")
        else:
            out["annul"] = name
        return
    name = lord_named(view, item[verb], at, problems)
    if name is None:
        return
    lord = view["lords"][name]
    if verb == "excommunicate":
        if lord["pope"] or lord["excommunicated"]:
            problems.add(at, f"{name} cannot be excommunicated: "
                         + ("the pope himself" if lord["pope"] else "already excommunicated"))
        elif "excommunicate" in out["pope"]:
            problems.add(at, "the pope excommunicates 1 lord at most (1.1)")
        elif any(l["excommunicated"] for n, l in view["lords"].items() if n != out["pope"].get("lift")):
            problems.add(at, "the excommunicated marker is in play (1.1: only 1)",
                         "lift that excommunication in the same mail (`- lift: NAME`) first")
        else:
            out["pope"]["excommunicate"] = name
    elif not lord["excommunicated"]:   # lift
        problems.add(at, f"{name} is not excommunicated")
    else:
        out["pope"]["lift"] = name


def check_new_pope(view: dict, player: str, verb: str, item: Any, out: dict[str, Any], problems: Problems) -> None:
    """1.4 "Election results": the new pope may excommunicate a lord at once; asked in advance,
    `if_pope:` naming your candidate (done only if he is elected and the marker is free)."""
    check_keys(item, ("excommunicate", "if_pope"), "an `excommunicate` order", problems)
    at = line_of(item, "excommunicate")
    candidates: list[str] = next((b["candidates"] for b in view["hear_ye"]["ballots"] if b["id"] == "pope"), [])
    mine = [c for c in candidates if view["lords"][c]["family"] == player]
    names = {fold(c): c for c in mine}
    pope = names.get(fold(str(item.get("if_pope") or "")))
    if pope is None:
        problems.add(line_of(item, "if_pope") or at, "`excommunicate:` in this mail needs `if_pope:` naming "
                     "your candidate for pope (1.4: the new pope may excommunicate at once)",
                     ("your candidate: " + ", ".join(mine)) if mine else "you have no candidate for pope")
        return
    target = {fold(n): n for n in view["lords"]}.get(fold(str(item["excommunicate"])))
    if target is None or target == pope:
        problems.add(at, f"{item['excommunicate']!r} cannot be excommunicated by {pope}",
                     "name another lord in play")
    elif out["new_pope_excommunicates"]:
        problems.add(at, "the new pope excommunicates 1 lord at most")
    else:
        out["new_pope_excommunicates"] = {"pope": pope, "lord": target}


def echo_first(orders: Mapping[str, Any]) -> list[dict[str, Any]]:
    # check_first: the pope lifts before he excommunicates (1 marker, 1.1)
    pope = orders.get("pope") or {}
    items: list[dict[str, Any]] = [{verb: pope[verb]} for verb in ("lift", "excommunicate") if pope.get(verb)]
    if orders.get("annulments") == "grant":   # refuse is what the pope leaves out (D.2.3)
        items.append({"annulments": "grant"})
    if orders.get("annul"):
        items.append({"annul": orders["annul"]})
    return items


def echo_votes(orders: Mapping[str, Any]) -> list[dict[str, Any]]:
    asked = orders.get("new_pope_excommunicates")   # 1.4, asked in advance
    return [{"excommunicate": asked["lord"], "if_pope": asked["pope"]}] if asked else []


def template_first(view: dict[str, Any], player: str) -> tuple[str, list[str], list[str]]:
    if not _is_pope(view, player):
        before: list[str] = []
        default = ""
    else:
        default = "; as pope: no excommunication, keep the current one, refuse annulments"
        before = ["#  - excommunicate: NAME        # 1 lord; lift the current one first (1 marker)",
                  "#  - lift: NAME                 # lift an excommunication (D.2.3.1)",
                  "#  - annulments: refuse         # or grant: the annulments asked this phase (D.2.3)"]
    return default, before, ["#  - annul: YOUR_MARRIED_LORD    # ask the pope for an annulment (D.2.3)"]


def template_votes(view: dict[str, Any], player: str) -> list[str]:
    mine = [c for b in view["hear_ye"]["ballots"] if b["id"] == "pope" for c in b["candidates"]
            if view["lords"][c]["family"] == player]
    if not mine:   # 1.4: the new pope may excommunicate at once
        return []
    return [f"#  - excommunicate: NAME         # done only if {mine[0]} is elected pope", f"#    if_pope: {mine[0]}"]


def annulments(state: FiefState, orders: Mapping[str, Any]) -> list[Event]:
    """D.2.3: a spouse asks; the pope grants or refuses (default: refuses), never when a crown
    prince of the couple came into play."""
    pope = pope_lord(state)
    grant = pope is not None and (orders.get(pope.family) or {}).get("annulments") == "grant"
    events = []
    for player in state.turn_order():
        name = (orders.get(player) or {}).get("annul")
        lord = state.lords.get(name or "")
        if lord is None or lord.family != player or not lord.spouse or lord.spouse not in state.lords:
            continue
        couple = sorted([lord.name, lord.spouse])
        if pope is None or not grant or couple in state.crown_prince_couples:
            why = ("there is no pope" if pope is None else
                   "a crown prince of this couple came into play" if couple in state.crown_prince_couples
                   else f"pope {pope.name} refuses")
            events.append(Event("annulment_refused", f"{lord.name} asks for the annulment of the marriage "
                                f"with {lord.spouse}: {why} (D.2.3).", data={"couple": couple}))
            continue
        spouse = state.lords[lord.spouse]
        lord.spouse = spouse.spouse = None
        unmarried = edition_of(state).hooks.unmarried   # D.3.2: the queen is the king's spouse
        for one in (lord, spouse):
            events += unmarried(state, one) if unmarried else []
        events.append(Event("annulment", f"Pope {pope.name} annuls the marriage of {couple[0]} and "
                            f"{couple[1]}; each family takes back its marriage pawn (1.1.3).",
                            data={"couple": couple}))
    return events


HEAR_YE_ORDERS = HearYeOrders(
    first_verbs={"excommunicate": ("excommunicate",), "lift": ("lift",), "annulments": ("annulments",),
                 "annul": ("annul",)},
    # the pope neither excommunicates nor lifts, and refuses annulments; no request
    first_defaults=lambda: {"pope": {}, "annulments": "refuse", "annul": None},
    check_first=check_first, vote_verbs=("excommunicate",), vote_defaults=lambda: {"new_pope_excommunicates": None},
    check_vote=check_new_pope, echo_first=echo_first, echo_votes=echo_votes, heading="the pope's acts",
    template_first=template_first, template_votes=template_votes)
