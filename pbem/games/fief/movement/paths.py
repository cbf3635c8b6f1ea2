"""Checking the path of a move in a movement mail (5): one town a step along the roads (5.2),
a naval step from and to a harbor (5.3), no more steps than the lord has (5.1.1; more with the
edition's title bonus, France's D'Arc, G.4.1.1).
The checker of movement/orders.py is made of this, movement/army_orders.py and its own items.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.hooks import Movement
from pbem.orders.reading import Problems, suggest, yes_no
from pbem.orders.yamlsafe import line_of


class PathChecker:
    """What the checker of one movement mail holds, and the path of each move."""

    def __init__(self, view: dict, me: str, board: Board, problems: Problems):
        self.view, self.me, self.board, self.problems = view, me, board, problems
        self.moves: list[dict] = []
        self.land: str | None = None
        self.moved: dict[str, int | None] = {}   # lord -> line of their move
        # The player's own pawns, followed through their moves: place -> kind -> count.
        self.pawns: dict[str, Counter] = {}
        self.edition = load_edition(view["game"])
        for p in view.get("my_pawns", []):
            if p["kind"] in self.edition.unit_types:
                self.pawns.setdefault(p["location"], Counter())[p["kind"]] += 1
        self.lord_at = {n: l["location"] for n, l in view["lords"].items()}
        self.hand = list(view.get("hand") or [])
        self.cards_named: list[tuple[int | None, str]] = []   # (line, source) per card always played
        self.flags: frozenset[str] = frozenset()  # the edition's yes/no keys of the last move read

    def _town(self, text: Any, line: int | None) -> str | None:
        sea = self.board.find_sea(text) if self.edition.hooks.naval else None
        if sea is not None:
            return sea          # 5.3 (France: `offshore`)
        if not isinstance(text, str):
            self.problems.add(line, "a town name is expected here", "write the town's name, e.g. Tours")
            return None
        town = self.board.find_town(text)
        if town is None:
            self.problems.add(line, f"there is no town called {text!r}", suggest(text, self.board.towns))
        return town

    def _path(self, item: dict, name: str, start: str, lords: list[str]) -> list[str] | None:
        line = line_of(item, "move")
        if "path" not in item or item["path"] is None:
            self.problems.add(line, f"the move of {name} has no `path`",
                              f"add e.g. `path: [{self._neighbours(start)[0] if self._neighbours(start) else 'TOWN'}]`"
                              " under it, one town per step")
            return None
        raw = item["path"] if isinstance(item["path"], list) else [item["path"]]
        path_line = line_of(item, "path")
        own = self.edition.hooks.movement
        if own is not None:   # the edition's own path (England: seas, Sherwood, E 5.4, 13.4)
            return self._own_path(own, item, name, start, raw, lords)
        path: list[str] = []
        here = start
        for i, text in enumerate(raw):
            where = line_of(raw, i) if isinstance(item["path"], list) else path_line
            town = self._town(text, where)
            if town is None:
                return None
            problem = self._step_problem(here, town, i, len(raw), start)
            if problem:
                self.problems.add(where, *problem)
                return None
            path.append(town)
            here = town
        if not path:
            self.problems.add(path_line, "the path is empty", "name at least one town")
            return None
        allowed, bonus = self._allowed(name, lords)
        if len(path) > allowed:
            extra = f" (the {bonus.title} lord, {bonus.section})" if bonus else f" ({self.edition.cite('5.1.1')})"
            self.problems.add(path_line, f"{name} has {allowed} steps{extra}; this path needs {len(path)}",
                              f"shorten the path to {allowed} towns")
            return None
        return path

    def _own_path(self, own: Movement, item: dict, name: str, start: str, raw: list,
                  lords: list[str]) -> list[str] | None:
        self.flags = frozenset(k for k in own.keys if k in item and yes_no(item, k, self.problems))
        read = own.read_path(self.board, start, raw, self.flags)
        if len(read) == 3:
            index, problem, fix = read
            where = line_of(raw, index) if isinstance(item["path"], list) else line_of(item, "path")
            self.problems.add(where, problem, fix)
            return None
        path, moves = read
        allowed, _ = self._allowed(name, lords)
        if moves > allowed:
            self.problems.add(line_of(item, "path"), f"{name} has {allowed} Moves; this path needs {moves}",
                              f"shorten the path to {allowed} Moves")
            return None
        return path

    def _allowed(self, name: str, lords: list[str]) -> tuple[int, Any]:
        """5.1.1: the steps of the move; more in the army of a lord whose title gives steps
        (France: D'Arc, G.4.1.1), with that title's bonus (or None)."""
        bonus = self.edition.bonus(self.view["lords"][n].get("political") for n in [name] + lords)
        steps = max(bonus.steps, self.edition.steps_per_round) if bonus else self.edition.steps_per_round
        own = self.edition.hooks.movement
        if own is not None and own.extra_moves is not None:   # the edition's (England: a retainer, 2.12)
            steps = max(steps, self.edition.steps_per_round + own.extra_moves(self.view, [name] + lords))
        return steps, bonus

    def _step_problem(self, here: str, town: str, index: int, length: int, start: str) -> tuple[str, str] | None:
        naval = self.edition.hooks.naval
        if naval and (self.board.is_sea(town) or self.board.is_sea(here)):   # 5.3: the edition's naval step
            return naval.path_step(self.board, here, town, index, length, start)
        if town == here:
            return (f"the army is already in {town}", "name the next town on the road")
        if not self.board.adjacent(here, town):
            return (f"no road from {here} to {town}", f"{here} connects to " + ", ".join(self._neighbours(here)))
        return None

    def _neighbours(self, town: str) -> list[str]:
        if self.board.is_sea(town):   # 5.3.1 (France: the off-shore area touches every harbor)
            return list(self.board.harbors)
        return list(self.board.neighbours(town))
