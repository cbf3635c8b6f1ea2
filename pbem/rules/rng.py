"""Seeded dice. The judge makes one ``Rng`` per game and phase from the game's secret seed
(DESIGN.md, "Determinism"); rules never touch the global ``random``.

A game's dice have a version, recorded in its stored options under ``DICE_KEY``
(docs/architecture.md, "Chance and replay"): a stored game keeps the dice it was created with.

- Version 1 (games stored before dice were versioned; the key is absent): Python's
  ``random.Random`` seeded from the SHA-256 of the seed text. Python does not promise to keep
  its sequences across versions; it stays here, unchanged, so that those games replay.
- Version 2 (every new game): a counter-based generator that any language can reproduce.
  Block ``i`` (i = 0, 1, 2, ...) is ``SHA-256(UTF-8(seed) || i as 8 bytes, big-endian)``; each
  draw takes the next unused blocks in order. A whole number in [0, n) takes the top
  ``k = bit_length(n - 1)`` bits of a block (as a big-endian number) and draws again with the
  next block while they are ``>= n`` (rejection: no modulo bias). ``d6`` is 1 + [0, 6),
  ``die``/``choice`` pick ``items[[0, len)]``, ``shuffle`` is Fisher–Yates from the last place
  down (place i swaps with [0, i + 1)), ``token(nbytes)`` is the hex of the first ``nbytes``
  bytes of the next ``ceil(nbytes / 32)`` blocks.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, Mapping, MutableSequence, Sequence, TypeVar

T = TypeVar("T")

DICE_KEY = "dice"        # reserved key of a game's stored options: its dice version
FIRST_DICE = 1           # a game stored without the key: random.Random
DICE_VERSION = 2         # what a new game gets: the counter-based SHA-256 dice

_BLOCK_BITS = 256


class _RandomDice:
    """Version 1: Python's Mersenne Twister, exactly as games before version 2 drew."""

    def __init__(self, seed: str):
        digest = hashlib.sha256(seed.encode("utf-8")).digest()
        self._random = random.Random(int.from_bytes(digest[:16], "big"))

    def d6(self) -> int:
        return self._random.randint(1, 6)

    def below(self, n: int) -> int:
        return self._random.randrange(n)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._random.shuffle(items)

    def hex(self, nbytes: int) -> str:
        return "%0*x" % (nbytes * 2, self._random.getrandbits(nbytes * 8))


class _CounterDice:
    """Version 2: SHA-256 of the seed and a counter (the module's docstring is its definition)."""

    def __init__(self, seed: str):
        self._seed = seed.encode("utf-8")
        self._counter = 0

    def _block(self) -> bytes:
        block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return block

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError(f"cannot draw a whole number in [0, {n}): the range is empty")
        k = (n - 1).bit_length()
        while True:
            x = int.from_bytes(self._block(), "big") >> (_BLOCK_BITS - k)
            if x < n:
                return x

    def d6(self) -> int:
        return 1 + self.below(6)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):   # Fisher–Yates
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def hex(self, nbytes: int) -> str:
        blocks = b"".join(self._block() for _ in range(-(-nbytes // 32)))
        return blocks[:nbytes].hex()


_DICE: dict[int, type[_RandomDice] | type[_CounterDice]] = {1: _RandomDice, 2: _CounterDice}
_KNOWN = ", ".join(map(str, sorted(_DICE)))


def dice_version(options: Mapping[str, Any]) -> int:
    """The dice version a game's stored options record (absent: version 1). Raises ValueError,
    naming the versions this pbem knows, for one it does not (a game stored by a newer pbem)."""
    raw = options.get(DICE_KEY, FIRST_DICE)
    if not _known(raw):
        raise ValueError(f"the game's stored options have dice version {raw!r}, which this pbem "
                         f"does not know (it knows {_KNOWN}): run the game with the pbem that "
                         f"created it, or a newer one")
    return raw


def _known(dice: Any) -> bool:
    return isinstance(dice, int) and not isinstance(dice, bool) and dice in _DICE


class Rng:
    """A deterministic source of chance. Every draw is recorded in ``rolls`` (what, result)
    so the archive can show the dice of a phase to the game master. ``dice`` is the version of
    the generator (see the module's docstring); tests and new games use DICE_VERSION."""

    def __init__(self, seed: str, dice: int = DICE_VERSION):
        if not _known(dice):
            raise ValueError(f"no dice version {dice!r}: the versions are {_KNOWN}")
        self.dice = dice
        self._source = _DICE[self.dice](seed)
        self.rolls: list[tuple[str, object]] = []

    @staticmethod
    def for_phase(game_seed: str, phase_id: str, dice: int = DICE_VERSION) -> "Rng":
        return Rng(f"{game_seed}/{phase_id}", dice)

    def d6(self, why: str = "d6") -> int:
        value = self._source.d6()
        self.rolls.append((why, value))
        return value

    def die(self, faces: Sequence[T], why: str = "die") -> T:
        """One roll of a die with these faces (a game's own dice, e.g. Fief's battle die)."""
        return self.choice(faces, why)

    def shuffle(self, items: MutableSequence[T], why: str = "shuffle") -> None:
        self._source.shuffle(items)
        self.rolls.append((why, len(items)))

    def choice(self, items: Sequence[T], why: str = "choice") -> T:
        value = items[self._source.below(len(items))]
        self.rolls.append((why, value))
        return value

    def token(self, nbytes: int = 8) -> str:
        """Random hex text (for ids a game needs); recorded like any draw."""
        value = self._source.hex(nbytes)
        self.rolls.append(("token", value))
        return value
