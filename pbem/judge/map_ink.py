"""The ink of the map (pbem/judge/maps.py): its colours and its lettering, moved out of maps.py
unchanged.

Colours are the Okabe-Ito palette, readable by colour-blind players. The lettering is the font
Pillow ships (``ImageFont.load_default(size)``), so the picture is the same on every machine;
that font has no accented letters, so ``put_text`` writes the base letter and draws the
accent itself (acute, grave, circumflex, diaeresis, cedilla, tilde, ring, caron), so Liège and
Orléans read as such.
"""
from __future__ import annotations

import functools
import unicodedata
from typing import Any

from PIL import ImageDraw, ImageFont

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour
# vision deficiency. Black is kept for ink.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
DARK = {"#009E73", "#0072B2", "#D55E00"}     # white letters on these
SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "pentagon", "star")
AREA_TINTS = ("#ECECEC", "#E3E8EE", "#EEE7DD", "#E5EDE4")
INK, GREY, SEA_INK, PAPER = "#1A1A1A", "#8A8A8A", "#0072B2", "#FBFAF6"
WHITE, ROAD, AREA_INK = "#FFFFFF", "#6E6E6E", "#555555"     # the sidebar and towns; roads; areas' names


class MapError(Exception):
    """A description the judge cannot draw (a link or piece naming an unknown place)."""



@functools.lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's font at ``size``, loaded once: loading decodes the font from base64 each time,
    five fonts a picture (docs/performance.md, "Report pictures")."""
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

