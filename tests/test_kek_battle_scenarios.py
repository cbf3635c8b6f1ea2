"""Scenario tests of Kard és Korona's battles: each tests/scenarios/kard_es_korona/battle/*.yaml
is one worked example of the rulebook (or one ruling), fought by the battle package alone
(pbem.games.kard_es_korona.battle) with fixed dice.

Scenario format (YAML):

    title: what the scenario shows
    source: "l.238: where the rulebook says so (line of shared/rules/kard-es-korona.txt)"
    battle:                     # a Battle's fields (model.battle_from_data); a side's `plan:`
      county: Bihar             # may instead come from `orders:`
      castle: true
      attacker: {owner: marie, units: {cavalry: 2, infantry: 3}, warlord: Csák Máté}
      defender: {owner: royal, neutral: true, units: {archer: 1}}
    orders:                     # optional: an owner's order document as mailed; its `battle:`
      marie: |                  # part is read by orders.check_battle_plan and becomes the plan
        battle:                 # of that side for this county (orders.plan_for)
          priorities: [archer]
    counties: [Bihar, Zaránd]   # optional: the county names the orders may use
    dice: [4, 5, 6]             # the d6 faces in the order rolled; every one must be rolled
    expect:
      errors: {marie: ["line 2", "not a weapon type"]}   # the orders are rejected (no battle)
      result: {winner: attacker, clashes.0.losses.defender: {archer: 1}}   # dotted paths into
                                # BattleResult.to_data(); a list index is a number,
                                # one past the end reads as null
      lines: ["fragment of the report", ...]             # each in battle_lines' text

An `order:` scenario checks order.battle_order instead: `order: {battles: [...BattleEntry
fields], turn_order: [...], choices: {...}}` and `expect: {order: [ids]}`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.games.kard_es_korona.battle import (
    BattleEntry, battle_from_data, battle_lines, battle_order, check_battle_plan, resolve_battle,
)
from pbem.games.kard_es_korona.battle.orders import plan_data_for
from pbem.orders.reading import Problems
from pbem.orders.yamlsafe import line_of, load
from pbem.rules.rng import Rng

FOLDER = Path(__file__).parent / "scenarios" / "kard_es_korona" / "battle"
FILES = sorted(FOLDER.glob("*.yaml"))


class FixedDice(Rng):
    """d6 faces from the scenario's list, in order; any other draw is a mistake."""

    def __init__(self, faces: list[int]):
        super().__init__("scenario")
        self.faces = [int(f) for f in faces]
        self.used = 0

    def d6(self, why: str = "d6") -> int:
        assert self.used < len(self.faces), f"the scenario needs one more d6 ({why}): add it to `dice:`"
        value = self.faces[self.used]
        self.used += 1
        self.rolls.append((why, value))
        return value

    def die(self, faces, why: str = "die"):
        raise AssertionError(f"a battle rolls only d6, not {why}")

    choice = shuffle = token = die


def dig(data: Any, path: str) -> Any:
    for part in str(path).split("."):
        if isinstance(data, list):
            data = data[int(part)] if int(part) < len(data) else None
        else:
            assert isinstance(data, dict) and part in data, f"no {part!r} in {path} (have {list(data or {})})"
            data = data[part]
    return data


def read_orders(scenario: dict) -> tuple[dict[str, Any], dict[str, str]]:
    """Each owner's checked `battle:` data, and the errors of rejected ones (joined)."""
    plans, errors = {}, {}
    for owner, text in (scenario.get("orders") or {}).items():
        document = load(text)
        problems = Problems()
        data = check_battle_plan(document.get("battle"), line_of(document, "battle"), problems,
                                 scenario.get("counties") or [])
        if problems:
            errors[owner] = " | ".join(map(str, problems))
        else:
            plans[owner] = data
    return plans, errors


def run_battle(scenario: dict) -> None:
    expect = scenario.get("expect") or {}
    plans, errors = read_orders(scenario)
    for owner, fragments in (expect.get("errors") or {}).items():
        assert owner in errors, f"{owner}'s orders should be rejected"
        for fragment in fragments:
            assert fragment in errors[owner], f"{fragment!r} not in {errors[owner]!r}"
    unexpected = set(errors) - set(expect.get("errors") or {})
    assert not unexpected, f"orders rejected: {errors}"
    if "battle" not in scenario:
        return
    data = scenario["battle"]
    for side in ("attacker", "defender"):
        owner = data[side]["owner"]
        if owner in plans:
            data[side]["plan"] = plan_data_for(plans[owner], data["county"])
    battle = battle_from_data(data)
    dice = FixedDice(scenario.get("dice") or [])
    result = resolve_battle(battle, dice)
    assert dice.used == len(dice.faces), f"{len(dice.faces) - dice.used} dice of `dice:` never rolled"
    lines = battle_lines(battle, result)
    told = "\n".join(lines)
    out = result.to_data()
    for path, value in (expect.get("result") or {}).items():
        assert dig(out, path) == value, f"{path}: {dig(out, path)!r} != {value!r}\n{told}"
    for fragment in expect.get("lines") or []:
        assert fragment in told, f"{fragment!r} not in the report:\n{told}"


def run_order(scenario: dict) -> None:
    spec = scenario["order"]
    entries = [BattleEntry(**b) for b in spec["battles"]]
    got = battle_order(entries, spec["turn_order"], spec.get("choices"))
    assert got == scenario["expect"]["order"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_battle_scenario(path: Path) -> None:
    scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert scenario.get("title") and scenario.get("source"), f"{path.name}: give a title and a source"
    if "order" in scenario:
        run_order(scenario)
    else:
        run_battle(scenario)


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 20
