"""The Hear Ye phase (1; England 9.0-9.1): marriages for an alliance (1.1), my lords as
candidates on every ballot open (bishoprics, pope, king: 1.3-1.5), then the sealed votes (1.2):
for my own candidate, else a friend's, else the candidate of the weakest family (never the
leader's)."""
from __future__ import annotations

from pbem.games.fief.computer.sight import allies
from pbem.games.fief.computer.mail import Mail
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, edition_of, free_lords, my_lords, others


def first_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    choices = _marriages(view, player)
    lords = sorted(free_lords(view, player), key=lambda n: _candidate_rank(view, n))
    for ballot in view["hear_ye"]["possible"]:
        if lords:
            choices.append([{"candidate": n, "for": ballot} for n in lords])
    return choices


def _candidate_rank(view: JSON, name: str) -> tuple:
    lord = view["lords"][name]
    return (bool(lord["spouse"]), -len(lord["fief_titles"]), name)


def _unmarried(view: JSON, family: str) -> list[str]:
    return sorted(n for n in my_lords(view, family)
                  if not view["lords"][n]["spouse"] and view["lords"][n]["location"]
                  and not view["lords"][n]["captive_of"] and not view["lords"][n]["bishopric"])


def _suitors(view: JSON, player: str) -> list[str]:
    """The families a marriage may join (England 13.7: one's own two; 13.8: none at 3 players),
    and only where a married family may still win alone (France 7.1: the 3-player game): an
    alliance elsewhere shares the victory (7.2; England 8.2-8.3), so it is not sought."""
    owners = view.get("family_players") or {}
    if owners:
        return [f for f, p in owners.items() if p == owners.get(player) and f != player]
    if len(view["players"]) not in edition_of(view).victory.married_lone_players:
        return []
    return others(view, player)


def _marriages(view: JSON, player: str) -> list[list[Item]]:
    """1.1: both families must order the same pair, so the pair is the one both would name: the
    first in name order of a lord of the first family (seating order) and one of the second.
    An alliance with the weakest family that will have it, one at a time."""
    if allies(view, player) - set(_suitors(view, player)) and not view.get("family_players"):
        return []   # married into one family already: one alliance is enough
    order = view["players"]
    choices: list[list[Item]] = []
    for other in sorted(_suitors(view, player), key=lambda p: (view["families"][p].get("vp", 0), p)):
        first, second = sorted((player, other), key=order.index)
        pairs = [(a, b) for a in _unmarried(view, first) for b in _unmarried(view, second)
                 if view["lords"][a]["female"] != view["lords"][b]["female"]]
        if pairs:
            a, b = pairs[0]
            mine, theirs = (a, b) if first == player else (b, a)
            choices.append([{"marry": mine, "to": theirs}])
            break
    return choices


def vote_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    friends = allies(view, player)
    choices: list[list[Item]] = []
    for ballot in view["hear_ye"]["ballots"]:
        def rank(name: str) -> tuple:
            family = view["lords"][name]["family"]
            return (family != player, family not in friends, view["families"].get(family, {}).get("vp", 0), name)
        # a candidate named in the first mail may have died since (a battle, the plague): not voted for
        ranked = sorted((n for n in ballot["candidates"] if n in view["lords"]), key=rank)
        if ranked:
            choices.append([{"vote": ballot["id"], "for": n} for n in ranked])
    return choices
