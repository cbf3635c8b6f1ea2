"""The two sides of a battle (6, 6.1): which families, unit pawns and lords fight, and what
they are worth (6.2.3.1 Combat Points, 6.2.3.4 hits needed)."""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.fief.battle.plan import BattleSetup
from pbem.games.fief.edition import TitleBonus, edition_of
from pbem.games.fief.state import FiefState

# The unit pawns' Combat Points are the edition's (6.2.3.1; France: games/fief_france/edition.yaml),
# and so are its royal guard's (its `royal_guard` hook; France 1.5.5: worth a knight and a
# man-at-arms, each adding 1 hit per battle round).


def combat_points(state: FiefState, kind: str) -> int:
    """6.2.3.1, 1.5.5: a pawn's Combat Points. 6.2.3.4: the hits needed to eliminate it are as
    many, which is why "as much CP as possible" and "as many hits used as possible" are the same
    thing; a pawn worth none (a bombard) takes no hit: it only falls when left alone."""
    edition = edition_of(state)
    return edition.units[kind].combat_points if kind in edition.units else edition.hooks.royal_guard[kind].combat_points


class BattleError(ValueError):
    """A battle setup the rules do not allow (a bug in the caller, named precisely)."""


@dataclass
class Side:
    role: str                    # "attacker" | "defender"
    leader: str                  # the offensive / defensive leader (6)
    families: list[str]          # leader first, then confederates in the order they joined (6.1)
    units: list[str] = field(default_factory=list)   # pawn ids fighting
    lords: list[str] = field(default_factory=list)   # lord names fighting


def build_sides(state: FiefState, setup: BattleSetup) -> tuple[Side, Side]:
    """Both sides from the setup: every pawn and non-captive lord of the side's families in
    the town, or exactly the pawns and lords the setup lists (a cavalcade, 5.2.4)."""
    _check(state, setup)
    sides = []
    for role, leader, families, units, lords in (
            ("attacker", setup.attacker, setup.attacker_side, setup.attacker_units, setup.attacker_lords),
            ("defender", setup.defender, setup.defender_side, setup.defender_units, setup.defender_lords)):
        fams = list(dict.fromkeys(families))
        side = Side(role, leader, fams)
        side.units = list(units) if units is not None else [
            p.id for p in state.pawns.values() if p.location == setup.town and p.family in fams]
        side.lords = list(lords) if lords is not None else [
            lo.name for lo in state.lords.values()
            if lo.location == setup.town and lo.family in fams and not lo.captive_of]
        for pid in side.units:
            if pid not in state.pawns or state.pawns[pid].family not in fams:
                raise BattleError(f"pawn {pid!r} is not a pawn of the {role} side ({', '.join(fams)})")
        for name in side.lords:
            lord = state.lords.get(name)
            if lord is None or lord.family not in fams or lord.captive_of:
                raise BattleError(f"lord {name!r} cannot fight on the {role} side "
                                  "(not in play, another family's, or captive)")
        sides.append(side)
    return sides[0], sides[1]


def _check(state: FiefState, setup: BattleSetup) -> None:
    if setup.town not in state.towns:
        raise BattleError(f"{setup.town!r} is not a town of this game")
    a, d = setup.attacker_side, setup.defender_side
    if not a or a[0] != setup.attacker or not d or d[0] != setup.defender:
        raise BattleError("each side lists its leader first (6.1): attacker_side[0] must be the attacker "
                          "and defender_side[0] the defender")
    both = set(a) & set(d)
    if both:
        raise BattleError(f"{', '.join(sorted(both))} cannot be on both sides")
    for fam in a + d:
        if fam not in state.families:
            raise BattleError(f"{fam!r} is not a family of this game")
    if setup.cavalcade and len(a) > 1:
        raise BattleError("in a cavalcade only the defender may have confederates (5.2.4)")


def side_cp(state: FiefState, side: Side) -> int:
    """6.2.3.1: pawns by kind, 1 per male lord, 1 per titled female lord."""
    cp = sum(combat_points(state, state.pawns[p].kind) for p in side.units)
    for name in side.lords:
        lord = state.lords[name]
        cp += 1 if (not lord.female or lord.titled) else 0
    return cp


def base_dice(state: FiefState, side: Side, cp: int) -> int:
    """6.2.3.1: 1-6 CP: 1 die, 7-12: 2, 13+: 3; a lord whose title gives dice adds them once per
    side (France: D'Arc adds 1, G.4.1.1, "the sole case where a player may roll 4 battle dice")."""
    dice = 0 if cp <= 0 else 1 if cp <= 6 else 2 if cp <= 12 else 3
    bonus = side_bonus(state, side)
    return dice + bonus.dice if dice and bonus else dice


def side_bonus(state: FiefState, side: Side) -> TitleBonus | None:
    """G.4.1.1: the bonus of a lord's title on a battle side (France: D'Arc), or None."""
    return edition_of(state).bonus(state.lords[n].political for n in side.lords)


def fighters(state: FiefState, side: Side) -> list[str]:
    """Unit pawns that take hits (all but bombards, 6.2.3.4)."""
    return [p for p in side.units if combat_points(state, state.pawns[p].kind)]


def kinds_count(state: FiefState, pawns: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for pid in pawns:
        kind = state.pawns[pid].kind
        out[kind] = out.get(kind, 0) + 1
    return dict(sorted(out.items()))   # kinds in a fixed order, for reports that do not vary
