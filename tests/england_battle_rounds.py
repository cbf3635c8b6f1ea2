"""Fief: England's battle-round scenarios (tests/scenarios/fief_england/*.yaml with a `rounds:`
key), run on the pure round functions (pbem/games/fief_england/battle/rounds.py) with fixed
dice - the rulebook's worked examples of 7.2-7.5. tests/test_fief_scenarios.py hands such a
file here.

    title: "..."
    source: "E 7.2 Ex 7-2 (l.490-494)"
    forces:                                  # each side: unit kinds by count, nobles by name
      attacker: {units: {trebuchet: 2, man_at_arms: 1}, nobles: [Edward]}
      defender: {units: {archer: 3}, nobles: [{name: Anabel, strength: 0}]}
    setup: {fortress: city, passage: no, sally: no, cavalcade: no,
            aims: {attacker: Anabel}, excalibur: {defender: yes},
            orders: {defender: [archer, man_at_arms]}, noble_orders: {defender: [Anabel]}}
    dice: {battle: [2, 1, 1]}                # hits shown by each battle die, in rolling order
    rounds: 1                                # battle rounds to fight (stops early when a side has no troop)
    expect:
      steps:                                 # every step of every round, in order
        - {name: trebuchets, faces: {attacker: [2, 1]}, hits: {attacker: 4},
           losses: {defender: {archer: 3, man_at_arms: 1}}, silent: {defender: "no man-at-arms"}}
      forces: {attacker: {trebuchet: 2}, defender: {}}   # units left
      nobles: {defender: [Anabel]}           # nobles left
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief_england.battle.numbers import england_numbers
from pbem.games.fief_england.battle.rounds import SIDES, Force, Noble, Setup, battle_round


def _force(data: dict) -> Force:
    nobles = [Noble(n) if isinstance(n, str) else Noble(str(n["name"]), int(n.get("strength", 1)))
              for n in data.get("nobles") or []]
    return Force({str(k): int(v) for k, v in (data.get("units") or {}).items() if v}, nobles)


def _setup(data: dict) -> Setup:
    return Setup(fortress=data.get("fortress"), passage=bool(data.get("passage")), sally=bool(data.get("sally")),
                 cavalcade=bool(data.get("cavalcade")), aims=dict(data.get("aims") or {}),
                 excalibur={k: bool(v) for k, v in (data.get("excalibur") or {}).items()},
                 orders={k: tuple(v) for k, v in (data.get("orders") or {}).items()},
                 noble_orders={k: tuple(v) for k, v in (data.get("noble_orders") or {}).items()})


def run_rounds(name: str, scenario: dict[str, Any]) -> None:
    numbers = england_numbers()
    faces = list((scenario.get("dice") or {}).get("battle") or [])

    def dice(why: str) -> int:
        assert faces, f"{name}: one more battle die is rolled ({why}): add it under dice.battle"
        face = int(faces.pop(0))
        assert face in numbers.faces, f"{name}: {face} is no face of the battle die {numbers.faces}"
        return face

    forces = {side: _force((scenario.get("forces") or {}).get(side) or {}) for side in SIDES}
    setup = _setup(scenario.get("setup") or {})
    steps = []
    for _ in range(int(scenario.get("rounds", 1))):
        result = battle_round(forces, setup, numbers, dice)
        forces = result.forces
        steps += result.steps
        if any(not forces[s].troops(numbers) for s in SIDES):
            break
    assert not faces, f"{name}: battle dice never rolled: {faces}"
    expect = scenario.get("expect") or {}
    told = "\n".join(f"  {s}" for s in steps)
    if "steps" in expect:
        assert [s.name for s in steps] == [w["name"] for w in expect["steps"]], f"{name}: steps\n{told}"
        for got, want in zip(steps, expect["steps"]):
            for side in SIDES:
                volley = got.volleys.get(side)
                if side in (want.get("faces") or {}):
                    assert volley and volley.faces == want["faces"][side], f"{name}: {got.name} {side} faces\n{told}"
                if side in (want.get("hits") or {}):
                    assert volley and volley.hits == want["hits"][side], f"{name}: {got.name} {side} hits\n{told}"
                if side in (want.get("silent") or {}):
                    assert volley and volley.silent and want["silent"][side] in volley.silent, \
                        f"{name}: {got.name} {side} silent\n{told}"
                lost = got.losses.get(side)
                wanted = (want.get("losses") or {}).get(side) or {}
                assert lost is not None and lost.units == {k: v for k, v in wanted.items()
                                                           if k not in ("nobles", "exploded", "crew")}, \
                    f"{name}: {got.name} {side} losses {lost}\n{told}"
                assert lost.nobles == list(wanted.get("nobles") or []), f"{name}: {got.name} {side} nobles\n{told}"
                assert lost.exploded == int(wanted.get("exploded", 0)), f"{name}: {got.name} {side} exploded\n{told}"
                assert lost.crew == int(wanted.get("crew", 0)), f"{name}: {got.name} {side} crew\n{told}"
    for side, units in (expect.get("forces") or {}).items():
        assert forces[side].units == {k: v for k, v in (units or {}).items() if v}, f"{name}: {side} forces\n{told}"
    for side, nobles in (expect.get("nobles") or {}).items():
        assert [n.name for n in forces[side].nobles] == list(nobles or []), f"{name}: {side} nobles\n{told}"
