"""The Movement Phase (5): some of my free lords move, each with some of the units beside it,
other lords and captives of mine there, along a random walk of roads (a naval step from a harbor
now and then; England's seas, 5.4, and Sherwood, 13.4), with random `leave`, `if_refused`;
forces at sea land (5.3)."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.random_orders.cards import own_cards
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import (JSON, board_of, captives_of_mine, edition_of, england, free_lords,
                                                my_units, others, present)


def movement_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    board = board_of(view)
    items: list[Item] = []
    moved: set[str] = set()
    lords = free_lords(view, player)
    for lord in draw.some(lords):
        if lord in moved:
            continue
        item = _move(view, board, player, lord, moved, draw)
        if item is not None:
            items.append(item)
    at_sea = [n for n in lords if view["lords"][n]["location"] in board.seas]
    if (at_sea or view["offshore"]["forces"].get(player)) and board.harbors and draw.chance(50):
        items.append({"land": draw.pick(board.harbors)})
    return items


def _move(view: JSON, board: Board, player: str, lord: str, moved: set[str], draw: Draws) -> Item | None:
    town = view["lords"][lord]["location"]
    path = _path(view, board, town, draw)
    if not path:
        return None
    moved.add(lord)
    item: Item = {"move": lord}
    units = my_units(view, player, town)
    own = edition_of(view).hooks.movement   # England 7.2 (l.473): trebuchets never move
    units = {k: n for k, n in units.items() if own is None or k not in own.fixed_units or draw.chance(3)}
    if units and draw.chance(80):   # mostly some, a man-at-arms kept behind to hold the town (5.2.2)
        keep = "man_at_arms" if units.get("man_at_arms") and draw.chance(60) else None
        some = {k: draw.count(n - (k == keep)) for k, n in units.items() if n - (k == keep) > 0 and draw.chance(60)}
        item["with"] = "all" if draw.chance(25) else some
        if item["with"] == {}:
            item["with"] = "none"
    item["path"] = path
    here = [n for n in free_lords(view, player) if n not in moved and view["lords"][n]["location"] == town]
    going = draw.some(here) if draw.chance(40) else []
    if going:
        item["lords"] = going
        moved.update(going)
    captives = [n for n in captives_of_mine(view, player) if view["lords"][n]["location"] == town]
    if captives and draw.chance(40):
        item["captives"] = draw.some(captives) or captives[:1]
    if len(path) > 1 and units and draw.chance(20) and path[0] in board.towns:
        kind = draw.pick(list(units))
        item["leave"] = {path[0]: {kind: 1}}
    if draw.chance(40):
        knights_only = units and set(units) == {"knight"}
        cavalcade = ["cavalcade"] * 2 if knights_only or draw.chance(20) else []
        item["if_refused"] = draw.pick(["back", "stay"] + cavalcade)
    if england(view) and _royal(view, lord) and draw.chance(30):   # R50: the royal move, alone
        return {"move": lord, "royal": True, "path": [draw.pick(list(view["towns"]))]}
    if draw.chance(15):
        item["give_control"] = {town: draw.pick(others(view, player) or [player])}
    card = "passage" if "passage" in own_cards(view) else "underground"   # England's PASSAGE 10.2; G.4.2.2
    if card in (view.get("hand") or []) and path[-1] in board.towns and draw.chance(40):
        item[card] = draw.pick(["if_needed", path[-1]])
    return item


def _royal(view: JSON, lord: str) -> bool:
    return view["lords"][lord]["political"] in ("king", "queen", "sovereign_queen", "prince_of_wales")


def _path(view: JSON, board: Board, start: str, draw: Draws) -> list[str]:
    """One to two steps (now and then three, past the limit) from ``start``."""
    if start in board.seas:   # 5.3: forces at sea land in a harbor
        return [draw.pick(board.harbors)] if board.harbors else []
    if len(board.seas) > 1 and start in board.harbors and draw.chance(10):   # England's seas (5.4)
        return _voyage(board, start, draw)
    bandits = getattr(board, "bandit_cities", ())   # England's board (13.4)
    if bandits and start in bandits and draw.chance(10):
        return [str(getattr(board, "forest", "Sherwood")), draw.pick([c for c in bandits if c != start])]
    steps = 1 + draw.below(2) + (1 if draw.chance(5) else 0)
    empty = [t for t in board.neighbours(start) if t in view["towns"] and not view["towns"][t].get("controller")]
    if empty and draw.chance(40):   # into an empty town next door: it becomes mine (5.2.2)
        return [draw.pick(empty)]
    targets = [t for t, info in view["towns"].items() if t != start and present(view, t)]
    forts = [t for t in targets if view["towns"][t].get("fortress")]
    if forts and draw.chance(25):   # towards another family's fortress: sieges (6.4; England 7.9)
        return _towards(board, start, draw.pick(forts), steps)
    if targets and draw.chance(50):   # towards another family: where battles and sieges come from
        return _towards(board, start, draw.pick(targets), steps)
    path, here = [], start
    for _ in range(steps):
        if len(board.seas) == 1 and here in board.harbors and draw.chance(10):   # France's offshore
            path.append(board.seas[0])   # 5.3: a naval step ends the move
            break
        roads = board.neighbours(here)
        if not roads:
            break
        here = draw.pick(roads)
        path.append(here)
    return path


def _towards(board: Board, start: str, goal: str, steps: int) -> list[str]:
    distance = board.distances(goal)
    path: list[str] = []
    here = start
    while len(path) < steps and here != goal:
        roads = [t for t in board.neighbours(here) if t in distance]
        if not roads:
            break
        here = min(roads, key=lambda t: (distance[t], t))
        path.append(here)
    return path


def _voyage(board: Board, port: str, draw: Draws) -> list[str]:
    """England 5.4: into a sea touching the port's own, then the port of that sea."""
    sea_of, links = getattr(board, "sea_of", {}), getattr(board, "sea_links", ())   # England's board
    own = sea_of.get(board.towns[port].fief)
    seas = sorted(s for link in links if own in link for s in link if s != own)
    if not seas:
        return []
    sea = draw.pick(seas)
    landing = [p for p in board.harbors if sea_of.get(board.towns[p].fief) == sea]
    return [sea, landing[0]] if landing else []
