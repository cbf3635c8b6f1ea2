"""Kard és Korona's computer player against random-order and default-order players: win shares
over whole games played on the rules engine (no judge: fast), one computer seat turning round
the table. Not run in the tests (tests/test_computer_kek.py asserts a conservative margin).

    python3 bench/computer_kek.py                     # 20 games a set-up, both opponents
    python3 bench/computer_kek.py --games 100 --opponent random
    python3 bench/computer_kek.py --opponent random --no-bids   # its armies alone, no bids

Prints per set-up (version, players, opponent): games, the computer's wins, its fair share
(games / players), its win rate, castles+ (the castles garrisoned by the computer at the end, less
the average other player's), how the games ended, and games per minute."""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.games import rules_for  # noqa: E402
from pbem.games.kard_es_korona.board import load_board  # noqa: E402
from pbem.games.kard_es_korona.computer import election, recruitment  # noqa: E402
from pbem.orders.yamlsafe import YamlProblem, load, sub_map  # noqa: E402
from pbem.rules.rng import Rng  # noqa: E402

RULES: Any = rules_for("kard_es_korona")
PLAYERS = ("anna", "bela", "csilla", "dani", "ede", "feri")
BOUND = 120
CASTLES = {version: set(load_board(version).castles()) for version in ("basic", "advanced")}
SETUPS: list[tuple[str, int, dict[str, str]]] = \
    [(version, count, {}) for version in ("basic", "advanced") for count in range(2, 7)] + \
    [("advanced", 4, {"movement": "traditional"})]


def opponent_orders(kind: str, view: Any, player: str, seed: str) -> Any:
    if kind == "default":
        return RULES.default_orders(view, player)
    try:
        document = sub_map(load(RULES.random_orders(view, player, Rng(seed))) or {},
                           lambda key: key not in RULES.at_once_keys)
    except YamlProblem:
        return RULES.default_orders(view, player)
    checked = RULES.check_orders(view, player, document)
    return checked.orders if checked.ok else RULES.default_orders(view, player)


def play(version: str, count: int, options: dict, seed: str, computer: str,
         opponent: str) -> tuple[Any, str, float]:
    """One game; returns its winners (None: no end within the bound), how it ended, and the
    castles the computer holds at the end less the average other player's (its armies' share)."""
    state = RULES.setup({"version": version, "provinces": "default", "cavalry_limit": True,
                         "rules_version": RULES.rules_version, **options}, list(PLAYERS[:count]), Rng(f"{seed}/setup"))
    for _ in range(BOUND):
        if RULES.result(state) is not None:
            break
        phase = RULES.phase(state)
        orders = {}
        for player in phase.deciders:
            view = RULES.view(state, player)
            where = f"{seed}/{phase.id}/{player}"
            if player == computer:
                checked = RULES.check_orders(view, player, load(RULES.computer_orders(view, player, Rng(where))) or {})
                if not checked.ok:
                    raise SystemExit(f"refused: {phase.id} {player}: {[str(e) for e in checked.errors]}")
                orders[player] = checked.orders
            else:
                orders[player] = opponent_orders(opponent, view, player, where)
        state = RULES.resolve(state, orders, Rng(f"{seed}/{phase.id}")).state
    result = RULES.result(state)
    castles = {p: sum(1 for c, o in state["owner"].items() if o == p and state["armies"].get(c, {}).get("owner") == p
                      and c in CASTLES[version]) for p in state["players"]}
    lead = castles[computer] - sum(n for p, n in castles.items() if p != computer) / (count - 1)
    if result is None:
        return None, "no end", lead
    how = next((w for w in ("V.II", "V.IV", "V.V", "V.I") if w in result.text), "other")
    return result.winners, how, lead


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a set-up and opponent")
    parser.add_argument("--opponent", choices=("random", "default", "both"), default="both")
    parser.add_argument("--no-bids", action="store_true",
                        help="the computer bids nothing and keeps no reserve: its armies' play alone")
    args = parser.parse_args()
    if args.no_bids:
        election.bid = lambda view, player: 0
        recruitment.reserve = lambda view, player, money: 0
    opponents = ("random", "default") if args.opponent == "both" else (args.opponent,)
    print(f"{'set-up':<26} {'opponent':<8} {'games':>5} {'wins':>5} {'share':>6} {'rate':>6}  "
          f"{'castles+':>8}  {'ends (V.II offices, V.IV castles, V.V last year, V.I alone)':<44} games/min")
    totals: Counter[tuple[str, str]] = Counter()
    for opponent in opponents:
        for version, count, options in SETUPS:
            start = time.perf_counter()
            wins, ends, lead = 0, Counter[str](), 0.0
            for n in range(args.games):
                computer = PLAYERS[n % count]
                winners, how, ahead = play(version, count, options, f"bench-{n}", computer, opponent)
                lead += ahead / args.games
                wins += computer in (winners or ())
                ends[how] += 1
            minutes = (time.perf_counter() - start) / 60
            name = f"{version} {count}" + (" traditional" if options else "")
            share = args.games / count
            totals[opponent, "wins"] += wins
            totals[opponent, "share"] += share
            totals[opponent, "games"] += args.games
            endings = ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
            print(f"{name:<26} {opponent:<8} {args.games:>5} {wins:>5} {share:>6.1f} {wins / args.games:>6.0%}  "
                  f"{lead:>+8.1f}  {endings:<44} {args.games / minutes:.0f}")
    for opponent in opponents:
        games, wins, share = totals[opponent, "games"], totals[opponent, "wins"], totals[opponent, "share"]
        print(f"all against {opponent}: {wins} wins in {games} games, fair share {share:.1f} "
              f"({wins / games:.0%} against {share / games:.0%})")


if __name__ == "__main__":
    main()
