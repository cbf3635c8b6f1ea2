"""Draw a game's map as a PNG from its drawing description (pbem.rules.api.DrawsMap).

Knows no game: it draws places, links, areas, pieces, sieges and titles as the description
gives them (docs/maps.md tells a player how to read the picture). Drawn with Pillow (a
maintained library with wheels that bring their own zlib, libpng and FreeType) and the font
Pillow ships (``ImageFont.load_default(size)``), so the picture is the same on every machine.

The colours and the lettering (Pillow's font has no accented letters: it draws them) are in
map_ink.py, the areas and the families' shapes in map_shapes.py.

Colours are the Okabe-Ito palette, readable by colour-blind players; every family also has a
shape and a letter, so nothing is told by colour alone. The PNG is palette-quantized to stay
small enough for mail (BYTE_BUDGET), with one palette for every picture (map_png.py).
"""
from __future__ import annotations

import math
import threading
from typing import Any

from PIL import Image, ImageDraw

# The ink and the shapes, and what tests and callers import from here (MapError, PAPER, put_text).
from pbem.judge.map_ink import (AREA_INK, DARK, GREY, INK, PALETTE, PAPER, ROAD, SEA_INK, SHAPES, WHITE, MapError,
                                _font, put_text, text_width)
from pbem.judge.map_png import encoded, indexed, png_bytes
from pbem.judge.map_shapes import _area_layer, _dashed, _shape

WIDTH, HEIGHT = 1400, 1000
MAP_WIDTH = 980            # the sidebar (legend, titles, sieges) takes the rest
BYTE_BUDGET = 150_000      # a PNG of the Fief board stays under this (tests/test_maps.py)
TITLE_HEIGHT = 40
MARGIN = 70
TOWN_R = 11


def family_styles(families: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """Each family's colour, shape and letter, by seating order."""
    styles: dict[str, dict[str, str]] = {}
    used: set[str] = set()
    for i, fam in enumerate(families):
        letter = next((c.upper() for c in fam["id"] if c.isascii() and c.isalnum() and c.upper() not in used),
                      str(i + 1))
        used.add(letter)
        styles[fam["id"]] = {"colour": PALETTE[i % len(PALETTE)], "shape": SHAPES[i % len(SHAPES)],
                             "letter": letter}
    return styles


def draw_png(drawing: dict[str, Any]) -> bytes:
    """The PNG bytes of ``drawing``."""
    return Painter(drawing).paint()


class Drawn:
    """The picture of a drawing, painted at once (a MapError is raised here), its PNG written
    meanwhile in a thread of its own: zlib lets other Python work run beside it, on another
    core where there is one (the judge composes the round's reports meanwhile). ``png()``
    waits for it; the bytes are draw_png's."""

    def __init__(self, drawing: dict[str, Any]):
        small = indexed(Painter(drawing).picture())
        self._png: bytes | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._write, args=(small,), name="pbem-png", daemon=True)
        self._thread.start()

    def _write(self, small: Image.Image) -> None:
        try:
            self._png = encoded(small)
        except BaseException as exc:   # handed to whoever waits for it
            self._error = exc

    def png(self) -> bytes:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._png is not None
        return self._png


# The legend's words for what the painter draws the same for every game; a game gives its own
# in its drawing's `legend` (pbem.rules.api.DrawsMap): these are for a game that gives none.
LEGEND_WORDS = {"places": "Places", "emphasis": "chief place", "road": "road", "sea": "by sea",
                "siege": "besieged", "outline": "area borders", "lords": "leader", "hidden": "face down",
                "captives": "captive(s) held", "path": "path", "forest": "other place"}


class Painter:
    def __init__(self, d: dict[str, Any]):
        self.d = d
        self.styles = family_styles(d["families"])
        self.places = {p["id"]: p for p in d["places"]}
        self.f_small, self.f_text, self.f_name, self.f_big, self.f_title = (
            _font(13), _font(14), _font(15), _font(17), _font(20))
        self.taken: list[tuple[float, float, float, float]] = []   # boxes already drawn on
        self.labelled: dict[str, tuple[float, float, float, float]] = {}   # place -> its label's box
        self._fit()
        self._areas()     # the picture starts as a copy of the board's areas layer, not blank paper

    # -- geometry ---------------------------------------------------------------------------
    def _fit(self) -> None:
        xs = [p["x"] for p in self.places.values()]
        ys = [p["y"] for p in self.places.values()]
        if not xs:
            raise MapError("the drawing has no places")
        span_x, span_y = max(max(xs) - min(xs), 1e-9), max(max(ys) - min(ys), 1e-9)
        box_w, box_h = MAP_WIDTH - 2 * MARGIN, HEIGHT - TITLE_HEIGHT - 2 * MARGIN
        self.scale = min(box_w / span_x, box_h / span_y)
        self.ox = MARGIN + (box_w - span_x * self.scale) / 2 - min(xs) * self.scale
        self.oy = TITLE_HEIGHT + MARGIN + (box_h - span_y * self.scale) / 2 - min(ys) * self.scale

    def at(self, place_id: str) -> tuple[float, float]:
        if place_id not in self.places:
            raise MapError(f"the drawing names an unknown place {place_id!r}")
        p = self.places[place_id]
        return self.ox + p["x"] * self.scale, self.oy + p["y"] * self.scale

    # -- the picture --------------------------------------------------------------------------
    def paint(self) -> bytes:
        return png_bytes(self.picture())

    def picture(self) -> Image.Image:
        self._links()
        besieged = {s["at"] for s in self.d.get("sieges", [])}
        tags = self._tags()
        for p in self.places.values():
            if p["kind"] == "town":
                self._town(p, p["id"] in besieged)
        for p in self.places.values():
            if p["kind"] == "sea":
                self._sea_label(p)
            elif p["kind"] == "forest":
                self._forest(p)
        self._area_labels()
        pieces: dict[str, list] = {}
        for piece in self.d.get("pieces", []):
            self.at(piece["at"])
            pieces.setdefault(piece["at"], []).append(piece)
        for p in sorted(self.places.values(), key=lambda p: (p["kind"] != "town", p["y"])):
            self._label_block(p, tags.get(p["id"], []), pieces.get(p["id"], []))
        self.draw.rectangle((0, 0, MAP_WIDTH, TITLE_HEIGHT - 6), fill=PAPER)
        put_text(self.draw, (16, 10), self.d["title"], self.f_title, INK)
        self._sidebar()
        return self.img

    AREA_RADIUS = 34

    def _areas(self) -> None:
        """The tinted, outlined areas: the first layer, on blank paper. It depends only on the
        areas' places where they stand, the same for every view of a board: drawn once and kept
        (_area_layer), since its outline filter is most of a picture's cost and a report draws
        one picture per reader."""
        outline_areas = [a for a in self.d.get("areas", []) if a.get("style") == "outline"]
        shapes = tuple(tuple(self.at(t) for t in area["places"]) for area in outline_areas)
        self.img = _area_layer((WIDTH, HEIGHT), shapes, self.AREA_RADIUS).copy()
        self.draw = ImageDraw.Draw(self.img)

    def _area_labels(self) -> None:
        """Each outlined area's name at its top or bottom edge, where it covers least."""
        for area in (a for a in self.d.get("areas", []) if a.get("style") == "outline"):
            points = [self.at(t) for t in area["places"]]
            w = text_width(self.draw, area["label"], self.f_small)
            cx = sum(x for x, _ in points) / len(points)
            edges = (min(y for _, y in points) - self.AREA_RADIUS - 8,
                     max(y for _, y in points) + self.AREA_RADIUS - 8)
            boxes = [(x - w / 2, y, x + w / 2, y + 15) for y in edges
                     for x in (cx, min(px for px, _ in points) + w / 2, max(px for px, _ in points) - w / 2)]
            near = self._near(boxes)
            box = min(boxes, key=lambda b: self._overlap(b, near) + self._outside(b[0], b[1], w, 15))
            put_text(self.draw, box[:2], area["label"], self.f_small, AREA_INK, halo=2)
            self.taken.append(box)

    def _links(self) -> None:
        for link in self.d.get("links", []):
            (x1, y1), (x2, y2) = (self.at(p) for p in link["between"])
            if link["kind"] == "sea":
                _dashed(self.draw, (x1, y1), (x2, y2), SEA_INK, 2, 9)
            elif link["kind"] == "path":   # a path that is no road (e.g. through a forest)
                _dashed(self.draw, (x1, y1), (x2, y2), INK, 2, 4)
            else:
                self.draw.line(((x1, y1), (x2, y2)), fill=ROAD, width=3)

    def _tags(self) -> dict[str, list[str]]:
        tags: dict[str, list[str]] = {}
        for area in self.d.get("areas", []):
            if area.get("style") == "tag":
                for place in area["places"]:
                    tags.setdefault(place, []).append(area["tag"])
        return tags

    def _town(self, p: dict[str, Any], besieged: bool) -> None:
        x, y = self.at(p["id"])
        r = TOWN_R
        if besieged:   # a siege: a thick black ring with spikes
            for k in range(12):
                a = k * math.pi / 6
                self.draw.line(((x + (r + 4) * math.cos(a), y + (r + 4) * math.sin(a)),
                                (x + (r + 10) * math.cos(a), y + (r + 10) * math.sin(a))), fill=INK, width=3)
            self.draw.ellipse((x - r - 5, y - r - 5, x + r + 5, y + r + 5), outline=INK, width=3)
        if p.get("emphasis"):
            self.draw.ellipse((x - r - 3, y - r - 3, x + r + 3, y + r + 3), outline=INK, width=2)
        owner = p.get("controller")
        if owner in self.styles:
            self._family_mark(owner, x, y, r)
        else:
            self.draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=INK, width=2)
        self.taken.append((x - r - 6, y - r - 6, x + r + 6, y + r + 6))

    def _family_mark(self, family: str, x: float, y: float, r: float) -> None:
        st = self.styles[family]
        _shape(self.draw, st["shape"], x, y, r, st["colour"])
        self.draw.text((x, y + 1), st["letter"], font=self.f_small, anchor="mm",
                       fill=WHITE if st["colour"] in DARK else INK)

    def _sea_label(self, p: dict[str, Any]) -> None:
        x, y = self.at(p["id"])
        self.draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=SEA_INK)
        self.taken.append((x - 8, y - 8, x + 8, y + 8))

    def _forest(self, p: dict[str, Any]) -> None:
        """A place that is no town (a forest): a tree, three triangles outlined."""
        x, y = self.at(p["id"])
        for dx in (-7, 0, 7):
            self.draw.polygon(((x + dx, y - 9), (x + dx - 6, y + 6), (x + dx + 6, y + 6)),
                              fill=WHITE, outline=INK, width=2)
        self.taken.append((x - 15, y - 11, x + 15, y + 8))

    # -- labels: the name, markers and pieces of a place, where they overlap least ----------
    def _label_block(self, p: dict[str, Any], tags: list[str], pieces: list[dict[str, Any]]) -> None:
        x, y = self.at(p["id"])
        name_font = self.f_big if p.get("emphasis") else self.f_name
        lines: list[tuple[str, Any, str | None]] = []   # (text, font, family icon)
        name = p["label"] + (f" [{', '.join(tags)}]" if tags else "")
        lines.append((name, name_font, None))
        markers = _marker_text(p.get("markers", []), self.d.get("marker_kinds", []))
        if markers:
            lines.append((markers, self.f_small, None))
        for piece in pieces:
            lines.append((_piece_text(piece, self.d.get("piece_kinds", [])), self.f_text, piece["family"]))
        heights = [(f.size + 4) for _, f, _ in lines]
        widths = [text_width(self.draw, t, f) + (18 if fam else 0) for t, f, fam in lines]
        w, h = max(widths), sum(heights)
        gap = TOWN_R + 6
        options = [(x + gap, y - heights[0] / 2), (x - gap - w, y - heights[0] / 2),
                   (x - w / 2, y + gap), (x - w / 2, y - gap - h),
                   (x + gap, y - h + heights[0] / 2), (x - gap - w, y - h + heights[0] / 2)]
        near = self._near([(o[0], o[1], o[0] + w, o[1] + h) for o in options])
        # min keeps the first of equal options: the order above is the order of preference
        left, top = min(options, key=lambda o: self._overlap((o[0], o[1], o[0] + w, o[1] + h), near)
                        + self._outside(o[0], o[1], w, h))
        self.taken.append((left, top, left + w, top + h))
        self.labelled[p["id"]] = (left, top, left + w, top + h)
        colour = SEA_INK if p["kind"] == "sea" else INK
        name_y = top + heights[0] / 2     # a thin line ties the name to its place
        near_x = min(max(x, left), left + w)
        reach = math.dist((x, y), (near_x, name_y))
        if reach > TOWN_R + 8:
            edge = (TOWN_R + 3) / reach
            self.draw.line(((x + (near_x - x) * edge, y + (name_y - y) * edge), (near_x, name_y)),
                           fill=GREY, width=1)
        for (text, font, fam), lh in zip(lines, heights, strict=True):
            tx = left
            if fam:
                self._family_mark(fam, tx + 7, top + lh / 2, 7)
                tx += 18
            put_text(self.draw, (tx, top), text, font, colour, halo=3)
            top += lh

    def _near(self, boxes: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
        """The boxes already drawn on that reach into the box around all of ``boxes`` (one
        label's places to stand), in the order drawn. Any other shares nothing with any of
        ``boxes``, so _overlap sums the same over these alone, a few instead of about 150."""
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        return [t for t in self.taken if t[0] < right and t[2] > left and t[1] < bottom and t[3] > top]

    def _overlap(self, box, taken: list[tuple[float, float, float, float]]) -> float:
        """The area ``box`` shares with the boxes ``taken`` (_near: those drawn on that may
        touch it). Asked about 200 times a picture: written without calls, which were most of
        its cost."""
        left, top, right, bottom = box
        total = 0.0
        for t_left, t_top, t_right, t_bottom in taken:
            dx = (right if right <= t_right else t_right) - (left if left >= t_left else t_left)
            if dx > 0:
                dy = (bottom if bottom <= t_bottom else t_bottom) - (top if top >= t_top else t_top)
                if dy > 0:
                    total += dx * dy
        return total

    @staticmethod
    def _outside(left: float, top: float, w: float, h: float) -> float:
        over = max(0, -left) + max(0, left + w - MAP_WIDTH) + max(0, TITLE_HEIGHT - top) + max(0, top + h - HEIGHT)
        return over * 1000

    # -- the sidebar: legend, sieges, titles, notes ------------------------------------------
    def _sidebar(self) -> None:
        d, x0 = self.draw, MAP_WIDTH + 10
        d.rectangle((MAP_WIDTH, 0, WIDTH, HEIGHT), fill=WHITE)
        d.line(((MAP_WIDTH, 0), (MAP_WIDTH, HEIGHT)), fill=GREY, width=2)
        self.y = 12
        self._heading("Families")
        for fam in self.d["families"]:
            self._family_mark(fam["id"], x0 + 9, self.y + 9, 8)
            self._line(fam["label"], indent=24)
        words = {**LEGEND_WORDS, **self.d.get("legend", {})}
        self._heading(words["places"])
        d.ellipse((x0 + 2, self.y + 2, x0 + 16, self.y + 16), fill=WHITE, outline=INK, width=2)
        self._line("no controller; filled: its controller", indent=24)
        d.ellipse((x0, self.y, x0 + 18, self.y + 18), outline=INK, width=2)
        self._line(f"double ring: {words['emphasis']} (larger name)", indent=24)
        for area in self.d.get("areas", []):
            if area.get("style") == "tag":
                self._line(f"[{area['tag']}] {area['label']}")
        for m in self.d.get("marker_kinds", []):
            self._line(f"{m['letter']}  {m['label']}")
        d.line(((x0, self.y + 9), (x0 + 18, self.y + 9)), fill=ROAD, width=3)
        self._line(words["road"], indent=24)
        _dashed(d, (x0, self.y + 9), (x0 + 18, self.y + 9), SEA_INK, 2, 5)
        self._line(words["sea"], indent=24)
        if any(link["kind"] == "path" for link in self.d.get("links", [])):
            _dashed(d, (x0, self.y + 9), (x0 + 18, self.y + 9), INK, 2, 4)
            self._line(words["path"], indent=24)
        if any(p["kind"] == "forest" for p in self.places.values()):
            d.polygon(((x0 + 9, self.y + 1), (x0 + 3, self.y + 16), (x0 + 15, self.y + 16)),
                      fill=WHITE, outline=INK, width=2)
            self._line(words["forest"], indent=24)
        d.ellipse((x0 + 1, self.y + 1, x0 + 17, self.y + 17), outline=INK, width=3)
        self._line(f"black ring with spikes: {words['siege']}", indent=24)
        if any(a.get("style") == "outline" for a in self.d.get("areas", [])):
            self._line(f"grey outline: {words['outline']}")
        self._heading("Pieces")
        kinds = "  ".join(f"{k['letter']} {k['label']}" for k in self.d.get("piece_kinds", []))
        self._wrapped(f"L {words['lords']}; {kinds}; ?n {words['hidden']}; c {words['captives']}")
        if self.d.get("sieges"):
            self._heading("Sieges")
            self._wrapped("; ".join(f"{s['at']} by {', '.join(s['by'])}" for s in self.d["sieges"]))
        if self.d.get("titles"):
            self._heading("Titles")
            for t in self.d["titles"]:
                self._family_mark(t["family"], x0 + 9, self.y + 9, 7)
                self._wrapped(t["text"], indent=24)
        self._section("Notes", self.d.get("notes", []))

    def _heading(self, text: str) -> None:
        if self.y > HEIGHT - 60:
            return self._line(text)
        self.y += 6
        put_text(self.draw, (MAP_WIDTH + 10, self.y), text, self.f_big, INK)
        self.y += 22

    def _section(self, heading: str, lines: list[str]) -> None:
        if lines:
            self._heading(heading)
            for line in lines:
                self._wrapped(line)

    def _line(self, text: str, indent: int = 0) -> None:
        if self.y > HEIGHT - 40:      # the sidebar is full: say so once, never write off the picture
            if self.y < HEIGHT:
                put_text(self.draw, (MAP_WIDTH + 10, self.y), "(more in the text report)", self.f_small, GREY)
                self.y = HEIGHT
            return
        put_text(self.draw, (MAP_WIDTH + 10 + indent, self.y), text, self.f_small, INK)
        self.y += 19

    def _wrapped(self, text: str, indent: int = 0) -> None:
        width = WIDTH - MAP_WIDTH - 24 - indent
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if line and text_width(self.draw, trial, self.f_small) > width:
                self._line(line, indent)
                line, indent = word, max(indent, 12)
                width = WIDTH - MAP_WIDTH - 24 - indent
            else:
                line = trial
        if line:
            self._line(line, indent)


def _marker_text(markers: list[str], kinds: list[dict[str, Any]]) -> str:
    letters = {k["id"]: k["letter"] for k in kinds}
    return " ".join(letters.get(m, m) for m in markers)


def _piece_text(piece: dict[str, Any], kinds: list[dict[str, Any]]) -> str:
    letters = {k["id"]: k["letter"] for k in kinds}
    parts = [f"L{len(piece['lords'])}"] if piece["lords"] else []
    parts += [f"{letters.get(k, k)}{n}" for k, n in piece["units"].items()]
    parts += [f"?{piece['hidden']}"] if piece.get("hidden") else []
    parts += [f"c{len(piece['captives'])}"] if piece.get("captives") else []
    return " ".join(parts)
