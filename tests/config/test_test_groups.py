"""The test tooling (docs/TESTING.md): the group check refuses a test file outside the four groups, and
``scripts/test --quick`` picks the tests a change touches."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from touched_tests import touched_tests  # noqa: E402

CONFTEST = "from tests.conftest import pytest_collection_modifyitems  # noqa: F401  (the check under test)\n"


def _collect(tmp_path: Path, files: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Collect ``files`` (name → source) with the suite's group check, in a pytest of their own."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    for name, source in files.items():
        (tmp_path / name).write_text("import pytest\n\n" + source)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:django", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip


def test_a_file_in_no_group_or_in_two_or_in_a_wrong_one_stops_the_run(tmp_path):
    run = _collect(
        tmp_path,
        {
            "test_none.py": "def test_a():\n    pass\n",
            "test_two.py": "pytestmark = [pytest.mark.pure, pytest.mark.one_db]\n\ndef test_b():\n    pass\n",
            "test_lies.py": "pytestmark = [pytest.mark.pure, pytest.mark.django_db]\n\ndef test_c():\n    pass\n",
            "test_fine.py": "pytestmark = pytest.mark.pure\n\ndef test_d():\n    pass\n",
        },
    )
    out = run.stdout + run.stderr
    assert run.returncode == 4, out  # a usage error: scripts/test and CI fail
    assert "test_none.py: no test group" in out
    assert "test_two.py: several test groups: one_db, pure" in out
    assert "test_lies.py: marked pure but test_c uses the database" in out
    assert "test_fine.py: " not in out  # only the three wrong files are named


def test_files_each_in_one_group_are_collected(tmp_path):
    run = _collect(tmp_path, {"test_fine.py": "pytestmark = pytest.mark.pure\n\ndef test_d():\n    pass\n"})
    assert run.returncode == 0, run.stdout + run.stderr


def test_quick_runs_changed_tests_and_the_tests_of_changed_modules():
    assert touched_tests({"tests/matches/store/test_store.py", "README.md"}) == ["tests/matches/store/test_store.py"]
    assert "tests/rulesets/get_salty" in touched_tests({"rulesets/get_salty/rules.py"})
    by_import = touched_tests({"matches/store/events.py"})  # named as `from matches import store` or `matches.store`
    assert (
        "tests/matches/store/test_store.py" in by_import
        and "tests/matches/store/test_append_concurrency.py" in by_import
    )
    assert touched_tests({"docs/TESTING.md", "tests/conftest.py"}) == []
