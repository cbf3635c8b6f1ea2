"""The order language's shared layer: finding the document in a mail, the envelope, and the
safe YAML loader's limits and line numbers."""
from __future__ import annotations

import pytest

from pbem.orders import yamlsafe
from pbem.orders.envelope import find_document, parse_document

ENVELOPE = "game: loire\nplayer: marie\nsecret: k7qm\nphase: round-1/purchase\n"


def test_text_above_the_document_is_ignored_and_lines_count_from_the_mail():
    doc = find_document("Dear judge,\n\nmy orders:\n" + ENVELOPE + "orders: []\n")
    assert doc.first_line == 4
    envelope, errors = parse_document(doc)
    assert not errors
    assert (envelope.game, envelope.player, envelope.secret, envelope.phase) == \
           ("loire", "marie", "k7qm", "round-1/purchase")
    assert envelope.ready is True and envelope.wait is False
    assert list(envelope.body) == ["orders"] and envelope.body.line_of("orders") == 8


@pytest.mark.parametrize("tail", [
    "-- \nMarie de Bourbon\n",
    "...\nanything after the end marker\n",
    "On Tue, 1 Dec 2026 at 10:00, pbem judge <judge@example.org> wrote:\n> the report\n",
    "> game: loire\n> the quoted report\n",
    "-----Original Message-----\nFrom: judge\n",
])
def test_the_document_ends_before_signatures_and_quoted_reports(tail):
    envelope, errors = parse_document(find_document(ENVELOPE + "orders: []\n\n" + tail))
    assert not errors and list(envelope.body) == ["orders"]


def test_a_template_filled_in_inside_the_quoted_report_is_read():
    mail = "Here you go\n\n> Your report...\n>\n> " + ENVELOPE.replace("\n", "\n> ") + "orders:\n>   - buy: knight\n>     in: Tours\n"
    doc = find_document(mail)
    assert doc.first_line == 5
    envelope, errors = parse_document(doc)
    assert not errors and envelope.body["orders"][0] == {"buy": "knight", "in": "Tours"}
    assert envelope.body["orders"].line_of(0) == 10


def test_no_document_and_a_missing_envelope_key_are_named():
    assert find_document("Hello, when do we play?") is None
    envelope, errors = parse_document(find_document("game: loire\nplayer: marie\n"))
    assert envelope is None
    assert {e.message for e in errors} == {"`secret:` is missing", "`phase:` is missing"}


@pytest.mark.parametrize("flag, value, expect", [("ready", "no", False), ("wait", "yes", True),
                                                 ("ready", "YES", True), ("wait", "off", False)])
def test_ready_and_wait_take_yes_or_no(flag, value, expect):
    envelope, errors = parse_document(find_document(ENVELOPE + f"{flag}: {value}\n"))
    assert getattr(envelope, flag) is expect


def test_a_flag_that_is_not_yes_or_no_is_an_error_with_its_line():
    envelope, errors = parse_document(find_document(ENVELOPE + "wait: later\n"))
    assert envelope is None and errors[0].line == 5 and "yes or no" in errors[0].message


def test_every_scalar_is_text_so_yaml_typing_traps_cannot_bite():
    data = yamlsafe.load("a: no\nb: on\nc: 1e3\nd: 0x1F\ne: 1:30\nf: ~\ng:\n")
    assert data == {"a": "no", "b": "on", "c": "1e3", "d": "0x1F", "e": "1:30", "f": None, "g": None}


@pytest.mark.parametrize("text, message", [
    ("a: &x [1]\nb: *x\n", "aliases"),
    ("a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n", "aliases"),
    ("base: &b {k: 1}\nx:\n  <<: *b\n", "merge keys"),
    ("a: 1\na: 2\n", "given twice"),
    ("a:\n\t- b\n", "not valid YAML"),
    ("x: " + "[" * 30 + "]" * 30 + "\n", "nested more than"),
    ("x: [" + ", ".join(["1"] * 6000) + "]\n", "more than 5000 entries"),
    ("x: '" + "y" * 70000 + "'\n", "larger than 64 KiB"),
])
def test_hostile_yaml_is_refused_with_a_reason(text, message):
    with pytest.raises(yamlsafe.YamlProblem) as problem:
        yamlsafe.load(text)
    assert message in problem.value.message


def test_the_complete_order_mail_of_docs_orders_md_is_accepted():
    """The page's example, word for word, read as the judge reads a mail and checked by Fief:
    France for marie in a Purchase Phase where she holds Tours."""
    from pathlib import Path

    from pbem.games.fief.france import RULES
    from pbem.games.fief.positions import build_position
    page = (Path(__file__).resolve().parent.parent / "docs" / "orders.md").read_text(encoding="utf-8")
    example = page.split("## Example: a complete order mail", 1)[1].split("\n(", 1)[0]
    mail = "\n".join(line[4:] for line in example.strip("\n").splitlines())
    envelope, errors = parse_document(find_document(mail))
    assert not errors and (envelope.game, envelope.player, envelope.phase) == ("loire", "marie", "round-1/purchase")
    state = build_position({"players": ["marie", "marc", "olivier"], "phase": "purchase", "deniers": {"marie": 20},
                            "lords": {"Quentin": {"family": "marie", "at": "Tours"}},
                            "units": {"Tours": {"marie": {"man_at_arms": 1}}}}).to_json()
    check = RULES.check_orders(RULES.view(state, "marie"), "marie", envelope.body)
    assert check.ok, check.errors
    assert RULES.phase(state).id == envelope.phase


# --- YAML mistakes: the line the player must change, and a hint fitting the cause ----------------

YAML_MISTAKES = [
    # (cause, document, line to change, a fragment of the hint)
    ("missing colon", "game: g1\nplayer alice\nsecret: x\n", 2, "`player: alice`"),
    ("missing colon, last line", "game: g1\nplayer: alice\nbid 3\n", 3, "`bid: 3`"),
    ("missing colon, first key of an order", "orders:\n  - buy knight\n    in: Tours\n", 2, "`buy: knight`"),
    ("missing colon, second key of an order", "orders:\n  - buy: knight\n    in Tours\n  - buy: sergeant\n",
     3, "`in: Tours`"),
    ("stray prose between orders", "orders:\n  - buy: knight\n    in: Tours\nI also want a sergeant, please\n"
     "  - buy: sergeant\n    in: Tours\n", 4, "start it with `#`"),
    ("stray prose in the envelope", "game: g1\nI think this is right.\nplayer: alice\n", 2, "start it with `#`"),
    ("tab", "orders:\n\t- buy: knight\n", 2, "use spaces"),
    ("tab inside an order", "orders:\n  - buy: knight\n  \tin: Tours\n", 3, "use spaces"),
    ("unclosed double quote", 'game: g1\nplayer: "alice\nsecret: x\nphase: p\n', 2, 'quote (")'),
    ("unclosed single quote", "game: g1\nplayer: 'alice\nsecret: x\n", 2, "quote (')"),
    ("unclosed bracket", "game: g1\nbid: [3\nfoo: x\n", 2, "`[`"),
    ("unclosed brace", "game: g1\nwith: {knight: 2\nfoo: x\n", 2, "`{`"),
    ("key indented less than its order", "orders:\n  - buy: knight\n   in: Tours\n", 3, "indentation"),
    ("key indented more than its order", "orders:\n  - buy: knight\n      in: Tours\n", 3, "indentation"),
    ("envelope key indented", "game: g1\n  player: alice\nsecret: x\n", 2, "indentation"),
    ("list item indented less", "orders:\n  - buy: knight\n    in: Tours\n - buy: sergeant\n", 4, "indentation"),
    ("key at the column of the dash", "orders:\n  - buy: knight\n  in: Tours\n", 3, "indentation"),
    ("colon inside a value", "game: g1\nmessage: hello: world\n", 2, "quotes"),
    ("a second document", "game: g1\n---\nbid: 3\n", 2, "`---`"),
    ("a value starting with @", "game: g1\nbid: @3\n", 2, "quotes"),
]


@pytest.mark.parametrize("cause, text, line, hint", YAML_MISTAKES, ids=[m[0] for m in YAML_MISTAKES])
def test_a_yaml_mistake_names_the_line_to_change_and_how(cause, text, line, hint):
    """PyYAML's problem_mark is where its scanner gave up, often a line or two below the
    mistake (a key missing its colon is only noticed at the next line; an unclosed quote at
    the end of the text): the loader names the line the player must change."""
    with pytest.raises(yamlsafe.YamlProblem) as problem:
        yamlsafe.load(text, first_line=20)
    assert problem.value.line == line + 19, (problem.value.message, problem.value.hint)
    assert problem.value.message.startswith("this is not valid YAML: ")
    assert hint in problem.value.hint, problem.value.hint
