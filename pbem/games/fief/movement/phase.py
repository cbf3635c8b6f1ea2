"""The Movement Phase (5), resolved from every player's canonical movement orders.

    resolve_movement(state, board, orders, rng) -> list[Event]

mutates ``state`` (the caller's private copy). The steps, in the rulebook's order:
  1. every lord and unit pawn starts the round's movement with no step made (5.1.1);
  2. in turn order, each player moves their lords one after the other, in the order of their
     orders (5, 5.1.1); forces offshore since before the phase land in a harbor during their
     owner's turn (5.3);
  3. forces left on roads are placed in the town they were moving to (5);
  4. a bombard left without a unit pawn or lord of its family is eliminated (4.3).
A move that fails or is cut short is an event with the reason, never an exception.

Cavalcade (5.2.4) is part of the battle rules (issue 4): ``resolve_movement`` takes an optional
``cavalcade`` resolver, called at the exact point the rulebook offers it - a safe passage was
refused and the order says `if_refused: cavalcade`. game.py passes the battle rules' resolver
(battle/phase.py: resolve_cavalcade); without one a cavalcade order stops the army. In the same
way it takes the ``before_move`` moment (5.2.1) at which the surprise rules fire the standing
`uprising_before_move` triggers (surprise/uprising_triggers.py: fire_before_move).

An underground card (G.4.2.2) ordered on a step (movement/underground.py) is played at the
beginning of that step: the army is placed directly in the adjacent town, crossing nobody and
ignoring bad weather; `if_needed` plays it only where the step would otherwise be refused or
blocked.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.movement.army import Army, StepBudget, guard_follows, pick_pawns
from pbem.games.fief.movement.control import enter_town, left_town, may_enter
from pbem.games.fief.movement.disasters import (bad_weather_blocks, bishoprics_with, enters_plague, place_text,
                                                plagued_places, strike)
from pbem.games.fief.movement.end import lone_bombards, place_road_forces
from pbem.games.fief.movement.events import (MoveLog, Teller, hidden_text, kinds_of, units_text,
                                             where_text)
from pbem.games.fief.movement.naval import default_harbor, offshore_lords, offshore_pawns
from pbem.games.fief.movement.presence import Place, Presence, road_place, town_place
from pbem.games.fief.movement.underground import ALWAYS, IF_NEEDED, mode_for, play_card
from pbem.games.fief.policies import permits
from pbem.games.fief.state import OFFSHORE, FiefState
from pbem.rules.api import Event
from pbem.rules.rng import Rng


@dataclass(frozen=True)
class CavalcadeRequest:
    """What the battle rules need to fight a cavalcade (5.2.4) against one crossed family."""

    army: Army
    against: tuple[str, ...]   # the families refusing the passage
    town: str                  # the town being passed through (or left)
    road: tuple[str, str]      # the road the army wants to take
    budget: StepBudget         # the steps made this round: every member needs one left (5.1.1)
    # The refusing families' forces the army has to cross (presence members "P:id" / "L:name"):
    # those in the town (or besieging it) and those on the road.
    crossed: tuple[str, ...] = ()


@dataclass(frozen=True)
class CavalcadeResult:
    won: bool                  # the army may continue (a lord still leads it)
    events: tuple[Event, ...] = ()


CavalcadeResolver = Callable[[FiefState, Board, CavalcadeRequest, Rng], CavalcadeResult]
# 5.2.1, G.4.2.1: a lord of ``mover`` is about to leave ``town``, the moment the standing
# `uprising_before_move` triggers fire (surprise/uprising_triggers.py: fire_before_move, handed in
# by game.py): (state, board, rng, town, mover, lord, away) -> events; ``away()``: the pawn ids
# and lord names whose location names a town but who stand on a road to it.
BeforeMove = Callable[[FiefState, Board, Rng, str, str, str, Callable[[], frozenset[str]]], list[Event]]


def resolve_movement(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng,
                     cavalcade: CavalcadeResolver | None = None, before_move: BeforeMove | None = None) -> list[Event]:
    run = MovementRun(state, board, rng, cavalcade, before_move)
    for lord in state.lords.values():      # 5.1.1: steps are counted per round
        lord.steps = 0
    for pawn in state.pawns.values():
        pawn.steps = 0
    at_sea_lords = offshore_lords(state)   # 5.3: offshore at the beginning of the phase
    at_sea_pawns = offshore_pawns(state)
    for player in state.turn_order():
        if state.families[player].eliminated:
            continue
        run.player_turn(player, orders.get(player) or {}, at_sea_lords.get(player, []),
                        at_sea_pawns.get(player, []))
    place_road_forces(state, board, run.presence, run.teller)
    lone_bombards(state, board, run.presence, run.teller)
    return run.teller.events


class MovementRun:
    def __init__(self, state: FiefState, board: Board, rng: Rng, cavalcade: CavalcadeResolver | None,
                 before_move: BeforeMove | None = None):
        self.state, self.board, self.rng, self.cavalcade = state, board, rng, cavalcade
        self.before_move = before_move
        self.presence = Presence.build(state)
        self.budget = StepBudget(state)
        self.teller = Teller(state)
        self.bad_weather = bishoprics_with(state, "bad_weather")
        self.plagued = plagued_places(state)   # the offshore area too (2.5, ruling 41)
        self.gone_kinds: dict[str, str] = {}   # kinds of pawns lost on the way, for the reports

    # -- a player's turn -------------------------------------------------------------------
    def player_turn(self, player: str, orders: Mapping[str, Any], sea_lords: list[str],
                    sea_pawns: list[str]) -> None:
        for order in orders.get("moves") or []:
            self.move(player, order)
        # 5.3: lords still offshore since before the phase land anyway, carrying the family's
        # pawns still at sea; a lordless troop at sea lands in one harbor of the owner's choice.
        for name in sea_lords:
            lord = self.state.lords.get(name)
            if lord and lord.location == OFFSHORE and not lord.captive_of and lord.family == player:
                harbor = default_harbor(self.state, self.board, self.presence, player, orders.get("land"))
                self.move(player, {"lord": name, "with": "all", "path": [harbor], "if_refused": "stay"},
                          forced=True)
        left = [pid for pid in sea_pawns if pid in self.state.pawns and self.state.pawns[pid].location == OFFSHORE
                and self.state.pawns[pid].steps == 0]
        if left:
            harbor = default_harbor(self.state, self.board, self.presence, player, orders.get("land"))
            self.land_troop(player, left, harbor, chosen=orders.get("land") == harbor)

    def land_troop(self, player: str, pawn_ids: list[str], harbor: str, chosen: bool) -> None:
        members = ["P:" + pid for pid in pawn_ids]
        for m in members:
            self.budget.step(m, False)
            self.presence.put(m, player, road_place(OFFSHORE, harbor))   # the sea lane to the harbor
        place = self._arrive(player, members, OFFSHORE, harbor, None)
        units = kinds_of(self.state, pawn_ids)
        where = "in" if place[0] == "town" else "next to"
        why = "the harbor they chose" if chosen else "by default: no lord carries them and no `land:` order"
        self.teller.public("troop_landed", player,
                           f"{player}'s troop of {units_text(units)} lands {where} {harbor} ({why}, 5.3).",
                           f"{player}'s troop of {hidden_text(units)} lands {where} {harbor} (5.3).",
                           {"family": player, "harbor": harbor, "units": units})

    # -- one lord's move -------------------------------------------------------------------
    def move(self, player: str, order: Mapping[str, Any], forced: bool = False) -> None:
        name = order["lord"]
        lord = self.state.lords.get(name)
        problem = None
        if lord is None or lord.location is None:
            problem = f"{name} is not on the board"
        elif lord.family != player:
            problem = f"{name} is not a lord of {player}"
        elif lord.captive_of:
            problem = f"{name} is a captive of {lord.captive_of} and cannot move (5)"
        if problem is None and lord is not None and self._uprising_before(player, name):
            problem = f"{name} was eliminated by the uprising in {lord.location} before moving (G.4.2.1)"
        if problem:
            self._failed(player, name, problem)
            return
        mark = len(self.teller.events)
        place = self.presence.where["L:" + name]
        # A lord who starts on a road (carried there by another lord's move) came from its start.
        army = Army(player, name, place, came_from=place[1] if place[0] == "road" else None)
        start = _town_of(army.place)
        log = MoveLog(start)
        self._gather(army, order, log)
        outcome, reason = "completed", ""
        done: set[str] = set()
        for target in order["path"]:
            if name not in self.state.lords:
                outcome, reason = "eliminated", f"{name} was eliminated on the way (5.1.1)"
                break
            stop = self._step(army, order, target, log, done)
            if stop is not None:
                outcome, reason = stop
                break
        before = len(self.teller.events)
        self._summary(army, log, outcome, reason, forced)
        # The move's own line first, then what it caused (control, plague, ...).
        events = self.teller.events
        summary = events[before:]
        del events[before:]
        events[mark:mark] = summary

    def _uprising_before(self, player: str, name: str) -> bool:
        """5.2.1: "as an uprising card may only be played in a town, it must be played before a
        lord starts their movement": the `uprising_before_move` triggers on the lord's town fire
        (surprise/uprising_triggers.py). Forces on a road to that town are not in it. True if the
        lord did not survive it."""
        place = self.presence.where.get("L:" + name)
        if (self.before_move is None or place is None or place[0] != "town" or place[1] == OFFSHORE
                or self.state.lords[name].steps):
            return False
        events = self.before_move(self.state, self.board, self.rng, place[1], player, name,
                                  lambda: frozenset(m[2:] for m in self.presence.on_roads()))
        if events:
            self.teller.add(events)
            self._forget_fallen()
        return name not in self.state.lords

    def _gather(self, army: Army, order: Mapping[str, Any], log: MoveLog) -> None:
        for other in order.get("lords") or []:
            lo = self.state.lords.get(other)
            if (lo and lo.family == army.family and not lo.captive_of
                    and self.presence.where.get("L:" + other) == army.place and other != army.leader):
                army.lords.append(other)
            else:
                log.notes.append(f"{other} is not with {army.leader} and stays behind")
        for other in order.get("captives") or []:
            lo = self.state.lords.get(other)
            if lo and lo.captive_of == army.family and lo.location == _town_of(army.place):
                army.captives.append(other)
            else:
                log.notes.append(f"{other} is not a captive of {army.family} here")
        darc = self.budget.army_has_darc(army)
        taken, short = pick_pawns(self.state, self.presence, self.budget, army.place, army.family,
                                  order.get("with") or {}, darc, set())
        army.pawns += taken
        guard = [m[2:] for m in self.presence.members_at(army.place, army.family)
                 if m.startswith("P:") and guard_follows(self.state, self.state.pawns[m[2:]].kind, army.all_lords())]
        army.pawns += [pid for pid in guard if pid not in army.pawns]
        for kind, n in short.items():
            log.notes.append(f"{units_text({kind: n})} asked for could not come (not there, or no step left)")
        log.units = kinds_of(self.state, army.pawns)

    def _step(self, army: Army, order: Mapping[str, Any], target: str, log: MoveLog,
              done: set[str]) -> tuple[str, str] | None:
        """One step towards ``target``; None to go on, or (outcome, reason) to stop."""
        cur = _town_of(army.place)
        inside = army.place[0] == "town"
        first = inside and army.steps == 0
        darc = self.budget.army_has_darc(army)
        if not self.budget.can_step("L:" + army.leader, darc):
            return "cut_short", f"{army.leader} has no step left this round (5.1.1)"
        naval = target == OFFSHORE or cur == OFFSHORE
        if naval:
            if army.cavalcade:
                return "cut_short", "an army that made a cavalcade cannot make a naval step (5.3)"
            if not self.board.is_harbor(cur if target == OFFSHORE else target):
                return "cut_short", f"{target if cur == OFFSHORE else cur} is not a harbor town (5.3)"
        else:
            if not self.board.adjacent(cur, target):
                return "cut_short", f"no road from {cur} to {target}"
            mode = mode_for(order, target)   # G.4.2.2: played "at the beginning of a step"
            if mode == ALWAYS and self._underground(army, order, cur, target, first, log, done, "as ordered"):
                return self._after_step(army, target)
            blocked = bad_weather_blocks(self.board, self.bad_weather, cur, target)
            if blocked is not None:
                why = f"bad weather on bishopric {blocked} forbids land moves into or out of it (G.2.2)"
                if mode == IF_NEEDED and self._underground(army, order, cur, target, first, log, done, why):
                    return self._after_step(army, target)
                return "cut_short", why
            refused = self._crossing(army, cur, target, first)
            if refused:
                if mode == IF_NEEDED:
                    why = self._tell_refusal(army, refused, cur, target, first)
                    if self._underground(army, order, cur, target, first, log, done, why):
                        return self._after_step(army, target)
                return self._refused(army, order, refused, cur, target, first, log, done,
                                     told=mode == IF_NEEDED)
        if not first:
            self._drop_and_pick(army, order, cur, log, done, leave=True)
        self._advance(army, order, cur, target, log)
        return self._after_step(army, target)

    def _after_step(self, army: Army, target: str) -> tuple[str, str] | None:
        if target == OFFSHORE:
            return "at_sea", "the movement of an army ends as soon as it enters the offshore area (5.3)"
        if army.leader not in self.state.lords:
            return "eliminated", f"{army.leader} was eliminated on the way (5.1.1)"
        return None

    def _crossing(self, army: Army, cur: str, target: str, first: bool) -> list[tuple[str, str]]:
        """The families to cross for this step (5.2.1) and who of them refuse: (family, policy)."""
        fam = army.family
        asks: list[tuple[str, str]] = [(f, "safe_passage")
                                       for f in sorted(self.presence.families_on_road(cur, target) - {fam})]
        town = self.state.towns[cur]
        if first:
            # 5.2.1: the first step crosses nobody in the start town, except for a besieged army,
            # which must cross every besieger - with their leave (6.4.2).
            if town.besiegers and town.controller == fam:
                asks += [(f, "besieged_may_leave") for f in sorted(town.besiegers) if f != fam]
        else:
            # 5.2.1: later steps pass through the town reached, crossing every non-besieged family.
            present = self.presence.families_in(cur) - {fam}
            if town.besiegers and town.controller in present:
                present.discard(town.controller)
            # An army passing through its own besieged town leaves it past the besiegers: their
            # leave is the besieged army's (6.4.2), not a safe passage.
            own_siege = bool(town.besiegers) and town.controller == fam
            for f in sorted(present):
                policy = "besieged_may_leave" if own_siege and f in town.besiegers else "safe_passage"
                if (f, policy) not in asks:
                    asks.append((f, policy))
        return [(f, pol) for f, pol in asks if not permits(self.state.families[f].policies, pol, fam)]

    def _tell_refusal(self, army: Army, refused: list[tuple[str, str]], cur: str, target: str,
                      first: bool) -> str:
        """The refusal, told to the mover and the refusers (5.2.3.1, 6.4.2); returns its text."""
        refusers = [f for f, _ in refused]
        besieged = any(pol == "besieged_may_leave" for _, pol in refused)
        what = "leave to break out of the siege of" if besieged else "safe passage through"
        where = cur if not first or besieged else f"the road {cur} - {target}"
        text = (f"{', '.join(refusers)} refused {army.family}'s {army.leader} {what} {where} "
                f"(standing policy, {'6.4.2' if besieged else '5.2.3.1'})")
        self.teller.private("safe_passage_refused", [army.family] + refusers, text + ".",
                            {"lord": army.leader, "family": army.family, "refused_by": refusers,
                             "town": cur, "towards": target})
        return text

    def _refused(self, army: Army, order: Mapping[str, Any], refused: list[tuple[str, str]], cur: str,
                 target: str, first: bool, log: MoveLog, done: set[str],
                 told: bool = False) -> tuple[str, str] | None:
        refusers = [f for f, _ in refused]
        besieged = any(pol == "besieged_may_leave" for _, pol in refused)
        if not told:
            self._tell_refusal(army, refused, cur, target, first)
        reason = ("a besieger did not let the besieged army leave (6.4.2)" if besieged
                  else f"safe passage towards {target} refused (5.2.3.1)")
        mode = order.get("if_refused", "back")
        if mode == "cavalcade" and army.naval:
            return "stopped", reason + ("; an army that made a naval step cannot make a cavalcade (5.3); "
                                        f"{army.leader} stops {where_text(army.place)}")
        if mode == "cavalcade" and self.cavalcade is not None:
            # 5.2.4: also "to leave a besieged fortress, or to eliminate forces that try to
            # block a road" - so on the first step too.
            crossed = self._crossed(refusers, cur, target, first, besieged)
            result = self.cavalcade(self.state, self.board,
                                    CavalcadeRequest(army, tuple(refusers), cur, (cur, target), self.budget,
                                                     crossed),
                                    self.rng)
            self.teller.add(result.events)
            self._forget_fallen()
            if result.won and army.leader in self.state.lords:
                army.cavalcade = True
                if not first:
                    self._drop_and_pick(army, order, cur, log, done, leave=True)
                self._advance(army, order, cur, target, log)
                return None
            # 5.2.4: "any forces in it cannot do any additional movement during that round".
            darc = self.budget.army_has_darc(army)
            for member in ["P:" + p for p in army.pawns if p in self.state.pawns] + \
                    ["L:" + n for n in army.all_lords() if n in self.state.lords]:
                while self.budget.can_step(member, darc):
                    self.budget.step(member, darc)
            return "stopped", "the cavalcade did not open the way (5.2.4)"
        if first:
            return "refused", reason
        if mode == "back" and army.underground:
            # The card placed the army here directly: there is no road it came by, crossed, to
            # go back along (ruling in docs/fief-france-movement-rulings.md).
            return "stopped", reason + (f"; {army.leader} came by an underground card, not by a road, "
                                        f"and stops {where_text(army.place)}")
        # The leader always has a step left here: _step stops a lord with none before crossing.
        if mode == "back" and army.came_from is not None:
            # 5.2.3.1: back spending 1 step; no force may stay, own forces there may come along.
            self._drop_and_pick(army, order, cur, log, done, leave=False)
            back_to = army.came_from
            self._advance(army, order, cur, back_to, log, back=True)
            return "back", reason + f"; {army.leader} goes back to {back_to}"
        return "stopped", reason + f"; {army.leader} stops {where_text(army.place)}"

    def _crossed(self, refusers: list[str], cur: str, target: str, first: bool,
                 besieged: bool) -> tuple[str, ...]:
        """The refusing families' forces on the way (5.2.1): on the road, and in the town
        passed through (or besieging the town left)."""
        out: list[str] = []
        for fam in refusers:
            out += sorted(self.presence.members_at(road_place(cur, target), fam))
            if not first or besieged:
                out += sorted(self.presence.members_at(town_place(cur), fam))
        return tuple(out)

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
                self.state, self.state.pawns[pid].kind, army.all_lords())]
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
            darc = self.budget.army_has_darc(army)
            taken, short = pick_pawns(self.state, self.presence, self.budget, town_place(town), fam,
                                      order["pick_up"][town], darc, set(army.pawns))
            if taken:
                army.pawns += taken
                log.picked[town] = kinds_of(self.state, taken)
            for kind, n in short.items():
                log.notes.append(f"{units_text({kind: n})} to pick up in {town} could not come "
                                 "(not there, or no step left)")

    def _join_arrivals(self, town: str, fam: str) -> list[Event]:
        arrivals = self.state.towns[town].arrivals
        if fam not in arrivals:
            arrivals.append(fam)
        return []

    def _underground(self, army: Army, order: Mapping[str, Any], cur: str, target: str, first: bool,
                     log: MoveLog, done: set[str], why: str) -> bool:
        """G.4.2.2: the step to ``target`` made by an underground card, if one is still in hand:
        the army leaves (or passes through) ``cur`` crossing nobody, ignoring bad weather, and is
        placed directly in ``target``: 1 step. False (the player told why) without a card."""
        if not play_card(self.state, self.board, self.bad_weather, self.teller, army, cur, target, first, why):
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
        darc = self.budget.army_has_darc(army)
        fam = army.family
        for pid in list(army.pawns):
            if not self.budget.can_step("P:" + pid, darc):
                army.pawns.remove(pid)
                log.notes.append(f"{units_text({self.state.pawns[pid].kind: 1})} has no step left and stays "
                                 f"{where_text(army.place)}")
        for other in list(army.lords) + list(army.captives):
            if not self.budget.can_step("L:" + other, darc):
                (army.lords if other in army.lords else army.captives).remove(other)
                log.notes.append(f"{other} has no step left and stays {where_text(army.place)}")
        members = ["L:" + n for n in army.all_lords()] + ["P:" + p for p in army.pawns]
        for m in members + ["L:" + c for c in army.captives]:
            self.budget.step(m, darc)
        army.steps += 1
        if cur == OFFSHORE or target == OFFSHORE:
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

    def _plague(self, army: Army, number: int | str, log: MoveLog) -> None:
        kinds = {pid: self.state.pawns[pid].kind for pid in army.pawns}
        dead, lost, events = strike(self.state, self.board, self.rng, number, army.carried_lords(),
                                    army.pawns, army.family)
        for e in events:
            if e.kind == "plague_troop":
                n = len(e.data["lost"])
                self.teller.public(e.kind, army.family, e.text,
                                   f"Plague in {place_text(number)}: {army.family}'s army loses {n} "
                                   f"unit pawn{'s' if n != 1 else ''} (G.2.1.2).",
                                   {"family": army.family, "bishopric": number,
                                    "lost": {"hidden": n} if self.teller.fog else kinds_of(self.state, lost, kinds)})
            else:
                self.teller.add([e])
        for pid in lost:
            self.gone_kinds[pid] = kinds[pid]
            self.presence.remove("P:" + pid)
            army.pawns.remove(pid)
        for name in dead:
            self.presence.remove("L:" + name)
            for group in (army.lords, army.captives):
                if name in group:
                    group.remove(name)
        town = _town_of(army.place)
        if dead and army.place[0] == "town" and army.family not in self.presence.families_in(town):
            self.teller.add(left_town(self.state, self.board, self.presence, town, army.family, []))

    def _failed(self, player: str, name: str, problem: str) -> None:
        self.teller.public("move_failed", player, f"{player}'s move of {name} fails: {problem}.",
                           f"{player}'s move of {name} fails: {problem}.",
                           {"lord": name, "family": player, "outcome": "failed", "reason": problem})

    def _summary(self, army: Army, log: MoveLog, outcome: str, reason: str, forced: bool) -> None:
        end_town = _town_of(army.place)
        data: dict[str, Any] = {
            "lord": army.leader, "family": army.family, "from": log.start,
            "path": [t for t, _, _ in log.steps], "end": end_town, "on_road": army.place[0] == "road",
            "outcome": outcome, "reason": reason, "units": log.units, "lords": list(army.lords),
            "captives": list(army.captives), "left": log.left, "picked": log.picked, "notes": log.notes,
        }
        if log.underground:   # G.4.2.2: the steps made by an underground card (public once played)
            data["underground"] = [log.steps[i][0] for i in log.underground]
        lead = f"{army.family}'s {army.leader}"
        if army.lords:
            lead += " with " + ", ".join(army.lords)
        full = log.text(lead, units_text(log.units), units_text, outcome, reason, forced, log.notes)
        # Notes name unit kinds: under fog of war only the owner reads them (I.2).
        hidden = log.text(lead, hidden_text(log.units), hidden_text, outcome, reason, forced, [])
        hidden_data = {k: v for k, v in data.items() if k != "notes"}
        self.teller.public("lord_moved" if log.steps else "lord_held", army.family, full, hidden, data,
                           hidden_data)

def _town_of(place: Place) -> str:
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
