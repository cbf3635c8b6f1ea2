"""The judge's regular expressions cannot backtrack without bound on what a mail says.

Python's `re` backtracks: an unbounded repeat directly followed by another that can match the
same characters (`(\\S.*?)\\s*$`, `[a-z]*[^<>]*>`) tries every split of a run of those characters,
for each start: a 64,000-character run took 30 s, far more than any clock-free test would show
by counting calls (the work is done inside C). So the shape is checked instead: every pattern
the mail and order readers and the judge keep at module level is parsed (the `re` module's own parser), and
no unbounded repeat may be followed, with only optional items between, by an unbounded repeat
whose characters overlap its own. A possessive repeat, an atomic group or a lookahead between
the two (`[a-z]*(?![a-z])`) is a deliberate barrier.
"""
from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import pbem.judge
import pbem.mail
import pbem.orders

from re import _compiler as sre_compile, _constants as C, _parser as sre_parse  # Python >= 3.11 (pyproject)

PROBE = [chr(c) for c in range(0x250)] + ["\u2028", "\u3000", "\ufeff", "\U0001f600"]
REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT}
OPTIONAL_BETWEEN = REPEATS | {C.AT}   # items that may match nothing between two repeats
PACKAGES = (pbem.mail, pbem.orders, pbem.judge)


def patterns() -> list[tuple[str, re.Pattern]]:
    found = []
    for package in PACKAGES:
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                    found.append((f"{info.name}.{name}", value))
    return found


def chars_of(items, state, flags: int) -> set[str]:
    """The characters any single-character item among `items` (walked into) can match."""
    chars: set[str] = set()
    for op, av in items:
        if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            rx = sre_compile.compile(sre_parse.SubPattern(state, [(op, av)]), flags)
            chars |= {ch for ch in PROBE if rx.fullmatch(ch)}
        elif op in REPEATS:
            chars |= chars_of(av[2], state, flags)
        elif op is C.SUBPATTERN:
            chars |= chars_of(av[3], state, flags)
        elif op is C.BRANCH:
            for branch in av[1]:
                chars |= chars_of(branch, state, flags)
    return chars


SINGLE = (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN)
EMPTY_WIDTH = (C.AT, C.ASSERT, C.ASSERT_NOT)


def nullable(items) -> bool:
    """Whether `items` can match the empty string."""
    for op, av in items:
        if op in EMPTY_WIDTH or (op in REPEATS and av[0] == 0):
            continue
        if op in REPEATS and nullable(av[2]):
            continue
        if op is C.SUBPATTERN and nullable(av[3]):
            continue
        if op is C.BRANCH and any(nullable(b) for b in av[1]):
            continue
        return False
    return True


def first_chars(items, state, flags: int) -> set[str]:
    """The characters a match of `items` can begin with: only these can be taken from the end
    of a repeat before it (`[!-~]+(?: [!-~]+)*` is linear: the second repeat begins with a space
    the first cannot match). Anything unknown counts as every character it may match."""
    chars: set[str] = set()
    for op, av in items:
        if op in SINGLE:
            return chars | chars_of([(op, av)], state, flags)
        if op in EMPTY_WIDTH:
            continue
        if op in REPEATS:
            chars |= first_chars(av[2], state, flags)
            if av[0] > 0 and not nullable(av[2]):
                return chars
        elif op is C.SUBPATTERN:
            chars |= first_chars(av[3], state, flags)
            if not nullable(av[3]):
                return chars
        elif op is C.BRANCH:
            for branch in av[1]:
                chars |= first_chars(branch, state, flags)
            if not any(nullable(b) for b in av[1]):
                return chars
        else:
            return chars | chars_of(items, state, flags) | set(PROBE)
    return chars


def sequence(items) -> list:
    """The items in order, plain groups opened (their content is adjacent to what follows)."""
    out = []
    for op, av in items:
        if op is C.SUBPATTERN:
            out += sequence(av[3])
        else:
            out.append((op, av))
    return out


def overlapping_repeats(items, state, flags: int) -> list[str]:
    found = []
    seq = sequence(items)
    for i, (op, av) in enumerate(seq):
        if op in REPEATS:
            found += overlapping_repeats(av[2], state, flags)
        elif op is C.BRANCH:
            for branch in av[1]:
                found += overlapping_repeats(branch, state, flags)
        if op not in REPEATS or av[1] != C.MAXREPEAT:
            continue
        mine = chars_of(av[2], state, flags)
        for op2, av2 in seq[i + 1:]:
            if op2 not in OPTIONAL_BETWEEN:
                break
            if op2 in REPEATS and av2[1] == C.MAXREPEAT:
                common = mine & first_chars(av2[2], state, flags)
                if common:
                    found.append(f"a repeat followed by another over {''.join(sorted(common))[:20]!r}")
                    break
            if op2 in REPEATS and av2[0] > 0:
                break   # it must match something: what follows is no longer adjacent
    return found


def problems(pattern: re.Pattern) -> list[str]:
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    return overlapping_repeats(parsed.data, parsed.state, pattern.flags)


PATTERNS = patterns()


@pytest.mark.parametrize("name, pattern", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_no_pattern_of_the_mail_readers_backtracks_without_bound(name, pattern):
    assert problems(pattern) == [], f"{name} = {pattern.pattern!r}"


def test_the_check_sees_the_shapes_that_backtracked():
    """The two patterns that took 30 s on a 64,000-character run (issue 10), and their fixes."""
    assert problems(re.compile(r"^(?:-[ \t]+)*([a-z_][a-z0-9_]*)[ \t]+(\S.*?)\s*$"))
    assert problems(re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)([^<>]*)>"))
    assert problems(re.compile(r"a*a*$")) and problems(re.compile(r"x\s*(?:y)?\s*$"))
    assert not problems(re.compile(r"^(?:-[ \t]+)*([a-z_][a-z0-9_]*)[ \t]+(\S(?:.*\S)?)\s*$"))
    assert not problems(re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)(?![A-Za-z0-9:-])([^<>]*)>"))
    # A repeat whose every turn begins with a character the one before cannot match is linear.
    assert not problems(re.compile(r"[!-~]+(?: [!-~]+)*"))
    assert problems(re.compile(r"[!-~]+(?:[ !]+)*")) and problems(re.compile(r"\w+(?:\s*\w+)*"))
    assert len(PATTERNS) >= 15
