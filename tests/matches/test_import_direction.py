"""The import direction of the project (docs/ARCHITECTURE.md › The map): no import circle anywhere among the
project's modules, lazy imports included; the apps import downward (``frontend → campaigns → matches →
rulesets``, and any of them → ``config``, which imports none of them); inside ``matches``, ``campaigns`` and
``frontend`` every import goes to a lower part of the map (the campaign and the series, side by side, import neither
each other); each keeps at most a dozen loose modules; who a reader is has one home that imports none of its
readers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "rulesets", "matches", "campaigns", "frontend", "benchmarks")
# the layers, lowest first: a package imports only packages of a lower layer. ``config`` (settings, URLs, the
# Celery app, plumbing that knows no app) and ``rulesets`` (pure rules) share the floor and import neither each
# other nor anything above: where config must call up (an app's errors, the error page, health checks, the API's
# ``invalid`` answer) the app fills a registry or subclasses a config base at start. config names apps only as
# strings, which are not imports: ``config/urls.py`` includes their URL modules (Django's own wiring, the one
# upward reference), ``settings.py`` and ``celery.py`` name apps, middleware and task modules, ``broker.py`` the
# catch-up task's name on the queue (NAMED_BY_STRING, checked below)
LAYERS = {"config": 0, "rulesets": 0, "matches": 1, "campaigns": 2, "frontend": 3}
APPS = ("matches", "campaigns", "frontend")
NAMED_BY_STRING = {"config.urls", "config.settings", "config.celery", "config.broker"}

# the parts of ``matches`` and ``frontend`` (docs/ARCHITECTURE.md), lowest first: a module imports only parts
# of a lower rank than its own, or its own part; ``models`` gathers the app's tables (interop's among them)
MATCHES_RANKS = {
    "matches.interop.models": -1, "matches.errors": 0, "matches.models": 0,
    "matches.store": 1,
    "matches.projections": 2,
    "matches.selectors": 3, "matches.catalogs": 3,
    "matches.services": 4,
    "matches.kinds": 5, "matches.people": 5, "matches.photos": 5,
    "matches.interop": 6,
    "matches.stats": 7, "matches.demo": 7, "matches.checks": 7,
    "matches.api": 8,
    "matches.urls_api": 9, "matches.admin": 9, "matches.apps": 9, "matches.management": 9,
}  # fmt: skip
FRONTEND_RANKS = {
    "frontend.models": 0, "frontend.charts": 0,
    "frontend.forms": 1,
    "frontend.selectors": 2,
    "frontend.boards": 3,
    "frontend.offline": 4,
    "frontend.views": 5,
    "frontend.urls": 6, "frontend.api_urls": 6, "frontend.campaign_urls": 6, "frontend.catalog_urls": 6,
    "frontend.series_urls": 6,
    "frontend.admin": 6, "frontend.apps": 6, "frontend.templatetags": 6, "frontend.management": 6,
}  # fmt: skip
# ``campaigns``: the two kinds side by side, neither importing the other, on what they share
CAMPAIGNS_RANKS = {
    "campaigns.models": 0,
    "campaigns.streams": 1,
    "campaigns.saltmarsh": 2, "campaigns.series": 2,
    "campaigns.kinds": 3,
    "campaigns.urls_api": 4, "campaigns.admin": 4, "campaigns.apps": 4,
}  # fmt: skip
DJANGO_FOLDERS = ("migrations", "management", "templatetags", "static", "templates", "__pycache__")  # Django's own
DATA_FOLDERS = ("vendor-compressed",)  # files, not code: the shipped compressed copies (config.static.ship_static)
LOOSE_MAX = 12  # modules at the top of ``matches``, ``campaigns`` and ``frontend`` (``__init__`` not counted)
STATS = {"matches.stats.selectors", "matches.stats.tallies", "matches.stats.filters",
         "matches.projections.play_stats", "matches.projections.rollups", "matches.projections.merges",
         "matches.projections.projectors", "campaigns.saltmarsh.stats"}  # fmt: skip


def _modules(*packages: str, root: Path = ROOT) -> dict[str, Path]:
    """Every module of ``packages`` (migrations left out: they name apps by label, never import them)."""
    out = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _imports(path: Path, known: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Every module a source file imports, at any depth (lazy imports count). ``from a import b`` is ``a.b``
    when ``a.b`` is a module of ``known`` (a package's submodule: importing it does not run code of ``a``
    that could import back), else ``a``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    known = set(modules)
    return {name: (_imports(path, known) & known) - {name} for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.add(w)
                    if w == v:
                        break
                if len(component) > 1:
                    out.append(component)
    return out


def _rank(name: str, ranks: dict[str, int]) -> int | None:
    """The rank of the part ``name`` belongs to (its longest prefix in ``ranks``)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in ranks:
            return ranks[prefix]
    return None


def _part(name: str, ranks: dict[str, int]) -> str:
    parts = name.split(".")
    return next(".".join(parts[:i]) for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in ranks)


GRAPH = _graph(_modules(*PACKAGES))


def test_no_import_cycle_anywhere():
    assert _cycles(GRAPH) == []


def test_a_planted_cycle_is_found(tmp_path):
    """The check is real: a lazy import back, planted in a copy of the tree's graph and in files, is a cycle."""
    planted = {name: set(deps) for name, deps in GRAPH.items()}
    planted["matches.store.events"].add("matches.services")  # the store calling up into the match services
    assert any({"matches.store.events", "matches.services"} <= c for c in _cycles(planted))

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def f():\n    from pkg.high import g  # lazy\n    return g\n")
    (pkg / "high.py").write_text("from pkg import low\n\ndef g():\n    return low\n")
    assert _cycles(_graph(_modules("pkg", root=tmp_path))) == [{"pkg.low", "pkg.high"}]


def _upward(graph: dict[str, set[str]], layers: dict[str, int] = LAYERS) -> list[str]:
    """Every import of ``graph`` from a package to one of the same or a higher layer (itself excepted)."""
    found = []
    for name, deps in graph.items():
        package = name.split(".")[0]
        for dep in deps:
            other = dep.split(".")[0]
            if package in layers and other in layers and other != package and layers[other] >= layers[package]:
                found.append(f"{name} imports {dep}")
    return sorted(found)


def _app_names(path: Path) -> set[str]:
    """The dotted paths of an app's module or object (``"frontend.urls"``) written as strings in a source file."""
    pattern = re.compile(rf"({'|'.join(APPS)})(\.\w+)+(:\w+)?")
    return {
        node.value
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and pattern.fullmatch(node.value)
    }


def test_the_apps_import_downward():
    assert _upward(GRAPH) == []


def test_config_names_the_apps_only_in_its_wiring():
    named = {name: _app_names(path) for name, path in _modules("config").items()}
    assert {name for name, found in named.items() if found} <= NAMED_BY_STRING, named
    assert "frontend.urls" in named["config.urls"]  # the check reads what it should


def test_a_planted_upward_import_is_found(tmp_path):
    """The check is real: an upward import planted in a copy of the tree's graph, and in files, is found."""
    planted = {name: set(deps) for name, deps in GRAPH.items()}
    planted["config.api"].add("matches.errors")  # config mapping a domain error by importing it
    planted["rulesets.base"].add("config.errors")  # the floor's two halves: neither imports the other
    planted["matches.services"].add("campaigns.saltmarsh.services")
    assert _upward(planted) == [
        "config.api imports matches.errors",
        "matches.services imports campaigns.saltmarsh.services",
        "rulesets.base imports config.errors",
    ]

    for package in ("config", "frontend", "frontend/views"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "config" / "errors.py").write_text("def page():\n    from frontend.views.pages import not_found\n")
    (tmp_path / "config" / "urls.py").write_text('from django.urls import include\n\nurls = include("frontend.urls")\n')
    (tmp_path / "frontend" / "views" / "pages.py").write_text("from config import errors\n\nnot_found = errors\n")
    graph = _graph(_modules("config", "frontend", root=tmp_path))
    assert _upward(graph) == ["config.errors imports frontend.views.pages"]  # lazy; urls' include is no import
    assert _app_names(tmp_path / "config" / "urls.py") == {"frontend.urls"}
    assert _app_names(tmp_path / "config" / "errors.py") == set()


@pytest.mark.parametrize(
    ("package", "ranks"), [("matches", MATCHES_RANKS), ("frontend", FRONTEND_RANKS), ("campaigns", CAMPAIGNS_RANKS)]
)
def test_the_parts_import_downward(package, ranks):
    modules = _modules(package)
    for name in modules:
        assert name == package or _rank(name, ranks) is not None, f"{name} is on no part of the map"
    for name in modules:
        if name == package:
            continue
        mine = _rank(name, ranks)
        for dep in GRAPH[name]:
            if dep.split(".")[0] != package or dep == package:
                continue
            theirs = _rank(dep, ranks)
            same = _part(dep, ranks) == _part(name, ranks)
            assert same or theirs < mine, f"{name} (rank {mine}) imports {dep} (rank {theirs})"


@pytest.mark.parametrize("package", ["matches", "frontend", "campaigns"])
def test_few_loose_modules(package):
    loose = [p.stem for p in (ROOT / package).glob("*.py") if p.stem != "__init__"]
    assert len(loose) <= LOOSE_MAX, sorted(loose)
    for sub in (ROOT / package).iterdir():
        if sub.is_dir() and sub.name not in DJANGO_FOLDERS + DATA_FOLDERS:
            assert (sub / "__init__.py").exists(), sub
            assert ast.get_docstring(ast.parse((sub / "__init__.py").read_text())), f"{sub} says what it is"


def test_the_stats_modules_import_in_one_direction():
    stats = {name: deps & STATS for name, deps in GRAPH.items() if name in STATS}
    assert set(stats) == STATS
    assert _cycles(stats) == []
    # the registry is at the bottom: it imports no read model; the read models import it
    assert stats["matches.projections.projectors"] == set()
    assert "matches.projections.projectors" in stats["matches.projections.play_stats"]
    assert "matches.projections.projectors" in stats["campaigns.saltmarsh.stats"]


def test_who_a_reader_is_has_one_home_that_imports_none_of_its_readers():
    modules = _modules("matches", "campaigns", "frontend")
    assert GRAPH["matches.store.visibility"] & set(modules) == {"matches.store.events"}  # lazily: a fold
    for name, path in modules.items():
        if name != "matches.store.visibility":
            source = path.read_text()
            assert "def can_record" not in source and "def can_view" not in source and "def viewer_for" not in source, (
                name
            )
