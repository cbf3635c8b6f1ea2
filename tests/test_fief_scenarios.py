"""Scenario tests of every game: each tests/scenarios/<game_type>/*.yaml file is one rulebook
example (or one rule), played through the real rules of its game (pbem.games.rules_for; the
tiny test game of tests/tinygame.py has its own folder, tests/scenarios/tiny/).

Scenario format (YAML):

    title: Fief Title Purchase (4.4)           # what the scenario shows
    source: "4.4 example, line 737"            # where the rulebook says so
    game: fief_france                          # optional: the game type (default: the folder's name)
    position: {...}                            # the starting position, read by the game's position
                                               # builder (`scenario_state` in the game package's
                                               # positions module: pbem/games/fief/positions.py);
                                               # a game without one takes the position as its state
    dice: {d6: [3, 5], battle: [2, 0]}         # optional fixed dice, used in this order (a step may
                                               # give its own `dice:`; each step without its own
                                               # rolls the scenario's from the start). Every face
                                               # listed must be rolled: a die never rolled fails
                                               # the scenario, named with the file. England's
                                               # Invaders also draw `compass: [S, N]` (E 6.3).
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
          events_in_order: [...]               # like `events:`, and found in this order
          phase: round-1/movement              # the phase id after resolution
          state: {families.marie.deniers: 1}   # dotted paths into the state's JSON
          forces: {Tours: {cedric: {man_at_arms: 6, knight: 5}}}   # Fief: unit pawns by town/family/kind
          views:                               # what one player (or `gm`) sees: dotted paths
            olivier: {towns.Tours.forces.cedric.units: {hidden: 11}}
        resolve: true                          # false: only check the orders (default true)
      - at_once:                               # or: mails' at-once parts (Fief's `at_once:` list,
          bob: |                               # `diplomacy:`), checked against the player's view
            at_once:                           # and done at once, in the order written; the
              - hire: 2                        # step's `expect` reads their events and the state
                in: Oxford                     # after them (no phase is resolved)

A Fief: England `rounds:` scenario fights battle rounds on England's pure round functions, an
`england_battle:` scenario one battle through the engine (tests/england_battle_rounds.py says
their formats).

A Fief `battle:` scenario (issue 4) fights one battle with the battle engine alone (resolve_battle),
no phase around it: `battle:` holds a BattleSetup's fields (town, attacker, defender, sides, ...:
battle_plan.setup_from_data), `plans:` each family's BattlePlan fields (battle_plan.plan_from_data),
`dice:` the faces in order (every one must be used), and `expect:` may add
`outcome: {winner: attacker, end: only_lords, rounds: 1, captives: [[Gauvain, philippe]]}`.

Top-level `orders:` and `expect:` are a shorthand for a single step. A step whose phase takes
no orders is resolved with none. Players who must order but sent nothing get their default
orders, as the judge would give them at the deadline.
"""
from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

import judge_support  # noqa: F401  (registers the tiny test game)
from england_battle_rounds import run_engine_battle, run_rounds
from pbem.games import GAME_TYPES, rules_for
from pbem.games.fief.battle.engine import resolve_battle
from pbem.games.fief.battle.dice import BATTLE_DIE_FACES
from pbem.games.fief.battle.plan import plan_from_data, setup_from_data
from pbem.games.fief.board import load_board
from pbem.games.fief.positions import build_position
from pbem.orders.yamlsafe import load
from pbem.rules.api import Audience, GameRules
from pbem.rules.rng import Rng

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*/*.yaml"))


class FixedRng(Rng):
    """Dice from the scenario's list; shuffles and choices from a fixed seed. `used` counts
    the faces rolled of each kind."""

    def __init__(self, dice: dict[str, list[int]] | None):
        super().__init__("scenario")
        self.dice = {k: list(v) for k, v in (dice or {}).items()}
        self.used: Counter = Counter()

    def _next(self, kind: str, why: str) -> int:
        left = self.dice.get(kind) or []
        assert left, f"the scenario needs one more {kind} roll ({why}): add it under dice.{kind}"
        value = int(left.pop(0))
        self.used[kind] += 1
        self.rolls.append((why, value))
        return value

    def d6(self, why: str = "d6") -> int:
        return self._next("d6", why)

    def die(self, faces, why: str = "die"):
        assert tuple(faces) == BATTLE_DIE_FACES, f"a die with faces {faces} ({why}): only battle dice are scripted"
        return self._next("battle", why)

    def choice(self, items, why: str = "choice"):
        """England's Invaders draw compass markers (E 6.3): scripted under `dice.compass` (N, E, S, W)."""
        if not why.startswith("compass") or "compass" not in self.dice:
            return super().choice(items, why)
        left = self.dice["compass"]
        assert left, f"the scenario needs one more compass marker ({why}): add it under dice.compass"
        value = str(left.pop(0))
        assert value in items, f"compass marker {value} drawn again ({why}): the markers left are {list(items)}"
        self.used["compass"] += 1
        self.rolls.append((why, value))
        return value


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


def run_step(rules: GameRules, state: Any, step: dict, dice: dict | None) -> tuple[Any, Counter]:
    """Plays one step; returns the state after it and the faces it rolled of each kind."""
    expect = step.get("expect") or {}
    if "at_once" in step:
        return act_step(rules, state, step, dice)
    phase = rules.phase(state)
    if "phase_before" in expect:
        assert phase.id == expect["phase_before"]
    orders: dict[str, Any] = {}
    want_errors = expect.get("errors") or {}
    for player, text in (step.get("orders") or {}).items():
        view = rules.view(state, player)
        check = rules.check_orders(view, player, load(text))
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
        return state, Counter()
    for player in phase.deciders:
        if player not in orders:
            orders[player] = rules.default_orders(rules.view(state, player), player)
    before = repr(state)
    rng = FixedRng(dice)
    resolution = rules.resolve(state, orders, rng)
    assert repr(state) == before, "resolve changed its input state"
    check_expected(rules, resolution.state, list(resolution.events), expect)
    return resolution.state, rng.used


def act_step(rules: GameRules, state: Any, step: dict, dice: dict | None) -> tuple[Any, Counter]:
    """A step of `at_once:` mails (docs at the top): each player's at-once part, checked against
    their view and done at once, in the order written; no phase is resolved."""
    expect = step.get("expect") or {}
    want_errors = expect.get("errors") or {}
    rng = FixedRng(dice)
    events: list = []
    for player, text in step["at_once"].items():
        check = rules.check_at_once(rules.view(state, player), player, load(text))   # type: ignore[attr-defined]
        messages = " | ".join(str(e) for e in check.errors)
        if player in want_errors:
            assert not check.ok, f"{player}'s at-once mail should be rejected"
            for fragment in want_errors[player]:
                assert fragment in messages, f"{fragment!r} not in {messages!r}"
            continue
        assert check.ok, f"{player}'s at-once mail rejected: {messages}"
        before = repr(state)
        done = rules.act(state, player, check.orders, rng)   # type: ignore[attr-defined]
        assert repr(state) == before, "act changed its input state"
        state = done.state
        events += list(done.events)
    check_expected(rules, state, events, expect)
    return state, rng.used


def check_expected(rules: GameRules, new: Any, events: list, expect: dict) -> None:
    """A step's `events`, `no_events`, `phase`, `state`, `forces` and `views` expectations."""
    told = "\n".join(f"  [{e.kind}] {e.text} ({e.audience.to_json()})" for e in events)
    for want in expect.get("events") or []:
        assert any(event_matches(e, want) for e in events), f"no event like {want} among\n{told}"
    found = [next((i for i, e in enumerate(events) if event_matches(e, want)), None)
             for want in expect.get("events_in_order") or []]
    assert None not in found and found == sorted(found), f"not in this order: {expect['events_in_order']}\n{told}"
    for kind in expect.get("no_events") or []:
        assert not any(e.kind == kind for e in events), f"unexpected {kind} event among\n{told}"
    if "phase" in expect:
        assert rules.phase(new).id == expect["phase"]
    for path, value in (expect.get("state") or {}).items():
        assert dig(new, path) == value, f"{path}: {dig(new, path)!r} != {value!r}\n{told}"
    check_forces(new, expect, told)
    for who, paths in (expect.get("views") or {}).items():
        view = rules.view(new, None if who == "gm" else who)
        for path, value in paths.items():
            assert dig(view, path) == value, f"{who} sees {path} = {dig(view, path)!r}, not {value!r}"


def check_forces(state: dict, expect: dict, told: str) -> None:
    """Fief's `forces:` expectation: the unit pawns by town, family and kind."""
    if not expect.get("forces"):
        return
    counts = unit_counts(state)
    for town, families in expect["forces"].items():
        for family, kinds in families.items():
            have = dict(counts.get(town, {}).get(family, Counter()))
            assert have == {k: v for k, v in kinds.items() if v}, f"{town}/{family}: {have} != {kinds}\n{told}"


def run_battle(scenario: dict) -> None:
    """A `battle:` scenario: see the module docstring."""
    state = build_position(scenario["position"], "fief_france")
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
    check_forces(data, expect, told)


def game_type_of(path: Path, scenario: dict) -> str:
    return str(scenario.get("game") or path.parent.name)


def starting_state(game_type: str, rules: GameRules, position: Any) -> Any:
    """The game's own position builder: `scenario_state(position, game_type)` in the positions
    module of the package its rules live in (or, for an edition's rules built on a family's, the
    family's package: Fief: France's rules class derives from the Fief core's); a game without
    one takes the position as it is."""
    for cls in type(rules).__mro__:
        package = cls.__module__.rpartition(".")[0]
        try:
            positions = importlib.import_module(f"{package}.positions") if package else None
        except ModuleNotFoundError:
            continue
        builder = getattr(positions, "scenario_state", None)
        if builder is not None:
            return builder(position, game_type)
    return position


def unused_dice(dice: dict | None, rolled: Counter) -> dict[str, list]:
    return {kind: list(faces)[rolled[kind]:] for kind, faces in (dice or {}).items() if len(faces) > rolled[kind]}


def run_scenario(path: Path) -> None:
    scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
    if "rounds" in scenario:   # Fief: England's battle rounds, on its pure round functions
        run_rounds(path.name, scenario)
        return
    if "england_battle" in scenario:   # Fief: England's battle through the engine
        run_engine_battle(path.name, scenario)
        return
    game_type = game_type_of(path, scenario)
    assert game_type in GAME_TYPES, f"{path.name}: unknown game type {game_type!r} (`game:` or the folder's name)"
    if "battle" in scenario:
        assert game_type.startswith("fief"), f"{path.name}: a `battle:` scenario is Fief's"
        run_battle(scenario)
        return
    rules = rules_for(game_type)
    state = starting_state(game_type, rules, scenario["position"])
    steps = scenario.get("steps") or [{"orders": scenario.get("orders"), "expect": scenario.get("expect"),
                                       "resolve": scenario.get("resolve", True)}]
    shared: Counter = Counter()   # the most of each kind any step rolled from the scenario's dice
    for number, step in enumerate(steps, 1):
        state, rolled = run_step(rules, state, step, step.get("dice", scenario.get("dice")))
        if "dice" in step:
            left = unused_dice(step["dice"], rolled)
            assert not left, f"{path.name}: step {number} never rolled dice {left}: remove them or fix the rule"
        else:
            shared |= rolled
    left = unused_dice(scenario.get("dice"), shared)
    assert not left, f"{path.name}: the scenario's dice {left} were never rolled: remove them or fix the rule"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    run_scenario(path)


def test_there_are_scenarios() -> None:
    assert len([p for p in FILES if p.parent.name == "fief_france"]) >= 10
    assert [p for p in FILES if p.parent.name == "tiny"], "the generic path is proved on the tiny game"


def test_a_die_never_rolled_fails_its_scenario_by_name(tmp_path) -> None:
    source = (SCENARIOS / "tiny" / "bid-highest-total-scores.yaml").read_text(encoding="utf-8")
    folder = tmp_path / "tiny"
    folder.mkdir()
    extra = folder / "one-die-too-many.yaml"
    extra.write_text(source.replace("dice: {d6: [1, 5, 3]}", "dice: {d6: [1, 5, 3, 6]}"), encoding="utf-8")
    with pytest.raises(AssertionError,
                       match=r"one-die-too-many.yaml: the scenario's dice \{'d6': \[6\]\} were never rolled"):
        run_scenario(extra)
