"""The Movement Phase (5): each army goes where it does the most good within its steps (5.1.1):
into an empty town (5.2.2: control, and towards a fief title, 4.4), against a rival town it is
clearly stronger than by what it sees (fog of war: a face-down pawn is estimated), or it stays
where a rival army stands next to a town of mine it must hold. An army leaving a town of mine
leaves a man-at-arms behind to keep it (5.2.2); a second lord in a town rides out alone to an
empty town nobody is near."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.computer.sight import (FORTRESS, allies, defence, enemies_at, fief_share, reach, strength,
                                           target_fiefs, threat)
from pbem.games.fief.computer.mail import Mail
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, board_of, edition_of, free_lords, my_units

ODDS = 1.5      # attack a town only with half as much again as its estimated defenders


def movement_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    board = board_of(view)
    claimed = set(mail.claimed)
    choices: list[list[Item]] = []
    by_town: dict[str, list[str]] = {}
    for lord in free_lords(view, player):
        town = view["lords"][lord]["location"]
        if town in view["towns"]:
            by_town.setdefault(town, []).append(lord)
    steps = edition_of(view).steps_per_round
    for town, lords in by_town.items():
        army = _army(view, board, player, town)
        first = True
        for lord in lords:
            moves = _moves(view, board, player, lord, town, army if first else {}, claimed, steps, draw)
            if moves:
                choices.append(moves)
                claimed.update([moves[0]["path"][-1]] + list(moves[0].get("leave") or {}))
                if first and moves[0].get("with") not in (None, "none"):
                    first = False
    return choices


def _army(view: JSON, board: Board, player: str, town: str) -> dict[str, int]:
    """The units an army takes from ``town``: all that may move but a garrison to hold it, a
    man-at-arms (5.2.2) and, with a rival army next door, enough to match it behind the walls."""
    fixed = getattr(edition_of(view).hooks.movement, "fixed_units", ()) or ()
    units = {k: n for k, n in my_units(view, player, town).items() if k not in fixed and n > 0}
    if view["towns"][town].get("controller") != player:
        return units
    points = edition_of(view).units
    need = threat(view, board, town, player) / (FORTRESS if view["towns"][town].get("fortress") else 1.0)
    kept = 0.0
    for kind in ("man_at_arms", "archer", "knight"):
        while units.get(kind, 0) and (kept < need or kept == 0):
            units[kind] -= 1
            kept += points[kind].combat_points if kind in points else 1
    return {k: n for k, n in units.items() if n > 0}


def _moves(view: JSON, board: Board, player: str, lord: str, town: str, army: dict[str, int],
           claimed: set[str], steps: int, draw: Draws) -> list[Item]:
    units = edition_of(view).units
    mine = float(sum(n * (units[k].combat_points if k in units else 1) for k, n in army.items()) + 1)
    stay = _stay_value(view, player, town, army)
    scored = []
    for goal, path in reach(board, town, steps).items():
        value = _value(view, board, player, goal, mine, claimed)
        drop = _drop(view, player, path, army, claimed)
        value += 2.5 if drop else 0.0
        if value > stay:
            scored.append((-value, draw.below(10), goal, path, drop))
    scored.sort()
    out: list[Item] = []
    for *_, path, drop in scored[:3]:
        item: Item = {"move": lord, "with": army or "none", "path": path}
        if drop:   # a man-at-arms left in the empty town passed through holds it (5.2.2)
            item["leave"] = {drop: {"man_at_arms": 1}}
        out.append(item | {"if_refused": "back"})
        if army:
            out.append({"move": lord, "with": "none", "path": path, "if_refused": "back"})
    return out


def _drop(view: JSON, player: str, path: list[str], army: dict[str, int], claimed: set[str]) -> str | None:
    """The empty town a two-step army passes through, where it can leave a man-at-arms."""
    if len(path) < 2 or army.get("man_at_arms", 0) < 2 or path[0] in claimed:
        return None
    info = view["towns"][path[0]]
    return path[0] if not info.get("controller") and not info.get("forces") else None


def _stay_value(view: JSON, player: str, town: str, army: dict[str, int]) -> float:
    """A battle here: stay and fight or besiege (6). A lord alone in a town of mine where no
    unit of mine stands holds it (5.2.2: leaving, it is lost); else a lord goes where it does good."""
    if enemies_at(view, town, player):
        return 9.0
    info = view["towns"][town]
    held = info.get("controller") == player and not any(my_units(view, player, town).values())
    return 4.0 if held and not army and len(info["forces"][player]["lords"]) == 1 else 0.5


def _value(view: JSON, board: Board, player: str, goal: str, mine: float, claimed: set[str]) -> float:
    info = view["towns"][goal]
    owner = info.get("controller")
    if owner == player or owner in allies(view, player) or goal in claimed:
        return 0.0
    rivals = enemies_at(view, goal, player)
    if any(f in allies(view, player) for f in (info.get("forces") or {})):
        return 0.0
    fief = info.get("fief")
    bonus = 3.0 * fief_share(view, fief, player) if fief in view["fiefs"] else 0.0
    if fief in target_fiefs(view, player):
        towns = view["fiefs"][fief]["towns"]
        bonus += 3.0 + (5.0 if fief_share(view, fief, player) + 1 / len(towns) >= 1 else 0.0)
    bonus += 1.0 if board.towns[goal].chief else 0.0
    if not rivals:
        danger = threat(view, board, goal, player)
        risk = 5.0 if danger >= mine else 0.0   # a rival army next to it might take me there
        return max(0.0, 3.0 + bonus + (2.0 if info.get("fortress") else 0.0) + (1.0 if owner else 0.0) - risk)
    guard = max(defence(view, goal, f) for f in rivals)
    walls = info.get("fortress") and owner in rivals
    if mine < ODDS * guard + 1 or (walls and mine < 2 * ODDS * guard + 2):
        return 0.0
    taken = sum(len(view["lords"][n]["fief_titles"]) + 1 for f in rivals
                for n in (info.get("forces", {}).get(f, {}).get("lords") or []))
    return 4.0 + bonus + taken + (2.0 if walls else 0.0) - strength(view, goal, rivals[0]) / 10
