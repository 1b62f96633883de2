"""``scripts/worker``: the worker as every deployment runs it, started again whenever it exits.

A stand-in ``celery`` (a shell script in a fake virtualenv) records each start, so these tests check the
supervision itself in about two seconds; the real worker runs under it in tests/config/test_fault_probe.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.config.private_services import wait_until

pytestmark = pytest.mark.pure

WORKER = str(Path(__file__).resolve().parents[2] / "scripts" / "worker")


def _fake_celery(venv: Path, body: str) -> Path:
    """``venv/bin/celery`` running ``body``; each start appends its arguments to ``venv/starts``."""
    (venv / "bin").mkdir(parents=True)
    celery = venv / "bin" / "celery"
    celery.write_text(f'#!/usr/bin/env bash\necho "$@" >> "{venv}/starts"\n' + textwrap.dedent(body))
    celery.chmod(0o755)
    return venv / "starts"


def _run(venv: Path, **env: str) -> subprocess.Popen[str]:
    environ = {**os.environ, "VIRTUAL_ENV": str(venv), "CHRONICLE_LOG_FORMAT": "text", **env}
    return subprocess.Popen([WORKER], env=environ, stderr=subprocess.PIPE, text=True)


def _starts(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_a_worker_that_exits_is_started_again_and_sigterm_stops_both(tmp_path):
    starts = _fake_celery(
        tmp_path,
        f"""
        if [ "$(wc -l < "{tmp_path}/starts")" -eq 1 ]; then exit 3; fi  # the first one dies at once
        trap 'echo stopped >> "{tmp_path}/starts"; kill $!; exit 0' TERM
        touch "{tmp_path}/ready"
        sleep 30 >/dev/null 2>&1 &
        wait
        """,
    )
    script = _run(tmp_path, WORKER_CONCURRENCY="2")
    try:
        assert wait_until((tmp_path / "ready").exists, 10), _starts(starts)
        assert len(_starts(starts)) == 2
        assert _starts(starts)[0] == "-A config worker --loglevel INFO --concurrency 2"
        script.send_signal(signal.SIGTERM)  # as systemd or a Procfile runner stops it
        assert script.wait(10) == 0
    finally:
        script.kill()
    assert _starts(starts)[2:] == ["stopped"]  # the worker got the signal; nothing started after it
    assert "the worker exited with status 3; starting it again in 1 s" in script.stderr.read()


def test_a_configuration_error_is_not_retried(tmp_path):
    starts = _fake_celery(tmp_path, "exit 78\n")  # what config.celery exits with when DJANGO_SECRET_KEY is unset
    script = _run(tmp_path)
    assert script.wait(10) == 78
    assert len(_starts(starts)) == 1
    assert "not restarting it" in script.stderr.read()
