"""Fixtures shared by the store's rebase tests (``test_rebase.py``, ``test_rebase_own.py``)."""

from __future__ import annotations

import pytest

from matches.services import match_create


@pytest.fixture
def sheet(owner):
    """A score sheet of three seats (Ana, Tomas, Cy): any seat may score at any time."""
    return match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Tomas"}, {"name": "Cy"}])
