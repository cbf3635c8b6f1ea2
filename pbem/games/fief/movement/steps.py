"""The steps an army makes in the Movement Phase (5.1.1): what the run of a phase holds, an
army advancing one step and placed in the town or on the road (5.2.1, 5.2.2), forces left and
picked up on the way (5.1.1), an underground card's step (G.4.2.2), a plagued bishopric entered
(G.2.1.3). movement/phase.py's MovementRun is made of these and movement/passage.py.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.edition import edition_of
from pbem.games.fief.board import Board
from pbem.games.fief.movement.army import Army, StepBudget, guard_follows, pick_pawns
from pbem.games.fief.movement.control import enter_town, left_town, may_enter
from pbem.games.fief.movement.disasters import bishoprics_with, enters_plague, place_text, plagued_places, strike
from pbem.games.fief.movement.events import MoveLog, Teller, kinds_of, units_text, where_text
from pbem.games.fief.movement.hooks import BeforeMove, CavalcadeResolver
from pbem.games.fief.movement.presence import Place, Presence, road_place, town_place
from pbem.games.fief.movement.underground import BY, move_card
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event
from pbem.rules.rng import Rng


class Run:
    """What one Movement Phase's run holds, and the steps of an army."""

    def __init__(self, state: FiefState, board: Board, rng: Rng, cavalcade: CavalcadeResolver | None,
                 before_move: BeforeMove | None = None):
        self.state, self.board, self.rng, self.cavalcade = state, board, rng, cavalcade
        self.cite = edition_of(state).cite   # the core cites France's sections: the edition's numbering
        self.before_move = before_move
        self.presence = Presence.build(state)
        self.budget = StepBudget(state)
        self.teller = Teller(state)
        self.bad_weather = bishoprics_with(state, "bad_weather")
        self.plagued = plagued_places(state, board)   # the seas too (France: offshore, 2.5, ruling 41)
        self.gone_kinds: dict[str, str] = {}   # kinds of pawns lost on the way, for the reports

    def _forget_fallen(self) -> None:
        """After a cavalcade (5.2.4): pawns and lords the battle eliminated or made captive are
        no longer forces on the board (captives move only with their jailer, 6.3)."""
        for member in list(self.presence.where):
            kind, key = member[:2], member[2:]
            if kind == "P:" and key not in self.state.pawns:
                self.presence.remove(member)
            elif kind == "L:" and (key not in self.state.lords or self.state.lords[key].captive_of):
                self.presence.remove(member)

    def _drop_and_pick(self, army: Army, order: Mapping[str, Any], town: str, log: MoveLog,
                       done: set[str], leave: bool) -> None:
        """Forces left in or picked up from ``town`` while passing through it (5.1.1)."""
        if town in done:
            return
        done.add(town)
        fam = army.family
        if leave and town in (order.get("leave") or {}):
            wanted = order["leave"][town]
            pool = [pid for pid in army.pawns if not guard_follows(
                self.state, self.state.pawns[pid], army.all_lords())]
            drop = _select(self.state, pool, wanted)
            for pid in drop:
                army.pawns.remove(pid)
                self.presence.put("P:" + pid, fam, town_place(town))
                self.state.pawns[pid].location = town
            if drop:
                self.teller.add(enter_town(self.state, self.board, self.presence, town, fam, None)
                                if may_enter(self.state, self.board, self.presence, town, fam)
                                else self._join_arrivals(town, fam))
                log.left[town] = kinds_of(self.state, drop)
        if town in (order.get("pick_up") or {}):
            army_steps = self.budget.army_steps(army)
            taken, short = pick_pawns(self.state, self.presence, self.budget, town_place(town), fam,
                                      order["pick_up"][town], army_steps, set(army.pawns))
            if taken:
                army.pawns += taken
                log.picked[town] = kinds_of(self.state, taken)
            for kind, n in short.items():
                log.notes.append(f"{units_text(edition_of(self.state), {kind: n})} to pick up in {town} could not come "
                                 "(not there, or no step left)")

    def _join_arrivals(self, town: str, fam: str) -> list[Event]:
        arrivals = self.state.towns[town].arrivals
        if fam not in arrivals:
            arrivals.append(fam)
        return []

    def _underground(self, army: Army, order: Mapping[str, Any], cur: str, target: str, first: bool,
                     log: MoveLog, done: set[str], why: str) -> bool:
        """G.4.2.2: the step to ``target`` made by an underground card (the edition's: England's
        PASSAGE, 10.2), if one is still in hand: the army leaves (or passes through) ``cur``
        crossing nobody, ignoring bad weather, and is placed directly in ``target``: 1 step.
        False (the player told why) without a card."""
        card = move_card(edition_of(self.state))
        if not card.play(self, army, cur, target, first, why, (order.get(card.key) or {}).get(BY, card.sources[0])):
            return False
        if not first:
            self._drop_and_pick(army, order, cur, log, done, leave=True)
        self._advance(army, order, cur, target, log, underground=True)
        return True

    def _advance(self, army: Army, order: Mapping[str, Any], cur: str, target: str,
                 log: MoveLog, back: bool = False, underground: bool = False) -> None:
        """Move the army one step from ``cur`` to ``target`` (land or naval); members with no
        step left stay where they are. ``underground``: the card places it in the town
        (G.4.2.2)."""
        army_steps = self.budget.army_steps(army)
        fam = army.family
        for pid in list(army.pawns):
            if not self.budget.can_step("P:" + pid, army_steps):
                army.pawns.remove(pid)
                alone = units_text(edition_of(self.state), {self.state.pawns[pid].kind: 1})
                log.notes.append(f"{alone} has no step left and stays {where_text(army.place, self.board.seas)}")
        for other in list(army.lords) + list(army.captives):
            if not self.budget.can_step("L:" + other, army_steps):
                (army.lords if other in army.lords else army.captives).remove(other)
                log.notes.append(f"{other} has no step left and stays {where_text(army.place, self.board.seas)}")
        members = ["L:" + n for n in army.all_lords()] + ["P:" + p for p in army.pawns]
        for m in members + ["L:" + c for c in army.captives]:
            self.budget.step(m, army_steps)
        army.steps += 1
        if cur in self.board.seas or target in self.board.seas:
            army.naval = True
        for c in army.captives:
            self.state.lords[c].location = target
        # Towns some of these forces leave: the start town, a town passed through, or one where
        # forces were just picked up (5.2.2: control may change hands when a family leaves).
        towns_left = {self.presence.where[m][1] for m in members if self.presence.where[m][0] == "town"}
        for m in members:   # on the road (or the sea lane) while the step is made
            self.presence.put(m, fam, road_place(cur, target))
        for town in sorted(towns_left):
            self.teller.add(left_town(self.state, self.board, self.presence, town, fam, _preferences(order, town)))
        army.came_from = cur
        army.underground = underground
        army.place = self._arrive(fam, members, cur, target, army.leader, direct=underground)
        log.steps.append((target, army.place[0] == "road", back))
        if underground:
            log.underground.append(len(log.steps) - 1)
        weather = edition_of(self.state).hooks.weather
        if weather is not None:   # the edition's own (England: PLAGUE by Region, 2.5, R22)
            self._edition_plague(army, weather.enter, cur, target)
            return
        number = enters_plague(self.board, self.plagued, cur, target)
        if number is not None:
            self._plague(army, number, log)

    def _arrive(self, fam: str, members: list[str], cur: str, target: str, leader: str | None,
                direct: bool = False) -> Place:
        """5.2.1: placed in the town if it is empty or the family controls it (taking control
        if appropriate, 5.2.2); otherwise on the road it came by, out of the town for now.
        ``direct`` (an underground card, G.4.2.2): "directly placed in" the town, next to the
        town space when another family holds it - it came by no road to wait on."""
        for m in members:
            if m.startswith("L:"):
                self.state.lords[m[2:]].location = target
            else:
                self.state.pawns[m[2:]].location = target
        if direct or may_enter(self.state, self.board, self.presence, target, fam):
            for m in members:
                self.presence.put(m, fam, town_place(target))
            self.teller.add(enter_town(self.state, self.board, self.presence, target, fam, leader))
            return town_place(target)
        return road_place(cur, target)

    def _after_step(self, army: Army, target: str) -> tuple[str, str] | None:
        if target in self.board.seas:
            sea = edition_of(self.state).words["sea"]   # the edition's `words:` (France: the offshore area)
            return "at_sea", f"the movement of an army ends as soon as it enters {sea} ({self.cite('5.3')})"
        if army.leader not in self.state.lords:
            return "eliminated", f"{army.leader} was eliminated on the way ({self.cite('5.1.1')})"
        return None

    def _edition_plague(self, army: Army, enter, cur: str, target: str) -> None:
        kinds = {pid: self.state.pawns[pid].kind for pid in army.pawns}
        self.teller.add(enter(self.state, self.board, self.rng, cur, target, army.family, army.carried_lords(),
                              list(army.pawns)))
        lost = [pid for pid in army.pawns if pid not in self.state.pawns]
        dead = [name for name in army.carried_lords() if name not in self.state.lords]
        self._struck(army, lost, dead, kinds)

    def _plague(self, army: Army, number: int | str, log: MoveLog) -> None:
        kinds = {pid: self.state.pawns[pid].kind for pid in army.pawns}
        dead, lost, events = strike(self.state, self.board, self.rng, number, army.carried_lords(),
                                    army.pawns, army.family)
        for e in events:
            if e.kind == "plague_troop":
                n = len(e.data["lost"])
                self.teller.public(e.kind, army.family, e.text,
                                   f"Plague in {place_text(number)}: {army.family}'s army loses {n} "
                                   f"unit pawn{'s' if n != 1 else ''} ({self.cite('G.2.1.2')}).",
                                   {"family": army.family, "bishopric": number,
                                    "lost": {"hidden": n} if self.teller.fog else kinds_of(self.state, lost, kinds)})
            else:
                self.teller.add([e])
        self._struck(army, lost, dead, kinds)

    def _struck(self, army: Army, lost: list[str], dead: list[str], kinds: dict[str, str]) -> None:
        """The pawns and lords a plague took leave the army (and the town, if none is left)."""
        for pid in lost:
            self.gone_kinds[pid] = kinds[pid]
            self.presence.remove("P:" + pid)
            army.pawns.remove(pid)
        for name in dead:
            self.presence.remove("L:" + name)
            for group in (army.lords, army.captives):
                if name in group:
                    group.remove(name)
        town = town_of(army.place)
        if dead and army.place[0] == "town" and army.family not in self.presence.families_in(town):
            self.teller.add(left_town(self.state, self.board, self.presence, town, army.family, []))


def town_of(place: Place) -> str:
    """The town of a place: the town itself, or the one a road leads to."""
    return place[1] if place[0] == "town" else place[2]


def _preferences(order: Mapping[str, Any], town: str) -> list[str]:
    chosen = (order.get("give_control") or {}).get(town)
    if chosen is None:
        return []
    return list(chosen) if isinstance(chosen, list) else [chosen]


def _select(state: FiefState, pool: list[str], wanted: dict | str) -> list[str]:
    if isinstance(wanted, str):   # "all"
        return list(pool)
    out: list[str] = []
    for kind, count in wanted.items():
        out += [pid for pid in pool if state.pawns[pid].kind == kind][:count]
    return out
