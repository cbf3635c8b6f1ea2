"""Kard és Korona's words to its players: errors that say what to write, and a text report a
player without the map can plan from (the board's counties, borders and rivers; neutral
units labelled alike at every player count)."""
from __future__ import annotations

import re

import pytest

from kek_support import RULES, check, new_game, step, texts_of
from pbem.games.kard_es_korona import gifts, warlords
from pbem.games.kard_es_korona.board import load_board
from pbem.judge.render import render
from pbem.orders.yamlsafe import load
from test_kek_elections import BLANK, _election

PLAYERS = ["anna", "bob", "csilla", "dani", "ede", "feri"]
PROVINCES = ("Erdély", "Délvidék", "Szlavónia", "Pannónia", "Felvidék", "Tiszahát")


def _errors(result) -> str:
    assert not result.ok
    return "\n".join(str(e) for e in result.errors)


def test_a_gift_that_does_not_read_shows_the_real_syntax_with_a_player_of_the_game() -> None:
    """I: garas handed over at once (ruling K27); the hint is a line the player can send."""
    state = new_game(["anna", "bob"])
    state, _ = step(state)
    view = RULES.view(state, "anna")
    text = _errors(gifts.check(view, "anna", load("give: bob 5\n")))
    assert "`give: {bob: 5}`" in text and "Bela" not in text
    assert "give: {bob: 5}" in gifts.template(view, "anna") and "NAME" not in gifts.template(view, "anna")


def test_the_palatines_tie_order_errors_say_what_to_write() -> None:
    """IV. Palatine: only he names whom he makes the winner of a tie, by the bidders' names."""
    state = _election(["anna", "bob", "csilla"], offices={"judge_royal": None, "treasurer": None,
                                                          "palatine": "anna"})
    stranger = _errors(check(state, "bob", "bid: 1\nif_tied: [anna]\n"))
    assert "only the Palatine" in stranger and "leave out `if_tied:`" in stranger and "anna is the Palatine" in stranger
    unknown = _errors(check(state, "anna", "bid: 1\nif_tied: [zoltan]\n"))
    bidders = ", ".join(RULES.view(state, "anna")["bidders"])
    assert "no player 'zoltan'" in unknown and f"`if_tied: [{bidders}]`" in unknown


def test_a_placement_without_its_lord_says_so_plainly() -> None:
    """III: the province lord stands in one of the player's counties."""
    state = new_game(["anna", "bob"])
    view = RULES.view(state, "anna")
    home = [c for c in RULES.order_template(view, "anna").splitlines() if c.startswith("lord:")]
    text = RULES.order_template(view, "anna").replace(home[0], "")
    errors = _errors(check(state, "anna", text))
    assert "a county of yours name" not in errors
    assert "`lord:` is missing" in errors and f"`{home[0]}`" in errors


def test_a_missing_county_name_reads_as_english() -> None:
    state = new_game(["anna", "bob"])
    state["deck"] = list(BLANK)
    state, _ = step(state)
    errors = _errors(check(state, state["starting"], "steps:\n  - from: {Pest: {infantry: 1}}\n"))
    assert "a county's name is missing" in errors and "e.g. `Pest`" not in errors   # an example of the game's own


def _report(state: dict, player: str) -> str:
    return render(RULES.report_template(), view=RULES.view(state, player), me=player)


def _army_lines(report: str) -> list[str]:
    body = report.split("\nARMIES\n", 1)[1]
    return [line for line in body.split("\n\n", 1)[0].splitlines() if line.strip()]


@pytest.mark.parametrize("version", ["basic", "advanced"])
@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_neutral_squads_read_alike_at_every_player_count(version: str, count: int) -> None:
    """II. Royal / Neutral Units (l.118): the empty castles' squads stand for the local lord or
    the king; every one reads "... neutral", never an internal owner id."""
    players = PLAYERS[:count]
    state, _ = step(new_game(players, version=version))
    report = _report(state, players[0])
    owners = {line.split()[0]: line[19:39].strip() for line in _army_lines(report)}
    castles = [c for c, a in state["armies"].items() if a["owner"] not in players]
    assert castles, "the setup places neutral squads"
    for county in castles:
        assert owners[county] in ("royal neutral", *(f"{p} neutral" for p in PROVINCES)), (county, owners[county])
    assert "neutral-" not in report and "royal  " not in report
    assert not re.search(r"\b(ERD|DEL|SZL|PAN|FEL|TIS|KIR)\b", report)    # provinces by name, not by id


def _board_section(report: str) -> str:
    assert "\nTHE BOARD\n" in report, "the text report lists the board"
    return report.split("\nTHE BOARD\n", 1)[1].split("\nARMIES\n", 1)[0]


def _county_lines(section: str) -> dict[str, str]:
    """Each county's entry (its line and the lines wrapped under it) by name."""
    entries: dict[str, str] = {}
    name = None
    for line in section.splitlines():
        if line.startswith("  ") and not line.startswith("      ") and "(" in line:
            name = line.split()[0]
            entries[name] = line.strip()
        elif line.startswith("      ") and name:
            entries[name] += " " + line.strip()
    return entries


@pytest.mark.parametrize("version", ["basic", "advanced"])
def test_the_text_report_lists_every_countys_neighbours_and_rivers(version: str) -> None:
    """II. Counties, Natural Obstacles: a player without the map plans from the text report, which
    names each county's province, castle or obstacle, holder, neighbours and the great rivers on
    its borders (+1 movement point)."""
    board = load_board(version)
    state, _ = step(new_game(PLAYERS[:2], version=version))
    section = _board_section(_report(state, "anna"))
    entries = _county_lines(section)
    assert set(entries) == set(board.counties)
    for name, county in board.counties.items():
        entry = entries[name]
        for other, river in board.borders[name].items():
            assert (f"{other} across the {river}" if river else other) in entry, (name, other, entry)
        if county.castle:
            assert "castle" in entry
        if county.obstacle:
            assert county.terrain in entry
    for province in board.provinces:
        assert province.name in section
    assert "Fehér" in section and all(len(line) <= 78 for line in section.splitlines())
    holder = next(c for c, who in state["owner"].items() if who == "anna")
    assert "anna" in entries[holder]


def test_counties_out_of_play_are_left_off_the_board_list() -> None:
    """I (l.50): with 5 players Szlavónia is out of play but for Baranya."""
    state, _ = step(new_game(PLAYERS[:5]))
    entries = _county_lines(_board_section(_report(state, "anna")))
    assert "Baranya" in entries
    for closed in state["closed"]:
        assert closed not in entries and all(closed not in e for e in entries.values())


def test_the_movement_forms_example_step_names_real_counties_and_reads_uncommented() -> None:
    """III. Movement: the form's example is a step of the player's own, no placeholder."""
    state = new_game(["anna", "bob"])
    state["deck"] = list(BLANK)
    state, _ = step(state)
    player = state["starting"]
    form = RULES.order_template(RULES.view(state, player), player)
    assert "COUNTY" not in form
    lines = [line[1:] if line.startswith(("#  - to:", "#    from:")) else line for line in form.splitlines()]
    result = check(state, player, "\n".join(lines) + "\n")
    assert result.ok, [str(e) for e in result.errors]
    assert len(result.orders["steps"]) == 1


def test_errors_of_a_step_and_an_extra_step_show_lines_with_real_counties() -> None:
    """III. Movement, and the lord's extra step after a victory: the hint is a line to send."""
    state = new_game(["anna", "bob"])
    state["deck"] = list(BLANK)
    state, _ = step(state)
    player = state["starting"]
    mine = next(c for c, a in state["armies"].items() if a["owner"] == player)
    wrong_step = _errors(check(state, player, "steps:\n  - Pest\n"))
    assert "COUNTY" not in wrong_step and f"from: {{{mine}: " in wrong_step
    wrong_extra = _errors(check(state, player, "steps: []\nbattle:\n  after_victory: Pest\n"))
    assert "COUNTY" not in wrong_extra and f"{{lord_to: {mine}}}" in wrong_extra
    wrong_join = _errors(check(state, player, "steps: []\nbattle:\n  after_victory: {join: Pest}\n"))
    assert "Pest:" not in wrong_join and f"`join: {{{mine}: " in wrong_join


def test_placement_and_recruitment_examples_name_the_players_own_counties() -> None:
    """III: a player of Erdély is not shown Pannónia's Sopron as the county to write."""
    state = new_game(["anna", "bob"])
    player = next(p for p in state["players"] if state["home"][p] != "PAN")
    placing = _errors(check(state, player, "place: Sopron\nlord: Sopron\n"))
    assert "Sopron:" not in placing and "`place: {" in placing
    state["deck"] = list(BLANK)
    while RULES.phase(state).id != "1302/recruitment":
        state, _ = step(state)
    recruiting = _errors(check(state, player, "recruit: Sopron\n"))
    assert "{Sopron:" not in recruiting and "`recruit: {" in recruiting


def test_offices_are_named_as_the_rulebook_names_them() -> None:
    """IV: the Judge Royal (országbíró), the Lord High Treasurer, the Palatine; never an id."""
    state = _election(["anna", "bob", "csilla"])
    assert RULES.phase(state).title == "Election of Officials: Judge Royal (országbíró)"
    state["offices"]["treasurer"] = "bob"
    lost = texts_of(warlords._lose_offices(state, "bob"))
    assert lost == ["bob loses the office of Lord High Treasurer (tárnokmester)."]
