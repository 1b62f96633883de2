"""In real headless Chromium on a phone: a Saltmarsh campaign from the first hero to the gold ledger's chart."""

from __future__ import annotations

import re

import pytest

from campaigns.models import Campaign
from matches.models import Event as EventRow
from tests.frontend.taps import tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_form(page, label: str) -> None:
    """Open a form's disclosure unless it is open already."""
    details = page.locator("details.move-form", has=page.locator("summary", has_text=label)).last
    other = page.locator("details.other-entries", has=details)
    if other.count() and other.get_attribute("open") is None:
        other.locator("summary").first.click()
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()


def hero_block(page, name: str):
    return page.locator("article.hero-block", has=page.locator("dd", has_text=re.compile(f"^{name}$")))


def test_campaign_heroes_adventure_town_and_ledger(live_server, phone, django_user_model):
    django_user_model.objects.create_user(username="keeper", password="salty-crackers-9")
    page = phone
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("keeper")
    page.get_by_label("Password").fill("salty-crackers-9")
    page.get_by_role("button", name="Sign in").click()
    page.locator(".menu-user", has_text="keeper").wait_for(
        state="attached"
    )  # signed in (the phone menu names the account)

    # a new campaign from the campaigns list
    page.goto(live_server.url + "/campaigns/")
    page.get_by_label("Name", exact=True).fill("Saltmarsh Tuesdays")
    page.get_by_label("Level-up cost (gp)").fill("2000")
    page.get_by_role("button", name="Create campaign").click()
    page.get_by_text("Campaign created").wait_for()
    sheet_url = page.url
    campaign = Campaign.objects.get()
    assert sheet_url.endswith(f"/campaigns/{campaign.pk}/")

    # two heroes through the "Hero joined" form
    for hero, cls in (("Ana", "Fighter"), ("Bo", "Wizard")):
        open_form(page, "Hero joined")
        form = page.locator("form[data-event-type=hero_joined]")
        form.get_by_label("Hero").fill(hero)
        form.get_by_label("Class").fill(cls)
        form.get_by_role("button", name="Record").click()
        page.get_by_text(re.compile(rf"Recorded entry \d+: {hero} the {cls} joined the campaign\.")).wait_for()
    assert hero_block(page, "Bo").count() == 1

    # start an adventure with both heroes: it opens as a match
    open_form(page, "Start an adventure")
    form = page.locator("form[data-form=adventure]")
    form.get_by_label("Adventure").fill("The Sinister Secret")
    form.get_by_label("Aftermath reward per hero (gp)").fill("500")
    form.get_by_label("Ana", exact=True).check()
    form.get_by_label("Ana's max HP").fill("12")
    form.get_by_label("Bo", exact=True).check()
    form.get_by_role("button", name="Start the adventure").click()
    page.get_by_text("Adventure started").first.wait_for()
    assert re.search(r"/matches/\d+/$", page.url)

    # play it: Ana finds a Wand, then the party wins
    open_form(page, "Treasure found")
    form = page.locator("form[data-event-type=treasure_found]")
    form.get_by_label("Player").select_option(label="Ana")
    form.locator('input[name="data.item.name"]').fill("Wand")  # an item's fields, not a JSON box
    form.locator('input[name="data.item.buy"]').fill("500")
    form.locator('input[name="data.item.sell"]').fill("250")
    tap(page, form.get_by_role("button", name="Record"))  # answered in place: wait for this very answer
    page.get_by_text(re.compile(r"Recorded move \d")).wait_for()
    open_form(page, "Adventure won")
    tap(page, page.locator("form[data-event-type=adventure_won]").get_by_role("button", name="Record"))
    page.get_by_text(re.compile(r"Recorded move \d")).wait_for()

    # the result flowed into the campaign
    page.goto(sheet_url)
    assert "completed" in page.locator("section.adventures").inner_text()
    assert "500 gp" in hero_block(page, "Ana").inner_text() and "Wand" in hero_block(page, "Ana").inner_text()
    assert "500 gp" in hero_block(page, "Bo").inner_text()

    # the town phase as one form: Ana sells the Wand, then gives Bo 100 gp; first a refused try writes nothing
    page.get_by_role("link", name="Town phase: several actions at once").click()
    page.get_by_label("Action", exact=True).first.wait_for()
    row1, row2 = page.locator("#action-1"), page.locator("#action-2")
    row1.get_by_label("Action", exact=True).select_option("item_sold")
    row1.locator("[data-action=item_sold]").get_by_label("Hero", exact=True).select_option("Ana")
    row1.locator("[data-action=item_sold]").get_by_label("Item").fill("Wand")
    row2.get_by_label("Action", exact=True).select_option("leveled_up")
    row2.locator("[data-action=leveled_up]").get_by_label("Hero", exact=True).select_option("Bo")
    before = EventRow.objects.count()
    page.get_by_role("button", name="Record all actions").click()
    problem = page.get_by_role("alert").filter(has_text="Nothing was recorded")
    problem.wait_for()
    assert (
        "Action 2 (Level up)" in problem.inner_text() and "Level Up" in problem.inner_text()
    )  # the heading words (issue 43)
    assert EventRow.objects.count() == before
    row1, row2 = page.locator("#action-1"), page.locator("#action-2")
    assert row1.locator("[data-action=item_sold]").get_by_label("Item").input_value() == "Wand"  # kept
    row2.get_by_label("Action", exact=True).select_option("trade_made")
    trade = row2.locator("[data-action=trade_made]")
    trade.get_by_label("From hero").select_option("Ana")
    trade.get_by_label("To hero").select_option("Bo")
    trade.get_by_label("Gold pieces").fill("100")
    page.get_by_role("button", name="Record all actions").click()
    page.get_by_text(re.compile(r"Recorded 2 town actions")).wait_for()
    assert EventRow.objects.count() == before + 2

    # the sheet shows the gold
    assert "650 gp" in hero_block(page, "Ana").inner_text()  # 500 + 250 (sale) - 100
    assert "600 gp" in hero_block(page, "Bo").inner_text()
    assert "Wand" not in hero_block(page, "Ana").inner_text()

    # the ledger: every change with its cause, and the chart
    page.get_by_role("link", name="Gold ledger", exact=True).click()
    table = page.locator("table.ledger")
    table.wait_for()
    text = table.inner_text()
    assert "Adventure reward" in text and "Sale" in text and "Sold Wand" in text and "Trade" in text
    chart = page.locator("#ledger-chart svg[role=img]").first
    assert chart.is_visible()
    assert page.locator("#ledger-chart polyline").count() == 2
    legend = page.locator("#ledger-chart .legend").inner_text()
    assert "Ana: 650 gp" in legend and "Bo: 600 gp" in legend
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 360 and box["height"] > 100
    # a ledger row links to the sheet as it stood then
    table.get_by_role("link").first.click()
    page.get_by_text(re.compile(r"The sheet as it stood at version \d+ of \d+")).wait_for()
