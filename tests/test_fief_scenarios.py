"""Fief: France scenario tests: every tests/scenarios/fief_france/*.yaml file is one rulebook
example (or one rule), played through the real rules (pbem.games.fief.france:RULES).

Scenario format (YAML):

    title: Fief Title Purchase (4.4)           # what the scenario shows
    source: "4.4 example, line 737"            # where the rulebook says so
    position: {...}                            # the starting position: see pbem/games/fief/positions.py
    dice: {d6: [3, 5], battle: [2, 0]}         # optional fixed dice, used in this order (a step may
                                               # give its own `dice:`)
    steps:                                     # one or more phases, resolved one after the other
      - orders:                                # per player: the order document exactly as mailed
          marie: |                             # (without the envelope game/player/secret/phase)
            orders:
              - title: Bretagne
                lord: Quentin
        expect:
          phase_before: round-1/purchase       # optional: the phase id the orders answer
          errors:                              # the mail is rejected; each fragment must appear in
            cedric: ["line 4", "at most 4"]    # the errors (their text includes the line number)
          events:                              # each must match one event: kind, text fragment(s),
            - {kind: title_bought, text: "4 deniers", audience: all}   # audience all|gm|[players]
          no_events: [purchase_failed]         # kinds that must not occur
          phase: round-1/movement              # the phase id after resolution
          state: {families.marie.deniers: 1}   # dotted paths into the state's JSON
          forces: {Tours: {cedric: {man_at_arms: 6, knight: 5}}}   # unit pawns by town/family/kind
          views:                               # what one player (or `gm`) sees: dotted paths
            olivier: {towns.Tours.forces.cedric.units: {hidden: 11}}
        resolve: true                          # false: only check the orders (default true)

A `battle:` scenario (issue 4) fights one battle with the battle engine alone (resolve_battle),
no phase around it: `battle:` holds a BattleSetup's fields (town, attacker, defender, sides, ...:
battle_plan.setup_from_data), `plans:` each family's BattlePlan fields (battle_plan.plan_from_data),
`dice:` the faces in order (every one must be used), and `expect:` may add
`outcome: {winner: attacker, end: only_lords, rounds: 1, captives: [[Gauvain, philippe]]}`.

Top-level `orders:` and `expect:` are a shorthand for a single step. A step whose phase takes
no orders is resolved with none. Players who must order but sent nothing get their default
orders, as the judge would give them at the deadline.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.games.fief.battle import resolve_battle
from pbem.games.fief.battle_dice import BATTLE_DIE_FACES
from pbem.games.fief.battle_plan import plan_from_data, setup_from_data
from pbem.games.fief.board import load_board
from pbem.games.fief.france import RULES
from pbem.games.fief.positions import build_position
from pbem.orders.yamlsafe import load
from pbem.rules.api import Audience
from pbem.rules.rng import Rng

HERE = Path(__file__).parent / "scenarios" / "fief_france"
FILES = sorted(HERE.glob("*.yaml"))


class FixedRng(Rng):
    """Dice from the scenario's list; shuffles and choices from a fixed seed."""

    def __init__(self, dice: dict[str, list[int]] | None):
        super().__init__("scenario")
        self.dice = {k: list(v) for k, v in (dice or {}).items()}

    def _next(self, kind: str, why: str) -> int:
        left = self.dice.get(kind) or []
        assert left, f"the scenario needs one more {kind} roll ({why}): add it under dice.{kind}"
        value = int(left.pop(0))
        self.rolls.append((why, value))
        return value

    def d6(self, why: str = "d6") -> int:
        return self._next("d6", why)

    def die(self, faces, why: str = "die"):
        assert tuple(faces) == BATTLE_DIE_FACES, f"a die with faces {faces} ({why}): only battle dice are scripted"
        return self._next("battle", why)


def dig(data: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(data, list):
            data = data[int(part)]
        else:
            assert isinstance(data, dict) and part in data, f"no {part!r} in {path}"
            data = data[part]
    return data


def audience_matches(aud: Audience, want: Any) -> bool:
    if want in ("all", "gm"):
        return aud.kind == want
    return aud.kind == "players" and sorted(aud.players) == sorted(want)


def event_matches(event, want: dict) -> bool:
    if "kind" in want and event.kind != want["kind"]:
        return False
    texts = want.get("text", [])
    for fragment in [texts] if isinstance(texts, str) else texts:
        if fragment not in event.text:
            return False
    if "audience" in want and not audience_matches(event.audience, want["audience"]):
        return False
    return all(event.data.get(k) == v for k, v in (want.get("data") or {}).items())


def unit_counts(state: dict) -> dict:
    counts: dict = {}
    for pawn in state["pawns"].values():
        counts.setdefault(pawn["location"], {}).setdefault(pawn["family"], Counter())[pawn["kind"]] += 1
    return counts


def run_step(state: dict, step: dict, dice: dict | None) -> dict:
    expect = step.get("expect") or {}
    phase = RULES.phase(state)
    if "phase_before" in expect:
        assert phase.id == expect["phase_before"]
    orders: dict[str, Any] = {}
    want_errors = expect.get("errors") or {}
    for player, text in (step.get("orders") or {}).items():
        view = RULES.view(state, player)
        check = RULES.check_orders(view, player, load(text))
        if player in want_errors:
            assert not check.ok, f"{player}'s orders should be rejected"
            messages = " | ".join(str(e) for e in check.errors)
            for fragment in want_errors[player]:
                assert fragment in messages, f"{fragment!r} not in {messages!r}"
            continue
        assert check.ok, f"{player}'s orders rejected: " + " | ".join(str(e) for e in check.errors)
        orders[player] = check.orders
    for player in want_errors:
        assert player in (step.get("orders") or {}), f"errors expected from {player}, who sent nothing"
    if step.get("resolve", True) is False:
        return state
    for player in phase.deciders:
        if player not in orders:
            orders[player] = RULES.default_orders(RULES.view(state, player), player)
    before = repr(state)
    resolution = RULES.resolve(state, orders, FixedRng(dice))
    assert repr(state) == before, "resolve changed its input state"
    events = list(resolution.events)
    told = "\n".join(f"  [{e.kind}] {e.text} ({e.audience.to_json()})" for e in events)
    for want in expect.get("events") or []:
        assert any(event_matches(e, want) for e in events), f"no event like {want} among\n{told}"
    for kind in expect.get("no_events") or []:
        assert not any(e.kind == kind for e in events), f"unexpected {kind} event among\n{told}"
    new = resolution.state
    if "phase" in expect:
        assert RULES.phase(new).id == expect["phase"]
    for path, value in (expect.get("state") or {}).items():
        assert dig(new, path) == value, f"{path}: {dig(new, path)!r} != {value!r}\n{told}"
    counts = unit_counts(new)
    for town, families in (expect.get("forces") or {}).items():
        for family, kinds in families.items():
            have = dict(counts.get(town, {}).get(family, Counter()))
            assert have == {k: v for k, v in kinds.items() if v}, f"{town}/{family}: {have} != {kinds}\n{told}"
    for who, paths in (expect.get("views") or {}).items():
        view = RULES.view(new, None if who == "gm" else who)
        for path, value in paths.items():
            assert dig(view, path) == value, f"{who} sees {path} = {dig(view, path)!r}, not {value!r}"
    return new


def run_battle(scenario: dict) -> None:
    """A `battle:` scenario: see the module docstring."""
    state = build_position(scenario["position"])
    board = load_board("fief_france", state.options.get("board", "board"))
    plans = {fam: plan_from_data(plan) for fam, plan in (scenario.get("plans") or {}).items()}
    rng = FixedRng(scenario.get("dice"))
    outcome = resolve_battle(state, board, setup_from_data(scenario["battle"]), plans, rng)
    told = "\n".join(f"  [{e.kind}] {e.text}" for e in outcome.events)
    assert not any(rng.dice.values()), f"dice left unused: {rng.dice}\n{told}"
    expect = scenario.get("expect") or {}
    for key, value in (expect.get("outcome") or {}).items():
        got = getattr(outcome, key)
        got = [list(c) for c in got] if key == "captives" else got
        assert got == value, f"outcome {key}: {got!r} != {value!r}\n{told}"
    for want in expect.get("events") or []:
        assert any(event_matches(e, want) for e in outcome.events), f"no event like {want} among\n{told}"
    for kind in expect.get("no_events") or []:
        assert not any(e.kind == kind for e in outcome.events), f"unexpected {kind} event among\n{told}"
    data = state.to_json()
    for path, value in (expect.get("state") or {}).items():
        assert dig(data, path) == value, f"{path}: {dig(data, path)!r} != {value!r}\n{told}"
    counts = unit_counts(data)
    for town, families in (expect.get("forces") or {}).items():
        for family, kinds in families.items():
            have = dict(counts.get(town, {}).get(family, Counter()))
            assert have == {k: v for k, v in kinds.items() if v}, f"{town}/{family}: {have} != {kinds}\n{told}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
    if "battle" in scenario:
        run_battle(scenario)
        return
    state = build_position(scenario["position"]).to_json()
    steps = scenario.get("steps") or [{"orders": scenario.get("orders"), "expect": scenario.get("expect"),
                                       "resolve": scenario.get("resolve", True)}]
    for step in steps:
        state = run_step(state, step, step.get("dice", scenario.get("dice")))


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 10
