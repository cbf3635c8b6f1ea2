"""What a report's picture costs, step by step (issue 13; docs/performance.md, "Report pictures").

    python3 bench/picture.py                  # the demo game's pictures, 30 of each
    python3 bench/picture.py --runs 100

Plays `pbem demo` in a temporary judge home, then draws the map of the demo game as each
player and the game master see it, again and again, and prints for each view the median CPU
time of the drawing (pbem/judge/maps.py), of mapping it to the palette and of writing the PNG
(pbem/judge/map_png.py), the whole `draw_png`, and the PNG's size; then the first picture of a
fresh process (the areas layer and the fonts are made once a process). CPU time, not wall
time: the machine is shared. It asserts nothing; `tests/test_bench.py` runs it once, briefly.
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def demo_drawings(folder: Path) -> dict[str, dict]:
    """The drawing of each view of the demo game after the demo has played it."""
    from pbem.demo import run_demo
    from pbem.judge.engine import load_game
    from pbem.judge.home import load_home
    from pbem.judge.store import Store
    from pbem.rules.api import map_drawing

    for _ in run_demo(folder / "home"):
        pass
    store = Store(load_home(folder / "home").db_path)
    try:
        game = load_game(store, "demo")
        players = [r["name"] for r in store.all("SELECT name FROM players WHERE game_id=? ORDER BY seat",
                                                game.id)]
        return {who or "game master": map_drawing(game.rules, game.rules.view(game.state, who))
                for who in (*players, None)}
    finally:
        store.close()


def measure(drawing: dict, runs: int) -> dict[str, float]:
    from pbem.judge.map_png import encoded, indexed
    from pbem.judge.maps import Painter, draw_png

    def cpu(step: Callable[[], Any]) -> tuple[Any, float]:
        started = time.process_time()
        out = step()
        return out, (time.process_time() - started) * 1000

    times: dict[str, list[float]] = {"draw": [], "palette": [], "png": [], "draw_png": []}
    png = draw_png(drawing)       # the areas layer, fonts and glyphs this board needs, made once
    for _ in range(runs):
        img, t = cpu(Painter(drawing).picture)
        times["draw"].append(t)
        small, t = cpu(functools.partial(indexed, img))
        times["palette"].append(t)
        _, t = cpu(functools.partial(encoded, small))
        times["png"].append(t)
        png, t = cpu(lambda: draw_png(drawing))
        times["draw_png"].append(t)
    return {**{k: statistics.median(v) for k, v in times.items()}, "bytes": len(png)}


FIRST = """
import json, sys, time
from pbem.judge.maps import draw_png
drawing = json.load(sys.stdin)
started = time.process_time()
draw_png(drawing)
print((time.process_time() - started) * 1000)
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, metavar="K", help="pictures of each view (default 30)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    with tempfile.TemporaryDirectory(prefix="pbem-picture-") as tmp:
        drawings = demo_drawings(Path(tmp))
    print(f"{'view':>12} {'draw ms':>8} {'palette':>8} {'png ms':>7} {'total':>7} {'bytes':>7}")
    for who, drawing in drawings.items():
        m = measure(drawing, args.runs)
        print(f"{who:>12} {m['draw']:8.2f} {m['palette']:8.2f} {m['png']:7.2f} {m['draw_png']:7.2f} {m['bytes']:7d}")
    first = subprocess.run([sys.executable, "-c", FIRST], input=json.dumps(next(iter(drawings.values()))),
                           capture_output=True, text=True, check=True, cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    print(f"the first picture of a fresh process: {float(first.stdout):.0f} ms CPU")


if __name__ == "__main__":
    main()
