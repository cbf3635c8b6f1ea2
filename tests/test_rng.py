"""The dice (pbem/rules/rng.py; docs/architecture.md, "Chance and replay"): golden values that
fail loudly if either generator changes, and the documented function reproduced from its text."""
from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from pbem.games.fief.battle.dice import BATTLE_DIE_FACES, battle_die
from pbem.rules.rng import DICE_KEY, DICE_VERSION, FIRST_DICE, Rng, dice_version


def draws(rng: Rng) -> dict:
    """The same draws, in this order, for each golden value below."""
    d6 = [rng.d6() for _ in range(20)]
    battle = [battle_die(rng) for _ in range(12)]
    items = list(range(10))
    rng.shuffle(items)
    return {"d6": d6, "battle": battle, "shuffle": items, "choice": rng.choice("abcdefg"),
            "token": rng.token(), "token40": rng.token(40)}


# Version 2, the counter-based dice of every new game. A change here changes every new game's
# dice: it must be a new version, not an edit of this one.
GOLDEN_2 = {
    "d6": [3, 6, 3, 5, 6, 2, 5, 1, 5, 5, 6, 1, 6, 4, 5, 1, 3, 5, 1, 5],
    "battle": [2, 2, 1, 1, 2, 1, 2, 2, 3, 3, 1, 1],
    "shuffle": [6, 8, 1, 0, 7, 2, 3, 4, 5, 9],
    "choice": "e",
    "token": "0020bbc1647a4d8a",
    "token40": "80d1c2f698e11b8435fa3118e385997f0536df61db60bbbc5b6a9ba2f5b07c8522c884524e023073",
}

# Version 1, random.Random, as pbem drew before dice were versioned (values taken from the
# commit before the change, under Python 3.11): games stored then replay only if these hold.
GOLDEN_1 = {
    "d6": [2, 2, 1, 1, 4, 1, 5, 2, 5, 2, 3, 5, 1, 4, 4, 5, 5, 3, 5, 4],
    "battle": [1, 1, 0, 0, 2, 0, 0, 3, 1, 3, 2, 1],
    "shuffle": [6, 3, 7, 2, 9, 5, 0, 4, 1, 8],
    "choice": "d",
    "token": "22fdf4e5fecd9823",
    "token40": "1a5ee8be1fdf52b83e5cf39dbaf53f7e9f31c019dde792de52c8d419a3935b9be5b9d15bb0e9bbde",
}


def test_new_dice_are_the_counter_based_version_2():
    assert DICE_VERSION == 2 and Rng("x").dice == 2 and Rng.for_phase("s", "p").dice == 2


@pytest.mark.parametrize("version, golden, phase_dice", [(2, GOLDEN_2, [2, 6]), (1, GOLDEN_1, [1, 5])],
                         ids=["version 2", "version 1 unchanged"])
def test_golden_values(version: int, golden: dict, phase_dice: list[int]):
    assert FIRST_DICE == 1
    assert draws(Rng("golden", version)) == golden
    rng = Rng.for_phase("seed", "3:p", version)   # the seed text of a phase is "<game seed>/<phase>"
    assert [rng.d6(), rng.d6()] == phase_dice


# -- the documented function, written again from docs/architecture.md ------------------------

def spec_block(seed: str, i: int) -> int:
    return int.from_bytes(hashlib.sha256(seed.encode("utf-8") + i.to_bytes(8, "big")).digest(), "big")


class Spec:
    def __init__(self, seed: str):
        self.seed, self.i = seed, 0

    def below(self, n: int) -> int:
        k = (n - 1).bit_length()
        while True:
            x = spec_block(self.seed, self.i) >> (256 - k)
            self.i += 1
            if x < n:
                return x


def test_the_generator_is_the_documented_function():
    rng, spec = Rng("spec é", 2), Spec("spec é")
    for n in [1, 2, 3, 5, 6, 7, 8, 9, 36, 52, 100, 1000, 2 ** 40 + 3] * 5:
        assert rng.choice(range(n)) == spec.below(n)
    assert rng.d6() == 1 + spec.below(6)
    items, expected = list("abcdefghij"), list("abcdefghij")
    rng.shuffle(items)
    for i in range(9, 0, -1):   # Fisher–Yates from the last place down
        j = spec.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert rng.token(4) == spec_block("spec é", spec.i).to_bytes(32, "big")[:4].hex()


def test_rejection_draws_again_rather_than_folding_high_values():
    # The first block of "golden" has top bits 2 (d6: 3); its second has top bits 6, out of
    # [0, 6): it is rejected and the third (5) gives 6. A modulo would have given 6 % 6 + 1 = 1.
    assert [spec_block("golden", i) >> 253 for i in range(3)] == [2, 6, 5]
    rng = Rng("golden", 2)
    assert [rng.d6(), rng.d6()] == [3, 6]


def test_every_face_comes_up_about_as_often():
    rng = Rng("fair", 2)
    counts = Counter(rng.d6() for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(900 <= c <= 1100 for c in counts.values()), counts
    hits = Counter(battle_die(rng) for _ in range(6000))
    assert all(abs(hits[face] - 1000 * BATTLE_DIE_FACES.count(face)) <= 200 for face in set(BATTLE_DIE_FACES)), hits


def test_each_draw_is_recorded():
    rng = Rng("rolls")
    rng.d6("movement disaster")
    battle_die(rng, "battle in Lyon")
    rng.shuffle([1, 2, 3], "deck")
    rng.choice(["a"], "who")
    assert [why for why, _ in rng.rolls] == ["movement disaster", "battle in Lyon", "deck", "who"]
    assert rng.rolls[2] == ("deck", 3)


def test_the_dice_version_of_stored_options():
    assert dice_version({}) == 1   # stored before dice were versioned
    assert dice_version({DICE_KEY: 2, "rules_version": 2}) == 2
    for bad in (3, "2", True, None):
        with pytest.raises(ValueError, match="does not know .*it knows 1, 2"):
            dice_version({DICE_KEY: bad})
    with pytest.raises(ValueError, match="no dice version 0: the versions are 1, 2"):
        Rng("x", 0)


def test_an_empty_range_is_a_clear_error():
    with pytest.raises(ValueError, match="empty"):
        Rng("x").choice([])
