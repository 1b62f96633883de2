"""The shared stream layer: one record path for every kind, its hooks, and apps that do not import each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from campaigns.models import Campaign, Series
from campaigns.saltmarsh.services import campaign_create
from campaigns.series.services import series_create
from matches.errors import NotAllowed, NotFound, RuleBroken
from matches.models import Match
from matches.store import streams

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parents[3]


def _imports(path: Path) -> set[str]:
    """Every module a source file imports (at any depth: lazy imports count)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_match_and_campaign_services_do_not_import_each_other():
    assert not any(m.startswith("campaigns") for m in _imports(ROOT / "matches" / "services.py"))
    # the campaign's link to its adventure matches hangs off the shared layer, registered by the campaigns app
    assert "matches.store.streams" in _imports(ROOT / "campaigns" / "kinds.py")
    for path in sorted((ROOT / "matches").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        assert not any(m.startswith("campaigns") for m in _imports(path)), path.relative_to(ROOT)


def test_every_kind_is_registered_with_its_model():
    assert streams.kind_get("match").model is Match
    assert streams.kind_get("campaign").model is Campaign
    assert streams.kind_get("series").model is Series


def test_one_record_path_refuses_strangers_of_every_kind_in_its_own_words(owner, stranger, stone_match):
    campaign = campaign_create(owner=owner, name="Saltmarsh")
    series = series_create(owner=owner, name="League", game="last-stone")
    words = {
        stone_match: "Only the match's owner and the recorders they named may record moves.",
        campaign: "Only the campaign's owner and the recorders they named may record.",
        series: "Only the series's owner and the recorders they named may record.",
    }
    for obj, detail in words.items():
        with pytest.raises(NotAllowed) as info:
            streams.stream_record(obj=obj, user=stranger, type="event_voided", data={"version": 1, "reason": "x"})
        assert info.value.detail == detail
        assert obj.stream.events.count() == 0


def test_hooks_run_after_and_around_each_entry_of_their_kind_only(owner, stone_match, monkeypatch):
    calls = []
    monkeypatch.setitem(
        streams._AFTER_RECORD, "series", [lambda obj, user, result: calls.append(("after", result.version))]
    )

    def around(obj, user, append, request_id):
        calls.append(("before", obj.stream.version))
        result = append()
        calls.append(("around", result.version))
        return result

    monkeypatch.setitem(streams._AROUND_RECORD, "series", [around])
    series = series_create(owner=owner, name="League", game="last-stone")
    streams.stream_record(obj=series, user=owner, type="match_added", data={"match": stone_match.pk})
    assert calls == [("before", 0), ("after", 1), ("around", 1)]
    streams.stream_record(obj=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 1})
    assert len(calls) == 3  # a match entry runs the match kind's hooks, not the series'


def test_an_after_hook_that_raises_inside_an_around_transaction_writes_nothing(owner, stone_match, monkeypatch):
    from django.db import transaction

    def boom(obj, user, result):
        raise RuleBroken("nope", "A hook refused.", "Test")

    def atomic(obj, user, append, request_id):
        with transaction.atomic():
            return append()

    monkeypatch.setitem(streams._AFTER_RECORD, "series", [boom])
    monkeypatch.setitem(streams._AROUND_RECORD, "series", [atomic])
    series = series_create(owner=owner, name="League", game="last-stone")
    with pytest.raises(RuleBroken):
        streams.stream_record(obj=series, user=owner, type="match_added", data={"match": stone_match.pk})
    assert series.stream.events.count() == 0


def test_refusals_name_the_players(owner, stone_match):
    with pytest.raises(RuleBroken) as info:
        streams.stream_record(obj=stone_match, user=owner, type="stones_taken", seat=1, data={"count": 1})
    assert "Ana" in info.value.detail and "seat 0" not in info.value.detail.lower()


def test_stream_get_hides_private_objects_of_every_kind(owner, stranger):
    series = series_create(owner=owner, name="League", game="last-stone", is_public=False)
    campaign = campaign_create(owner=owner, name="Saltmarsh", is_public=False)
    for kind, obj in (("series", series), ("campaign", campaign)):
        assert streams.stream_get(kind=kind, user=owner, pk=obj.pk) == obj
        with pytest.raises(NotFound):
            streams.stream_get(kind=kind, user=stranger, pk=obj.pk)
