"""No developer words on a player's screen (issue 23 item 14), read in Chromium at 390×844: over every game's
match page (live and replayed), history and new-match form, and the other main pages (home, lists, campaign
sheet, town, ledger, series, stats, import), the visible text (``innerText``, every disclosure opened) holds no
game slug, no JSON, no "(s)" and no snake_case wire name, whole words; a match's pages count entries as moves
("move 13 of 13"), never "version 13" or "entry 16". One phone, one page, the whole tour.

Issue 33 item 7: the option labels of every select on those pages (the words a player reads when the select
opens, which ``innerText`` does not give) hold none of them either, nor a value spelled as the wire spells it
("circle-red", "attack"); and a match with an undo says it in players' words in its history and on the other
phone's live news ("Ana's move 1 (took 2 stones) was undone at the table")."""

from __future__ import annotations

import pytest

from campaigns.saltmarsh.services import campaign_create, campaign_event_record
from campaigns.series.services import series_create
from matches.services import match_create, match_event_record, match_event_void
from tests.frontend.forms.test_form_coverage import SCENARIOS
from tests.frontend.players_words import developer_words, played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# every option's words, with its select's name: what a player reads when the select opens
OPTIONS = "() => [...document.querySelectorAll('select option')].map(o => [o.closest('select').name, o.value, o.textContent.trim()])"  # fmt: skip
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
    page, problems, raw = signed_in_phone, {}, {}
    for url in urls:
        response = page.goto(live_server.url + url)
        assert response is not None and response.status == 200, url
        words = developer_words(page.evaluate(OPEN_AND_READ), match_page=url.startswith("/matches/"))
        for name, value, text in page.evaluate(OPTIONS):
            words += developer_words(text, match_page=url.startswith("/matches/"))
            if text == value and WIRE.fullmatch(value) and name not in FREE_NAMES:
                raw.setdefault(url, set()).add(f"{name}={value}")  # the wire's value shown as its own label
        if words:
            problems[url] = sorted(set(words))[:8]
    assert not problems, problems
    assert not raw, raw


WIRE = __import__("re").compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")  # "circle-red", "attack", "instinct"
FREE_NAMES = {"seats", "into", "game"}  # selects of names people typed themselves (a player, a match)


def test_a_match_with_an_undo_reads_in_players_words_on_both_phones(browser, signed_in_phone, live_server, keeper):
    from tests.frontend.phones import phone_page, session_for, wait_until

    match = match_create(owner=keeper, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={})
    match_event_record(match=match, user=keeper, type="stones_taken", seat=0, data={"count": 2})
    other = phone_page(browser)
    try:
        session_for(other, live_server.url, keeper)
        other.goto(f"{live_server.url}/matches/{match.pk}/")
        match_event_void(match=match, user=keeper, version=1, reason="Undone at the table")
        said = "Ana's move 1 (took 2 stones) was undone at the table"
        news = wait_until(other, "(s) => document.querySelector('#outcome')?.innerText.includes(s) && document.querySelector('#outcome').innerText", said)  # fmt: skip
        assert developer_words(news, match_page=True) == [], news
        page = signed_in_phone
        page.goto(f"{live_server.url}/matches/{match.pk}/history/")
        text = page.evaluate(OPEN_AND_READ)
        assert said in text and "undone at move 2" in text, text
        assert developer_words(text, match_page=True) == [] and "oided" not in text, text
    finally:
        other.context.close()
