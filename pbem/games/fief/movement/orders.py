"""The Movement Phase orders (5) as mailed, checked against the player's view (never the state).

    orders:
      - move: Éric                        # one of your lords, not captive
        with: {man_at_arms: 2, archer: 1} # units taken from the lord's town: kind: count,
                                          #   a list [knight, knight], `all` or `none`
        lords: [Blanche]                  # optional: your lords in the same town going along
        captives: [Arthur]                # optional: your captives carried along (6.3)
        path: [Poitiers, Limoges]         # towns, one per step; `offshore` for a naval step
        leave: {Poitiers: {archer: 1}}    # optional: units dropped in a town passed through
        pick_up: {Poitiers: {knight: 1}}  # optional: your units joining in a town passed through
        if_refused: back                  # back (default) | stay | cavalcade (5.2.4, knights and
                                          #   lords only): when a safe passage is refused
        give_control: {La Rochelle: marc} # optional: who gets a town you leave (5.2.2)
        underground: if_needed            # optional: play an underground card on a step (G.4.2.2):
                                          #   a town of the path, a list, `if_needed`, or
                                          #   {Poitiers: always, others: if_needed}
      - land: Nantes                      # where your forces at sea land when no lord's order
                                          #   lands them (5.3)
    policies: {...}                       # standing policies (policies.py)

The canonical form is {"moves": [...], "land": town | None, "policies": {...}}. Each move is
{"lord", "with", "lords", "captives", "path", "leave", "pick_up", "if_refused", "give_control",
"underground"} (movement/underground.py),
units as {kind: count} or "all". Moves are made in the order written (5.1.1); the check
follows the player's own pawns through them, so a lord may take units an earlier lord of the
same player brings or leaves; what other players do is only known at resolution.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from pbem.games.fief.board import Board, load_board
from pbem.orders.reading import Problems, check_keys, fold, suggest, verb_of, whole_number
from pbem.games.fief.movement.army import DARC_STEPS   # G.4.1.1
from pbem.games.fief.movement.events import units_text
from pbem.games.fief.movement.template import movement_template  # game.py imports it from here
from pbem.games.fief.movement.underground import CARD as UNDERGROUND, check_underground
from pbem.games.fief.orders_common import view_rules_version
from pbem.games.fief.policies import check_policies, find_player, unit_kind
from pbem.games.fief.edition import load_edition
from pbem.games.fief.state import OFFSHORE
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import OrderError

VERBS = ("move", "land")
MOVE_KEYS = ("move", "with", "lords", "captives", "path", "leave", "pick_up", "if_refused", "give_control",
             UNDERGROUND)
IF_REFUSED = ("back", "stay", "cavalcade")   # 5.2.3.1, 5.2.4
_COUNTED = re.compile(r"^\s*(\d+)\s+(.+?)\s*$")


def check_movement_orders(view: dict[str, Any], player: str, orders: Any,
                          policies: Any) -> tuple[dict, list[OrderError]]:
    """(canonical, errors) for one player's movement mail."""
    board = load_board(view["game"], view.get("options", {}).get("board", "board"))
    problems = Problems()
    canonical_policies, policy_errors = check_policies(view, player, policies)
    problems.extend(policy_errors)
    checker = _Checker(view, player, board, problems)
    if orders is not None and not isinstance(orders, list):
        problems.add(getattr(orders, "line", None), "`orders:` must be a list of orders, each starting with `- `",
                     "write e.g. `  - move: LORD` with `path: [TOWN]` under it")
        orders = []
    for index, item in enumerate(orders or []):
        checker.item(item, line_of(orders, index))
    checker.count_cards()
    return {"moves": checker.moves, "land": checker.land, "policies": canonical_policies}, list(problems)


class _Checker:
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
        self.cards_named: list[int | None] = []   # one line per underground card always played

    # -- items -----------------------------------------------------------------------------
    def item(self, item: Any, line: int | None) -> None:
        verb = verb_of(item, VERBS, line, self.problems)
        if verb == "land":
            self._land(item, line)
        elif verb == "move":
            check_keys(item, MOVE_KEYS, "a `move` order", self.problems)
            before = len(self.problems)
            move = self._move(item, line)
            if move is not None and len(self.problems) == before:
                self.moves.append(move)

    def _land(self, item: dict, line: int | None) -> None:
        check_keys(item, ("land",), "a `land` order", self.problems)
        at_sea = self.view.get("offshore", {}).get("forces", {}).get(self.me)
        if not at_sea:
            self.problems.add(line, "you have no forces offshore to land",
                              "remove the `land` order; it is for forces at sea (5.3)")
            return
        if self.land is not None:
            self.problems.add(line, "only one `land` order is possible", "keep one harbor")
            return
        town = self._town(item["land"], line_of(item, "land"))
        if town is None:
            return
        if not self.board.is_harbor(town):
            self.problems.add(line_of(item, "land"), f"{town} is not a harbor town",
                              "forces at sea land in one of: " + ", ".join(self.board.harbors))
            return
        self.land = town

    def _move(self, item: dict, line: int | None) -> dict | None:
        name = self._own_lord(item["move"], line_of(item, "move"), free=True)
        if name is None:
            return None
        if name in self.moved:
            self.problems.add(line_of(item, "move"), f"{name} already moves (line {self.moved[name]})",
                              "each lord moves once a phase: put all the steps in one `path`")
            return None
        self.moved[name] = line_of(item, "move")
        start = self.lord_at[name]
        lords = self._companions(item, "lords", start, name)
        captives = self._companions(item, "captives", start, name)
        path = self._path(item, name, start, lords)
        if path is None:
            return None
        with_ = self._units(item.get("with"), line_of(item, "with")) if "with" in item else {}
        leave = self._stops(item, "leave", start, path)
        pick_up = self._stops(item, "pick_up", start, path)
        if_refused = self._if_refused(item)
        give = self._give_control(item, start, path)
        underground: dict | None = {}
        if UNDERGROUND in item:
            underground, cards = check_underground(item, start, path, self.hand, self._town, self.problems)
            self.cards_named += cards
        if if_refused == "cavalcade" and (start == OFFSHORE or OFFSHORE in path):
            self.problems.add(line_of(item, "if_refused"),
                              "an army making a naval step cannot make a cavalcade (5.3)",
                              "write `if_refused: back` or `if_refused: stay`")
            return None
        if with_ is None or leave is None or pick_up is None or if_refused is None or give is None \
                or underground is None:
            return None
        self._follow(name, start, path, with_, leave, pick_up, line_of(item, "move"))
        for lord in [name] + lords + captives:
            self.lord_at[lord] = path[-1]
        move: dict[str, Any] = {"lord": name, "with": with_, "path": path, "if_refused": if_refused}
        for key, value in (("lords", lords), ("captives", captives), ("leave", leave),
                           ("pick_up", pick_up), ("give_control", give), (UNDERGROUND, underground)):
            if value:
                move[key] = value
        return move

    def count_cards(self) -> None:
        """One underground card per step (G.4.2.2): the steps always played need as many cards."""
        held = self.hand.count(UNDERGROUND)
        if len(self.cards_named) > held:
            self.problems.add(self.cards_named[held],
                              f"your moves always play {len(self.cards_named)} underground cards, but you "
                              f"hold {held}", "name fewer steps, or write `if_needed` for some")

    # -- pieces ----------------------------------------------------------------------------
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
                              "a captive lord moves only with the jailer's army (6.3)")
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

    def _town(self, text: Any, line: int | None) -> str | None:
        if isinstance(text, str) and fold(text) == OFFSHORE:
            return OFFSHORE
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
        darc = any(self.view["lords"][n].get("political") == "darc" for n in [name] + lords)
        allowed = DARC_STEPS if darc else self.edition.steps_per_round   # G.4.1.1, 5.1.1
        if len(path) > allowed:
            extra = " (the D'Arc lord, G.4.1.1)" if darc else " (5.1.1)"
            self.problems.add(path_line, f"{name} has {allowed} steps{extra}; this path needs {len(path)}",
                              f"shorten the path to {allowed} towns")
            return None
        return path

    def _step_problem(self, here: str, town: str, index: int, length: int, start: str) -> tuple[str, str] | None:
        if town == OFFSHORE:
            if here == OFFSHORE:
                return ("the army is already offshore", "name a harbor town to land in")
            if start == OFFSHORE:
                return ("forces at sea since before this phase must land (5.3); they cannot go back to sea "
                        "this round", "end the path in a town")
            if not self.board.is_harbor(here):
                return (f"{here} is not a harbor town: a naval step leaves from a harbor (5.3)",
                        "harbors: " + ", ".join(self.board.harbors))
            if index != length - 1:
                return ("the movement of an army ends as soon as it enters the offshore area (5.3)",
                        "make `offshore` the last step of the path")
            return None
        if here == OFFSHORE:
            if not self.board.is_harbor(town):
                return (f"{town} is not a harbor town: from the offshore area an army lands in a harbor (5.3)",
                        "harbors: " + ", ".join(self.board.harbors))
            return None
        if town == here:
            return (f"the army is already in {town}", "name the next town on the road")
        if not self.board.adjacent(here, town):
            return (f"no road from {here} to {town}", f"{here} connects to " + ", ".join(self._neighbours(here)))
        return None

    def _neighbours(self, town: str) -> list[str]:
        if town == OFFSHORE:
            return list(self.board.harbors)
        return list(self.board.neighbours(town))

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
            kind = unit_kind(word)
            if kind is None or kind not in self.edition.unit_types:
                guard = kind is not None
                self.problems.add(where, f"{word!r} is not a unit kind you can move by name",
                                  "the royal guard always stays with its lord (1.5.5)" if guard else
                                  suggest(str(word), self.edition.unit_types))
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
        passed = [t for t in path[:-1] if t != OFFSHORE]
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

    def _if_refused(self, item: dict) -> str | None:
        if "if_refused" not in item:
            return "back"   # the cautious answer: do not end next to a family that refused you
        text = item["if_refused"]
        word = text.strip().lower() if isinstance(text, str) else ""
        if word == "cavalcade":
            # 5.2.4: an army "made up of knight pawns and lords exclusively" (`with: all` is
            # checked when the cavalcade is fought, against the pawns then in the army).
            with_ = item.get("with")
            kinds = {unit_kind(k) or k for k in with_} if isinstance(with_, dict) else \
                ({unit_kind(k) or k for k in with_} if isinstance(with_, list) else set())
            if kinds - {"knight"} or item.get("pick_up"):
                self.problems.add(line_of(item, "if_refused"),
                                  "a cavalcade is made by an army of knights and lords only (5.2.4)",
                                  "take only knights along (`with: {knight: 2}`, no `pick_up`), "
                                  "or write `if_refused: back`")
                return None
            if not with_ and view_rules_version(self.view) >= 2:   # 5.1, 5.2.4: lords alone are no army (ruling 37)
                self.problems.add(line_of(item, "if_refused"),
                                  "a cavalcade needs an army: lords alone do not count as one (5.1, 5.2.4)",
                                  "take knights along (`with: {knight: 2}`), or write `if_refused: back`")
                return None
            return word
        if word not in IF_REFUSED:
            self.problems.add(line_of(item, "if_refused"),
                              f"`if_refused` must be back, stay or cavalcade, not {text!r}",
                              suggest(str(text), IF_REFUSED))
            return None
        return word

    def _give_control(self, item: dict, start: str, path: list[str]) -> dict | None:
        if "give_control" not in item or item["give_control"] is None:
            return {}
        value, line = item["give_control"], line_of(item, "give_control")
        if not isinstance(value, dict):
            self.problems.add(line, "`give_control` maps a town you leave to the player who gets it",
                              f"write e.g. `give_control: {{{start}: PLAYER}}`")
            return None
        players = [p for p in self.view.get("turn_order", []) if p != self.me]
        out: dict[str, list[str]] = {}
        for text, who in value.items():
            where = line_of(value, text)
            town = self._town(text, where)
            if town is None:
                return None
            if town != start and town not in path:
                self.problems.add(where, f"this move does not leave {town}",
                                  f"towns this move leaves: {', '.join([start] + path[:-1])}")
                return None
            names = who if isinstance(who, list) else [who]
            chosen = []
            for name in names:
                found = find_player(name, players)
                if found is None:
                    self.problems.add(where, f"no other player {name!r} to give {town} to",
                                      suggest(str(name), players) if players else "")
                    return None
                chosen.append(found)
            out[town] = chosen
        return out

    def _follow(self, name: str, start: str, path: list[str], with_: Any, leave: dict, pick_up: dict,
                line: int | None) -> None:
        """Follow the player's own pawns through this move (other players ignored)."""
        here = self.pawns.setdefault(start, Counter())
        if with_ == "all":
            army = Counter(here)
            here.clear()
        else:
            army = Counter(with_)
            short = _first_short(here, army)
            if short:
                kind, n = short
                self.problems.add(line, f"{name} takes {units_text({kind: n})} from {start}, but you have only "
                                  f"{here[kind]} there (after your moves above)",
                                  f"take at most {here[kind]}, or use `with: all`")
                return
            here.subtract(army)
        for town in path[:-1]:
            if town in leave:
                drop = Counter(army) if leave[town] == "all" else Counter(leave[town])
                short = _first_short(army, drop)
                if short:
                    kind, n = short
                    self.problems.add(line, f"{name} cannot leave {units_text({kind: n})} in {town}: the army has "
                                      f"only {army[kind]}", f"leave at most {army[kind]}")
                    return
                army -= drop
                self.pawns.setdefault(town, Counter()).update(drop)
            if town in pick_up:
                there = self.pawns.setdefault(town, Counter())
                take = Counter(there) if pick_up[town] == "all" else Counter(pick_up[town])
                short = _first_short(there, take)
                if short:
                    kind, n = short
                    self.problems.add(line, f"{name} cannot pick up {units_text({kind: n})} in {town}: you have "
                                      f"only {there[kind]} there", f"pick up at most {there[kind]}")
                    return
                there.subtract(take)
                army += take
        self.pawns.setdefault(path[-1], Counter()).update(army)


def _first_short(have: Counter, want: Counter) -> tuple[str, int] | None:
    """The first kind (in the order written) of which ``want`` asks more than ``have`` holds."""
    return next(((kind, n) for kind, n in want.items() if have[kind] < n), None)


__all__ = ["check_movement_orders", "movement_template"]
