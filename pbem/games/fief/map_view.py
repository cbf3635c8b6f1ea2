"""The Fief map as a drawing description (pbem.rules.api.DrawsMap; docs/maps.md).

Built from a player's *view* only (views.py, the allow-list), never from the state: what the
view hides stays hidden on the map. Under fog of war (I.2) another family's unit pawns are in
the view as {"hidden": n}, so they are drawn as n face-down pawns. Hands, piles, policies and
the pool are never read here, so they never reach the picture. The judge (pbem.judge.maps)
draws the description knowing nothing of Fief.

Town positions come from games/<variant>/geography.yaml (real geography: the printed board was
not available), checked against the board when loaded.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import yaml

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.edition_reader import WORDS
from pbem.paths import games_dir
from pbem.rules.api import JSON, MapUnavailable

GEOGRAPHY_FILE = "geography.yaml"

MARKERS = (   # what a town may carry (4.2, 4.4, 5.3.2, 6.4), in drawing order
    {"id": "stronghold", "letter": "S", "label": "stronghold (4.2)"},
    {"id": "city", "letter": "C", "label": "city: a fortified town (4.4)"},
    {"id": "mill", "letter": "m", "label": "mill, one mark each (4.3)"},
    {"id": "harbor", "letter": "H", "label": WORDS["map_harbor"]},   # the edition's `words:`
)

# The legend's words (pbem.rules.api.DrawsMap `legend`): the painter knows no game's words.
LEGEND = {"places": "Towns", "emphasis": "chief town", "road": "road", "sea": WORDS["map_sea"],
          "siege": "besieged", "outline": "fief borders", "lords": "lord", "hidden": "face down",
          "captives": "captive(s) held"}


@dataclass(frozen=True)
class Geography:
    source: str
    mid_lat: float
    towns: dict[str, tuple[float, float]]        # town -> (lon, lat)
    sea_labels: tuple[tuple[str, float, float], ...]

    def xy(self, lon: float, lat: float) -> tuple[float, float]:
        """Equirectangular projection; y grows downward, as on a picture."""
        return (round(lon * math.cos(math.radians(self.mid_lat)), 4), round(-lat, 4))


@lru_cache(maxsize=8)
def load_geography(variant: str, board_name: str = "board") -> Geography:
    """The positions of ``variant``'s towns, checked against the board ``board_name``."""
    path = games_dir() / variant / GEOGRAPHY_FILE
    if not path.exists():
        raise MapUnavailable(f"{variant} has no map: {path} is missing")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        towns = {str(t): (float(p["lon"]), float(p["lat"])) for t, p in data["towns"].items()}
        mid_lat = float(data["projection"]["mid_lat"])
        seas = tuple((str(p["label"]), float(p["lon"]), float(p["lat"]))
                     for p in data["offshore_labels"]["points"])
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise MapUnavailable(f"{path}: cannot read the town positions ({type(exc).__name__}: {exc}); "
                             "each town needs `lon:` and `lat:` numbers") from None
    check_geography(towns, load_board(variant, board_name), str(path))
    return Geography(str(path), mid_lat, towns, seas)


def check_geography(towns: dict[str, Any], board: Board, where: str) -> None:
    """Every town of the board has a position; no position names a town the board lacks."""
    missing = [t for t in board.towns if t not in towns]
    unknown = [t for t in towns if t not in board.towns]
    if missing:
        raise MapUnavailable(f"{where}: no position for {', '.join(missing)} (a town of {board.source}); "
                             "add its `lon:` and `lat:`")
    if unknown:
        raise MapUnavailable(f"{where}: {', '.join(unknown)} is not a town of {board.source}; "
                             "fix the spelling or remove it")


def map_drawing(view: JSON, variant: str, title: str) -> JSON:
    """The drawing description of ``view`` (one player's, or the game master's)."""
    board_name = view.get("options", {}).get("board", "board")
    board = load_board(variant, board_name)
    geo = load_geography(variant, board_name)
    words = load_edition(variant).words   # how the edition names the sea (`words:`)
    me = view.get("me")
    places = [_town_place(name, town, geo) for name, town in view["towns"].items()]
    sea_points = [geo.xy(lon, lat) for _, lon, lat in geo.sea_labels]
    sea = board.seas[0] if board.seas else "sea"   # 5.3 (France: the one off-shore area)
    places += [{"id": f"{sea}:{i}", "label": label, "kind": "sea", "x": x, "y": y,
                "emphasis": False, "markers": [], "controller": None}
               for i, ((label, _, _), (x, y)) in enumerate(zip(geo.sea_labels, sea_points, strict=True))]
    links = [{"between": sorted(r), "kind": "road"} for r in sorted(board.roads, key=sorted)]
    for harbor in board.harbors:     # 5.3.1: every harbor touches the one offshore area
        hx, hy = geo.xy(*geo.towns[harbor])
        nearest = min(range(len(sea_points)),
                      key=lambda i: (sea_points[i][0] - hx) ** 2 + (sea_points[i][1] - hy) ** 2)
        links.append({"between": [harbor, f"{sea}:{nearest}"], "kind": "sea"})
    pieces = [_pieces(name, fam, forces) for name, town in view["towns"].items()
              for fam, forces in town["forces"].items()]
    pieces += [_pieces(f"{sea}:0", fam, forces) for fam, forces in view["offshore"]["forces"].items()]
    # The title names no reader: readers whose views draw the same (no fog of war) get one
    # picture (the judge draws it once per report round); the mail and the CLI say whose it is.
    return {
        "title": f"{title}: round {view['round']}, {view['phase'].replace('_', ' ')}",
        "places": places,
        "links": links,
        "areas": [{"id": fid, "label": f["name"], "places": list(f["towns"]), "style": "outline"}
                  for fid, f in view["fiefs"].items()]
                 + [{"id": f"bishopric-{n}", "label": f"bishopric {n} ({b['name']})", "places": list(b["towns"]),
                     "style": "tag", "tag": str(n)} for n, b in view["bishoprics"].items()],
        "families": [{"id": p, "label": p + (" (eliminated)" if view["families"][p]["eliminated"] else "")}
                     for p in view["players"]],
        "pieces": [p for p in pieces if p["lords"] or p["units"] or p["hidden"] or p["captives"]],
        # A.1: the unit pawns as the map writes them (the edition record's `units:` letter and name)
        "piece_kinds": [{"id": k, "letter": u.letter, "label": u.name}
                        for k, u in load_edition(view["game"]).units.items()],
        "marker_kinds": [{**m, "label": words["map_harbor"]} if m["id"] == "harbor" else m for m in MARKERS],
        "legend": {**LEGEND, "sea": words["map_sea"]},   # the edition's `words:` (France's the defaults)
        "sieges": [{"at": name, "by": sorted(town["besiegers"])} for name, town in view["towns"].items()
                   if town["besieged"]],
        "titles": _titles(view, board),
        "notes": ["fog of war (I.2): other families' pawns lie face down, drawn as ?n"]
                 if load_edition(view["game"]).fog(view.get("options", {})) and me is not None else [],
    }


def _town_place(name: str, town: JSON, geo: Geography) -> JSON:
    x, y = geo.xy(*geo.towns[name])
    markers = [town["fortress"]] if town["fortress"] else []
    markers += ["mill"] * town["mills"]
    markers += ["harbor"] if town["harbor"] else []
    return {"id": name, "label": name, "kind": "town", "x": x, "y": y, "emphasis": bool(town["chief"]),
            "markers": markers, "controller": town["controller"]}


def _pieces(at: str, family: str, forces: JSON) -> JSON:
    units = dict(forces["units"])
    hidden = units.pop("hidden", 0)    # I.2: the view gives a count only
    return {"at": at, "family": family, "lords": list(forces["lords"]),
            "units": {k: n for k, n in units.items() if n}, "hidden": hidden,
            "captives": list(forces["captives"])}


def _titles(view: JSON, board: Board) -> list[JSON]:
    """Who holds which title (D): public, from the view's lords."""
    out = []
    for name, lord in sorted(view["lords"].items()):
        if not lord["family"] or not lord["titles"]:
            continue
        names = [board.fiefs[t].name if t in board.fiefs else _title_text(t, view) for t in lord["titles"]]
        out.append({"family": lord["family"], "text": f"{name}: {', '.join(names)}"})
    return out


def _title_text(title: str, view: JSON) -> str:
    if title.startswith("bishop "):
        number = title.split()[1]
        return f"Bishop of {view['bishoprics'].get(number, {}).get('name', number)}"
    return title.replace("_", " ").capitalize()
