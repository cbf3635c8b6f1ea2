"""The shapes of the map (pbem/judge/maps.py): the tinted areas, hulls, dashed lines and family
marks, moved out of maps.py unchanged."""
from __future__ import annotations

import functools
import math

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from pbem.judge.map_ink import AREA_TINTS, GREY, INK, PAPER


@functools.lru_cache(maxsize=8)
def _area_layer(size: tuple[int, int], shapes: tuple[tuple[tuple[float, float], ...], ...],
                radius: int) -> Image.Image:
    """Blank paper with each area of ``shapes`` (the positions of its places) tinted around the
    hull of its places and outlined in grey. Callers copy it before drawing on it."""
    img = Image.new("RGB", size, PAPER)
    for i, points in enumerate(shapes):
        hull = _hull(list(points))
        # The area's mask and outline are drawn on its own box (its hull, the radius, and room
        # for the outline), not on the whole picture: the outline filter was 90% of the layer's
        # cost, and the layer is the first picture's of every process (the same pixels).
        left, top = (math.floor(min(p[k] for p in hull)) - radius - 4 for k in (0, 1))
        right, bottom = (math.ceil(max(p[k] for p in hull)) + radius + 4 for k in (0, 1))
        mask = Image.new("L", (right - left, bottom - top), 0)
        md = ImageDraw.Draw(mask)
        box = [(x - left, y - top) for x, y in hull]
        if len(box) > 2:
            md.polygon(box, fill=255)
        for a, b in zip(box, box[1:] + box[:1], strict=True):
            md.line((a, b), fill=255, width=2 * radius)
        for x, y in box:
            md.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255)
        edge = ImageChops.subtract(mask.filter(ImageFilter.MaxFilter(5)), mask)
        img.paste(AREA_TINTS[i % len(AREA_TINTS)], (left, top), mask=mask)
        img.paste(GREY, (left, top), mask=edge)
    return img



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

