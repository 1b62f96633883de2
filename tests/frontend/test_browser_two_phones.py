"""Two phones at one table, 390×844 (headless Chromium), on every game's page (issue 23, done-when): a move typed
on a page another phone's entry made stale is recorded after it when that entry was another player's (or the
table's) and the move is still legal ("recorded after …"); after an entry by the same player it is refused with
what changed; and the phone showing that refusal keeps updating live (item 1): it is told of the next entry at
once, its refusal kept, and once it shows the news it follows the entries after it without a reload.

Moves are filled into the page's own forms with only the controls and choices they offer
(``tests/frontend/form_filler.py`` reads the page's HTML; the browser then sets those controls and taps Record).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets import Event, get_ruleset
from rulesets.replay import event_types_with_meta
from tests.frontend.form_filler import CannotFill, fill, page_forms
from tests.frontend.forms.test_form_coverage import HEROES, HURT, PLACE, ev
from tests.frontend.phones import phone_page, session_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# a step: an entry; "legal" (the first listed move), "legal:<seat>" (the first of that seat's), or a function of
# (ruleset, state) giving an entry
Step = Event | str | Callable[[Any, dict[str, Any]], Event]


@dataclass
class Table:
    """A match of one game and the entries two phones make on it."""

    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    setup: list[Step] = field(default_factory=list)  # recorded before the phones open the page
    theirs: Step = "legal"  # the other phone's entry, made while this phone's form is open ...
    mine: Step = "legal:1"  # ... by another player (or after the table's): rebased
    between: list[Step] = field(default_factory=list)  # recorded by the table after that
    same: Step = "legal"  # an entry by one player, on both phones: the second is refused
    later: tuple[Step, Step] = ("legal", "legal")  # recorded on the other phone while this one shows its refusal


TABLES: dict[str, Table] = {
    "get-salty": Table(
        2,
        setup=[ev("victory_attribute_chosen", 0, attribute="shape")],
        theirs=ev("cracker_moved", 0, cracker="circle-red", to=[-1, 0]),
    ),
    "salt-and-bones": Table(
        2,
        setup=[ev("field_card_flipped", tiles=[[1, 1]])],
        theirs=ev("cards_drawn", 0, attack=4, strategy=3),
        mine=ev("cards_drawn", 1, attack=4, strategy=3),
    ),
    "the-first-spine": Table(
        2,
        theirs="legal:0",
        between=["legal:0", "legal:1", "legal"],  # both origins, the first hand
        same=HURT,
        later=(PLACE, ev("turn_ended", 0)),
    ),
    "bone-wars": Table(
        2,
        theirs="legal:0",  # a pass: Tomas is on turn
    ),
    "saltmarsh-adventure": Table(
        2,
        options={"adventure": "Dunwater", "heroes": HEROES},
        theirs=ev("monster_placed", monster="Sahuagin"),  # the table's entry: a hero's is rebased after it
        mine=ev("hero_phase_started", 0),
        same=ev("gold_found", 0, amount=50),
        later=(ev("damage_taken", 0, amount=3), ev("hp_healed", 0, amount=1)),
    ),
    "scoresheet": Table(
        2,
        options={"title": "Azul"},
        theirs=ev("points_scored", 1, points=5),
        mine=ev("points_scored", 0, points=3),
        same=ev("points_scored", 0, points=4),
        later=(ev("points_scored", 1, points=7), ev("points_scored", 0, points=1)),
    ),
}


def entry(match: Any, step: Step, after: Event | None = None) -> Event:
    """The entry ``step`` makes on the match's head (``after``: once that entry is recorded too)."""
    if isinstance(step, Event):
        return step
    ruleset = get_ruleset(match.game)
    state = store.head_load(match.stream_id, fresh=True).state
    if after is not None:
        state = ruleset.apply(state, after)
    if callable(step):
        return step(ruleset, state)
    seat = step.partition(":")[2]
    return next(m for m in ruleset.legal_moves(state) or [] if not seat or m.seat == int(seat))


def record(match: Any, step: Step) -> Event:
    """Record ``step`` as the table does (not through a page); returns the entry."""
    move = entry(match, step)
    match_event_record(match=match, user=match.owner, type=move.type, seat=move.seat, data=move.data)
    return move


SET_CONTROLS = """([index, post]) => {
  const form = [...document.forms].filter(f => (f.getAttribute('method') || '').toLowerCase() === 'post')[index];
  for (const el of form.elements) {
    if (!el.name || el.type === 'hidden' || el.type === 'submit') continue;
    const values = post[el.name] || [];
    if (el.type === 'checkbox' || el.type === 'radio') el.checked = values.includes(el.value || 'on');
    else if (el.tagName === 'SELECT') [...el.options].forEach(o => { o.selected = values.includes(o.value); });
    else if (el.name in post) el.value = values[0];
  }
  for (let d = form.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
  form.setAttribute('data-filled', '');
}"""


def fill_in(page: Any, match: Any, move: Event) -> Any:
    """Fill ``move`` into the first form of the page that can record it; returns that form."""
    spec = event_types_with_meta(get_ruleset(match.game)).get(move.type)
    page.evaluate("() => document.querySelectorAll('form[data-filled]').forEach(f => f.removeAttribute('data-filled'))")
    for index, form in enumerate(page_forms(page.content())):
        if not form.action.startswith(f"/matches/{match.pk}/record/"):
            continue
        try:
            post = fill(form, move, spec)
        except CannotFill:
            continue
        page.evaluate(SET_CONTROLS, [index, post])
        return page.locator("form[data-filled]")
    raise AssertionError(f"no form of the page records {move}")


def send(form: Any) -> None:
    """Tap the form's own button (Record, or the board's one-tap move)."""
    buttons = form.locator("button[type=submit]")
    (buttons.filter(has_text="Record").first if buttons.filter(has_text="Record").count() else buttons.first).click()


def said(page: Any, text: str) -> str:
    """Wait until the table bar says ``text``; returns what it says."""
    outcome = page.locator("#outcome", has_text=text)
    try:
        outcome.wait_for(timeout=8000)
    except Exception:
        shown = page.locator("#outcome, #problem").all_inner_texts()
        raise AssertionError(f"waited for {text!r}; the page says {shown}") from None
    return outcome.inner_text()


@pytest.fixture(scope="module")
def contexts(browser: Any) -> Any:
    """Two phone pages for the whole module; each test signs them in again (a fresh database per test)."""
    pages = [phone_page(browser), phone_page(browser)]
    yield pages
    for page in pages:
        page.context.close()


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_two_phones_rebase_a_stale_move_refuse_a_same_seat_one_and_keep_updating(
    slug, contexts, live_server, django_user_model
):
    table = TABLES[slug]
    keeper = django_user_model.objects.create_user(username="keeper")
    tomas = django_user_model.objects.create_user(username="tomas")
    names = [{"name": n} for n in ("Ana", "Tomas", "Cy", "Di")[: table.seats]]
    match = match_create(owner=keeper, game=slug, seats=names, options=table.options, recorders=[tomas])
    for step in table.setup:
        record(match, step)
    mine, theirs = contexts
    session_for(mine, live_server.url, keeper)
    session_for(theirs, live_server.url, tomas)
    url = f"{live_server.url}/matches/{match.pk}/"
    # bad Wi-Fi: this page stays as it was drawn (the owner's poll asks ?seats=1 too; the push is refused)
    stale = re.compile(r".*/(version|live)/(\?.*)?$")
    mine.route(stale, lambda route: route.abort())
    try:
        mine.goto(url)
        theirs.goto(url)
        # another player's entry comes in while this phone's form is open: it is recorded after it
        their_move = entry(match, table.theirs)
        my_move = entry(match, table.mine, after=their_move)
        theirs_form, my_form = fill_in(theirs, match, their_move), fill_in(mine, match, my_move)
        count = EventRow.objects.filter(stream_id=match.stream_id).count() + 1
        send(theirs_form)
        said(theirs, f"move {count}")  # "Recorded move N: …", or its own live update's "… (move N)"
        send(my_form)
        text = said(mine, "recorded after")
        assert "Recorded move" in text, text
        rows = list(EventRow.objects.filter(stream_id=match.stream_id).order_by("-version")[:2])
        assert [(r.type, r.seat) for r in rows] == [(my_move.type, my_move.seat), (their_move.type, their_move.seat)]

        # one player's entry made on both phones: the second is refused, with what changed
        for step in table.between:
            record(match, step)
        mine.goto(url)
        theirs.goto(url)
        move = entry(match, table.same)
        my_form = fill_in(mine, match, move)
        count = EventRow.objects.filter(stream_id=match.stream_id).count() + 1
        send(fill_in(theirs, match, move))
        said(theirs, f"move {count}")
        count = EventRow.objects.filter(stream_id=match.stream_id).count()
        send(my_form)
        text = said(mine, "Not recorded")
        assert "since your form was drawn" in text, text
        assert EventRow.objects.filter(stream_id=match.stream_id).count() == count
        box = mine.locator("#outcome").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844  # said on screen

        # the refused phone, online again, is told of the next entry at once and follows the ones after it
        mine.unroute(stale)
        first, second = table.later
        record(match, first)
        news = mine.locator("#outcome", has_text="New at the table")
        news.wait_for(timeout=8000)
        assert mine.locator("#problem").count() == 1  # the refusal is kept while it is read
        news.get_by_role("link").first.click()
        mine.locator("#problem").wait_for(state="detached", timeout=8000)
        version = store.head_load(match.stream_id, fresh=True).version
        record(match, second)
        mine.locator(f"#tablebar[data-version='{version + 1}']").wait_for(timeout=8000)  # swapped in, no reload
        assert mine.url.startswith(url) and "/record/" not in mine.url
    finally:
        mine.unroute(stale)
