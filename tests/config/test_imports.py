"""Every module of the API imports first in a fresh process (the REST_FRAMEWORK settings name classes of
``config.api``: DRF's views module must not be imported by it while it is half-built)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    "module", ["config.api", "matches.api.serializers", "matches.api.streams", "campaigns.saltmarsh.api", "config.urls"]
)
def test_module_imports_first_in_a_fresh_process(module):
    code = f"import django; django.setup(); import {module}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", code], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
