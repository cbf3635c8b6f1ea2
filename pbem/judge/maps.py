"""Draw a game's map as a PNG from its drawing description (pbem.rules.api.DrawsMap).

Knows no game: it draws places, links, areas, pieces, sieges and titles as the description
gives them (docs/maps.md tells a player how to read the picture). Drawn with Pillow (a
maintained library with wheels that bring their own zlib, libpng and FreeType) and the font
Pillow ships (``ImageFont.load_default(size)``), so the picture is the same on every machine.

Pillow's font has no accented letters: ``put_text`` writes the base letter and draws the
accent itself (acute, grave, circumflex, diaeresis, cedilla, tilde, ring, caron), so Liège and
Orléans read as such.

Colours are the Okabe-Ito palette, readable by colour-blind players; every family also has a
shape and a letter, so nothing is told by colour alone. The PNG is palette-quantized to stay
small enough for mail (BYTE_BUDGET).
"""
from __future__ import annotations

import functools
import io
import math
import unicodedata
from typing import Any

from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFilter, ImageFont

WIDTH, HEIGHT = 1400, 1000
MAP_WIDTH = 980            # the sidebar (legend, titles, sieges) takes the rest
BYTE_BUDGET = 150_000      # a PNG of the Fief board stays under this (tests/test_maps.py)
TITLE_HEIGHT = 40
MARGIN = 70
TOWN_R = 11

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour
# vision deficiency. Black is kept for ink.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
DARK = {"#009E73", "#0072B2", "#D55E00"}     # white letters on these
SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "pentagon", "star")
AREA_TINTS = ("#ECECEC", "#E3E8EE", "#EEE7DD", "#E5EDE4")
INK, GREY, SEA_INK, PAPER = "#1A1A1A", "#8A8A8A", "#0072B2", "#FBFAF6"


class MapError(Exception):
    """A description the judge cannot draw (a link or piece naming an unknown place)."""


def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)    # Pillow's own font: no system font
    if not isinstance(font, ImageFont.FreeTypeFont):   # a Pillow built without FreeType: a bitmap font
        raise MapError("this Pillow has no FreeType support, which the map's lettering needs: install "
                       "Pillow from PyPI (its wheels include FreeType) or build it with libfreetype")
    font.__class__ = _MaskCachingFont
    return font


class _MaskCachingFont(ImageFont.FreeTypeFont):
    """Pillow's font, keeping the glyph masks it renders and the widths it measures (_MASKS). A mask depends only on the
    text, the font and how it is asked for (stroke, anchor, the fraction of a pixel it starts
    at): nothing of the picture it is drawn on. Every report draws about 150 labels a picture,
    most the same from one picture of a board to the next, and rendering them was most of
    the drawing's cost (docs/performance.md, "Report pictures")."""

    def getmask2(self, *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        return self._kept((), super().getmask2, args, kwargs)

    def getlength(self, *args: Any, **kwargs: Any) -> float:
        return self._kept(("length",), super().getlength, args, kwargs)

    def _kept(self, what: tuple, make: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
        """``make(*args, **kwargs)``, kept in _MASKS by this font and the arguments."""
        key = (*what, self.getname(), self.size, self.index, self.layout_engine, args, tuple(sorted(kwargs.items())))
        hit = _MASKS.get(key)
        if hit is None:
            hit = make(*args, **kwargs)
            if len(_MASKS) >= MASK_CACHE:
                _MASKS.pop(next(iter(_MASKS)))     # the oldest: a board's labels stay in use
            _MASKS[key] = hit
        return hit


MASK_CACHE = 8192           # masks and widths kept (a few MB): several boards' labels at every offset
_MASKS: dict[tuple, Any] = {}


@functools.lru_cache(maxsize=4096)
def _split(text: str) -> tuple[str, tuple[tuple[int, str], ...]]:
    """``text`` as base letters, and the accents to draw over (or under) them by index. Kept:
    a picture splits about 150 labels, most the same as the last picture's."""
    base: list[str] = []
    marks: list[tuple[int, str]] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if base:
                marks.append((len(base) - 1, ch))
        else:
            base.append(ch)
    return "".join(base), tuple(marks)


def text_width(draw: ImageDraw.ImageDraw, text: str, font) -> float:
    return draw.textlength(_split(text)[0], font=font)


def put_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font, fill: str,
             halo: int = 0, halo_fill: str = PAPER) -> None:
    """Write ``text`` at ``xy`` (top left), drawing its accents; ``halo`` a paper-coloured rim."""
    base, marks = _split(text)
    draw.text(xy, base, font=font, fill=fill, stroke_width=halo, stroke_fill=halo_fill)
    s = font.size
    lw = max(1, round(s / 13))
    for i, mark in marks:
        left, top, right, bottom = font.getbbox(base[i])
        x0 = xy[0] + draw.textlength(base[:i], font=font)
        cx, top, bottom = x0 + (left + right) / 2, xy[1] + top, xy[1] + bottom
        hi, lo = top - 0.32 * s, top - 0.08 * s      # the band above the letter
        if mark == "\u0301":      # acute
            draw.line(((cx - 0.08 * s, lo), (cx + 0.12 * s, hi)), fill=fill, width=lw + 1)
        elif mark == "\u0300":    # grave
            draw.line(((cx + 0.08 * s, lo), (cx - 0.12 * s, hi)), fill=fill, width=lw + 1)
        elif mark in ("\u0302", "\u030c"):   # circumflex, caron
            tip, foot = (hi, lo) if mark == "\u0302" else (lo, hi)
            draw.line(((cx - 0.16 * s, foot), (cx, tip), (cx + 0.16 * s, foot)), fill=fill, width=lw)
        elif mark == "\u0308":    # diaeresis
            for dx in (-0.12 * s, 0.12 * s):
                r = 0.06 * s + 0.3
                draw.ellipse((cx + dx - r, (hi + lo) / 2 - r, cx + dx + r, (hi + lo) / 2 + r), fill=fill)
        elif mark == "\u0303":    # tilde
            draw.line(((cx - 0.18 * s, lo), (cx - 0.06 * s, hi), (cx + 0.06 * s, lo), (cx + 0.18 * s, hi)),
                      fill=fill, width=lw)
        elif mark == "\u030a":    # ring
            r = 0.1 * s
            draw.ellipse((cx - r, (hi + lo) / 2 - r, cx + r, (hi + lo) / 2 + r), outline=fill, width=lw)
        elif mark == "\u0327":    # cedilla
            draw.line(((cx, bottom), (cx + 0.08 * s, bottom + 0.14 * s), (cx - 0.06 * s, bottom + 0.24 * s)),
                      fill=fill, width=lw)


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
        self.picture()
        out = io.BytesIO()
        # zlib level 5, not its default 6: a third less time for files 2-3% larger (docs/performance.md)
        _palette_of(self.img).save(out, format="PNG", compress_level=5)
        return out.getvalue()

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
            box = min(boxes, key=lambda b: self._overlap(b) + self._outside(b[0], b[1], w, 15))
            put_text(self.draw, box[:2], area["label"], self.f_small, "#555555", halo=2)
            self.taken.append(box)

    def _links(self) -> None:
        for link in self.d.get("links", []):
            (x1, y1), (x2, y2) = (self.at(p) for p in link["between"])
            if link["kind"] == "sea":
                _dashed(self.draw, (x1, y1), (x2, y2), SEA_INK, 2, 9)
            else:
                self.draw.line(((x1, y1), (x2, y2)), fill="#6E6E6E", width=3)

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
            self.draw.ellipse((x - r, y - r, x + r, y + r), fill="white", outline=INK, width=2)
        self.taken.append((x - r - 6, y - r - 6, x + r + 6, y + r + 6))

    def _family_mark(self, family: str, x: float, y: float, r: float) -> None:
        st = self.styles[family]
        _shape(self.draw, st["shape"], x, y, r, st["colour"])
        self.draw.text((x, y + 1), st["letter"], font=self.f_small, anchor="mm",
                       fill="white" if st["colour"] in DARK else INK)

    def _sea_label(self, p: dict[str, Any]) -> None:
        x, y = self.at(p["id"])
        self.draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=SEA_INK)
        self.taken.append((x - 8, y - 8, x + 8, y + 8))

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
        left, top = min(options, key=lambda o: (self._overlap((o[0], o[1], o[0] + w, o[1] + h))
                                                + self._outside(o[0], o[1], w, h), options.index(o)))
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

    def _overlap(self, box) -> float:
        """The area ``box`` shares with the boxes already drawn on. Asked about 200 times a
        picture of each of about 150 boxes: written without calls, which were most of its cost."""
        left, top, right, bottom = box
        total = 0.0
        for t_left, t_top, t_right, t_bottom in self.taken:
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
        d.rectangle((MAP_WIDTH, 0, WIDTH, HEIGHT), fill="white")
        d.line(((MAP_WIDTH, 0), (MAP_WIDTH, HEIGHT)), fill=GREY, width=2)
        self.y = 12
        self._heading("Families")
        for fam in self.d["families"]:
            self._family_mark(fam["id"], x0 + 9, self.y + 9, 8)
            self._line(fam["label"], indent=24)
        self._heading("Towns")
        d.ellipse((x0 + 2, self.y + 2, x0 + 16, self.y + 16), fill="white", outline=INK, width=2)
        self._line("no controller; filled: its controller", indent=24)
        d.ellipse((x0, self.y, x0 + 18, self.y + 18), outline=INK, width=2)
        self._line("double ring: chief town (larger name)", indent=24)
        for area in self.d.get("areas", []):
            if area.get("style") == "tag":
                self._line(f"[{area['tag']}] {area['label']}")
        for m in self.d.get("marker_kinds", []):
            self._line(f"{m['letter']}  {m['label']}")
        d.line(((x0, self.y + 9), (x0 + 18, self.y + 9)), fill="#6E6E6E", width=3)
        self._line("road", indent=24)
        _dashed(d, (x0, self.y + 9), (x0 + 18, self.y + 9), SEA_INK, 2, 5)
        self._line("by sea (harbor to offshore)", indent=24)
        d.ellipse((x0 + 1, self.y + 1, x0 + 17, self.y + 17), outline=INK, width=3)
        self._line("black ring with spikes: besieged", indent=24)
        self._line("grey outline: " + ", ".join(sorted({"fief" if a['style'] == 'outline' else ''
                                                        for a in self.d.get('areas', [])} - {''})) + " borders")
        self._heading("Pieces")
        kinds = "  ".join(f"{k['letter']} {k['label']}" for k in self.d.get("piece_kinds", []))
        self._wrapped("L lord; " + kinds + "; ?n face down; c captive(s) held")
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


@functools.lru_cache(maxsize=8)
def _area_layer(size: tuple[int, int], shapes: tuple[tuple[tuple[float, float], ...], ...],
                radius: int) -> Image.Image:
    """Blank paper with each area of ``shapes`` (the positions of its places) tinted around the
    hull of its places and outlined in grey. Callers copy it before drawing on it."""
    img = Image.new("RGB", size, PAPER)
    for i, points in enumerate(shapes):
        mask = Image.new("L", size, 0)
        md = ImageDraw.Draw(mask)
        hull = _hull(list(points))
        if len(hull) > 2:
            md.polygon(hull, fill=255)
        for a, b in zip(hull, hull[1:] + hull[:1], strict=True):
            md.line((a, b), fill=255, width=2 * radius)
        for x, y in hull:
            md.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255)
        edge = ImageChops.subtract(mask.filter(ImageFilter.MaxFilter(5)), mask)
        img.paste(AREA_TINTS[i % len(AREA_TINTS)], mask=mask)
        img.paste(GREY, mask=edge)
    return img


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


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Convex hull (monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    upper: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _dashed(draw: ImageDraw.ImageDraw, a, b, fill: str, width: int, dash: float) -> None:
    length = math.dist(a, b)
    steps = max(1, int(length // dash))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        draw.line(((a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                   (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)), fill=fill, width=width)


def _shape(draw: ImageDraw.ImageDraw, shape: str, x: float, y: float, r: float, fill: str) -> None:
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=2)
    elif shape == "square":
        draw.rectangle((x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9), fill=fill, outline=INK, width=2)
    elif shape == "star":
        pts = [(x + (r if k % 2 == 0 else r * 0.5) * math.sin(k * math.pi / 5),
                y - (r if k % 2 == 0 else r * 0.5) * math.cos(k * math.pi / 5)) for k in range(10)]
        draw.polygon(pts, fill=fill, outline=INK, width=2)
    else:
        sides, turn = {"triangle": (3, 0), "diamond": (4, 0), "hexagon": (6, math.pi / 6),
                       "pentagon": (5, 0)}[shape]
        rr = r * (1.25 if shape == "triangle" else 1.1)
        pts = [(x + rr * math.sin(turn + 2 * math.pi * k / sides),
                y - rr * math.cos(turn + 2 * math.pi * k / sides) + (r * 0.25 if shape == "triangle" else 0))
               for k in range(sides)]
        draw.polygon(pts, fill=fill, outline=INK, width=2)


def _palette_of(img: Image.Image) -> Image.Image:
    """``img`` with a palette of at most 96 colours: every colour the painter draws with, then
    the anti-aliasing shades a fast octree finds on a half-size copy (a quarter of a median
    cut's cost, docs/performance.md). Pillow maps a colour to the palette through a cache of
    4-wide cells, by the nearest entry to the cell's corner: a shade within a few units of a
    painter's colour took its pixels (the paper drawn as #F9F8F5, not #FBFAF6). So shades that
    near a painter's colour are left out, and each of its pixels keeps its colour exactly."""
    known = [ImageColor.getrgb(c) for c in (*PALETTE, *AREA_TINTS, INK, GREY, SEA_INK, PAPER, "#FFFFFF")]
    half = img.resize((img.width // 2, img.height // 2), Image.Resampling.NEAREST)
    shades = half.quantize(colors=96 - len(known), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    found = (shades.getpalette() or [])[: 3 * (96 - len(known))]
    kept = [rgb for rgb in (tuple(found[i:i + 3]) for i in range(0, len(found) - 2, 3))
            if all(max(abs(a - b) for a, b in zip(rgb, k, strict=True)) >= SHADE_GAP for k in known)]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for rgb in (*known, *kept) for v in rgb])
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


SHADE_GAP = 8    # a shade differs from each painter's colour by this much in some channel, at least
