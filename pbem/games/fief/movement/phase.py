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
``cavalcade`` resolver (movement/hooks.py), called at the exact point the rulebook offers it - a
safe passage was refused and the order says `if_refused: cavalcade`. round.py passes the battle
rules' resolver (battle/phase.py: resolve_cavalcade); without one a cavalcade order stops the
army. In the same way it takes the ``before_move`` moment (5.2.1) at which the surprise rules
fire the standing `uprising_before_move` triggers (surprise/uprising_triggers.py:
fire_before_move).

An underground card (G.4.2.2) ordered on a step (movement/underground.py) is played at the
beginning of that step: the army is placed directly in the adjacent town, crossing nobody and
ignoring bad weather; `if_needed` plays it only where the step would otherwise be refused or
blocked.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.movement.army import Army, guard_follows, pick_pawns
from pbem.games.fief.movement.disasters import bad_weather_blocks
from pbem.games.fief.movement.end import lone_bombards, place_road_forces
from pbem.games.fief.movement.events import MoveLog, hidden_text, kinds_of, units_text
from pbem.games.fief.movement.hooks import BeforeMove, CavalcadeRequest, CavalcadeResolver, CavalcadeResult
from pbem.games.fief.movement.naval import default_harbor, lords_at_sea, pawns_at_sea
from pbem.games.fief.movement.passage import Passage
from pbem.games.fief.movement.presence import road_place
from pbem.games.fief.movement.steps import town_of
from pbem.games.fief.movement.underground import ALWAYS, IF_NEEDED, mode_for, move_card
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event
from pbem.rules.rng import Rng


def resolve_movement(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng,
                     cavalcade: CavalcadeResolver | None = None, before_move: BeforeMove | None = None) -> list[Event]:
    own = edition_of(state).hooks.movement   # an edition's own movement (England's, E 5.0-5.5)
    run = (own.run if own else MovementRun)(state, board, rng, cavalcade, before_move)
    for lord in state.lords.values():      # 5.1.1: steps are counted per round
        lord.steps = 0
    for pawn in state.pawns.values():
        pawn.steps = 0
    at_sea_lords = lords_at_sea(state, board)   # 5.3: at sea at the beginning of the phase
    at_sea_pawns = pawns_at_sea(state, board)
    for player in state.turn_order():
        if state.families[player].eliminated:
            continue
        run.player_turn(player, orders.get(player) or {}, at_sea_lords.get(player, []),
                        at_sea_pawns.get(player, []))
    place_road_forces(state, board, run.presence, run.teller)
    lone_bombards(state, board, run.presence, run.teller)
    return run.teller.events


class MovementRun(Passage):
    """One Movement Phase: the players' turns and each lord's move, step by step (the steps
    themselves: movement/steps.py; crossing other families: movement/passage.py)."""

    # -- a player's turn -------------------------------------------------------------------
    def player_turn(self, player: str, orders: Mapping[str, Any], sea_lords: list[str],
                    sea_pawns: list[str]) -> None:
        for order in orders.get("moves") or []:
            self.move(player, order)
        # 5.3: lords still offshore since before the phase land anyway, carrying the family's
        # pawns still at sea; a lordless troop at sea lands in one harbor of the owner's choice.
        for name in sea_lords:
            lord = self.state.lords.get(name)
            if lord and lord.location in self.board.seas and not lord.captive_of and lord.family == player:
                harbor = default_harbor(self.state, self.board, self.presence, player, orders.get("land"))
                self.move(player, {"lord": name, "with": "all", "path": [harbor], "if_refused": "stay"},
                          forced=True)
        for sea in self.board.seas:   # a lordless troop per sea (France: the one off-shore area)
            left = [pid for pid in sea_pawns if pid in self.state.pawns and self.state.pawns[pid].location == sea
                    and self.state.pawns[pid].steps == 0]
            if left:
                harbor = default_harbor(self.state, self.board, self.presence, player, orders.get("land"))
                self.land_troop(player, left, sea, harbor, chosen=orders.get("land") == harbor)

    def land_troop(self, player: str, pawn_ids: list[str], sea: str, harbor: str, chosen: bool) -> None:
        members = ["P:" + pid for pid in pawn_ids]
        for m in members:
            self.budget.step(m, False)
            self.presence.put(m, player, road_place(sea, harbor))   # the sea lane to the harbor
        place = self._arrive(player, members, sea, harbor, None)
        units = kinds_of(self.state, pawn_ids)
        where = "in" if place[0] == "town" else "next to"
        why = "the harbor they chose" if chosen else "by default: no lord carries them and no `land:` order"
        self.teller.public("troop_landed", player,
                           f"{player}'s troop of {units_text(edition_of(self.state), units)} lands {where} {harbor} "
                           f"({why}, {self.cite('5.3')}).",
                           f"{player}'s troop of {hidden_text(edition_of(self.state), units)} lands {where} {harbor} "
                           f"({self.cite('5.3')}).",
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
            problem = f"{name} was eliminated by the uprising in {lord.location} before moving ({self.cite('G.4.2.1')})"
        if problem:
            self._failed(player, name, problem)
            return
        mark = len(self.teller.events)
        place = self.presence.where["L:" + name]
        # A lord who starts on a road (carried there by another lord's move) came from its start.
        army = Army(player, name, place, came_from=place[1] if place[0] == "road" else None)
        start = town_of(army.place)
        log = MoveLog(start)
        self._gather(army, order, log)
        outcome, reason = "completed", ""
        done: set[str] = set()
        for target in order["path"]:
            if name not in self.state.lords:
                outcome, reason = "eliminated", f"{name} was eliminated on the way ({self.cite('5.1.1')})"
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
        if (self.before_move is None or place is None or place[0] != "town" or place[1] in self.board.seas
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
            if lo and lo.captive_of == army.family and lo.location == town_of(army.place):
                army.captives.append(other)
            else:
                log.notes.append(f"{other} is not a captive of {army.family} here")
        army_steps = self.budget.army_steps(army)
        taken, short = pick_pawns(self.state, self.presence, self.budget, army.place, army.family,
                                  order.get("with") or {}, army_steps, set())
        army.pawns += taken
        guard = [m[2:] for m in self.presence.members_at(army.place, army.family)
                 if m.startswith("P:") and guard_follows(self.state, self.state.pawns[m[2:]], army.all_lords())]
        army.pawns += [pid for pid in guard if pid not in army.pawns]
        for kind, n in short.items():
            log.notes.append(f"{units_text(edition_of(self.state), {kind: n})} asked for could not come "
                             "(not there, or no step left)")
        log.units = kinds_of(self.state, army.pawns)

    def _step(self, army: Army, order: Mapping[str, Any], target: str, log: MoveLog,
              done: set[str]) -> tuple[str, str] | None:
        """One step towards ``target``; None to go on, or (outcome, reason) to stop."""
        cur = town_of(army.place)
        inside = army.place[0] == "town"
        first = inside and army.steps == 0
        army_steps = self.budget.army_steps(army)
        if not self.budget.can_step("L:" + army.leader, army_steps):
            return "cut_short", f"{army.leader} has no step left this round ({self.cite('5.1.1')})"
        weather = edition_of(self.state).hooks.weather
        # the edition's own (England: STORMS by Region, land and sea, 2.5)
        storms = weather.blocks(self.state, self.board, cur, target) if weather is not None else None
        naval = edition_of(self.state).hooks.naval
        if self.board.is_sea(target) or self.board.is_sea(cur):   # 5.3: the edition's naval step
            why = storms or (naval.blocked(self.board, army.cavalcade, cur, target) if naval
                             else "this edition has no naval step")
            if why:
                return "cut_short", why
        else:
            if not self.board.adjacent(cur, target):
                return "cut_short", f"no road from {cur} to {target}"
            # G.4.2.2 (England's PASSAGE, 10.2): played "at the beginning of a step"
            mode = mode_for(order, target, move_card(edition_of(self.state)).key)
            if mode == ALWAYS and self._underground(army, order, cur, target, first, log, done, "as ordered"):
                return self._after_step(army, target)
            blocked = bad_weather_blocks(self.board, self.bad_weather, cur, target)
            why = storms or (f"bad weather on bishopric {blocked} forbids land moves into or out of it "
                             f"({self.cite('G.2.2')})"
                             if blocked is not None else None)
            if why:
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
            why = self._entry_refused(army, target) if mode == IF_NEEDED else None
            if why and self._underground(army, order, cur, target, first, log, done, why):
                return self._after_step(army, target)   # the edition's entry (England: a fortress, 5.0)
        if not first:
            self._drop_and_pick(army, order, cur, log, done, leave=True)
        self._advance(army, order, cur, target, log)
        return self._after_step(army, target)

    def _entry_refused(self, army: Army, target: str) -> str | None:
        """Why the army would wait outside ``target`` when it arrives, refused entry by its
        owner (the edition's: England's fortress and Abbey, 5.0); the core has none."""
        return None

    def _failed(self, player: str, name: str, problem: str) -> None:
        self.teller.public("move_failed", player, f"{player}'s move of {name} fails: {problem}.",
                           f"{player}'s move of {name} fails: {problem}.",
                           {"lord": name, "family": player, "outcome": "failed", "reason": problem})

    def _summary(self, army: Army, log: MoveLog, outcome: str, reason: str, forced: bool) -> None:
        end_town = town_of(army.place)
        data: dict[str, Any] = {
            "lord": army.leader, "family": army.family, "from": log.start,
            "path": [t for t, _, _ in log.steps], "end": end_town, "on_road": army.place[0] == "road",
            "outcome": outcome, "reason": reason, "units": log.units, "lords": list(army.lords),
            "captives": list(army.captives), "left": log.left, "picked": log.picked, "notes": log.notes,
        }
        if log.underground:   # G.4.2.2: the steps made by an underground card (public once played)
            log.card_word = move_card(edition_of(self.state)).key
            data[log.card_word] = [log.steps[i][0] for i in log.underground]
        lead = f"{army.family}'s {army.leader}"
        if army.lords:
            lead += " with " + ", ".join(army.lords)
        edition = edition_of(self.state)
        full = log.text(lead, units_text(edition, log.units), partial(units_text, edition), outcome, reason, forced,
                        log.notes, self.cite)
        # Notes name unit kinds: under fog of war only the owner reads them (I.2).
        hidden = log.text(lead, hidden_text(edition, log.units), partial(hidden_text, edition), outcome, reason,
                          forced, [], self.cite)
        hidden_data = {k: v for k, v in data.items() if k != "notes"}
        self.teller.public("lord_moved" if log.steps else "lord_held", army.family, full, hidden, data,
                           hidden_data)


# CavalcadeRequest, CavalcadeResult: the battle rules' side of the cavalcade hook (movement/hooks.py).
__all__ = ["resolve_movement", "MovementRun", "BeforeMove", "CavalcadeRequest", "CavalcadeResolver",
           "CavalcadeResult"]
