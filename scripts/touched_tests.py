"""Print the test files a change touches, one per line (`scripts/test --quick` runs them).

A change is what git sees against HEAD (staged, unstaged and untracked files) plus, on a branch other than main,
the commits since it left main. A changed test file is selected itself; a changed source module selects the tests
mirroring its package (`rulesets/get_salty/…` → `tests/rulesets/get_salty/`) and every test file naming the module
(`matches.store`, `from matches import store`). Deleted files and files outside the Python packages select nothing.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rulesets", "matches", "campaigns", "frontend", "config", "benchmarks")


def _git(*args: str) -> list[str]:
    out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout
    return [line for line in out.splitlines() if line]


def changed_files() -> set[str]:
    """Paths (relative to the repository) changed in the work tree, the index or this branch's own commits."""
    files = set(_git("diff", "--name-only", "HEAD")) | set(_git("ls-files", "--others", "--exclude-standard"))
    branch = _git("rev-parse", "--abbrev-ref", "HEAD")
    if branch and branch[0] not in ("main", "HEAD"):
        files |= set(_git("diff", "--name-only", "main...HEAD"))
    return {f for f in files if (ROOT / f).exists()}


def touched_tests(changed: set[str]) -> list[str]:
    """The test files and folders that cover ``changed``, sorted, without duplicates."""
    tests_dir = ROOT / "tests"
    all_tests = sorted(tests_dir.rglob("test_*.py"))
    selected: set[str] = set()
    for name in changed:
        path = Path(name)
        if not name.endswith(".py"):
            continue
        if path.parts[0] == "tests":
            if path.name.startswith("test_"):
                selected.add(name)
            continue
        if path.parts[0] not in PACKAGES:
            continue
        mirror = tests_dir.joinpath(*path.parts[:-1])
        if len(path.parts) > 2 and mirror.is_dir():
            selected.add(str(mirror.relative_to(ROOT)))
        dotted = ".".join(path.with_suffix("").parts)
        if dotted.endswith(".__init__"):
            dotted = dotted[: -len(".__init__")]
        parent, _, leaf = dotted.rpartition(".")
        named = re.compile(rf"\b{re.escape(dotted)}\b|from {re.escape(parent)} import [^\n]*\b{re.escape(leaf)}\b")
        for test in all_tests:
            if named.search(test.read_text(encoding="utf-8")):
                selected.add(str(test.relative_to(ROOT)))
    return sorted(selected)


if __name__ == "__main__":
    sys.stdout.write("".join(f"{t}\n" for t in touched_tests(changed_files())))
