"""England's Movement Phase on the core's (E 5.0-5.5, 13.4): ``EnglandRun`` is the core's
``MovementRun`` (movement/phase.py) with England's steps, and ``MOVEMENT`` the core's
``movement`` hook that makes it England's.

A move's path (path.py) is made of steps the core knows - a road to a city - and England's own:
- a naval move, every sea sailed into and the port landed at, made as one step of as many Moves
  as seas (5.4), by forces that began the round in the port (naval.py);
- a bandit path through Sherwood to another of its cities, one Move, with the bandits' d6 on the
  way (13.4, sherwood.py);
- the royal move (`royal: yes`, R50): a noble of the Royal Family (with their guards) or of its
  families (without troops) to the Royal Abbey or the Royal Stronghold, both Moves (royal.py).
Around every step, England's permission (5.0, permission.py): entering a city with another
family's Stronghold, Fortified City, Royal Stronghold or Abbey needs its leave (the standing
`safe_passage` policy) even for an ally, or the army waits in the Outskirts; opponents who
entered a city this round close the road they came by to the armies there; troops that moved
with one noble do not move again with another. A cavalcade refused passage through a defended
fortress rides through unless the defender comes out (cavalcade.py, R65).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.hooks import Movement
from pbem.games.fief.movement.army import Army, StepBudget
from pbem.games.fief.movement.control import left_town
from pbem.games.fief.movement.events import MoveLog, kinds_of
from pbem.games.fief.movement.hooks import BeforeMove, CavalcadeResolver
from pbem.games.fief.movement.phase import MovementRun
from pbem.games.fief.movement.presence import Place, road_place
from pbem.games.fief.movement.steps import town_of
from pbem.games.fief.movement.underground import ALWAYS, BY, IF_NEEDED, mode_for
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england import retainers
from pbem.games.fief_england.movement import cavalcade, naval, permission, royal, sherwood
from pbem.games.fief_england.movement.passage import PASSAGE
from pbem.games.fief_england.movement.path import LAND, ROAD, SEA, SHERWOOD, Leg, PathProblem, moves_of, read_path
from pbem.games.fief_england.board_loader import EnglandBoard
from pbem.games.fief_england.battle import siege
from pbem.games.fief_england.church import relics
from pbem.games.fief_england.royal import guard
from pbem.games.fief_england.movement.waters import Waters, waters_of
from pbem.games.fief_england.regions import storm_regions
from pbem.rules.rng import Rng

ROYAL_KEY = "royal"
TREBUCHET = "trebuchet"


def abbey_owners(state: FiefState) -> dict[str, str]:
    """2.13: city -> the family of its Abbey's Abbess (the Church's `abbeys` record; an Abbey
    whose Abbess died is no one's to guard)."""
    out: dict[str, str] = {}
    for city, abbey in state.edition_state.get("abbeys", {}).items():
        abbess = state.lords.get(abbey.get("abbess") or "")
        if abbess is not None:
            out[city] = abbess.family
    return out


def royal_places(state: FiefState) -> list[str]:
    """2.13, 4.9: the cities of the Royal Abbey (the Church's `abbeys` record, `royal: true`)
    and of the Royal Stronghold (the Crown's `royal_stronghold` record, its `city`)."""
    places = [c for c, a in state.edition_state.get("abbeys", {}).items() if a.get("royal")]
    city = (state.edition_state.get("royal_stronghold") or {}).get("city")
    return places + ([city] if city else [])


def is_clergy(state: FiefState, lord: Lord) -> bool:
    """A Bishop or Archbishop (the core's ``Lord.bishopric``) or an Abbess (the Church's record)."""
    return lord.bishopric is not None or lord.name in state.edition_state.get("church", {}).get("abbesses", {})


def _steps(legs: list[Leg]) -> list[tuple[str, str, tuple[str, ...]]]:
    """The run's steps of a path: (kind, city reached, seas sailed through); a voyage is one
    step to its port."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    seas: list[str] = []
    for leg in legs:
        if leg.kind == SEA:
            seas.append(leg.place)
        elif leg.kind == LAND:
            out.append((SEA, leg.place, tuple(seas)))
            seas = []
        else:
            out.append((leg.kind, leg.place, ()))
    return out


class _Budget(StepBudget):
    """The core's Moves a round, and 5.0: "Once Troops have moved with a Noble, they cannot be
    picked up and moved again by a different Noble"."""

    def __init__(self, state: FiefState):
        super().__init__(state)
        self.moved_with: dict[str, str] = {}   # unit id -> the noble it moved with this round
        self.noble: str | None = None          # the noble whose move is being made

    def can_step(self, member: str, army_steps: int | None) -> bool:
        first = self.moved_with.get(member[2:]) if member.startswith("P:") else None
        if first is None and member.startswith("P:") and self.state.rules_version >= 3 \
                and self.state.pawns[member[2:]].kind == TREBUCHET:
            return False   # 4.0 (l.294), 7.2 (l.473): "Trebuchets can not move from the City they were built in"
        return (first is None or first == self.noble) and super().can_step(member, army_steps)

    def army_steps(self, army: Army) -> int | None:
        """2.12, 5.0: a retainer's `extra_moves` gives its noble's army, and the units moving
        with it, that many more Moves (as the core's title bonus does)."""
        base = super().army_steps(army)
        extra = max((retainers.extra_moves(self.state, n) for n in army.all_lords() if n in self.state.lords),
                    default=0)
        return max(base or 0, self.edition.steps_per_round + extra) if extra else base

    def limit(self, member: str, army_steps: int | None) -> int:
        limit = super().limit(member, army_steps)
        if member.startswith("L:") and member[2:] in self.state.lords:
            limit = max(limit, self.edition.steps_per_round + retainers.extra_moves(self.state, member[2:]))
        return limit


class EnglandRun(MovementRun):
    """One of England's Movement Phases."""

    def __init__(self, state: FiefState, board: Board, rng: Rng, cavalcade: CavalcadeResolver | None = None,
                 before_move: BeforeMove | None = None):
        super().__init__(state, board, rng, cavalcade, before_move)
        self.waters: Waters = waters_of(EnglandBoard.of(board))
        self.storms = storm_regions(state)   # 2.5, 5.5
        self.abbeys = abbey_owners(state)
        extra = edition_of(state).extra
        self.budget: _Budget = _Budget(state)
        self.ransoms = extra["bandit_ransom"]                 # 13.4
        self.capture = extra["dice"]["bandits_capture"]       # 13.4: "On a 1 or 2 result"
        self.royal_cost = extra["moves"]["royal_to_abbey_or_stronghold"]   # 4.9, 5.0
        self.naval_seas = extra["moves"]["naval_seas"]        # 5.4: "one or two contiguous Sea Regions"
        self.edition_steps = edition_of(state).steps_per_round   # 5.0: 2 Moves
        self.entered: dict[str, list[tuple[str, str]]] = {}   # city -> (family, came from), this round
        self.plan: list[tuple[str, str, tuple[str, ...]]] = []
        self.stepped: set[str] = set()                        # unit ids moved by the current move
        self.landed: str | None = None                        # the port the current move's voyage reached
        self.ways: list[str] = []   # how the current move went (by sea, Sherwood...): public, unlike notes

    # -- a noble's move ------------------------------------------------------------------------
    def move(self, player: str, order: Mapping[str, Any], forced: bool = False) -> None:
        lord = self.state.lords.get(order["lord"])
        if order.get(ROYAL_KEY):
            self._royal(player, order)
            return
        path: list[str] = list(order["path"])
        self.plan = []
        if lord is not None and lord.location is not None and lord.family == player and not lord.captive_of:
            start = town_of(self.presence.where["L:" + lord.name])
            legs = read_path(self.board, self.waters, start, path, self.naval_seas)
            if isinstance(legs, PathProblem):   # the noble is not where the mail was written for
                self._failed(player, lord.name, legs.problem)
                return
            self.plan = _steps(legs)
            path = [city for _, city, _ in self.plan]
        self.stepped, self.ways, self.landed = set(), [], None
        self.budget.noble = order["lord"]
        super().move(player, {**order, "path": path}, forced)
        for pid in self.stepped:   # 5.0: they do not move again with another noble
            self.budget.moved_with.setdefault(pid, order["lord"])
        self._besiegers_gone()
        self._retainer_used([order["lord"], *(order.get("lords") or [])])

    def _besiegers_gone(self) -> None:
        """7.9 (R152): a siege whose last besieging noble moved away is lifted and its trebuchets
        return to the stockpile."""
        events, gone = siege.besiegers_gone(self.state)
        for pid in gone:
            self.presence.remove("P:" + pid)
        self.teller.add(events)

    def _retainer_used(self, nobles: list[str]) -> None:
        """2.12: a retainer whose `extra_moves` the move needed (a noble of it made more Moves
        than the edition's) is used: Spent, or removed if used once."""
        here = [n for n in nobles if n in self.state.lords]
        if not any(self.state.lords[n].steps > self.edition_steps for n in here):
            return
        giver = max(here, key=lambda n: retainers.extra_moves(self.state, n), default=None)
        if giver is not None and retainers.extra_moves(self.state, giver):
            self.teller.add(retainers.use(self.state, giver))

    def _step(self, army: Army, order: Mapping[str, Any], target: str, log: MoveLog,
              done: set[str]) -> tuple[str, str] | None:
        kind, _, seas = self.plan.pop(0) if self.plan else (ROAD, target, ())
        if kind == ROAD:
            return super()._step(army, order, target, log, done)
        cur = town_of(army.place)
        army_steps = self.budget.army_steps(army)
        if not self.budget.can_step("L:" + army.leader, army_steps):
            return "cut_short", f"{army.leader} has no Move left this round (5.0)"
        first = army.place[0] == "town" and army.steps == 0
        if kind == SEA:
            return self._voyage(army, order, cur, target, seas, log, done, first)
        return self._sherwood(army, order, cur, target, log, done, first)

    def _advance(self, army: Army, order: Mapping[str, Any], cur: str, target: str,
                 log: MoveLog, back: bool = False, underground: bool = False) -> None:
        self.stepped.update(army.pawns)
        super()._advance(army, order, cur, target, log, back, underground)
        if army.place == ("town", target):   # 12.0, R119: a cleric moving into the city, not its Outskirts
            for name in army.all_lords():
                self.teller.add(relics.discover(self.state, self.board, name))

    # -- 5.4: a naval move ---------------------------------------------------------------------
    def _voyage(self, army: Army, order: Mapping[str, Any], cur: str, port: str, seas: tuple[str, ...],
                log: MoveLog, done: set[str], first: bool) -> tuple[str, str] | None:
        members = army.all_lords()
        moved = [n for n in members if self.state.lords[n].steps] + \
            [pid for pid in army.pawns if self.state.pawns[pid].steps]
        arrived = [f for f, _ in self.entered.get(cur, [])]
        legs = [Leg(SEA, s, 1) for s in seas]
        why = naval.sail_problem(self.state, self.waters, army.family, cur, legs, moved, self.storms, arrived)
        refused = self._crossing(army, cur, port, first)   # 7.9: out of a besieged port, the besiegers' leave
        if refused and not why:
            why = self._tell_refusal(army, refused, cur, port, first)
        # 5.4: only forces that began the round in the port sail; no PASSAGE helps
        stranded = naval.sail_problem(self.state, self.waters, army.family, cur, legs, moved, set(), [])
        if stranded:
            return "cut_short", why or stranded
        # 10.2: "If any of these moves are from a Port City, a Naval Move (5.4) may be made"
        mode = mode_for(order, port, PASSAGE.key)
        if not why and mode == IF_NEEDED:
            why = self._entry_refused(army, port)
            mode = mode if why else None
        carded = bool(mode) and (bool(why) or mode == ALWAYS) and \
            PASSAGE.play(self, army, cur, port, first, why or "as ordered",
                         (order.get(PASSAGE.key) or {}).get(BY, "card"))
        if why and not carded:
            return ("refused", why) if refused else ("cut_short", why)
        army_steps = self.budget.army_steps(army)
        left = self.budget.limit("L:" + army.leader, army_steps) - self.budget.made("L:" + army.leader)
        if left < len(seas):
            return "cut_short", f"the naval move through {len(seas)} seas needs {len(seas)} Moves (5.4)"
        if not first:
            self._drop_and_pick(army, order, cur, log, done, leave=True)
        self._advance(army, order, cur, port, log, underground=carded)
        self.landed = port
        for _ in seas[1:]:   # 5.4: "Each move into a new Sea counts as one move"
            for m in ["L:" + n for n in army.carried_lords()] + ["P:" + p for p in army.pawns]:
                self.budget.step(m, army_steps)
            army.steps += 1
        moves = f"{len(seas)} Move{'s' if len(seas) > 1 else ''}"
        self.ways.append(f"by {', '.join(map(self.waters.name, seas))} ({moves}, 5.4)")
        return self._after_step(army, port)

    # -- 13.4: through Sherwood ----------------------------------------------------------------
    def _sherwood(self, army: Army, order: Mapping[str, Any], cur: str, target: str, log: MoveLog,
                  done: set[str], first: bool) -> tuple[str, str] | None:
        refused = self._crossing(army, cur, target, first)
        if refused:   # 5.2: a cavalcade is fought on a road; onto a bandit path the army goes back or stays
            mode = order.get("if_refused", "back")
            return self._refused(army, {**order, "if_refused": "stay" if mode == "cavalcade" else mode},
                                 refused, cur, target, first, log, done)
        if not first:
            self._drop_and_pick(army, order, cur, log, done, leave=True)
        crossing = sherwood.pass_sherwood(self.state, self.rng, army.family, army.all_lords(), list(army.pawns),
                                          self.ransoms, lambda lo: is_clergy(self.state, lo), (cur, target),
                                          self.capture)
        self.teller.add(crossing.events)
        for name in crossing.held:
            self.presence.remove("L:" + name)
        for pid in crossing.deserted + crossing.knights + crossing.guards:
            self.presence.remove("P:" + pid)
            army.pawns.remove(pid)
        free = crossing.goes_on(army.all_lords())
        if not free:
            army.captives.clear()   # carried captives stay where they were, with no jailer to go on
            if army.place[0] == "town":
                self.teller.add(left_town(self.state, self.board, self.presence, cur, army.family, []))
            return "captured", f"held by the bandits in Sherwood on the way to {target} (13.4)"
        army.leader, army.lords = free[0], free[1:]
        self._advance(army, order, cur, target, log)
        self.ways.append(f"through Sherwood, the bandits' d6 rolled {crossing.roll} (13.4)")
        return self._after_step(army, target)

    # -- 5.0: England's permission -------------------------------------------------------------
    def _arrive(self, fam: str, members: list[str], cur: str, target: str, leader: str | None,
                direct: bool = False) -> Place:
        owner = None if direct else permission.entry_refused(self.state, target, fam, self.abbeys)
        self.entered.setdefault(target, []).append((fam, cur))
        if owner is None:
            return super()._arrive(fam, members, cur, target, leader, direct)
        for m in members:   # "If not granted access, the Troops remain in the City Outskirts"
            if m.startswith("L:"):
                self.state.lords[m[2:]].location = target
            else:
                self.state.pawns[m[2:]].location = target
            self.presence.put(m, fam, road_place(cur, target))
        self.teller.private("entry_refused", [fam, owner],
                            f"{owner} refused {fam}'s army entry into {target}, whose fortress or abbey is "
                            f"{owner}'s: it waits in the Outskirts (5.0; standing policy `safe_passage`).",
                            {"family": fam, "refused_by": owner, "city": target})
        return road_place(cur, target)

    def _entry_refused(self, army: Army, target: str) -> str | None:
        """5.0: the owner of the city's fortress or Abbey refusing the army entry, for a PASSAGE
        played `if_needed` (10.2: "locals helping you into an Opponent's Fortification")."""
        owner = permission.entry_refused(self.state, target, army.family, self.abbeys)
        return None if owner is None else \
            f"{owner} refuses {army.family}'s army entry into the fortress or Abbey of {target} (5.0)"

    def _crossing(self, army: Army, cur: str, target: str, first: bool) -> list[tuple[str, str]]:
        refused = super()._crossing(army, cur, target, first)
        if not first:   # passing through ``cur``: its controller's leave alone (FAQ l.876, R149)
            refused = permission.asked_in_city(self.state, cur, refused, self.presence.families_on_road(cur, target))
        for other in permission.exit_refused(self.state, cur, army.family, target, self.entered.get(cur, [])):
            if (other, "safe_passage") not in refused:   # 5.0: the road the opponents came by
                refused.append((other, "safe_passage"))
        return refused

    def _refused(self, army: Army, order: Mapping[str, Any], refused: list[tuple[str, str]], cur: str,
                 target: str, first: bool, log: MoveLog, done: set[str],
                 told: bool = False) -> tuple[str, str] | None:
        if order.get("if_refused", "back") in ("back", "stay") and not first and cur == self.landed \
                and self.state.rules_version >= 3:
            return self._stays_at_port(army, refused, cur, target, told, order.get("if_refused", "back") == "back")
        if order.get("if_refused") == "cavalcade" and not any(p == "besieged_may_leave" for _, p in refused):
            passes, fighters = cavalcade.through_fortress(self.state, cur, [f for f, _ in refused])
            if passes:   # 5.2: through a defended fortress the cavalcade rides on (R65)
                if not told:
                    self._tell_refusal(army, refused, cur, target, first)
                self.ways.append(f"the cavalcade rides through {cur}: its defenders stay in their fortress (5.2)")
                if not first:
                    self._drop_and_pick(army, order, cur, log, done, leave=True)
                self._advance(army, order, cur, target, log)
                return None
            refused = [(f, p) for f, p in refused if f in fighters]
        return super()._refused(army, order, refused, cur, target, first, log, done, told)

    def _stays_at_port(self, army: Army, refused: list[tuple[str, str]], port: str, target: str,
                       told: bool, back: bool) -> tuple[str, str]:
        """5.4 (l.383, R151): refused the way on from the port it landed at, the army "remains in
        the City's 'Port' Outskirts" (or in the port, if it holds it): going back would be a naval
        move from a port it did not begin the round in (l.381)."""
        if not told:
            self._tell_refusal(army, refused, port, target, False)
        where = f"the Port Outskirts of {port}" if army.place[0] == "road" else port
        why = ": sailing back would be a naval move from a port the army did not begin the round in" if back else ""
        return "stopped", (f"safe passage towards {target} refused ({self.cite('5.2.3.1')}); {army.leader} "
                           f"stays in {where}{why} (5.4)")

    def _summary(self, army: Army, log: MoveLog, outcome: str, reason: str, forced: bool) -> None:
        """The core's report line of a move, with how it went (by sea, through Sherwood, the
        royal move): public, as the standees are (the core keeps its notes for the owner, since
        they may name unit kinds)."""
        before = len(self.teller.events)
        super()._summary(army, log, outcome, reason, forced)
        if self.ways:
            ways = "; " + "; ".join(self.ways)
            events = self.teller.events
            events[before:] = [dataclasses.replace(e, text=e.text[:-1] + ways + ".") for e in events[before:]]

    # -- R50: the royal move -------------------------------------------------------------------
    def _royal(self, player: str, order: Mapping[str, Any]) -> None:
        name, dest = order["lord"], order["path"][-1]
        lord = self.state.lords.get(name)
        if lord is None or lord.location is None or lord.family != player or lord.captive_of:
            super().move(player, {**order, "path": []})   # the core's reason it cannot move
            return
        place = self.presence.where["L:" + name]
        guard_kinds = edition_of(self.state).hooks.royal_guard
        own = set(guard.guard_of(self.state, name))   # 13.1: his own guard, never another's (the Prince Consort's too)
        guards = [m[2:] for m in self.presence.members_at(place, player) if m.startswith("P:") and m[2:] in own]
        why = royal.royal_move_problem(self.state, name, dest, royal_places(self.state), guards, guard_kinds,
                                       self.royal_cost)
        if why:
            self._failed(player, name, why)
            return
        mark = len(self.teller.events)
        self.ways, self.budget.noble = [], name
        army = Army(player, name, place, pawns=guards)
        log = MoveLog(town_of(place))
        log.units = kinds_of(self.state, guards)
        self._advance(army, order, town_of(place), dest, log)
        for m in ["L:" + name] + ["P:" + p for p in guards]:   # R50: both Moves
            while self.budget.can_step(m, None):
                self.budget.step(m, None)
            if m.startswith("P:"):
                self.budget.moved_with.setdefault(m[2:], name)
        self.ways.append(f"the royal move, {self.royal_cost} Moves (5.0, R50)")
        before = len(self.teller.events)
        self._summary(army, log, "completed", "", False)
        events = self.teller.events
        summary = events[before:]
        del events[before:]
        events[mark:mark] = summary


def read_england_path(board: Board, start: str, raw: list[Any],
                      flags: frozenset[str]) -> tuple[list[str], int] | tuple[int, str, str]:
    """The core's ``Movement.read_path``: (canonical path, Moves) or (index, problem, fix)."""
    waters = waters_of(EnglandBoard.of(board))
    moves = load_edition(board.variant).extra["moves"]   # 4.9, 5.4
    if ROYAL_KEY in flags:   # R50: the path names the Royal Abbey's or Royal Stronghold's city
        city = board.find_town(raw[-1]) if len(raw) == 1 and isinstance(raw[0], str) else None
        if city is None:
            return (0, "a royal move's path is the one city of the Royal Abbey or the Royal Stronghold (5.0, R50)",
                    "write e.g. `path: [Winchester]` with `royal: yes`")
        return [city], moves["royal_to_abbey_or_stronghold"]
    legs = read_path(board, waters, start, raw, moves["naval_seas"])
    if isinstance(legs, PathProblem):
        return legs.index, legs.problem, legs.fix
    path: list[str] = []
    for leg in legs:
        path += [waters.name(leg.place)] if leg.kind == SEA else \
            [waters.forest, leg.place] if leg.kind == SHERWOOD else [leg.place]
    return path, moves_of(legs)


MOVEMENT = Movement(
    run=EnglandRun, read_path=read_england_path, keys=(ROYAL_KEY,), card=PASSAGE,   # 10.2
    extra_moves=retainers.moves_seen,   # 2.12
    fixed_units=(TREBUCHET,), fixed_section="7.2, R152",   # l.473: "Trebuchets can not move"
    template=("# England (5.4, 13.4): a path may sail from the port the army began the round in, naming",
              "# each sea sailed into (1 Move each) and the port landed at: `path: [Sea V, King's Lynn]`;",
              "# or cross Sherwood between York, Lincoln, King's Lynn and Nottingham for 1 Move:",
              "# `path: [Sherwood, King's Lynn]` (a d6: 1-2 the bandits capture the army, 13.4).",
              "# `royal: yes` with `path: [CITY]`: the royal move to the Royal Abbey or Stronghold (R50).",
              "# `passage: CITY` plays a PASSAGE on the step reaching CITY (10.2): through STORMS, out of a",
              "# siege, through a city or into a fortress without leave; `passage: if_needed` only where the",
              "# step would be stopped; `{others: if_needed, by: burgher}`: your BURGHER's (a Treasure)."))
