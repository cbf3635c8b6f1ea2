"""The computer player's steps (III. Movement): greedy, one step at a time, the best worth for
its chance first, within the steps allowed (castles + 2, at most 6):

- the lord to the safest castle when his county is threatened beyond its defence (II: "he should
  be moved very carefully");
- attacks where the battle, fought a few times on its own dice (odds.py), is won often enough
  (more boldly in the last year, when only castles and counties count, V.V):
  from the nearest counties first until the chance suffices, the lord along only when he makes it
  sure (a siege without infantry needs him, III. Siege);
- empty counties and castles taken with the fewest, slowest units that reach them;
- threatened castles reinforced from their neighbours (II. Castles: 7 at most);
- the free units left moved towards the nearest counties to take, or out of a full castle so that
  the treasury can buy units there next year.

Each unit moves once (III. Suggestion), only through counties without others' units."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.games.kard_es_korona.computer import battle_plan, garrison
from pbem.games.kard_es_korona.computer.odds import Odds
from pbem.games.kard_es_korona.computer.sight import Sight, strength
from pbem.games.kard_es_korona.computer.targets import worth
from pbem.games.kard_es_korona.computer.writing import places_text
from pbem.games.kard_es_korona.state import CASTLE_LIMIT, castle_problem, half_rule, no_units, total
from pbem.games.kard_es_korona.units import UNIT_KINDS, WARLORD_MOVEMENT_POINTS
from pbem.rules.rng import Rng

ATTACK_CHANCE = 0.7          # win this often without the lord
LAST_YEAR_CHANCE = 0.5       # V.V: the last year's castles and counties count, not the units left
LORD_CHANCE = 0.95           # ... and with him: his defeat ends the player (III)
REINFORCE = 3.0
ADVANCE = 0.4
LORD_SAFETY = 20.0
MAKE_ROOM = 0.5
ROOM_MONEY = 10              # garas enough for two units


@dataclass
class Step:
    to: str
    sources: dict[str, dict[str, int]]
    lord: bool = False
    score: float = 0.0
    attack: bool = False


@dataclass
class Planner:
    sight: Sight
    odds: Odds
    free: dict[str, dict[str, int]] = field(default_factory=dict)
    spare: dict[str, dict[str, int]] = field(default_factory=dict)   # free at the start of the plan
    steps: list[Step] = field(default_factory=list)
    lord: str | None = None
    lord_free: bool = False

    def plan(self) -> list[Step]:
        view = self.sight.view
        self.lord = view["lords"].get(self.sight.player)
        self.lord_free = self.lord is not None
        self.free = garrison.spare(self.sight, lord_moves=False)
        self.spare = {c: dict(u) for c, u in self.free.items()}
        allowed = view["steps_allowed"][self.sight.player]
        safety = self._lord_to_safety()
        if safety is not None:
            self._commit(safety)
        while len(self.steps) < allowed:
            best = max(self._candidates(), key=lambda s: (s.score, s.to), default=None)
            if best is None or best.score <= 0:
                break
            self._commit(best)
        return self.steps

    def _commit(self, step: Step) -> None:
        step.sources = {src: fitted for src, units in step.sources.items() if total(fitted := self._fit(src, units))}
        if not step.sources and not step.lord:
            step.score = 0.0
            return
        self.steps.append(step)
        for src, units in step.sources.items():
            for kind in UNIT_KINDS:
                self.free[src][kind] -= units[kind]
        if step.lord:
            self.lord_free = False

    def _fit(self, src: str, take: dict[str, int]) -> dict[str, int]:
        """``take`` lessened until what stays in a castle keeps the half rule (VI): fewer of the
        other kinds go (never more of the kind that would be too many: it may not reach)."""
        if not self.sight.board.counties[src].castle:
            return take
        take = dict(take)
        have = self.sight.units(src)
        spare = self.spare.get(src, self.free[src])
        while True:
            gone = {k: spare[k] - self.free[src][k] + take[k] for k in UNIT_KINDS}
            stays = {k: have[k] - gone[k] for k in UNIT_KINDS}
            if castle_problem(self.sight.view["version"], stays) is None:
                return take
            over = max(UNIT_KINDS, key=lambda k: stays[k])
            others = [k for k in UNIT_KINDS if k != over and take[k]]
            if not others:
                return {k: 0 for k in UNIT_KINDS}
            take[others[0]] -= 1

    def _taken(self) -> set[str]:
        return {s.to for s in self.steps}

    def _candidates(self) -> list[Step]:
        out = []
        for county in self.sight.open_counties():
            if county in self._taken():
                continue
            owner = self.sight.army_owner(county)
            if owner is None:
                step = self._occupy(county)
            elif self.sight.hostile(county):
                step = self._attack(county)
            elif owner == self.sight.player:
                step = self._reinforce(county)
            else:
                step = None
            if step is not None:
                out.append(step)
        extra = [self._advance(), self._make_room()]
        return out + [step for step in extra if step is not None]

    # -- the kinds of step -------------------------------------------------------------------
    def _reach(self, county: str) -> list[tuple[int, str, dict[str, int]]]:
        """(cost, source, the free units there that reach ``county``), nearest first."""
        out = []
        for src, units in self.free.items():
            if src == county or not total(units):
                continue
            cost = self.sight.cost(src, county)
            movable = self._fit(src, self.sight.movable(units, cost))
            if cost is not None and total(movable):
                out.append((cost, src, movable))
        return sorted(out)

    def _attack(self, county: str) -> Step | None:
        view = self.sight.view
        enough = LAST_YEAR_CHANCE if view["year"] >= view["last_year"] else ATTACK_CHANCE
        group: dict[str, dict[str, int]] = {}
        army = no_units()
        chance = 0.0
        siege = self.sight.board.counties[county].castle and self.sight.view["version"] == "advanced"
        for _, src, units in self._reach(county):
            group[src] = dict(units)
            if siege:
                _half_rule(group)             # VI: besiegers keep the half rule too
            army = {k: sum(u[k] for u in group.values()) for k in UNIT_KINDS}
            if strength(army) < self.sight.defence(county) * 0.6:
                continue
            chance = self.odds.attack(county, army, False)
            if chance >= enough:
                break
        lord = False
        if chance < enough and self._lord_reaches(county) and total(army):
            with_lord = self.odds.attack(county, army, True)
            if with_lord >= LORD_CHANCE:
                chance, lord = with_lord, True
        if chance < enough:
            return None
        cost = strength(army) / 20
        group = {src: units for src, units in group.items() if total(units)}
        return Step(county, group, lord, worth(self.sight, county) * chance - cost, attack=True)

    def _lord_reaches(self, county: str) -> bool:
        if not self.lord_free or self.lord is None:
            return False
        cost = self.sight.cost(self.lord, county)
        return cost is not None and cost <= WARLORD_MOVEMENT_POINTS

    def _occupy(self, county: str) -> Step | None:
        reach = self._reach(county)
        if not reach:
            return None
        castle = self.sight.board.counties[county].castle
        wanted = 3 if castle else 1
        group: dict[str, dict[str, int]] = {}
        for _, src, units in reach:
            take = no_units()
            for kind in ("infantry", "archers", "cavalry"):
                room = wanted - total(take) - sum(total(u) for u in group.values())
                take[kind] = min(units[kind], max(0, room))
            if total(take):
                group[src] = take
            if sum(total(u) for u in group.values()) >= wanted:
                break
        danger = self.sight.threat(county) > 0 and not castle
        return Step(county, group, False, worth(self.sight, county) * (0.6 if danger else 1.0))

    def _reinforce(self, county: str) -> Step | None:
        spot = self.sight.board.counties[county]
        if not spot.castle:
            return None
        here = self.sight.units(county)
        need = self.sight.threat(county) * garrison.MARGIN - self.sight.defence(county)
        if need <= 0:
            return None
        group: dict[str, dict[str, int]] = {}
        for _, src, units in self._reach(county):
            take = no_units()
            for kind in ("archers", "infantry", "cavalry"):
                for _ in range(units[kind]):
                    after = {k: here[k] + take[k] + (k == kind) for k in UNIT_KINDS}
                    if castle_problem(self.sight.view["version"], after) is None:
                        take[kind] += 1
            if total(take):
                group[src] = take
                here = {k: here[k] + take[k] for k in UNIT_KINDS}
            if total(here) >= CASTLE_LIMIT:
                break
        return Step(county, group, False, REINFORCE) if group else None

    def _advance(self) -> Step | None:
        """The largest free group not next to anything to take moves to my county nearest the targets."""
        sight = self.sight
        goals = {c for c in sight.open_counties() if sight.army_owner(c) != sight.player
                 and sight.view["owner"].get(c) != sight.player}
        if not goals:
            return None
        best: tuple[int, str, str] | None = None
        for src, units in self.free.items():
            if total(units) < 2:
                continue
            here = sight.hops(src, goals)
            for dst in sight.mine():
                cost = sight.cost(src, dst)
                movable = sight.movable(units, cost)
                if not total(movable) or sight.hops(dst, goals) >= here:
                    continue
                after = {k: sight.units(dst)[k] + movable[k] for k in UNIT_KINDS}
                if sight.board.counties[dst].castle and castle_problem(sight.view["version"], after):
                    continue
                option = (-total(movable), src, dst)
                if best is None or option < best:
                    best = option
        if best is None:
            return None
        _, src, dst = best
        return Step(dst, {src: sight.movable(self.free[src], sight.cost(src, dst))}, False, ADVANCE)

    def _make_room(self) -> Step | None:
        """A full castle's free units out into my open county nearest the targets, so that the
        treasury can buy units there next year (III: recruits stand only in castles, 7 at most)."""
        sight = self.sight
        if sight.view["treasury"].get(sight.player, 0) < ROOM_MONEY:
            return None
        goals = {c for c in sight.open_counties() if sight.hostile(c) or sight.army_owner(c) is None}
        for castle in sight.mine():
            if not sight.board.counties[castle].castle or total(sight.units(castle)) < CASTLE_LIMIT - 1:
                continue
            options = []
            for dst in sight.open_counties():
                mine_or_empty = sight.army_owner(dst) == sight.player or (
                    sight.army_owner(dst) is None and sight.view["owner"].get(dst) == sight.player)
                if dst == castle or sight.board.counties[dst].castle or not mine_or_empty:
                    continue
                movable = self._fit(castle, sight.movable(self.free[castle], sight.cost(castle, dst)))
                if total(movable):
                    options.append((sight.hops(dst, goals), dst, movable))
            if options:
                _, dst, movable = min(options, key=lambda o: (o[0], o[1]))
                return Step(dst, {castle: movable}, False, MAKE_ROOM)
        return None

    def _lord_to_safety(self) -> Step | None:
        sight, lord = self.sight, self.lord
        if lord is None or sight.defence(lord) >= sight.threat(lord) * garrison.MARGIN:
            return None
        options = []
        for castle in sight.mine():
            cost = sight.cost(lord, castle)
            if castle == lord or not sight.board.counties[castle].castle or cost is None \
                    or cost > WARLORD_MOVEMENT_POINTS:
                continue
            margin = sight.defence(castle) - sight.threat(castle)
            options.append((-margin, castle))
        if not options:
            return None
        margin, castle = min(options)
        if -margin <= sight.defence(lord) - sight.threat(lord):
            return None
        return Step(castle, {}, True, LORD_SAFETY)


def _half_rule(group: dict[str, dict[str, int]]) -> None:
    """Fewer of the kind that is more than half (rounded up) of a group of more than 4 (VI),
    taken from the last sources first."""
    while half_rule({k: sum(u[k] for u in group.values()) for k in UNIT_KINDS}):
        army = {k: sum(u[k] for u in group.values()) for k in UNIT_KINDS}
        over = max(UNIT_KINDS, key=lambda k: army[k])
        src = next(c for c in reversed(list(group)) if group[c][over])
        group[src][over] -= 1


def write(view: dict[str, Any], player: str, rng: Rng) -> list[str]:
    sight = Sight(view, player)
    odds = Odds(sight, f"{view['year']}/{player}/{rng.choice(range(1 << 30), 'computer player')}")
    steps = Planner(sight, odds).plan() if view["lords"].get(player) or sight.mine() else []
    lines = steps_text(steps)
    lines += battle_plan.write(sight, steps)
    if view.get("movement_method") == "traditional" and player == view.get("starting"):
        lines.append("move: first")          # VI (l.360): its attacks are made on the board it saw
    return lines


def steps_text(steps: list[Step]) -> list[str]:
    if not steps:
        return ["steps: []"]
    lines = ["steps:"]
    for step in steps:
        lines.append(f"  - to: {step.to}")
        sources = {c: u for c, u in step.sources.items() if total(u)}
        if sources:
            lines.append(f"    from: {places_text(sources)}")
        if step.lord:
            lines.append("    lord: yes")
    return lines
