"""``manage.py bench <name>`` (benchmarks/, docs/PERFORMANCE.md): one command lists and runs every benchmark with
every option each had as a command of its own, re-runs on PostgreSQL where it must, refuses where it cannot, and
the app never imports the benchmarks."""

from __future__ import annotations

import ast
import io
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from benchmarks import SUBJECTS, harness
from matches.management.commands import bench

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "rulesets", "matches", "campaigns", "frontend")
COMMAND = "matches.management.commands.bench"
# every option of the nine bench_* commands of before, as ``manage.py bench <name> …`` now takes them
OLD_OPTIONS = {
    "store": ["--quick", "--seconds", "2", "--writers", "4", "--interleave", "2", "--profile", "--partitions", "4",
              "--sizes", "1000,2000"],
    "http": ["--clients", "4", "--seconds", "2", "--stack", "granian:2x2", "--stack", "sync:4",
             "--worker-concurrency", "2", "--quick", "--profile", "--keep-logs"],
    "history": ["--entries", "300", "--repeat", "3"],
    "stats": ["--matches", "50", "--repeat", "3"],
    "import": ["--plays", "60", "--shape", "plain", "--batch", "20", "--projector", "after"],
    "photos": ["--repeat", "1", "--photos", "3"],
    "photo_memory": ["--only", "palette"],
    "live": ["--seconds", "1", "--moves", "4"],
    "inplace": ["--samples", "2", "--moves", "2"],
    "offline": ["--moves", "5", "--throttle", "0", "--bytes", "--stdlib-imports", "--reload-only", "--reloads", "2",
                "--warmups", "0"],
    "get_salty": [],
}  # fmt: skip


def _parse(*argv: str) -> tuple[bench.Command, dict]:
    command = bench.Command()
    parser = command.create_parser("manage.py", "bench")
    return command, vars(parser.parse_args(argv))


def test_the_list_names_every_benchmark_on_a_line_of_its_own():
    out = io.StringIO()
    call_command("bench", "--list", stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines] == list(SUBJECTS)
    assert all(len(line.split(None, 1)[1]) > 20 for line in lines), lines
    assert set(OLD_OPTIONS) == set(SUBJECTS)


@pytest.mark.parametrize("name", sorted(OLD_OPTIONS))
def test_every_option_of_the_old_commands_is_reachable_and_reaches_a_rerun(name):
    command, options = _parse(name, *OLD_OPTIONS[name], "-v2")
    assert options["subject"] == name and options["verbosity"] == 2
    again = harness.argv_of(command.parsers[name], options)
    assert "--verbosity=2" in again
    _, reparsed = _parse(name, *again)
    assert reparsed == options  # nothing lost on the way to a re-run
    _, plain = _parse(name)
    assert harness.argv_of(command.parsers[name], plain) == ["--verbosity=1"]  # defaults are left out


def test_an_unknown_benchmark_or_option_is_refused():
    with pytest.raises(CommandError):
        call_command("bench", "nope")
    with pytest.raises(CommandError):
        call_command("bench", "store", "--no-such-option")


def test_a_benchmark_of_postgresql_reruns_there_with_its_options(monkeypatch):
    ran = []

    def fake_run(argv, env, **kw):
        ran.append((argv, env["DATABASE_URL"]))
        return subprocess.CompletedProcess(argv, 0, stdout="figures\n", stderr="")

    monkeypatch.setattr(bench, "connection", SimpleNamespace(vendor="sqlite"))
    monkeypatch.setattr(harness.subprocess, "run", fake_run)
    monkeypatch.setenv("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    out = io.StringIO()
    call_command("bench", "store", "--sizes", "1000,2000", "--writers", "3", stdout=out)

    (argv, url), = ran  # fmt: skip
    assert argv[2:] == ["bench", "store", "--verbosity=1", "--writers", "3", "--sizes", "1000,2000"]
    assert url == "postgres://postgres@127.0.0.1:5432/postgres"
    assert "re-running against postgres://" in out.getvalue() and "figures" in out.getvalue()

    monkeypatch.setattr(
        harness.subprocess, "run", lambda argv, env, **kw: subprocess.CompletedProcess(argv, 3, "", "boom")
    )
    with pytest.raises(CommandError, match="exited with 3"):
        call_command("bench", "history", stdout=io.StringIO(), stderr=io.StringIO())


@pytest.mark.parametrize("name", ["import", "live", "inplace"])
def test_a_benchmark_that_needs_postgresql_refuses_elsewhere(monkeypatch, name):
    monkeypatch.setattr(bench, "connection", SimpleNamespace(vendor="sqlite"))
    with pytest.raises(CommandError, match=f"bench {name} measures on PostgreSQL"):
        call_command("bench", name)


def _importers_of_benchmarks(root: Path, packages: tuple[str, ...]) -> set[str]:
    """The modules of ``packages`` that import ``benchmarks`` (lazily or not)."""
    found = set()
    for package in packages:
        for path in (root / package).rglob("*.py"):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            for node in ast.walk(ast.parse(path.read_text())):
                modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                modules += [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if any(m == "benchmarks" or m.startswith("benchmarks.") for m in modules):
                    found.add(name)
    return found


def test_only_the_command_imports_the_benchmarks(tmp_path):
    assert _importers_of_benchmarks(ROOT, APPS) == {COMMAND}

    (tmp_path / "matches").mkdir()
    (tmp_path / "matches" / "views.py").write_text("def page():\n    from benchmarks.harness import Out\n")
    assert _importers_of_benchmarks(tmp_path, ("matches",)) == {"matches.views"}  # the check is real


def test_no_benchmark_module_over_700_lines_nor_function_over_100():
    for path in (ROOT / "benchmarks").glob("*.py"):
        source = path.read_text()
        assert len(source.splitlines()) <= 700, path
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno - node.lineno < 100, f"{path.name}: {node.name}"


def test_the_percentiles():
    values = [float(v) for v in range(1, 41)]  # 1 … 40, shuffled order does not matter
    assert harness.quantile(list(reversed(values)), 0.9) == 37.0  # index ⌊0.9 · 40⌋ = 36
    assert harness.quantile(values, 1.0) == 40.0
    assert harness.p95(values) == 38.0  # rank ⌊0.95 · 40⌋ = 38
    assert harness.p95([5.0]) == 5.0
