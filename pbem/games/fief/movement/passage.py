"""Crossing other families on the way (5.2.1): the safe passage each must grant (5.2.3.1,
a standing policy), a besieged army's leave from its besiegers (6.4.2), and what a refusal does:
back, stay, or a cavalcade fought by the battle rules (5.2.4, movement/hooks.py).
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.movement.army import Army
from pbem.games.fief.movement.events import MoveLog, where_text
from pbem.games.fief.movement.hooks import CavalcadeRequest
from pbem.games.fief.movement.presence import road_place, town_place
from pbem.games.fief.movement.steps import Run
from pbem.games.fief.policies import permits


class Passage(Run):
    """The crossings of a Movement Phase's run."""

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
                f"(standing policy, {self.cite('6.4.2' if besieged else '5.2.3.1')})")
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
        reason = (f"a besieger did not let the besieged army leave ({self.cite('6.4.2')})" if besieged
                  else f"safe passage towards {target} refused ({self.cite('5.2.3.1')})")
        mode = order.get("if_refused", "back")
        if mode == "cavalcade" and army.naval:
            return "stopped", reason + (f"; an army that made a naval step cannot make a cavalcade "
                                        f"({self.cite('5.3')}); "
                                        f"{army.leader} stops {where_text(army.place, self.board.seas)}")
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
            army_steps = self.budget.army_steps(army)
            for member in ["P:" + p for p in army.pawns if p in self.state.pawns] + \
                    ["L:" + n for n in army.all_lords() if n in self.state.lords]:
                while self.budget.can_step(member, army_steps):
                    self.budget.step(member, army_steps)
            return "stopped", f"the cavalcade did not open the way ({self.cite('5.2.4')})"
        if first:
            return "refused", reason
        if mode == "back" and army.underground:
            # The card placed the army here directly: there is no road it came by, crossed, to
            # go back along (ruling in docs/fief-france-movement-rulings.md).
            return "stopped", reason + (f"; {army.leader} came by an underground card, not by a road, "
                                        f"and stops {where_text(army.place, self.board.seas)}")
        # The leader always has a step left here: _step stops a lord with none before crossing.
        if mode == "back" and army.came_from is not None:
            # 5.2.3.1: back spending 1 step; no force may stay, own forces there may come along.
            self._drop_and_pick(army, order, cur, log, done, leave=False)
            back_to = army.came_from
            self._advance(army, order, cur, back_to, log, back=True)
            return "back", reason + f"; {army.leader} goes back to {back_to}"
        return "stopped", reason + f"; {army.leader} stops {where_text(army.place, self.board.seas)}"

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
