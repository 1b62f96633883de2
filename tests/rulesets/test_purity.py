"""Nothing under rulesets/ may import Django, touch I/O, read the clock or draw random numbers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
FORBIDDEN = {"django", "rest_framework", "celery", "random", "time", "datetime", "os", "socket", "subprocess",
             "pathlib", "io", "requests", "urllib", "secrets", "uuid", "sqlite3", "psycopg"}  # fmt: skip


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in {"open", "__import__", "eval", "exec"}:
            found.add(f"call:{node.func.id}")
    return found


FILES = sorted(RULESETS.rglob("*.py"))


def test_there_are_ruleset_modules_to_check():
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(RULESETS)) for p in FILES])
def test_ruleset_module_is_pure(path):
    bad = {name for name in _imports(path) if name in FORBIDDEN or name.startswith("call:")}
    assert not bad, f"{path.relative_to(RULESETS)} imports or calls {sorted(bad)}"


def test_the_checker_catches_a_django_import(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("from django.db import models\nimport random\n")
    assert {"django", "random"} <= _imports(sample)
