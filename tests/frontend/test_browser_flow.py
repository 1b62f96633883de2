"""In real headless Chromium on a phone-sized screen: sign up, create a match, record, get refused, undo, replay."""

from __future__ import annotations

import pytest

from matches.models import Event as EventRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_form(page, label: str) -> None:
    """Open a move form's disclosure unless it is open already."""
    details = page.locator("details.move-form", has_text=label)
    if details.get_attribute("open") is None:
        details.locator("summary").click()


def test_sign_up_record_refusal_undo_replay(live_server, phone):
    page = phone
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("tabletop")
    page.get_by_label("Password", exact=True).fill("salty-crackers-9")
    page.get_by_label("Password confirmation").fill("salty-crackers-9")
    page.get_by_role("button", name="Create account").click()
    page.get_by_text("Welcome, tabletop!").wait_for()

    page.get_by_role("link", name="New match", exact=True).click()
    page.locator(".card", has_text="Last Stone").get_by_role("button").click()
    page.get_by_label("Player 1").fill("Ana")
    page.get_by_label("Player 2").fill("Bo")
    page.get_by_text("More options").click()  # the printed game's defaults are folded away
    page.get_by_label("Stones in the pile").fill("9")
    page.get_by_role("button", name="Create match").click()
    page.get_by_text("Match created").wait_for()
    match_url = page.url

    # three moves through the move form (seat preselected to whoever is on turn)
    for entry, count in enumerate(("3", "2", "1"), start=1):
        open_form(page, "Took stones")
        form = page.locator("form[data-event-type=stones_taken]")
        form.get_by_label("How many").fill(count)
        form.get_by_role("button", name="Record").click()
        page.get_by_text(f"Recorded move {entry}:").wait_for()  # answered in place: wait for this entry's words
    assert EventRow.objects.count() == 3
    assert "3 stones left in the pile" in page.locator("#board").inner_text()  # 9-3-2-1 = 3

    # a rejected move: Ana's seat is not on turn (Bo is); the rule is named and nothing is written
    open_form(page, "Took stones")
    form = page.locator("form[data-event-type=stones_taken]")
    form.get_by_label("Player").select_option(label="Ana")
    form.get_by_label("How many").fill("1")
    form.get_by_role("button", name="Record").click()
    problem = page.locator("#problem")  # next to the form used; the table bar says it too
    problem.wait_for()
    assert "Rule: Turns" in problem.inner_text()  # the rulebook's heading words (issue 43); the citation is the title
    assert EventRow.objects.count() == 3

    # undo the last entry with a reason (optional) and a confirmation
    page.goto(match_url)
    page.locator("#f-undo").get_by_label("Reason (optional)").fill("miscounted")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#f-undo").get_by_role("button", name="Undo it").click()
    page.get_by_text("Undone: the last move").wait_for()
    assert EventRow.objects.count() == 4

    # replay to version 1 with the previous button, and check the permalink
    for _ in range(3):
        page.get_by_role("link", name="Previous move").click()
    page.get_by_text("Replaying move 1 of 4").wait_for()
    assert page.url.split("#")[0].endswith("?at=1")
    assert "6 stones left in the pile" in page.locator("#board").inner_text()  # 9 - 3

    # the history strikes the voided entry through
    page.goto(match_url + "history/")
    assert page.locator(".timeline .voided del").count() == 1
