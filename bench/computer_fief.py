"""The Fief family's computer player against other players (issue 22): whole games of Fief:
France and Fief: England with computer players and random-order (or default-order) players in
turn around the table, who sits first changing from game to game, and the share of the wins
and of the victory points each kind of player takes.

    python3 bench/computer_fief.py                      # 20 games a set-up against random orders
    python3 bench/computer_fief.py --games 200 --against default
    python3 bench/computer_fief.py --setup fr4 --setup en2 --games 50

Each mail is handled as the judge handles it (its part done at once first, then the orders
checked against the position it leaves; a refused mail is the default orders). France has no
last round: its games stop after --rounds rounds (default 6) and are scored by victory points
then (a lone or alliance victory before that ends the game, 7.1-7.2); England's end by 8.5.
It is a benchmark, not a test: it asserts nothing (tests/test_computer_fief.py bounds the same
measure by counts). Run from the top of the repository.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pbem.games.fief_england.rules import RULES as ENGLAND   # noqa: E402
from pbem.games.fief_france.rules import RULES as FRANCE   # noqa: E402
from pbem.judge import archive   # noqa: E402
from pbem.orders.yamlsafe import YamlProblem, load, sub_map   # noqa: E402
from pbem.rules.api import RULES_VERSION_KEY, computer_orders, random_orders, rules_version   # noqa: E402
from pbem.rules.rng import DICE_KEY, DICE_VERSION, Rng   # noqa: E402

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
SETUPS = {"fr3": (FRANCE, 3), "fr4": (FRANCE, 4), "fr5": (FRANCE, 5), "fr6": (FRANCE, 6),
          "en2": (ENGLAND, 2), "en3": (ENGLAND, 3), "en4": (ENGLAND, 4)}


def options_of(rules) -> dict:
    return {**{o.name: o.default for o in rules.options()}, RULES_VERSION_KEY: rules_version(rules),
            DICE_KEY: DICE_VERSION}


def orders_of(rules, state: dict, player: str, kind: str, seed: str, refused: Counter) -> tuple[dict, object]:
    """The state after the mail's part done at once and the mail's canonical orders (None: refused)."""
    view = rules.view(state, player)
    if kind == "default":
        return state, None
    write = computer_orders if kind == "computer" else random_orders
    try:
        body = load(write(rules, view, player, Rng(seed)) or "") or {}
    except YamlProblem:
        refused[kind] += 1
        return state, None
    now = sub_map(body, lambda k: k in rules.at_once_keys)
    rest = sub_map(body, lambda k: k not in rules.at_once_keys) if now else body
    after = state
    if now:
        check = rules.check_at_once(view, player, now)
        if not check.ok:
            refused[kind] += 1
            return state, None
        after = archive.stored(rules.act(state, player, check.orders, Rng(seed + "/now")).state)
        view = rules.view(after, player)
    check = rules.check_orders(view, player, rest)
    if not check.ok:
        refused[kind] += 1
        return state, None
    return after, check.orders


def play(rules, seats: dict[str, str], seed: str, rounds: int, refused: Counter) -> dict:
    state = archive.stored(rules.setup(options_of(rules), tuple(seats), Rng(f"{seed}/setup")))
    for n in range(rounds * 16):
        if state["phase"] == "over" or state.get("round", 0) > rounds:
            break
        phase = rules.phase(state)
        pending = {}
        for player in phase.deciders:
            state, canonical = orders_of(rules, state, player, seats[player], f"{seed}/{phase.id}/{player}", refused)
            if canonical is not None:
                pending[player] = canonical
        orders = {p: pending.get(p) or rules.default_orders(rules.view(state, p), p) for p in phase.deciders}
        state = archive.stored(rules.resolve(state, orders, Rng(f"{seed}/{n}/{phase.id}")).state)
    return state


def measure(name: str, games: int, against: str, rounds: int) -> None:
    rules, count = SETUPS[name]
    wins, points, seats_held, refused = Counter(), Counter(), Counter(), Counter()
    ended = 0
    start = time.perf_counter()
    for game in range(games):
        seats = {p: "computer" if (i + game) % 2 == 0 else against for i, p in enumerate(NAMES[:count])}
        state = play(rules, seats, f"bench-{name}-{game}", 8 if rules is ENGLAND else rounds, refused)
        owners = state.get("family_players") or {}
        seats_held.update(seats.values())
        ended += state["phase"] == "over"
        for winner in state.get("winners") or []:
            wins[seats[winner]] += 1
        for family, info in rules.view(state, None)["families"].items():
            points[seats[owners.get(family, family)]] += info["vp"]
    minutes = (time.perf_counter() - start) / 60
    all_wins, all_points, all_seats = sum(wins.values()), sum(points.values()), sum(seats_held.values())

    def share(c: Counter, total: int, kind: str) -> str:
        return f"{100 * c[kind] / total:5.1f}%" if total else "    -"
    print(f"{name:4} {games:5} {ended:5}  {share(seats_held, all_seats, 'computer')}  "
          f"{share(wins, all_wins, 'computer')} ({wins['computer']}/{all_wins})  "
          f"{share(points, all_points, 'computer')} ({points['computer']}/{all_points})  "
          f"{refused['computer']:3}  {games / minutes if minutes else 0:7.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games a set-up (default 20)")
    parser.add_argument("--against", choices=("random", "default"), default="random")
    parser.add_argument("--setup", action="append", choices=sorted(SETUPS), help="fr3..fr6, en2..en4 (default all)")
    parser.add_argument("--rounds", type=int, default=6, help="France's bound of rounds (default 6)")
    args = parser.parse_args()
    print(f"computer players against {args.against}-order players, in turn around the table")
    print("set  games ended  seats    wins of the computers   VP of the computers   refused  games/min")
    for name in args.setup or list(SETUPS):
        measure(name, args.games, args.against, args.rounds)


if __name__ == "__main__":
    main()
