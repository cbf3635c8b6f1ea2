"""Kard és Korona's map as a drawing description (pbem.rules.api.DrawsMap; docs/maps.md).

Built from a player's view only (game.py's allow-list), never from the state. County positions
come from games/kard_es_korona/geography.yaml (real geography: the printed board was not
available), checked against the board when loaded.
"""
from __future__ import annotations

import math
from functools import lru_cache

import yaml

from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.state import OFFICE_NAMES, is_neutral, side_name
from pbem.paths import games_dir
from pbem.rules.api import JSON, MapUnavailable

NEUTRAL = "neutral"
PIECE_KINDS = [{"id": "cavalry", "letter": "C", "label": "cavalry"},
               {"id": "infantry", "letter": "I", "label": "infantry"},
               {"id": "archers", "letter": "A", "label": "archers"}]
MARKER_KINDS = [{"id": "castle", "letter": "V", "label": "castle (vár): 7 units at most, 3 garas"},
                {"id": "mountain", "letter": "^", "label": "mountain: 2 movement points, defenders +1"},
                {"id": "marsh", "letter": "~", "label": "marsh: 2 movement points, defenders +1"}]
# The legend's words (the drawing's `legend`, which main's painter reads since the site's merge,
# 6a5be2c): the painter knows no game's words.
LEGEND = {"places": "Counties", "emphasis": "county with a castle", "road": "border between counties",
          "sea": "border across a great river (+1 MP)", "siege": "castle under siege", "outline": "province borders",
          "lords": "province lord", "hidden": "face down", "captives": "captive(s) held"}


@lru_cache(maxsize=4)
def positions(version: str) -> tuple[float, dict[str, tuple[float, float]]]:
    """The projection's middle latitude and every county's (lon, lat), checked against the board."""
    path = games_dir() / "kard_es_korona" / "geography.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        points = {str(n): (float(p[0]), float(p[1])) for n, p in data[version].items()}
        mid_lat = float(data["mid_lat"])
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise MapUnavailable(f"{path}: cannot read the county positions ({type(exc).__name__}: {exc}); "
                             f"each county of `{version}:` needs `[lon, lat]`") from None
    board = load_board(version)
    missing = sorted(set(board.counties) - set(points))
    unknown = sorted(set(points) - set(board.counties))
    if missing or unknown:
        raise MapUnavailable(f"{path}: the {version} positions do not fit the board: "
                             + (f"no position for {', '.join(missing)}" if missing else "")
                             + ("; " if missing and unknown else "")
                             + (f"{', '.join(unknown)} is no county of the board" if unknown else ""))
    return mid_lat, points


def _family(owner: str | None) -> str | None:
    return NEUTRAL if is_neutral(owner) else owner


def map_drawing(view: JSON) -> JSON:
    board = load_board(view["version"])
    mid_lat, points = positions(view["version"])
    scale = math.cos(math.radians(mid_lat))
    places = []
    for name, county in board.counties.items():
        lon, lat = points[name]
        markers = (["castle"] if county.castle else []) + ([county.terrain] if county.obstacle else [])
        places.append({"id": name, "label": name, "kind": "town", "x": round(lon * scale, 4), "y": round(-lat, 4),
                       "emphasis": bool(county.castle), "markers": markers,
                       "controller": None if name in view["closed"] else _family(view["owner"].get(name))})
    links = [{"between": [a, b], "kind": "sea" if river else "road"}
             for a, ns in board.borders.items() for b, river in ns.items() if a < b]
    lords = {county: player for player, county in view["lords"].items() if county}
    pieces = [{"at": county, "family": _family(army["owner"]), "lords": [lords[county]] if lords.get(county) ==
               army["owner"] else [], "units": {k: n for k, n in army["units"].items() if n}, "hidden": 0,
               "captives": []} for county, army in view["armies"].items()]
    pieces += [{"at": b["county"], "family": b["attacker"], "lords": [b["attacker"]] if b["lord"] else [],
                "units": {k: n for k, n in b["units"].items() if n}, "hidden": 0, "captives": []}
               for b in view["battles"]]
    families = [{"id": p, "label": p + f" ({board.province(view['home'][p]).name})"
                 + (" (out)" if p in view["eliminated"] else "")} for p in view["players"]]
    families.append({"id": NEUTRAL, "label": "royal and neutral units"})
    notes = []
    if view.get("event_name"):
        notes.append(f"event card of {view['year']}: {view['event_name']}")
    notes += [f"battle due in {b['county']}: {b['attacker']} attacks {side_name(b['defender'])}"
              for b in view["battles"] if not board.counties[b["county"]].castle]
    notes += [f"{p}'s lord is captive until {y}" for p, y in view["captive"].items()]
    return {
        "title": f"Kard és Korona ({view['version']}): {view['year']}, {view['step'].replace('-', ' ')}",
        "places": places,
        "links": links,
        "legend": dict(LEGEND),
        "areas": [{"id": p.id, "label": p.name, "places": board.in_province(p.id), "style": "outline"}
                  for p in board.provinces],
        "families": families,
        "pieces": pieces,
        "piece_kinds": PIECE_KINDS,
        "marker_kinds": MARKER_KINDS,
        "sieges": [{"at": b["county"], "by": [b["attacker"]]} for b in view["battles"]
                   if board.counties[b["county"]].castle],
        "titles": [{"family": holder, "text": OFFICE_NAMES[office]} for office, holder in view["offices"].items()
                   if holder],
        "notes": notes,
    }
