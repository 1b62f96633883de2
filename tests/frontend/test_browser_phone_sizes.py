"""At the table on the smallest phones (issue 43): each finding of the evening, on a 360-px and a 390-px phone, in
the light and the dark scheme (headless Chromium).

One browser for the module. Each test makes its data through the services (no game is tapped through), opens
each page it needs once on a phone, and walks the four phones on that same page (``each_phone`` resizes the
viewport and switches the colour scheme; the layout is drawn again for each), so the four sizes and schemes
cost a resize, not a page load. Numbered as the issue numbers them:

1. a friend is never locked out: a typed name that is an account's seats it openly (the form shows it), and the
   seat holder opens the private match;
2. The First Spine's board on a phone: the row numbers stay on screen however it is panned, the page never scrolls
   sideways, and the cell a refusal names is marked and panned into view;
3. the sticky bar: bounded, its turn line never cut with "…", and it never covers the control just tapped;
4. words and numbers: the seat's name in a refusal ("Ana's wizard", not "your"), the rulebook's heading words,
   a photo's entry number, the join page's and sign-up page's words, "you" in stats, a rule-bound number refused
   by the rule, no table wider than the phone; a join page left open while the phone's cookies were cleared
   still takes the seat (no CSRF 403);
5. things that move by themselves: the join box follows a friend taking the last seat; no "Esc" on a phone; a
   Salt & Bones refusal of a low board button is drawn next to it, the page not pulled up to the board's top.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from matches.demo import FIRST_SPINE_SCRIPT
from matches.models import Match
from matches.people import joins
from matches.services import match_create, match_event_record, match_event_void
from tests.frontend.boards.test_board_salt_and_bones import to_combat
from tests.frontend.phones import PASSWORD, open_form, session_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = [(360, "light"), (360, "dark"), (390, "light"), (390, "dark")]
NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth"
DRAWN = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"  # two frames: laid out


def phone(browser: Any, url: str = "", user: Any = None) -> Any:
    """A touch phone's page (360 px to begin with), signed in as ``user`` if given (close its context)."""
    page = browser.new_context(viewport={"width": 360, "height": 800}, device_scale_factor=1, is_mobile=True,
                               has_touch=True).new_page()  # fmt: skip
    page.set_default_timeout(15000)
    if user is not None:
        session_for(page, url, user)
    return page


def each_phone(page: Any) -> Iterator[tuple[int, str]]:
    """The page open now as each of the four phones in turn: 360 and 390 px wide, light and dark."""
    for width, scheme in PHONES:
        page.set_viewport_size({"width": width, "height": 800})
        page.emulate_media(color_scheme=scheme)
        page.evaluate(DRAWN)
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        yield width, scheme


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


def swapped(page: Any, button: Any) -> None:
    """Tap ``button`` of the match page and wait for its answer swapped in place."""
    swaps = int(page.locator("html").get_attribute("data-swaps") or 0)
    button.click()
    page.locator(f'html[data-swaps="{swaps + 1}"]').wait_for(state="attached")


def test_1_a_typed_name_seats_its_account_openly_and_the_friend_is_never_locked_out(browser, live_server, ana, cleo):
    url = live_server.url
    page = phone(browser, url, ana)
    page.goto(f"{url}/matches/new/?game=the-first-spine")
    account = page.locator("#id_seat_1_account")
    for phone_now in each_phone(page):
        page.locator("#id_seat_0").fill("Ana")
        page.locator("#id_seat_1").fill("Cleo")
        assert account.locator("option:checked").inner_text() == "Cleo (cleo)", phone_now
        page.locator("#id_seat_1").fill("Cleopatra")  # another name: the choice made by the name follows it
        assert account.input_value() == "" and page.evaluate(NO_SIDEWAYS), phone_now
    page.locator("#id_seat_1").fill("Cleo")
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    made = Match.objects.latest("pk")
    assert not made.is_public and list(made.recorders.all()) == [cleo]
    made.recorders.clear()  # Ana stops her recording: Cleo still sees her seat
    page.context.close()
    page = phone(browser, url, cleo)
    page.goto(f"{url}/matches/{made.pk}/")
    assert page.locator("h1").inner_text() != "No match"
    for phone_now in each_phone(page):
        assert "Cleo" in page.locator("ol.players").inner_text() and page.evaluate(NO_SIDEWAYS), phone_now
    page.context.close()


def test_2_3_5_the_first_spine_board_bar_and_cell_pick_on_a_phone(browser, live_server, ana, cleo):
    """On one First Spine page: the board fits and shows the refused cell (2), the bar is bounded with its turn
    line whole (3), the cell pick says "Cancel", not "Esc" (5); then the join box follows Cleo taking the last
    seat (5)."""
    match = first_spine(ana, ("Ana", "Dana"))
    url = live_server.url
    page = phone(browser, url, ana)
    page.goto(f"{url}/matches/{match.pk}/")
    play, turn = page.locator(".fs-play"), page.locator("#turn")
    for phone_now in each_phone(page):  # 3: the longest prompt: its rest is behind "more", nothing cut, the bar
        assert turn.evaluate("t => t.scrollHeight <= t.clientHeight + 1") and "…" not in turn.inner_text()
        assert page.locator("#tablebar").bounding_box()["height"] <= 100, phone_now  # bounded
    for phone_now in each_phone(page):
        assert page.evaluate(NO_SIDEWAYS), phone_now
        # 2: the row numbers stay on screen, panned to either side
        for pan in ("0", "p.scrollWidth"):
            play.evaluate(f"p => {{ p.scrollLeft = {pan}; }}")
            edge, frame = page.locator(".fs-edge-left").bounding_box(), play.bounding_box()
            assert frame["x"] - 1 <= edge["x"] and edge["x"] + edge["width"] <= frame["x"] + frame["width"], phone_now
        # 2: a card placed where the rule refuses it: the cell is marked, in view in the frame, the words name Ana
        form = open_form(page, "card_placed")
        form.get_by_label("Player").select_option(label="Ana")
        form.get_by_label("Card").select_option(index=1)
        form.get_by_label("Column").fill("7")
        form.get_by_label("Row").fill("7")
        play.evaluate("p => { p.scrollLeft = 0; }")  # panned away from column 7 before the tap
        swapped(page, form.get_by_role("button", name="Record"))
        problem = page.locator("#problem").inner_text()
        assert "is not next to Ana's wizard" in problem, phone_now
        assert "Chronicle's reading" not in problem and "Rule: Placing a card" in problem
        mark, frame = page.locator(".fs-refused-mark").bounding_box(), play.bounding_box()
        assert frame["x"] <= mark["x"] and mark["x"] + mark["width"] <= frame["x"] + frame["width"] + 1, phone_now
        # 5: the cell pick on a phone: a Cancel button, no "Esc"
        form = open_form(page, "card_placed")
        form.get_by_role("button", name="Tap it on the board").click()
        note = page.locator(".cell-pick-note")
        assert "Esc" not in note.inner_text() and note.get_by_role("button", name="Cancel").is_visible(), phone_now
        note.get_by_role("button", name="Cancel").click()
        assert not note.count()
    assert match.stream.__class__.objects.get(pk=match.stream_id).version == len(FIRST_SPINE_SCRIPT)  # none written
    # 5: Cleo takes the last free seat on her phone: Ana's box says so without a reload
    page.locator("#join summary").click()
    page.get_by_role("button", name="Show a join link and QR code").click()
    assert "1 free" in page.locator("#join summary").inner_text()
    page.evaluate("window.__notReloaded = true")
    joins.join_take(user=cleo, token=joins.join_link_current(match).token, seat=1)
    page.evaluate("dispatchEvent(new Event('online'))")  # the poll asks at once (as when the network is back)
    page.locator("html[data-seats-seen]").wait_for(state="attached")
    assert "every one belongs to an account" in page.locator("#join summary").inner_text()
    assert "Dana" in page.locator("ol.players").inner_text() and page.evaluate("window.__notReloaded === true")
    page.context.close()


def test_3_the_bar_never_covers_the_control_tapped(browser, live_server, ana):
    stones = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                          options={"stones": 30})  # fmt: skip
    url = live_server.url
    page = phone(browser, url, ana)
    page.goto(f"{url}/matches/{stones.pk}/")
    for phone_now in each_phone(page):
        form = open_form(page, "stones_taken")
        form.get_by_label("Player").select_option(label=page.locator("#turn strong").first.inner_text())
        form.get_by_label("How many").fill("1")
        button = form.get_by_role("button", name="Record")
        # the button just under the bar, as a thumb reaching for it after scrolling up
        page.evaluate("b => scrollBy(0, b.getBoundingClientRect().top - document.getElementById('tablebar')"
                      ".getBoundingClientRect().bottom - 4)", button.element_handle())  # fmt: skip
        swapped(page, button)
        assert "Recorded move" in page.locator("#outcome").inner_text(), phone_now
        bar = page.locator("#tablebar").bounding_box()
        again = open_form(page, "stones_taken").get_by_role("button", name="Record").bounding_box()
        assert again["y"] >= bar["y"] + bar["height"], (phone_now, again, bar)
        assert bar["height"] <= 100
    page.context.close()


def test_4_words_and_numbers(browser, live_server, ana, cleo, django_user_model):
    from tests.matches.photos.pictures import phone_jpeg

    url = live_server.url
    bo = django_user_model.objects.create_user(username="bo", password=PASSWORD)
    played = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo", "user": bo}],
                          options={"stones": 1}, is_public=True)  # fmt: skip
    match_event_record(match=played, user=ana, type="stones_taken", seat=0, data={"count": 1})
    wars = match_create(owner=ana, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}])
    open_seat = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana", "user": ana}, {"name": "Dee"}],
                             options={"stones": 9}, title="Tuesday")  # fmt: skip
    sheet = match_create(owner=ana, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_event_record(match=sheet, user=ana, type="points_scored", seat=0, data={"points": 7})
    token = joins.join_link_on(match=open_seat, user=ana).token
    page = phone(browser)  # signed out, from the join link: the join page and the sign-up page name the match,
    page.goto(f"{url}/join/{token}/")  # the seat and the owner
    for phone_now in each_phone(page):
        assert "Ana invites you" in page.locator("main").inner_text() and page.evaluate(NO_SIDEWAYS), phone_now
    page.context.clear_cookies()  # the phone's cookies cleared with the page open: the tap still takes the seat
    page.get_by_role("button", name="I am Dee").click()
    assert "Dee" in page.locator("main").inner_text()  # the seat kept (not a 403)
    page.locator("main").get_by_role("link", name="Sign up").click()
    for phone_now in each_phone(page):
        said = page.locator(".joining").inner_text()
        assert "Dee" in said and "Tuesday" in said and "Ana" in said and page.evaluate(NO_SIDEWAYS), (phone_now, said)
    session_for(page, url, bo)  # Bo's own stats: "you", and every table within the phone
    page.goto(f"{url}/stats/me/")
    tables = page.locator("main table")
    for width, scheme in each_phone(page):
        assert "plays as" not in page.locator("main").inner_text() and page.evaluate(NO_SIDEWAYS), (width, scheme)
        rights = tables.evaluate_all("ts => ts.map(t => t.getBoundingClientRect().right)")
        assert all(right <= width for right in rights), (width, scheme, rights)
    session_for(page, url, ana)  # a team card's cost above 3: the rule says so, not the browser's bubble
    page.goto(f"{url}/matches/{wars.pk}/")
    assert page.locator("input[name$='.cost'][type=number]").first.get_attribute("max") is None
    page.goto(f"{url}/matches/{sheet.pk}/")  # a photo is said at its own entry
    page.locator("#id_photo").set_input_files({"name": "IMG.jpg", "mimeType": "image/jpeg", "buffer": phone_jpeg()})
    page.get_by_role("button", name="Add the photo").click()
    page.wait_for_url(re.compile(r".*#photos$"))
    assert "Photo added as entry 2" in page.content() and "entry 2" in page.locator("#photos").inner_text()
    for phone_now in each_phone(page):
        assert page.evaluate(NO_SIDEWAYS), phone_now
    page.context.close()


def test_5_a_salt_and_bones_refusal_of_a_low_button_is_drawn_next_to_it(browser, live_server, ana):
    """The page at a low board button (Ana's "Disengage", under the Field Board); Ana's disengage is recorded
    on another phone meanwhile, so the tap is refused: the refusal is drawn right after the button, in view,
    and the page is not pulled up to the board's top. The entry is voided after, for the next phone."""
    match = match_create(owner=ana, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}])
    to_combat(match, ana)
    url = live_server.url
    page = phone(browser, url, ana)
    # the page's live poll says "nothing new" (no redraw before the tap): the other phone's entry meets the tap
    page.route(re.compile(r".*/matches/\d+/version/.*"), lambda route: route.fulfill(status=304))
    for phone_now in each_phone(page):
        page.goto(f"{url}/matches/{match.pk}/")
        button = page.locator("#board button.sb-move", has_text="Disengage").first
        button.evaluate("b => b.scrollIntoView({block: 'center'})")
        top_of_board = page.locator("#board").evaluate("b => b.getBoundingClientRect().top + scrollY")
        before = page.evaluate("scrollY")
        assert before > top_of_board + 200, (phone_now, before, top_of_board)  # the button is low on the board
        done = match_event_record(match=match, user=ana, type="disengaged", seat=0, data={})
        swapped(page, button)
        problem = page.locator("#problem")
        assert "Ana recorded move" in problem.inner_text(), (phone_now, problem.inner_text())
        box = problem.bounding_box()  # in view, where the button was, far below the board's top
        assert box["y"] + page.evaluate("scrollY") > top_of_board + 200, (phone_now, box, top_of_board)
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, (phone_now, box)
        assert page.evaluate("scrollY") > before - 200, (phone_now, before, page.evaluate("scrollY"))
        match_event_void(match=match, user=ana, version=done.version, reason="the next phone")
