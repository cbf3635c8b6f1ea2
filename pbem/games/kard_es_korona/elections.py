"""IV. Election of Officials, by mail: three short sealed-bid phases, one an office, in the
rulebook's order (Judge Royal, Lord High Treasurer, Palatine). Ruling K6: each bid is revealed
before the next office is bid for, as at the table, so a bidder knows what the rulebook lets him
know; one mail of conditional bids could not say "if I lose the first office by more than ...".

    bid: 7               # garas for this office (0: no bid)
    if_tied: [Kata, Bela] # the Palatine only: whom he makes the winner of a tie (IV. Palatine)
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.state import OFFICE_NAMES, OFFICES, State, free_players
from pbem.games.kard_es_korona.victory import office_victory
from pbem.orders.reading import Problems, as_seq, check_keys, whole_number
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event, OrderCheck
from pbem.rules.rng import Rng


def bidders(state: State) -> list[str]:
    """IV; II: no vassal and no captive lord's player bids."""
    return [p for p in free_players(state) if p not in state["captive"]]


def deciders(state: State) -> list[str]:
    palatine = state["offices"]["palatine"]
    who = bidders(state)
    return who + ([palatine] if palatine and palatine not in who else [])


def check(view: dict[str, Any], player: str, document: Any) -> OrderCheck:
    problems = Problems()
    doc = document if isinstance(document, dict) else {}
    check_keys(doc, ("bid", "if_tied"), "the election orders", problems)
    bid = 0
    if "bid" in doc:
        if player not in view["bidders"]:
            problems.add(line_of(doc, "bid"), "you may not bid (a vassal or a captive lord's player: IV)")
        bid = whole_number(doc["bid"], line_of(doc, "bid"), "bid", problems, low=0) or 0
        if bid > view["treasury"][player]:
            problems.add(line_of(doc, "bid"), f"you bid {bid} garas but have {view['treasury'][player]}",
                         "bid at most what your treasury holds")
    prefer: list[str] = []
    if "if_tied" in doc:
        palatine = view["offices"]["palatine"]
        if palatine != player:
            problems.add(line_of(doc, "if_tied"), "only the Palatine decides ties (IV. Palatine)",
                         f"leave out `if_tied:` ({palatine} is the Palatine)" if palatine
                         else "leave out `if_tied:` (there is no Palatine yet)")
        for name in as_seq(doc["if_tied"], line_of(doc, "if_tied"), "if_tied", problems):
            if str(name) not in view["players"]:
                bidders = ", ".join(view["bidders"])
                problems.add(line_of(doc, "if_tied"), f"no player {name!r}",
                             f"name the bidders in the order you prefer them, e.g. `if_tied: [{bidders}]`")
            else:
                prefer.append(str(name))
    if problems:
        return OrderCheck(None, tuple(problems))
    return OrderCheck({"bid": bid, "if_tied": prefer})


def resolve(state: State, office: str, orders: dict[str, Any], rng: Rng) -> list[Event]:
    bids = {p: orders.get(p, {"bid": 0})["bid"] for p in bidders(state)}
    name = OFFICE_NAMES[office]
    events = [Event("bids", f"Bids for {name}: " + (", ".join(f"{p} {b}" for p, b in bids.items()) or "none") + ".",
                    data={"office": office, "bids": bids})]
    best = max(bids.values(), default=0)
    won = state.setdefault("won_now", [])
    if best == 0:   # IV: no bid: the office stays with its holder, or is not filled
        holder = state["offices"][office]
        events.append(Event("office", f"No one bids for {name}: " + (f"{holder} keeps it." if holder
                                                                     else "it is not filled.")))
    else:
        top = [p for p, b in bids.items() if b == best]
        winner, how = _winner(state, office, top, orders, rng)
        for player, bid in bids.items():   # IV: the others lose their bids; a tie's loser gets half back
            refund = bid // 2 if player in top and player != winner else 0
            state["treasury"][player] -= bid - refund
            if refund:
                events.append(Event("refund", f"{player} lost the tie and gets back {refund} garas."))
        state["offices"][office] = winner
        won.append(winner)
        events.append(Event("office", f"{winner} becomes {name} for {best} garas{how}.",
                            data={"office": office, "player": winner, "bid": best}))
    if office == OFFICES[-1]:   # the election is over
        state["elections"] += 1
        state["election_due"] = False
        if len(won) == len(OFFICES) and len(set(won)) == 1:   # V.II (ruling K7)
            events.extend(office_victory(state, won[0]))
        state["won_now"] = []
    return events


def _winner(state: State, office: str, top: list[str], orders: dict[str, Any], rng: Rng) -> tuple[str, str]:
    if len(top) == 1:
        return top[0], ""
    holder = state["offices"][office]
    if holder in top:   # IV: the holder keeps his rank at a tie
        return holder, " (a tie: the holder keeps the office)"
    palatine = state["offices"]["palatine"]
    if state["elections"] >= 1 and palatine:   # IV: from the second election the Palatine decides
        prefer = orders.get(palatine, {}).get("if_tied", [])
        choice = next((p for p in prefer if p in top), None)
        if choice is None:   # ruling K6: a Palatine who named none of them prefers himself, else a die
            choice = palatine if palatine in top else None
        if choice is not None:
            return choice, f" (a tie: the Palatine {palatine} chooses)"
    return rng.choice(top, f"tie for {office}"), " (a tie: the die decides)"


def template(view: dict[str, Any], player: str) -> str:
    office = view["office"]
    lines = [f"# Election of {OFFICE_NAMES[office]}: a sealed bid, revealed with everyone's (IV).",
             f"# Your treasury: {view['treasury'][player]} garas. The others lose what they bid; a tie's loser",
             "# gets half back."]
    if player in view["bidders"]:
        lines.append("bid: 0")
    if view["offices"]["palatine"] == player:
        lines.append(f"if_tied: [{', '.join(view['bidders'])}]   # as Palatine: whom you make the winner of a tie")
    return "\n".join(lines) + "\n"


def echo(orders: dict[str, Any]) -> str:
    out = [f"bid: {orders['bid']}"]
    if orders["if_tied"]:
        out.append(f"if_tied: [{', '.join(orders['if_tied'])}]")
    return "\n".join(out)
