"""The runtime requirements alone run the worker: Celery's Redis extra, and its transport importable."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

REQUIREMENTS = Path(__file__).resolve().parents[2] / "requirements.txt"


def runtime_requirements() -> dict[str, str]:
    """``name[extras]`` → pinned version, from requirements.txt (comments dropped)."""
    pins = {}
    for line in REQUIREMENTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.strip().lower()] = version.strip()
    return pins


def test_celery_is_required_with_its_redis_extra_pinned():
    pins = runtime_requirements()
    assert "celery[redis]" in pins and re.fullmatch(r"\d+\.\d+\.\d+", pins["celery[redis]"])
    assert "celery" not in pins  # one pin, with the extra


def test_the_redis_extra_brings_what_the_transport_imports():
    extra = [r for r in importlib.metadata.requires("kombu") or [] if 'extra == "redis"' in r]
    assert any(r.startswith("packaging") for r in extra) and any(r.startswith("redis") for r in extra)
    import kombu.transport.redis  # noqa: F401  (what `celery -A config worker` loads with a redis:// broker)
