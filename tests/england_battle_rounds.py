"""Fief: England's battle-round scenarios (tests/scenarios/fief_england/*.yaml with a `rounds:`
key), run on the pure round functions (pbem/games/fief_england/battle/rounds.py) with fixed
dice - the rulebook's worked examples of 7.2-7.5. tests/test_fief_scenarios.py hands such a
file here.

    title: "..."
    source: "E 7.2 Ex 7-2 (l.490-494)"
    forces:                                  # each side: unit kinds by count, nobles by name
      attacker: {units: {trebuchet: 2, man_at_arms: 1}, nobles: [Edward]}
      defender: {units: {archer: 3}, nobles: [{name: Anabel, strength: 0}]}
    setup: {fortress: city, passage: no, sally: no, cavalcade: no, grail: no,
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

A scenario with an `england_battle:` key fights one battle through the core's engine, which
England's edition hands its battle (the `battle` hook) - captives, spoils, control:

    england_battle:
      position: {players: [...], lords: {...}, towns: {...}}   # the core's position format
      units: {London: {dave: {trebuchet: 2, man_at_arms: 1}}}  # any pawn kind (hired, given ones too)
      battle: {town: London, attacker: dave, defender: george}
      plans: {dave: {losses: [archer], aim_at: [Henri]}}        # battle_plan data, England's words too
    dice: {battle: [2, 1]}
    expect:
      outcome: {winner: attacker, end: victory, rounds: 1, captives: [[Henri, dave]]}
      events: [{kind: engines_taken, text: "takes over 1 bombard"}]
      forces: {London: {dave: {bombard: 2}}}
      state: {towns.London.controller: dave}
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.battle.engine import resolve_battle
from pbem.games.fief.battle.plan import setup_from_data
from pbem.games.fief.battle.plan_orders import plan_for
from pbem.games.fief.board import load_board
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import Pawn
from pbem.games.fief_england.battle.numbers import england_numbers
from pbem.games.fief_england.battle.plan import PLAN_WORDS
from pbem.rules.rng import Rng
from pbem.games.fief_england.battle.rounds import SIDES, Force, Noble, Setup, battle_round


def _force(data: dict) -> Force:
    nobles = [Noble(n) if isinstance(n, str) else Noble(str(n["name"]), int(n.get("strength", 1)))
              for n in data.get("nobles") or []]
    return Force({str(k): int(v) for k, v in (data.get("units") or {}).items() if v}, nobles)


def _setup(data: dict) -> Setup:
    return Setup(fortress=data.get("fortress"), passage=bool(data.get("passage")), sally=bool(data.get("sally")),
                 cavalcade=bool(data.get("cavalcade")), grail=bool(data.get("grail")),
                 aims=dict(data.get("aims") or {}),
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
        for got, want in zip(steps, expect["steps"], strict=True):
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


class _Dice(Rng):
    def __init__(self, name: str, faces: list[int]):
        super().__init__("england battle scenario")
        self.name, self.faces = name, list(faces)

    def die(self, faces, why: str = "die"):
        assert tuple(faces) == england_numbers().faces, f"{self.name}: not the battle die ({why})"
        assert self.faces, f"{self.name}: one more battle die is rolled ({why}): add it under dice.battle"
        return int(self.faces.pop(0))


def run_engine_battle(name: str, scenario: dict[str, Any]) -> None:
    spec = scenario["england_battle"]
    state = build_position(spec["position"], "fief_england")
    for town, families in (spec.get("units") or {}).items():
        for family, kinds in families.items():
            for kind, n in kinds.items():
                for _ in range(int(n)):
                    pid = state.new_pawn_id()
                    state.pawns[pid] = Pawn(pid, str(kind), str(family), str(town))
    setup = setup_from_data(spec["battle"])
    for family, plan in (spec.get("plans") or {}).items():
        state.families[family].policies["battle_plan"] = plan
    plans = {f: plan_for(state.families[f].policies, setup.town, PLAN_WORDS)
             for f in setup.attacker_side + setup.defender_side}
    dice = _Dice(name, (scenario.get("dice") or {}).get("battle") or [])
    outcome = resolve_battle(state, load_board("fief_england"), setup, plans, dice)
    told = "\n".join(f"  [{e.kind}] {e.text}" for e in outcome.events)
    assert not dice.faces, f"{name}: battle dice never rolled: {dice.faces}\n{told}"
    expect = scenario.get("expect") or {}
    for key, value in (expect.get("outcome") or {}).items():
        got = getattr(outcome, key)
        got = [list(c) for c in got] if key == "captives" else got
        assert got == value, f"{name}: outcome {key}: {got!r} != {value!r}\n{told}"
    for want in expect.get("events") or []:
        assert any(e.kind == want["kind"] and want.get("text", "") in e.text for e in outcome.events), \
            f"{name}: no event like {want}\n{told}"
    for town, families in (expect.get("forces") or {}).items():
        for family, kinds in families.items():
            have: dict[str, int] = {}
            for p in state.pawns.values():
                if p.location == town and p.family == family:
                    have[p.kind] = have.get(p.kind, 0) + 1
            assert have == {k: v for k, v in (kinds or {}).items() if v}, f"{name}: {town}/{family}: {have}\n{told}"
    data = state.to_json()
    for path, value in (expect.get("state") or {}).items():
        got: Any = data
        for part in path.split("."):
            got = got[part]
        assert got == value, f"{name}: {path}: {got!r} != {value!r}\n{told}"
