"""The Hear Ye, Hear Ye! Phase orders (1) as mailed, checked against the player's view.

First mail, ``round-N/hear-ye``:

    orders:
      - excommunicate: Gauvain     # the pope's family only (1.1, D.2.3.1); one marker in play
      - lift: Arthur               # the pope's family only: lift that excommunication
      - annulments: grant          # the pope's family only: grant the requests of this phase (default refuse)
      - annul: Aliénor             # a spouse of yours asks the pope for an annulment (D.2.3)
      - marry: Quentin             # 1.1: happens only if the other family orders the same pair
        to: Aliénor
      - candidate: François        # 1.2: one candidate of yours per ballot
        for: bishop 5              # bishop N (or the bishopric's name), pope, king

Second mail, ``round-N/hear-ye-votes`` (sealed until the resolution reveals every ballot):

    orders:
      - vote: bishop 5             # a ballot of the announced list
        for: François              # optional: your `for` marker (all your votes)
        decoy: Gauvain             # optional: your decoy marker (no vote)
      - excommunicate: Gauvain     # 1.4: if your candidate is elected pope, he excommunicates
        if_pope: François          #      at once (before the king's ballot)
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.orders.reading import Problems, check_keys, each_order, fold, suggest
from pbem.games.fief.edition import load_edition
from pbem.games.fief.state import Lord
from pbem.orders.yamlsafe import line_of

FIRST_VERBS = ("excommunicate", "lift", "annulments", "annul", "marry", "candidate")
FIRST_KEYS = {"excommunicate": ("excommunicate",), "lift": ("lift",), "annulments": ("annulments",),
              "annul": ("annul",), "marry": ("marry", "to"), "candidate": ("candidate", "for")}


def empty_first() -> dict[str, Any]:
    """Defaults (docs): no marriage, no candidacy; the pope neither excommunicates nor lifts
    and refuses annulments."""
    return {"pope": {}, "annulments": "refuse", "annul": None, "marry": None, "candidates": {}}


def _lord(view: dict, board: Board, text: Any, line: int | None, problems: Problems) -> str | None:
    names = {fold(n): n for n in view["lords"]}
    name = names.get(fold(str(text))) if isinstance(text, str) else None
    if name is None:
        problems.add(line, f"there is no lord called {text!r} in play", suggest(str(text), view["lords"]))
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
    out = empty_first()
    is_pope = any(v["pope"] and v["family"] == player for v in view["lords"].values())
    open_ = list(view["hear_ye"]["possible"])
    any_family = load_edition(view["game"]).hooks.elections.any_family   # England 9.1: any Lord stands
    for item, verb, _line in each_order(items, FIRST_VERBS, problems):
        check_keys(item, FIRST_KEYS[verb], f"a `{verb}` order", problems)
        at = line_of(item, verb)
        if verb in ("excommunicate", "lift", "annulments") and not is_pope:
            problems.add(at, f"only the pope's family may order `{verb}` (D.2.3)", "remove this order")
            continue
        if verb == "annulments":
            answer = fold(str(item[verb]))
            if answer not in ("grant", "refuse"):
                problems.add(at, f"`annulments:` is `grant` or `refuse`, not {item[verb]!r}")
            else:
                out["annulments"] = answer
            continue
        name = _lord(view, board, item[verb], at, problems)
        if name is None:
            continue
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
        elif verb == "lift":
            if not lord["excommunicated"]:
                problems.add(at, f"{name} is not excommunicated")
            else:
                out["pope"]["lift"] = name
        elif lord["family"] != player and not (verb == "candidate" and any_family):
            problems.add(at, f"{name} is not a lord of yours",
                         "name one of: " + ", ".join(view["families"][player]["lords"]))
        elif verb == "annul":
            if not lord["spouse"]:
                problems.add(at, f"{name} is not married")
            else:
                out["annul"] = name
        elif verb == "marry":
            _check_marry(view, board, player, name, item, problems, out)
        else:
            ballot = ballot_id(view, item.get("for"), line_of(item, "for"), problems, open_)
            if ballot is None:
                continue
            elections = load_edition(view["game"]).hooks.elections
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
    other = _lord(view, board, item["to"], line_of(item, "to"), problems)
    if other is None:
        return
    a, b = view["lords"][name], view["lords"][other]
    why = None
    if b["family"] == player:
        why = "both spouses are of your family: a marriage joins two families (1.1.2)"
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


def check_votes(view: dict, player: str, items: list, problems: Problems) -> dict[str, Any]:
    """1.2 step 2: per ballot, a `for` marker and/or a `decoy` marker on its candidates."""
    ballots = {b["id"]: b["candidates"] for b in view["hear_ye"]["ballots"]}
    votes: dict[str, dict] = {}
    out: dict[str, Any] = {"votes": votes, "new_pope_excommunicates": None}
    for item, verb, _line in each_order(items, ("vote", "excommunicate"), problems):
        if verb == "excommunicate":
            _check_new_pope(view, player, item, ballots.get("pope", []), problems, out)
        if verb != "vote":
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


def _check_new_pope(view: dict, player: str, item: Any, candidates: list[str], problems: Problems,
                    out: dict[str, Any]) -> None:
    """1.4 "Election results": the new pope may excommunicate a lord at once; asked in advance,
    `if_pope:` naming your candidate (done only if he is elected and the marker is free)."""
    check_keys(item, ("excommunicate", "if_pope"), "an `excommunicate` order", problems)
    at = line_of(item, "excommunicate")
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
