"""Every game reads as itself (issue 23): each mail a player of Fief: England's or Fief: France's
golden games reads - the position of every report (the game's report template, from the player's
view), the order form ending it (tests/forms_support.py: as the judge ends the mail with it), the
phase's title and summary, and the events of every phase - carries none of the other edition's
words or section numbers, no internal id (a snake_case id where a player reads prose), no JSON
and no unfilled placeholder.

The forms' order keys (`policies:`, `quell_rebellions:`) are what a player writes, so an id is
looked for in the forms' explanations only, outside backquotes.
"""
from __future__ import annotations

import copy
import functools
import json
import re
from typing import Iterator

import pytest

from forms_support import GOLDEN, Golden, form_of, openings, view_of
from pbem.games import rules_for
from pbem.games.fief.surprise.policies import check_all_policies
from pbem.judge.mailer import order_form
from pbem.judge.render import render
from pbem.orders.yamlsafe import load as parse_document
from pbem.rules.rng import DICE_VERSION, Rng
from test_fief_full_game import SEED4, SEED6

FRANCE_4 = Golden("fief_france-4p.json", "fief_france", ("alice", "bob", "carol", "dave"), SEED4)
FRANCE_6 = Golden("fief_france-6p.json", "fief_france", ("alice", "bob", "carol", "dave", "erin", "frank"), SEED6)
ENGLAND = [Golden("fief_england-2p.json", "fief_england", ("alice", "bob"), "england-2a"),
           Golden("fief_england-3p.json", "fief_england", ("alice", "bob", "carol"), "england-3a"),
           Golden("fief_england-4p.json", "fief_england", ("alice", "bob", "carol", "dave"), "england-4b")]

# France's words and sections an England player must never read: its money, its cardinal and
# pope, its uprisings, its board's headings, its diplomacy pawns (England: carrier pigeons, 2.15).
FRANCE_WORDS = {
    "France's money": r"\bdeniers?\b",
    "France's cardinal policy": r"\bnew_cardinal\b",
    "France's uprisings policy": r"\bcalm_uprisings\b",
    "France's board by fief": r"THE BOARD, BY FIEF",
    "France's chief towns": r"\(chief town\)",
    "France's diplomacy pawns": r"diplomacy pawn",
    "France's diplomacy section": r"\(F\)|Diplomacy \(F",
    "France's lettered sections": r"\b[A-I]\.\d",
    "France's three-level sections": r"\b\d+\.\d+\.\d+",
    "France's four lords": r"4 lords",
}
# ... and in the prose a player reads (not an order key like the battle plan's `towns:`): towns
# and unit pawns (England's Cities and units, 4.0).
FRANCE_PROSE = {"France's towns": r"\btowns?\b", "France's unit pawns": r"\bunit pawns?\b"}
# England's words a France player must never read.
ENGLAND_WORDS = {
    "England's money": r"\bshillings?\b",
    "England's carrier pigeons": r"(?i)carrier pigeon",
    "England's Invaders": r"\bInvaders?\b",
    "England's Sherwood": r"\bSherwood\b",
    "England's Parliament": r"\bParliament\b",
}
# In any mail: JSON printed as is, a template's or a format's unfilled placeholder.
ANY_GAME = {
    "JSON": r'\{"\w+":',
    "an unfilled placeholder": r"\{\{\s|\{%|\{[0-9a-z_]+\}|%[sd]\b|\bNone\b",
}
# An internal id in prose: two snake_case words or more (south_west, per_round), outside backquotes.
SNAKE_ID = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


@functools.lru_cache(maxsize=None)
def mails(source: Golden) -> tuple[tuple[str, str, str], ...]:
    """(where, kind, text) of every text the players of ``source`` read: each report's position and
    form, each phase's title and summary, each event."""
    rules, opened = openings(source)
    record = json.loads((GOLDEN / source.file).read_text(encoding="utf-8"))
    out: list[tuple[str, str, str]] = []
    for opening, entry in zip(opened, record, strict=True):
        where = f"{source.name}:{opening.at} {opening.phase.id}"
        out.append((where, "prose", f"{opening.phase.title}\n{opening.phase.summary}"))
        for player in opening.players:
            view = view_of(rules, opening, player)
            out.append((f"{where} ({player})", "position", render(rules.report_template(), view=view, me=player)))
            form = form_of(rules, opening, player)
            if form:
                out.append((f"{where} ({player})", "form", form))
        out += [(f"{where} event", "prose", text) for text in entry["events"]]
    return tuple(out)


def _explanations(form: str) -> Iterator[str]:
    """The parts of a form a player reads as prose: each comment's words after its code."""
    for line in form.split("\n"):
        body = line.lstrip("# ").strip()
        if not line.lstrip().startswith("#"):
            continue
        # a commented order line `- key: VALUE   # why`: the why; a line of prose: all of it
        code, _, why = body.partition(" # ")
        yield why if why else ("" if re.match(r"^(- )?\w+:( |$)", code) else body)


def _prose(kind: str, text: str) -> Iterator[str]:
    if kind == "form":
        yield from _explanations(text)
    elif kind == "position":
        # a position's line `key: value` naming a standing policy is the policy as written
        yield from (line for line in text.split("\n") if not re.match(r"^\s+\w+: ", line))
    else:
        yield text


_PHASE_ID = re.compile(r"\b[\w-]+/[\w-]+\b")   # `setup/starting-towns`: a phase's id, not a word


def _found(texts: tuple[tuple[str, str, str], ...], patterns: dict[str, str],
           prose: dict[str, str] | None = None) -> dict[str, list[str]]:
    """What each pattern finds in the whole texts (and each of ``prose`` in their prose only)."""
    out: dict[str, list[str]] = {}
    for where, kind, text in texts:
        for what, pattern in {**patterns, **(prose or {})}.items():
            body = "\n".join(_prose(kind, text)) if what in (prose or {}) else text
            for line in _PHASE_ID.sub("", body).split("\n"):
                if re.search(pattern, line) and len(out.setdefault(what, [])) < 5:
                    out[what].append(f"{where}: {line.strip()}")
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("source", ENGLAND, ids=lambda s: s.name)
def test_england_mails_carry_no_word_of_france(source: Golden) -> None:
    found = _found(mails(source), FRANCE_WORDS, FRANCE_PROSE)
    assert not found, found


@pytest.mark.parametrize("source", [FRANCE_4, FRANCE_6], ids=lambda s: s.name)
def test_france_mails_carry_no_word_of_england(source: Golden) -> None:
    found = _found(mails(source), ENGLAND_WORDS)
    assert not found, found


@pytest.mark.parametrize("source", [FRANCE_4, *ENGLAND], ids=lambda s: s.name)
def test_no_mail_shows_an_internal_id(source: Golden) -> None:
    found: dict[str, list[str]] = {}
    for where, kind, text in mails(source):
        for prose in _prose(kind, text):
            for line in prose.split("\n"):
                bare = re.sub(r"`[^`]*`", "", line)
                for word in SNAKE_ID.findall(bare):
                    if len(found.setdefault(word, [])) < 3:
                        found[word].append(f"{where}: {line.strip()}")
    assert not found, found


@pytest.mark.parametrize("source", [FRANCE_4, *ENGLAND], ids=lambda s: s.name)
def test_no_mail_prints_json_or_an_unfilled_placeholder(source: Golden) -> None:
    found = _found(mails(source), ANY_GAME)
    assert not found, found


@pytest.mark.parametrize("policy, line", [("new_cardinal: {allow: [bob]}", "new_cardinal"),
                                          ("calm_uprisings: as_bishop", "calm_uprisings")])
def test_england_refuses_france_only_policies_at_their_line(policy: str, line: str) -> None:
    """England has no cardinal (D.2.3 is France's) and no UPRISING card (its REBELLION is quelled
    by `quell_rebellions`, 10.1): France's policies are refused at their line, not kept silently."""
    rules, opened = openings(ENGLAND[2])
    view = view_of(rules, opened[0], "alice")
    doc = parse_document(f"policies:\n  safe_passage: allow\n  {policy}\n")
    canonical, errors = check_all_policies(view, "alice", doc["policies"])
    assert [e.line for e in errors] == [3], errors
    assert "no policy of this game" in errors[0].message and line not in canonical
    assert canonical["safe_passage"]["others"] == "allow"


def test_france_keeps_its_cardinal_and_uprisings_policies() -> None:
    rules, opened = openings(FRANCE_4)
    view = view_of(rules, opened[0], "alice")
    doc = parse_document("policies:\n  new_cardinal: {allow: [bob]}\n  calm_uprisings: as_bishop\n")
    canonical, errors = check_all_policies(view, "alice", doc["policies"])
    assert not errors and canonical["calm_uprisings"] == "as_bishop" and canonical["new_cardinal"]["allow"] == ["bob"]


def test_england_diplomacy_is_to_all_and_points_to_carrier_pigeons() -> None:
    """2.15 (l.250-258): England's private word, money and cards go by carrier pigeon; its form
    offers the free word to all and points there, and a private message is refused saying so."""
    rules = rules_for("fief_england")
    _, opened = openings(ENGLAND[2])
    view = view_of(rules, opened[0], "alice")
    form = form_of(rules, opened[0], "alice") or ""
    assert "carrier pigeon" in form and "exchange:" not in form and "to: all" in form
    mail = 'diplomacy:\n  - message: "hello"\n    to: [bob]\n'
    check = rules.check_at_once(view, "alice", parse_document(mail))
    assert check.errors and "carrier pigeon (2.15)" in check.errors[0].message, check.errors


def test_round_one_invaders_phase_names_the_invasion_card_waiting_at_sea() -> None:
    """2.4 (l.127), R12: round 1's INVADERS card lies on its Sea and acts from round 2; the round 1
    Invaders phase says so instead of "no INVASION card at sea"."""
    rules, opened = openings(ENGLAND[0])
    opening = next(o for o in opened if o.phase.id == "round-1/invaders")
    events = rules.resolve(copy.deepcopy(opening.state), {}, Rng.for_phase("words", "invaders", DICE_VERSION)).events
    quiet = [e.text for e in events if e.kind == "invaders_none"]
    assert quiet == ["No Invaders in England and the INVASION card on Sea V acts from round 2 (2.4): the Invaders "
                     "phase passes quietly (6)."], [e.text for e in events]


def _england_form(phase_kind: str, hand: list[str] | None = None) -> str:
    """alice's form at the first `phase_kind` phase of the 4-player game, ``hand`` put in her view."""
    rules, opened = openings(ENGLAND[2])
    opening = next(o for o in opened if o.phase.id.endswith("/" + phase_kind))
    view = copy.deepcopy(view_of(rules, opening, "alice"))
    if hand is not None:
        view["hand"] = hand
    return order_form(rules, "words", view, "alice", opening.phase) or ""


AT_ONCE_BY_PHASE = {"scorch": "purchase", "royal_stronghold": "purchase", "kings_will": "purchase",
                    "hand_title": "purchase", "rebuild_abbey": "purchase", "give_retainer": "cards-play",
                    "draw_excalibur": "movement"}


@pytest.mark.parametrize("verb, phase_kind", sorted(AT_ONCE_BY_PHASE.items()))
def test_england_at_once_catalogue_shows_a_verb_only_in_its_phase(verb: str, phase_kind: str) -> None:
    """3.4, 4.5, 4.6, 4.9, 2.13: Purchase phase; 2.12: Cards phase; 13.2: Movement and Battle."""
    assert f"- {verb}:" in _england_form(phase_kind)
    other = "cards-play" if phase_kind != "cards-play" else "purchase"
    assert f"- {verb}:" not in _england_form(other)


@pytest.mark.parametrize("card, keys", [("bishop", ("on: NOBLE", "district: DISTRICT")),
                                        ("archbishop", ("on: NOBLE", "district: DISTRICT")),
                                        ("abbess", ("on: NOBLE", "in: CITY"))])
def test_england_cleric_lines_carry_the_keys_their_orders_need(card: str, keys: tuple[str, ...]) -> None:
    """2.13, 2.14: a Bishop's card names his district, an Abbess's her City (the keys the order
    reads), in the Cards phase's `orders:` and in the at-once list alike."""
    form = _england_form("cards-play", [card])
    for where in (form.split("# diplomacy:")[0], form.split("# at_once:")[1]):
        lines = [line.lstrip("# ").split("#")[0].strip() for line in where.split("\n")]
        start = lines.index(f"- play: {card}")
        assert tuple(lines[start + 1:start + 1 + len(keys)]) == keys, where


def test_a_title_refused_is_named_by_its_fief_not_its_id() -> None:
    """4.3: a fiefdom title bought without its Cities is refused naming the fiefdom as the board
    does ("County of the South West"), never its id (`south_west`)."""
    rules, opened = openings(ENGLAND[2])
    opening = next(o for o in opened if o.phase.id.endswith("/purchase"))
    player = opening.phase.deciders[0]
    view = view_of(rules, opening, player)
    lord = view["families"][player]["lords"][0]
    south_west = next(f for f, fief in view["fiefs"].items() if fief["name"] == "County of the South West")
    check = rules.check_orders(view, player, parse_document(f"orders:\n  - title: {south_west}\n    lord: {lord}\n"))
    text = " ".join(e.message for e in check.errors)
    assert "cannot buy the County of the South West for" in text and south_west not in text, check.errors
