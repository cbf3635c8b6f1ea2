"""Lords taken captive in a battle (6.3): by the winning leader's plan, or by an ambush card
(G.4.2.5, the hook)."""
from __future__ import annotations

from pbem.games.fief.battle.context import Battle
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hear_ye.elimination import capture_lord, captive_markers_left
from pbem.games.fief.battle.forces import Side


def take_captives(b: Battle, losing: Side) -> None:
    """The winning leader may take the losing side's lords captive (plan: take_captives); the
    jailer is the plan's captives_to if it is on the winning side with forces in the town,
    else the leader, else the first family of the winning side with forces there (Rulings)."""
    if not losing.lords:
        return
    winner = b.other(losing)
    plan = b.plan(winner.leader)
    jailer = _jailer(b, winner, plan.captives_to) if plan.take_captives else None
    if jailer is None:
        why = "does not take them captive" if not plan.take_captives else "has no forces left to hold them"
        b.tell("battle_no_captives", f"{winner.leader} {why}: {', '.join(losing.lords)} remain in "
               f"{b.setup.town} (6.2.3.5).", {"town": b.setup.town, "lords": list(losing.lords)})
        return
    for name in _with_markers(b, losing.lords):
        lord = b.state.lords[name]
        losing.lords.remove(name)
        b.captives.append((name, jailer))
        b.tell("lord_captured", f"{name} ({lord.family}) is taken captive by {jailer} (6.3).",
               {"town": b.setup.town, "lord": name, "family": lord.family, "jailer": jailer})
        b.events.extend(capture_lord(b.state, b.board, name, jailer))
        b.prune()


def _with_markers(b: Battle, lords: list[str]) -> list[str]:
    """The lords taken: as many as captive markers are left (B: 6; ruling 39), the highest ransom
    first (4.1: 2 deniers + 2 a title), then by name; the others are not taken captive and
    remain in the town (6.2.3.5: "A lord who is not taken captive remains in town")."""
    left = captive_markers_left(b.state)
    if left >= len(lords):
        return list(lords)
    chosen = sorted(lords, key=lambda n: (-b.state.lords[n].title_count(), n))[:left]
    spared = [n for n in lords if n not in chosen]
    markers = edition_of(b.state).captive_markers
    b.tell("battle_no_captives", f"No captive marker is left for {', '.join(spared)} (B: {markers} "
           f"markers, all on captives' cards): they are not taken captive and remain in {b.setup.town} "
           "(6.3, 6.2.3.5).", {"town": b.setup.town, "lords": spared, "no_marker": True})
    return [n for n in lords if n in chosen]


def _jailer(b: Battle, winner: Side, wanted: str | None) -> str | None:
    present = _families_with_forces(b)
    choices = ([wanted] if wanted else []) + [winner.leader] + winner.families
    return next((f for f in choices if f in winner.families and f in present), None)


def _families_with_forces(b: Battle) -> set[str]:
    town = b.setup.town
    # A bombard alone holds nobody: it is about to be eliminated (4.3).
    out = {p.family for p in b.state.pawns.values() if p.location == town and p.kind != "bombard"}
    out |= {lo.family for lo in b.state.lords.values() if lo.location == town and not lo.captive_of}
    # A cavalcade's army may stand on the road (5.2.4): its fighters are present too.
    for side in (b.attacker, b.defender):
        out |= {b.state.pawns[p].family for p in side.units if b.state.pawns[p].kind != "bombard"}
        out |= {b.state.lords[n].family for n in side.lords}
    return out


def ambushes(b: Battle, at_round: int) -> None:
    """Ambush cards played now: the target becomes the captive of the player's family, which
    must have a lord in the battle; troops left without a lord stay (G.4.2.5). If that takes the
    attacking side's last lord the battle stops at once, as in 6.2.2 (Rulings)."""
    for card in b.setup.ambushes:
        if card.at_round != at_round or b.end is not None:
            continue
        side = next((s for s in (b.attacker, b.defender) if card.lord in s.lords), None)
        own = any(b.state.lords[n].family == card.player for s in (b.attacker, b.defender) for n in s.lords)
        why = ("no lord of theirs is in the battle" if not own else
               f"{card.lord} is not fighting in it" if side is None else
               f"{card.lord} is their own lord" if b.state.lords[card.lord].family == card.player else
               f"no captive marker is left (B: {edition_of(b.state).captive_markers} markers, all on captives' "
               "cards; 6.3)"
               if not captive_markers_left(b.state) else "")
        if why or side is None:   # side None: `why` says so
            b.tell("ambush_failed", f"{card.player}'s ambush in {b.setup.town} has no effect: {why} (G.4.2.5).",
                   {"town": b.setup.town, "player": card.player, "lord": card.lord})
            continue
        side.lords.remove(card.lord)
        b.captives.append((card.lord, card.player))
        b.tell("lord_captured", f"Ambush (G.4.2.5): {card.lord} ({b.state.lords[card.lord].family}) is "
               f"taken captive by {card.player} (6.3).",
               {"town": b.setup.town, "lord": card.lord, "family": b.state.lords[card.lord].family,
                "jailer": card.player, "ambush": True})
        b.events.extend(capture_lord(b.state, b.board, card.lord, card.player))
        b.prune()
    if b.end is None and not b.attacker.lords:
        b.finish("attacker_no_lord", winner=None)
