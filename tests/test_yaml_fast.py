"""The order loader's fast path (libyaml's parser, one pass) against its reference (PyYAML's
Python parser and composer): same values, same lines, and every problem left to the reference.

The mutation test is how the constructs in yamlsafe._FAST_DECLINES were found: it mutates
order documents at random (seeded, so every run checks the same documents) and demands that
whatever the fast path returns, the reference returns too."""
from __future__ import annotations

import random

import pytest

from pbem.orders import yamlsafe
from pbem.orders.yamlsafe import YMap, YSeq, YamlProblem, load

pytestmark = pytest.mark.skipif(yamlsafe._CParser is None, reason="PyYAML without libyaml: no fast path")

SEEDS = [
    """game: b00000
player: dave
secret: dchh-pruv-wdad
phase: setup/starting-towns
orders:
  - start: [Rennes, Nantes, Lisieux]
""",
    """game: loire   # the game
player: "anne"
secret: 'x-y-z'
phase: spring/1
ready: no
orders:
  - move: {army: A1, from: Tours, to: Blois}
  - move:
      army: A2
      path:
        - Orléans
        - Paris
  - note: |
      a long text
      on two lines
  - buy: 3
    what: soldiers
  - marry: ~
  - "quoted key": 1e3
  - list: [ 12:30, 0x1F, on, '' ]
""",
    "game: g\r\nplayer: p\r\nsecret: s\r\norders:\r\n- a: b\r\n- c: >\r\n    folded\r\n    text\r\n",
    """---
game: "loire\\u00e9 \\"x\\""
player: 'it''s me'
secret: plain text
  continued here
phase:
orders:
- { a: 1, b: [2, 3], c: "x, y" }
- - nested
  - [deep, [deeper, {k: v}]]
- key with spaces: 'value with: colon'
  other: 'single # not comment'   # comment
- empty:
  tilde: ~
  null: null
  "": x
- multi: >+
    keep

- lit: |2-
     indented
...
""",
]
PIECES = list(" :-[]{},#&*!|>'\"\t\n?%@`~\\\r") + [
    "\x85", "\u2028", "\u2029", "a", "1", "é", "- ", ": ", "\n  ", "\n- ", "---", "...", "\ufeff",
    "\u00a0", "0x1F", "<<", "&a ", "*a", "!!str ", "! "]


def shape(value):
    """Everything a rule may read of a loaded document: values, their types and their lines."""
    if isinstance(value, YMap):
        return ("map", value.line, [(k, value.key_lines[k], shape(v)) for k, v in value.items()])
    if isinstance(value, YSeq):
        return ("seq", value.line, list(value.item_lines), [shape(v) for v in value])
    return (type(value).__name__, value)


def reference(text: str, offset: int = 0):
    try:
        return shape(yamlsafe._load_reference(text, offset))
    except YamlProblem as problem:
        return ("problem", problem.message, problem.line, problem.hint)


def mutated(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        roll = rng.random()
        if roll < 0.5:
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif roll < 0.8:
            text = text[:at] + text[at + rng.randint(1, 3):]
        else:
            lines = text.split("\n")
            lines.insert(rng.randrange(len(lines)), lines[rng.randrange(len(lines))])
            text = "\n".join(lines)
    return text


def test_the_fast_path_reads_orders_as_the_reference_does():
    for offset, text in enumerate(SEEDS):
        fast = yamlsafe._load_fast(text, offset)
        assert fast is not yamlsafe._UNUSUAL
        assert shape(fast) == reference(text, offset)


def test_mutated_documents_the_fast_path_takes_read_as_the_reference_reads_them():
    rng = random.Random(13)
    taken = 0
    for _ in range(3000):
        text = mutated(rng, rng.choice(SEEDS))
        fast = yamlsafe._load_fast(text, 7)
        if fast is yamlsafe._UNUSUAL:
            continue
        taken += 1
        assert shape(fast) == reference(text, 7), repr(text)
    assert taken > 600   # the test compares something: about a third of the mutants stay valid


def test_an_ordinary_order_mail_never_reaches_the_reference(monkeypatch):
    def refuse(text, offset):
        raise AssertionError("the reference path ran")
    monkeypatch.setattr(yamlsafe, "_load_reference", refuse)
    data = load(SEEDS[1], first_line=12)
    assert data["orders"][1]["move"]["path"] == ["Orléans", "Paris"]
    assert data["orders"].line_of(1) == 19 and data["orders"][4]["marry"] is None
    assert data["orders"][6]["list"] == ["12:30", "0x1F", "on", ""]   # every scalar text


@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n",                 # anchors and aliases
    "a: !!int 3\n",                     # tags
    "a: 1\na: 2\n",                     # a duplicate key
    "<<: {a: 1}\n",                     # a merge key
    "? [a, b]\n: c\n",                  # a key that is not a scalar
    "a: 1\n---\nb: 2\n",                # two documents
    "a: " + "[" * 17 + "]" * 17 + "\n",  # nesting deeper than MAX_DEPTH
    "a: [Tours?]\n",                    # libyaml and PyYAML part: _FAST_DECLINES
    "a:\tb\n",
    "a: x\ufeffy\n",
    "a: |#\n  x\n",
    "a: [b\n",                          # not YAML at all
])
def test_what_the_fast_path_declines_goes_to_the_reference(text):
    assert yamlsafe._load_fast(text, 0) is yamlsafe._UNUSUAL
    try:
        got = shape(load(text))
    except YamlProblem as problem:
        got = ("problem", problem.message, problem.line, problem.hint)
    assert got == reference(text)


def test_many_entries_go_to_the_reference():
    text = "a: [" + ", ".join(["x"] * (yamlsafe.MAX_NODES + 1)) + "]\n"
    assert yamlsafe._load_fast(text, 0) is yamlsafe._UNUSUAL
    with pytest.raises(YamlProblem, match="more than 5000 entries"):
        load(text)


def test_without_libyaml_the_reference_reads_everything(monkeypatch):
    expected = [shape(load(text)) for text in SEEDS]
    monkeypatch.setattr(yamlsafe, "_CParser", None)
    assert [shape(load(text)) for text in SEEDS] == expected
