"""What a battle leaves behind (6.2.3.5, 6.3, 6.4.1, 5.2.2): the closing report, captives
released because their jailer's forces are gone, who controls the town, and siege engine
markers of besiegers left without a lord."""
from __future__ import annotations

from typing import Mapping

from pbem.games.fief.battle.context import Battle
from pbem.games.fief.battle.end import END_TEXT
from pbem.games.fief.movement.control import set_controller
from pbem.games.fief.hear_ye.titles import come_into_play


def settle(b: Battle) -> None:
    closing_report(b)
    b.drop_lone_bombards("4.3")   # lords taken captive or a surrender may leave one alone
    release_captives(b)
    if not b.setup.cavalcade:
        # 5.2.4: a cavalcade only opens (or not) a way; the movement rules place the forces.
        settle_control(b)
    _siege_markers(b)


def _present(b: Battle) -> set[str]:
    """Families with a unit pawn or a free lord in the town (captives are not forces)."""
    town = b.setup.town
    out = {p.family for p in b.state.pawns.values() if p.location == town}
    out |= {lo.family for lo in b.state.lords.values() if lo.location == town and not lo.captive_of}
    return out


def closing_report(b: Battle, end_text: Mapping[str, str] = END_TEXT, section: str = " (6.2.3.5)") -> None:
    """The battle's last event: how it ended (``end_text``, the edition's words for its ends,
    with ``section`` after them), who won, the captives taken."""
    winner = {"attacker": b.setup.attacker, "defender": b.setup.defender}.get(b.winner or "")
    won = f"{winner}'s side wins" if winner else "no side wins"
    taken = "; captives: " + ", ".join(f"{lord} held by {jailer}" for lord, jailer in b.captives) \
        if b.captives else ""
    rounds = f"{b.fought} battle round{'s' if b.fought != 1 else ''}"
    b.tell("battle_end", f"The battle in {b.setup.town} ends after {rounds}: {end_text.get(b.end or '', b.end)}"
           f"{section}; {won}{taken}.",
           {"town": b.setup.town, "end": b.end, "winner": b.winner, "winner_family": winner,
            "rounds": b.fought, "captives": [list(c) for c in b.captives],
            "stopped_by": b.stopped_by})


def release_captives(b: Battle, section: str = "6.3") -> None:
    """6.3: a captive is released "if the forces that hold them captive are eliminated, even
    if another family is present"; a released lord comes into play again (G.1.2). ``section``:
    the edition's rule, for the report (England: 7.6)."""
    present = _present(b)
    if b.setup.cavalcade:   # the army may stand on the road: its fighters still hold captives
        present |= {b.state.pawns[p].family for s in (b.attacker, b.defender) for p in s.units}
        present |= {b.state.lords[n].family for s in (b.attacker, b.defender) for n in s.lords}
    freed = [lo.name for lo in b.state.lords.values()
             if lo.location == b.setup.town and lo.captive_of in b.involved and lo.captive_of not in present]
    for name in freed:
        jailer = b.state.lords[name].captive_of
        b.tell("captive_released", f"{name} is released: the forces of {jailer} holding them in "
               f"{b.setup.town} are gone ({section}).", {"lord": name, "jailer": jailer, "town": b.setup.town})
        b.events.extend(come_into_play(b.state, b.board, name))


def settle_control(b: Battle) -> None:
    """6: the winning leader decides who controls the town among the winning side's families
    present; otherwise control does not change, unless its controller has no forces left in
    the town: then 5.2.2 (the earliest arrived family present, or control free)."""
    town = b.state.towns[b.setup.town]
    present = _present(b)
    town.arrivals[:] = [f for f in town.arrivals if f in present]
    ctrl = town.controller
    if b.winner:
        winner, loser = b.side(b.winner), b.other(b.side(b.winner))
        plan = b.plan(winner.leader)
        wanted = plan.control_to if plan.control_to in winner.families else None
        beaten = ctrl is None or ctrl not in present or ctrl in loser.families
        if beaten or (wanted and ctrl in winner.families):
            keep = [ctrl] if ctrl in winner.families else []
            for fam in [wanted] + keep + [winner.leader] + winner.families:
                if fam and fam in winner.families and fam in present:
                    if fam != ctrl:
                        b.events.extend(set_controller(b.state, b.board, b.setup.town, fam, None,
                                                       why=f"{winner.leader}'s side won the battle"))
                    return
    if ctrl is not None and ctrl in present:
        return
    fallback = next((f for f in town.arrivals if f in present), None) or min(present, default=None)
    if fallback is not None:
        b.events.extend(set_controller(b.state, b.board, b.setup.town, fallback, None,
                                       why="the earliest arrived family left in the town"))
        return
    town.controller = None
    b.tell("town_control", f"{b.setup.town} is left empty after the battle; control follows 5.2.2.",
           {"town": b.setup.town, "controller": None})


def _siege_markers(b: Battle) -> None:
    """6.4.1: a besieger with no lord left in the town removes its marker once the battle stops."""
    town = b.state.towns[b.setup.town]
    lords = {lo.family for lo in b.state.lords.values() if lo.location == b.setup.town and not lo.captive_of}
    for fam in [f for f in town.besiegers if f in b.involved and f not in lords]:
        del town.besiegers[fam]
        b.tell("siege_marker_removed", f"{fam} has no lord left in {b.setup.town} and removes their "
               "siege engine marker (6.4.1).", {"town": b.setup.town, "family": fam})
        if not town.besiegers:
            b.tell("siege_lifted", f"The siege of {b.setup.town} is lifted (6.4.2).", {"town": b.setup.town})
