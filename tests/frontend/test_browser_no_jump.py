"""No jump after any tap (issue 33 items 3-5), on 390×844 phones (headless Chromium).

The scroll rule: after a tap answered in place, what the thumb touched stays where it was on screen. Measured on the
tapped control when it is still drawn in the same spot of the page (the same chain of elements around it), else on
the nearest element with an id around it that is (the form a control left, ``#record``, ``#board``); for the bar's
Undo (the bar is sticky: always on screen), on what is just under the bar. That element's top on screen may move by
no more than its top in the page moved, i.e. the height of what changed above it. Exceptions, where the player must
look elsewhere, are checked for what they show instead: a refusal is explained next to the control tapped and in
view; after picking a Get Salty token the highlighted cells are all in view under the bar.

After a refusal, a move from the other phone refreshes every part holding no typed value (turn line, player strip,
board) with the news; only the form typed in waits for "Show it"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from matches.demo import FIRST_SPINE_SCRIPT
from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from tests.frontend.phones import open_form, phone_page, session_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADVENTURE = {"adventure": "Dunwater", "heroes": [{"name": "Vistra", "class": "Fighter", "max_hp": 10},
                                                 {"name": "Quinn", "class": "Wizard", "max_hp": 6}]}  # fmt: skip

# the element the thumb touched (or, for the sticky bar, what is just under the bar), the elements with an id
# around it, and for each its place on screen, in the page, and the chain of elements it sits in
MARK = """el => {
  const bar = document.getElementById('tablebar');
  const chain = n => { const out = []; for (let p = n.parentElement; p && p.id !== 'match-live'; p = p.parentElement)
    out.push(p.tagName + (p.id ? '#' + p.id : '') + '.' + p.className); return out.join(' < '); };
  const note = (n, id) => { const r = n.getBoundingClientRect(); return {id, top: r.top, doc: r.top + scrollY, chain: chain(n)}; };
  let start = el, marks = [];
  if (bar.contains(el)) start = document.elementFromPoint(innerWidth / 2, bar.getBoundingClientRect().bottom + 30);
  else marks.push(note(el, null));
  for (let n = start; n && n.id !== 'match-live'; n = n.parentElement) if (n.id && n.checkVisibility()) marks.push(note(n, n.id));
  return marks;
}"""
AGAIN = """([marks, el]) => {
  const chain = n => { const out = []; for (let p = n.parentElement; p && p.id !== 'match-live'; p = p.parentElement)
    out.push(p.tagName + (p.id ? '#' + p.id : '') + '.' + p.className); return out.join(' < '); };
  for (const m of marks) {
    const n = m.id === null ? el : document.getElementById(m.id);
    if (!n || !n.checkVisibility() || n.getBoundingClientRect().height === 0 || chain(n) !== m.chain) continue;
    const r = n.getBoundingClientRect();
    return {id: m.id, before: m, top: r.top, doc: r.top + scrollY};
  }
  return null;
}"""


def mid_screen(control: Any) -> None:
    """The control in the middle of the screen, as under a thumb."""
    control.evaluate("e => e.scrollIntoView({block: 'center'})")


def tapped(page: Any, control: Any, again: Any = None, *, refusal: bool = False) -> dict[str, Any]:
    """Tap ``control`` and wait for the answer swapped in place; check the scroll rule (module docstring) on
    ``again`` (the control as drawn after the tap; default: the same locator) and return what was measured."""
    control.scroll_into_view_if_needed()  # measured where the thumb taps it (a click scrolls to it first)
    marks = control.evaluate(MARK)
    swaps = int(page.locator("html").get_attribute("data-swaps") or 0)
    control.click()
    page.locator(f'html[data-swaps="{swaps + 1}"]').wait_for(state="attached")  # a selector: no eval (CSP)
    assert page.evaluate("window.__notReloaded === true"), "the page was reloaded"
    assert "#" not in page.url, page.url
    again = control if again is None else again
    el = again.element_handle(timeout=0) if again.count() == 1 else None
    spot = page.evaluate(AGAIN, [marks, el])
    assert spot is not None, "nothing the thumb touched is drawn any more"
    moved, changed = spot["top"] - spot["before"]["top"], spot["doc"] - spot["before"]["doc"]
    if not refusal:
        assert abs(moved) <= abs(changed) + 2, (
            f"{spot['id'] or 'the control'} moved {moved:.0f} px on screen, {changed:.0f} in the page"
        )
    return {"moved": moved, "changed": changed, "id": spot["id"]}


def refusal_next_to(page: Any, control: Any, panel: str) -> None:
    """The refusal is in view, in the panel of the control tapped, and the control is still on screen."""
    problem = page.locator("#problem")
    assert problem.count() == 1
    assert problem.evaluate("(p, panel) => !!p.closest(panel)", panel), "the refusal is not next to the control"
    assert problem.evaluate(
        "p => { const r = p.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    assert control.evaluate(
        "c => { const r = c.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )


def open_match(page: Any, base: str, keeper: Any, game: str, options: dict[str, Any] | None = None) -> Any:
    match = match_create(owner=keeper, game=game, seats=[{"name": "Ana"}, {"name": "Bo"}], options=options or {})
    page.goto(f"{base}/matches/{match.pk}/")
    page.evaluate("window.__notReloaded = true")  # a reload or a navigation loses it
    return match


def accept_next_dialog(page: Any) -> None:
    page.once("dialog", lambda dialog: dialog.accept())


def test_no_tap_moves_what_the_thumb_touched(live_server, signed_in_phone, keeper):
    page = signed_in_phone
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    base = live_server.url
    board = page.locator("#board")

    # Get Salty: the victory attribute, a token picked (its cells in view), placed, and the bar's Undo
    match = open_match(page, base, keeper, "get-salty")
    color = board.get_by_role("button", name="Color")
    mid_screen(color)
    tapped(page, color)
    pick = board.get_by_role("link", name="Pick red circle (unsalted) in the reserve")
    mid_screen(pick)
    tapped(page, pick, board.locator("a.is-picked"), refusal=True)  # it may move: the cells must be seen
    assert board.locator("a.is-picked").is_visible()
    under = page.locator("#tablebar").evaluate("b => b.getBoundingClientRect().bottom")
    tops = board.locator(".gs-target").evaluate_all(
        "ts => ts.map(t => [t.getBoundingClientRect().top, t.getBoundingClientRect().bottom])"
    )
    assert tops and all(top >= under and bottom <= 844 for top, bottom in tops), (under, tops)
    place = board.get_by_role("button", name="Place red circle at column 1, row 0 (then flip it)")
    tapped(page, place)
    assert "Recorded move 2" in page.locator("#outcome").inner_text()
    page.evaluate("window.scrollTo(0, 700)")
    accept_next_dialog(page)
    tapped(page, page.locator("#tablebar").get_by_role("button", name=re.compile("^Undo the last move")))
    assert "Undone" in page.locator("#outcome").inner_text()
    assert EventRow.objects.filter(stream_id=match.stream_id).last().type == "event_voided"

    # Salt & Bones: two tiles marked on the board, the Field card recorded, a draw
    open_match(page, base, keeper, "salt-and-bones")
    for cell in ("column 3, row 1", "column 4, row 6"):
        mark = board.get_by_role("link", name=f"Mark {cell} as destroyed by the Field card")
        mid_screen(mark)
        tapped(page, mark)
    flip = board.get_by_role("button", name="Record Field card: column 3, row 1; column 4, row 6")
    tapped(page, flip)
    draw = board.get_by_role("button", name="Ana: 4 attack + 3 strategy")
    mid_screen(draw)
    tapped(page, draw)
    assert "Recorded move 2" in page.locator("#outcome").inner_text()

    # The First Spine: a destiny chosen on the board
    open_match(page, base, keeper, "the-first-spine")
    destiny = board.get_by_role("button", name="Ana: Hunter")
    mid_screen(destiny)
    tapped(page, destiny)
    assert "Recorded move 1" in page.locator("#outcome").inner_text()
    # a life change typed on the board and refused (0 changes nothing): explained under the form tapped, kept
    spine = match_create(owner=keeper, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for type_, seat, data in FIRST_SPINE_SCRIPT:
        match_event_record(match=spine, user=keeper, type=type_, seat=seat, data=data)
    page.goto(f"{base}/matches/{spine.pk}/?at=3%2C3")
    page.evaluate("window.__notReloaded = true")
    life = board.locator("fieldset.fs-life")
    life.get_by_label(re.compile("^Amount")).fill("0")
    change = life.get_by_role("button", name="Record the change")
    mid_screen(change)
    spot = tapped(page, change, refusal=True)
    refusal_next_to(page, change, ".fs-panel")
    assert abs(spot["moved"]) <= 2 and spot["id"] is None
    assert "changes nothing" in page.locator("#problem").inner_text()
    assert life.get_by_label(re.compile("^Amount")).input_value() == "0"

    # Bone Wars: a card refused from the board panel (it costs $3, Ana has $0: explained there), played, a paper
    # published
    match = open_match(page, base, keeper, "bone-wars", {"starting_money": 0})
    card = board.locator("form.bw-card-form")
    card.get_by_label("Card name").fill("Stegosaurus")
    card.get_by_label(re.compile("^Card cost")).fill("3")
    play = card.get_by_role("button", name="Play the card")
    mid_screen(play)
    spot = tapped(page, play, refusal=True)
    refusal_next_to(page, play, ".bw-moves")
    assert abs(spot["moved"]) <= 2 and spot["id"] is None  # kept: the explanation is drawn under it
    assert card.get_by_label("Card name").input_value() == "Stegosaurus"  # kept
    card.get_by_label(re.compile("^Card cost")).fill("0")
    mid_screen(play)
    tapped(page, play)
    publish = board.get_by_role("button", name="Publish for Marsh")
    mid_screen(publish)
    tapped(page, publish)
    assert "published a paper for Marsh" in page.locator("#outcome").inner_text()
    assert EventRow.objects.filter(stream_id=match.stream_id).count() == 2

    # Saltmarsh adventure: the Hero phase started from its form (which then moves behind "Other entries"), undone
    # from the Record section's own Undo
    match = open_match(page, base, keeper, "saltmarsh-adventure", ADVENTURE)
    hero = open_form(page, "hero_phase_started").get_by_role("button", name="Record")
    mid_screen(hero)
    spot = tapped(page, hero)
    assert spot["id"] == "record"  # the form left: the section it was in keeps its place
    undo = page.locator("#f-undo").get_by_role("button", name="Undo it")
    mid_screen(undo)
    accept_next_dialog(page)
    tapped(page, undo)
    assert "Undone" in page.locator("#outcome").inner_text()
    assert EventRow.objects.filter(stream_id=match.stream_id).count() == 2
    assert errors == []


@pytest.fixture
def two_phones(browser, live_server, keeper, django_user_model):
    """Two signed-in 390×844 phones: ``keeper``'s and ``bo``'s, a second recorder of the matches."""
    bo = django_user_model.objects.create_user(username="bo")
    pages = []
    for user in (keeper, bo):
        page = phone_page(browser)
        session_for(page, live_server.url, user)
        pages.append(page)
    yield pages, bo
    for page in pages:
        page.context.close()


def seated_match(keeper: Any, bo: Any, game: str) -> Any:
    from matches.services import match_recorders_set

    match = match_create(owner=keeper, game=game, seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_recorders_set(match=match, user=keeper, recorders=[bo])
    return match


def refuse(page: Any, event_type: str, fill: dict[str, str]) -> Any:
    """Send ``event_type``'s form as Bo (not on turn): refused; the form with its typed values."""
    form = open_form(page, event_type)
    form.get_by_label("Player").select_option(label="Bo")
    for label, value in fill.items():
        form.get_by_label(label, exact=True).fill(value)
    swaps = int(page.locator("html").get_attribute("data-swaps") or 0)
    form.get_by_role("button", name="Record").click()
    page.locator(f'html[data-swaps="{swaps + 1}"]').wait_for(state="attached")
    assert page.locator("#problem").count() == 1
    return form


def test_after_a_refusal_the_turn_line_follows_the_other_phone(live_server, two_phones, keeper):
    (ana, bo_phone), bo = two_phones
    base = live_server.url

    # Get Salty: Ana's phone refuses a flip for Bo; Bo's phone places Ana's cracker: Ana's phone says "Bo to play"
    match = seated_match(keeper, bo, "get-salty")
    match_event_record(match=match, user=keeper, type="victory_attribute_chosen", seat=0, data={"attribute": "color"})
    for page in (ana, bo_phone):
        page.goto(f"{base}/matches/{match.pk}/")
    form = refuse(ana, "salt_container_flipped", {})
    assert ana.locator("#turn").inner_text().startswith("Ana to play")
    board = bo_phone.locator("#board")
    swaps = int(bo_phone.locator("html").get_attribute("data-swaps") or 0)
    board.get_by_role("link", name="Pick red circle (unsalted) in the reserve").click()
    bo_phone.locator(f'html[data-swaps="{swaps + 1}"]').wait_for(state="attached")
    board.get_by_role("button", name="Place red circle at column 1, row 0 (then flip it)").click()
    ana.locator('html[data-parts-seen="2"]').wait_for(state="attached")
    assert ana.locator("#turn").inner_text().startswith("Bo to play"), ana.locator("#turn").inner_text()
    assert ana.locator("ol.players li.on-turn").inner_text().startswith("Bo")
    assert "New at the table" in ana.locator("#outcome").inner_text()  # with "Show it" for the form
    assert ana.locator("#board").get_by_role("link", name=re.compile("^Pick blue circle")).count() == 1  # Bo's turn
    assert ana.locator("#problem").count() == 1 and form.get_by_label("Player").input_value() == "1"  # it waits

    # Salt & Bones: after a refusal on Ana's phone, Bo's phone records the Field card: Ana's phone shows the next phase
    match = seated_match(keeper, bo, "salt-and-bones")
    for page in (ana, bo_phone):
        page.goto(f"{base}/matches/{match.pk}/")
    phase = ana.locator("#turn").inner_text()
    form = refuse(ana, "cards_drawn", {})
    board = bo_phone.locator("#board")
    for cell in ("column 3, row 1", "column 4, row 6"):
        swaps = int(bo_phone.locator("html").get_attribute("data-swaps") or 0)
        board.get_by_role("link", name=f"Mark {cell} as destroyed by the Field card").click()
        bo_phone.locator(f'html[data-swaps="{swaps + 1}"]').wait_for(state="attached")
    board.get_by_role("button", name="Record Field card: column 3, row 1; column 4, row 6").click()
    ana.locator('html[data-parts-seen="1"]').wait_for(state="attached")
    now = ana.locator("#turn").inner_text()
    assert now != phase and "draw up to 7 cards" in now, (phase, now)
    assert ana.locator("#problem").count() == 1 and form.get_by_label("Player").input_value() == "1"
