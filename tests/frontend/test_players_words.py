"""No developer words on a player's screen (issue 23 item 14): over the rendered pages of every game and
section, the visible text holds no game slug, no JSON, no "(s)" and no snake_case wire name; a match's pages
count its entries as moves ("move 13 of 13"), never "version 13" or "entry 16"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from matches.services import match_create, match_event_record
from rulesets import all_rulesets, get_ruleset
from tests.frontend.test_form_coverage import SCENARIOS, Scenario

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

SLUGS = [r.slug for r in all_rulesets() if r.slug != "series"]  # "series" is also an English word
JSON = re.compile(r'[{\[]\s*"|"\w+"\s*:|\{\s*\}|\[\s*\]')
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def visible_text(html: str) -> str:
    """The page's text as a reader sees it: no markup, scripts, styles or attribute values."""
    html = re.sub(r"(?s)<(script|style|template|noscript)\b[^>]*>.*?</\1>", " ", html)
    html = re.sub(r"(?s)<!--.*?-->", " ", html)
    text = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
        text = text.replace(entity, char)
    return re.sub(r"\s+", " ", text)


def developer_words(text: str) -> list[str]:
    found = [s for s in SLUGS if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)]
    found += [m.group(0) for m in JSON.finditer(text)]
    found += ["(s)"] * text.count("(s)")
    found += [m.group(0) for m in SNAKE.finditer(text)]
    return found


def played(owner: Any, slug: str, scenario: Scenario, steps: int = 6) -> Any:
    """A match of ``slug`` a few entries in (the form-coverage scenario's first entries)."""
    match = match_create(
        owner=owner, game=slug, seats=[{"name": n} for n in ("Ana", "Bo", "Cy", "Di")[: scenario.seats]],
        options=scenario.options, title="",
    )  # fmt: skip
    ruleset = get_ruleset(slug)
    from matches import store

    for step in scenario.script[:steps]:
        state = store.head_load(match.stream_id, fresh=True).state
        if isinstance(step, str):
            legal = ruleset.legal_moves(state) or []
            kind = step.removeprefix("legal:")
            move = next(m for m in legal if kind in ("*", m.type))
        else:
            move = step if not callable(step) or hasattr(step, "type") else step(ruleset, state)
        match_event_record(match=match, user=owner, type=move.type, seat=move.seat, data=move.data)
    return match


def test_no_page_shows_a_slug_json_or_developer_words(client, owner):
    client.force_login(owner)
    urls = ["/", "/matches/", "/matches/new/", "/matches/log/", "/campaigns/", "/series/", "/games/",
            "/stats/players/", "/stats/me/", "/catalogs/"]  # fmt: skip
    for slug, scenario in SCENARIOS.items():
        match = played(owner, slug, scenario)
        urls += [f"/matches/{match.pk}/", f"/matches/{match.pk}/history/", f"/matches/{match.pk}/?at=1"]
        urls += [f"/matches/new/?game={slug}", f"/games/{slug}/"]
    from campaigns.series import series_create
    from campaigns.services import campaign_create, campaign_event_record

    campaign = campaign_create(owner=owner, name="Dunwater", options={"level_up_cost": 1500})
    for hero, cls in (("Ana", "Fighter"), ("Bo", "Wizard")):
        campaign_event_record(campaign=campaign, user=owner, type="hero_joined", data={"hero": hero, "class": cls})
    series = series_create(owner=owner, name="Thursday league", game="last-stone")
    base = f"/campaigns/{campaign.pk}/"
    urls += [base, base + "town/", base + "ledger/", base + "history/", f"/series/{series.pk}/"]
    urls += ["/", "/matches/", "/campaigns/", "/series/"]  # again, now with something in the lists
    problems = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        text = visible_text(response.content.decode())
        words = developer_words(text)
        if url.startswith("/matches/"):  # a match's entries are its moves: "move 13 of 13", never "Version 13 / 13"
            words += re.findall(r"\b(?:[Vv]ersions? \d+|[Ee]ntry \d+|[Ee]ntries \d+)", text)
        if words:
            problems[url] = sorted(set(words))[:8]
    assert not problems, problems


def test_the_state_as_data_is_behind_a_developer_toggle(client, owner, stone_match, make_user):
    """Off by default; the API token page turns it on for this user only, and off again."""
    client.force_login(owner)
    page = client.get(f"/matches/{stone_match.pk}/").content.decode()
    assert "&quot;pile&quot;" not in page and "state as data" not in page and "?data=1" not in page
    settings_page = client.get("/accounts/token/").content.decode()
    assert 'name="developer_view"' in settings_page and 'id="id_developer_view" checked' not in settings_page
    assert "&quot;pile&quot;" not in client.get(f"/matches/{stone_match.pk}/?data=1").content.decode()

    response = client.post("/accounts/token/", {"action": "developer", "developer_view": "on"}, follow=True)
    assert "Developer view is on" in response.content.decode()
    assert 'id="id_developer_view" checked' in client.get("/accounts/token/").content.decode()
    shown = client.get(f"/matches/{stone_match.pk}/").content.decode()
    assert 'id="state-data"' in shown and "&quot;pile&quot;: 10" in shown
    recorder, other = make_user("ed"), Client()  # another user who may read the match: still off for them
    stone_match.recorders.add(recorder)
    other.force_login(recorder)
    assert "&quot;pile&quot;" not in other.get(f"/matches/{stone_match.pk}/").content.decode()

    client.post("/accounts/token/", {"action": "developer"})  # the box left unticked
    assert "&quot;pile&quot;" not in client.get(f"/matches/{stone_match.pk}/").content.decode()
    assert Token.objects.filter(user=owner).count() == 0  # the toggle leaves the API token alone
