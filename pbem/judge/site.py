"""The archive as a static site: `pbem site GAME DIR` and `pbem site --all DIR` (docs/site.md).

A game's site is an index (players, status, the current public map, the result), a timeline,
and one page per resolved phase with its public events and the public map after it. Plain
HTML files, the maps as PNG files beside them, every link relative: it works from ``file://``
and from any web server, and loads nothing from the network.

What a page shows is what every player may see: the events told to everyone and the map of
the game's public view (pbem.rules.api.public_view), never a state. The orders, the private
events (private diplomacy among them) and the seed appear only with ``reveal``, which is
refused while a game is not over.

The site is written into a new folder beside DIR and swapped in whole when it is complete:
a failure leaves the old site (or nothing), never half of one. DIR must be new, empty or a
site this command wrote (it holds SITE_MARK); anything else is refused.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from pbem.judge import engine
from pbem.judge.render import render_html
from pbem.rules.api import Event, MapUnavailable, NoMap, map_drawing, public_view
from pbem.judge.store import Store, unpack_state

SITE_MARK = ".pbem-site"      # a folder holding this file was written by `pbem site`
MAP_FOLDER = "maps"


class SiteError(Exception):
    """The site cannot be written; the message names the problem and the fix."""


@dataclass
class Written:
    """What a site holds: its games (with the count of phase pages each) and maps drawn."""

    games: list[tuple[str, int]] = field(default_factory=list)
    maps: int = 0
    revealed: list[str] = field(default_factory=list)


# -- the commands ----------------------------------------------------------------------------

def write_game_site(store: Store, game: engine.Game, folder: Path, reveal: bool = False) -> Written:
    """Write the site of ``game`` to ``folder`` (whole or not at all)."""
    if reveal and game.row["status"] != "over":
        raise SiteError(f"game {game.name!r} is {game.row['status']}: --reveal shows the orders, private "
                        f"messages and the seed only once a game is over; leave it out to publish what every "
                        f"player may see")
    written = Written()
    players = [p["name"] for p in engine.players(store, game.id)]
    _publish(folder, lambda tmp: _game_pages(store, game, players, tmp, reveal, written, home_link=None))
    return written


def write_all_site(store: Store, folder: Path, reveal: bool = False) -> Written:
    """Write an index of every game of the judge home and each game's site below it. With
    ``reveal``, the games that are over are revealed; the others show what every player may see."""
    rows = store.all("SELECT name FROM games ORDER BY name")
    if not rows:
        raise SiteError("this judge home has no games yet: there is nothing to publish")
    written = Written()

    def build(tmp: Path) -> None:
        games = []
        for row in rows:
            game = engine.load_game(store, row["name"])
            players = [p["name"] for p in engine.players(store, game.id)]
            sub = _folder_name(game)
            shown = reveal and game.row["status"] == "over"
            (tmp / sub).mkdir()
            _game_pages(store, game, players, tmp / sub, shown, written, home_link="../index.html")
            games.append({"name": game.name, "title": game.rules.title, "status": game.row["status"],
                          "phase": _phase_label(store, game), "href": f"{sub}/index.html", "revealed": shown,
                          "players": players})
        _page(tmp / "index.html", "site/games.html.j2", games=games, home_link=None, made=_when(time.time()))

    _publish(folder, build)
    return written


# -- one game --------------------------------------------------------------------------------

def _game_pages(store: Store, game: engine.Game, players: list[str], out: Path, reveal: bool, written: Written,
                home_link: str | None) -> None:
    rows = store.all("SELECT * FROM phases WHERE game_id=? ORDER BY seq", game.id)
    over = game.row["status"] == "over"
    maps = _Maps(game, players, out / MAP_FOLDER, written)
    resolved = [r for r in rows if r["resolved_at"] is not None]
    # The state after a phase is the one the next phase opened with; after the last, the game's own.
    after = {r["seq"]: json.loads(unpack_state(nxt["state_before"])) for r, nxt in zip(rows, rows[1:], strict=False)}
    pages = []
    for i, row in enumerate(resolved):
        events = engine.stored_events(store, game.id, row["seq"])
        state = after.get(row["seq"], game.state)
        pages.append({
            "seq": row["seq"], "id": row["phase_id"], "title": row["title"], "href": _page_name(row["seq"]),
            "opened": _when(row["opened_at"]), "resolved": _when(row["resolved_at"]),
            "events": _shown(events, reveal), "public_count": sum(1 for e in events if e.audience.kind == "all"),
            "defaulted": json.loads(row["defaulted"] or "[]"),
            "map": maps.of(state, f"after {row['title']} ({row['phase_id']})"),
            "orders": _revealed_orders(store, game, row) if reveal else None,
            "prev": _page_name(resolved[i - 1]["seq"]) if i else None,
            "next": _page_name(resolved[i + 1]["seq"]) if i + 1 < len(resolved) else None,
        })
    open_row = rows[-1] if rows and rows[-1]["resolved_at"] is None and not over else None
    current = None
    if open_row is not None:
        current = {"id": open_row["phase_id"], "title": open_row["title"], "opened": _when(open_row["opened_at"]),
                   "deadline": _when(game.row["deadline"]) if game.row["deadline"] else None,
                   "events": _shown(engine.stored_events(store, game.id, open_row["seq"]), False)}
    info = {"name": game.name, "title": game.rules.title, "type": game.row["game_type"],
            "status": game.row["status"], "players": players, "started": _when(game.row["created_at"]),
            "result": json.loads(game.row["result"]) if over else None,
            "seed": game.row["seed"] if reveal else None, "revealed": reveal}
    context = dict(game=info, home_link=home_link, made=_when(time.time()), phases=pages)
    _page(out / "index.html", "site/game.html.j2", current=current, now_map=maps.of(game.state, "now"),
          last=pages[-1] if pages else None, **context)
    _page(out / "timeline.html", "site/timeline.html.j2", **context)
    for page in pages:
        _page(out / page["href"], "site/phase.html.j2", page=page, **context)
    written.games.append((game.name, len(pages)))
    if reveal:
        written.revealed.append(game.name)


class _Maps:
    """The public map of each state, written once per different picture (maps/<hash>.png)."""

    def __init__(self, game: engine.Game, players: list[str], folder: Path, written: Written):
        self.game, self.players, self.folder, self.written = game, players, folder, written
        self.drawn: dict[str, str] = {}
        self.problem: str | None = None

    def of(self, state: Any, when: str) -> dict[str, Any] | None:
        """The map of ``state`` as every player may see it: its file and alt text, None for a
        game without a map."""
        from pbem.judge.maps import HEIGHT, WIDTH, MapError, draw_png   # Pillow only when a map is drawn
        if self.problem is not None:
            return None
        try:
            drawing = map_drawing(self.game.rules, public_view(self.game.rules, state, self.players))
            key = hashlib.sha256(json.dumps(drawing, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:20]
            if key not in self.drawn:
                self.folder.mkdir(exist_ok=True)
                (self.folder / f"{key}.png").write_bytes(draw_png(drawing))
                self.drawn[key] = f"{MAP_FOLDER}/{key}.png"
                self.written.maps += 1
        except NoMap as exc:   # a game whose rules declare no map: pages without one
            self.problem = str(exc)
            return None
        except (MapUnavailable, MapError) as exc:   # a map the game has but cannot draw: never dropped in silence
            raise SiteError(f"game {self.game.name!r}: the map {when} cannot be drawn: {exc}") from None
        return {"src": self.drawn[key], "width": WIDTH, "height": HEIGHT,
                "alt": f"The map of game {self.game.name} {when}, as every player sees it"}


def _shown(events: list[Event], reveal: bool) -> list[Event]:
    """The events a page shows: those told to everyone; with ``reveal`` all of them (the private
    ones name their audience, render's _event_head)."""
    return events if reveal else [e for e in events if e.audience.kind == "all"]


def _revealed_orders(store: Store, game: engine.Game, row: Any) -> list[dict[str, str]]:
    """Each decider's orders as the phase used them, then what was done at once, as YAML."""
    out = [{"who": player, "what": "orders", "yaml": _yaml(orders)}
           for player, orders in json.loads(row["orders_used"] or "{}").items()]
    out += [{"who": a["player"], "what": f"at once ({a['n']})", "yaml": _yaml(json.loads(a["canonical"]))}
            for a in engine.actions_of(store, game.id, row["seq"])]
    return out


def _yaml(value: Any) -> str:
    return yaml.safe_dump(value, allow_unicode=True, sort_keys=False, default_flow_style=False).rstrip("\n")


def _phase_label(store: Store, game: engine.Game) -> str:
    if game.row["status"] == "over":
        return "over"
    return engine.phase_row(store, game)["phase_id"]


def _page_name(seq: int) -> str:
    return f"phase-{seq:04d}.html"


def _folder_name(game: engine.Game) -> str:
    """A game's folder in an all-games site: its name (letters, digits, - and _, as `pbem game new`
    requires), or ``game-ID`` for a name from elsewhere."""
    return game.name if re.fullmatch(r"[A-Za-z0-9_-]+", game.name) else f"game-{game.id}"


def _when(epoch: float | None) -> str | None:
    return None if epoch is None else time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(epoch))


def _page(path: Path, template: str, **context: Any) -> None:
    path.write_text(render_html(template, **context), encoding="utf-8")


# -- writing the folder whole ----------------------------------------------------------------

def _publish(folder: Path, build: Callable[[Path], None]) -> None:
    """Build the site in a new folder beside ``folder``, then put it in place of ``folder``."""
    folder = folder.absolute()
    if folder.exists() and not folder.is_dir():
        raise SiteError(f"{folder} is a file; give a folder for the site")
    if not folder.parent.is_dir():
        raise SiteError(f"no folder {folder.parent}; create it first or choose another place for the site")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / SITE_MARK).exists():
        raise SiteError(f"{folder} is not empty and holds no site written by `pbem site`; choose a new or "
                        f"empty folder (the site replaces what the folder holds)")
    token = secrets.token_hex(4)
    tmp = folder.with_name(f".{folder.name}.new-{token}")
    old = folder.with_name(f".{folder.name}.old-{token}")
    moved = False    # the old site is set aside in `old`: put it back if the new one cannot take its place
    try:
        tmp.mkdir()
        build(tmp)
        (tmp / SITE_MARK).write_text("written by `pbem site` (docs/site.md); it replaces this folder whole\n",
                                     encoding="utf-8")
        if folder.exists():
            os.replace(folder, old)
            moved = True
        os.replace(tmp, folder)
        moved = False
    except OSError as exc:
        if moved:
            os.replace(old, folder)
        raise SiteError(f"cannot write the site to {folder} ({exc.strerror or exc}); choose a folder you may "
                        f"write to") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if not moved:
            shutil.rmtree(old, ignore_errors=True)
