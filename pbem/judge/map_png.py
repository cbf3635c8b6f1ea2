"""The map's PNG (pbem/judge/maps.py): the painter's RGB picture written with one fixed palette.

Everything on the map but text is drawn without anti-aliasing (Pillow's lines, shapes and the
areas' masks), so every pixel is one of the painter's own colours (INKS) or, at the edge of a
letter, a blend of a text's colour with what lies under it. The painter draws text in few
colours on few grounds (BLENDS), so the palette holds each of the painter's colours exactly and
steps along each of those blends: the same palette for every picture of every game, computed
once at import, from no view. It replaced an octree of each picture's own shades, which cost
more than the mapping itself (docs/performance.md, "Report pictures"), and it is nearer the
drawn picture: no pixel more than 10 units off in any channel on the Fief boards of the tests
(a test bounds it), where the octree's palette left some pixels up to 38 off. Where a letter's
edge falls on two grounds at once (a letter across a mark's outline) the blend is of three
colours and may be further off: a few pixels of a picture, each its nearest colour still.
"""
from __future__ import annotations

import io

from PIL import Image, ImageColor

from pbem.judge.map_ink import (AREA_INK, AREA_TINTS, DARK, GREY, INK, PALETTE, PAPER, ROAD, SEA_INK,
                                WHITE)

INKS = (*PALETTE, *AREA_TINTS, INK, GREY, SEA_INK, PAPER, WHITE, ROAD, AREA_INK)
# (text colour, ground): names and notes in ink on paper (the halo under a map label is paper)
# and on the sidebar's white; a family's letter in ink on its light colours, in white on its
# dark ones; an area's name, a sea's name, the sidebar's grey; and the rim of a label's paper
# halo on whatever it covers (areas, roads, links, marks).
BLENDS = ((INK, PAPER), (INK, WHITE),
          *((INK, c) for c in PALETTE if c not in DARK), *((WHITE, c) for c in PALETTE if c in DARK),
          (AREA_INK, PAPER), (GREY, WHITE), (SEA_INK, PAPER),
          *((PAPER, c) for c in (*AREA_TINTS, ROAD, GREY, SEA_INK, *PALETTE)))
STEP = 12        # a blend gets a shade every STEP units of its longest channel
SHADE_GAP = 8    # a shade differs from each painter's colour by this much in some channel, at least
SHADE_APART = 4  # ... and from every shade kept before it by this much


RGB = tuple[int, ...]


def _far(rgb: RGB, others: list[RGB], gap: int) -> bool:
    return all(max(abs(a - b) for a, b in zip(rgb, other, strict=True)) >= gap for other in others)


def _palette() -> list[RGB]:
    """INKS, then the shades of BLENDS. Pillow maps a colour to a palette through a cache of
    4-wide cells, by the entry nearest the cell's corner: a shade a few units from a painter's
    colour would take that colour's pixels (the paper drawn as #F9F8F5, not #FBFAF6), so shades
    that near one are left out, and every pixel of a painter's colour keeps it exactly."""
    exact: list[RGB] = [ImageColor.getrgb(c) for c in dict.fromkeys(INKS)]
    shades: list[RGB] = []
    for fg, bg in BLENDS:
        f, b = ImageColor.getrgb(fg), ImageColor.getrgb(bg)
        steps = max(1, round(max(abs(x - y) for x, y in zip(f, b, strict=True)) / STEP))
        for k in range(1, steps):
            shade = tuple(round(y + (x - y) * k / steps) for x, y in zip(f, b, strict=True))
            if _far(shade, exact, SHADE_GAP) and _far(shade, shades, SHADE_APART):
                shades.append(shade)
    colours = exact + shades
    assert len(colours) <= 256, len(colours)      # a PNG palette's limit
    return colours


COLOURS = _palette()
_PALETTE_IMAGE = Image.new("P", (1, 1))
_PALETTE_IMAGE.putpalette([v for rgb in COLOURS for v in rgb])


def indexed(img: Image.Image) -> Image.Image:
    """``img`` (RGB) as a palette image over COLOURS, each pixel its nearest entry."""
    return img.quantize(palette=_PALETTE_IMAGE, dither=Image.Dither.NONE)


def png_bytes(img: Image.Image) -> bytes:
    """The PNG of ``img`` (RGB), over the fixed palette."""
    return encoded(indexed(img))


def encoded(small: Image.Image) -> bytes:
    """The PNG of ``small`` (a palette image)."""
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=ZLIB_LEVEL)
    return out.getvalue()


# zlib level 5, not its default 6: 6.8 ms instead of 9.2 for a file 3% larger. Level 3 takes
# 4.2 ms for a file 18% larger, and a report carries its picture in each reader's mail, stored,
# then written and flushed to disk: at 1,000 games the larger mails cost more than the level
# saved (docs/performance.md, "Report pictures").
ZLIB_LEVEL = 5
