"""The battle engine (pbem/games/fief/battle/engine.py): its parts against the rulebook, and properties
over many random battles: a battle always ends, never removes more CP than the hits allow,
never takes a lord while a unit pawn other than a bombard of the side is left."""
from __future__ import annotations

import itertools
import random

import pytest

from pbem.games.fief.battle.engine import ROUND_STEPS, STEPS, opening_dice, resolve_battle
from pbem.games.fief.battle.dice import cancel_penalty, roll_dice
from pbem.games.fief.battle.end import END_CASES, END_TEXT
from pbem.games.fief.battle.forces import BattleError, base_dice, build_sides, combat_points, fighters
from pbem.games.fief.battle.losses import choose_losses
from pbem.games.fief.battle.plan import (DEFAULT_PLAN, Ambush, LOSS_KINDS, BattlePlan, BattleSetup, Condition,
                                         Continue, Stop, Switch, plan_from_data, setup_from_data)
from pbem.games.fief.board import load_board
from pbem.games.fief.positions import build_position
from pbem.rules.rng import Rng

BOARD = load_board("fief_france")


class Faces(Rng):
    """Battle dice from a list, for the few tests that need exact faces."""

    def __init__(self, faces: list[int]):
        super().__init__("faces")
        self.faces = list(faces)

    def die(self, faces, why: str = "die"):
        return self.faces.pop(0)


# -- the parts -------------------------------------------------------------------------------

def test_steps_follow_the_rulebook_order() -> None:
    assert [s[0] for s in STEPS] == ["6, 6.1, I.2", "G.4.2.5", "6, 6.3", "6.2", "6.2.1", "6.2.2, 6.4.4, I.1",
                                     "6.2.3"]
    assert [s[0] for s in ROUND_STEPS] == ["G.4.2.5", "6.2.3.1", "6.2.3.2-3", "6.2.3.4", "6.2.3.4", "6.2.3.5",
                                           "6.2.3.5"]
    assert {name for name, _w, _c in END_CASES} <= set(END_TEXT)


@pytest.mark.parametrize("cp,dice", [(0, 0), (1, 1), (6, 1), (7, 2), (12, 2), (13, 3), (40, 3)])
def test_dice_from_cp(cp: int, dice: int) -> None:
    state = _position({"Lyon": {"a": {"man_at_arms": 1}}}, {"Al": {"family": "a", "at": "Lyon"}})
    side = build_sides(state, BattleSetup("Lyon", "a", "b", ("a",), ("b",), defender_units=(),
                                          defender_lords=()))[0]
    assert base_dice(state, side, cp) == dice


def test_darc_adds_a_fourth_die_only() -> None:
    state = _position({}, {"Jeanne": {"family": "a", "at": "Lyon", "female": True, "titles": ["darc"]},
                           "Bo": {"family": "b", "at": "Lyon"}}, controller="b")
    side = build_sides(state, BattleSetup("Lyon", "a", "b", ("a",), ("b",)))[0]
    assert [base_dice(state, side, cp) for cp in (1, 7, 13, 30)] == [2, 3, 4, 4]


def test_penalty_cancelling_order() -> None:
    # 6.2.3.3: siege engines first, then bombards, then underground.
    p = cancel_penalty(2, 1, 1, False)
    assert (p.engines, p.bombards, p.underground, p.left) == (1, 1, 0, 0)
    p = cancel_penalty(2, 2, 1, True)
    assert (p.engines, p.bombards, p.underground, p.left) == (2, 0, 0, 0)   # the bombard may re-roll
    p = cancel_penalty(1, 0, 0, True)
    assert (p.underground, p.left) == (1, 0)
    p = cancel_penalty(2, 0, 0, False)
    assert p.left == 2


def test_bombard_rerolls_the_lowest_die_below_two() -> None:
    roll = roll_dice(Faces([2, 0, 1, 3]), 3, 1, "t")
    assert roll.faces == [2, 3, 1] and roll.rerolls == [(0, 3)]
    roll = roll_dice(Faces([2, 3]), 2, 1, "t")          # nothing below 2: no re-roll
    assert roll.faces == [2, 3] and roll.rerolls == []
    roll = roll_dice(Faces([0, 0, 1, 1]), 2, 3, "t")    # one re-roll per die at most
    assert roll.faces == [1, 1] and len(roll.rerolls) == 2


@pytest.mark.parametrize("engine,dice", [(None, 0), (1, 1), (2, 1)])
def test_marie_at_limoges_needs_her_siege(engine, dice) -> None:
    """6.4.1 example 2 and 6.4.3: Éric and 1 knight (4 CP) against a stronghold roll no die;
    a siege engine marker '1' cancels the penalty; '2' gives no more than that."""
    spec = {"players": ["marie", "philippe"], "phase": "battle",
            "lords": {"Eric": {"family": "marie", "at": "Limoges"}},
            "units": {"Limoges": {"marie": {"knight": 1}, "philippe": {"man_at_arms": 1}}},
            "towns": {"Limoges": {"controller": "philippe", "fortress": "stronghold",
                                  "besieged_by": {"marie": engine} if engine else {}}}}
    state = build_position(spec, "fief_france")
    before = state.to_json()
    got = opening_dice(state, BOARD, BattleSetup("Limoges", "marie", "philippe", ("marie",), ("philippe",)))
    assert got == {"attacker": dice, "defender": 1}
    assert state.to_json() == before


def test_condition() -> None:
    assert not Condition().holds(5, 1, 100)
    assert Condition(always=True).holds(0, 10, 0)
    assert Condition(after_round=2).holds(2, 5, 5) and not Condition(after_round=2).holds(1, 5, 5)
    assert Condition(cp_at_most=3).holds(1, 3, 0)
    assert Condition(outnumbered=2).holds(1, 3, 6) and not Condition(outnumbered=2).holds(1, 4, 7)
    with pytest.raises(ValueError, match="outnumbered"):
        Condition(outnumbered=0)


def test_plan_from_data_names_bad_keys() -> None:
    assert plan_from_data(None) is DEFAULT_PLAN
    plan = plan_from_data({"losses": ["knight"], "surrender": {"cp_at_most": 2}, "stop": {"when": "never"},
                           "switch": {"when": {"after_round": 1}, "accept": ["x"]},
                           "continue_fighting": {"until": "always"}, "scorched_earth": "yes"})
    assert plan.losses == ("knight",) and plan.surrender == Condition(cp_at_most=2)
    assert plan.stop == Stop(when=Condition(), accept=Stop().accept)
    assert plan.switch == Switch(Condition(after_round=1), ("x",))
    assert plan.continue_fighting == Continue(Condition(always=True))
    assert plan.scorched_earth is True
    with pytest.raises(ValueError, match="unknown key 'surender'"):
        plan_from_data({"surender": "always"})
    with pytest.raises(ValueError, match="unknown kind 'knights'"):
        plan_from_data({"losses": ["knights"]})
    with pytest.raises(ValueError, match="whole number"):
        plan_from_data({"surrender": {"cp_at_most": "many"}})
    assert setup_from_data({"town": "Lyon", "attacker": "a", "defender": "b"}).attacker_side == ("a",)


def test_bad_setups_are_named() -> None:
    state = _position({"Lyon": {"a": {"knight": 1}, "b": {"man_at_arms": 1}}}, {"Al": {"family": "a", "at": "Lyon"}},
                      controller="b")
    with pytest.raises(BattleError, match="leader first"):
        resolve_battle(state, BOARD, BattleSetup("Lyon", "a", "b", ("c", "a"), ("b",)), {}, Rng("x"))
    with pytest.raises(BattleError, match="both sides"):
        resolve_battle(state, BOARD, BattleSetup("Lyon", "a", "b", ("a", "c"), ("b", "c")), {}, Rng("x"))
    with pytest.raises(BattleError, match="only the defender may have confederates"):
        resolve_battle(state, BOARD, BattleSetup("Lyon", "a", "b", ("a", "c"), ("b",), cavalcade=True), {}, Rng("x"))
    with pytest.raises(BattleError, match="a troop cannot declare a battle"):
        resolve_battle(state, BOARD, BattleSetup("Lyon", "b", "a", ("b",), ("a",)), {}, Rng("x"))
    with pytest.raises(BattleError, match="not a pawn of the attacker side"):
        resolve_battle(state, BOARD, BattleSetup("Lyon", "a", "b", ("a",), ("b",), attacker_units=("p2",)), {},
                       Rng("x"))


# -- the loss choice against a brute force ------------------------------------------------------

def _brute_best(costs: list[int], hits: int) -> int:
    best = 0
    for r in range(len(costs) + 1):
        for combo in itertools.combinations(costs, r):
            if sum(combo) <= hits:
                best = max(best, sum(combo))
    return best


@pytest.mark.parametrize("seed", range(300))
def test_loss_choice_is_the_most_cp_the_hits_allow(seed: int) -> None:
    r = random.Random(seed)
    kinds = {k: r.randint(0, 3) for k in ("man_at_arms", "archer", "knight", "kings_knight", "queens_sergeant",
                                           "bombard")}
    lords = {f"L{i}": {"family": "b", "at": "Lyon", "female": r.random() < 0.3} for i in range(r.randint(0, 3))}
    lords["Al"] = {"family": "a", "at": "Lyon"}
    state = _position({"Lyon": {"b": kinds, "a": {"knight": 1}}}, lords, controller="b")
    side = build_sides(state, BattleSetup("Lyon", "a", "b", ("a",), ("b",)))[1]
    order = list(LOSS_KINDS)
    r.shuffle(order)
    plan = BattlePlan(losses=tuple(order[: r.randint(0, 5)]))
    hits = r.randint(0, 16)
    losses = choose_losses(state, side, hits, plan)
    pool = fighters(state, side)
    costs = [combat_points(state, state.pawns[p].kind) for p in pool]
    spent = sum(combat_points(state, state.pawns[p].kind) for p in losses.pawns)
    assert spent == _brute_best(costs, hits)                   # 6.2.3.4: as much CP as possible
    assert spent + len(losses.lords) + losses.wasted == hits   # every hit accounted for
    assert losses.cp(state) <= hits                            # never more CP than the hits
    if losses.lords:                                           # lords last
        assert set(losses.pawns) == set(pool)
    assert all(state.pawns[p].kind != "bombard" for p in losses.pawns)
    # The plan's priority among equal choices: no swap of a chosen pawn for an unchosen one
    # of a kind ranked before it, costing the same hits, would be allowed.
    rank = {k: i for i, k in enumerate(list(plan.losses) + [k for k in LOSS_KINDS if k not in plan.losses])}
    left = [p for p in pool if p not in losses.pawns]
    for out in losses.pawns:
        for keep in left:
            a, b = state.pawns[out], state.pawns[keep]
            if combat_points(state, a.kind) == combat_points(state, b.kind):
                assert rank[a.kind] <= rank[b.kind]


# -- many random battles ------------------------------------------------------------------------

FAMILIES = ["a", "b", "c", "d"]


def _random_condition(r: random.Random) -> dict | str:
    return r.choice(["never", "always", {"after_round": r.randint(1, 4)}, {"cp_at_most": r.randint(0, 5)},
                     {"outnumbered": r.randint(1, 3)}, "never", "never"])


def _random_battle(seed: int):
    r = random.Random(seed)
    town = r.choice(["Lyon", "Orléans", "Tours"])
    units: dict = {town: {}}
    lords: dict = {}
    n = 0
    for fam in FAMILIES:
        units[town][fam] = {k: r.choice([0, 0, 1, 2, 3]) for k in ("man_at_arms", "archer", "knight", "bombard")}
        if r.random() < 0.15:
            units[town][fam]["kings_knight" if r.random() < 0.5 else "queens_sergeant"] = r.randint(1, 2)
        for _ in range(r.randint(1 if fam == "a" else 0, 2)):
            n += 1
            female = r.random() < 0.4
            lords[f"Lord{n}"] = {"family": fam, "at": town, "female": female,
                                 "titles": (["darc"] if female and r.random() < 0.2 else [])}
    men = [n for n, lo in lords.items() if not lo["female"]]
    if men and r.random() < 0.3:       # a king, whose retinue knights follow 1.5.5 when he falls
        lords[r.choice(men)]["titles"] = ["king"]
    if not any(units[town]["b"].values()) and not any(lo["family"] == "b" for lo in lords.values()):
        units[town]["b"]["man_at_arms"] = 1
    others = FAMILIES[2:]
    r.shuffle(others)
    cut = r.randint(0, len(others))
    cavalcade = r.random() < 0.15
    a_side = ["a"] + ([] if cavalcade else others[:cut])
    d_side = ["b"] + others[cut:][: r.randint(0, 2)]
    controller = r.choice(d_side + ["a"] if r.random() < 0.2 else d_side)
    fortress = r.choice([None, "stronghold", "city"])
    besieged = {f: r.randint(1, 2) for f in a_side if fortress and r.random() < 0.3}
    options = {"fog_of_war": r.random() < 0.3, "adjusted_shooting": r.random() < 0.5}
    state = build_position({"players": FAMILIES, "phase": "battle", "options": options, "lords": lords,
                            "units": units,
                            "towns": {town: {"controller": controller, "fortress": fortress, "mills": r.randint(0, 2),
                                             "besieged_by": besieged}}}, "fief_france")
    plans = {}
    for fam in FAMILIES:
        kinds = list(LOSS_KINDS)
        r.shuffle(kinds)
        plans[fam] = plan_from_data({
            "losses": kinds[: r.randint(0, 5)], "surrender": _random_condition(r) if r.random() < 0.3 else "never",
            "stop": {"when": _random_condition(r), "accept": _random_condition(r)},
            "switch": {"when": _random_condition(r) if r.random() < 0.3 else "never",
                       "accept": [f for f in FAMILIES if r.random() < 0.5]},
            "continue_fighting": {"until": _random_condition(r) if r.random() < 0.3 else "never"},
            "take_captives": r.random() < 0.8, "captives_to": r.choice([None] + FAMILIES),
            "control_to": r.choice([None] + FAMILIES), "scorched_earth": r.random() < 0.5,
            "adjusted_shooting": r.random() < 0.5, "own_losses_last": r.random() < 0.5})
    ambush = (Ambush(r.choice(FAMILIES), r.choice(sorted(lords)), r.randint(0, 3)),) if r.random() < 0.15 else ()
    setup = BattleSetup(town, "a", "b", tuple(a_side), tuple(d_side), cavalcade=cavalcade,
                        underground=r.random() < 0.1, leaving_fortress=controller == "a" and r.random() < 0.5,
                        ambushes=ambush)
    return state, setup, plans


def _cp_of_lords(names: list[str], lords_before: dict) -> int:
    return sum(1 for n in names if not lords_before[n]["female"] or lords_before[n]["titled"])


@pytest.mark.parametrize("seed", range(400))
def test_random_battle_properties(seed: int) -> None:
    state, setup, plans = _random_battle(seed)
    lords_before = {n: {"female": lo.female, "titled": lo.titled} for n, lo in state.lords.items()}
    pieces = sum(1 for p in state.pawns.values() if p.location == setup.town) + len(state.lords)
    outcome = resolve_battle(state, BOARD, setup, plans, Rng(f"battle-{seed}"))
    # It ends, for a named reason, within the bound of 6.2.3.5: a round without a loss at most
    # twice in a row, and at most one round with a loss per pawn or lord.
    assert outcome.end in END_TEXT
    assert outcome.rounds <= 3 * (pieces + 1)
    assert outcome.events[-1].kind != "battle_round"
    for event in outcome.events:
        assert event.audience.kind == "all"                # battles are public
        if event.kind != "battle_losses":
            continue
        d = event.data
        spent = sum(combat_points(state, k) * n for k, n in d["pawns"].items())
        assert spent + len(d["lords"]) + d["wasted"] == d["hits"]
        assert spent + _cp_of_lords(d["lords"], lords_before) <= d["hits"]
    # The state holds together afterwards. (Lords last: test_lords_are_lost_last_in_every_round.)
    town = state.towns[setup.town]
    for name, jailer in outcome.captives:
        assert state.lords[name].captive_of == jailer
        assert any(p.family == jailer for p in state.pawns.values() if p.location == setup.town) or any(
            lo.family == jailer and lo.location == setup.town and not lo.captive_of for lo in state.lords.values())
    present = {p.family for p in state.pawns.values() if p.location == setup.town} | {
        lo.family for lo in state.lords.values() if lo.location == setup.town and not lo.captive_of}
    if not setup.cavalcade:
        assert town.controller is None or town.controller in present
    for fam in present & set(setup.attacker_side + setup.defender_side):
        kinds = {p.kind for p in state.pawns.values() if p.location == setup.town and p.family == fam}
        has_lord = any(lo.family == fam and lo.location == setup.town and not lo.captive_of
                       for lo in state.lords.values())
        assert kinds != {"bombard"} or has_lord, f"a lone bombard of {fam} survived"
    # Same seed, same battle.
    state2, setup2, plans2 = _random_battle(seed)
    again = resolve_battle(state2, BOARD, setup2, plans2, Rng(f"battle-{seed}"))
    assert [e.text for e in again.events] == [e.text for e in outcome.events]
    assert state2.to_json() == state.to_json()


@pytest.mark.parametrize("seed", range(150))
def test_lords_are_lost_last_in_every_round(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Watch every loss the engine applies: when a lord goes, no fighter of that side stays."""
    import pbem.games.fief.battle.engine as engine
    state, setup, plans = _random_battle(seed)
    seen: list[bool] = []
    real = engine.choose_losses

    def watched(st, side, hits, plan):
        losses = real(st, side, hits, plan)
        if losses.lords:
            seen.append(set(losses.pawns) == set(fighters(st, side)))
        return losses

    monkeypatch.setattr(engine, "choose_losses", watched)
    resolve_battle(state, BOARD, setup, plans, Rng(f"lords-{seed}"))
    assert all(seen)


def test_random_battles_cover_every_ending() -> None:
    ends = set()
    for seed in range(400):
        state, setup, plans = _random_battle(seed)
        ends.add(resolve_battle(state, BOARD, setup, plans, Rng(f"battle-{seed}")).end)
    assert ends >= {"side_wiped_out", "only_lords", "agreed_stop", "surrender", "attacker_no_lord",
                    "three_quiet_rounds", "lord_without_army"}, ends


# -- helpers ------------------------------------------------------------------------------------

def _position(units: dict, lords: dict, controller: str | None = None):
    spec = {"players": ["a", "b", "c"], "phase": "battle", "units": units, "lords": lords}
    if controller:
        spec["towns"] = {"Lyon": {"controller": controller}}
    return build_position(spec, "fief_france")
