"""Sherwood's bandit paths (E 13.4): York, Lincoln, King's Lynn and Nottingham one Move apart
through the forest, and the bandits who wait there.

"Each time you pass through Sherwood Forest, roll the d6. On a 1 or 2 result, you are captured
by Bandits." Every noble of the army then owes the bandits' ransom of the record's
`bandit_ransom:` (13.4, l.828-833: 2 untitled, 4 a Lord, 5 a cleric, 10 a cleric with a fiefdom
title, nothing from the King or Queen), paid at once from the family's shillings if it can
(rulings R60, R61); "Nobles unable to immediately pay become Captives in Sherwood until the
Ransom is paid". The others go on. "If all Nobles remain captive, the Men-at-Arms and Archers
join the Bandits and their markers are returned to their Stockpiles. Knights remain loyal to
their Nobles and remain with them in Sherwood" (R62).

A captive of the bandits is off the map (``Lord.location`` None), recorded with their knights in
``FiefState.edition_state["sherwood"]`` (this module's key). They are freed when their ransom is
paid at the beginning of the Purchase phase (``pay_ransoms``), or at once by the King's or
Queen's carrier pigeon (``interdiction``: "the King or Queen can spend one of their Carrier
Pigeons to have a Captive of their choice immediately set free"; the pigeon itself is spent by
the pigeons' rules), and placed in "the nearest City friendly to them" (``friendly_city``, R63).

The roll is public like every die of the game; what a family pays and has left is told to it
alone (shillings are secret, FAQ l.857).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controller, forces_by_town
from pbem.games.fief.movement.control import set_controller
from pbem.games.fief.state import FiefState, Lord, Pawn
from pbem.games.fief_england.board_loader import EnglandBoard
from pbem.games.fief_england.movement.waters import Waters, waters_of
from pbem.games.fief_england.royal import guard
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

KEY = "sherwood"                              # FiefState.edition_state[KEY]
KING_OR_QUEEN = ("king", "queen", "sovereign_queen")   # 13.4: "nothing of the King or Queen"
LOYAL = ("knight",)                           # 13.4: "Knights remain loyal to their Nobles"


def ransom_of(lord: Lord, table: Mapping[str, int], clergy: bool) -> int:
    """13.4 (l.828-833): the bandits' ransom of one noble, by the record's `bandit_ransom:`
    (`untitled`, `lord`, `clergy`, `clergy_lord`, `sovereign`). ``clergy``: the noble holds a
    Bishop, Archbishop or Abbess title."""
    if lord.political in KING_OR_QUEEN:
        return table["sovereign"]
    if clergy:
        return table["clergy_lord"] if lord.fief_titles else table["clergy"]
    return table["lord"] if lord.fief_titles else table["untitled"]


def record(state: FiefState) -> dict[str, Any]:
    """This module's part of the edition state: {"captives": [{"noble", "family", "ransom",
    "knights": [{"id", "kind"}]}]} in the order they were taken."""
    return state.edition_state.setdefault(KEY, {"captives": []})


def captives(state: FiefState) -> list[dict[str, Any]]:
    return list(state.edition_state.get(KEY, {}).get("captives", []))


@dataclass
class Crossing:
    """What a pass through Sherwood did to an army."""

    roll: int
    captured: bool
    paid: dict[str, int] = field(default_factory=dict)      # noble -> shillings paid
    held: list[str] = field(default_factory=list)           # nobles left captive in Sherwood
    deserted: list[str] = field(default_factory=list)       # unit ids gone to the bandits
    knights: list[str] = field(default_factory=list)        # unit ids staying with the captives
    guards: list[str] = field(default_factory=list)         # royal guard ids of the held, to the supply (13.1)
    events: list[Event] = field(default_factory=list)

    def goes_on(self, nobles: Iterable[str]) -> list[str]:
        """The nobles of the army still on their way."""
        return [n for n in nobles if n not in self.held]


def pass_sherwood(state: FiefState, rng: Rng, family: str, nobles: list[str], units: list[str],
                  table: Mapping[str, int], is_clergy: Callable[[Lord], bool],
                  path: tuple[str, str], capture: Iterable[int]) -> Crossing:
    """13.4: one army of ``family`` (its ``nobles`` in order, leader first, and unit ids) passes
    through Sherwood from path[0] to path[1]; the bandits capture it on a d6 in ``capture`` (the
    record's `dice.bandits_capture`: "On a 1 or 2 result"). Mutates ``state``: shillings paid, captives taken
    off the map, deserters returned to the stockpile. The caller moves on with
    ``Crossing.goes_on`` and the units left in the army."""
    roll = rng.d6("bandits")
    crossing = Crossing(roll, roll in set(capture))
    frm, to = path
    if not crossing.captured:
        crossing.events.append(Event("sherwood_passed", f"{family}'s army passes through Sherwood from {frm} to "
                                     f"{to}: the bandits' d6 rolls {roll}, no capture (13.4).",
                                     data={"family": family, "from": frm, "to": to, "roll": roll,
                                           "nobles": list(nobles)}))
        return crossing
    fam = state.families[family]
    for name in nobles:   # R61: in the army's order, leader first
        owed = ransom_of(state.lords[name], table, is_clergy(state.lords[name]))
        if owed <= fam.deniers:
            fam.deniers -= owed
            crossing.paid[name] = owed
        else:
            crossing.held.append(name)
    returned: list[Event] = []
    for name in crossing.held:   # 13.1: a captive's royal guard returns to the supply
        crossing.guards += guard.guard_of(state, name)
        returned += guard.remove(state, name, f"{name} is held by the bandits")
    units = [pid for pid in units if pid not in crossing.guards]
    free = [n for n in nobles if n not in crossing.held]
    if not free:   # 13.4: every noble captive: men-at-arms and archers desert, knights stay
        for pid in units:
            (crossing.knights if state.pawns[pid].kind in LOYAL else crossing.deserted).append(pid)
    knights = [{"id": pid, "kind": state.pawns[pid].kind} for pid in crossing.knights]
    for pid in crossing.deserted + crossing.knights:
        del state.pawns[pid]
    for i, name in enumerate(crossing.held):
        state.lords[name].location = None
        record(state)["captives"].append({"noble": name, "family": family,
                                          "ransom": ransom_of(state.lords[name], table,
                                                             is_clergy(state.lords[name])),
                                          "knights": knights if i == 0 else []})
    crossing.events += _capture_events(state, family, crossing, frm, to, free) + returned
    return crossing


def _capture_events(state: FiefState, family: str, crossing: Crossing, frm: str, to: str,
                    free: list[str]) -> list[Event]:
    parts = []
    if crossing.paid:
        one = len(crossing.paid) == 1
        parts.append(f"{', '.join(crossing.paid)} {'pays' if one else 'pay'} the ransom and "
                     f"{'goes' if one else 'go'} on")
    if crossing.held:
        parts.append(f"{', '.join(crossing.held)} cannot pay and {'is' if len(crossing.held) == 1 else 'are'} "
                     "held captive in Sherwood until the ransom is paid")
    if crossing.deserted:
        one = len(crossing.deserted) == 1
        parts.append(f"{len(crossing.deserted)} {'unit joins' if one else 'units join'} the bandits")
    if crossing.knights:
        parts.append(f"{len(crossing.knights)} knight{'s' if len(crossing.knights) != 1 else ''} "
                     "stay loyal with the captives")
    text = (f"{family}'s army passes through Sherwood from {frm} to {to}: the bandits' d6 rolls "
            f"{crossing.roll}, the bandits capture it; " + "; ".join(parts) + " (13.4).")
    events = [Event("sherwood_captured", text,
                    data={"family": family, "from": frm, "to": to, "roll": crossing.roll,
                          "ransomed": list(crossing.paid), "held": list(crossing.held),
                          "deserted": len(crossing.deserted), "knights": len(crossing.knights),
                          "goes_on": free})]
    if crossing.paid:   # shillings are secret (FAQ l.857): the sums and the purse to the family alone
        events.append(Event("sherwood_ransom_paid",
                            f"{family} pays the bandits {sum(crossing.paid.values())} shillings "
                            f"({', '.join(f'{n}: {v}' for n, v in crossing.paid.items())}); "
                            f"{state.families[family].deniers} left (13.4).",
                            Audience.only(family), {"family": family, "paid": dict(crossing.paid),
                                                    "left": state.families[family].deniers}))
    return events


def friendly_city(state: FiefState, board: Board, waters: Waters, family: str) -> str | None:
    """13.4, R63: "the nearest City friendly to them (a Controlled or Independent City, or with
    another Family Noble)": from Sherwood the bandit paths' cities are 1 Move away, then the
    roads; at one distance the board's order of cities decides. None if no city is friendly."""
    forces = forces_by_town(state)

    def friendly(city: str) -> bool:
        if any(lo.family == family and not lo.captive_of and lo.location == city for lo in state.lords.values()):
            return True
        owner = controller(state, board, city, forces)
        return owner == family or (owner is None and not any(not f.empty() for f in forces.get(city, {}).values()))

    order = list(board.towns)
    seen = set(waters.bandit_cities)
    layer = sorted(waters.bandit_cities, key=order.index)
    while layer:
        found = [c for c in layer if friendly(c)]
        if found:
            return found[0]
        nxt: set[str] = set()
        for c in layer:
            nxt |= {n for n in board.neighbours(c) if n not in seen}
        seen |= nxt
        layer = sorted(nxt, key=order.index)
    return None


def release(state: FiefState, board: Board, waters: Waters, noble: str, why: str) -> list[Event]:
    """Free a captive of the bandits into the nearest friendly city, with the knights held with
    them (R62). The caller has settled the ransom or the pigeon."""
    held = record(state)["captives"]
    entry = next(c for c in held if c["noble"] == noble)
    family = entry["family"]
    city = friendly_city(state, board, waters, family)
    if city is None:
        return [Event("sherwood_no_way_out", f"{noble} ({family}) stays in Sherwood: no city is friendly to "
                      f"{family} to go to (13.4).", data={"noble": noble, "family": family})]
    held.remove(entry)
    state.lords[noble].location = city
    knights = list(entry["knights"])
    others = [c for c in held if c["family"] == family]
    if others and knights:   # R62: the knights stay with the family's nobles still held
        others[0]["knights"] = knights + others[0]["knights"]
        knights = []
    for k in knights:
        state.pawns[k["id"]] = Pawn(k["id"], k["kind"], family, city)
    if not held:
        state.edition_state.pop(KEY, None)
    text = f"{noble} ({family}) is freed from Sherwood {why} and goes to {city}"
    if knights:
        text += f" with {len(knights)} knight{'s' if len(knights) != 1 else ''}"
    events = [Event("sherwood_freed", text + " (13.4).",
                    data={"noble": noble, "family": family, "city": city, "how": why, "knights": len(knights)})]
    town = state.towns[city]
    if town.controller is None:   # 5.1: an Independent City is controlled once occupied
        events += set_controller(state, board, city, family, noble, why="a noble freed from Sherwood arrives")
    elif family not in town.arrivals:
        town.arrivals.append(family)
    return events


def _forget_the_gone(state: FiefState) -> None:
    """A held noble who left play meanwhile (10.4: JUSTICE) is no longer held: the knights held
    with him stay with his family's nobles still held (R62), else go back to the supply."""
    held = record(state)["captives"]
    for entry in [c for c in held if c["noble"] not in state.lords]:
        held.remove(entry)
        others = [c for c in held if c["family"] == entry["family"]]
        if others:
            others[0]["knights"] = list(entry["knights"]) + others[0]["knights"]
    if not held:
        state.edition_state.pop(KEY, None)


def pay_ransoms(state: FiefState, board: Board, waters: Waters) -> list[Event]:
    """13.4: "Once a Ransom is paid at the beginning of Phase 4 - Purchasing, a Noble is freed":
    each family pays for its captives, in the order they were taken, while its shillings last
    (R61). The public event names the freed; the sum and the purse go to the family alone."""
    events: list[Event] = []
    _forget_the_gone(state)
    for entry in captives(state):
        fam = state.families[entry["family"]]
        if entry["ransom"] > fam.deniers or friendly_city(state, board, waters, entry["family"]) is None:
            continue
        fam.deniers -= entry["ransom"]
        events += release(state, board, waters, entry["noble"], "by ransom")
        events.append(Event("sherwood_ransom_paid", f"{entry['family']} pays the bandits {entry['ransom']} "
                            f"shillings for {entry['noble']}; {fam.deniers} left (13.4).",
                            Audience.only(entry["family"]),
                            {"family": entry["family"], "paid": {entry["noble"]: entry["ransom"]},
                             "left": fam.deniers}))
    return events


def units_off_map(state: FiefState, family: str) -> dict[str, int]:
    """The core's ``units_off_map`` hook: the family's knights held in Sherwood with its nobles
    (13.4, R62) are not back in its stockpile."""
    out: dict[str, int] = {}
    for entry in captives(state):
        if entry["family"] == family:
            for k in entry["knights"]:
                out[k["kind"]] = out.get(k["kind"], 0) + 1
    return out


def purchase_start(state: FiefState, board: Board) -> list[Event]:
    """The core's ``purchase_start`` hook: the bandits' ransoms of 13.4, before anyone buys."""
    return pay_ransoms(state, board, waters_of(EnglandBoard.of(board)))


def view(state: FiefState) -> dict[str, Any]:
    """What every player sees of Sherwood: who the bandits hold, and for what ransom (the table
    is public, the standees lie on Sherwood), under the view's key `sherwood`."""
    held = [{"noble": c["noble"], "family": c["family"], "ransom": c["ransom"], "knights": len(c["knights"])}
            for c in captives(state)]
    return {"sherwood": held} if held else {}


def interdiction_problem(state: FiefState, by: str, noble: str) -> str | None:
    """13.4 "King's Interdiction": why the noble ``by`` may not free ``noble`` now, or None."""
    lord = state.lords.get(by)
    if lord is None or lord.political not in KING_OR_QUEEN:
        return f"only the King or Queen frees a captive of the bandits with a carrier pigeon (13.4); {by} is neither"
    if lord.captive_of or lord.location is None:
        return f"{by} is a captive and cannot send a pigeon"
    if not any(c["noble"] == noble for c in captives(state)):
        return f"{noble} is not a captive of the bandits in Sherwood"
    return None


def interdiction(state: FiefState, board: Board, waters: Waters, by: str, noble: str) -> list[Event]:
    """13.4: the King or Queen ``by`` sets ``noble`` free at once (the caller spends the pigeon)."""
    why = interdiction_problem(state, by, noble)
    if why:
        raise ValueError(why)
    return release(state, board, waters, noble, f"by {by}'s carrier pigeon (King's Interdiction)")
