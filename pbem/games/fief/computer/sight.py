"""What a computer player reads in its own view (never the state): friends and rivals, the
strength of the forces it sees (fog of war, France I.2: a hidden pawn is estimated), the roads
within a move, the towns and fiefs worth taking."""
from __future__ import annotations

from collections import deque

from pbem.games.fief.board import Board
from pbem.games.fief.random_orders.seen import JSON, controlled, edition_of, free_lords, my_lords, others

HIDDEN_PAWN = 1.6      # a face-down pawn's estimated combat points (most are men-at-arms, some knights)
LORD_POINTS = 1        # a lord fights like a man-at-arms in the estimate
FORTRESS = 1.5         # a fortress multiplies its defenders' estimate (they shoot from the walls)


def allies(view: JSON, player: str) -> set[str]:
    """My family's friends: the families its lords are married into (1.1.2) and, at two players
    in England (13.7), my other family."""
    out = {view["lords"][s]["family"] for n in my_lords(view, player)
           if (s := view["lords"][n]["spouse"]) and s in view["lords"]}
    owners = view.get("family_players") or {}
    if owners:
        out |= {f for f, p in owners.items() if p == owners.get(player)}
    return out - {player}


def rivals(view: JSON, player: str) -> list[str]:
    friends = allies(view, player)
    return [p for p in others(view, player) if p not in friends]


def leader(view: JSON, player: str) -> str | None:
    """The rival with the most victory points (then the most towns): the one to hold back."""
    rest = rivals(view, player)
    if not rest:
        return None
    return max(rest, key=lambda p: (view["families"][p].get("vp", 0), len(controlled(view, p)), p))


def strength(view: JSON, town: str, family: str) -> float:
    """The combat points of ``family``'s forces in ``town`` as I see them."""
    force = (view["towns"].get(town) or {}).get("forces", {}).get(family) or {}
    units = edition_of(view).units
    points = float(LORD_POINTS * len(force.get("lords") or []))
    for kind, n in (force.get("units") or {}).items():
        points += n * (HIDDEN_PAWN if kind == "hidden" else (units[kind].combat_points if kind in units else 1))
    return points


def defence(view: JSON, town: str, family: str) -> float:
    info = view["towns"][town]
    walls = FORTRESS if info.get("fortress") and info.get("controller") == family else 1.0
    return strength(view, town, family) * walls


def enemies_at(view: JSON, town: str, player: str) -> list[str]:
    friends = allies(view, player) | {player}
    forces = (view["towns"].get(town) or {}).get("forces", {})
    return [f for f, force in forces.items() if f not in friends and (force.get("units") or force.get("lords"))]


def threat(view: JSON, board: Board, town: str, player: str) -> float:
    """The greatest rival force within one road of ``town`` (or in it)."""
    near = [town] + [t for t in board.neighbours(town) if t in view["towns"]]
    return max([strength(view, t, f) for t in near for f in enemies_at(view, t, player)], default=0.0)


def reach(board: Board, start: str, steps: int) -> dict[str, list[str]]:
    """The towns within ``steps`` roads of ``start`` (land only), each with a shortest path."""
    paths: dict[str, list[str]] = {start: []}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if len(paths[here]) >= steps:
            continue
        for nxt in sorted(board.neighbours(here)):
            if nxt in board.towns and nxt not in paths:
                paths[nxt] = paths[here] + [nxt]
                queue.append(nxt)
    del paths[start]
    return paths


def fief_share(view: JSON, fief: str, player: str) -> float:
    """How much of ``fief`` my family controls (a fief title needs all of it, 4.4)."""
    towns = view["fiefs"][fief]["towns"]
    return sum(1 for t in towns if view["towns"][t].get("controller") == player) / len(towns)


def lord_towns(view: JSON, player: str) -> list[str]:
    """The towns where my free lords stand, in the order of my lords."""
    return list(dict.fromkeys(view["lords"][n]["location"] for n in free_lords(view, player)
                              if view["lords"][n]["location"] in view["towns"]))


def target_fiefs(view: JSON, player: str) -> list[str]:
    """The fiefs worth completing for their titles (4.4), best first: those I hold most of, with
    a fortress of mine in them (the title needs a stronghold), the fewest rival towns left."""
    out = []
    for fief, info in view["fiefs"].items():
        if info["holder"] or info.get("governed"):
            continue
        towns = info["towns"]
        held = [t for t in towns if view["towns"][t].get("controller") not in (None, player)]
        walled = sum(1 for t in held if view["towns"][t].get("fortress"))
        walls = any(view["towns"][t].get("fortress") and view["towns"][t].get("controller") == player for t in towns)
        score = fief_share(view, fief, player) + (0.5 if walls else 0.0) - 0.4 * len(held) - 0.4 * walled
        out.append((-score, len(towns), fief))
    return [f for score, _, f in sorted(out) if score < 0][:2]
