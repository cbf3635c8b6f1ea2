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

from typing import Any

from pbem.games.fief.board import load_board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.movement.army_orders import ArmyChecker
from pbem.orders.reading import Problems, check_keys, suggest, verb_of
from pbem.games.fief.movement.template import movement_template  # the tests import it from here too
from pbem.games.fief.movement.underground import CARD as UNDERGROUND, check_underground, move_card
from pbem.games.fief.orders_common import view_rules_version
from pbem.games.fief.policies import find_player
from pbem.games.fief.surprise.policies import check_all_policies
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import OrderError

VERBS = ("move", "land")
MOVE_KEYS = ("move", "with", "lords", "captives", "path", "leave", "pick_up", "if_refused", "give_control",
             UNDERGROUND)
IF_REFUSED = ("back", "stay", "cavalcade")   # 5.2.3.1, 5.2.4


def check_movement_orders(view: dict[str, Any], player: str, orders: Any, policies: Any,
                          orders_line: int | None = None,
                          policies_line: int | None = None) -> tuple[dict, list[OrderError]]:
    """(canonical, errors) for one player's movement mail; the lines of its `orders:` and
    `policies:` keys name a value that is no list or mapping, which has no line of its own."""
    board = load_board(view["game"], view.get("options", {}).get("board", "board"))
    problems = Problems()
    canonical_policies, policy_errors = check_all_policies(view, player, policies, policies_line)
    problems.extend(policy_errors)
    checker = _Checker(view, player, board, problems)
    if orders is not None and not isinstance(orders, list):
        problems.add(getattr(orders, "line", None) or orders_line,
                     "`orders:` must be a list of orders, each starting with `- `",
                     "write e.g. `  - move: LORD` with `path: [TOWN]` under it")
        orders = []
    for index, item in enumerate(orders or []):
        checker.item(item, line_of(orders, index))
    checker.count_cards()
    return {"moves": checker.moves, "land": checker.land, "policies": canonical_policies}, list(problems)


class _Checker(ArmyChecker):
    """A movement mail's orders, one item after the other (the path: movement/paths.py; what
    goes along: movement/army_orders.py)."""

    # -- items -----------------------------------------------------------------------------
    def item(self, item: Any, line: int | None) -> None:
        verb = verb_of(item, VERBS, line, self.problems)
        if verb == "land":
            self._land(item, line)
        elif verb == "move":
            own = self.edition.hooks.movement
            card = move_card(self.edition).key   # the edition's card on a step (France: underground)
            keys = tuple(k for k in MOVE_KEYS if k != UNDERGROUND) + (card,)
            check_keys(item, keys + (own.keys if own else ()), "a `move` order", self.problems)
            before = len(self.problems)
            move = self._move(item, line)
            if move is not None and len(self.problems) == before:
                self.moves.append(move)

    def _land(self, item: dict, line: int | None) -> None:
        check_keys(item, ("land",), "a `land` order", self.problems)
        at_sea = self.view["offshore"]["forces"].get(self.me)   # 5.3: at the board's seas
        if not at_sea:
            self.problems.add(line, f"you have no forces {self.edition.words['at_sea']} to land",
                              self.edition.cite_in("remove the `land` order; it is for forces at sea (5.3)"))
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
        if_refused = self._if_refused(item, with_)
        give = self._give_control(item, start, path)
        underground: dict | None = {}
        card = move_card(self.edition)
        if card.key in item:
            underground, cards = check_underground(item, start, path, self.view, self.me, self._town,
                                                   self.board.seas, self.problems, card)
            by = (underground or {}).get("by", card.sources[0])
            self.cards_named += [(line, by) for line in cards]
        if if_refused == "cavalcade" and ({start, *path} & set(self.board.seas)):
            self.problems.add(line_of(item, "if_refused"),
                              self.edition.cite_in("an army making a naval step cannot make a cavalcade (5.3)"),
                              "write `if_refused: back` or `if_refused: stay`")
            return None
        if with_ is None or leave is None or pick_up is None or if_refused is None or give is None \
                or underground is None:
            return None
        self._follow(name, start, path, with_, leave, pick_up, line_of(item, "move"))
        for lord in [name] + lords + captives:
            self.lord_at[lord] = path[-1]
        move: dict[str, Any] = {"lord": name, "with": with_, "path": path, "if_refused": if_refused}
        move.update(dict.fromkeys(sorted(self.flags), True))   # the edition's own (England: `royal`)
        for key, value in (("lords", lords), ("captives", captives), ("leave", leave),
                           ("pick_up", pick_up), ("give_control", give), (card.key, underground)):
            if value:
                move[key] = value
        return move

    def count_cards(self) -> None:
        """One underground card per step (G.4.2.2; England's PASSAGE, 10.2): the steps always
        played need as many cards (or, England, BURGHER actions: a Treasure each)."""
        card = move_card(self.edition)
        for by in card.sources:
            named = [line for line, source in self.cards_named if source == by]
            held, _, _ = card.held(self.view, self.me, by)
            if len(named) > held:
                what = f"{card.name}s" if by == "card" else f"{by} actions"
                self.problems.add(named[held], f"your moves always play {len(named)} {what}, but you "
                                  f"{'hold' if by == 'card' else 'can pay for'} {held}",
                                  "name fewer steps, or write `if_needed` for some")

    # -- pieces ----------------------------------------------------------------------------

    def _if_refused(self, item: dict, with_: dict[str, int] | str | None) -> str | None:
        if "if_refused" not in item:
            return "back"   # the cautious answer: do not end next to a family that refused you
        text = item["if_refused"]
        word = text.strip().lower() if isinstance(text, str) else ""
        if word == "cavalcade":
            # 5.2.4: an army "made up of knight pawns and lords exclusively" (`with: all` is
            # checked when the cavalcade is fought, against the pawns then in the army).
            # ``with_``: the units as read (`_units`: {kind: count}, "all", or None when refused there)
            edition = load_edition(self.view["game"])
            kinds = {k for k, n in with_.items() if n} if isinstance(with_, dict) else set()
            if kinds - {"knight"} or item.get("pick_up"):
                self.problems.add(line_of(item, "if_refused"),
                                  edition.cite_in("a cavalcade is made by an army of knights and lords only (5.2.4)"),
                                  "take only knights along (`with: {knight: 2}`, no `pick_up`), "
                                  "or write `if_refused: back`")
                return None
            alone = not item.get("with") or with_ == {}   # left out, or `with: none`
            if alone and view_rules_version(self.view) >= 2:   # 5.1, 5.2.4: no army (ruling 37)
                self.problems.add(line_of(item, "if_refused"),
                                  self.edition.cite_in("a cavalcade needs an army: lords alone do not count as "
                                                       "one (5.1, 5.2.4)"),
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


__all__ = ["check_movement_orders", "movement_template"]
