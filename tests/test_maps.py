"""The map (docs/maps.md): Fief: France declares its geometry (games/fief_france/geography.yaml)
and turns a view into a drawing description (pbem/games/fief/map_view.py); the judge draws it
(pbem/judge/maps.py) and `pbem game show --map` writes it. The description is built from the
view only, so each secret the view hides stays off the picture."""
from __future__ import annotations

import copy
import io
import json
import re

import pytest
import yaml
from click.testing import CliRunner
from PIL import Image, ImageColor, ImageDraw, ImageFont

import judge_support  # noqa: F401  (registers the tiny game, which has no map)
from pbem.cli import main
from pbem.games import rules_for
from pbem.games.fief import map_view
from pbem.games.fief.board import load_board
from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.judge.maps import (BYTE_BUDGET, HEIGHT, MAP_WIDTH, PAPER, WIDTH, MapError, Painter,
                             draw_png, put_text)
from pbem.paths import games_dir
from pbem.rules.api import MapUnavailable, map_drawing

PLAYERS = ["enguerand", "marie", "olivier", "sybille"]
UNITS = {"Tours": {"enguerand": {"knight": 1, "man_at_arms": 3}},
         "Dijon": {"marie": {"archer": 2, "man_at_arms": 2}},
         "Lyon": {"sybille": {"knight": 2}, "marie": {"bombard": 1, "man_at_arms": 4}},
         "offshore": {"olivier": {"man_at_arms": 2}}}


def position(**changes) -> dict:
    data = {
        "players": PLAYERS, "round": 3, "phase": "movement", "options": {"fog_of_war": True},
        "hands": {"marie": ["tax"], "olivier": ["Aliénor"]},
        "lords": {"Baudoin": {"family": "enguerand", "at": "Tours", "titles": ["bretagne", "bishop 2"]},
                  "Quentin": {"family": "marie", "at": "Dijon", "titles": ["bourgogne"]},
                  "Hugues": {"family": "olivier", "at": "offshore"},
                  "Renaud": {"family": "sybille", "at": "Lyon"},
                  "Charles": {"family": "marie", "at": "Lyon"}},
        "units": UNITS,
        "towns": {"Tours": {"controller": "enguerand", "fortress": "stronghold", "mills": 2},
                  "Dijon": {"fortress": "city", "mills": 1},
                  "Lyon": {"controller": "sybille", "fortress": "stronghold", "besieged_by": {"marie": 1}},
                  "Nantes": {"controller": "enguerand"}},
    }
    data.update(changes)
    return build_position(data, "fief_france").to_json()


def drawing(state: dict, player: str | None) -> dict:
    return map_drawing(RULES, RULES.view(state, player))


# -- the geometry -----------------------------------------------------------------------------
def test_every_town_of_the_board_has_a_real_position_and_no_other_town_is_named():
    geo = map_view.load_geography("fief_france")
    assert set(geo.towns) == set(load_board("fief_france").towns)
    assert geo.towns["Liège"] == (5.57, 50.63)          # shared/map-facts/fief_france.yaml
    x_paris, y_paris = geo.xy(*geo.towns["Paris"])
    x_lyon, y_lyon = geo.xy(*geo.towns["Lyon"])
    assert y_paris < y_lyon and x_paris < x_lyon        # north is up, east is right


@pytest.mark.parametrize("change, message", [
    (lambda towns: towns.pop("Rennes"), "no position for Rennes"),
    (lambda towns: towns.update(Brest={"lon": -4.49, "lat": 48.39}), "Brest is not a town of"),
    (lambda towns: towns.update(Rennes={"lon": "west"}), "each town needs `lon:` and `lat:` numbers"),
])
def test_a_geography_file_that_does_not_fit_the_board_is_refused_naming_the_town(tmp_path, monkeypatch,
                                                                                 change, message):
    folder = tmp_path / "fief_france"
    folder.mkdir()
    data = yaml.safe_load((games_dir() / "fief_france" / "geography.yaml").read_text(encoding="utf-8"))
    change(data["towns"])
    (folder / "geography.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(map_view, "games_dir", lambda: tmp_path)
    map_view.load_geography.cache_clear()
    try:
        with pytest.raises(MapUnavailable, match=message):
            map_view.load_geography("fief_france")
    finally:
        map_view.load_geography.cache_clear()


def test_a_game_without_a_map_says_so():
    with pytest.raises(MapUnavailable, match="has no map yet"):
        map_drawing(rules_for("tiny"), {})


# -- the description comes from the view ------------------------------------------------------
def test_the_description_is_built_from_the_view_it_is_given():
    view = RULES.view(position(), "marie")
    view["towns"]["Paris"]["controller"] = "olivier"      # a view, not the state, decides
    places = {p["id"]: p for p in map_drawing(RULES, view)["places"]}
    assert places["Paris"]["controller"] == "olivier"


def test_the_description_holds_every_town_road_harbor_piece_siege_and_title():
    d = drawing(position(), None)
    board = load_board("fief_france")
    towns = {p["id"]: p for p in d["places"] if p["kind"] == "town"}
    assert set(towns) == set(board.towns)
    roads = {frozenset(l["between"]) for l in d["links"] if l["kind"] == "road"}
    assert roads == set(board.roads)
    assert {l["between"][0] for l in d["links"] if l["kind"] == "sea"} == set(board.harbors)
    assert towns["Tours"]["markers"] == ["stronghold", "mill", "mill"]
    assert towns["Dijon"]["markers"] == ["city", "mill"] and towns["Nantes"]["markers"] == ["harbor"]
    assert towns["Lyon"]["controller"] == "sybille" and towns["Lisieux"]["emphasis"]
    assert {"at": "Lyon", "by": ["marie"]} in d["sieges"]
    pieces = {(p["at"], p["family"]): p for p in d["pieces"]}
    assert pieces[("Tours", "enguerand")]["units"] == {"knight": 1, "man_at_arms": 3}
    assert pieces[("offshore:0", "olivier")]["lords"] == ["Hugues"]
    assert {"family": "enguerand", "text": "Baudoin: Barony of Bretagne, Bishop of Lisieux"} in d["titles"]
    assert {a["label"] for a in d["areas"]} >= {"Duchy of Bourgogne", "bishopric 2 (Lisieux)"}


# -- secrets: each kind the view hides stays off the description and the picture ---------------
def test_under_fog_of_war_another_familys_unit_types_never_reach_the_map():
    knights = position()
    footmen = position(units={**UNITS, "Tours": {"enguerand": {"man_at_arms": 4}},
                              "Lyon": {"sybille": {"archer": 1, "man_at_arms": 1},
                                       **{"marie": UNITS["Lyon"]["marie"]}}})
    seen = drawing(knights, "marie")
    assert seen == drawing(footmen, "marie")               # 4 pawns either way: nothing else told
    assert draw_png(seen) == draw_png(drawing(footmen, "marie"))
    tours = next(p for p in seen["pieces"] if p["at"] == "Tours")
    assert tours["units"] == {} and tours["hidden"] == 4
    assert "fog of war" in " ".join(seen["notes"])
    own = next(p for p in seen["pieces"] if p["at"] == "Dijon")
    assert own["units"] == {"archer": 2, "man_at_arms": 2}  # her own pawns, face up to her
    assert drawing(knights, None) != drawing(footmen, None)  # the game master sees them


@pytest.mark.parametrize("secret", [
    {"hands": {"marie": ["tax"], "olivier": ["famine"]}},             # hands (2.2)
    {"piles": {"characters": ["Aliénor"], "events": ["famine", "tax"]}},   # face-down piles (2.3)
    {"disasters_track": ["famine"]},                                   # the disasters track (2.3)
    {"policies": {"olivier": {"safe_passage": {"others": "allow"}}}},  # standing policies
])
def test_no_other_secret_of_the_view_reaches_the_map_of_anyone(secret):
    plain, other = position(), position(**secret)
    for viewer in PLAYERS + [None]:        # not even the game master's: the map draws the board
        assert drawing(plain, viewer) == drawing(other, viewer), viewer
    assert "Aliénor" not in json.dumps(drawing(position(hands={"olivier": ["Aliénor"]}), None),
                                       ensure_ascii=False)


# -- the picture --------------------------------------------------------------------------------
def crowded() -> dict:
    """Every town held, fortified, milled and full of every family's forces: the largest map."""
    board = load_board("fief_france")
    units, towns, lords = {}, {}, {}
    for i, town in enumerate(board.towns):
        owner = PLAYERS[i % 4]
        units[town] = {p: {"knight": 1, "man_at_arms": 2, "archer": 1} for p in PLAYERS}
        towns[town] = {"controller": owner, "fortress": "stronghold", "mills": 2,
                       "besieged_by": {PLAYERS[(i + 1) % 4]: 1}}
    for i, name in enumerate(["Baudoin", "Quentin", "Hugues", "Renaud", "Charles", "Gauthier"]):
        lords[name] = {"family": PLAYERS[i % 4], "at": list(board.towns)[i]}
    return position(units=units, towns=towns, lords=lords)


@pytest.mark.parametrize("state, viewer", [(position, "marie"), (position, None), (crowded, "olivier"),
                                           (crowded, None)])
def test_the_png_is_valid_of_the_stated_size_and_within_the_byte_budget(state, viewer):
    png = draw_png(drawing(state(), viewer))
    image = Image.open(io.BytesIO(png))
    image.verify()
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert len(png) < BYTE_BUDGET, len(png)


def test_every_town_is_drawn_with_its_name_on_the_map():
    d = drawing(position(), "marie")
    painter = Painter(d)
    image = painter.picture()
    for place in d["places"]:
        x, y = painter.at(place["id"])
        assert image.getpixel((round(x), round(y))) != Image.new("RGB", (1, 1), PAPER).getpixel((0, 0))
        left, top, right, bottom = painter.labelled[place["id"]]
        assert 0 <= left and right <= MAP_WIDTH and 0 <= top and bottom <= HEIGHT, place["id"]


def test_the_same_view_draws_the_same_bytes():
    d = drawing(position(), "enguerand")
    assert draw_png(d) == draw_png(copy.deepcopy(d))


# Words of Fief's board and pieces that are no word of the drawing contract (`town`, `lords`,
# `captives`, `sieges` are): the game's drawing gives them; the painter's code holds none.
FIEF_WORDS = ("fief", "harbor", "offshore", "bishop", "chief town", "l lord", "towns")


def sidebar_lines(d: dict, monkeypatch) -> list[str]:
    """What the painter writes in the sidebar of ``d``'s picture."""
    from pbem.judge import maps
    written: list[str] = []
    real = maps.put_text
    monkeypatch.setattr(maps, "put_text", lambda draw, xy, text, *a, **k: (
        written.append(text) if xy[0] > MAP_WIDTH else None, real(draw, xy, text, *a, **k))[-1])
    Painter(d).picture()
    monkeypatch.undo()
    return written


def bare_drawing() -> dict:
    """A drawing of no game, with every part but a legend."""
    return {"title": "two places", "families": [{"id": "red", "label": "red"}],
            "places": [{"id": "a", "label": "A", "kind": "town", "x": 0, "y": 0, "emphasis": True,
                        "markers": [], "controller": "red"},
                       {"id": "b", "label": "B", "kind": "town", "x": 5, "y": 3, "emphasis": False,
                        "markers": [], "controller": None},
                       {"id": "s", "label": "S", "kind": "sea", "x": 9, "y": 0, "emphasis": False,
                        "markers": [], "controller": None}],
            "links": [{"between": ["a", "b"], "kind": "road"}, {"between": ["b", "s"], "kind": "sea"}],
            "areas": [{"id": "r", "label": "R", "places": ["a", "b"], "style": "outline"}],
            "pieces": [{"at": "b", "family": "red", "lords": ["x"], "units": {}, "hidden": 2, "captives": ["y"]}],
            "piece_kinds": [], "marker_kinds": [], "sieges": [{"at": "b", "by": ["red"]}], "titles": [], "notes": []}


def test_the_painter_knows_no_game_the_legend_words_are_the_games(monkeypatch):
    """docs/maps.md, "For a game's author": the painter's code names nothing of Fief; the legend's
    words are Fief's, from its drawing's `legend`; a drawing without one gets generic words."""
    from pbem.judge import map_ink, map_shapes, maps
    for module in (maps, map_ink, map_shapes):
        code = "\n".join(line.split("#")[0] for line in open(module.__file__, encoding="utf-8"))
        strings = " ".join(re.findall(r'"[^"\n]*"', code)).lower()
        assert [w for w in FIEF_WORDS if w in strings] == [], module.__name__
    fief = " ".join(sidebar_lines(drawing(position(), "marie"), monkeypatch))
    for words in ("Towns", "double ring: chief town (larger name)", "by sea (harbor to offshore)",
                  "grey outline: fief borders", "L lord;", "?n face down; c captive(s) held",
                  "black ring with spikes: besieged"):
        assert words in fief
    generic = " ".join(sidebar_lines(bare_drawing(), monkeypatch))
    assert "Places" in generic and "chief place" in generic and "L leader" in generic
    assert [w for w in FIEF_WORDS if w in generic.lower()] == []


def test_accents_are_drawn_although_the_font_has_none():
    def ink(text):
        image = Image.new("RGB", (120, 40), "white")
        put_text(ImageDraw.Draw(image), (10, 10), text, ImageFont.load_default(size=20), "black")
        return image.tobytes()
    assert ink("Liège") != ink("Liege") and ink("Orléans") != ink("Orleans")


def test_a_description_naming_an_unknown_place_is_refused():
    d = drawing(position(), None)
    d["links"].append({"between": ["Paris", "Atlantis"], "kind": "road"})
    with pytest.raises(MapError, match="unknown place 'Atlantis'"):
        draw_png(d)


# -- the command line ---------------------------------------------------------------------------
@pytest.fixture
def home(tmp_path):
    path = tmp_path / "home"
    assert CliRunner().invoke(main, ["init", "--home", str(path), "--address", "judge@pbem.test"]).exit_code == 0
    return path


def cli(home, *args):
    return CliRunner().invoke(main, ["game", args[0], "--home", str(home), *args[1:]])


def test_the_game_master_writes_the_map_of_any_view_from_the_command_line(home, tmp_path):
    result = cli(home, "new", "fief_france", "--name", "f1", "--option", "fog_of_war=true",
                 *[a for p in PLAYERS[:3] for a in ("--player", f"{p}:{p}@pbem.test")])
    assert result.exit_code == 0, result.output
    for extra, seen in (((), "the game master's view"), (("--as", "marie"), "as marie sees it")):
        out = tmp_path / f"map{len(extra)}.png"
        result = cli(home, "show", "f1", *extra, "--map", str(out))
        assert result.exit_code == 0, result.output
        assert f"wrote the map of f1 ({seen}" in result.output
        assert Image.open(out).size == (WIDTH, HEIGHT)
        assert not list(tmp_path.glob(".*.tmp"))


def test_a_bad_map_path_or_a_game_without_a_map_is_one_clear_line(home, tmp_path):
    assert cli(home, "new", "fief_france", "--name", "f1",
               *[a for p in PLAYERS[:3] for a in ("--player", f"{p}:{p}@pbem.test")]).exit_code == 0
    assert cli(home, "new", "tiny", "--name", "t1", "--player", "alice:alice@pbem.test",
               "--player", "bob:bob@pbem.test").exit_code == 0
    for args, message in (
            (("f1", "--map", str(tmp_path / "nowhere" / "m.png")), "no folder"),
            (("f1", "--map", str(tmp_path)), "is a folder"),
            (("t1", "--map", str(tmp_path / "t.png")), "has no map yet"),
            (("f1", "--as", "nobody", "--map", str(tmp_path / "n.png")), "has no player 'nobody'")):
        result = cli(home, "show", *args)
        assert result.exit_code != 0 and message in result.output, result.output
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.png"))


def test_a_pillow_without_freetype_is_a_map_error_saying_how_to_fix_it(monkeypatch):
    """Such a Pillow's default font is a bitmap without sizes: once an AttributeError mid-drawing."""
    from pbem.judge import map_ink
    monkeypatch.setattr(ImageFont, "load_default", lambda size=None: ImageFont.ImageFont())
    map_ink._font.cache_clear()         # the fonts are loaded once a process: load them again
    try:
        with pytest.raises(MapError, match="this Pillow has no FreeType support.*install Pillow from PyPI"):
            draw_png(drawing(position(), "marie"))
    finally:
        map_ink._font.cache_clear()


def test_the_fonts_are_loaded_once_not_for_each_picture(monkeypatch):
    """Loading Pillow's font decodes it from base64: five fonts a picture (docs/performance.md)."""
    draw_png(drawing(position(), "marie"))
    loads = []
    real = ImageFont.load_default
    monkeypatch.setattr(ImageFont, "load_default", lambda *a, **k: loads.append(a or k) or real(*a, **k))
    draw_png(drawing(position(), "olivier"))
    assert loads == []


def test_a_second_picture_of_the_same_board_renders_few_labels_again(monkeypatch):
    """Glyph masks are kept by text and font alone (pbem/judge/map_ink.py _MASKS): counted, not timed."""
    from pbem.judge import map_ink
    renders = []
    real = ImageFont.FreeTypeFont.getmask2
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2",
                        lambda self, *a, **k: renders.append(a[0]) or real(self, *a, **k))
    map_ink._MASKS.clear()
    first = draw_png(drawing(position(), "marie"))
    cold = len(renders)
    renders.clear()
    assert draw_png(drawing(position(), "marie")) == first
    assert cold > 100 and len(renders) == 0
    other = draw_png(drawing(position(), "olivier"))    # another view: its own pieces, the board's names kept
    assert len(renders) < cold / 4
    map_ink._MASKS.clear()
    assert draw_png(drawing(position(), "olivier")) == other     # the same bytes as drawn without the cache


def test_every_pixel_of_a_colour_the_painter_draws_with_keeps_that_colour_in_the_png():
    from pbem.judge import map_ink
    d = drawing(crowded(), None)
    drawn = dict((rgb, n) for n, rgb in Painter(d).picture().getcolors(WIDTH * HEIGHT))
    written = dict((rgb, n) for n, rgb in Image.open(io.BytesIO(draw_png(d))).convert("RGB").getcolors(WIDTH * HEIGHT))
    for colour in (*map_ink.PALETTE, *map_ink.AREA_TINTS, map_ink.INK, map_ink.GREY, map_ink.SEA_INK, PAPER, "#FFFFFF"):
        rgb = ImageColor.getrgb(colour)
        assert written.get(rgb, 0) >= drawn.get(rgb, 0), colour
    assert all(drawn[ImageColor.getrgb(c)] > 10_000 for c in (PAPER, "#FFFFFF", map_ink.INK))


# -- the palette: one for every picture, from no view (pbem/judge/map_png.py) --------------------
def test_every_picture_has_the_same_palette_whatever_its_view_or_board():
    """A palette found in each picture would be drawn from its view; the painter's is fixed."""
    from pbem.judge import map_png
    fixed = [v for rgb in map_png.COLOURS for v in rgb]
    for d in (drawing(position(), "marie"), drawing(position(), None), drawing(crowded(), "olivier"),
              bare_drawing()):
        png = Image.open(io.BytesIO(draw_png(d)))
        assert png.mode == "P" and png.getpalette() == fixed


def test_no_pixel_of_the_png_is_more_than_ten_units_from_the_picture_drawn():
    """Each pixel takes its nearest colour of the fixed palette: the painter's colours exactly,
    the anti-aliased edges of text within a few units (the octree's palette left some 30 off)."""
    from PIL import ImageChops
    for d in (drawing(crowded(), None), drawing(position(), "marie")):
        drawn = Painter(d).picture()
        written = Image.open(io.BytesIO(draw_png(d))).convert("RGB")
        worst = max(band.getextrema()[1] for band in ImageChops.difference(drawn, written).split())
        assert worst <= 10


def test_the_palette_is_the_same_in_every_process():
    """The same view gives the same bytes on every machine (docs/maps.md): nothing in the
    palette may follow the order of a set, which changes with the process's hash seed."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    from pbem.judge import map_png
    root = Path(__file__).resolve().parent.parent
    for seed in ("0", "1", "2"):
        out = subprocess.run([sys.executable, "-c", "from pbem.judge import map_png; print(map_png.COLOURS)"],
                             capture_output=True, text=True, check=True, cwd=root,
                             env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)})
        assert out.stdout.strip() == str(map_png.COLOURS), seed


def test_the_areas_outline_is_found_on_each_areas_own_box_not_the_whole_picture(monkeypatch):
    """The areas layer is drawn once a process and board (map_shapes._area_layer); its outline
    filter on a whole-picture mask per area was 0.6 s of the first picture: counted, not timed."""
    from pbem.judge import map_shapes
    filtered = []
    real = Image.Image.filter
    monkeypatch.setattr(Image.Image, "filter", lambda self, f: filtered.append(self.size) or real(self, f))
    d = drawing(position(), None)
    painter = Painter(d)
    areas = [a for a in d["areas"] if a.get("style") == "outline"]
    shapes = tuple(tuple(painter.at(t) for t in a["places"]) for a in areas)
    filtered.clear()        # the painter's own layer, if not kept yet
    layer = map_shapes._area_layer.__wrapped__((WIDTH, HEIGHT), shapes, Painter.AREA_RADIUS)
    assert len(filtered) == len(areas) > 5
    assert sum(w * h for w, h in filtered) < WIDTH * HEIGHT
    assert layer.getpixel((5, 500)) == ImageColor.getrgb(PAPER)      # off every area: paper


def test_a_label_weighs_its_places_against_the_boxes_near_it_only(monkeypatch):
    """The placement's overlap sums (210 a picture) were over every box drawn so far, 9,240
    pairs on this board; boxes far from a label's places share nothing with them, so the sums
    are the same over the near ones (about 1,100 pairs; the same bytes): counted, not timed."""
    pairs = []
    real = Painter._overlap
    monkeypatch.setattr(Painter, "_overlap",
                        lambda self, box, taken: pairs.append(len(taken)) or real(self, box, taken))
    Painter(drawing(crowded(), None)).picture()
    assert len(pairs) > 150 and sum(pairs) < 3_000
