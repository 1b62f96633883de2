"""The whole app on a 390×844 phone (headless Chromium), every page of the demo data as its owner sees it: the
phone menu reaches every section; nothing a player must read is under 12 CSS px; every touch target is at least
44×44 CSS px; dark mode (the phone's setting) darkens every page and board, and axe-core finds no colour pair
under WCAG AA contrast in either scheme; the footer's API and Admin links are for staff only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}

# every control's box, except links inside running text (WCAG 2.5.5's inline exception; the bar's inline "more",
# a summary within the turn line's sentence, too) and a box or radio
# wrapped in its label (the label is the target, and is measured)
SMALL_TARGETS = """() => {
  const small = [];
  const inSentence = a => { const p = a.parentElement; return !!p && !p.closest('svg')
    && p.textContent.trim().length > a.textContent.trim().length + 2 && getComputedStyle(a).display === 'inline'; };
  const all = document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, label');
  for (const el of all) {
    if (el.tagName === 'LABEL' && !el.querySelector('input[type=checkbox], input[type=radio]')) continue;
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (r.width <= 1 || r.height <= 1 || r.right <= 0 || cs.visibility === 'hidden') continue;  // not drawn, hidden, or off-screen until focused (the skip link)
    if (el.tagName === 'A' && inSentence(el)) continue;
    if (el.tagName === 'SUMMARY' && el.parentElement.tagName === 'DETAILS' && inSentence(el.parentElement)) continue;
    if (r.width < 43.5 || r.height < 43.5) {
      const text = (el.textContent || el.getAttribute('aria-label') || el.name || '').trim().slice(0, 40);
      small.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${text}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""

# every drawn piece of text; in an SVG drawing its size on screen is its font size times the drawing's scale
SMALL_TEXT = """() => {
  const small = [], seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || seen.has(el) || el.closest('script, style, option, [aria-hidden=true]')) continue;  // an icon's letter is decoration
    seen.add(el);
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 1 && r.height > 1);
    if (!rects.length || getComputedStyle(el).visibility === 'hidden') continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM()) { const m = el.getScreenCTM(); size *= Math.hypot(m.a, m.b); }
    if (size < 11.95) small.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${node.textContent.trim().slice(0, 30)}" ${size.toFixed(1)}px`);
  }
  return small;
}"""

DARK_SURFACES = """() => {
  const lum = el => { const [r, g, b] = getComputedStyle(el).backgroundColor.match(/[\\d.]+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
  return [document.body, ...document.querySelectorAll('.board, .card, .move-form, .hero, .tablebar')]
    .filter(el => getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)' && lum(el) > 0.35)
    .map(el => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
}"""


def report(found: dict[str, list[str]]) -> str:
    """Each problem once, with the first page showing it."""
    first: dict[str, str] = {}
    for path, problems in found.items():
        for problem in problems:
            first.setdefault(problem, path)
    return "\n".join(f"{problem}  (on {path})" for problem, path in first.items())


def sign_in(context: Any, base: str) -> Any:
    from matches.demo import DEMO_PASSWORD, DEMO_USER

    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(DEMO_USER)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(base + "/")
    return page


@pytest.fixture
def every_page(live_server: Any) -> list[str]:
    """The demo data (a part-played match of each game, a campaign, a series, stats, catalogs) and the paths of
    every kind of page showing it."""
    from campaigns.models import Campaign
    from matches.demo import load_demo
    from matches.models import Match

    load_demo()
    paths = ["/", "/matches/", "/matches/new/", "/matches/log/", "/campaigns/", "/series/", "/games/",
             "/stats/players/", "/stats/me/", "/stats/import-export/", "/catalogs/", "/accounts/token/"]  # fmt: skip
    games = sorted({m.game for m in Match.objects.all()})
    paths += [f"/matches/new/?game={g}" for g in games] + [f"/games/{g}/" for g in games]
    for game in games:
        match = Match.objects.filter(game=game).order_by("pk").first()
        paths += [f"/matches/{match.pk}/"]
    paths += [f"/matches/{Match.objects.order_by('pk').first().pk}/history/"]
    for campaign in Campaign.objects.all():
        paths += [f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/town/"]
    from campaigns.models import Series

    paths += [f"/series/{s.pk}/" for s in Series.objects.all()]
    return paths


def test_the_phone_menu_reaches_every_section_in_one_tap(live_server, signed_in_phone):
    page = signed_in_phone
    nav = page.locator("header nav")
    assert nav.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), "the header scrolls sideways"
    page.get_by_text("Menu", exact=True).click()
    panel = page.locator(".menu-panel")
    wanted = {"Matches": "/matches/", "Campaigns": "/campaigns/", "Series": "/series/", "Stats": "/games/",
              "Catalogs": "/catalogs/", "My stats": "/stats/me/", "API token": "/accounts/token/"}  # fmt: skip
    for name, path in wanted.items():
        link = panel.get_by_role("link", name=name, exact=True)
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844, name
        assert box["height"] >= 44, name
        assert link.get_attribute("href") == path, name
    assert panel.get_by_role("button", name="Sign out").is_visible()
    assert "keeper" in panel.inner_text()  # whose account this is
    with page.expect_navigation():
        panel.get_by_role("link", name="Campaigns", exact=True).click()
    assert page.url.endswith("/campaigns/")
    page.get_by_text("Menu", exact=True).click()
    with page.expect_navigation():
        page.locator(".menu-panel").get_by_role("button", name="Sign out").click()
    assert page.get_by_role("link", name="Sign in").count() == 0 or page.locator(".menu-panel").count() == 1


def test_text_size_and_touch_targets_on_every_page(live_server, browser, every_page):
    context = browser.new_context(**PHONE)
    try:
        page = sign_in(context, live_server.url)
        small_text: dict[str, list[str]] = {}
        small_targets: dict[str, list[str]] = {}
        for path in every_page:
            response = page.goto(live_server.url + path)
            assert response is not None and response.ok, path
            page.locator("details:not([open]) > summary").evaluate_all(
                "ss => ss.forEach(s => s.parentElement.open = true)"
            )
            if found := page.evaluate(SMALL_TEXT):
                small_text[path] = found
            if found := page.evaluate(SMALL_TARGETS):
                small_targets[path] = found
        assert not small_text, "text under 12 px:\n" + report(small_text)
        assert not small_targets, "touch targets under 44×44 px:\n" + report(small_targets)
    finally:
        context.close()


def test_contrast_and_dark_mode_on_every_page(live_server, browser, every_page):
    """Each page loaded once and read in both schemes (the phone's setting switched in place: no script of the
    site reads it, the stylesheet alone follows ``prefers-color-scheme``)."""
    # axe is injected as an inline script, which the site's CSP (rightly) refuses: this context bypasses it
    context = browser.new_context(**PHONE, color_scheme="dark", bypass_csp=True)
    try:
        page = sign_in(context, live_server.url)
        failures: dict[str, list[str]] = {}
        bright: dict[str, list[str]] = {}
        for path in every_page:
            page.emulate_media(color_scheme="dark")
            page.goto(live_server.url + path)
            page.locator("details:not([open]) > summary").evaluate_all(
                "ss => ss.forEach(s => s.parentElement.open = true)"
            )
            page.add_script_tag(path=str(AXE))
            for scheme in ("dark", "light"):
                page.emulate_media(color_scheme=scheme)
                assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
                result = page.evaluate(
                    "async () => (await axe.run(document, {runOnly: {type: 'rule', values: ['color-contrast']}}))"
                    ".violations.flatMap(v => v.nodes.map(n => n.target.join(' ') + ': '"
                    " + n.any.map(c => c.message).join(' ')))"
                )
                if result:
                    failures[f"{path} ({scheme})"] = result
                if scheme == "dark" and (found := page.evaluate(DARK_SURFACES)):
                    bright[path] = found
        assert not failures, "contrast under WCAG AA:\n" + report(failures)
        assert not bright, "bright surfaces in dark mode:\n" + report(bright)
    finally:
        context.close()


def test_api_and_admin_links_are_for_staff(live_server, signed_in_phone, keeper):
    page = signed_in_phone
    assert page.locator("footer a[href='/admin/']").count() == 0
    page.goto(live_server.url + "/accounts/token/")
    assert page.locator("main a[href='/api/docs/']").count() == 1  # the API stays one tap from the account
    keeper.is_staff = True
    keeper.save()
    page.goto(live_server.url + "/")
    assert page.locator("footer a[href='/admin/']").count() == 1
    assert page.locator("footer a[href='/api/docs/']").count() == 1
