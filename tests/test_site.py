"""The archive as a static site (`pbem site`, pbem/judge/site.py, docs/site.md) and the public
view it draws its maps from (pbem.rules.api.public_view). The browser walks the same sites in
tests/test_site_browser.py."""
from __future__ import annotations

import html
import io
import json
import re

import pytest
from click.testing import CliRunner
from PIL import Image

from judge_support import Judge
from pbem.cli import main
from pbem.games import rules_for
from pbem.judge import site
from pbem.judge.maps import HEIGHT, WIDTH
import tinygame
from pbem.rules.api import common_view, map_drawing, public_view
from pbem.rules.rng import Rng
from test_html_reports import current_state
from site_support import (PRIVATE_WORDS, fief_game_with_fog, game_of, leaks, resolved_phases, secrets_of, site_files,
                          tiny_game_over)

FIEF = rules_for("fief_france")


def run(judge: Judge, *args: str):
    return CliRunner().invoke(main, ["site", *args, "--home", str(judge.home.path)])


def page_texts(folder) -> dict[str, str]:
    """Each HTML page of a site as text (tags dropped, entities read), by its path."""
    return {str(p.relative_to(folder)): html.unescape(re.sub(r"<[^>]+>", " ", p.read_text(encoding="utf-8")))
            for p in site_files(folder) if p.suffix == ".html"}


# -- the public view --------------------------------------------------------------------------
def test_common_view_keeps_what_every_view_holds_alike_and_nothing_else():
    views = [{"round": 2, "scores": {"a": 1, "b": 0}, "hand": "amber", "seen": [1, 2], "me": None},
             {"round": 2, "scores": {"a": 1, "b": 0}, "hand": "birch", "seen": [1, 2], "me": "a"},
             {"round": 2, "scores": {"a": 1, "b": 0}, "hand": "birch", "seen": [1, 3], "me": "b"}]
    assert common_view(views) == {"round": 2, "scores": {"a": 1, "b": 0}}


def test_the_default_public_view_never_holds_a_hand_even_when_every_players_is_the_same():
    """The tiny game declares no public view: the judge's default keeps what the game master and
    every player see alike. Two players dealt the same word (a position the game never makes, the
    worst case) still do not put it in: the game master's view has no `hand`."""
    state = tinygame.RULES.setup({"target": 2}, ["alice", "bob"], Rng("site"))
    state["hands"] = {"alice": "amber", "bob": "amber"}
    public = public_view(tinygame.RULES, state, ["alice", "bob"])
    assert public == {"round": 1, "step": "bid", "scores": {"alice": 0, "bob": 0}}


def test_fiefs_public_view_shows_every_familys_unit_pawns_face_down_under_fog_of_war(tmp_path):
    """I.2: nobody in particular is every family's "other player": all unit pawns face down,
    no hand, no pool, no policies, no exchange offers; the same map for a different hand or a
    different unit type."""
    judge = Judge(tmp_path)
    fief_game_with_fog(judge)
    state = current_state(judge, "loire")
    public = FIEF.public_view(state)
    forces = [f for town in public["towns"].values() for f in town["forces"].values()]
    assert forces and any(f["units"] for f in forces)
    assert all(set(f["units"]) <= {"hidden"} for f in forces)
    assert public["hand"] == [] and public["policies"] == {} and public["my_pawns"] == []
    assert public["exchange_offers"] == [] and "hands" not in public and "pawns" not in public
    assert all("pool" not in fam for fam in public["families"].values())
    other = json.loads(json.dumps(state))
    pawn = next(p for p in other["pawns"].values() if p["kind"] in ("man_at_arms", "archer"))
    pawn["kind"] = "knight" if pawn["kind"] == "man_at_arms" else "man_at_arms"
    other["families"]["alice"]["hand"] = ["tax", "plague"]
    assert other != state
    assert map_drawing(FIEF, FIEF.public_view(other)) == map_drawing(FIEF, public)


# -- a running game ---------------------------------------------------------------------------
def test_the_site_of_a_running_game_holds_every_phase_and_no_secret(tmp_path):
    judge = Judge(tmp_path / "home")
    fief_game_with_fog(judge)
    result = run(judge, "loire", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    resolved = resolved_phases(judge)
    assert len(resolved) >= 4
    texts = page_texts(tmp_path / "site")
    assert set(texts) == {"index.html", "timeline.html"} | {f"phase-{r['seq']:04d}.html" for r in resolved}
    secrets = secrets_of(judge, "loire")
    assert any(PRIVATE_WORDS in s for s in secrets.values())
    for path in site_files(tmp_path / "site"):
        raw = html.unescape(path.read_bytes().decode("utf-8", "replace"))
        assert leaks(raw, secrets) == [], path
    # a public event of every phase is on its page, and the timeline names every phase
    assert "private talk" in texts["phase-0001.html"]
    assert all(r["phase_id"] in texts["timeline.html"] for r in resolved)
    assert "wrote the site of 1 game(s)" in result.output


def test_the_maps_are_the_public_view_drawn_once_per_different_picture(tmp_path):
    judge = Judge(tmp_path / "home")
    fief_game_with_fog(judge)
    assert run(judge, "loire", str(tmp_path / "site")).exit_code == 0
    pictures = sorted((tmp_path / "site" / "maps").iterdir())
    shown = set()
    for page in (tmp_path / "site").glob("*.html"):
        shown |= set(re.findall(r'<img src="(maps/[0-9a-f]+\.png)" width="1400" height="1000"',
                                page.read_text(encoding="utf-8")))
    assert {f"maps/{p.name}" for p in pictures} == shown
    for p in pictures:
        with Image.open(io.BytesIO(p.read_bytes())) as img:
            assert img.size == (WIDTH, HEIGHT)
    # the index shows the position now: the picture of the public view of the game's state
    from pbem.judge.maps import draw_png
    now = draw_png(map_drawing(FIEF, FIEF.public_view(current_state(judge, "loire"))))
    assert now in {p.read_bytes() for p in pictures}


def test_reveal_is_refused_while_a_game_runs(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game(name="g1")
    result = run(judge, "g1", str(tmp_path / "site"), "--reveal")
    assert result.exit_code != 0 and "is running: --reveal shows the orders" in result.output
    assert not (tmp_path / "site").exists()


# -- a finished game --------------------------------------------------------------------------
def test_a_finished_game_shows_its_result_and_reveals_only_when_asked(tmp_path):
    judge = Judge(tmp_path / "home")
    tiny_game_over(judge)
    secrets = secrets_of(judge, "bids")
    assert any("Your hand is still" in s for s in secrets.values())
    assert run(judge, "bids", str(tmp_path / "public")).exit_code == 0
    public = page_texts(tmp_path / "public")
    assert "reached 1 points" in public["index.html"] and "Winner(s): alice" in public["index.html"]
    for name, text in public.items():
        assert leaks(text, secrets) == [], name
        assert "bid: 6" not in text
    # the shout, a player's words, is quoted and attributed, never the judge's sentence
    shouted = next(t for t in public.values() if "Fortune favours the bold" in t)
    assert "alice wrote:" in shouted and "alice| Fortune favours the bold" in shouted

    result = run(judge, "bids", str(tmp_path / "revealed"), "--reveal")
    assert result.exit_code == 0 and "revealed: bids" in result.output
    revealed = "\n".join(page_texts(tmp_path / "revealed").values())
    assert secrets["the seed"] in revealed
    assert "[to alice] Your hand is still" in revealed
    assert "bid: 6" in revealed and "bid: 2" in revealed and 'shout: Fortune favours the bold' in revealed
    assert all(s not in revealed for what, s in secrets.items() if what.endswith("'s secret"))


def test_a_game_without_a_map_gets_its_pages_without_pictures(tmp_path):
    judge = Judge(tmp_path / "home")
    tiny_game_over(judge)
    assert run(judge, "bids", str(tmp_path / "site")).exit_code == 0
    assert not (tmp_path / "site" / "maps").exists()
    assert "<img" not in "".join(page_texts(tmp_path / "site"))


# -- every game ---------------------------------------------------------------------------------
def test_all_games_get_an_index_linking_each_games_site(tmp_path):
    judge = Judge(tmp_path / "home")
    fief_game_with_fog(judge, moves=1)
    tiny_game_over(judge)
    result = run(judge, "--all", str(tmp_path / "site"), "--reveal")
    assert result.exit_code == 0, result.output
    assert "2 game(s)" in result.output and "revealed: bids" in result.output
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="bids/index.html"' in index and 'href="loire/index.html"' in index
    assert (tmp_path / "site" / "loire" / "timeline.html").exists()
    # the running game is published as every player sees it; the finished one revealed
    loire = "\n".join(page_texts(tmp_path / "site" / "loire").values())
    assert leaks(loire, secrets_of(judge, "loire")) == []
    assert secrets_of(judge, "bids")["the seed"] in (tmp_path / "site" / "bids" / "index.html").read_text()


def test_a_home_without_games_has_nothing_to_publish(tmp_path):
    judge = Judge(tmp_path / "home")
    result = run(judge, "--all", str(tmp_path / "site"))
    assert result.exit_code != 0 and "no games yet" in result.output


# -- the folder -------------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    ((), "give a game and a folder"),
    (("g1",), "give a game and a folder"),
    (("--all", "g1", "DIR"), "with --all give only the folder"),
    (("nope", "DIR"), "no game named 'nope'"),
])
def test_wrong_arguments_are_refused_in_one_line(tmp_path, args, message):
    judge = Judge(tmp_path / "home")
    judge.new_game(name="g1")
    result = CliRunner().invoke(main, ["site", *[str(tmp_path / a) if a == "DIR" else a for a in args],
                                       "--home", str(judge.home.path)])
    assert result.exit_code != 0 and message in result.output and "Traceback" not in result.output


def test_a_site_replaces_the_site_it_wrote_and_nothing_else(tmp_path):
    judge = Judge(tmp_path / "home")
    tiny_game_over(judge)
    folder = tmp_path / "site"
    assert run(judge, "bids", str(folder)).exit_code == 0
    (folder / "phase-9999.html").write_text("an old page", encoding="utf-8")
    assert run(judge, "bids", str(folder)).exit_code == 0
    assert not (folder / "phase-9999.html").exists() and (folder / "index.html").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []   # nothing left beside it

    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("keep me", encoding="utf-8")
    result = run(judge, "bids", str(foreign))
    assert result.exit_code != 0 and "is not empty and holds no site written by `pbem site`" in result.output
    assert [p.name for p in foreign.iterdir()] == ["mine.txt"]

    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert "is a file" in run(judge, "bids", str(tmp_path / "file")).output
    assert "create it first" in run(judge, "bids", str(tmp_path / "no" / "site")).output
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(judge, "bids", str(empty)).exit_code == 0 and (empty / "index.html").exists()


def test_a_site_that_fails_half_way_leaves_the_old_one_whole(tmp_path, monkeypatch):
    judge = Judge(tmp_path / "home")
    fief_game_with_fog(judge, moves=1)
    folder = tmp_path / "site"
    assert run(judge, "loire", str(folder)).exit_code == 0
    before = {p: p.read_bytes() for p in site_files(folder)}
    calls = []

    def failing(drawing):
        calls.append(1)
        if len(calls) > 1:
            raise site_maps.MapError("a town stands off the board")
        return real(drawing)

    import pbem.judge.maps as site_maps
    real = site_maps.draw_png
    monkeypatch.setattr(site_maps, "draw_png", failing)
    result = run(judge, "loire", str(folder))
    assert result.exit_code != 0 and "cannot be drawn: a town stands off the board" in result.output
    assert {p: p.read_bytes() for p in site_files(folder)} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert site.SITE_MARK in {p.name for p in folder.iterdir()}


def test_a_kard_es_korona_game_gets_its_site_with_the_public_map_of_each_phase(tmp_path):
    """The site works for every game through the rules contract: Kard és Korona (no public view
    of its own: the common view of its views) gets a page and a public map per resolved phase,
    and no page holds the seed, a secret or an event not told to everyone (treasuries, bids)."""
    from pbem.rules.api import demo_script
    judge = Judge(tmp_path / "home")
    kek = rules_for("kard_es_korona")
    script = demo_script(kek)
    judge.new_game(name="hunyad", players=script.players, game_type="kard_es_korona", seed="site-test-seed-kek")
    judge.tick()
    for _ in range(8):
        game = game_of(judge, "hunyad")
        if game.row["status"] != "running":
            break
        phase = game.rules.phase(game.state)
        for player in phase.deciders:
            judge.orders("hunyad", player, phase.id, script.orders(game.rules.view(game.state, player), player))
        judge.tick()
    result = run(judge, "hunyad", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    resolved = resolved_phases(judge)
    assert len(resolved) >= 4
    texts = page_texts(tmp_path / "site")
    assert {f"phase-{r['seq']:04d}.html" for r in resolved} <= set(texts)
    pictures = sorted((tmp_path / "site" / "maps").iterdir())
    assert pictures
    for p in pictures:
        with Image.open(io.BytesIO(p.read_bytes())) as img:
            assert img.size == (WIDTH, HEIGHT)
    secrets = secrets_of(judge, "hunyad")
    for path in site_files(tmp_path / "site"):
        assert leaks(html.unescape(path.read_bytes().decode("utf-8", "replace")), secrets) == [], path
