"""Many random movement phases: resolution never raises and leaves a consistent board.

Positions and orders are drawn from a seeded generator; every order set passes the order
checker first (as the judge would require; the generator writes legal mails only, and the
lords do move: counted over the run), then the whole phase is resolved through the game
rules. After it: no force is left on a road, every town's arrival list is exactly the families
present, an occupied town is controlled by one of them, and no lord or pawn moved more than it
may (5.1.1, G.4.1.1)."""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from pbem.games.fief.board import load_board
from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

BOARD = load_board("fief_france")
PLAYERS = ["ann", "bob", "cyd"]
LORDS = ["Aliénor", "Arthur", "Blanche", "Charles", "Eric", "Gauvin", "Henry", "Isabelle", "Othon"]
KINDS = ["man_at_arms", "archer", "knight", "bombard"]


def random_position(rnd: random.Random) -> dict:
    towns = list(BOARD.towns)
    lords, units, control = {}, {}, {}
    for i, name in enumerate(rnd.sample(LORDS, 6)):
        family = PLAYERS[i % 3]
        at = "offshore" if rnd.random() < 0.1 else rnd.choice(towns)
        lords[name] = {"family": family, "at": at}
        if rnd.random() < 0.1:
            lords[name]["titles"] = ["darc"]
        kinds = {k: rnd.randint(0, 2) for k in rnd.sample(KINDS, 2)}
        units.setdefault(at, {}).setdefault(family, {})
        for k, n in kinds.items():
            units[at][family][k] = units[at][family].get(k, 0) + n
    for town, fams in units.items():
        present = [f for f, ks in fams.items() if any(ks.values())]
        present += [lo["family"] for lo in lords.values() if lo["at"] == town]
        present = list(dict.fromkeys(present))
        if town != "offshore" and len(present) > 1:
            control[town] = {"controller": present[0]}
    policies = {p: {"safe_passage": {"allow": [], "refuse": [], "others": rnd.choice(["allow", "refuse"])}}
                for p in PLAYERS}
    effects = []
    if rnd.random() < 0.3:
        effects.append({"card": rnd.choice(["plague", "bad_weather"]), "target": str(rnd.randint(1, 5))})
    return {"players": PLAYERS, "phase": "movement", "lords": lords, "units": units, "towns": control,
            "policies": policies, "effects": effects, "options": {"fog_of_war": rnd.random() < 0.3}}


def random_orders(rnd: random.Random, state: dict, player: str) -> str:
    lines = ["orders:"]
    for name, lord in state["lords"].items():
        if lord["family"] != player or rnd.random() < 0.2:
            continue
        here = lord["location"]
        path = []
        for _ in range(rnd.randint(1, 3 if lord.get("political") == "darc" else 2)):
            options = list(BOARD.harbors) if here == "offshore" else list(BOARD.neighbours(here))
            if here != "offshore" and BOARD.is_harbor(here) and rnd.random() < 0.2:
                options.append("offshore")
            here = rnd.choice(options)
            path.append(here)
            if here == "offshore":
                break
        with_ = rnd.choice(["all", "none", "one"])
        if with_ == "one":   # one unit of a kind the family has where the lord starts
            kinds = sorted({p["kind"] for p in state["pawns"].values()
                            if p["family"] == player and p["location"] == lord["location"]})
            with_ = f"{{{kinds[0]}: 1}}" if kinds else "none"
        lines += [f"  - move: {name}", f"    with: {with_}",
                  f"    path: [{', '.join(path)}]", f"    if_refused: {rnd.choice(['back', 'stay'])}"]
    return "\n".join(lines) + "\n"


def check_consistent(state: FiefState) -> None:
    present: dict[str, set[str]] = {}
    for lord in state.lords.values():
        if lord.location and not lord.captive_of:
            present.setdefault(lord.location, set()).add(lord.family)
        assert lord.location is None or lord.location == "offshore" or lord.location in BOARD.towns
        assert lord.steps <= 3
    for pawn in state.pawns.values():
        present.setdefault(pawn.location, set()).add(pawn.family)
        assert pawn.location == "offshore" or pawn.location in BOARD.towns
        assert pawn.steps <= 3
    for name, town in state.towns.items():
        here = present.get(name, set())
        assert set(town.arrivals) == here, f"{name}: arrivals {town.arrivals} but present {here}"
        if here:
            assert town.controller in here, f"{name}: controller {town.controller} not among {here}"


@functools.cache
def run_movement_phase(seed: int) -> Counter:
    """Resolves one seeded random movement phase, checking the board before and after;
    returns what happened (mails written and accepted, orders given, lords moved)."""
    rnd = random.Random(seed)
    tally: Counter = Counter()
    state = build_position(random_position(rnd), "fief_france").to_json()
    check_consistent(FiefState.from_json(state))
    orders = {}
    for player in RULES.phase(state).deciders:
        check = RULES.check_orders(RULES.view(state, player), player, load(random_orders(rnd, state, player)))
        tally["mails"] += 1
        tally["accepted"] += check.ok
        orders[player] = check.orders if check.ok else RULES.default_orders(RULES.view(state, player), player)
        tally["moves ordered"] += len(orders[player]["moves"])
    resolution = RULES.resolve(state, orders, Rng(f"random-{seed}"))
    after = FiefState.from_json(resolution.state)
    check_consistent(after)
    assert not [l for l in after.lords.values() if l.location == "offshore" and l.name in state["lords"]
                and state["lords"][l.name]["location"] == "offshore"], "forces at sea must land (5.3)"
    for event in resolution.events:
        assert event.text and event.kind
    tally["lords moved"] += sum(1 for name, lord in after.lords.items()
                                if name in state["lords"] and lord.location != state["lords"][name]["location"])
    return tally


SEEDS = range(60)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_movement_phase(seed: int) -> None:
    tally = run_movement_phase(seed)
    assert tally["accepted"] == tally["mails"], tally   # the generator writes legal mails only


def test_the_random_movement_phases_move_armies() -> None:
    """Not vacuous: a checker refusing every mail (each refusal falls back to holding) would
    pass the test above with nothing ever moving."""
    total = sum((run_movement_phase(seed) for seed in SEEDS), Counter())
    assert total["mails"] == 180 and total["lords moved"] >= 150, total   # 243 moved today
