"""The Hear Ye, Hear Ye! Phase orders (1) as mailed, checked against the player's view. The
edition's own orders come first in the first mail and after the votes in the second (its
`hear_ye_orders` hook; France's excommunications and annulments: pbem/games/fief_france/hear_ye.py).

First mail, ``round-N/hear-ye``:

    orders:
      - marry: Quentin             # 1.1: happens only if the other family orders the same pair
        to: Aliénor
      - candidate: François        # 1.2: one candidate of yours per ballot
        for: bishop 5              # bishop N (or the bishopric's name), pope, king

Second mail, ``round-N/hear-ye-votes`` (sealed until the resolution reveals every ballot):

    orders:
      - vote: bishop 5             # a ballot of the announced list
        for: François              # optional: your `for` marker (all your votes)
        decoy: Gauvain             # optional: your decoy marker (no vote)
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.orders.reading import Problems, check_keys, each_order, fold, suggest
from pbem.games.fief.edition import load_edition
from pbem.games.fief.state import Lord
from pbem.orders.yamlsafe import line_of

FIRST_KEYS = {"marry": ("marry", "to"), "candidate": ("candidate", "for")}


def empty_first() -> dict[str, Any]:
    """Defaults (docs): no marriage, no candidacy (and the edition's own orders' defaults: its
    `hear_ye_orders` hook's ``first_defaults``, which come first)."""
    return {"marry": None, "candidates": {}}


def lord_named(view: dict, text: Any, line: int | None, problems: Problems) -> str | None:
    names = {fold(n): n for n in view["lords"]}
    name = names.get(fold(str(text))) if isinstance(text, str) else None
    if name is None:
        problems.add(line, f"there is no lord called {text!r} in play", suggest(str(text), view["lords"]))
    return name


def own_lord(view: dict, player: str, text: Any, line: int | None, problems: Problems) -> str | None:
    """The lord of ``player``'s family a mail names, or None with the problem added."""
    name = lord_named(view, text, line, problems)
    if name is not None and view["lords"][name]["family"] != player:
        problems.add(line, f"{name} is not a lord of yours",
                     "name one of: " + ", ".join(view["families"][player]["lords"]))
        return None
    return name


def as_lord(view: dict, name: str) -> Lord:
    v = view["lords"][name]
    return Lord(name=name, family=v["family"], female=v["female"], location=v["location"],
                captive_of=v["captive_of"], fief_titles=list(v["fief_titles"]), bishopric=v["bishopric"],
                cardinal=v["cardinal"], pope=v["pope"], political=v["political"],
                excommunicated=v["excommunicated"], spouse=v["spouse"])


def ballot_id(view: dict, text: Any, line: int | None, problems: Problems, open_: list[str]) -> str | None:
    elections = load_edition(view["game"]).hooks.elections
    found = elections.ballot_named(view, fold(str(text or "")))
    if found is None:
        problems.add(line, f"{text!r} is not a ballot", elections.ballot_names)
    elif found not in open_:
        problems.add(line, f"there is no ballot for {found} this phase",
                     ("open ballots: " + ", ".join(open_)) if open_ else "no election can be held this phase")
        return None
    return found


def check_first(view: dict, board: Board, player: str, items: list, problems: Problems) -> dict[str, Any]:
    hooks = load_edition(view["game"]).hooks
    own = hooks.hear_ye_orders   # France: the pope's acts, annulments
    out = {**(own.first_defaults() if own else {}), **empty_first()}
    keys = {**(own.first_verbs if own else {}), **FIRST_KEYS}
    open_ = list(view["hear_ye"]["possible"])
    elections = hooks.elections
    for item, verb, _line in each_order(items, keys, problems):
        check_keys(item, keys[verb], f"a `{verb}` order", problems)
        if verb not in FIRST_KEYS:
            assert own is not None
            own.check_first(view, board, player, verb, item, out, problems)
            continue
        at = line_of(item, verb)
        if verb == "candidate" and elections.any_family:   # England 9.1: any non-clergy Lord (R20)
            name = lord_named(view, item[verb], at, problems)
        else:
            name = own_lord(view, player, item[verb], at, problems)
        if name is None:
            continue
        if verb == "marry":
            _check_marry(view, board, player, name, item, problems, out)
        else:
            ballot = ballot_id(view, item.get("for"), line_of(item, "for"), problems, open_)
            if ballot is None:
                continue
            why = elections.eligible(as_lord(view, name), ballot)
            if why and not elections.also_stands({player: out}, player, name, ballot):   # France 1.4.1
                problems.add(at, f"{name} cannot stand for {ballot}: {why}",
                             "a candidate for pope who is not yet a bishop: name his bishop candidacy first"
                             if ballot == "pope" else "")
            elif ballot in out["candidates"]:
                problems.add(at, "one candidate per ballot: you already named "
                             f"{out['candidates'][ballot]} for {ballot}")
            else:
                out["candidates"][ballot] = name
    return out


def _check_marry(view, board, player, name, item, problems, out) -> None:
    at = line_of(item, "marry")
    if "to" not in item:
        problems.add(at, "a marriage needs `to:` the other spouse", "add `to: NAME` under `- marry:`")
        return
    other = lord_named(view, item["to"], line_of(item, "to"), problems)
    if other is None:
        return
    a, b = view["lords"][name], view["lords"][other]
    why = None
    if not load_edition(view["game"]).may_marry(len(view["players"])):
        why = f"no marriage in a {len(view['players'])}-player game (England 13.8)"
    elif b["family"] == player:
        why = "both spouses are of your family: a marriage joins two families (1.1.2)"
    elif _other_players(view, player, b["family"]):
        why = (f"{b['family']} is not your family: at two players a marriage joins only your own two "
               "families (13.7)")
    elif a["female"] == b["female"]:
        why = "the spouses must be a man and a woman"
    elif out["marry"]:
        why = "one pending marriage per player (1.1.2)"
    else:
        for n, l in ((name, a), (other, b)):
            if l["spouse"]:
                why = f"{n} is already married"
            elif l["bishopric"] or l["cardinal"] or l["pope"]:
                why = f"{n} is an ecclesiastic: bishops cannot marry (D.2.1)"
            elif l["political"] == "darc":
                why = f"{n} is the D'Arc lord"
            elif any(view["lords"][k]["spouse"] for k in view["families"][l["family"]]["lords"]):
                why = f"{l['family']} already has a marriage (1.1.2: one at a time)"
            if why:
                break
    if why:
        problems.add(at, f"{name} cannot marry {other}: {why}")
    else:
        out["marry"] = {"lord": name, "to": other}


def _other_players(view: dict, family: str, other: str) -> bool:
    """13.7: whether two families are run by two players, where families are named apart."""
    owners = view.get("family_players") or {}
    return bool(owners) and owners.get(family) != owners.get(other)


def check_votes(view: dict, player: str, items: list, problems: Problems) -> dict[str, Any]:
    """1.2 step 2: per ballot, a `for` marker and/or a `decoy` marker on its candidates; and the
    edition's own orders of this mail (France: the new pope's excommunication, 1.4)."""
    own = load_edition(view["game"]).hooks.hear_ye_orders
    ballots = {b["id"]: b["candidates"] for b in view["hear_ye"]["ballots"]}
    votes: dict[str, dict] = {}
    out: dict[str, Any] = {"votes": votes, **(own.vote_defaults() if own else {})}
    for item, verb, _line in each_order(items, ("vote",) + (own.vote_verbs if own else ()), problems):
        if verb != "vote":
            assert own is not None
            own.check_vote(view, player, verb, item, out, problems)
            continue
        check_keys(item, ("vote", "for", "decoy"), "a `vote` order", problems)
        ballot = ballot_id(view, item["vote"], line_of(item, "vote"), problems, list(ballots))
        if ballot is None:
            continue
        if ballot in votes:
            problems.add(line_of(item, "vote"), f"you already voted in the ballot for {ballot}",
                         "one `- vote:` per ballot, with `for:` and `decoy:`")
            continue
        marks = {}
        for key in ("for", "decoy"):
            if item.get(key) is None:
                continue
            names = {fold(c): c for c in ballots[ballot]}
            name = names.get(fold(str(item[key])))
            if name is None:
                problems.add(line_of(item, key), f"{item[key]!r} is not a candidate for {ballot}",
                             "candidates: " + ", ".join(ballots[ballot]))
            else:
                marks[key] = name
        votes[ballot] = marks
    return out
