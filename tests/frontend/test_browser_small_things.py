"""Issue 33 item 10 (and item 8's card cost), measured in Chromium on a 390×844 phone: Salt & Bones' Momentum
token and the charts' labels draw at 12 px or more, a checkbox is never squeezed and its target is 44 px, a
finished match's table bar is one compact row that scrolls away, Bone Wars' slot icons keep AA contrast in dark
mode, and its card form asks a card's own cost for team cards only."""

from __future__ import annotations

import pytest

from campaigns.series.services import series_create, series_match_add
from matches.projections.tasks import project_all
from matches.services import match_create, match_event_record
from tests.frontend.forms.test_form_coverage import SCENARIOS
from tests.frontend.phones import phone_page, sign_in
from tests.frontend.players_words import played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# the drawn size of each SVG text: its font size in the drawing's units times the drawing's scale
DRAWN_TEXT = """(sel) => [...document.querySelectorAll(sel)].filter(t => t.getClientRects().length).map(t => {
  const svg = t.ownerSVGElement, box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
  return [t.textContent.trim(), parseFloat(getComputedStyle(t).fontSize) * box.width / vb.width];
})"""
CONTRAST = """(sel) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const back = (el) => { for (; el; el = el.parentElement) { const c = getComputedStyle(el).backgroundColor; if (!/rgba\\(0, 0, 0, 0\\)|transparent/.test(c)) return c; } return "rgb(255, 255, 255)"; };
  return [...document.querySelectorAll(sel)].map(el => { const a = lum(getComputedStyle(el).color), b = lum(back(el)); return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); });
}"""


def test_the_momentum_token_and_the_charts_draw_their_words_at_12_px(signed_in_phone, live_server, keeper):
    page = signed_in_phone
    match = played(keeper, "salt-and-bones", SCENARIOS["salt-and-bones"])
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    tokens = page.evaluate(DRAWN_TEXT, "svg.sb-token text")
    assert tokens and all(size >= 12 for _, size in tokens), tokens
    league = series_create(owner=keeper, name="Thursday league", game="last-stone")
    for taken in (1, 2):
        stones = match_create(owner=keeper, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                              options={"stones": taken})  # fmt: skip
        for seat in range(taken):
            match_event_record(match=stones, user=keeper, type="stones_taken", seat=seat % 2, data={"count": 1})
        series_match_add(series=league, user=keeper, match_id=stones.pk)
    project_all()
    for url, chart in (("/games/last-stone/", "figure.bars-chart"), (f"/series/{league.pk}/", "figure.chart")):
        page.goto(f"{live_server.url}{url}")
        labels = page.evaluate(DRAWN_TEXT, f"{chart} svg text")
        assert labels and min(size for _, size in labels) >= 12, (url, sorted(labels, key=lambda t: t[1])[:5])


def test_checkboxes_are_whole_and_tappable_and_a_finished_bar_is_compact(signed_in_phone, live_server, keeper):
    page = signed_in_phone
    page.goto(f"{live_server.url}/matches/new/?game=bone-wars")
    boxes = page.evaluate("""() => [...document.querySelectorAll('input[type=checkbox]')].filter(b => b.getClientRects().length).map(b => {
      const r = b.getBoundingClientRect(), t = (b.closest('label') || b).getBoundingClientRect();
      return [b.name, r.width, r.height, t.width, t.height];
    })""")  # fmt: skip
    assert any(name == "is_public" for name, *_ in boxes), boxes
    for name, w, h, tw, th in boxes:
        assert w == h and w >= 20 and tw >= 44 and th >= 44, (name, w, h, tw, th)
    stones = match_create(owner=keeper, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                          options={"stones": 1}, title="Friday")  # fmt: skip
    match_event_record(match=stones, user=keeper, type="stones_taken", seat=0, data={"count": 1})
    page.goto(f"{live_server.url}/matches/{stones.pk}/")
    bar = page.evaluate("() => { const b = document.getElementById('tablebar'); return [b.getBoundingClientRect().height, getComputedStyle(b).position]; }")  # fmt: skip
    assert bar[0] <= 130, bar  # it was ~290 px of 844 (still sticky: the last move's outcome is said in it)


def test_bone_wars_icons_in_the_dark_and_the_card_cost_for_team_cards_only(browser, live_server, keeper):
    page = phone_page(browser, color_scheme="dark")
    try:
        sign_in(page, live_server.url, "keeper")
        match = played(keeper, "bone-wars", SCENARIOS["bone-wars"], steps=0)
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        ratios = page.evaluate(CONTRAST, "svg.bw-icon")
        assert ratios and min(ratios) >= 4.5, ratios
        form = page.locator("form.bw-card-form")
        cost = form.locator("input[name$='card.cost']")
        for kind, shown in (("species", False), ("paleontologist", False), ("team", True)):
            form.locator("select[name$='card.kind']").select_option(kind)
            assert cost.is_visible() is shown, kind
    finally:
        page.context.close()
