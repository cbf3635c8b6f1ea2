"""Seeded dice. The judge makes one ``Rng`` per game and phase from the game's secret seed
(DESIGN.md, "Determinism"); rules never touch the global ``random``."""
from __future__ import annotations

import hashlib
import random
from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

# Fief battle die (6.2.3.4): one blank face, two faces with 1 hit, two with 2, one with 3.
BATTLE_DIE_FACES = (0, 1, 1, 2, 2, 3)


class Rng:
    """A deterministic source of chance. Every draw is recorded in ``rolls`` (what, result)
    so the archive can show the dice of a phase to the game master."""

    def __init__(self, seed: str):
        digest = hashlib.sha256(seed.encode("utf-8")).digest()
        self._random = random.Random(int.from_bytes(digest[:16], "big"))
        self.rolls: list[tuple[str, object]] = []

    @staticmethod
    def for_phase(game_seed: str, phase_id: str) -> "Rng":
        return Rng(f"{game_seed}/{phase_id}")

    def d6(self, why: str = "d6") -> int:
        value = self._random.randint(1, 6)
        self.rolls.append((why, value))
        return value

    def battle_die(self, why: str = "battle die") -> int:
        """Hits shown by one battle die (6.2.3.4)."""
        value = BATTLE_DIE_FACES[self._random.randrange(6)]
        self.rolls.append((why, value))
        return value

    def shuffle(self, items: MutableSequence[T], why: str = "shuffle") -> None:
        self._random.shuffle(items)
        self.rolls.append((why, len(items)))

    def choice(self, items: Sequence[T], why: str = "choice") -> T:
        value = items[self._random.randrange(len(items))]
        self.rolls.append((why, value))
        return value

    def token(self, nbytes: int = 8) -> str:
        """Random hex text (for ids a game needs); recorded like any draw."""
        value = "%0*x" % (nbytes * 2, self._random.getrandbits(nbytes * 8))
        self.rolls.append(("token", value))
        return value
