"""Fighting one battle of Kard és Korona (III "Battle"), from the first die to the last:
``resolve_battle(battle, rng) -> BattleResult``. Pure: the dice come from the Rng passed in,
nothing else is read or written.

Dice are rolled in a fixed order so that a game replays exactly: in each clash the attacker's
weapon types, then the defender's, each in the order cavalry, infantry, archers; one d6 per unit.
"""
from __future__ import annotations

from collections import Counter
from typing import Mapping

from pbem.games.kard_es_korona.battle.kinds import ARCHER, CAVALRY, INFANTRY, KINDS
from pbem.games.kard_es_korona.battle.model import (
    ATTACKER, DEFENDER, SIDES, Battle, BattleResult, Clash, Duel, Retreat, Roll,
)
from pbem.games.kard_es_korona.battle.rules import (
    allocate, can_remove, choose_own_losses, default_priorities, in_order, modifier, mounted, choose_lord_leads,
)
from pbem.rules.rng import Rng

ALL = KINDS


def resolve_battle(battle: Battle, rng: Rng) -> BattleResult:
    """Fight ``battle`` to its end with the dice of ``rng``."""
    return _Fight(battle, rng).run()


def other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


class _Fight:
    def __init__(self, battle: Battle, rng: Rng):
        self.battle = battle
        self.rng = rng
        self.units = {s: Counter({k: n for k, n in battle.side(s).units.items() if n > 0}) for s in SIDES}
        self.start = {s: Counter(self.units[s]) for s in SIDES}
        self.leads = {s: choose_lord_leads(battle.side(s).plan.lord_leads, self.units[s])
                      for s in SIDES if battle.side(s).warlord}
        self.clashes: list[Clash] = []
        self.rounds = 0
        self.reroll_used = False

    # ---- the two kinds of battle ---------------------------------------------------------

    def run(self) -> BattleResult:
        return self.siege() if self.battle.castle else self.open_battle()

    def open_battle(self) -> BattleResult:
        """III "Open Battle": in round 1 the archers of both sides shoot first, at infantry and
        archers only; against an army of knights alone a side's archers skip this volley and
        shoot in the close combat instead. Then the close combat of round 1, in which the
        archers who shot do not roll; from round 2 on every unit rolls."""
        volley = [s for s in SIDES if self.units[s][ARCHER] and self._not_all_knights(other(s))]
        self.rounds = 1
        if volley:
            self.fight(1, "volley", {s: (ARCHER,) for s in volley}, open_volley=True)
            if self.over():
                return self.finish()
        first = {s: ALL if s not in volley else (CAVALRY, INFANTRY) for s in SIDES}
        self.fight(1, "melee", first)
        while True:
            if self.over():
                return self.finish()
            leaving = self.retreat_decision()
            if leaving:
                return self.retreat(leaving)
            self.rounds += 1
            self.fight(self.rounds, "melee", {s: ALL for s in SIDES})

    def siege(self) -> BattleResult:
        """III "Siege": round 1 the defending archers shoot (4+), round 2 everyone else strikes,
        and so on; the defending archers do not roll in the assault (ruling B6). The attacker
        must withdraw once no infantry (nor his warlord, who counts as infantry) is left — at
        once, even before the assault — unless the defenders fell in the same clash."""
        if not self.has_infantry(ATTACKER):
            return self.withdraw()   # ruling B10: no die is rolled
        while True:
            self.rounds += 1
            round_no = self.rounds
            if self.units[DEFENDER][ARCHER]:
                self.fight(round_no, "defenders_volley", {DEFENDER: (ARCHER,)}, castle_volley=True)
                if self.over():
                    return self.finish()
                if not self.has_infantry(ATTACKER):
                    return self.withdraw()
            self.fight(round_no, "assault", {ATTACKER: ALL, DEFENDER: (CAVALRY, INFANTRY)})
            if self.over():
                return self.finish()
            if not self.has_infantry(ATTACKER):
                return self.withdraw()
            leaving = self.retreat_decision()
            if leaving:
                return self.retreat(leaving)

    # ---- one clash -----------------------------------------------------------------------

    def fight(self, round_no: int, step: str, rolling: Mapping[str, tuple[str, ...]], *, record: bool = True,
              open_volley: bool = False, castle_volley: bool = False) -> Clash:
        """One clash: the listed weapon types of each listed side roll one die per unit; "within
        one round, one clash, there is no time difference" (III "Melee"), so the losses of both
        sides are chosen against the units standing before it and removed together."""
        rolls: list[Roll] = []
        losses: dict[str, Counter] = {s: Counter() for s in SIDES}
        for side in SIDES:
            dice: list[frozenset[str]] = []
            for kind in (k for k in KINDS if k in rolling.get(side, ())):
                roll, hitting = self.roll(round_no, step, side, kind, open_volley, castle_volley)
                if roll is not None:
                    rolls.append(roll)
                    dice.extend(hitting)
            enemy = other(side)
            losses[enemy] = allocate(dice, self.units[enemy], self.priority(side))
        for side in SIDES:
            self.units[side] -= losses[side]
        clash = Clash(round_no, step, rolls, {s: dict(losses[s]) for s in SIDES})
        if record and rolls:
            self.clashes.append(clash)
        return clash

    def roll(self, round_no: int, step: str, side: str, kind: str, open_volley: bool,
             castle_volley: bool) -> tuple[Roll | None, list[frozenset[str]]]:
        count = self.units[side][kind]
        if not count:
            return None, []
        mod = modifier(self.battle, side, kind, self.leads.get(side))
        why = f"{self.battle.county} round {round_no} {step}: {self.battle.side(side).owner} {kind}"

        def throw() -> tuple[list[int], list[frozenset[str]]]:
            faces = [self.rng.d6(why) for _ in range(count)]
            enemy = self.units[other(side)]
            sets = [can_remove(f + mod, kind, self.battle, open_volley=open_volley, castle_volley=castle_volley)
                    for f in faces]
            return faces, [s for s in sets if any(enemy[k] for k in s)]

        faces, hitting = throw()
        before = None
        if self.may_reroll(side, count, len(hitting)):
            # IV "Judge Royal": once a battle, the whole roll of one weapon type again, a roll that
            # hit too (l.294; rulings B14, K31)
            self.reroll_used = True
            before = faces
            faces, hitting = throw()
        return Roll(side, kind, faces, mod, len(hitting), before), hitting

    def may_reroll(self, side: str, dice: int, hits: int) -> bool:
        me = self.battle.side(side)
        want = me.plan.reroll
        return (not self.reroll_used and not me.neutral and self.battle.judge_royal == me.owner
                and want is not None and dice >= want and hits <= me.plan.reroll_hits)

    def priority(self, side: str) -> list[str]:
        # Neutral units have no orders: the judge, who rolls in their name, takes the default
        # (ruling B15, II "Royal / Neutral Units").
        return in_order(self.battle.side(side).plan.priorities, default_priorities(self.battle, side))

    # ---- states and ends -----------------------------------------------------------------

    def total(self, side: str) -> int:
        return sum(self.units[side].values())

    def over(self) -> bool:
        return not self.total(ATTACKER) or not self.total(DEFENDER)

    def has_infantry(self, side: str) -> bool:
        """II "Infantry": "a siege of castles is not possible without them, except in the presence
        of a warlord"; knights fighting as infantry do not count (III "Siege")."""
        return bool(self.units[side][INFANTRY]) or bool(self.battle.side(side).warlord)

    def _not_all_knights(self, side: str) -> bool:
        # Knights who fight dismounted (mountain, marsh) are infantry for the volley too (ruling B5).
        return any(n for k, n in self.units[side].items() if k != CAVALRY) or not mounted(self.battle)

    def finish(self) -> BattleResult:
        a_gone, d_gone = not self.total(ATTACKER), not self.total(DEFENDER)
        lords = {s for s in SIDES if self.battle.side(s).warlord}
        if a_gone and d_gone:
            if lords == set(SIDES):
                return self.duel()
            if lords:   # ruling B7: the warlord left standing holds the field
                winner = next(iter(lords))
                return self.result(winner, "warlord_alone")
            return self.result(None, "both_destroyed")
        return self.result(DEFENDER if a_gone else ATTACKER, "destroyed")

    def result(self, winner: str | None, end: str, *, retreat: Retreat | None = None,
               duel: Duel | None = None) -> BattleResult:
        warlords = {}
        for side in SIDES:
            name = self.battle.side(side).warlord
            if name:
                warlords[side] = {"name": name, "fate": self.fate(side, winner, retreat, duel)}
        return BattleResult(
            county=self.battle.county, siege=self.battle.castle, winner=winner, end=end, rounds=self.rounds,
            clashes=self.clashes, losses={s: dict(self.start[s] - self.units[s]) for s in SIDES},
            survivors={s: dict(+self.units[s]) for s in SIDES}, warlords=warlords, retreat=retreat, duel=duel,
            castle_taken=self.battle.castle and winner == ATTACKER,
            lord_leads={s: k for s, k in self.leads.items() if k})

    def fate(self, side: str, winner: str | None, retreat: Retreat | None, duel: Duel | None) -> str:
        if winner == side:
            return "won"
        if duel is not None:
            return "killed"   # ruling B9
        if retreat is not None and retreat.side == side and self.total(side):
            return "retreated"
        # II "Royal / Neutral Units": defeated by royal/neutral units, he is taken prisoner;
        # by a player's army, he is defeated (V "Elimination or Vassal Oath"); ruling B8.
        return "captured" if winner is not None and self.battle.side(winner).neutral else "defeated"

    def duel(self) -> BattleResult:
        """III "The Clash of Warlords": both fight as knights, only a 6 wins, "joint hits do not
        count"; the Judge Royal may re-roll one of his dice once (ruling B14: when his die
        would lose the throw)."""
        throws: list[list[int]] = []
        rerolled = None
        judge = next((s for s in SIDES if self.battle.judge_royal == self.battle.side(s).owner), None)
        while True:
            faces = {s: self.rng.d6(f"{self.battle.county} duel: {self.battle.side(s).warlord}") for s in SIDES}
            if judge and rerolled is None and faces[other(judge)] == 6 and faces[judge] != 6:
                old = faces[judge]
                faces[judge] = self.rng.d6(f"{self.battle.county} duel: Judge Royal's re-roll")
                rerolled = [len(throws) + 1, old, faces[judge]]
            throws.append([faces[ATTACKER], faces[DEFENDER]])
            sixes = [s for s in SIDES if faces[s] == 6]
            if len(sixes) == 1:
                duel = Duel(throws, sixes[0], rerolled)
                return self.result(sixes[0], "duel", duel=duel)

    # ---- leaving the battle --------------------------------------------------------------

    def withdraw(self) -> BattleResult:
        """III "Siege": without infantry the attacker "must abandon the siege ... retreat at once";
        no parting volley and no halving (ruling B13)."""
        side = self.battle.attacker
        return self.result(DEFENDER, "withdrawn", retreat=Retreat(ATTACKER, side.retreat_to, compulsory=True))

    def retreat_decision(self) -> str | None:
        """VI "Retreat / Flight" (advanced): after any complete round either side may retreat;
        the attacker decides first (ruling B12); neutral units defend their post until death."""
        if not self.battle.advanced:
            return None
        for side in SIDES:
            me = self.battle.side(side)
            if not me.neutral and me.retreat_to is not None \
                    and me.plan.retreat.holds(self.rounds, self.total(side), self.total(other(side))):
                return side
        return None

    def retreat(self, side: str) -> BattleResult:
        """VI "Retreat / Flight": every unit of the other side strikes once more with one die and
        the fleeing army cannot strike back; from a siege only the castle's defending archers
        shoot one more volley. Then, across an obstacle, the fleeing army loses half its
        strength, rounded down, chosen by its own player (ruling B11)."""
        chaser = other(side)
        pursuit = None
        if self.battle.side(chaser).plan.pursue:
            if self.battle.castle and side == ATTACKER:
                if self.units[DEFENDER][ARCHER]:
                    pursuit = self.fight(self.rounds, "parting_volley", {DEFENDER: (ARCHER,)}, record=False,
                                         castle_volley=True)
            else:
                pursuit = self.fight(self.rounds, "pursuit", {chaser: ALL}, record=False)
        halved: Counter = Counter()
        me = self.battle.side(side)
        if me.retreat_obstacle:
            halved = choose_own_losses(self.units[side], self.total(side) // 2, me.plan.losses)
            self.units[side] -= halved
        retreat = Retreat(side, me.retreat_to, compulsory=False, pursuit=pursuit, obstacle_losses=dict(halved))
        return self.result(chaser, "retreat", retreat=retreat)
