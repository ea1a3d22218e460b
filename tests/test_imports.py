"""Imports run one way: the host reaches a game only through the registry, and its store
only through the interface `server.store` exports; no module of the engine or the host
imports, even inside a function or only for a type checker, a module that imports it back.

Walks every module of the installed packages (engine, server, replays, gtp) with `ast` and
checks: nothing outside a game's own package imports that package, except `engine.registry`;
the engine imports no web framework, store, socket, thread or process module, and nothing of
the host; `replays` and `gtp` do not import the web host; the store's interface imports
neither backend, and the rest of the host takes nothing from a backend but its class.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "server", "replays", "gtp")
#: What the engine may not import: I/O, threads, processes, the web, and the layers above it.
NOT_IN_ENGINE = ("flask", "flask_socketio", "flask_smorest", "gevent", "sqlite3", "socket",
                 "threading", "multiprocessing", "subprocess", "zeroconf", "requests",
                 "server", "replays", "gtp")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(path: Path) -> str:
    """The package a relative import in `path` starts from."""
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imported_from(node: ast.ImportFrom, package: str) -> str:
    """The module `from … import` names, a relative one resolved from `package`."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports (relative imports resolved), with each imported name as
    a possible submodule too (`from engine import registry` -> engine, engine.registry)."""
    package = package_of(path)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            mod = imported_from(node, package)
            found.add(mod)
            found.update(f"{mod}.{alias.name}" for alias in node.names)
    return found


def product_modules() -> dict[str, set[str]]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            out[module_name(path)] = imports_of(path)
    return out


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def game_packages() -> list[str]:
    """Each built-in game's package (`engine.<game>`, whichever module of it registers)."""
    return sorted({".".join(reg.module.split(".")[:2])
                   for reg in (registry.registration(r.game) for r in registry.games())
                   if reg.builtin})


@pytest.mark.parametrize("game_package", game_packages())
def test_only_the_registry_imports_a_game(game_package):
    offenders = sorted(
        f"{module} imports {imported}"
        for module, imported_set in product_modules().items()
        if not within(module, game_package) and module != "engine.registry"
        for imported in imported_set if within(imported, game_package))
    assert offenders == []


def test_the_engine_is_pure():
    offenders = sorted(
        f"{module} imports {imported}"
        for module, imported_set in product_modules().items() if within(module, "engine")
        for imported in imported_set
        if any(within(imported, bad) for bad in NOT_IN_ENGINE))
    assert offenders == []


@pytest.mark.parametrize("package", ["replays", "gtp"])
def test_adapters_do_not_import_the_web_host(package):
    offenders = sorted(
        f"{module} imports {imported}"
        for module, imported_set in product_modules().items() if within(module, package)
        for imported in imported_set if within(imported, "server"))
    assert offenders == []


#: A store backend's module and the one name the rest of the host may take from it (to open
#: that backend by hand, as `cornerclaim export` does); everything else comes from `server.store`.
STORE_BACKENDS = {"server.store.sqlite": "SqliteStore", "server.store.postgres": "PostgresStore"}


def test_the_store_is_reached_through_its_interface_and_imports_run_one_way():
    """`server.store.base` (the interface, records, errors) imports no other store module; a
    backend imports neither the package (which opens the backends) nor the other backend;
    outside the store, no module imports `base` or takes from a backend anything but its
    class."""
    modules = product_modules()
    offenders = [f"server.store.base imports {i}" for i in modules["server.store.base"]
                 if within(i, "server.store")]
    for backend in STORE_BACKENDS:
        offenders += [f"{backend} imports {i}" for i in modules[backend]
                      if i == "server.store" or any(within(i, other) for other in STORE_BACKENDS
                                                    if other != backend)]
    for module, imported_set in modules.items():
        if within(module, "server.store"):
            continue
        for imported in imported_set:
            if within(imported, "server.store.base"):
                offenders.append(f"{module} imports {imported}")
            for backend, allowed in STORE_BACKENDS.items():
                if within(imported, backend) and imported not in (backend,
                                                                  f"{backend}.{allowed}"):
                    offenders.append(f"{module} imports {imported}")
    assert sorted(offenders) == []


def test_the_walk_sees_what_it_checks():
    """The walk resolves relative imports (so a game package's inside is not missed)."""
    rules = imports_of(ROOT / "engine" / "cornerclaim" / "rules.py")
    assert "engine.core" in rules and "engine.cornerclaim.position" in rules
    assert "engine.cornerclaim" in game_packages()


def module_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of `modules` that `path` imports: at the top, inside a function, or only for
    a type checker (under `if TYPE_CHECKING:`), since a loop a type checker walks is still a
    loop in the design; for `from package import name`, the submodule `name` where it is one,
    else the package."""
    name = module_name(path)
    package = package_of(path)
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            mod = imported_from(node, package)
            subs = [f"{mod}.{alias.name}" for alias in node.names]
            found.update(s for s in subs if s in modules)
            if not all(s in modules for s in subs):
                found.add(mod)
    return (found & modules) - {name}


def loops(package: str) -> list[list[str]]:
    """The import loops among `package`'s modules (strongly connected groups of two or more,
    Tarjan's algorithm)."""
    paths = {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}
    graph = {m: module_imports(p, set(paths)) for m, p in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in graph:
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("package", ["engine", "server", "scripts"])
def test_no_import_loops_counting_imports_inside_functions_and_for_types(package):
    assert loops(package) == []


def test_the_loop_finder_finds_a_loop(tmp_path, monkeypatch):
    pkg = tmp_path / "loopy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from . import b\n")
    (pkg / "b.py").write_text("from .a import f\nfrom typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from . import c\n")
    (pkg / "c.py").write_text("from . import b\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)  # module_name and loops read it
    assert loops("loopy") == [["loopy.a", "loopy.b", "loopy.c"]]
