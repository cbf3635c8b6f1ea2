"""Parliament and the Royal Tax (E 9.2, 9.3; ruling R4), England's own round step after the Hear
Ye phase (1.0 step C: "Convene Parliament to vote on a Royal Tax"; the edition's `phases` hook and
its record's `round:`), one mail of sealed orders:

    orders:
      - convene: yes               # the Sovereign's family only: Parliament sits (9.2)
        share: {ann: 8, bob: 4}    # the 12 shillings of the Royal Tax, if it passes (secret)
      - vote: for                  # your Vote Marker: `for` or `against` (the DECOY), 9.2
        burgher: yes               # optional: your BURGHER card's 3 or 5 votes, for a Treasure (11.2)

- The mail is asked only when a Sovereign (King or Sovereign Queen) is in play, neither captive
  nor besieged (9.2), and no vote was taken this round ("Only one Parliamentary Vote is allowed
  per Round"): of the Sovereign's family and every family with votes. Otherwise the round passes
  the step by (``skip``): no mail, no resolution.
- Votes as 9.1's marker (R4): 1 a non-captive, non-besieged Lord or Bishop, 2 an Archbishop, a
  noble counted once (England's election ``weights``), and a retainer's `votes` in parliament
  (2.12, Spent once counted). A family's BURGHER card (11.2, the family board's card:
  ``hired.burgher_votes``) adds its 3 or 5 when the family's vote says `burgher: yes`: a
  BURGHER action, so a Treasure marker is placed on it (11.3), and only if Parliament sits
  (R121); with no Treasure left then, the votes are not added and the family is told.
- The tax passes with FOR votes over half of all votes; the Sovereign's family then receives 12
  shillings (the record's `prices.royal_tax`) and shares them as its `share:` says, the rest its
  own; each family is told only its own share (9.2 "secretly"). Without `share:` all 12 stay.
- Passed, the PARLIAMENT card turns to its Rebellion side for the round (9.3): every REBELLION
  adds one more (``rebellion_side``; the cards part reads ``edition_state["parliament_rebellion"]``
  and turns it back at the round's end, 8.0).
The markers are revealed with the tally (9.2: placed secretly, then counted before everyone).

State: ``edition_state["parliament"] = {"round": N, "passed": bool}``, the round's vote.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.round import Step, listed_orders
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import retainers
from pbem.games.fief_england.elections import BALLOT, weights
from pbem.games.fief_england.hired import burgher_votes
from pbem.games.fief_england.treasure import spend_treasure
from pbem.games.fief_england.titles import besieged, sovereign
from pbem.orders.reading import Problems, check_keys, each_order, fold, suggest, yes_no
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

KEY = "parliament"
REBELLION_SIDE = "parliament_rebellion"   # the cards part's flag (9.3), turned back at 8.0
VERBS = ("convene", "vote")


def rebellion_side(state: FiefState) -> bool:
    """9.3: the PARLIAMENT card lies on its Rebellion side: the Royal Tax passed this round."""
    vote = state.edition_state.get(KEY) or {}
    return bool(vote.get("passed")) and vote.get("round") == state.round


def free_sovereign(state: FiefState):
    """9.2: "the King or Sovereign Queen, if they are not Captive or besieged"."""
    lord = sovereign(state)
    if lord is None or lord.captive_of or not lord.location or besieged(state, lord):
        return None
    return lord


def _sits(state: FiefState) -> bool:
    """A free Sovereign and no Parliamentary vote yet this round (9.2)."""
    return free_sovereign(state) is not None and (state.edition_state.get(KEY) or {}).get("round") != state.round


def votes_of(state: FiefState, board: Board) -> dict[str, int]:
    """9.2's Vote Marker without the BURGHER: the Lords, Bishops and Archbishops (R4) and the
    retainers' `votes` in parliament (2.12)."""
    return weights(state, board, BALLOT, set(), sitting=KEY)[0]


def deciders(state: FiefState, board: Board, active: list[str]) -> tuple[str, ...]:
    if not _sits(state):
        return ()
    votes = votes_of(state, board)
    king = free_sovereign(state).family
    return tuple(p for p in active if p == king or votes.get(p) or burgher_votes(state, p))


def view(state: FiefState, board: Board) -> dict[str, Any]:
    """Public: whether Parliament may sit, each family's votes (R4) and the votes its BURGHER
    card may add (11.2: the card lies face up on the family board), the card's side (9.3)."""
    votes = votes_of(state, board)
    burghers = {p: n for p in state.players if (n := burgher_votes(state, p))}
    return {"parliament": {"may_sit": _sits(state), "votes": {p: votes.get(p, 0) for p in state.players},
                           **({"burghers": burghers} if burghers else {}),   # only while a card is played
                           "rebellion_side": rebellion_side(state)}}


# -- the mail --------------------------------------------------------------------------------------

def check(view: dict, board: Board, player: str, items: list, problems: Problems) -> tuple[dict, tuple[str, ...]]:
    out: dict[str, Any] = {"convene": False, "share": {}, "vote": "against"}
    sov = next((n for n, l in view["lords"].items() if l["political"] in ("king", "sovereign_queen")), None)
    seen: set[str] = set()
    for item, verb, line in each_order(items, VERBS, problems):
        if verb in seen:
            problems.add(line, f"a second `{verb}:` order", "give one")
            continue
        seen.add(verb)
        if verb == "vote":
            check_keys(item, ("vote", "burgher"), "a vote order", problems)
            answer = fold(str(item["vote"]))
            if answer in ("for", "against", "decoy"):
                out["vote"] = "for" if answer == "for" else "against"
            else:
                problems.add(line, f"`vote:` is `for` or `against`, not {item['vote']!r}", "write `vote: for`")
            if yes_no(item, "burgher", problems):
                why = _burgher_problem(view, player)
                if why:
                    problems.add(line_of(item, "burgher") or line, why, "remove `burgher: yes`")
                else:
                    out["burgher"] = True
            continue
        check_keys(item, ("convene", "share"), "a convene order", problems)
        if sov is None or view["lords"][sov]["family"] != player:
            problems.add(line, "only the King's or Sovereign Queen's family convenes Parliament (9.2)",
                         "remove this order")
            continue
        if fold(str(item["convene"])) not in ("yes", "parliament", "true"):
            problems.add(line, f"`convene:` is `yes`, not {item['convene']!r}", "write `convene: yes`")
            continue
        out["convene"] = True
        out["share"] = _share(view, player, item, line, problems)
    notes = () if out["convene"] or "vote" in seen else ("you vote against the Royal Tax if Parliament sits",)
    return out, notes


def _burgher_problem(view: dict, player: str) -> str | None:
    """11.2, 11.3: a BURGHER card on the family board and a Treasure marker left, as the view shows."""
    if not (view.get("parliament") or {}).get("burghers", {}).get(player):
        return "you have no BURGHER card on your family board (11.2)"
    treasures = int(load_edition(view["game"]).extra["supply.treasures"])
    if len((view.get("treasures_used") or {}).get(player, [])) >= treasures:
        return "both of your Treasure markers already lie on played cards this round (11.3)"
    return None


def _share(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict[str, int]:
    given = item.get("share") or {}
    tax = load_edition(view["game"]).extra["prices.royal_tax"]
    if not isinstance(given, dict):
        problems.add(line_of(item, "share") or line, "`share:` maps players to shillings",
                     f"e.g. `share: {{{player}: {tax}}}`")
        return {}
    out: dict[str, int] = {}
    for who, amount in given.items():
        if who not in view["turn_order"]:
            problems.add(line_of(item, "share") or line, f"`{who}` is not a player of this game",
                         suggest(str(who), list(view["turn_order"])))
            continue
        if not (isinstance(amount, int) and not isinstance(amount, bool) and amount >= 0) \
                and not (isinstance(amount, str) and amount.isdigit()):
            problems.add(line_of(item, "share") or line, f"the share of {who} must be a whole number of shillings",
                         f"e.g. `{who}: 4`")
            continue
        out[who] = int(amount)
    if sum(out.values()) > tax:
        problems.add(line_of(item, "share") or line, f"the shares add up to {sum(out.values())}, more than the "
                     f"{tax} shillings of the Royal Tax (9.2)", "share at most 12; the rest stays yours")
    return out


def template(view: dict, board: Board, player: str) -> str:
    mine = any(l["political"] in ("king", "sovereign_queen") and l["family"] == player for l in view["lords"].values())
    votes = (view.get("parliament") or {}).get("votes", {}).get(player, 0)
    burghers = (view.get("parliament") or {}).get("burghers", {}).get(player)
    lines = ["# Parliament (9.2): sealed; the markers are revealed with the tally.", "orders:"]
    if mine:
        lines += ["  # - convene: yes              # Parliament sits and votes a 12-shilling Royal Tax",
                  f"  #   share: {{{player}: 12}}       # if it passes: who receives what (secret)"]
    lines += [f"  - vote: against                # or `for`: your {votes} vote(s) (R4)"]
    if burghers:
        lines += [f"  #   burgher: yes              # your BURGHER adds {burghers} votes, for a Treasure (11.2)"]
    return "\n".join(lines) + "\n"


def echo(view: dict, orders: dict) -> list:
    items: list[dict[str, Any]] = []
    if orders.get("convene"):
        items.append({"convene": "yes", **({"share": dict(orders["share"])} if orders.get("share") else {})})
    items.append({"vote": orders.get("vote", "against"), **({"burgher": "yes"} if orders.get("burgher") else {})})
    return items


# -- the sitting -----------------------------------------------------------------------------------

def resolve(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    king = free_sovereign(state)
    if not _sits(state) or king is None:
        return []
    if not (orders.get(king.family) or {}).get("convene"):
        return [Event("parliament_not_convened", f"{king.name} does not convene Parliament this round (9.2).",
                      data={"sovereign": king.name})]
    votes = votes_of(state, board)
    events: list[Event] = []
    for p in state.turn_order():
        events += retainers.use_votes(state, p, KEY) if votes.get(p) else []   # 2.12: Spent once counted
    burghers = _burghers(state, orders, events)
    for p, n in burghers.items():
        votes[p] = votes.get(p, 0) + n
    markers = {p: (orders.get(p) or {}).get("vote", "against") for p in state.turn_order() if votes.get(p)}
    total = sum(votes.get(p, 0) for p in state.players)
    ayes = sum(votes[p] for p, m in markers.items() if m == "for")
    passed = ayes * 2 > total   # 9.2: "a majority (over half of all Votes)"
    state.edition_state[KEY] = {"round": state.round, "passed": passed}
    shown = "; ".join(f"{p} {votes[p]}" + (f" (BURGHER {burghers[p]})" if p in burghers else "")
                      + f" {'FOR' if m == 'for' else 'DECOY'}" for p, m in markers.items())
    events += [Event("parliament_vote", f"{king.name} convenes Parliament on a Royal Tax (9.2). Markers: "
                    f"{shown or 'none'}. {ayes} of {total} votes for: the Royal Tax "
                    + ("passes" if passed else "is not levied") + " (9.2).",
                    data={"markers": markers, "votes": votes, "for": ayes, "total": total, "passed": passed})]
    if not passed:
        return events
    state.edition_state[REBELLION_SIDE] = True
    return events + _share_out(state, king.family, (orders.get(king.family) or {}).get("share") or {})


def _burghers(state: FiefState, orders: Mapping[str, Any], events: list[Event]) -> dict[str, int]:
    """11.2, 11.3, Ex 9-2: the BURGHER votes of each family whose vote says `burgher: yes`,
    each for a Treasure marker placed now (R121); told to the family when it cannot be."""
    out: dict[str, int] = {}
    for p in state.turn_order():
        if not (orders.get(p) or {}).get("burgher"):
            continue
        n = burgher_votes(state, p)
        why = "you have no BURGHER card on your family board any more (11.2)" if not n else \
            spend_treasure(state, p, "burgher_votes")
        if why:
            events.append(Event("burgher_votes_lost", f"Your BURGHER's votes are not added: {why}.",
                                Audience.only(p), {"player": p}))
            continue
        out[p] = n
        events.append(Event("burgher_votes", f"{p} activates their BURGHER card: {n} more votes, a Treasure marker "
                            "placed on it (11.2, 11.3).", data={"player": p, "votes": n}))
    return out


def _share_out(state: FiefState, family: str, share: dict[str, int]) -> list[Event]:
    """9.2: the Sovereign "collects the 12 Shillings, and then secretly distributes" them."""
    tax = edition_of(state).extra["prices.royal_tax"]
    given = {p: n for p, n in share.items() if n and p in state.families and not state.families[p].eliminated
             and p != family}
    kept = tax - sum(given.values())
    state.families[family].deniers += kept
    events = [Event("royal_tax_shared", f"The Royal Tax: {tax} shillings; you keep {kept}"
                    + "".join(f", {p} receives {n}" for p, n in given.items()) + " (9.2).",
                    Audience.only(family), {"kept": kept, "given": given})]
    for p, n in given.items():
        state.families[p].deniers += n
        events.append(Event("royal_tax_share", f"The Sovereign gives you {n} shillings of the Royal Tax (9.2).",
                            Audience.only(p), {"shillings": n}))
    events.append(Event("parliament_rebellion", "The Sovereign shares the Royal Tax secretly; the PARLIAMENT "
                        "card turns to its Rebellion side for this round: every Rebellion counts one more (9.3).",
                        data={}))
    return events


PARLIAMENT = Step("parliament", "Hear Ye, Hear Ye! Phase (1), step C: Parliament",
                  "the Sovereign may convene Parliament; sealed votes on a Royal Tax", True, resolve,
                  listed_orders(check), lambda: {"convene": False, "share": {}, "vote": "against"},
                  template, deciders=deciders, echo=echo, skip=lambda state: not _sits(state))
