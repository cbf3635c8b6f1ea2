"""The order of the battles of a round (III "The Order of Battles: The Clash of Warlords").

    battle_order(battles, turn_order, choices) -> [battle id, ...]

1. Battles in which a warlord takes part (on either side) come first, "the one that was entered
   first" first, "even if this runs contrary to the turn order".
2. Then the open battles, then the sieges, each "starting from the starting player in turn
   order": the players take turns, each fighting one of his own battles (as attacker) when his
   turn comes — the one of his choice ("he may begin one of them of his own choice, and the next
   one only when his turn comes again"): by mail, the first of his ``choices`` still to fight,
   otherwise the one entered first (ruling B17).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence


@dataclass(frozen=True)
class BattleEntry:
    """A battle waiting to be fought: ``id`` (the caller's, e.g. the county), the attacking
    player, whether a warlord takes part, whether it is a siege, and ``entered``: when it began
    in the movement phase (the step's sequence number: smaller is earlier)."""

    id: str
    attacker: str
    warlords: bool
    siege: bool
    entered: int


def battle_order(battles: Sequence[BattleEntry], turn_order: Sequence[str],
                 choices: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """The ids of ``battles`` in the order they are fought. ``turn_order`` starts with the
    starting player; ``choices``: each player's preferred order of his own battles (ids)."""
    ids = [b.id for b in battles]
    if len(set(ids)) != len(ids):
        raise ValueError(f"battle ids must be distinct: {ids}")
    unknown = sorted({b.attacker for b in battles} - set(turn_order))
    if unknown:
        raise ValueError(f"attacker(s) {', '.join(unknown)} not in the turn order {list(turn_order)}")
    first = sorted((b for b in battles if b.warlords), key=lambda b: b.entered)
    order = [b.id for b in first]
    for siege in (False, True):
        rest = [b for b in battles if not b.warlords and b.siege == siege]
        order += _in_turns(rest, turn_order, choices or {})
    return order


def _in_turns(battles: list[BattleEntry], turn_order: Sequence[str], choices: Mapping[str, Sequence[str]]) -> list[str]:
    waiting = {p: sorted((b for b in battles if b.attacker == p),
                         key=lambda b: (_rank(choices.get(p, ()), b.id), b.entered)) for p in turn_order}
    out: list[str] = []
    while any(waiting.values()):
        for player in turn_order:
            if waiting[player]:
                out.append(waiting[player].pop(0).id)
    return out


def _rank(chosen: Sequence[str], battle_id: str) -> int:
    return list(chosen).index(battle_id) if battle_id in chosen else len(chosen)
