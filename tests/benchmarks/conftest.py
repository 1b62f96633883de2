"""The browser of the benchmarks' browser test: the frontend tests' Chromium, one per module."""

from tests.frontend.conftest import browser  # noqa: F401 (a fixture, found here by pytest)
