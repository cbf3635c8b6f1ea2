"""Fief: England's worked examples and the words of its reports (issue 11: "every worked example of
the England rulebook is a passing scenario test citing its section").

- The table "Worked examples" of docs/fief-england.md names, for each example of the rulebook, the
  scenario file(s) that play it (tests/scenarios/fief_england/, run by tests/test_fief_scenarios.py):
  a row naming no file, or a file that does not exist, fails here, so the table cannot rot.
- Every England scenario cites its section and line.
- A card on a Region lies in one format, the Region's numeral: every reader reads that one.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from pbem.games import rules_for
from pbem.games.fief.board import load_board
from pbem.games.fief.state import BoardEffect
from pbem.games.fief_england import disasters
from pbem.games.fief_england.church import relic_powers
from pbem.games.fief_england.invaders.regions import STORMS, struck
from pbem.games.fief_england.regions import NUMERALS, storm_regions
from pbem.games.fief.positions import build_position

ROOT = Path(__file__).parent.parent
DOC = ROOT / "docs" / "fief-england.md"
SCENARIOS = Path(__file__).parent / "scenarios" / "fief_england"

# The examples another part of issue 11 still owes, by their Example cell (marked "owed" in the
# table): none now that two players, PASSAGE in Movement and the Burgher's votes are in.
OWED: set[str] = set()


def table(text: str) -> list[dict[str, str]]:
    """The rows of the section "Worked examples": {column heading: cell}."""
    section = text.split("\n## Worked examples\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    head = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [dict(zip(head, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
            for line in lines[2:]]


def table_problems(text: str, folder: Path, owed: set[str]) -> list[str]:
    rows = table(text)
    problems = [] if rows and "Scenario" in rows[0] else ["the table has no column `Scenario`"]
    for row in rows:
        example = row["Example"]
        files = re.findall(r"`([^`]+\.yaml)`", row.get("Scenario", ""))
        if example in owed:
            if files:
                problems.append(f"{example}: it names {files} now - take it out of OWED")
            continue
        if not files:
            problems.append(f"{example} ({row['Line']}): no scenario file named")
        problems += [f"{example}: {name} does not exist in {folder}" for name in files
                     if not (folder / name).is_file()]
    missing = owed - {row["Example"] for row in rows}
    problems += [f"OWED names {example!r}, which is no row of the table" for example in sorted(missing)]
    return problems


def test_every_worked_example_names_scenario_files_that_exist() -> None:
    assert table_problems(DOC.read_text(encoding="utf-8"), SCENARIOS, OWED) == []


def test_the_table_check_catches_a_row_without_a_file_and_a_file_that_is_not_there(tmp_path) -> None:
    text = DOC.read_text(encoding="utf-8")
    gone = text.replace("`cards-1.0-player-order.yaml`", "`cards-1.0-lost.yaml`")
    assert table_problems(gone, SCENARIOS, OWED) == [f"1.0 Ex (player order): cards-1.0-lost.yaml does not "
                                                     f"exist in {SCENARIOS}"]
    empty = text.replace("| `cards-2.0-daves-draws.yaml` |", "| |")
    assert table_problems(empty, SCENARIOS, OWED) == ["2.0 Ex (Dave) (l.107): no scenario file named"]
    owed = {"Ex 9-2 (Dave 4 votes)"}   # a row another part still owes: "owed", no file, is no problem ...
    not_yet = text.replace("| `parliament-ex-9-2-dave-4-votes.yaml` |", "| owed (EM) |")
    assert table_problems(not_yet, SCENARIOS, owed) == []
    assert table_problems(text, SCENARIOS, owed) == [   # ... until it names its files
        "Ex 9-2 (Dave 4 votes): it names ['parliament-ex-9-2-dave-4-votes.yaml'] now - take it out of OWED"]
    assert table_problems(text, SCENARIOS, {"Ex 99"}) == ["OWED names 'Ex 99', which is no row of the table"]
    no_column = text.replace("| Rulings, other tests | Scenario |", "| Rulings, other tests | Files |")
    assert "the table has no column `Scenario`" in table_problems(no_column, SCENARIOS, OWED)


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_england_scenario_cites_its_section_and_line(path: Path) -> None:
    source = str(yaml.safe_load(path.read_text(encoding="utf-8")).get("source", ""))
    assert re.search(r"\b\d+\.\d+|\bEx\b|FAQ", source), f"{path.name}: `source:` names no section: {source!r}"
    assert re.search(r"\bl(ine)?\.? ?\d+", source), f"{path.name}: `source:` cites no line: {source!r}"


# -- a card on a Region: one format, the numeral (2.4) -------------------------------------------------

BOARD = load_board("fief_england")


def storms_on(target: str) -> dict[str, object]:
    """What each reader of STORMS makes of a card lying on ``target``."""
    state = build_position({"players": ["ann", "bob"], "round": 2, "phase": "movement",
                            "lords": {"Thomas": {"family": "ann", "at": "London"}}}, "fief_england")
    state.edition_state["relics"] = {"relics": {"chasuble": {"city": None, "face_up": True, "holder": "Thomas"}}}
    state.board_effects.append(BoardEffect("storms", target))
    return {"regions": storm_regions(state),
            "disasters": disasters.storms_at(state, BOARD, "London"),
            "invaders": struck(state, STORMS),
            "battle": disasters.storms_forbid_battle(BOARD, [("storms", target)], "London"),   # a view's cards
            "chasuble": relic_powers.chasuble_problem(state, BOARD, "ann", "VI", "V")}


def test_every_reader_of_a_card_on_a_region_reads_the_numeral() -> None:
    read = storms_on("VI")   # as the disasters step lays it (2.4)
    assert read["regions"] == {"VI"} and read["disasters"] == "VI" and read["invaders"] == {6}
    assert "no battle is allowed there (2.5)" in str(read["battle"])
    assert read["chasuble"] is None   # the Chasuble may move it on to Sea V (12.2)
    assert {disasters.storms_at(build_position({"players": ["ann", "bob"], "effects": [
        {"card": "storms", "target": n}]}, "fief_england"), BOARD, BOARD.fiefs[BOARD.regions[n]].towns[0])
        for n in NUMERALS} == set(NUMERALS)


@pytest.mark.parametrize("other", ["south_east", "6", "Sea VI"])
def test_no_reader_takes_another_format(other: str) -> None:
    # a fief id or a digit is no Region's card: every reader alike sees none (before, the naval
    # moves and the Invaders read a fief id and a digit while the disasters step did not)
    read = storms_on(other)
    assert read["regions"] == set() and read["disasters"] is None and read["invaders"] == set()
    assert read["battle"] is None
    assert "no STORMS card lies on Sea VI" in str(read["chasuble"])


# -- England's reports in its words: shillings, its Seas (the edition record's `money.unit`, `words:`) ---

WRONG_WORDS = re.compile(r"denier|off-?shore", re.IGNORECASE)
# France's sections that the core's texts cite and England's record maps to its own (`sections:`)
FRANCE_ONLY = re.compile(r"\((2\.2|1\.3-1\.5)\)|Round Phase \(7\)|Victory points: .*\(7\)|first player card \(7\)|"
                         r"Battle Phase \(6\)|declares a battle \(6\)|its end \(6\)|takes \(6\)|5\.2\.2|\bI\.2\b|"
                         r"6\.1, standing|"
                         # the order forms' France sections, towns, fiefs and pages (the lead's review)
                         r"G\.2\.2|6\.4\.1|\(6\.5:|6\.2\.3|# 6\.1:|\bTours\b|Bretagne|orders-fief-france")


def mail_texts(mail) -> list[str]:
    """Every text part of a mail (plain and HTML)."""
    return [part.get_content() for part in mail.walk() if part.get_content_maintype() == "text"]


@pytest.mark.parametrize("players, seed", [(("alice", "bob"), "england-2a"), (("alice", "bob", "carol"), "england-3a"),
                                           (("alice", "bob", "carol", "dave"), "england-4b")])
def test_no_england_report_or_answer_of_the_golden_games_says_deniers_or_offshore(tmp_path, players, seed) -> None:
    # the golden games of tests/test_fief_england_full_game.py, played again: every mail the judge
    # wrote (welcome, reports with their order templates, answers to the orders)
    from judge_support import Judge
    from test_fief_england_full_game import play
    judge = Judge(tmp_path)
    play(judge, "words", players, seed)
    mails = judge.sent()
    assert len(mails) > 100
    lines = {line.strip() for mail in mails for text in mail_texts(mail) for line in text.splitlines()}
    assert sorted(line for line in lines if WRONG_WORDS.search(line)) == []
    assert sorted(line for line in lines if FRANCE_ONLY.search(line)) == []
    # every section cited is England's (a parenthesis may run over lines: each mail's text whole)
    from test_fief_england_citations import france_sections
    texts = {text for mail in mails for text in mail_texts(mail)}
    assert sorted({f"{found}: {line.strip()}" for text in texts for found in france_sections(text)
                   for line in text.splitlines() if found in line}) == []
    assert any("(2.0)" in line for line in lines) and any("(8.0, 8.1)" in line for line in lines)


def test_the_cores_texts_cite_the_editions_own_sections() -> None:
    from pbem.games.fief.edition import EditionError, load_edition
    from pbem.games.fief.edition_reader import read_record
    france, england = load_edition("fief_france"), load_edition("fief_england")
    assert [france.cite(s) for s in ("2.2", "4.4", "7")] == ["2.2", "4.4", "7"]   # France's texts unchanged
    assert [england.cite(s) for s in ("2.2", "4.4", "7", "12.2")] == ["2.0", "4.3, 4.4", "8.0, 8.1", "12.2"]
    record = yaml.safe_load((ROOT / "games" / "fief_england" / "edition.yaml").read_text(encoding="utf-8"))
    record["sections"] = {2.1: "2.0"}   # unquoted: YAML's number, which would read 2.10 as 2.1
    with pytest.raises(EditionError, match=r"`sections.2.1`: a section must be quoted"):
        read_record(record, "edition.yaml", "fief_england")


def test_the_money_and_the_sea_come_from_the_edition_record() -> None:
    from pbem.games.fief.edition import load_edition
    france, england = load_edition("fief_france"), load_edition("fief_england")
    assert (france.coins(1), france.coins(5), france.money_text(1)) == ("1 deniers", "5 deniers", "1 denier")
    assert (england.coins(1), england.coins(5), england.coin_plural) == ("1 shilling", "5 shillings", "shillings")
    assert france.words["sea"] == "the offshore area" and england.words["sea"] == "the sea"



# -- the demo players: the core's one script (pbem/games/fief/demo.py), England's wishes -----------------

def test_englands_demo_plays_a_round_by_mail_on_the_cores_script(tmp_path) -> None:
    from pbem.demo import run_demo
    from pbem.judge import engine
    from pbem.judge.store import Store
    lines = list(run_demo(tmp_path / "demo", "fief_england"))
    mail = [line for line in lines if "tick: mail:" in line]
    assert mail and all(line.endswith("orders accepted") for line in mail), mail
    store = Store(tmp_path / "demo" / "pbem.sqlite")
    try:
        state = engine.load_game(store, "demo").state
    finally:
        store.close()
    assert state["round"] == 2
    starts = {"alice": "London", "bob": "York", "carol": "Exeter", "dave": "Norwich"}
    moved = [lord for lord in state["lords"].values() if lord["location"] != starts[lord["family"]]]
    assert moved   # one step to an empty City, a man-at-arms left behind (5.1): the start is still held
    for lord in moved:
        assert state["towns"][starts[lord["family"]]]["controller"] == lord["family"]


def test_the_cards_form_speaks_of_englands_cards_and_disasters() -> None:
    """The core's Cards form in an England game: no Cardinal (France's card), England's hand limit,
    and the disasters' d6 naming a Region (2.4), not France's "6 = false alarm" (the lead's review)."""
    from test_fief_england_game import position
    rules = rules_for("fief_england")
    state = position(phase="cards", round=2)
    form = rules.order_template(rules.view(state, "ann"), "ann")
    assert "Cardinal" not in form and "cardinal" not in form and "false alarm" not in form
    assert "(2.4: a d6 per card names the Region it strikes; none before round 2)" in form


def test_the_play_form_tells_englands_cards_not_frances() -> None:
    """The core's play form (round-N/cards-play) in an England game: England's own card lines, no
    word of France's bishoprics, underground or uprising cards (the lead's review)."""
    from pbem.games.fief.cards.template import play_template
    from pbem.games.fief.state import FiefState
    from test_fief_england_game import position
    state = FiefState.from_json(position(phase="cards", round=2))
    state.families["ann"].hand = ["bountiful_harvest", "tax", "Henri"]
    form = play_template(rules_for("fief_england").view(state.to_json(), "ann"), "ann")
    assert not re.search(r"bishopric|underground|uprising|cardinal|pope", form, re.IGNORECASE), form
    assert "#  - play: bountiful_harvest # 2.7" in form
    # each character card with the keys its order reads (2.13, 2.14; MERCENARY and BURGHER name nothing)
    assert ("BISHOP / ARCHBISHOP `on: NOBLE` `district: DISTRICT`, ABBESS `on: NOBLE` `in: CITY`, "
            "MERCENARY CROSSBOWMEN / BURGHER (alone)") in form.replace("\n# ", " ")
