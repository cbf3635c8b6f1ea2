"""Every game's map (docs/maps.md): drawn at every player count (Fief: France 3-6, Fief: England
2-4, Kard és Korona's basic and advanced boards), England's with its Seas, Sherwood and the
Invaders, each player's under fog of war hiding what the view hides (E 4.1: troops always lie
face down; FAQ l.857: shillings kept secret); a map a game has but cannot draw is told to the
game master, never dropped in silence."""
from __future__ import annotations

import copy
import shutil

import pytest
from click.testing import CliRunner

from judge_support import Judge
from kek_support import RULES as KEK, new_game, step
from pbem.cli import main
from pbem.games import rules_for
from pbem.games.fief import map_view
from pbem.games.fief.board import load_board
from pbem.judge.maps import BYTE_BUDGET, draw_png
from pbem.paths import games_dir
from pbem.judge import engine
from pbem.rules.api import map_drawing, public_view
from pbem.games.fief_england.invaders.armies import new_record
from pbem.rules.rng import Rng
from test_fief_england_secrets import random_positions

ENGLAND = rules_for("fief_england")
BOARD = load_board("fief_england")


def england(players: int, seed: str = "map") -> dict:
    return ENGLAND.setup({}, [f"p{i}" for i in range(players)], Rng(f"{seed}/setup"))


def played(seed: int = 5) -> dict:
    """A position of a random legal game with troops on the board (seed 3: two players, 13.7)."""
    return list(random_positions(seed, 6))[-1]


def drawn(rules, state: dict, viewer: str | None) -> dict:
    drawing = map_drawing(rules, rules.view(state, viewer))
    png = draw_png(drawing)
    assert png.startswith(b"\x89PNG") and len(png) < BYTE_BUDGET
    return drawing


@pytest.mark.parametrize(("game", "players"), [("fief_france", n) for n in (3, 4, 5, 6)]
                         + [("fief_england", n) for n in (2, 3, 4)])
def test_every_fief_map_draws_for_every_reader_at_every_player_count(game, players):
    rules = rules_for(game)
    state = rules.setup({}, [f"p{i}" for i in range(players)], Rng(f"{game}-{players}"))
    for viewer in [None, *state["players"]]:
        drawing = drawn(rules, state, viewer)
        assert {p["id"] for p in drawing["places"] if p["kind"] == "town"} == set(load_board(game).towns)


@pytest.mark.parametrize("version", ["basic", "advanced"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_kard_es_korona_map_draws_for_every_reader_on_both_boards(version, players):
    names = ["Anna", "Bela", "Csilla", "Dora", "Erno", "Fanni"][:players]
    state, _ = step(new_game(names, version=version))
    for viewer in (None, *names):
        drawn(KEK, state, viewer)


def test_england_draws_each_regions_sea_joined_to_its_port_and_to_the_seas_it_touches():
    drawing = drawn(ENGLAND, england(3), "p0")
    seas = {p["id"]: p["label"] for p in drawing["places"] if p["kind"] == "sea"}
    assert seas == {f"Sea {r}": f"Sea {r} ({name})" for r, name in
                    (("I", "South West"), ("II", "Wales"), ("III", "Marches"), ("IV", "North"),
                     ("V", "Midlands"), ("VI", "South East"))}
    by_sea = {tuple(sorted(link["between"])) for link in drawing["links"] if link["kind"] == "sea"}
    ports = {"Plymouth": "Sea I", "Cardiff": "Sea II", "Berwick": "Sea III", "Whitby": "Sea IV",
             "King's Lynn": "Sea V", "London": "Sea VI"}   # 5.4 (l.380): each Region's Port City
    assert {pair for pair in by_sea if pair[0] in ports or pair[1] in ports} \
        == {tuple(sorted([port, sea])) for port, sea in ports.items()}
    for pair in BOARD.sea_links:
        assert tuple(sorted(pair)) in by_sea
    assert drawing["legend"]["sea"] == "by sea (port to port)"


def test_england_draws_sherwood_and_its_bandit_paths():
    drawing = drawn(ENGLAND, england(4), None)
    assert [p["id"] for p in drawing["places"] if p["kind"] == "forest"] == ["Sherwood"]
    paths = {c for link in drawing["links"] if link["kind"] == "path" for c in link["between"]}
    assert paths == {"Sherwood", "York", "Lincoln", "King's Lynn", "Nottingham"}   # 13.4 (l.823-826)


def test_england_draws_the_invaders_army_where_it_stands_with_its_captives():
    state = played()
    army = state["edition_state"].setdefault("invaders", new_record())["armies"]["1"]
    army.update(city="York", leader=True, foot=4, captives=["Edward"])
    drawing = drawn(ENGLAND, state, "p1")
    assert {"at": "York", "family": "invaders", "lords": [], "units": {"invader_leader": 1, "invader_foot": 4},
            "hidden": 0, "captives": ["Edward"]} in drawing["pieces"]
    assert drawing["families"][-1]["id"] == "invaders"


def test_england_forces_at_sea_are_drawn_at_their_own_sea_face_down_for_others():
    state = played()
    lord = next(n for n, lo in state["lords"].items() if lo["family"] == "p0" and lo["location"]
                and any(p["family"] == "p0" and p["location"] == lo["location"] for p in state["pawns"].values()))
    here = state["lords"][lord]["location"]
    state["lords"][lord]["location"] = "Sea III"
    for pawn in state["pawns"].values():
        if pawn["family"] == "p0" and pawn["location"] == here:
            pawn["location"] = "Sea III"
    mine = [p for p in drawn(ENGLAND, state, "p0")["pieces"] if p["at"] == "Sea III"]
    theirs = [p for p in drawn(ENGLAND, state, "p1")["pieces"] if p["at"] == "Sea III"]
    assert len(mine) == 1 and lord in mine[0]["lords"] and mine[0]["units"] and not mine[0]["hidden"]
    assert len(theirs) == 1 and lord in theirs[0]["lords"] and not theirs[0]["units"] and theirs[0]["hidden"]


def test_an_england_armys_troop_types_never_reach_another_players_map():
    state = played()
    changed = copy.deepcopy(state)
    swap = {"man_at_arms": "knight", "knight": "archer", "archer": "man_at_arms"}
    for pawn in changed["pawns"].values():
        if pawn["family"] == "p1":
            pawn["kind"] = swap.get(pawn["kind"], pawn["kind"])
    assert drawn(ENGLAND, state, None) != drawn(ENGLAND, changed, None)   # the two really differ
    assert drawn(ENGLAND, state, "p1") != drawn(ENGLAND, changed, "p1")   # p1 sees its own
    assert drawn(ENGLAND, state, "p0") == drawn(ENGLAND, changed, "p0")   # 4.1: face down to p0
    assert any(p["hidden"] for p in drawn(ENGLAND, state, "p0")["pieces"] if p["family"] == "p1")


def test_another_familys_shillings_never_reach_the_map():
    state = played()
    changed = copy.deepcopy(state)
    changed["families"]["p2"]["deniers"] += 7
    assert ENGLAND.view(state, None) != ENGLAND.view(changed, None)   # the two really differ
    assert drawn(ENGLAND, state, "p0") == drawn(ENGLAND, changed, "p0")   # FAQ l.857: kept secret
    assert drawn(ENGLAND, state, None) == drawn(ENGLAND, changed, None)   # the map shows no money at all


# -- a map the game has but cannot draw ---------------------------------------------------------------
@pytest.fixture
def no_geography(tmp_path, monkeypatch):
    """The games' folders, Fief: England's without its geography.yaml."""
    folder = tmp_path / "games"
    shutil.copytree(games_dir(), folder)
    (folder / "fief_england" / "geography.yaml").unlink()
    monkeypatch.setattr(map_view, "games_dir", lambda: folder)
    map_view.load_geography.cache_clear()
    yield
    map_view.load_geography.cache_clear()


def test_a_missing_map_is_told_to_the_game_master_in_mail_tick_and_game_show(tmp_path, no_geography):
    judge = Judge(tmp_path / "judge")
    judge.new_game("e1", players=("p0", "p1", "p2"), game_type="fief_england", gm_email="gm@pbem.test")
    judge.new_game("f1", players=("p0", "p1", "p2"), game_type="fief_france", gm_email="gm@pbem.test")
    report = judge.tick(advance_hours=49)
    lines = report.lines()
    assert any("game e1: the map could not be drawn" in line and "geography.yaml is missing" in line
               for line in lines), lines
    assert not any("game f1" in line and "map" in line for line in lines), lines   # France's map is drawn
    alerts = [m for m in judge.sent() if "The map could not be drawn" in str(m["Subject"])]
    assert alerts and "gm@pbem.test" in str(alerts[0]["To"])
    assert "geography.yaml is missing" in alerts[0].get_body(("plain",)).get_content()
    html = [m for m in judge.sent() if m.get_body(("html",)) is not None]
    assert any("The map could not be drawn" in m.get_body(("html",)).get_content() for m in html)
    shown = CliRunner().invoke(main, ["game", "show", "e1", "--home", str(judge.home.path)])
    assert shown.exit_code == 0 and "Map: cannot be drawn" in shown.output, shown.output


def test_a_game_whose_rules_declare_no_map_is_no_alert(tmp_path):
    judge = Judge(tmp_path / "judge")
    judge.new_game("t1", gm_email="gm@pbem.test")
    assert not any("map" in line for line in judge.tick(advance_hours=49).lines())
    assert not [m for m in judge.sent() if "map could not" in str(m["Subject"])]


def test_the_england_geography_without_its_seas_names_what_is_missing(tmp_path, monkeypatch):
    folder = tmp_path / "games" / "fief_england"
    shutil.copytree(games_dir() / "fief_england", folder)
    text = (folder / "geography.yaml").read_text(encoding="utf-8")
    (folder / "geography.yaml").write_text(text.split("\nseas:")[0] + "\n", encoding="utf-8")
    monkeypatch.setattr(map_view, "games_dir", lambda: tmp_path / "games")
    map_view.load_geography.cache_clear()
    try:
        with pytest.raises(map_view.MapUnavailable, match="no position for Sea I, .*under `seas:`"):
            map_view.load_geography("fief_england")
    finally:
        map_view.load_geography.cache_clear()


def test_the_cards_lying_on_a_regions_sea_are_written_there():
    state = played()
    state["board_effects"] = [{"card": "invaders", "target": "III", "player": None, "lord": None}]
    drawing = drawn(ENGLAND, state, "p0")
    seas = {p["id"]: p["markers"] for p in drawing["places"] if p["kind"] == "sea"}
    assert "card:invaders" in seas["Sea III"]
    assert not any("card:invaders" in m for s, m in seas.items() if s != "Sea III")
    assert {"id": "card:invaders", "letter": "INVASION",
            "label": "a card on this Sea: it strikes its Region (2.4)"} in drawing["marker_kinds"]


def test_round_ones_disasters_waiting_lie_on_their_seas():
    view = next(v for state in random_positions(5, 8) if (v := ENGLAND.view(state, "p0")).get("disasters_waiting"))
    waiting = view["disasters_waiting"]
    drawing = map_drawing(ENGLAND, view)
    seas = {p["id"]: p["markers"] for p in drawing["places"] if p["kind"] == "sea"}
    assert sorted(m for markers in seas.values() for m in markers) == sorted(f"card:{w['card']}" for w in waiting)
    for w in waiting:
        assert f"card:{w['card']}" in seas[f"Sea {w['region']}"]


def test_at_two_players_each_player_sees_both_own_families_troops_and_whose_each_family_is():
    state = played(3)   # 13.7: p0 runs p0 and p0-2
    drawing = drawn(ENGLAND, state, "p0")
    assert {"id": "p0-2", "label": "p0-2 (p0's second family)"} in drawing["families"]
    own = [p for p in drawing["pieces"] if p["family"] in ("p0", "p0-2")]
    others = [p for p in drawing["pieces"] if p["family"] in ("p1", "p1-2")]
    assert own and all(p["units"] and not p["hidden"] for p in own if p["units"] or p["hidden"])
    assert others and all(not p["units"] for p in others)


def test_the_bandits_captives_are_in_the_notes():
    view = ENGLAND.view(played(), "p0")
    view["sherwood"] = [{"noble": "Edward", "family": "p1", "ransom": 4, "knights": 0}]
    assert "the bandits of Sherwood hold Edward (p1), ransom 4 (13.4)" in map_drawing(ENGLAND, view)["notes"]


def test_the_game_master_writes_englands_map_from_the_command_line(tmp_path):
    judge = Judge(tmp_path / "judge")
    judge.new_game("e2", players=("p0", "p1"), game_type="fief_england")
    for extra in ((), ("--as", "p1")):
        out = tmp_path / f"e2-{len(extra)}.png"
        result = CliRunner().invoke(main, ["game", "show", "e2", "--home", str(judge.home.path), *extra,
                                           "--map", str(out)])
        assert result.exit_code == 0 and "wrote the map of e2" in result.output, result.output
        assert out.read_bytes().startswith(b"\x89PNG")
    shown = CliRunner().invoke(main, ["game", "show", "e2", "--home", str(judge.home.path)])
    assert shown.exit_code == 0 and "Map:" not in shown.output, shown.output


def test_englands_site_shows_the_public_map_every_family_face_down(tmp_path):
    judge = Judge(tmp_path / "judge")
    judge.new_game("e3", players=("p0", "p1", "p2"), game_type="fief_england")
    judge.tick(advance_hours=49)   # the setup resolves with default orders: troops on the board
    result = CliRunner().invoke(main, ["site", "e3", str(tmp_path / "site"), "--home", str(judge.home.path)])
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "site" / "maps").glob("*.png"))
    store = judge.store()
    try:
        game = engine.load_game(store, "e3")
    finally:
        store.close()
    drawing = map_drawing(game.rules, public_view(game.rules, game.state, ["p0", "p1", "p2"]))
    assert drawing["pieces"] and all(not p["units"] for p in drawing["pieces"] if p["family"] != "invaders")


def test_a_broken_england_map_stops_the_site_naming_the_file(tmp_path, no_geography):
    judge = Judge(tmp_path / "judge")
    judge.new_game("e4", players=("p0", "p1", "p2"), game_type="fief_england")
    judge.tick(advance_hours=49)
    result = CliRunner().invoke(main, ["site", "e4", str(tmp_path / "site"), "--home", str(judge.home.path)])
    assert result.exit_code != 0 and "geography.yaml is missing" in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("players", [("p0", "p1"), ("p0", "p1", "p2", "p3")])
def test_every_england_report_and_welcome_carries_its_map(tmp_path, players):
    judge = Judge(tmp_path / "judge")
    judge.new_game("e5", players=players, game_type="fief_england", gm_email="gm@pbem.test")
    judge.tick(advance_hours=49)
    mails = [m for m in judge.sent() if any(w in str(m["Subject"]) for w in ("Welcome", "resolved"))]
    assert {str(m["To"]).split("@")[0].split("<")[-1] for m in mails} >= set(players)
    for mail in mails:
        images = [p for p in mail.walk() if p.get_content_type() == "image/png"]
        html = mail.get_body(("html",)).get_content()
        assert len(images) == 1 and "could not be drawn" not in html, mail["Subject"]
        assert f'src="cid:{images[0]["Content-ID"][1:-1]}"' in html
