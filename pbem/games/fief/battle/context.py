"""What one battle carries from step to step (battle/engine.py): the sides, the plans, the round
count, the events told so far, and how it ended."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.games.fief.edition import edition_of
from pbem.games.fief.battle.dice import Penalty, Roll
from pbem.games.fief.battle.forces import Side
from pbem.games.fief.battle.losses import Losses, lone_bombards
from pbem.games.fief.battle.plan import DEFAULT_PLAN, BattleOutcome, BattlePlan, BattleSetup
from pbem.games.fief.battle.forces import kinds_count
from pbem.games.fief.battle.text import units_text
from pbem.games.fief.board import Board
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.state import FiefState
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng


@dataclass
class RoundDice:
    """One battle round's figures (6.2.3.1-4), by side role."""

    cp: dict[str, int] = field(default_factory=dict)
    dice: dict[str, int] = field(default_factory=dict)
    penalty: Penalty = field(default_factory=Penalty)
    rolls: dict[str, Roll] = field(default_factory=dict)


@dataclass
class Battle:
    state: FiefState
    board: Board
    setup: BattleSetup
    plans: dict[str, BattlePlan]
    rng: Rng
    attacker: Side
    defender: Side
    round: int = 0                 # the battle round under way (6.2.3)
    fought: int = 0                # battle rounds whose dice were rolled
    quiet_rounds: int = 0          # consecutive rounds with no loss on either side (6.2.3.5)
    gates_opened: bool = False     # 6.1: a besieged confederate switched sides
    events: list[Event] = field(default_factory=list)
    end: str | None = None
    winner: str | None = None
    stopped_by: str | None = None
    captives: list[tuple[str, str]] = field(default_factory=list)
    switched: list[str] = field(default_factory=list)
    withdrew: list[str] = field(default_factory=list)
    # 6.1: "the besieging side combines its siege engine markers effects until the end of the
    # battle": an attacking confederate that stops fighting leaves its marker's effect behind.
    engines_kept: list[str] = field(default_factory=list)
    controller: str | None = None  # the town's controller when the battle began (6: it cannot change meanwhile)
    besieged: bool = False         # the town had a siege engine marker when the battle began
    involved: list[str] = field(default_factory=list)   # every family on a side when it began

    def __post_init__(self) -> None:
        town = self.state.towns[self.setup.town]
        self.controller = town.controller
        self.besieged = bool(town.besiegers)
        self.involved = list(self.attacker.families) + list(self.defender.families)

    # -- reading ---------------------------------------------------------------------------
    def plan(self, family: str) -> BattlePlan:
        return self.plans.get(family) or DEFAULT_PLAN

    def side(self, role: str) -> Side:
        return self.attacker if role == "attacker" else self.defender

    def other(self, side: Side) -> Side:
        return self.defender if side is self.attacker else self.attacker

    def side_of_family(self, family: str) -> Side | None:
        for side in (self.attacker, self.defender):
            if family in side.families:
                return side
        return None

    def units_of(self, side: Side, family: str) -> list[str]:
        return [p for p in side.units if self.state.pawns[p].family == family]

    def lords_of(self, side: Side, family: str) -> list[str]:
        return [n for n in side.lords if self.state.lords[n].family == family]

    def fortress_applies(self) -> bool:
        """6.2.3.2: the defensive side controls the fortress; not when its controller is on the
        attacking side (6.4.2, the besieged leaving the fortress) nor once a besieged
        confederate switched sides (6.1)."""
        return (bool(self.state.towns[self.setup.town].fortress) and not self.setup.leaving_fortress
                and not self.gates_opened and self.controller is not None
                and self.controller in self.defender.families)

    def forces_text(self, side: Side) -> str:
        parts = []
        for fam in side.families:
            units = kinds_count(self.state, self.units_of(side, fam))
            lords = self.lords_of(side, fam)
            troops = units_text(edition_of(self.state), units) if units else ""
            what = ", ".join(filter(None, [", ".join(lords), troops]))
            parts.append(f"{fam}: {what or 'nothing'}")
        return f"{side.role} side ({'; '.join(parts)})"

    # -- changing ----------------------------------------------------------------------------
    def cite(self, section: str) -> str:
        """A section of France's rulebook, as the core's battle texts cite it, in the edition's."""
        return edition_of(self.state).cite(section)

    def tell(self, kind: str, text: str, data: dict[str, Any]) -> None:
        """Battles are public at the table: every battle event goes to everyone (issue 4)."""
        self.events.append(Event(kind, text, Audience.everyone(), data))

    def finish(self, end: str, winner: str | None, stopped_by: str | None = None) -> None:
        self.end, self.winner, self.stopped_by = end, winner, stopped_by

    def lose(self, side: Side, losses: Losses) -> bool:
        """Remove the chosen pawns and lords from the side and the board (lords through the
        shared D.4 elimination). Returns True if anything was lost."""
        for pid in losses.pawns:
            side.units.remove(pid)
            del self.state.pawns[pid]
        for name in losses.lords:
            side.lords.remove(name)
            self.events.extend(eliminate_lord(self.state, self.board, name))
        self.prune()
        return bool(losses.pawns or losses.lords)

    def prune(self) -> None:
        """Forget pawns gone from the board by a consequence of a lord's fate (1.5.5: a royal
        guard that cannot be replaced is removed)."""
        for side in (self.attacker, self.defender):
            side.units[:] = [p for p in side.units if p in self.state.pawns]

    def drop_lone_bombards(self, section: str) -> None:
        """4.3, 6.2.3.4: a bombard left without a unit pawn or lord of its family is eliminated."""
        for pid in lone_bombards(self.state, self.setup.town, self.involved):
            pawn = self.state.pawns.pop(pid)
            for side in (self.attacker, self.defender):
                if pid in side.units:
                    side.units.remove(pid)
            self.tell("bombard_lost", f"{pawn.family}'s bombard, left without a unit pawn or lord of its "
                      f"family in {self.setup.town}, is eliminated ({section}).",
                      {"town": self.setup.town, "family": pawn.family})

    def outcome(self) -> BattleOutcome:
        return BattleOutcome(winner=self.winner, end=self.end or "", rounds=self.fought,
                             attacker_lords_left=len(self.attacker.lords), events=self.events,
                             captives=[(lord, jailer) for lord, jailer in self.captives   # still held (6.3)
                                       if lord in self.state.lords and self.state.lords[lord].captive_of == jailer],
                             stopped_by=self.stopped_by,
                             switched=list(self.switched), withdrew=list(self.withdrew))
