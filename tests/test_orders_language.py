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
    mail = ("Here you go\n\n> Your report...\n>\n> " + ENVELOPE.replace("\n", "\n> ")
            + "orders:\n>   - buy: knight\n>     in: Tours\n")
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

    from pbem.games.fief_france.rules import RULES
    from pbem.games.fief.positions import build_position
    page = (Path(__file__).resolve().parent.parent / "docs" / "orders.md").read_text(encoding="utf-8")
    example = page.split("## Example: a complete order mail", 1)[1].split("\n(", 1)[0]
    mail = "\n".join(line[4:] for line in example.strip("\n").splitlines())
    envelope, errors = parse_document(find_document(mail))
    assert not errors and (envelope.game, envelope.player, envelope.phase) == ("loire", "marie", "round-1/purchase")
    state = build_position({"players": ["marie", "marc", "olivier"], "phase": "purchase", "deniers": {"marie": 20},
                            "lords": {"Quentin": {"family": "marie", "at": "Tours"}},
                            "units": {"Tours": {"marie": {"man_at_arms": 1}}}}, "fief_france").to_json()
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


# --- replies: orders above (or below) a copy of the judge's mail, whatever the mail client ------

from pbem.orders.envelope import marker_line  # noqa: E402

ORDERS = ENVELOPE.replace("k7qm", "k7qm-secret") + "orders:\n  - buy: knight\n    in: Tours\n"
JUDGE_MAIL = (marker_line("pbem judge", "judge@example.org") + "\n\nFief: France — game \"loire\", report for "
              "marie\n\n== Next: Purchase Phase (round-1/purchase) ==\n\nFill in and send back (keep the lines "
              "from `game:` on):\n\ngame: loire\nplayer: marie\nsecret: YOUR-SECRET        # the secret from "
              "your welcome mail\nphase: round-1/purchase\norders: []\n")


def quoted(text: str, mark: str = "> ") -> str:
    return "".join((mark + line).rstrip() + "\n" for line in text.splitlines())


REPLIES = {
    "s-nail": "{orders}\npbem judge <judge@example.org> wrote:\n{quoted}",
    "s-nail, orders below the quote": "pbem judge <judge@example.org> wrote:\n{quoted}\n{orders}",
    "Gmail, English": "{orders}\nOn Tue, 1 Dec 2026 at 10:00, pbem judge <judge@example.org> wrote:\n\n{quoted}",
    "Gmail, French": "{orders}\nLe mar. 1 déc. 2026 à 10:00, pbem judge <judge@example.org> a écrit :\n\n{quoted}",
    "Gmail, French, wrapped": "{orders}\nLe mar. 1 déc. 2026 à 10:00, pbem judge <judge@example.org> a\nécrit :\n\n"
                              "{quoted}",
    "Gmail, German": "{orders}\nAm Di., 1. Dez. 2026 um 10:00 Uhr schrieb pbem judge <judge@example.org>:\n\n{quoted}",
    "Gmail, Hungarian": "{orders}\npbem judge <judge@example.org> ezt írta (időpont: 2026. dec. 1., K, 10:00):\n\n"
                        "{quoted}",
    "Gmail, Spanish": "{orders}\nEl mar, 1 dic 2026 a las 10:00, pbem judge (<judge@example.org>) escribió:\n\n"
                      "{quoted}",
    "Gmail, Italian": "{orders}\nIl giorno mar 1 dic 2026 alle ore 10:00 pbem judge <judge@example.org> ha\n"
                      "scritto:\n\n{quoted}",
    "Thunderbird, German": "{orders}\nAm 01.12.26 um 10:00 schrieb pbem judge:\n{quoted}",
    "Thunderbird, French": "{orders}\nLe 01/12/2026 à 10:00, pbem judge a écrit :\n{quoted}",
    "Thunderbird, Dutch": "{orders}\nOp 01-12-2026 om 10:00 schreef pbem judge:\n{quoted}",
    "Thunderbird, Polish": "{orders}\nW dniu 1.12.2026 o 10:00, pbem judge pisze:\n{quoted}",
    "Thunderbird, Russian": "{orders}\n01.12.2026 10:00, pbem judge пишет:\n{quoted}",
    "Apple Mail, the attribution unquoted": "{orders}\nOn 1 Dec 2026, at 10:00, pbem judge <judge@example.org> "
                                            "wrote:\n\n{quoted}",
    "Apple Mail (the attribution quoted too)": "{orders}\n> On 1 Dec 2026, at 10:00, pbem judge <judge@example.org> "
                                               "wrote:\n>\n{quoted}",
    "Outlook": "{orders}\n________________________________\nFrom: pbem judge <judge@example.org>\nSent: Tuesday, "
               "December 1, 2026 10:00\nTo: marie@example.org\nSubject: [loire] round-1/cards-draw resolved\n\n{copy}",
    "Outlook, French": "{orders}\n________________________________\nDe : pbem judge <judge@example.org>\nEnvoyé : "
                       "mardi 1 décembre 2026 10:00\nÀ : marie@example.org\nObjet : [loire] resolved\n\n{copy}",
    "Outlook, Original Message": "{orders}\n-----Original Message-----\nFrom: pbem judge [mailto:judge@example.org]\n"
                                 "Sent: Tuesday, December 01, 2026 10:00 AM\nTo: marie@example.org\nSubject: "
                                 "[loire] resolved\n\n{copy}",
    "HTML mail read as text (the copy unquoted)": "{orders}\nLe mar. 1 déc. 2026 à 10:00, pbem judge "
                                                  "<judge@example.org> a écrit :\n{copy}",
    "forwarded": "{orders}\n-------- Forwarded Message --------\nSubject: [loire] resolved\nDate: Tue, 1 Dec 2026 "
                 "10:00:00 +0000\nFrom: pbem judge <judge@example.org>\n\n{copy}",
}


@pytest.mark.parametrize("client", sorted(REPLIES))
def test_orders_written_in_a_reply_are_read_whatever_the_attribution(client):
    mail = "Hello,\n\n" + REPLIES[client].format(orders=ORDERS, quoted=quoted(JUDGE_MAIL), copy=JUDGE_MAIL)
    doc = find_document(mail)
    envelope, errors = parse_document(doc)
    assert not errors, errors
    assert envelope.secret == "k7qm-secret" and envelope.body["orders"] == [{"buy": "knight", "in": "Tours"}]
    assert envelope.ignored == ()
    first = mail.splitlines().index("game: loire", 0 if "below" not in client else 3) + 1
    assert doc.first_line == first and envelope.body.line_of("orders") == first + 4


def test_a_reply_quoting_judge_mail_two_levels_deep_or_two_judge_mails_is_read():
    """Top posting on a thread: the judge's answer quoted, the player's earlier orders and the
    report quoted again under it (`> >`), or two judge mails quoted one after the other: the
    new orders are read, none of the quoted ones."""
    earlier = ORDERS.replace("k7qm-secret", "old-secret-01").replace("knight", "sergeant")
    answer = (marker_line("pbem judge", "judge@example.org") + "\n\nOrders received for marie.\n\n"
              "On Mon, marie <marie@example.org> wrote:\n" + quoted(earlier + "\nOn Sun, pbem judge wrote:\n"
                                                                 + quoted(JUDGE_MAIL)))
    for mail in (ORDERS + "\nOn Tue, pbem judge <judge@example.org> wrote:\n" + quoted(answer),
                 ORDERS + "\nOn Tue, pbem judge wrote:\n" + quoted(JUDGE_MAIL) + "\nOn Mon, pbem judge wrote:\n"
                 + quoted(JUDGE_MAIL)):
        doc = find_document(mail)
        envelope, errors = parse_document(doc)
        assert not errors and doc.first_line == 1, errors
        assert envelope.secret == "k7qm-secret" and envelope.body["orders"] == [{"buy": "knight", "in": "Tours"}]


def test_no_attribution_line_is_ever_taken_from_the_orders():
    """The paragraph above the copy stops at anything that could be an order: the last
    orders, written right above the attribution (no blank line), stay orders."""
    mail = ORDERS + "ready: no\nOn Tue, 1 Dec 2026, pbem judge <judge@example.org> wrote:\n" + quoted(JUDGE_MAIL)
    envelope, errors = parse_document(find_document(mail))
    assert not errors and envelope.ready is False


@pytest.mark.parametrize("client", ["Gmail, French", "Outlook"])
def test_a_template_filled_in_inside_the_copy_is_read(client):
    filled = JUDGE_MAIL.replace("YOUR-SECRET", "k7qm-secret").replace("orders: []", "orders:\n  - buy: knight\n"
                                                                       "    in: Tours")
    mail = "Filled in below.\n\n" + REPLIES[client].format(orders="", quoted=quoted(filled), copy=filled)
    envelope, errors = parse_document(find_document(mail))
    assert not errors and envelope.secret == "k7qm-secret"
    assert envelope.body["orders"] == [{"buy": "knight", "in": "Tours"}]


def test_a_reply_with_no_orders_of_its_own_finds_the_unfilled_template():
    """So the judge can say the secret still reads YOUR-SECRET (pbem/judge/inbound.py)."""
    for client in ("Gmail, German", "Outlook"):
        mail = "Thanks!\n\n" + REPLIES[client].format(orders="", quoted=quoted(JUDGE_MAIL), copy=JUDGE_MAIL)
        envelope, errors = parse_document(find_document(mail))
        assert envelope.secret.startswith("YOUR-SECRET"), client


@pytest.mark.parametrize("client", ["Outlook", "Outlook, Original Message", "forwarded"])
def test_orders_written_below_an_unquoted_copy_are_read_not_its_template(client):
    """The unquoted copy runs to the end of the mail, so orders written below it (scrolling
    past the copy) are inside it: the last `game:` line there is the player's, not the
    template's unfilled one above it."""
    mail = "See below.\n\n" + REPLIES[client].format(orders="", quoted="", copy=JUDGE_MAIL) + "\n" + ORDERS
    doc = find_document(mail)
    envelope, errors = parse_document(doc)
    assert not errors, errors
    assert envelope.secret == "k7qm-secret" and envelope.body["orders"] == [{"buy": "knight", "in": "Tours"}]
    assert doc.first_line == len(mail.splitlines()) - 6


@pytest.mark.parametrize("attribution", [
    "Le mar. 1 déc. 2026 à 10:00, pbem judge <judge@example.org> a écrit :",
    "Am Di., 1. Dez. 2026 um 10:00 Uhr schrieb pbem judge <judge@example.org>:",
    "Il giorno mar 1 dic 2026 alle ore 10:00 pbem judge <judge@example.org> ha\nscritto:",
    "W dniu 1.12.2026 o 10:00, pbem judge pisze:",
])
def test_an_attribution_above_a_quote_without_the_marker_is_not_read_as_orders(attribution):
    """A player who deleted the marker line from the quote (or a reply to mail the judge wrote
    before it had one): the paragraph right above the quoted text is the attribution, in
    whatever language, and ends the orders as the quote does."""
    unmarked = JUDGE_MAIL.split("\n", 2)[2]
    mail = ORDERS + "\n" + attribution + "\n\n" + quoted(unmarked)
    envelope, errors = parse_document(find_document(mail))
    assert not errors, errors
    assert list(envelope.body) == ["orders"] and envelope.ignored == ()


def test_orders_right_above_a_quote_without_the_marker_stay_orders():
    mail = ORDERS + "ready: no\n" + quoted(JUDGE_MAIL.split("\n", 2)[2])
    envelope, errors = parse_document(find_document(mail))
    assert not errors and envelope.ready is False
    # Only a paragraph ending with a colon is an attribution: a mistyped key is not dropped
    # unseen (the game refuses it as an unknown key).
    envelope, errors = parse_document(find_document(ORDERS + "\nReady: no\n" + quoted(JUDGE_MAIL.split("\n", 2)[2])))
    assert not errors and envelope.body["Ready"] == "no" and envelope.body.line_of("Ready") == 9


# --- a sign-off after the orders -----------------------------------------------------------------

@pytest.mark.parametrize("sign_off", [
    "Cheers,\nAlice\n",
    "\nThanks!\n",
    "Sent from my phone\n",
    "Alice Martin\nBordeaux, France\nhttps://alice.example.org\n+33 6 12 34 56 78\n",
    "---\nAlice\n",
    "Merci !\n\nMarie\n",
])
def test_a_sign_off_after_the_orders_is_cut_and_listed(sign_off):
    mail = "Dear judge,\n\n" + ORDERS + sign_off
    envelope, errors = parse_document(find_document(mail))
    assert not errors, errors
    assert envelope.body["orders"] == [{"buy": "knight", "in": "Tours"}]
    lines = mail.split("\n")
    expected = tuple((n, line) for n, line in enumerate(lines, 1) if n > 9 and line.strip())
    assert envelope.ignored == expected


def test_a_sign_off_above_the_copy_of_the_judges_mail_is_cut_too():
    mail = ORDERS + "\nCheers,\nMarie\n\n" + REPLIES["Gmail, German"].format(orders="", quoted=quoted(JUDGE_MAIL))
    envelope, errors = parse_document(find_document(mail))
    assert not errors and envelope.ignored == ((9, "Cheers,"), (10, "Marie"))


def test_an_ignored_line_is_echoed_short_and_printable():
    envelope, errors = parse_document(find_document(ORDERS + "Sent from my phone \x1b[2J" + "x" * 200 + "\n"))
    assert not errors
    [(line, text)] = envelope.ignored
    assert line == 8 and text.startswith("Sent from my phone ?[2J") and text.endswith("...") and len(text) == 63


def test_an_ignored_line_never_repeats_the_secret():
    envelope, errors = parse_document(find_document(ORDERS + "My secret is k7qm-secret, keep it\n"))
    assert not errors and envelope.ignored == ((8, "My secret is (secret), keep it"),)


@pytest.mark.parametrize("text, line", [
    (ORDERS + "I also want a sergeant\n  - buy: sergeant\n    in: Tours\n", 8),   # prose between orders
    (ORDERS + "ready no\n", 8),                       # a key missing its colon is not a sign-off
    (ORDERS + "Cheers,\nPhone: 0123456789\n", 8),     # a `key: value` line is not cut
    (ORDERS + "    in Tours\nCheers\n", 8),           # an indented line: part of the orders
    ('game: loire\nplayer: "marie\nsecret: x\nCheers\n', 2),  # the error is above the sign-off
])
def test_a_real_mistake_is_not_swallowed_as_a_sign_off(text, line):
    envelope, errors = parse_document(find_document(text))
    assert envelope is None and errors[0].line == line, errors


# --- the echo of the orders understood, in the judge's answer -------------------------------------

def _golden_orders() -> dict[str, list]:
    """Every player's canonical orders of the golden Fief: France games, by phase kind."""
    import json
    from pathlib import Path
    kinds: dict[str, list] = {}
    for path in sorted((Path(__file__).resolve().parent / "golden").glob("fief_france-*.json")):
        for record in json.loads(path.read_text(encoding="utf-8")):
            if record["orders"]:  # phases without deciders (income, end of round) have none
                kinds.setdefault(record["phase"].split("/")[1], []).extend(record["orders"].values())
    return kinds


def _as_text(value):
    """What the judge reads back from the echo: every value text, nothing empty."""
    if isinstance(value, dict):
        items = {str(k): _as_text(v) for k, v in value.items()}
        return {k: v for k, v in items.items() if v not in (None, "", [], {})}
    if isinstance(value, list):
        return [v for v in map(_as_text, value) if v not in (None, "", [], {})]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return None if value is None else str(value)


def test_the_echo_covers_every_fief_phase():
    assert set(_golden_orders()) == {"starting-towns", "cards-draw", "cards-play", "purchase", "movement",
                                     "battle", "hear-ye", "hear-ye-votes"}


@pytest.mark.parametrize("kind", sorted(_golden_orders()))
def test_the_echo_reads_as_orders_and_the_judge_reads_it_back(kind):
    """No `null`, no `{}` or `[]`, lists indented under their key as players write them; the
    judge's own loader reads the echo back to the same orders (values as text)."""
    from pbem.judge.render import environment
    echo = environment().filters["echo"]
    for orders in _golden_orders()[kind]:
        text = echo(orders)
        assert "null" not in text and "{}" not in text and "[]" not in text and "'" not in text, text
        assert (yamlsafe.load(text) if text else {}) == _as_text(orders), text


def test_the_echo_writes_values_as_a_player_would():
    from pbem.judge.render import environment
    echo = environment().filters["echo"]
    orders = {"land": None, "moves": [{"lord": "Quentin", "path": ["La Rochelle", "Tours"], "with": {"man_at_arms": 2},
                                       "if_refused": "back", "heir": None}],
              "ready": True, "lower_ransom": False, "answer": "no", "note": "~", "policies": {}, "annul": None}
    assert echo(orders) == ("moves:\n  - lord: Quentin\n    path: [La Rochelle, Tours]\n"
                            "    with:\n      man_at_arms: 2\n"
                            "    if_refused: back\nready: yes\nlower_ransom: no\nanswer: no\nnote: '~'")
    assert yamlsafe.load(echo(orders))["note"] == "~"
    assert echo({"orders": [], "policies": {}}) == ""


def test_the_tiny_games_echo_is_accepted_back_as_its_orders():
    """Where a game's canonical orders are its order language (the test game's `bid: 3`),
    the echo is a document the game accepts, to the same orders."""
    from pbem.judge.render import environment
    from tinygame import RULES
    echo = environment().filters["echo"]({"bid": 3})
    state = {"players": ["alice", "bob"], "round": 1, "step": "bid", "target": 2, "scores": {"alice": 0, "bob": 0},
             "hands": {"alice": "oak", "bob": "elm"}}
    check = RULES.check_orders(RULES.view(state, "alice"), "alice", yamlsafe.load(echo))
    assert check.ok and check.orders == {"bid": 3}
