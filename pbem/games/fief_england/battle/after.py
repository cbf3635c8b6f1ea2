"""What an England battle leaves behind: the beaten side's nobles taken captive or slain (7.6),
its engines the winner's spoils (7.2, R7, R78), the closing report, captives freed and control."""
from __future__ import annotations

from collections import Counter

from pbem.games.fief.battle.after import closing_report, release_captives, settle_control
from pbem.games.fief.battle.context import Battle
from pbem.games.fief.battle.forces import Side
from pbem.games.fief.battle.losses import Losses as PawnLosses
from pbem.games.fief.hear_ye.elimination import capture_lord
from pbem.games.fief_england.battle.numbers import ENGINES
from pbem.games.fief_england.crown import royal_conquered
from pbem.games.fief_england.battle.sides import decider, numbers, own_plan, units_text

END_TEXT = {
    "alone": "the defenders have no troop: nobles, trebuchets and bombards alone are captured (7.5, 7.6)",
    "victory": "one side's army is defeated (7.8 Victory)",
    "annihilation": "only nobles remain on both sides (7.8 Annihilation)",
    "surrender": "one side surrenders (7.8 Surrender)",
    "attacker_stops": "the attacker of a fortress stops alone (7.8)",
    "leaderless": "the side facing troops without a noble ends the battle alone (7.8 Assassination)",
    "truce": "both sides declare a truce (7.8 Truce)",
    "deadlock": "3 battle rolls in a row without losses (7.8 Deadlock)",
}


def defeated(b: Battle, side: Side) -> None:
    """7.6: the beaten side's nobles are taken captive by a noble of the winning side - or slain
    by troops without a noble; 7.2: its trebuchets and bombards are the winner's spoils."""
    winner = b.other(side)
    if side.lords:
        jailer = captor(b, winner)
        for name in list(side.lords):
            if jailer is None:
                b.tell("lord_slain", f"{name} ({b.state.lords[name].family}) is slain: troops without a "
                       "noble take no captives (7.6).", {"town": b.setup.town, "lord": name})
                b.lose(side, PawnLosses(lords=[name]))
                continue
            side.lords.remove(name)
            b.captives.append((name, jailer))
            b.tell("lord_captured", f"{name} ({b.state.lords[name].family}) is taken captive by {jailer} (7.6).",
                   {"town": b.setup.town, "lord": name, "family": b.state.lords[name].family, "jailer": jailer})
            b.events.extend(capture_lord(b.state, b.board, name, jailer))
            b.prune()
    spoils(b, side, winner)


def captor(b: Battle, winner: Side) -> str | None:
    """Who holds the captives (7.0: the strongest player of the side decides): its plan's
    `captives_to`, else itself, else the leader, else any family of the side - one with a
    free noble in the battle; None when the side has no noble left (7.6)."""
    chosen = decider(b, winner)
    with_noble = {b.state.lords[n].family for n in winner.lords}
    wanted = b.plan(chosen).captives_to
    return next((f for f in [wanted, chosen, winner.leader, *winner.families]
                 if f in winner.families and f in with_noble), None)


def spoils(b: Battle, loser: Side, winner: Side) -> None:
    """7.2 Winner's Spoils: the loser's trebuchets and bombards are taken over by the winner
    (its own markers, while its stockpile has some) or destroyed (the plan's `spoils`)."""
    engines = [p for p in loser.units if b.state.pawns[p].kind in ENGINES]
    if not engines:
        return
    taker = decider(b, winner)
    wanted = own_plan(b, taker).spoils
    on_map = Counter(p.kind for p in b.state.pawns.values() if p.family == taker)
    taken: Counter = Counter()
    destroyed: Counter = Counter()
    for pid in engines:
        pawn = b.state.pawns[pid]
        loser.units.remove(pid)
        if wanted == "take" and on_map[pawn.kind] + taken[pawn.kind] < numbers().pools.get(pawn.kind, 0):
            taken[pawn.kind] += 1
            pawn.family = taker
            winner.units.append(pid)
        else:
            destroyed[pawn.kind] += 1
            del b.state.pawns[pid]
    parts = []
    if taken:
        parts.append(f"{taker} takes over {units_text(dict(taken))}")
    if destroyed:
        parts.append(f"{units_text(dict(destroyed))} destroyed")
    b.tell("engines_taken", f"The spoils in {b.setup.town}: {'; '.join(parts)} (7.2 Winner's Spoils).",
           {"town": b.setup.town, "family": taker, "taken": dict(taken), "destroyed": dict(destroyed)})


def settle(b: Battle) -> None:
    """What the battle leaves: the closing report, captives freed when their captor's forces
    are gone (7.6), control of the city (7.8: unchanged but by a victory or surrender)."""
    closing_report(b, END_TEXT, "")
    release_captives(b, "7.6")
    if not b.setup.cavalcade:
        settle_control(b)
        b.events.extend(royal_conquered(b.state, b.board, b.setup.town))   # 4.9
