"""Checking what a move takes along in a movement mail (5.1.1): the leading lord, the lords
and captives going with them, the units taken (`with:`), left and picked up on the way, each
followed through the player's earlier moves so that a lord takes only what is there.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from pbem.games.fief.movement.events import units_text
from pbem.games.fief.movement.paths import PathChecker
from pbem.games.fief.orders_common import view_rules_version
from pbem.orders.reading import fold, suggest, whole_number
from pbem.orders.yamlsafe import line_of

_COUNTED = re.compile(r"^\s*(\d+)\s+(.+?)\s*$")


class ArmyChecker(PathChecker):
    """The forces of each move."""

    def _own_lord(self, text: Any, line: int | None, free: bool) -> str | None:
        mine = [n for n, lo in self.view["lords"].items() if lo["family"] == self.me]
        found = next((n for n in mine if fold(n) == fold(str(text))), None)
        if found is None:
            self.problems.add(line, f"{text!r} is not a lord of your family",
                              suggest(str(text), mine) if mine else "you have no lord in play")
            return None
        lord = self.view["lords"][found]
        if free and lord.get("captive_of"):
            self.problems.add(line, f"{found} is a captive of {lord['captive_of']} and cannot move (5)",
                              self.edition.cite_in("a captive lord moves only with the jailer's army (6.3)"))
            return None
        if lord.get("location") is None:
            self.problems.add(line, f"{found} is not on the board", "only lords on the board move")
            return None
        return found

    def _companions(self, item: dict, key: str, start: str, leader: str) -> list[str]:
        if key not in item:
            return []
        line = line_of(item, key)
        names = item[key] if isinstance(item[key], list) else [item[key]]
        out: list[str] = []
        for i, text in enumerate(names):
            where = line_of(names, i) if isinstance(item[key], list) else line
            if key == "lords":
                name = self._own_lord(text, where, free=True)
                if name is None:
                    continue
                if name == leader:
                    self.problems.add(where, f"{name} leads this move", f"remove {name} from `lords`")
                    continue
            else:
                held = [n for n, lo in self.view["lords"].items() if lo.get("captive_of") == self.me]
                name = next((n for n in held if fold(n) == fold(str(text))), None)
                if name is None:
                    self.problems.add(where, f"{text!r} is not a captive of your family",
                                      suggest(str(text), held) if held else "you hold no captive")
                    continue
            if self.lord_at[name] != start:
                self.problems.add(where, f"{name} is in {self.lord_at[name]}, not with {leader} in {start}",
                                  f"only forces in {start} can go along")
                continue
            out.append(name)
        return out

    def _units(self, value: Any, line: int | None) -> dict[str, int] | str | None:
        """`all`, `none`, a kind, "2 knights", a list of those, or {kind: count}."""
        if value is None:
            return {}
        if isinstance(value, str) and value.strip().lower() in ("all", "none"):
            return "all" if value.strip().lower() == "all" else {}
        items: list[tuple[Any, Any, int | None]] = []
        if isinstance(value, dict):
            items = [(k, v, line_of(value, k)) for k, v in value.items()]
        elif isinstance(value, list):
            items = [(v, None, line_of(value, i)) for i, v in enumerate(value)]
        else:
            items = [(value, None, line)]
        out: Counter = Counter()
        for word, count_text, where in items:
            count = 1
            if count_text is None and isinstance(word, str) and (counted := _COUNTED.match(word)):
                count_text, word = counted.groups()
            kind = self.edition.unit_kind(word)
            if kind is None or kind not in self.edition.unit_types:
                guard = kind is not None
                self.problems.add(where, f"{word!r} is not a unit kind you can move by name",
                                  self.edition.cite_in("the royal guard always stays with its lord (1.5.5)")
                                  if guard else
                                  suggest(str(word), self.edition.unit_types))
                return None
            own = self.edition.hooks.movement
            if own is not None and kind in own.fixed_units and view_rules_version(self.view) >= 3:
                self.problems.add(where, f"{self.edition.unit_word(kind, 2)} never move from the City they were "
                                  f"built in ({own.fixed_section})",
                                  "leave them out of the order: `with: all` leaves them where they stand")
                return None
            if count_text is not None:
                number = whole_number(count_text, where, kind, self.problems)
                if number is None:
                    return None
                count = number
            out[kind] += count
        return dict(sorted(out.items()))

    def _stops(self, item: dict, key: str, start: str, path: list[str]) -> dict | None:
        if key not in item or item[key] is None:
            return {}
        value, line = item[key], line_of(item, key)
        if not isinstance(value, dict):
            self.problems.add(line, f"`{key}` maps towns to units", f"write e.g. `{key}: {{{path[0]}: {{knight: 1}}}}`")
            return None
        passed = [t for t in path[:-1] if t not in self.board.seas]
        out: dict[str, Any] = {}
        for text, units_value in value.items():
            where = line_of(value, text)
            town = self._town(text, where)
            if town is None:
                return None
            if town not in passed:
                if town == path[-1]:
                    msg = f"the army ends in {town} anyway"
                    hint = f"`{key}` is for towns passed through ({', '.join(passed) or 'none on this path'})"
                elif town == start:
                    msg = f"{town} is where the move starts"
                    hint = "units from the start town are named in `with`; units not taken stay there"
                else:
                    msg, hint = f"{town} is not on this path", f"towns passed through: {', '.join(passed) or 'none'}"
                self.problems.add(where, msg, hint)
                return None
            units = self._units(units_value, where)
            if units is None:
                return None
            if units:
                out[town] = units
        return out

    def _follow(self, name: str, start: str, path: list[str], with_: Any, leave: dict, pick_up: dict,
                line: int | None) -> None:
        """Follow the player's own pawns through this move (other players ignored)."""
        here = self.pawns.setdefault(start, Counter())
        army: Counter = Counter()
        short = _shift(here, with_, army)
        if short:
            kind, n = short
            self.problems.add(line, f"{name} takes {units_text(self.edition, {kind: n})} from {start}, but you "
                              f"have only {here[kind]} there (after your moves above)",
                              f"take at most {here[kind]}, or use `with: all`")
            return
        for town in path[:-1]:
            if town in leave:
                short = _shift(army, leave[town], self.pawns.setdefault(town, Counter()))
                if short:
                    kind, n = short
                    self.problems.add(line, f"{name} cannot leave {units_text(self.edition, {kind: n})} in {town}: "
                                      f"the army has only {army[kind]}", f"leave at most {army[kind]}")
                    return
            if town in pick_up:
                there = self.pawns.setdefault(town, Counter())
                short = _shift(there, pick_up[town], army)
                if short:
                    kind, n = short
                    self.problems.add(line, f"{name} cannot pick up {units_text(self.edition, {kind: n})} in {town}: "
                                      f"you have only {there[kind]} there", f"pick up at most {there[kind]}")
                    return
        self.pawns.setdefault(path[-1], Counter()).update(army)


def _shift(source: Counter, units: Any, to: Counter) -> tuple[str, int] | None:
    """Move ``units`` (counted, or "all") from ``source`` to ``to``; if ``source`` holds too few,
    move nothing and give the first kind short (``_first_short``)."""
    moved = Counter(source) if units == "all" else Counter(units)
    short = _first_short(source, moved)
    if short is None:
        source.subtract(moved)
        to.update(moved)
    return short


def _first_short(have: Counter, want: Counter) -> tuple[str, int] | None:
    """The first kind (in the order written) of which ``want`` asks more than ``have`` holds."""
    return next(((kind, n) for kind, n in want.items() if have[kind] < n), None)
