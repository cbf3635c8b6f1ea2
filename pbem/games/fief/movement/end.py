"""The end of the Movement Phase: forces on roads are placed in the town they were moving to
(5), and a bombard left alone is eliminated (4.3)."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.movement.control import enter_town, left_town, may_enter
from pbem.games.fief.movement.events import Teller
from pbem.games.fief.movement.presence import Presence, town_place
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event


def place_road_forces(state: FiefState, board: Board, presence: Presence, teller: Teller) -> None:
    """5: forces on roads are placed in the town they were moving to, in the order they
    got there (5.2.2: next to the town space unless the town is theirs or empty)."""
    placed: list[tuple[str, str]] = []
    for member in presence.on_roads():
        fam = presence.family_of[member]
        town = presence.where[member][2]
        enters = may_enter(state, board, presence, town, fam)
        presence.put(member, fam, town_place(town))
        if enters:   # the town was left empty meanwhile, or is now the family's (5.2.2)
            lord = member[2:] if member.startswith("L:") else None
            teller.add(enter_town(state, board, presence, town, fam, lord))
        elif fam not in state.towns[town].arrivals:
            state.towns[town].arrivals.append(fam)   # next to the town space
        if (fam, town) not in placed:
            placed.append((fam, town))
    for fam, town in placed:
        teller.events.append(Event(
            "forces_placed", f"End of the Movement Phase: {fam}'s forces on the road to {town} "
            f"are placed in {town} (5).", data={"family": fam, "town": town}))


def lone_bombards(state: FiefState, board: Board, presence: Presence, teller: Teller) -> None:
    """4.3: a bombard not accompanied by a unit pawn or lord of its family is eliminated."""
    groups: dict[tuple[str, str], list[str]] = {}
    for member, place in presence.where.items():
        groups.setdefault((place[1], presence.family_of[member]), []).append(member)
    for (town, fam), members in sorted(groups.items()):
        if all(m.startswith("P:") and state.pawns[m[2:]].kind == "bombard" for m in members):
            for m in members:
                del state.pawns[m[2:]]
                presence.remove(m)
            teller.events.append(Event(
                "bombard_lost", f"{fam}'s bombard left alone in {town} is eliminated (4.3).",
                data={"family": fam, "town": town, "count": len(members)}))
            teller.add(left_town(state, board, presence, town, fam, []))   # the town may be empty now
