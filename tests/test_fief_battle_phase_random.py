"""Random Battle Phases through the rules: whatever the position, the orders a view allows and
the dice, the phase resolves (no exception), tells every declared battle (fought or not, and
why), keeps at most 2 siege engine markers per family and leaves no captive without its jailer."""
from __future__ import annotations

import functools
import json
import random

import pytest

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

PLAYERS = ["ann", "bob", "cid"]
TOWNS = ["Tours", "Poitiers", "Limoges", "Orléans"]
LORDS = ["Eric", "Gauvain", "Blanche", "Henry", "Arthur", "Quentin"]


def random_position(r: random.Random) -> dict:
    lords, units, towns = {}, {}, {}
    for i, name in enumerate(LORDS):
        lords[name] = {"family": PLAYERS[i % 3], "at": r.choice(TOWNS)}
    for town in TOWNS:
        here = {}
        for fam in PLAYERS:
            if r.random() < 0.6:
                here[fam] = {k: r.randint(0, 3) for k in ("man_at_arms", "archer", "knight")}
                here[fam]["bombard"] = r.randint(0, 1)
        units[town] = here
        present = sorted({f for f in here} | {lo["family"] for lo in lords.values() if lo["at"] == town})
        spec = {"mills": r.randint(0, 2)}
        if present:
            spec["controller"] = r.choice(present)
            spec["fortress"] = r.choice([None, "stronghold", "city"])
            others = [f for f in present if f != spec["controller"]]
            if spec["fortress"] and others and r.random() < 0.4:
                spec["besieged_by"] = {others[0]: r.randint(1, 2)}
        towns[town] = spec
    policies = {}
    for fam in PLAYERS:
        others = [p for p in PLAYERS if p != fam]
        policies[fam] = {"coalition": {"join": {r.choice(others): "anywhere"},
                                       "accept": {r.choice(others): "anywhere"}},
                         "battle_plan": {"surrender": r.choice(["never", {"outnumbered": 3}]),
                                         "besiege_if_stopped": r.random() < 0.5,
                                         "stop": {"when": r.choice(["never", {"after_round": 1}])}}}
    return {"players": PLAYERS, "phase": "battle", "lords": lords, "units": units, "towns": towns,
            "policies": policies}


def mail(view: dict, me: str, r: random.Random) -> str:
    lines = ["orders:"]
    for town, info in view["towns"].items():
        if not (info["forces"].get(me) or {}).get("lords"):
            continue
        foes = [f for f, v in info["forces"].items() if f != me and (v["lords"] or v["units"])]
        army = any(n for kind, n in info["forces"][me]["units"].items() if kind != "bombard")   # 5.1
        if foes and army and r.random() < 0.7:
            lines += [f"  - attack: {r.choice(foes)}", f"    in: {town}"]
        if info["fortress"] and info["controller"] not in (None, me) and r.random() < 0.5:
            lines.append(f"  - siege: {town}")
    for town, info in view["towns"].items():
        if info["mills"] and r.random() < 0.3:
            lines.append(f"  - plunder: {town}")
    return "\n".join(lines) + "\n" if len(lines) > 1 else "orders: []\n"


@pytest.mark.parametrize("seed", range(60))
def test_random_battle_phases_resolve(seed: int) -> None:
    run_phase(seed)


def test_random_battle_phases_fight_battles() -> None:
    """The random positions are not all dead ends, nor the mails all refused (a refusal falls
    back to no battle): many battles are fought, and nearly every mail is accepted."""
    assert sum(run_phase(seed).count("battle_start") for seed in range(60)) >= 30
    refused = sum(run_phase(seed).count("mail refused") for seed in range(60))
    assert refused <= 0.1 * 60 * len(PLAYERS), refused


@functools.cache
def run_phase(seed: int) -> list[str]:
    """The kinds of the events of one seeded random Battle Phase, and "mail refused" once for
    each player's mail the checker refused."""
    r = random.Random(seed)
    state = build_position(random_position(r), "fief_france").to_json()
    orders, declared, refused = {}, 0, 0
    for player in PLAYERS:
        view = RULES.view(state, player)
        check = RULES.check_orders(view, player, load(mail(view, player, r)))
        # The only mistake these mails can hold: a siege beyond the 2 markers (6.4.1).
        assert all("siege engine markers" in e.hint for e in check.errors), check.errors
        orders[player] = check.orders if check.ok else RULES.default_orders(view, player)
        refused += not check.ok
        declared += len(orders[player]["battles"])
    result = RULES.resolve(state, orders, Rng(f"random battle phase {seed}"))
    kinds = [e.kind for e in result.events]
    assert kinds.count("battle_start") + kinds.count("battle_not_fought") == declared
    new = result.state
    json.dumps(new)
    for fam in PLAYERS:
        assert sum(1 for t in new["towns"].values() if fam in t["besiegers"]) <= 2
    for lord in new["lords"].values():
        if lord["captive_of"]:
            town = lord["location"]
            holders = {p["family"] for p in new["pawns"].values() if p["location"] == town}
            holders |= {lo["family"] for lo in new["lords"].values() if lo["location"] == town and not lo["captive_of"]}
            assert lord["captive_of"] in holders
    assert RULES.phase(new).id == "round-1/end-of-round"
    return kinds + ["mail refused"] * refused
