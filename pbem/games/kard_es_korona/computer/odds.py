"""How likely an attack is to win: the battle itself fought a few times by the battle package
(III. Battle; VI) on dice of the computer player's own, seeded from its ``Rng``, against the
units its view shows in the county (and their lord). Deterministic from that seed."""
from __future__ import annotations

from pbem.games.kard_es_korona.battle_adapter import BattleInput, Side, resolve_battle
from pbem.games.kard_es_korona.computer.sight import Sight
from pbem.games.kard_es_korona.state import is_neutral, total
from pbem.rules.rng import Rng

TRIES = 12
LORD_TRIES = 60          # the lord's defeat ends a player (III): asked more carefully


class Odds:
    """Win chances of attacks, each fought ``TRIES`` times (``LORD_TRIES`` with the lord; the
    same question asked twice is answered from memory)."""

    def __init__(self, sight: Sight, seed: str):
        self.sight = sight
        self.seed = seed
        self._known: dict[tuple[str, tuple[int, ...], bool], float] = {}

    def attack(self, county: str, units: dict[str, int], lord: bool) -> float:
        """The share of tries the attackers win (they hold ``county`` afterwards)."""
        if total(units) == 0:
            return 0.0
        key = (county, tuple(units[k] for k in sorted(units)), lord)
        if key not in self._known:
            self._known[key] = self._fight(county, units, lord)
        return self._known[key]

    def _fight(self, county: str, units: dict[str, int], lord: bool) -> float:
        sight, view = self.sight, self.sight.view
        spot = sight.board.counties[county]
        owner = sight.army_owner(county) or "royal"
        judge = view["offices"]["judge_royal"]
        mine = Side(sight.player, dict(units), False, lord=lord, judge_royal=judge == sight.player)
        theirs = Side(owner, sight.units(county), is_neutral(owner), lord=sight.lord_at(county) == owner,
                      judge_royal=judge == owner)
        battle = BattleInput(county, spot.terrain, bool(spot.castle), mine, theirs, view["version"] == "advanced")
        rng = Rng(f"{self.seed}/{county}/{key_text(units)}/{lord}")
        tries = LORD_TRIES if lord else TRIES
        wins = sum(resolve_battle(battle, rng).winner == "attacker" for _ in range(tries))
        return wins / tries


def key_text(units: dict[str, int]) -> str:
    return ",".join(f"{k}{n}" for k, n in sorted(units.items()))
