"""Transferring the control of a town (5.2.2), a surprise effect (G.4).

    - transfer: Tours      # a town your family controls
      to: bob              # a family with forces (a lord or a unit pawn) in that town

5.2.2: "A family controlling a town may at any time transfer its control to any other present
family, except during the resolution of a battle; this is played as a surprise effect." The
giver's forces go next to the town space, the receiver's on it (``Town.arrivals``, first =
on the town space); a city brings its fief title to the receiver (5.2.2 last point, with the
D.1.1 transmission), exactly as when a family takes a city by moving in
(movement/control.py: set_controller). A besieged town may be transferred (Rulings): the siege
goes on against the new controller; a besieger receiving it ends its own siege, since nobody
besieges their own town.

By mail the transfer is ordered with a trigger: at the start of a phase (`at_phase_start:`,
surprise/phase_start.py), and at once when a mail is accepted (the judge). Never during a
battle's resolution: a mail is never carried out in the middle of one.

Both functions are pure (no I/O, no clock, no randomness); the judge may call them directly:
- ``check_transfer(view, player, item, problems)``: the order item as the player wrote it,
  checked against their view; returns the canonical ``{"town": ..., "to": ...}`` or None
  (the problems say why);
- ``transfer_control(state, board, player, order)``: carries out a canonical order on the
  state (checked again: an earlier effect may have changed the town) and returns its events.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.orders.reading import Problems, check_keys, fold, suggest
from pbem.games.fief.control import controller, forces_by_town
from pbem.games.fief.movement.control import set_controller
from pbem.games.fief.state import FiefState
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event

KEYS = ("transfer", "to")


def check_transfer(view: dict, player: str, item: Any, problems: Problems) -> dict | None:
    """5.2.2: a town the player controls, to another family present there."""
    line = getattr(item, "line", None)
    if not isinstance(item, dict):
        problems.add(line, "a transfer is a mapping such as `- transfer: Tours` with `to: bob`")
        return None
    check_keys(item, KEYS, "a transfer of control", problems)
    where = line_of(item, "transfer") or line
    text = item.get("transfer")
    town = next((t for t in view["towns"] if fold(t) == fold(str(text))), None)
    if town is None:
        problems.add(where, f"there is no town called {text!r}", suggest(str(text), view["towns"]))
        return None
    info = view["towns"][town]
    if info["controller"] != player:
        problems.add(where, f"you do not control {town} (its controller: {info['controller'] or 'nobody'})",
                     "5.2.2: only the controlling family may transfer a town's control")
        return None
    if "to" not in item:
        problems.add(where, "name the family receiving the control", "add e.g. `to: bob`")
        return None
    to = next((p for p in view["players"] if fold(p) == fold(str(item["to"]))), None)
    to_line = line_of(item, "to") or where
    if to is None:
        problems.add(to_line, f"no player {item['to']!r} in this game", suggest(str(item["to"]), view["players"]))
        return None
    if to == player:
        problems.add(to_line, f"you control {town} already", "name another family present there")
        return None
    here = info["forces"].get(to) or {}
    if not (here.get("lords") or here.get("units")):
        present = [f for f, x in info["forces"].items() if f != player and (x.get("lords") or x.get("units"))]
        problems.add(to_line, f"{to} has no forces in {town} (5.2.2: control goes to a present family)",
                     "present there: " + (", ".join(present) or "no other family"))
        return None
    return {"town": town, "to": to}


def transfer_problem(state: FiefState, board: Board, player: str, town: str, to: str) -> str | None:
    """Why the transfer cannot be carried out now (None: it can)."""
    forces = forces_by_town(state)
    if town not in state.towns:
        return f"there is no town {town}"
    if controller(state, board, town, forces) != player:
        return f"{player} no longer controls {town}"
    if to not in state.families or state.families[to].eliminated:
        return f"{to} is out of the game"
    theirs = forces.get(town, {}).get(to)
    if theirs is None or not (theirs.lords or theirs.units):
        return f"{to} has no forces left in {town}"
    return None


def transfer_control(state: FiefState, board: Board, player: str, order: dict) -> list[Event]:
    """Carry out a checked transfer: the receiver controls the town, its forces on the town
    space (5.2.2), a city's fief title with it (D.1.1). Refused now: an event says why."""
    town, to = order["town"], order["to"]
    why = transfer_problem(state, board, player, town, to)
    if why:
        return [Event("transfer_void", f"{player}'s transfer of {town} to {to} is void: {why} (5.2.2).",
                      data={"player": player, "town": town, "to": to, "reason": why})]
    events = [Event("control_transferred", f"{player} transfers the control of {town} to {to}, a surprise "
                    "effect (5.2.2, G.4).", data={"player": player, "town": town, "to": to})]
    return events + set_controller(state, board, town, to, None, why=f"transferred by {player}")
