"""Every game keeps to the rules contract (pbem/rules/api.py: GameRules, and each optional part
it has: ActsAtOnce, DrawsMap, EchoesOrders, ShowsPublicView). mypy checks it in `.ci/run` through annotated
module-level assignments next to each game's rules object (``_GAME_RULES: GameRules = RULES``);
these tests make sure every registered game has them, and check the methods' parameters at run
time as well, for a run of the tests without mypy."""
from __future__ import annotations

import importlib
import inspect
import tomllib
from pathlib import Path

import pytest

import tinygame
from pbem.games import GAME_TYPES, rules_for
from pbem.rules.api import ActsAtOnce, DrawsMap, EchoesOrders, GameRules, ShowsPublicView, at_once_keys

# Each protocol and its methods; an optional part is one a game has when it has the first method.
CONTRACT = {
    GameRules: ("options", "setup", "phase", "view", "check_orders", "default_orders", "resolve",
                "order_template", "report_template", "result", "board"),
    ActsAtOnce: ("check_at_once", "act", "at_once_template"),
    DrawsMap: ("map_drawing",),
    EchoesOrders: ("echo_orders",),
    ShowsPublicView: ("public_view",),
}
ROOT = Path(__file__).resolve().parent.parent
# What mypy checks (pyproject.toml, [tool.mypy] files): the tests that import judge_support
# register the tiny game too, whose module is tests/tinygame.py.
MYPY_FILES = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"]
GAMES = {**{t: rules_for(t) for t in GAME_TYPES}, "tiny": tinygame.RULES}


def _parts(rules) -> list[type]:
    """GameRules and the optional parts ``rules`` has."""
    return [p for p, methods in CONTRACT.items()
            if p is GameRules or (at_once_keys(rules) if p is ActsAtOnce else hasattr(rules, methods[0]))]


def _parameters(function) -> list[tuple[str, object]]:
    return [(p.name, p.kind) for p in inspect.signature(function).parameters.values()]


def test_the_contract_lists_every_method_of_the_protocols() -> None:
    """CONTRACT follows api.py: a method added to a protocol is checked here too."""
    for protocol, methods in CONTRACT.items():
        declared = {n for n, v in vars(protocol).items() if inspect.isfunction(v) and not n.startswith("_")}
        assert declared == set(methods), protocol.__name__


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_each_game_has_the_contract_methods_with_their_parameters(game_type: str) -> None:
    rules = GAMES[game_type]
    for attribute, kind in (("type_name", str), ("title", str), ("min_players", int), ("max_players", int)):
        assert isinstance(getattr(rules, attribute, None), kind), f"{attribute} should be a {kind.__name__}"
    for protocol in _parts(rules):
        for name in CONTRACT[protocol]:
            assert callable(getattr(rules, name, None)), f"{type(rules).__name__} has no method {name}"
            ours, theirs = getattr(type(rules), name), getattr(protocol, name)
            assert _parameters(ours) == _parameters(theirs), (
                f"{type(rules).__name__}.{name}{inspect.signature(ours)} differs from "
                f"{protocol.__name__}.{name}{inspect.signature(theirs)}")
    if at_once_keys(rules):
        assert isinstance(rules, ActsAtOnce)


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_each_game_is_checked_against_the_contract_by_mypy(game_type: str) -> None:
    rules = GAMES[game_type]
    module = importlib.import_module(type(rules).__module__ if game_type == "tiny"
                                     else GAME_TYPES[game_type].split(":")[0])
    where = Path(module.__file__ or "").resolve().relative_to(ROOT)
    assert any(where.is_relative_to(f) for f in MYPY_FILES), f"mypy does not check {where}: add it to {MYPY_FILES}"
    annotated = vars(module).get("__annotations__", {})
    wanted = {p.__name__ for p in _parts(rules)}
    missing = wanted - {str(a) for n, a in annotated.items() if getattr(module, n, None) is rules}
    assert not missing, (f"{module.__name__} should hold `_GAME_RULES: GameRules = RULES` and a line like it for "
                         f"each optional part the game has, so that mypy checks its rules against the contract; "
                         f"missing: {sorted(missing)}")
