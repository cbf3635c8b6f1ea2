"""Battle dice: the Fortress penalty and its cancelling (6.2.3.2-3, 6.4.3, 6.4.4, G.4.2.2) and
the roll itself with bombard re-rolls, royal guard hits and the cavalcade bonus (6.2.3.4,
1.5.5, 5.2.4)."""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.rules.rng import Rng

PENALTY = {"stronghold": 1, "city": 2}   # 6.2.3.2
UNDERGROUND_CANCELS = 2                  # 6.2.3.3 (G.4.2.2: "ignore any Fortress penalty")
# Ruling: a bombard re-rolls a die only if it shows less than the average face, 1.5 hits.
REROLL_BELOW = 2
# 6.2.3.4: "1 face with no hit symbol, 2 faces with 1 hit symbol, 2 faces with 2 hit symbols and
# 1 face with 3 hit symbols".
BATTLE_DIE_FACES = (0, 1, 1, 2, 2, 3)


@dataclass
class Penalty:
    """The Fortress penalty against the attacking side and what cancelled it."""

    fortress: int = 0        # 6.2.3.2: 1 stronghold, 2 city, 0 when it does not apply
    engines: int = 0         # cancelled by siege engine markers (6.4.3)
    bombards: int = 0        # cancelled by bombards, 1 each (6.2.3.3)
    underground: int = 0     # cancelled by an underground card (G.4.2.2)

    @property
    def left(self) -> int:
        return self.fortress - self.engines - self.bombards - self.underground

    def text(self) -> str:
        if not self.fortress:
            return ""
        parts = [f"-{self.fortress} fortress"]
        for n, what in ((self.engines, "siege engines"), (self.bombards, "bombards"),
                        (self.underground, "underground")):
            if n:
                parts.append(f"+{n} {what}")
        return " ".join(parts)


def cancel_penalty(fortress: int, engine_values: int, bombards: int, underground: bool) -> Penalty:
    """6.2.3.3 in its order: siege engines (their values), then 1 per bombard for what is
    left, then the underground card for up to 2."""
    p = Penalty(fortress=fortress)
    p.engines = min(fortress, engine_values)
    p.bombards = min(fortress - p.engines, bombards)
    if underground:
        p.underground = min(fortress - p.engines - p.bombards, UNDERGROUND_CANCELS)
    return p


@dataclass
class Roll:
    dice: int                                          # battle dice rolled
    faces: list[int] = field(default_factory=list)     # final faces, in rolling order
    rerolls: list[tuple[int, int]] = field(default_factory=list)   # (face before, after)
    guard: int = 0                                     # 1.5.5: +1 per royal guard pawn
    cavalcade: int = 0                                 # 5.2.4: defender +1 per die rolled
    archers: int = 0                                   # 6.2.2: +1 per archer after the first

    @property
    def hits(self) -> int:
        return sum(self.faces) + self.guard + self.cavalcade + self.archers

    def text(self) -> str:
        if not self.dice and not self.faces:
            out = "no die"
        else:
            out = f"{self.dice} {'die' if self.dice == 1 else 'dice'} {self.faces}"
        for before, after in self.rerolls:
            out += f" (a bombard re-rolls a {before}: {after})"
        for n, what in ((self.archers, "for the other archers"), (self.guard, "royal guard"),
                        (self.cavalcade, "cavalcade defence")):
            if n:
                out += f" +{n} {what}"
        return out + f" = {self.hits} {'hit' if self.hits == 1 else 'hits'}"


def battle_die(rng: Rng, why: str = "battle die") -> int:
    """Hits shown by one battle die (6.2.3.4)."""
    return rng.die(BATTLE_DIE_FACES, why)


def roll_dice(rng: Rng, dice: int, rerolls: int, why: str) -> Roll:
    """6.2.3.4: ``dice`` battle dice; then one re-roll per bombard allowed, each on a different
    die: the lowest die not re-rolled yet, if it shows less than REROLL_BELOW hits."""
    roll = Roll(dice=dice, faces=[battle_die(rng, why) for _ in range(dice)])
    done: set[int] = set()
    for _ in range(rerolls):
        candidates = [i for i in range(dice) if i not in done and roll.faces[i] < REROLL_BELOW]
        if not candidates:
            break
        i = min(candidates, key=lambda k: (roll.faces[k], k))
        before = roll.faces[i]
        roll.faces[i] = battle_die(rng, why + " (bombard re-roll)")
        roll.rerolls.append((before, roll.faces[i]))
        done.add(i)
    return roll
