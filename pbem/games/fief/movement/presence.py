"""Who stands where during the Movement Phase (5): in a town, or on a road.

During the phase forces can be on a road: a lord reaching a town controlled and occupied by
another family "stays on the road they came by and is not considered to be in the town for
now" (5.2.1), and an army refused a safe passage may stop there (5.2.3.1). Such forces are not
present in the town (so they do not block it nor share its control), but they are on the road
(every later move along that road must cross them). At the end of the phase they are placed in
the town they were moving to (5).

While on a road, a lord's or pawn's ``location`` in the state already names the town it moves
to; this index adds the road. Built once per resolution, then updated move by move, so no
query scans every pawn (linear cost).

A place is ("town", name) - a town or the offshore area - or ("road", from, to). Members are
lord names prefixed "L:" and pawn ids prefixed "P:". Captive lords are not members: they are
carried by their jailer's armies and make nobody present (6.3).
"""
from __future__ import annotations

from collections import defaultdict

from pbem.games.fief.state import FiefState

Place = tuple  # ("town", name) | ("road", from_town, to_town)


def town_place(name: str) -> Place:
    return ("town", name)


def road_place(frm: str, to: str) -> Place:
    return ("road", frm, to)


def road_key(a: str, b: str) -> frozenset:
    return frozenset((a, b))


class Presence:
    def __init__(self) -> None:
        self.where: dict[str, Place] = {}
        self.family_of: dict[str, str] = {}
        # town -> family -> members; road (unordered) -> family -> members
        self._towns: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._roads: dict[frozenset, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        # members on roads, in the order they got there (the order of placement at the end, 5)
        self.road_order: dict[str, int] = {}
        self._tick = 0

    @staticmethod
    def build(state: FiefState) -> "Presence":
        p = Presence()
        for lord in state.lords.values():
            if lord.location is not None and not lord.captive_of:
                p.put("L:" + lord.name, lord.family, town_place(lord.location))
        for pawn in state.pawns.values():
            p.put("P:" + pawn.id, pawn.family, town_place(pawn.location))
        return p

    # -- updates -------------------------------------------------------------------------
    def put(self, member: str, family: str, place: Place) -> None:
        self.remove(member)
        self.where[member] = place
        self.family_of[member] = family
        self._bucket(place)[family].add(member)
        if place[0] == "road":
            self._tick += 1
            self.road_order[member] = self._tick

    def remove(self, member: str) -> None:
        place = self.where.pop(member, None)
        if place is None:
            return
        family = self.family_of.pop(member)
        bucket = self._bucket(place)
        bucket[family].discard(member)
        if not bucket[family]:
            del bucket[family]
        self.road_order.pop(member, None)

    def _bucket(self, place: Place) -> dict[str, set[str]]:
        if place[0] == "town":
            return self._towns[place[1]]
        return self._roads[road_key(place[1], place[2])]

    # -- queries -------------------------------------------------------------------------
    def families_in(self, town: str) -> set[str]:
        """Families present in the town (5.1: a lord or a troop), not counting forces on roads."""
        return {f for f, members in self._towns.get(town, {}).items() if members}

    def families_on_road(self, a: str, b: str) -> set[str]:
        """Families on the road between a and b, whichever way they were going (5.2.1)."""
        return {f for f, members in self._roads.get(road_key(a, b), {}).items() if members}

    def members_at(self, place: Place, family: str) -> set[str]:
        return set(self._bucket(place).get(family, ()))

    def has_lord_at(self, place: Place, family: str) -> bool:
        return any(m.startswith("L:") for m in self._bucket(place).get(family, ()))

    def on_roads(self) -> list[str]:
        """Every member on a road, in the order they got there."""
        return sorted(self.road_order, key=self.road_order.__getitem__)
