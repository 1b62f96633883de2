"""At the table on the smallest phones (issue 43): each finding of the evening, on a 360-px and a 390-px phone, in
the light and the dark scheme (headless Chromium).

One browser for the module; each test makes its data once and walks the four phones (a context each, cheap), so
the four sizes and schemes cost page loads, not set-ups. Numbered as the issue numbers them:

1. a friend is never locked out: a typed name that is an account's seats it openly (the form shows it), and the
   seat holder opens the private match;
2. The First Spine's board on a phone: the row numbers stay on screen however it is panned, the page never scrolls
   sideways, and the cell a refusal names is marked and panned into view;
3. the sticky bar: bounded, its turn line never cut with "…", and it never covers the control just tapped;
4. words and numbers: the seat's name in a refusal ("Ana's wizard", not "your"), the rulebook's heading words,
   a photo's entry number, the join page's and sign-up page's words, "you" in stats, a rule-bound number refused
   by the rule, no table wider than the phone;
5. things that move by themselves: the join box follows a friend taking the last seat; no "Esc" on a phone.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from matches.demo import FIRST_SPINE_SCRIPT
from matches.models import Match
from matches.people import joins
from matches.services import match_create, match_event_record
from tests.frontend.phones import PASSWORD, open_form, session_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = [(360, "light"), (360, "dark"), (390, "light"), (390, "dark")]
NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth"


def phones(browser: Any) -> Any:
    """Each of the four phones in turn: a fresh page (its context closed after)."""
    for width, scheme in PHONES:
        context = browser.new_context(
            viewport={"width": width, "height": 800}, device_scale_factor=1, is_mobile=True, has_touch=True,
            color_scheme=scheme,
        )  # fmt: skip
        page = context.new_page()
        page.set_default_timeout(15000)
        try:
            yield (width, scheme), page
        finally:
            context.close()


def one_phone(browser: Any) -> Any:
    """One phone (360 px, light) for what needs a single pass: its page (close its context)."""
    page = browser.new_context(viewport={"width": 360, "height": 800}, is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(15000)
    return page


def signed_in(page: Any, url: str, user: Any) -> Any:
    session_for(page, url, user)
    return page


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user(username="ana", password=PASSWORD)


@pytest.fixture
def cleo(django_user_model, ana):
    """Cleo, who took the seat "Cleo" of one of Ana's matches by its join link: Ana's "Cleo" is her account."""
    cleo = django_user_model.objects.create_user(username="cleo", password=PASSWORD)
    first = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Cleo"}],
                         options={"stones": 9})  # fmt: skip
    joins.join_take(user=cleo, token=joins.join_link_on(match=first, user=ana).token, seat=1)
    return cleo


def first_spine(owner: Any, names: tuple[str, str] = ("Ana", "Bo"), **kw: Any) -> Match:
    match = match_create(owner=owner, game="the-first-spine", seats=[{"name": n} for n in names], **kw)
    for type_, seat, data in FIRST_SPINE_SCRIPT:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    return match


def test_1_a_typed_name_seats_its_account_openly_and_the_friend_is_never_locked_out(browser, live_server, ana, cleo):
    url = live_server.url
    made = None
    for (width, scheme), page in phones(browser):
        signed_in(page, url, ana)
        page.goto(f"{url}/matches/new/?game=the-first-spine")
        page.locator("#id_seat_0").fill("Ana")
        page.locator("#id_seat_1").fill("Cleo")
        account = page.locator("#id_seat_1_account")
        assert account.locator("option:checked").inner_text() == "Cleo (cleo)", (width, scheme)
        page.locator("#id_seat_1").fill("Cleopatra")  # another name: the choice made by the name follows it
        assert account.input_value() == ""
        if made is None:
            page.locator("#id_seat_1").fill("Cleo")
            page.get_by_role("button", name="Create match").click()
            page.wait_for_url(re.compile(r".*/matches/\d+/$"))
            made = Match.objects.latest("pk")
            assert not made.is_public and list(made.recorders.all()) == [cleo]
            made.recorders.clear()  # Ana stops her recording: she still sees her seat
        signed_in(page, url, cleo)
        page.goto(f"{url}/matches/{made.pk}/")
        assert page.locator("h1").inner_text() != "No match"
        assert "Cleo" in page.locator("ol.players").inner_text() and page.evaluate(NO_SIDEWAYS), (width, scheme)


def test_2_the_first_spine_board_fits_a_phone_and_shows_the_refused_cell(browser, live_server, ana):
    match = first_spine(ana)
    url = live_server.url
    for (width, scheme), page in phones(browser):
        signed_in(page, url, ana)
        page.goto(f"{url}/matches/{match.pk}/")
        play = page.locator(".fs-play")
        assert page.evaluate(NO_SIDEWAYS), (width, scheme)
        for pan in ("0", "p.scrollWidth"):  # the row numbers stay on screen, panned to either side
            play.evaluate(f"p => {{ p.scrollLeft = {pan}; }}")
            page.wait_for_timeout(50)
            edge = page.locator(".fs-edge-left").bounding_box()
            frame = play.bounding_box()
            assert frame["x"] - 1 <= edge["x"] and edge["x"] + edge["width"] <= frame["x"] + frame["width"]
        # a card placed where the rule refuses it: the cell is marked, in view in the frame, the words name Ana
        form = open_form(page, "card_placed")
        form.get_by_label("Player").select_option(label="Ana")
        form.get_by_label("Card").select_option(index=1)
        form.get_by_label("Column").fill("7")
        form.get_by_label("Row").fill("7")
        play.evaluate("p => { p.scrollLeft = 0; }")  # panned away from column 7 before the tap
        form.get_by_role("button", name="Record").click()
        problem = page.locator("#problem")
        assert "is not next to Ana's wizard" in problem.inner_text()
        assert "Chronicle's reading" not in problem.inner_text() and "Rule: Placing a card" in problem.inner_text()
        mark = page.locator(".fs-refused-mark").bounding_box()
        frame = page.locator(".fs-play").bounding_box()
        assert frame["x"] <= mark["x"] and mark["x"] + mark["width"] <= frame["x"] + frame["width"] + 1, (width, scheme)
    assert match.stream.__class__.objects.get(pk=match.stream_id).version == len(FIRST_SPINE_SCRIPT)  # none written


def test_3_the_bar_is_bounded_whole_and_never_covers_the_control_tapped(browser, live_server, ana):
    spine = first_spine(ana)
    stones = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                          options={"stones": 30})  # fmt: skip
    url = live_server.url
    for (width, scheme), page in phones(browser):
        signed_in(page, url, ana)
        page.goto(f"{url}/matches/{spine.pk}/")  # the longest prompt: its rest is behind "more", nothing cut
        turn = page.locator("#turn")
        assert turn.evaluate("t => t.scrollHeight <= t.clientHeight + 1") and "…" not in turn.inner_text()
        assert page.locator("#tablebar").bounding_box()["height"] <= 100, (width, scheme)
        page.goto(f"{url}/matches/{stones.pk}/")
        form = open_form(page, "stones_taken")
        player = page.locator("#turn strong").first.inner_text()
        form.get_by_label("Player").select_option(label=player)
        form.get_by_label("How many").fill("1")
        button = form.get_by_role("button", name="Record")
        # the button just under the bar, as a thumb reaching for it after scrolling up
        page.evaluate("b => scrollBy(0, b.getBoundingClientRect().top - document.getElementById('tablebar')"
                      ".getBoundingClientRect().bottom - 4)", button.element_handle())  # fmt: skip
        swaps = int(page.locator("html").get_attribute("data-swaps") or 0)
        button.click()
        page.locator(f'html[data-swaps="{swaps + 1}"]').wait_for(state="attached")
        assert "Recorded move" in page.locator("#outcome").inner_text()
        bar = page.locator("#tablebar").bounding_box()
        again = open_form(page, "stones_taken").get_by_role("button", name="Record").bounding_box()
        assert again["y"] >= bar["y"] + bar["height"], (width, scheme, again, bar)
        assert bar["height"] <= 100


def test_4_words_and_numbers(browser, live_server, ana, cleo, django_user_model):
    url = live_server.url
    bo = django_user_model.objects.create_user(username="bo", password=PASSWORD)
    played = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo", "user": bo}],
                          options={"stones": 1}, is_public=True)  # fmt: skip
    match_event_record(match=played, user=ana, type="stones_taken", seat=0, data={"count": 1})
    wars = match_create(owner=ana, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}])
    open_seat = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana", "user": ana}, {"name": "Dee"}],
                             options={"stones": 9}, title="Tuesday")  # fmt: skip
    token = joins.join_link_on(match=open_seat, user=ana).token
    for (width, scheme), page in phones(browser):
        page.goto(f"{url}/join/{token}/")  # signed out, from the join link: the join page and the sign-up
        assert "Ana invites you" in page.locator("main").inner_text()  # page name the match, seat and owner
        page.get_by_role("button", name="I am Dee").click()
        page.locator("main").get_by_role("link", name="Sign up").click()
        said = page.locator(".joining").inner_text()
        assert "Dee" in said and "Tuesday" in said and "Ana" in said, said
        signed_in(page, url, bo)  # Bo's own stats: "you", and every table within the phone
        page.goto(f"{url}/stats/me/")
        assert "plays as" not in page.locator("main").inner_text() and page.evaluate(NO_SIDEWAYS), (width, scheme)
        tables = page.locator("main table").evaluate_all("ts => ts.map(t => t.getBoundingClientRect().right)")
        assert all(right <= width for right in tables), tables
        signed_in(page, url, ana)  # a team card's cost above 3: the rule says so, not the browser's bubble
        page.goto(f"{url}/matches/{wars.pk}/")
        cost = page.locator("input[name$='.cost'][type=number]").first
        assert cost.get_attribute("max") is None


def test_4_a_photo_is_said_at_its_own_entry(browser, live_server, ana):
    from tests.matches.photos.pictures import phone_jpeg

    match = match_create(owner=ana, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_event_record(match=match, user=ana, type="points_scored", seat=0, data={"points": 7})
    page = signed_in(one_phone(browser), live_server.url, ana)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#id_photo").set_input_files({"name": "IMG.jpg", "mimeType": "image/jpeg", "buffer": phone_jpeg()})
    page.get_by_role("button", name="Add the photo").click()
    page.wait_for_url(re.compile(r".*#photos$"))
    assert "Photo added as entry 2" in page.content() and "entry 2" in page.locator("#photos").inner_text()
    page.context.close()


def test_5_the_join_box_follows_the_last_seat_and_a_phone_is_not_told_of_escape(browser, live_server, ana, cleo):
    url = live_server.url
    match = first_spine(ana, ("Ana", "Dana"))
    for phone, page in phones(browser):
        signed_in(page, url, ana)
        page.goto(f"{url}/matches/{match.pk}/")
        form = open_form(page, "card_placed")
        form.get_by_role("button", name="Tap it on the board").click()
        note = page.locator(".cell-pick-note")
        assert "Esc" not in note.inner_text() and note.get_by_role("button", name="Cancel").is_visible(), phone
        note.get_by_role("button", name="Cancel").click()
        assert not note.count()
    # Ana's page is open; Cleo takes the last free seat on her phone: the box says so without a reload
    page = signed_in(one_phone(browser), url, ana)
    page.goto(f"{url}/matches/{match.pk}/")
    page.locator("#join summary").click()
    page.get_by_role("button", name="Show a join link and QR code").click()
    assert "1 free" in page.locator("#join summary").inner_text()
    page.evaluate("window.__notReloaded = true")
    joins.join_take(user=cleo, token=joins.join_link_current(match).token, seat=1)
    page.locator("html[data-seats-seen]").wait_for(state="attached", timeout=20000)
    assert "every one belongs to an account" in page.locator("#join summary").inner_text()
    assert "Dana" in page.locator("ol.players").inner_text() and page.evaluate("window.__notReloaded === true")
    page.context.close()
