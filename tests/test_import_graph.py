"""The shape of pbem/ (docs/architecture.md, "Layers" and "Layout of a game"): no import circle,
no import a layer may not make, no circle between a game's sub-packages, no module over
MAX_LINES lines.

Imports are read from the source with `ast`, those at a module's top and those inside functions
alike: an import moved into a function to dodge a circle is still an edge of the graph.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# module -> {imported module of pbem: the line of its first import}
Graph = dict[str, dict[str, int]]


@dataclass(frozen=True)
class Layer:
    name: str
    packages: tuple[str, ...]     # its modules: these and everything below them
    may_import: tuple[str, ...]   # the layers (below) it may import, besides its own


# docs/architecture.md, "Layers": keep the two tables the same.
LAYERS = (
    Layer("support", ("pbem.paths", "pbem.data"), ()),
    Layer("rules", ("pbem.rules",), ("support",)),
    Layer("orders", ("pbem.orders",), ("support", "rules")),
    # pbem.games is the registry (by import path); pbem.games.<game> a game of a family.
    Layer("games", ("pbem.games",), ("support", "rules", "orders")),
    Layer("mail", ("pbem.mail",), ("support",)),
    Layer("judge", ("pbem.judge",), ("support", "rules", "orders", "games", "mail")),
    Layer("front", ("pbem.cli", "pbem.demo", "pbem.__main__"),
          ("support", "rules", "orders", "games", "mail", "judge")),
)
REGISTRY = "pbem.games"
# The games of one family: the core first, then its editions, which import the core (the core
# never an edition). A game not listed here is a family of its own.
FAMILIES = {"fief": ("pbem.games.fief", "pbem.games.fief_france", "pbem.games.fief_england")}

MAX_LINES = 450
# Modules over MAX_LINES let through while they are being split, each with why (none today:
# every module is under the limit); remove a line when its module is short again.
KNOWN_LONG: dict[str, str] = {}
# Circles between the sub-packages of a game (a root module counts as a unit of its own) that
# are known, each with why it stays; the module graph itself has none.
KNOWN_PACKAGE_CIRCLES: dict[frozenset[str], str] = {
    frozenset({"pbem.games.fief.battle", "pbem.games.fief.movement", "pbem.games.fief.surprise"}):
        "movement/orders.py and movement/template.py check and describe a movement mail's whole "
        "`policies:` with the surprise ones (surprise/policies.py), while the surprise cards use the "
        "movement and battle rules (issue 10: left for the lead; tests/test_fief_movement_orders.py "
        "pins the movement template, policies included, as one function)",
}


# -- reading the graph --------------------------------------------------------------------------

def modules(root: Path, package: str = "pbem") -> dict[str, Path]:
    """Every module of ``package`` under ``root``: dotted name -> file."""
    found = {}
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph(root: Path, package: str = "pbem") -> Graph:
    """Each module's imports of other modules of ``package`` (a name imported from a package
    counts as its module when it is one), at the top or inside a function. An import under
    ``if TYPE_CHECKING:`` is left out: it names a type for the type checker and never runs, so it
    makes no dependency at run time (the edition record names the Board its hooks receive)."""
    files = modules(root, package)

    def known(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        edges: dict[str, int] = {}
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        typing_only = {id(n) for block in ast.walk(tree) if _is_type_checking_block(block)
                       for stmt in block.body for n in ast.walk(stmt)}   # type: ignore[attr-defined]
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:   # relative: from the module's package, one level up per extra dot
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    here = here[:len(here) - node.level + 1]
                    base = ".".join(here + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                           for alias in node.names]
            for target in targets:
                found = known(target)
                if found is not None and found != name:
                    edges.setdefault(found, node.lineno)
        graph[name] = edges
    return graph


def _is_type_checking_block(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (or ``if typing.TYPE_CHECKING:``)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


# -- circles ------------------------------------------------------------------------------------

def strongly_connected(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def a_circle(graph: Graph, component: list[str]) -> list[str]:
    """One circle through the component's first module, in import order (first = last)."""
    inside = set(component)
    start = component[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:   # breadth first: the shortest way back to the start
        following = []
        for node in frontier:
            for child in sorted(graph.get(node, ())):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start] + path[::-1][1:] + [start]
                if child in inside and child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no circle through {start}")   # a component always has one


def circle_problems(graph: Graph) -> list[str]:
    """One sentence per circle: its modules in import order, then the line of each import."""
    problems = []
    for component in strongly_connected(graph):
        circle = a_circle(graph, component)
        lines = ", ".join(f"{a} line {graph[a][b]}" for a, b in pairwise(circle))
        problems.append(f"import circle: {' -> '.join(circle)} (the imports: {lines})"
                        + (f"; all {len(component)} modules of the knot: {', '.join(component)}"
                           if len(component) > len(circle) - 1 else ""))
    return problems


# -- layers -------------------------------------------------------------------------------------

def layer_of(module: str) -> Layer | None:
    best = None
    for layer in LAYERS:
        for package in layer.packages:
            if (module == package or module.startswith(package + ".")) and \
                    (best is None or len(package) > len(best[1])):
                best = (layer, package)
    return best[0] if best else None


def family_of(module: str) -> str | None:
    """The game family of a module of pbem/games/ (None: the registry itself)."""
    if not module.startswith(REGISTRY + "."):
        return None
    game = _game_of(module)
    return next((f for f, games in FAMILIES.items() if game in games), game.rpartition(".")[2])


def _game_of(module: str) -> str:
    return ".".join(module.split(".")[:3])


def _core_of(module: str) -> str | None:
    return next((games[0] for games in FAMILIES.values() if _game_of(module) in games), None)


def layer_problems(graph: Graph) -> list[str]:
    problems = []
    for module, edges in sorted(graph.items()):
        mine = layer_of(module)
        for target, line in sorted(edges.items()):
            theirs = layer_of(target)
            where = f"{module} (line {line}) imports {target}"
            if mine is None or theirs is None:
                problems.append(f"{where}: {module if mine is None else target} is in no layer of "
                                "tests/test_import_graph.py (LAYERS) and docs/architecture.md")
            elif theirs.name not in mine.may_import and theirs is not mine:
                problems.append(f"{where}: the {mine.name} layer may not import the {theirs.name} layer "
                                f"(it imports {', '.join(mine.may_import) or 'nothing of pbem'})")
            elif mine.name == "games" and theirs.name == "games" and family_of(module) != family_of(target):
                problems.append(f"{where}: a game imports only its own family "
                                f"({family_of(module) or 'the registry'} is not {family_of(target) or 'the registry'})"
                                "; the registry names games by import path")
            elif mine.name == "games" and _core_of(module) == _game_of(module) != _game_of(target) \
                    and family_of(module) == family_of(target):
                problems.append(f"{where}: the core of a family imports none of its editions "
                                "(an edition is data and hooks the core is handed)")
            elif mine.name == "judge" and theirs.name == "games" and target != REGISTRY:
                problems.append(f"{where}: the {mine.name} layer imports no game, only the registry "
                                f"{REGISTRY} (games by import path)")
    return problems


# -- game sub-packages --------------------------------------------------------------------------

def unit_of(module: str) -> str:
    """A sub-package of a game (pbem.games.fief.battle), or a module at a game's root
    (pbem.games.fief.state) or outside the games: the module itself."""
    if module.startswith(REGISTRY + "."):
        return ".".join(module.split(".")[:4])
    return module


def package_graph(graph: Graph) -> Graph:
    """The graph between units (unit_of)."""
    units: Graph = {}
    for module, edges in graph.items():
        a = unit_of(module)
        units.setdefault(a, {})
        for target, line in edges.items():
            if unit_of(target) != a:
                units[a].setdefault(unit_of(target), line)
    return units


def package_circle_problems(graph: Graph, known: dict[frozenset[str], str]) -> list[str]:
    units = package_graph(graph)
    games = {u: {v: n for v, n in e.items() if v.startswith(REGISTRY + ".")}
             for u, e in units.items() if u.startswith(REGISTRY + ".")}
    problems = []
    for component in strongly_connected(games):
        if frozenset(component) in known:
            continue
        circle = a_circle(games, component)
        steps = " -> ".join(f"{a} ({_an_import(graph, a, b)})" for a, b in pairwise(circle))
        problems.append(f"circle between the sub-packages of a game: {steps} -> {circle[-1]}")
    return problems


def _an_import(graph: Graph, unit: str, other: str) -> str:
    module, target = min((m, t) for m, e in graph.items() if unit_of(m) == unit
                         for t in e if unit_of(t) == other)
    return f"{module} imports {target}, line {graph[module][target]}"


# -- lengths ------------------------------------------------------------------------------------

def long_modules(root: Path, limit: int, known: dict[str, str]) -> list[str]:
    problems = []
    for path in modules(root).values():
        name = path.relative_to(root).as_posix()
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > limit and name not in known:
            problems.append(f"{name} has {count} lines (more than {limit}): split it along the rulebook's "
                            "seams (or its own), one module per part with a docstring citing it")
        elif count <= limit and name in known:
            problems.append(f"{name} has {count} lines now: remove it from KNOWN_LONG")
    return problems


# -- the tests on pbem/ -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pbem_graph() -> Graph:
    return import_graph(ROOT)


def test_no_import_circle(pbem_graph):
    assert circle_problems(pbem_graph) == []


def test_no_import_a_layer_may_not_make(pbem_graph):
    assert layer_problems(pbem_graph) == []


def test_no_circle_between_the_sub_packages_of_a_game(pbem_graph):
    assert package_circle_problems(pbem_graph, KNOWN_PACKAGE_CIRCLES) == []


def test_no_module_over_the_limit():
    assert long_modules(ROOT, MAX_LINES, KNOWN_LONG) == []


def test_the_graph_sees_every_kind_of_import(pbem_graph):
    # round.py imports the phases at its top; game.py a module by `from package import module`;
    # the registry names games only by import path.
    assert "pbem.games.fief.battle.phase" in pbem_graph["pbem.games.fief.round"]
    assert "pbem.games.fief.at_once" in pbem_graph["pbem.games.fief.game"]
    assert "pbem.games.fief_france.rules" not in pbem_graph["pbem.games"]
    # the command line imports the demo inside a function (it is loaded only for `pbem demo`).
    assert "pbem.demo" in pbem_graph["pbem.cli.judge"]


# -- the checks themselves, on small made-up graphs ---------------------------------------------

def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_circle_is_named_in_import_order(tmp_path):
    root = _package(tmp_path, {
        "pbem/__init__.py": "",
        "pbem/a.py": "from pbem.b import x\n",
        "pbem/b.py": "import os\n\n\ndef later():\n    from pbem import c   # inside a function\n",
        "pbem/c.py": "from . import a\n",
        "pbem/d.py": "from pbem.a import y\n",
    })
    problems = circle_problems(import_graph(root))
    assert problems == ["import circle: pbem.a -> pbem.b -> pbem.c -> pbem.a "
                        "(the imports: pbem.a line 1, pbem.b line 5, pbem.c line 1)"]


def test_every_circle_is_named_with_its_knot(tmp_path):
    graph = {"x": {"y": 1}, "y": {"x": 2, "z": 3}, "z": {"y": 4}, "w": {"w2": 1}, "w2": {"w": 9}}
    assert circle_problems(graph) == [
        "import circle: w -> w2 -> w (the imports: w line 1, w2 line 9)",
        "import circle: x -> y -> x (the imports: x line 1, y line 2); all 3 modules of the knot: x, y, z",
    ]
    assert circle_problems({"x": {"y": 1}, "y": {"z": 1}, "z": {}}) == []


def test_an_upward_import_is_named_with_the_layers():
    graph = {
        "pbem.rules.api": {"pbem.judge.engine": 7},            # upward
        "pbem.mail.message": {"pbem.games": 3},                # sideways: mail knows no game
        "pbem.judge.engine": {"pbem.games.fief.game": 12, "pbem.games": 4},
        "pbem.games.fief_france.rules": {"pbem.games.fief.game": 5, "pbem.games.kek.rules": 6},
        "pbem.games.fief.game": {"pbem.orders.reading": 2, "pbem.games.fief_france.rules": 3},
        "pbem.cli": {"pbem.games.fief.board": 9},              # allowed: the front may use a game
        "pbem.tools": {"pbem.rules.api": 1},                   # no layer
    }
    assert layer_problems(graph) == [
        "pbem.games.fief.game (line 3) imports pbem.games.fief_france.rules: the core of a family imports "
        "none of its editions (an edition is data and hooks the core is handed)",
        "pbem.games.fief_france.rules (line 6) imports pbem.games.kek.rules: a game imports only its own "
        "family (fief is not kek); the registry names games by import path",
        "pbem.judge.engine (line 12) imports pbem.games.fief.game: the judge layer imports no game, only "
        "the registry pbem.games (games by import path)",
        "pbem.mail.message (line 3) imports pbem.games: the mail layer may not import the games layer "
        "(it imports support)",
        "pbem.rules.api (line 7) imports pbem.judge.engine: the rules layer may not import the judge layer "
        "(it imports support)",
        "pbem.tools (line 1) imports pbem.rules.api: pbem.tools is in no layer of tests/test_import_graph.py "
        "(LAYERS) and docs/architecture.md",
    ]


def test_a_circle_between_sub_packages_is_named_by_its_imports():
    graph = {
        "pbem.games.g.a.one": {"pbem.games.g.b.two": 3},
        "pbem.games.g.b.two": {"pbem.games.g.state": 1},
        "pbem.games.g.b.three": {"pbem.games.g.a.four": 8},
        "pbem.games.g.a.four": {},
        "pbem.games.g.state": {},
    }
    circle = ("circle between the sub-packages of a game: pbem.games.g.a (pbem.games.g.a.one imports "
              "pbem.games.g.b.two, line 3) -> pbem.games.g.b (pbem.games.g.b.three imports "
              "pbem.games.g.a.four, line 8) -> pbem.games.g.a")
    assert package_circle_problems(graph, {}) == [circle]
    assert package_circle_problems(graph, {frozenset({"pbem.games.g.a", "pbem.games.g.b"}): "why"}) == []


def test_a_long_module_is_named(tmp_path):
    root = _package(tmp_path, {"pbem/__init__.py": "", "pbem/long.py": "x = 1\n" * 12,
                               "pbem/short.py": "x = 1\n" * 2, "pbem/known.py": "x = 1\n" * 20})
    assert long_modules(root, 10, {"pbem/known.py": "being split"}) == [
        "pbem/long.py has 12 lines (more than 10): split it along the rulebook's seams (or its own), one "
        "module per part with a docstring citing it"]
    assert long_modules(root, 10, {"pbem/short.py": "being split"}) == [
        "pbem/known.py has 20 lines (more than 10): split it along the rulebook's seams (or its own), one "
        "module per part with a docstring citing it",
        "pbem/long.py has 12 lines (more than 10): split it along the rulebook's seams (or its own), one "
        "module per part with a docstring citing it",
        "pbem/short.py has 2 lines now: remove it from KNOWN_LONG"]
