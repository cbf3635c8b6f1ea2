"""Every game keeps to the rules contract (pbem/rules/api.py: GameRules, and ActsAtOnce for a
game with ``at_once_keys``). mypy checks it in `.ci/run` through an annotated module-level
assignment next to each game's rules object (``_GAME_RULES: GameRules = RULES``); these tests
make sure every registered game has that assignment, and check the methods' parameters at run
time as well, for a run of the tests without mypy."""
from __future__ import annotations

import importlib
import inspect
import tomllib
from pathlib import Path

import pytest

import tinygame
from pbem.games import GAME_TYPES, rules_for
from pbem.rules.api import ActsAtOnce, GameRules, at_once_keys

CONTRACT_METHODS = ("options", "setup", "phase", "view", "check_orders", "default_orders", "resolve",
                    "order_template", "report_template", "result", "board")
AT_ONCE_METHODS = ("check_at_once", "act", "at_once_template")
ROOT = Path(__file__).resolve().parent.parent
# What mypy checks (pyproject.toml, [tool.mypy] files): the tests that import judge_support
# register the tiny game too, whose module is tests/tinygame.py.
MYPY_FILES = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"]
GAMES = {**{t: rules_for(t) for t in GAME_TYPES}, "tiny": tinygame.RULES}


def _parameters(function) -> list[tuple[str, object]]:
    return [(p.name, p.kind) for p in inspect.signature(function).parameters.values()]


def _check(rules, protocol, methods) -> None:
    for name in methods:
        assert callable(getattr(rules, name, None)), f"{type(rules).__name__} has no method {name}"
        assert _parameters(getattr(type(rules), name)) == _parameters(getattr(protocol, name)), (
            f"{type(rules).__name__}.{name}{inspect.signature(getattr(type(rules), name))} differs from "
            f"{protocol.__name__}.{name}{inspect.signature(getattr(protocol, name))}")


def test_the_contract_lists_every_method_of_the_protocols() -> None:
    """The lists above follow api.py: a method added to the contract is checked here too."""
    def declared(protocol) -> set[str]:
        return {n for n, v in vars(protocol).items() if inspect.isfunction(v) and not n.startswith("_")}
    assert declared(GameRules) == set(CONTRACT_METHODS)
    assert declared(ActsAtOnce) == set(AT_ONCE_METHODS)


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_each_game_has_the_contract_methods_with_its_parameters(game_type: str) -> None:
    rules = GAMES[game_type]
    for attribute, kind in (("type_name", str), ("title", str), ("min_players", int), ("max_players", int)):
        assert isinstance(getattr(rules, attribute, None), kind), f"{attribute} should be a {kind.__name__}"
    _check(rules, GameRules, CONTRACT_METHODS)
    if at_once_keys(rules):
        assert isinstance(rules, ActsAtOnce)
        _check(rules, ActsAtOnce, AT_ONCE_METHODS)


@pytest.mark.parametrize("game_type", sorted(GAME_TYPES))
def test_each_registered_game_is_checked_against_the_contract_by_mypy(game_type: str) -> None:
    module_name, attribute = GAME_TYPES[game_type].split(":")
    module = importlib.import_module(module_name)
    where = Path(module.__file__ or "").resolve().relative_to(ROOT)
    assert any(where.is_relative_to(f) for f in MYPY_FILES), f"mypy does not check {where}: add it to {MYPY_FILES}"
    rules = getattr(module, attribute)
    annotated = vars(module).get("__annotations__", {})
    wanted = {"GameRules"} | ({"ActsAtOnce"} if at_once_keys(rules) else set())
    missing = wanted - {str(a) for n, a in annotated.items() if getattr(module, n, None) is rules}
    assert not missing, (f"{module_name} should hold `_GAME_RULES: GameRules = {attribute}` (and "
                         f"`_ACTS_AT_ONCE: ActsAtOnce = {attribute}` for a game that acts at once), "
                         f"so that mypy checks {attribute} against the rules contract; missing: {missing}")
