"""graphmem's import graph: reads stand apart from writes and evolution, and no module imports itself back.

Every `import` statement counts, at module level, inside functions and under `TYPE_CHECKING` alike: a
function-level import only hides a cycle, it does not remove it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import graphmem

PACKAGE = Path(graphmem.__file__).parent
ROOT = PACKAGE.parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imported(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The names an import statement reads: `from pkg import sub` names the submodule when `pkg.sub` is one."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, base] if base else package)
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]


def _own_module(name: str) -> str | None:
    """The graphmem module `name` lives in (a function or class imported from it counts as the module)."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in MODULES else None


def imports_of(module: str) -> dict[str, int]:
    """graphmem modules `module` imports, each with the first line that does."""
    path = MODULES[module]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for name in _imported(module, path, node):
                target = _own_module(name)
                if target and target != module:
                    found.setdefault(target, node.lineno)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


# (importing package, packages it must never import)
LAYERS = [
    ("graphmem.read", ("graphmem.write", "graphmem.evolution")),
    ("graphmem.text", ("graphmem.read", "graphmem.write", "graphmem.evolution", "graphmem.pairs")),
    ("graphmem.pairs", ("graphmem.read", "graphmem.write", "graphmem.evolution")),
]


@pytest.mark.parametrize(("package", "forbidden"), LAYERS, ids=[layer[0] for layer in LAYERS])
def test_shared_and_read_packages_import_no_write_or_evolution_module(package: str, forbidden: tuple[str, ...]) -> None:
    offending = [
        f"{MODULES[module].relative_to(ROOT)}:{line} imports {target}"
        for module, targets in GRAPH.items()
        if _within(module, package)
        for target, line in targets.items()
        if any(_within(target, other) for other in forbidden)
    ]
    assert [m for m in MODULES if _within(m, package)], f"no modules found under {package}"
    assert not offending, "\n".join(offending)


def _cycles() -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan), as an import path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in GRAPH[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component: set[str] = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                components.append(component)

    for module in GRAPH:
        if module not in index:
            visit(module)
    return [_path_back(min(component), component) for component in components]


def _path_back(start: str, component: set[str]) -> list[str]:
    """A shortest import path from `start` back to itself inside `component` (breadth first)."""
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for module in frontier:
            for target in GRAPH[module]:
                if target == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if target in component and target not in parents:
                    parents[target] = module
                    following.append(target)
        frontier = following
    return [start]


def test_no_graphmem_module_imports_itself_back_through_others() -> None:
    cycles = _cycles()
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)
