"""The demo data a newcomer gets: one match of each game and a campaign, loaded once."""

import io

import pytest
from django.core.management import call_command

from campaigns.models import Campaign, Series
from matches.models import Match, Player
from rulesets import all_rulesets

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def test_load_demo_creates_a_match_per_game_and_is_idempotent():
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "demo / demo-pass-123" in out.getvalue()
    games = set(Match.objects.values_list("game", flat=True))
    assert games == {r.slug for r in all_rulesets(kind="match")}
    assert all(m.stream.version > 0 for m in Match.objects.all())
    campaign = Campaign.objects.get()
    assert campaign.stream.state["adventures"][-1]["result"] == "completed"
    series = Series.objects.get()
    assert len(series.stream.state["matches"]) == 4  # finished score-sheet evenings
    history = Match.objects.filter(source_uuid__startswith="demo-play-").count()
    assert history == 16  # earlier plays imported from a BG Stats file, for the dashboards
    assert Player.objects.get(owner__username="demo", name="Ana").user.username == "demo"
    finished = Match.objects.filter(title__in=["Salt & Bones: won by a Chain", "Bone Wars: a quick game"])
    assert [m.status for m in finished] == ["finished", "finished"]  # their logs feed the game pages' insights
    total = Match.objects.count()
    call_command("load_demo", stdout=io.StringIO())
    assert Match.objects.count() == total
