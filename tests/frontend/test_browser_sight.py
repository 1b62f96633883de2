"""The rule of sight at a real table (issue 41, done-when), in headless Chromium on two 390×844 phones: Ana and Bo
play from their own phones with their accounts, Cy has no phone and plays from Ana's (the table's seat). Each
phone offers only the secret moves it may record, says a refusal of another account's secret in players' words
where it was typed, and shows only what its reader may see (docs/ARCHITECTURE.md › The rule of sight).

How this test was checked against a missing rule: with ``rulesets.replay.judged_state`` patched to judge every
entry on the whole state and ``matches.store.visibility.writer_sight`` on every seat (no rule), Ana's hand-typed
origin for Bo is recorded and the test fails at "nothing is written".
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from matches.store import events as store
from tests.frontend.phones import open_form, phone_page, session_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ONLY_BO = "Only Bo can record this, from their own phone"

# a move posted from the page as its buttons post them (``move``: the entry as JSON), with the page's own token
POST_MOVE = """(move) => {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = document.querySelector('form[action*="/record/"]').getAttribute('action');
  for (const [name, value] of [['move', move],
       ['csrfmiddlewaretoken', document.querySelector('[name=csrfmiddlewaretoken]').value]]) {
    const input = Object.assign(document.createElement('input'), {type: 'hidden', name, value});
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}"""


@pytest.fixture(scope="module")
def phones(browser: Any) -> Any:
    """Ana's phone and Bo's phone for the whole module (each test signs them in again)."""
    pages = [phone_page(browser), phone_page(browser)]
    yield pages
    for page in pages:
        page.context.close()


@pytest.fixture
def people(django_user_model: Any) -> dict[str, Any]:
    return {name: django_user_model.objects.create_user(username=name.lower()) for name in ("Ana", "Bo")}


def rows(match: Any) -> list[tuple[str, int | None, str]]:
    """Every entry recorded: ``(type, seat, who recorded it)``."""
    found = EventRow.objects.filter(stream_id=match.stream_id).select_related("recorded_by").order_by("version")
    return [(r.type, r.seat, r.recorded_by.username if r.recorded_by else "") for r in found]


def head(match: Any) -> dict[str, Any]:
    return store.head_load(match.stream_id, fresh=True).state


def shown(page: Any) -> str:
    """What the phone's page says (its text, as a person reads it)."""
    return page.locator("#main").inner_text()


def told(page: Any) -> str:
    """What the page tells of the match: the bar, the players, the board's log and the history's lines."""
    return "\n".join(page.locator("#outcome, .fs-players, .fs-log, #history").all_inner_texts())


def origin_line(page: Any, name: str) -> str:
    """The players' panel line of ``name`` ("Destiny: Hunter · origin: chosen, secret")."""
    return page.locator(".fs-players li", has=page.locator("strong", has_text=name)).inner_text()


def reveals(page: Any) -> list[str]:
    """The "Show …'s origin" buttons the page offers (in their closed disclosure)."""
    return [t.strip() for t in page.locator("#secrets button").all_text_contents()]


def show(page: Any, name: str) -> None:
    """Open the secrets disclosure and show ``name``'s origin on this phone."""
    page.locator("#secrets summary").click()
    page.locator("#secrets").get_by_role("button", name=f"Show {name}'s origin").click()
    page.locator("#secrets", has_text=f"Showing {name}'s origin").wait_for()


def recorded(page: Any, tap: Any) -> None:
    """Tap ``tap`` (a locator) and wait until the page shows the entry it recorded (one version further)."""
    version = int(page.locator("#tablebar").get_attribute("data-version"))
    tap.click()
    page.locator(f"#tablebar[data-version='{version + 1}']").wait_for()
    page.locator("#outcome", has_text="Recorded move").wait_for()


def tap_move(page: Any, label: str) -> None:
    """Tap the board's button ``label`` and wait until the move is recorded."""
    recorded(page, page.get_by_role("button", name=label, exact=True))


def place(page: Any, card: str, cell: str) -> None:
    """Tap a card's name on the board, then the cell ("column 4, row 6")."""
    page.locator(".fs-card-link", has_text=card).first.click()
    recorded(page, page.get_by_role("button", name=f"Place {card} on {cell}"))
    page.locator(".fs-preview").get_by_role("button", name="End the turn").wait_for()


def end_turn(page: Any) -> None:
    recorded(page, page.locator(".fs-preview").get_by_role("button", name="End the turn"))


def refill(page: Any) -> None:
    """The start of the turn: keep the hand and draw (the board's first listed button)."""
    recorded(page, page.locator(".fs-actions button[name=move]").first)


def test_ana_and_bo_on_their_phones_and_cy_on_anas(phones, people, live_server):
    ana, bo = people["Ana"], people["Bo"]
    match = match_create(owner=ana, game="the-first-spine", recorders=[bo],
                         seats=[{"name": "Ana", "user": ana}, {"name": "Bo", "user": bo}, {"name": "Cy"}])  # fmt: skip
    for seat, destiny, user in ((0, "conjurer", ana), (1, "hunter", bo), (2, "sorcerer", ana)):
        match_event_record(match=match, user=user, type="destiny_chosen", seat=seat, data={"destiny": destiny})
    anas, bos = phones
    session_for(anas, live_server.url, ana)
    session_for(bos, live_server.url, bo)
    url = f"{live_server.url}/matches/{match.pk}/"

    # Ana's phone: her own origin choices only, and a reveal for Cy (the table's seat), none for Bo or herself
    anas.goto(url)
    board = anas.locator(".fs-actions")
    assert board.get_by_role("button", name="Ana: Blacksmith (secret)").count() == 1
    assert not [t for t in board.locator("button").all_inner_texts() if not t.startswith("Ana: ")]
    assert "Bo:" not in anas.locator("#id_move").inner_text()  # the legal moves list no origin of Bo's
    assert reveals(anas) == ["Show Cy's origin"]
    origin_form = open_form(anas, "origin_chosen")
    assert origin_form.get_by_label("Player").locator("option").all_inner_texts() == ["Ana", "Cy"]
    tap_move(anas, "Ana: Blacksmith (secret)")

    # Ana's page made to post Bo's origin anyway: a form typed by hand, then a posted move; refused in place
    before = rows(match)
    origin_form = open_form(anas, "origin_chosen")
    anas.evaluate("() => document.querySelector('#id_seat_origin_chosen').add(new Option('Bo', '1'))")
    origin_form.get_by_label("Player").select_option(label="Bo")
    origin_form.get_by_label("Secret origin").select_option(label="Priest")
    origin_form.get_by_role("button", name="Record").click()
    anas.locator("#outcome", has_text="Not recorded").wait_for()
    assert ONLY_BO in anas.locator("#outcome").inner_text()
    refused = anas.locator("#f-origin_chosen")
    assert ONLY_BO in refused.inner_text()  # said where it was typed
    assert refused.locator("select[name=seat]").input_value() == "1"  # what she typed is kept
    assert refused.locator("select[name='data.origin']").input_value() == "priest"
    assert rows(match) == before  # nothing is written
    move = json.dumps({"type": "origin_chosen", "seat": 1, "data": {"origin": "healer"}})
    anas.evaluate(POST_MOVE, move)
    anas.locator("#outcome", has_text=ONLY_BO).wait_for()
    assert rows(match) == before

    # Ana shows Cy's origin on her phone, passes it to Cy, who chooses; the next entry hides it again
    anas.goto(url)
    show(anas, "Cy")
    assert "Blacksmith" not in origin_line(anas, "Ana")  # her own is hidden while Cy holds the phone
    assert [t for t in anas.locator(".fs-actions button").all_inner_texts() if not t.startswith("Cy: ")] == []
    tap_move(anas, "Cy: Architect (secret)")
    assert "Showing Cy" not in shown(anas) and "Architect" not in origin_line(anas, "Cy")
    assert "Blacksmith" in origin_line(anas, "Ana")

    # Bo on his phone chooses his own; he sees neither Ana's nor Cy's
    bos.goto(url)
    buttons = bos.locator(".fs-actions button").all_inner_texts()
    assert "Bo: Priest (secret)" in buttons and all(t.startswith("Bo: ") for t in buttons)
    assert reveals(bos) == ["Show Cy's origin"]  # Bo records too: Cy's seat is the table's
    tap_move(bos, "Bo: Priest (secret)")
    assert [r[:2] for r in rows(match)[3:]] == [("origin_chosen", 0), ("origin_chosen", 2), ("origin_chosen", 1)]
    assert [r[2] for r in rows(match)[3:]] == ["ana", "ana", "bo"]
    assert [p["origin"] for p in head(match)["players"]] == ["blacksmith", "priest", "architect"]

    # Ana's turn: she places a card of her origin from her own phone
    anas.goto(url)
    refill(anas)
    place(anas, "Anvil Guard", "column 4, row 6")
    end_turn(anas)

    # Bo's turn: his phone starts it; Ana's phone does not offer his cards, nor tell his origin
    bos.goto(url)
    assert "Architect" not in origin_line(bos, "Cy") and "Architect" not in told(bos)
    assert "Blacksmith" in origin_line(bos, "Ana")  # Ana's card told hers
    refill(bos)
    anas.goto(url)
    assert anas.locator(".fs-card-link").count() == 0
    assert "only Bo places them, from their own phone" in anas.locator(".fs-prompt").last.inner_text()
    assert "Priest" not in origin_line(anas, "Bo") and "Priest" not in told(anas)
    place(bos, "Martyr", "column 2, row 4")
    end_turn(bos)
    anas.goto(url)
    assert "Priest" in origin_line(anas, "Bo")  # a card of it was played

    # Cy's turn, on Ana's phone: the table's seat, shown on request for the card of Cy's origin
    refill(anas)
    assert anas.locator(".fs-card-link", has_text="Surveyor").count() == 0  # hidden: not offered
    show(anas, "Cy")
    place(anas, "Surveyor", "column 4, row 2")
    end_turn(anas)
    cards = {c["name"]: c["controller"] for c in head(match)["cards"] if c["kind"] != "wizard"}
    assert cards == {"Anvil Guard": 0, "Martyr": 1, "Surveyor": 2}
    assert [r[2] for r in rows(match) if r[0] == "card_placed"] == ["ana", "bo", "ana"]
    bos.goto(url)
    assert "Architect" in origin_line(bos, "Cy")  # told by the card Cy played
