"""No developer words on a player's screen (issue 23 item 14), read in Chromium at 390×844: over every game's
match page (live and replayed), history and new-match form, and the other main pages (home, lists, campaign
sheet, town, ledger, series, stats, import), the visible text (``innerText``, every disclosure opened) holds no
game slug, no JSON, no "(s)" and no snake_case wire name, whole words; a match's pages count entries as moves
("move 13 of 13"), never "version 13" or "entry 16". One phone, one page, the whole tour."""

from __future__ import annotations

import pytest

from campaigns.series import series_create
from campaigns.services import campaign_create, campaign_event_record
from tests.frontend.players_words import developer_words, played
from tests.frontend.test_form_coverage import SCENARIOS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OPEN_AND_READ = "() => { document.querySelectorAll('details').forEach(d => { d.open = true; }); return document.body.innerText; }"  # fmt: skip


def test_no_page_shows_a_slug_json_or_developer_words(signed_in_phone, live_server, keeper):
    urls = ["/", "/matches/", "/matches/new/", "/matches/log/", "/campaigns/", "/series/", "/games/",
            "/stats/players/", "/stats/me/", "/stats/import-export/", "/catalogs/", "/accounts/token/"]  # fmt: skip
    for slug, scenario in SCENARIOS.items():
        match = played(keeper, slug, scenario)
        urls += [f"/matches/{match.pk}/", f"/matches/{match.pk}/history/", f"/matches/{match.pk}/?at=1"]
        urls += [f"/matches/new/?game={slug}", f"/games/{slug}/"]
    campaign = campaign_create(owner=keeper, name="Dunwater", options={"level_up_cost": 1500})
    for hero, cls in (("Ana", "Fighter"), ("Bo", "Wizard")):
        campaign_event_record(campaign=campaign, user=keeper, type="hero_joined", data={"hero": hero, "class": cls})
    series = series_create(owner=keeper, name="Thursday league", game="last-stone")
    base = f"/campaigns/{campaign.pk}/"
    urls += [base, base + "town/", base + "ledger/", base + "history/", f"/series/{series.pk}/"]
    urls += ["/", "/matches/", "/campaigns/", "/series/"]  # again, now with something in the lists
    page, problems = signed_in_phone, {}
    for url in urls:
        response = page.goto(live_server.url + url)
        assert response is not None and response.status == 200, url
        words = developer_words(page.evaluate(OPEN_AND_READ), match_page=url.startswith("/matches/"))
        if words:
            problems[url] = sorted(set(words))[:8]
    assert not problems, problems
