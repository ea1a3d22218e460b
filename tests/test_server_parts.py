"""The service's parts are given what they use: no object holding every part for the others
to reach through (a locator), no part made with the whole service, and no import loop among
`server.tables`' modules, not even one only a type checker follows."""

from __future__ import annotations

import ast
import inspect
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from server.tables import (
    clocks,
    coordination,
    creation,
    reads,
    seating,
    tableset,
    takebacks,
    upkeep,
    writes,
)
from server.tables.service import GameService, Parts

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "server" / "tables"
PARTS = [tableset.TableSet, coordination.Local, coordination.Shared, clocks.Clocks,
         writes.WritePath, takebacks.Takebacks, seating.Seating, creation.Creation,
         reads.Reads, upkeep.Upkeep]


def modules() -> dict[str, ast.Module]:
    return {f"server.tables.{p.stem}": ast.parse(p.read_text(), str(p))
            for p in sorted(TABLES.glob("*.py")) if p.stem != "__init__"}


def imported(tree: ast.Module) -> set[str]:
    """Every module and name imported anywhere in `tree`, `if TYPE_CHECKING:` included."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
            found.update(alias.name for alias in node.names)
    return found


def test_no_module_defines_or_imports_a_locator():
    offenders = []
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == "Core":
                offenders.append(f"{name} defines Core")
        if {"Core", "server.tables.core"} & imported(tree):
            offenders.append(f"{name} imports Core")
    assert offenders == []
    assert not (TABLES / "core.py").exists()


def test_every_part_is_in_the_wiring():
    assert {f.type for f in Parts.__dataclass_fields__.values()} >= {
        p.__name__ for p in PARTS if p is not coordination.Shared and
        p is not coordination.Local} | {"Coordination"}


def test_no_part_is_made_with_the_whole_service_or_a_locator():
    offenders = []
    for part in PARTS:
        for param in inspect.signature(part.__init__).parameters.values():
            text = f"{param.name}: {param.annotation}"
            if param.name in ("core", "service", "host") or any(
                    word in str(param.annotation) for word in ("GameService", "Core", "Host")):
                offenders.append(f"{part.__name__}({text})")
    assert offenders == []


def test_the_service_holds_no_locator():
    assert "core" not in inspect.signature(GameService.__init__).parameters
    assert not hasattr(GameService, "core")


def test_no_import_loop_among_the_tables_modules_type_checking_included():
    found = modules()
    graph = {name: {m for m in imported(tree) if m in found and m != name}
             for name, tree in found.items()}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as e:  # pragma: no cover - the assertion says which
        raise AssertionError(f"import loop: {e.args[1]}") from None
    assert set(order) == set(found)


def calls(tree: ast.Module) -> list[tuple[str, str, ast.Call]]:
    """(enclosing function, called attribute, call) for every `x.attr(...)` in `tree`."""
    found = []

    def walk(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                else function
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
                found.append((name, child.func.attr, child))
            walk(child, name)

    walk(tree, "")
    return found


def test_every_write_goes_through_the_write_path():
    """Outside writes.py no part appends, creates a game, draws chance or commits; a lock
    taken outside the write path is a read's (`reading=True`), or a socket joining (which
    only marks presence)."""
    offenders = []
    for name, tree in modules().items():
        if name == "server.tables.writes":
            continue
        for function, attr, call in calls(tree):
            if attr in ("append", "create_game") and "store" in ast.unparse(call.func):
                offenders.append(f"{name}.{function}: {ast.unparse(call.func)}")
            if attr in ("commit", "_commit_one", "draw_chance", "_catch_up"):
                offenders.append(f"{name}.{function}: {attr}")
            reading = any(k.arg == "reading" for k in call.keywords)
            if attr == "locked" and not reading and (name, function) not in {
                    ("server.tables.seating", "join"), ("server.tables.service", "locked")}:
                offenders.append(f"{name}.{function}: a lock taken for a write")
    assert offenders == []


def test_only_the_host_s_wiring_subscribes_to_the_service():
    """No module but `server.host` (its `wire`) appends to the service's listeners, the
    bot runner's idle and busy, or tonight's standings' listeners."""
    offenders = []
    for path in sorted((ROOT / "server").rglob("*.py")):
        if path == ROOT / "server" / "host.py":
            continue
        tree = ast.parse(path.read_text(), str(path))
        for _, attr, call in calls(tree):
            target = ast.unparse(call.func.value)
            if attr in ("append", "extend") and target.split(".")[-1] in (
                    "listeners", "on_idle", "on_busy"):
                offenders.append(f"{path.relative_to(ROOT)}:{call.lineno} {ast.unparse(call)}")
    assert offenders == []


def test_the_runner_and_the_analyses_subscribe_nothing_until_wired(tmp_path):
    from server.bots.analysis import Analyses
    from server.bots.pool import BotPool, BotRunner
    from server.host import Host, wire
    from server.store import open_store

    store = open_store(tmp_path)
    service = GameService(store)
    pool = BotPool(1, warm=False)
    try:
        runner = BotRunner(service, pool, delay=0)
        Analyses(service, store, runner, pool=pool, auto=False)
        assert list(service.listeners) == [] and runner.on_idle == runner.on_busy == []
        host = Host.build(store=store, service=service, pool=pool, cluster=None, lock=None,
                          limiter=None, imports=None, replays=None, bot_delay=0,
                          bot_lock_ttl=60, analysis_level=None, analysis_auto=False)
        assert list(service.listeners) == []
        pushed = []
        wire(host, emitters=[pushed.append])
        owners = [getattr(f, "__self__", None) for f in service.listeners]
        assert len(owners) == 4 and owners[0] is None and owners[1] is pushed  # the ladder's
        assert owners[2] is host.bots and owners[3] is host.analyses
        assert host.bots.on_idle == [host.analyses.runner_changed]
        service.create("duo", [{"kind": "local"}, {"kind": "local"}])
        assert [news.kind for news in pushed] == ["state"]
    finally:
        pool.shutdown()
        service.stop()
        store.close()
