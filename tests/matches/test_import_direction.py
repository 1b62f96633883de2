"""The import direction of the apps: ``matches`` never imports ``campaigns`` (read models, stream kinds, dashboard
parts and demo parts register themselves), who a reader is has one home that imports no reader of it, and the
modules of ``matches`` and ``campaigns`` import one another in one direction only (no cycle, lazy imports
included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
STATS = {"matches.stats", "matches.stats_projection", "matches.stats_rollup", "matches.people",
         "matches.projections", "campaigns.stats"}  # fmt: skip
# the cycle left, all through lazy imports (not the stats modules, not who a reader is): the stream layer and
# the match services call each other, the services wake the projector task, whose module registers the import
# job's task, which runs the import job, which writes through the services
KNOWN_CYCLES = [{"matches.services", "matches.streams", "matches.tasks", "matches.interop.tasks",
                 "matches.interop.jobs", "matches.interop.writer"}]  # fmt: skip


def _modules(*packages: str) -> dict[str, Path]:
    """Every module of ``packages`` (migrations left out: they name apps by label, never import them)."""
    out = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _imports(path: Path) -> set[str]:
    """Every module a source file imports, at any depth (lazy imports count), ``from a import b`` as ``a`` and ``a.b``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    return {name: (_imports(path) & set(modules)) - {name} for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_of_matches_imports_campaigns():
    for name, path in _modules("matches").items():
        assert not any(m == "campaigns" or m.startswith("campaigns.") for m in _imports(path)), name


def test_the_stats_modules_import_in_one_direction():
    graph = _graph(_modules("matches", "campaigns"))
    stats = {name: deps & STATS for name, deps in graph.items() if name in STATS}
    assert set(stats) == STATS
    assert _cycles(stats) == []
    # the registry is at the bottom: it imports no read model; the read models import it
    assert stats["matches.projections"] == set()
    assert (
        "matches.projections" in stats["matches.stats_projection"] and "matches.projections" in stats["campaigns.stats"]
    )


def test_matches_and_campaigns_have_no_import_cycle_but_the_known_one():
    assert _cycles(_graph(_modules("matches", "campaigns"))) == KNOWN_CYCLES


def test_who_a_reader_is_has_one_home_that_imports_none_of_its_readers():
    modules = _modules("matches", "campaigns", "frontend")
    assert _imports(modules["matches.visibility"]) & set(modules) - {"matches"} == {"matches.store"}  # lazily: a fold
    for name, path in modules.items():
        if name != "matches.visibility":
            source = path.read_text()
            assert "def can_record" not in source and "def can_view" not in source and "def viewer_for" not in source, (
                name
            )
