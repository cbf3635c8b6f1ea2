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
from dataclasses import dataclass, field
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
    sea_labels: tuple[tuple[str, str, float, float], ...]   # (sea, label, lon, lat)
    nodes: dict[str, tuple[float, float]] = field(default_factory=dict)   # other places (E 13.4: Sherwood)
    legend: dict[str, str] = field(default_factory=dict)   # the map's own words over LEGEND
    district: str = "bishopric {n} ({name})"
    fog_note: str = "fog of war (I.2): other families' pawns lie face down, drawn as ?n"
    card_names: dict[str, str] = field(default_factory=dict)   # a card lying on a sea, as the map writes it

    def xy(self, lon: float, lat: float) -> tuple[float, float]:
        """Equirectangular projection; y grows downward, as on a picture."""
        return (round(lon * math.cos(math.radians(self.mid_lat)), 4), round(-lat, 4))


@lru_cache(maxsize=8)
def load_geography(variant: str, board_name: str = "board") -> Geography:
    """The positions of ``variant``'s towns, seas and other places, checked against the board
    ``board_name``; MapUnavailable names the file, what is wrong and the fix."""
    path = games_dir() / variant / GEOGRAPHY_FILE
    if not path.exists():
        raise MapUnavailable(f"{variant} has no map: {path} is missing")
    board = load_board(variant, board_name)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise MapUnavailable(f"{path}: cannot be read ({type(exc).__name__}: {exc}); fix the YAML") from None
    if not isinstance(data, dict):
        raise MapUnavailable(f"{path}: is not a mapping; write `towns:`, `projection:` and the seas")
    towns = _points(data, "towns", path, "each town needs `lon:` and `lat:` numbers")
    nodes = _points(data, "other_nodes", path, "each place needs `lon:` and `lat:` numbers") \
        if "other_nodes" in data else {}
    try:
        mid_lat = float(data["projection"]["mid_lat"])
    except (KeyError, TypeError, ValueError) as exc:
        raise MapUnavailable(f"{path}: no `projection: {{mid_lat: ...}}` ({type(exc).__name__}: {exc}); "
                             "write the latitude the map is drawn at, e.g. `projection: {mid_lat: 47.0}`") from None
    check_geography(towns, board, str(path))
    _check_nodes(nodes, board, str(path))
    words = data.get("legend") or {}
    if not isinstance(words, dict):
        raise MapUnavailable(f"{path}: `legend:` maps the map's words by key; write e.g. `legend: {{places: Cities}}`")
    return Geography(str(path), mid_lat, towns, _sea_labels(data, board, path), nodes,
                     {str(k): str(v) for k, v in words.items()},
                     str(data.get("district", Geography.district)), str(data.get("fog_note", Geography.fog_note)),
                     _names(data, path))


def _names(data: dict[str, Any], path: Any) -> dict[str, str]:
    names = data.get("card_names") or {}
    if not isinstance(names, dict):
        raise MapUnavailable(f"{path}: `card_names:` maps a card's id to its name on the map; "
                             "write e.g. `card_names: {invaders: INVASION}`")
    return {str(k): str(v) for k, v in names.items()}


def _points(data: dict[str, Any], key: str, path: Any, fix: str) -> dict[str, tuple[float, float]]:
    try:
        return {str(t): (float(p["lon"]), float(p["lat"])) for t, p in data[key].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise MapUnavailable(f"{path}: cannot read `{key}:` ({type(exc).__name__}: {exc}); {fix}") from None


def _sea_labels(data: dict[str, Any], board: Board, path: Any) -> tuple[tuple[str, str, float, float], ...]:
    """Where the map writes the seas: `offshore_labels:` for a board of one sea written at
    several points (France's offshore area, 5.3.1), `seas:` one point for each Sea of the board
    (England's, one per Region, 5.4)."""
    try:
        if "offshore_labels" in data and len(board.seas) == 1:
            return tuple((board.seas[0], str(p["label"]), float(p["lon"]), float(p["lat"]))
                         for p in data["offshore_labels"]["points"])
        if "seas" in data:
            seas = {str(k): v for k, v in data["seas"].items()}
            labels = tuple((sea, str(p.get("label", sea)), float(p["lon"]), float(p["lat"]))
                           for sea, p in seas.items())
        else:
            labels = ()
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise MapUnavailable(f"{path}: cannot read where the seas are written ({type(exc).__name__}: {exc}); "
                             "each sea needs `lon:` and `lat:` numbers") from None
    missing = [s for s in board.seas if s not in {sea for sea, *_ in labels}]
    unknown = [sea for sea, *_ in labels if sea not in board.seas]
    if missing:
        raise MapUnavailable(f"{path}: no position for {', '.join(missing)} (a sea of {board.source}); add "
                             + ("`offshore_labels: {points: [{label: ..., lon: ..., lat: ...}]}`"
                                if len(board.seas) == 1 else "it under `seas:` with its `lon:` and `lat:`"))
    if unknown:
        raise MapUnavailable(f"{path}: {', '.join(unknown)} is not a sea of {board.source}; "
                             "fix the spelling or remove it")
    return labels


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


def _check_nodes(nodes: dict[str, Any], board: Board, where: str) -> None:
    """E 13.4: the forest of the Bandit Paths has a position, and no other place is named."""
    forest = getattr(board, "forest", None)
    if forest and forest not in nodes:
        raise MapUnavailable(f"{where}: no position for {forest} (the forest of {board.source}); "
                             f"add it under `other_nodes:` with its `lon:` and `lat:`")
    unknown = [n for n in nodes if n != forest]
    if unknown:
        raise MapUnavailable(f"{where}: {', '.join(unknown)} is not a place of {board.source}; "
                             "fix the spelling or remove it")


def map_drawing(view: JSON, variant: str, title: str) -> JSON:
    """The drawing description of ``view`` (one player's, or the game master's)."""
    board_name = view.get("options", {}).get("board", "board")
    board = load_board(variant, board_name)
    geo = load_geography(variant, board_name)
    edition = load_edition(variant)
    words = edition.words   # how the edition names the sea (`words:`)
    me = view.get("me")
    places = [_town_place(name, town, geo) for name, town in view["towns"].items()]
    sea_ids = _sea_ids(geo)
    places += [{"id": sid, "label": label, "kind": "sea", "x": x, "y": y, "emphasis": False,
                "markers": _sea_markers(view, board, sea), "controller": None}
               for sid, (sea, label, lon, lat) in zip(sea_ids, geo.sea_labels, strict=True)
               for x, y in [geo.xy(lon, lat)]]
    places += [{"id": n, "label": n, "kind": "forest", "x": x, "y": y, "emphasis": False, "markers": [],
                "controller": None} for n, (lon, lat) in geo.nodes.items() for x, y in [geo.xy(lon, lat)]]
    _excalibur(view, places)
    links = [{"between": sorted(r), "kind": "road"} for r in sorted(board.roads, key=sorted)]
    links += _sea_links(view, board, geo, sea_ids)
    forest = getattr(board, "forest", None)
    if forest:   # E 13.4: the Red Bandit Paths join the forest to its cities
        links += [{"between": [forest, c], "kind": "path"} for c in getattr(board, "bandit_cities", ())]
    pieces = [_pieces(name, fam, forces) for name, town in view["towns"].items()
              for fam, forces in town["forces"].items()]
    first_label = {sea: sid for sid, (sea, *_) in reversed(list(zip(sea_ids, geo.sea_labels, strict=True)))}
    at_sea = view.get("seas") or {board.seas[0]: view["offshore"]} if board.seas else {}
    pieces += [_pieces(first_label[sea], fam, forces) for sea, there in at_sea.items()
               for fam, forces in there["forces"].items()]
    invaders = _invaders(view)
    # The title names no reader: readers whose views draw the same (no fog of war) get one
    # picture (the judge draws it once per report round); the mail and the CLI say whose it is.
    return {
        "title": f"{title}: round {view['round']}, {view['phase'].replace('_', ' ')}",
        "places": places,
        "links": links,
        "areas": [{"id": fid, "label": f["name"], "places": list(f["towns"]), "style": "outline"}
                  for fid, f in view["fiefs"].items()]
                 + [{"id": f"bishopric-{n}", "label": geo.district.format(n=n, name=b["name"]),
                     "places": list(b["towns"]), "style": "tag", "tag": str(n)} for n, b in view["bishoprics"].items()],
        "families": [{"id": p, "label": _family_label(view, p)} for p in view["players"]]
                    + ([INVADERS_FAMILY] if "invaders" in view else []),
        "pieces": [p for p in pieces + invaders if p["lords"] or p["units"] or p["hidden"] or p["captives"]],
        # A.1: the unit pawns as the map writes them (the edition record's `units:` letter and name)
        "piece_kinds": [{"id": k, "letter": u.letter, "label": u.name} for k, u in edition.units.items()]
                       + (INVADER_KINDS if "invaders" in view else []),
        "marker_kinds": [{**m, "label": words["map_harbor"]} if m["id"] == "harbor" else m for m in MARKERS]
                        + _card_kinds(view, board, geo) + ([EXCALIBUR] if _excalibur_city(view) else []),
        "legend": {**LEGEND, "sea": words["map_sea"], **geo.legend},   # the edition's `words:`, the map's `legend:`
        "sieges": [{"at": name, "by": sorted(town["besiegers"])} for name, town in view["towns"].items()
                   if town["besieged"]],
        "titles": _titles(view, board),
        "notes": ([geo.fog_note] if edition.fog(view.get("options", {})) and me is not None else [])
                 + _invader_notes(view) + _sherwood_notes(view),
    }


def _family_label(view: JSON, family: str) -> str:
    """A family's name in the sidebar; E 13.7: a family a player runs beside their own says whose."""
    runner = (view.get("family_players") or {}).get(family, family)
    return family + (f" ({runner}'s second family)" if runner != family else "") \
        + (" (eliminated)" if view["families"][family]["eliminated"] else "")


# E 6.0: the Invaders are drawn as one more mark (not a family: they never play), their Leader
# and Foot Soldiers as their own pieces (public: the markers lie on the board).
INVADERS_FAMILY = {"id": "invaders", "label": "Invaders (6.0, not a family)"}
INVADER_KINDS = [{"id": "invader_leader", "letter": "Ld", "label": "Invader Leader"},
                 {"id": "invader_foot", "letter": "F", "label": "Foot Soldier"}]
EXCALIBUR = {"id": "excalibur", "letter": "X", "label": "Excalibur lies here (13.2)"}


def _sea_ids(geo: Geography) -> list[str]:
    """The id of each sea label: the sea's own name where it is written once (England's Seas),
    ``sea:i`` where one sea is written at several points (France's offshore area)."""
    count = {sea: sum(1 for s, *_ in geo.sea_labels if s == sea) for sea, *_ in geo.sea_labels}
    return [sea if count[sea] == 1 else f"{sea}:{i}" for i, (sea, *_) in enumerate(geo.sea_labels)]


def _sea_links(view: JSON, board: Board, geo: Geography, sea_ids: list[str]) -> list[JSON]:
    """F 5.3.1: every harbor touches the one offshore area (drawn to its nearest label); E 5.4:
    each port touches its own Region's Sea, and each Sea the Seas it borders."""
    points = [(sid, sea, geo.xy(lon, lat)) for sid, (sea, _, lon, lat) in zip(sea_ids, geo.sea_labels, strict=True)]
    links = []
    for harbor in board.harbors:
        hx, hy = geo.xy(*geo.towns[harbor])
        own = _sea_of(board).get(view["towns"][harbor]["fief"]) if len(board.seas) > 1 else board.seas[0]
        choices = [p for p in points if p[1] == own] or points
        nearest = min(choices, key=lambda p: (p[2][0] - hx) ** 2 + (p[2][1] - hy) ** 2)
        links.append({"between": [harbor, nearest[0]], "kind": "sea"})
    ids = {sea: sid for sid, sea, _ in points}
    if len(board.seas) > 1:
        links += [{"between": sorted(ids[s] for s in pair), "kind": "sea"}
                  for pair in sorted(getattr(board, "sea_links", ()), key=sorted)]
    return links


def _sea_cards(view: JSON, board: Board) -> list[tuple[str, str]]:
    """E 2.4: the cards lying on a Region's Sea, (sea, card), all public: round 1's disasters
    waiting face up, and the cards played on a Region (its number), which lie on its Sea (an
    INVASION held at sea among them, 6.2)."""
    sea_of_region = {r: _sea_of(board).get(f) for r, f in getattr(board, "regions", {}).items()}
    lying = [(w.get("region"), w["card"]) for w in view.get("disasters_waiting", [])]
    lying += [(e.get("target"), e["card"]) for e in view.get("board_effects", [])]
    return [(sea, card) for region, card in lying if (sea := sea_of_region.get(region)) is not None]


def _sea_markers(view: JSON, board: Board, sea: str) -> list[str]:
    return [f"card:{card}" for at, card in _sea_cards(view, board) if at == sea]


def _sea_of(board: Board) -> dict[str, str]:
    """E 2.4: each Region's (fief's) own Sea, on a board of several seas."""
    return dict(getattr(board, "sea_of", {}))


def _card_kinds(view: JSON, board: Board, geo: Geography) -> list[JSON]:
    cards = sorted({card for _, card in _sea_cards(view, board)})
    return [{"id": f"card:{c}", "letter": geo.card_names.get(c, c.replace("_", " ").upper()),
             "label": "a card on this Sea: it strikes its Region (2.4)"} for c in cards]


def _excalibur_city(view: JSON) -> str | None:
    sword = view.get("excalibur") or {}
    return sword.get("city") if not sword.get("carried_by") else None


def _excalibur(view: JSON, places: list[JSON]) -> None:
    """E 13.2: the sword lying in a City is marked there (public)."""
    city = _excalibur_city(view)
    for place in places:
        if place["id"] == city:
            place["markers"].append("excalibur")


def _invaders(view: JSON) -> list[JSON]:
    """E 6.0: each army on the map, its Leader, Foot Soldiers and captives, under its City."""
    out = []
    for army in (view.get("invaders") or {}).get("armies", {}).values():
        if army.get("city") in view["towns"]:
            units = {"invader_leader": 1} if army.get("leader") else {}
            units.update({"invader_foot": army["foot"]} if army.get("foot") else {})
            out.append({"at": army["city"], "family": INVADERS_FAMILY["id"], "lords": [], "units": units,
                        "hidden": 0, "captives": list(army.get("captives") or [])})
    return out


def _invader_notes(view: JSON) -> list[str]:
    armies = (view.get("invaders") or {}).get("armies", {})
    held = sorted(a["city"] for a in armies.values() if a.get("holds") and a.get("city"))
    return [f"the Invaders hold {', '.join(held)} (6.6)"] if held else []


def _sherwood_notes(view: JSON) -> list[str]:
    """E 13.4: who the bandits of Sherwood hold, for what ransom (the table is public)."""
    return [f"the bandits of Sherwood hold {c['noble']} ({c['family']}), ransom {c['ransom']} (13.4)"
            for c in view.get("sherwood", [])]


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
