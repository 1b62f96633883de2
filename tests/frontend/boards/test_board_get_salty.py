"""The Get Salty board on the match page: SVG drawing, ?pick= targets, one-click forms, replay, hints, win lines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulesets.base import Event
from rulesets.get_salty import RULESET, hints
from rulesets.get_salty.fields import ATTRIBUTE_CHOSEN, CONTAINER_MOVED, CRACKER_MOVED
from tests.frontend.board_page import BoardPage, parse_board

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


# -- helpers -------------------------------------------------------------------------------------------


def parse(html: str) -> BoardPage:
    return parse_board(html, {"tokens": ("g", "gs-token"), "lines": ("line", "gs-line")})


def board_form(page: BoardPage) -> dict[str, Any] | None:
    return page.board_form("gs")


def move_buttons(page: BoardPage) -> list[dict[str, str]]:
    form = board_form(page)
    return [b for b in (form["buttons"] if form else []) if b.get("name") == "move"]


def get(client: Any, match: Any, query: str = "") -> tuple[str, BoardPage]:
    response = client.get(f"/matches/{match.pk}/{query}")
    assert response.status_code == 200
    html = response.content.decode()
    return html, parse(html)


def head_state(match: Any) -> dict[str, Any]:
    from matches.store import events as store

    return store.head_load(match.stream_id, fresh=True).state


def head_version(match: Any) -> int:
    from matches.store import events as store

    return store.head_load(match.stream_id, fresh=True).version


def events(match: Any) -> list[Event]:
    from matches.store import events as store

    return [Event(r.type, r.seat, r.data) for r in store.events_iter(match.stream_id)]


def token_of(event: Event) -> str:
    return "container" if event.type.startswith("salt_container") else event.data["cracker"]


def click(client: Any, match: Any, event: Event) -> Any:
    """Play ``event`` the way a player does: pick its token on the page, then press the button posting it."""
    query = "" if event.type == ATTRIBUTE_CHOSEN else f"?pick={token_of(event)}"
    _, page = get(client, match, query)
    form = board_form(page)
    assert form is not None, "the board offers no form"
    wanted = event.to_dict()
    button = next(b for b in move_buttons(page) if json.loads(b["value"]) == wanted)
    response = client.post(form["attrs"]["action"], {**form["hidden"], "move": button["value"]})
    return response


def record(match: Any, user: Any, *moves: tuple[str, int, dict[str, Any]]) -> None:
    from matches.services import match_event_record

    for type_, seat, data in moves:
        match_event_record(match=match, user=user, type=type_, seat=seat, data=data)


# Ana plays shape; two crackers in play: circle-red at 1,0 and square-blue at 1,1
OPENING = (
    (ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"}),
    (CRACKER_MOVED, 0, {"cracker": "circle-red", "to": [1, 0]}),
    (CRACKER_MOVED, 1, {"cracker": "square-blue", "to": [1, 1]}),
)


@pytest.fixture
def salty(owner: Any) -> Any:
    """A Get Salty match between Ana (seat 0, starts) and Bo."""
    from matches.services import match_create

    return match_create(is_public=True, owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}])


def find_win(state: dict[str, Any], depth: int) -> list[Event] | None:
    """A short sequence of placements ending in a win, found deterministically (depth-first, legal order)."""
    wins = hints(state, state["turn"])["winning_moves"]
    if wins:
        return [wins[0]]
    if depth == 0:
        return None
    for event in RULESET.legal_moves(state):
        if event.type != CRACKER_MOVED:
            continue
        rest = find_win(RULESET.apply(state, event), depth - 1)
        if rest is not None:
            return [event, *rest]
    return None


def won_match(salty: Any, owner: Any) -> tuple[Any, list[Event]]:
    """``salty`` played to a win (recorded through the services); returns it and the moves."""
    record(salty, owner, (ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"}))
    line = find_win(head_state(salty), 3)
    assert line is not None
    record(salty, owner, *[(e.type, e.seat, e.data) for e in line])
    return salty, line


# -- tests ---------------------------------------------------------------------------------------------


def test_board_draws_an_svg_with_labelled_tokens(client: Any, owner: Any) -> None:
    from matches.services import match_create

    match = match_create(
        is_public=True,
        owner=owner,
        game="get-salty",
        seats=[{"name": "Ana"}, {"name": "Bo"}],
        options={"color_names": {"red": "Crimson"}},
    )
    record(
        match,
        owner,
        (ATTRIBUTE_CHOSEN, 0, {"attribute": "color"}),
        (CRACKER_MOVED, 0, {"cracker": "circle-red", "to": [1, 0]}),
    )
    client.force_login(owner)
    html, page = get(client, match)
    assert '<svg class="gs-svg"' in html and "viewBox=" in html
    labels = {t["data-token"]: t["aria-label"] for t in page.tokens}
    assert labels == {
        "container": "Salt Container, filled (salty) at column 0, row 0",
        "circle-red": "Crimson circle, salty at column 1, row 0",
    }
    assert "<title>Crimson circle, salty at column 1, row 0</title>" in html
    # the reserve lists the eight others, unsalted; the victory attributes are named
    assert html.count('class="gs-rtoken') == 8
    assert "square-yellow" in html and "Ana: <strong>color</strong>" in html and "Bo: <strong>shape</strong>" in html
    # the grid is the tokens' bounding box padded by one cell: 2 × 1 tokens → 4 × 3 cells
    assert html.count('class="gs-cell') == 12


def test_choosing_the_attribute_is_two_buttons(client: Any, owner: Any, salty: Any) -> None:
    client.force_login(owner)
    _, page = get(client, salty)
    buttons = move_buttons(page)
    assert [json.loads(b["value"]) for b in buttons] == [e.to_dict() for e in RULESET.legal_moves(head_state(salty))]
    assert [b["class"] for b in buttons] == ["gs-choice", "gs-choice"]
    html = client.get(f"/matches/{salty.pk}/").content.decode()
    assert ">Shape</button>" in html and ">Color</button>" in html
    response = click(client, salty, Event(ATTRIBUTE_CHOSEN, 0, {"attribute": "color"}))
    assert response.status_code == 302 and response["Location"].endswith("#board")
    assert head_state(salty)["attributes"] == {"0": "color", "1": "shape"}


def test_pick_highlights_exactly_the_legal_targets(client: Any, owner: Any, salty: Any) -> None:
    record(salty, owner, *OPENING)
    client.force_login(owner)
    legal = RULESET.legal_moves(head_state(salty))
    legal_json = [e.to_dict() for e in legal]

    # nothing picked: every token with a legal move is a link, the others are not
    _, page = get(client, salty)
    picks = {a["data-token"]: a["href"] for a in page.links if "data-token" in a}
    assert set(picks) == {token_of(e) for e in legal}
    assert picks["container"] == f"/matches/{salty.pk}/?pick=container#board"
    assert "circle-red" not in picks  # salty, while the container is filled
    assert not [b for b in move_buttons(page) if "gs-target" in b.get("class", "")]

    for token in sorted(picks):
        _, page = get(client, salty, f"?pick={token}")
        targets = [b for b in move_buttons(page) if "gs-target" in b["class"]]
        expected = {
            f"{e.data['to'][0]},{e.data['to'][1]}"
            for e in legal
            if token_of(e) == token and e.type in (CRACKER_MOVED, CONTAINER_MOVED)
        }
        assert {b["data-cell"] for b in targets} == expected and len(targets) == len(expected)
        assert all(b["aria-label"].startswith(("Move ", "Place ")) for b in targets)
        # every button on the board posts a complete legal event, nothing else
        assert all(json.loads(b["value"]) in legal_json for b in move_buttons(page))
        # only the picked token is marked picked (its link now puts it back)
        picked = [a for a in page.links if "is-picked" in a.get("class", "")]
        assert [a["data-token"] for a in picked] == [token] and picked[0]["href"] == f"/matches/{salty.pk}/#board"

    # a token with no legal move (or an unknown name) picks nothing
    for bad in ("circle-red", "nonsense"):
        _, page = get(client, salty, f"?pick={bad}")
        assert not [b for b in move_buttons(page) if "gs-target" in b["class"]]


def test_posting_a_highlighted_target_records_the_move(client: Any, owner: Any, salty: Any) -> None:
    record(salty, owner, (ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"}))
    client.force_login(owner)
    _, page = get(client, salty, "?pick=triangle-yellow")
    form = board_form(page)
    assert form is not None and form["attrs"]["action"] == f"/matches/{salty.pk}/record/"
    assert form["hidden"]["expected_version"] == "1" and form["hidden"]["idempotency_key"]
    assert "csrfmiddlewaretoken" in form["hidden"]
    target = next(b for b in move_buttons(page) if b.get("data-cell") == "0,1")
    assert target["aria-label"] == "Place yellow triangle at column 0, row 1 (then flip it)"
    response = client.post(form["attrs"]["action"], {**form["hidden"], "move": target["value"]})
    assert response.status_code == 302
    assert head_version(salty) == 2
    assert events(salty)[-1] == Event(CRACKER_MOVED, 0, {"cracker": "triangle-yellow", "to": [0, 1]})
    assert head_state(salty)["tokens"]["triangle-yellow"] == {"cell": [0, 1], "salty": True}
    # the same form again is a stale page: refused, nothing written
    again = client.post(
        form["attrs"]["action"], {**form["hidden"], "idempotency_key": "other", "move": target["value"]}
    )
    assert again.status_code == 409 and head_version(salty) == 2
    # the re-rendered page (at the record URL) still links to the match page and offers the new position
    refused = parse(again.content.decode())
    hrefs = [a["href"] for a in refused.links if "data-token" in a]
    assert hrefs and all(h.startswith(f"/matches/{salty.pk}/?pick=") for h in hrefs)
    assert board_form(refused)["hidden"]["expected_version"] == "2"


def test_flip_buttons(client: Any, owner: Any, salty: Any) -> None:
    record(
        salty,
        owner,
        (ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"}),
        (CRACKER_MOVED, 0, {"cracker": "circle-red", "to": [1, 0]}),
    )
    client.force_login(owner)
    html, page = get(client, salty)
    flip = [b for b in move_buttons(page) if b["class"] == "gs-flip-container"]
    assert len(flip) == 1 and ">Flip container</button>" in html
    assert click(client, salty, Event("salt_container_flipped", 1, {})).status_code == 302
    # the container is empty now: Ana may flip her salty red circle in place (C) or move it (D)
    html, page = get(client, salty, "?pick=circle-red")
    flips = [b for b in move_buttons(page) if b["class"] == "gs-flip"]
    assert [json.loads(b["value"]) for b in flips] == [
        {"type": "cracker_flipped", "seat": 0, "data": {"cracker": "circle-red"}}
    ]
    assert ">Flip</button>" in html and "Flip container" not in html  # the container was used last turn
    assert (
        client.post(
            f"/matches/{salty.pk}/record/", {**board_form(page)["hidden"], "move": flips[0]["value"]}
        ).status_code
        == 302
    )
    assert head_state(salty)["tokens"]["circle-red"]["salty"] is False


def test_a_stranger_and_a_visitor_see_the_board_without_forms(
    client: Any, owner: Any, stranger: Any, salty: Any
) -> None:
    record(
        salty,
        owner,
        (ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"}),
        (CRACKER_MOVED, 0, {"cracker": "circle-red", "to": [1, 0]}),
    )
    for user in (stranger, None):
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        html, page = get(client, salty, "?pick=container")
        assert '<svg class="gs-svg"' in html and len(page.tokens) == 2
        assert board_form(page) is None and not move_buttons(page)
        assert not [a for a in page.links if "data-token" in a]
        assert "gs-target-mark" not in html and f"/matches/{salty.pk}/record/" not in html


def test_replay_shows_the_earlier_position_without_forms(client: Any, owner: Any, salty: Any) -> None:
    record(salty, owner, *OPENING)
    client.force_login(owner)
    html, page = get(client, salty, "?at=1&pick=container")
    assert [t["data-token"] for t in page.tokens] == ["container"]
    assert board_form(page) is None and not move_buttons(page) and "gs-target-mark" not in html
    assert html.count('class="gs-rtoken') == 9
    assert "Show a hint" not in html
    _, live = get(client, salty)
    assert len(live.tokens) == 3 and board_form(live) is not None


def test_the_hint_appears_only_on_request(client: Any, owner: Any, salty: Any) -> None:
    # Ana has shape; two circles in a row: Ana (on turn) can complete three circles
    record(
        salty,
        owner,
        (ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"}),
        (CRACKER_MOVED, 0, {"cracker": "circle-red", "to": [1, 0]}),
        (CRACKER_MOVED, 1, {"cracker": "circle-yellow", "to": [2, 0]}),
    )
    client.force_login(owner)
    html, page = get(client, salty)
    assert "You can win now" not in html and "Hint for" not in html
    assert any(a["href"] == f"/matches/{salty.pk}/?hint=1#board" for a in page.links)
    html, page = get(client, salty, "?hint=1")
    state = head_state(salty)
    win = hints(state, 0)["winning_moves"][0]
    # the owner records for both players: the page cannot know who holds the phone, so the hint says whose it is
    assert f"<strong>Hint for Ana:</strong> You can win now: {RULESET.move_words(state, win)}." in html
    # the hint stays on while picking
    assert any(a.get("href") == f"/matches/{salty.pk}/?pick=container&hint=1#board" for a in page.links)


def test_hint_without_threats(client: Any, owner: Any, salty: Any) -> None:
    record(salty, owner, (ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"}))
    client.force_login(owner)
    html, _ = get(client, salty, "?hint=1")
    assert "No move wins now, and Bo has no winning move on the next turn as the board stands." in html


def test_a_threat_hint(client: Any, owner: Any, salty: Any) -> None:
    # Ana (shape) placed two circles; it is Bo's turn, Ana threatens to place the third circle
    record(
        salty,
        owner,
        (ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"}),
        (CRACKER_MOVED, 0, {"cracker": "circle-red", "to": [1, 0]}),
        (CRACKER_MOVED, 1, {"cracker": "square-blue", "to": [0, 1]}),
        (CRACKER_MOVED, 0, {"cracker": "circle-yellow", "to": [2, 0]}),
    )
    state = head_state(salty)
    assert state["turn"] == 1
    found = hints(state, 1)
    assert found["opponent_threats"] and not found["winning_moves"]
    client.force_login(owner)
    html, _ = get(client, salty, "?hint=1")
    threat = RULESET.move_words(state, found["opponent_threats"][0], gerund=True)
    assert f"<strong>Hint for Bo:</strong> Watch out: Ana can win on the next turn by {threat}." in html


def test_a_finished_game_highlights_the_winning_line(client: Any, owner: Any, salty: Any) -> None:
    match, _ = won_match(salty, owner)
    state = head_state(match)
    assert state["winner"] is not None
    client.force_login(owner)
    html, page = get(client, match)
    combos = [c for c in state["combinations"] if c["seat"] == state["winner"]]
    wins = [ln for ln in page.lines if "gs-line-win" in ln["class"]]
    assert [ln["data-cells"] for ln in wins] == [" ".join(f"{x},{y}" for x, y in c["cells"]) for c in combos]
    assert "Winning line: three" in html and "gs-line-cell-win" in html
    assert board_form(page) is None and not [a for a in page.links if "data-token" in a]
    assert "Show a hint" not in html


def test_a_full_game_through_the_board(client: Any, owner: Any, salty: Any) -> None:
    client.force_login(owner)
    choose = Event(ATTRIBUTE_CHOSEN, 0, {"attribute": "shape"})
    assert click(client, salty, choose).status_code == 302
    line = find_win(head_state(salty), 3)
    assert line is not None and 2 <= len(line) <= 4
    for event in line:
        assert head_state(salty)["winner"] is None
        response = click(client, salty, event)
        assert response.status_code == 302, response.content.decode()[:2000]
    assert events(salty) == [choose, *line]
    state = head_state(salty)
    assert state["winner"] == 0 and state["scores"]["0"] >= 1
    html, page = get(client, salty)
    assert "Won by Ana" in html and "gs-line-win" in html and board_form(page) is None


def test_the_board_numbers_its_columns_and_rows(client: Any, owner: Any, salty: Any) -> None:
    """The cells the history names ("to column 1, row 0") can be found on the board: column numbers along the top,
    row numbers down the left edge (rows grow downwards)."""
    record(
        salty, owner, *OPENING
    )  # tokens at columns and rows (0, 0), (1, 0) and (1, 1): the grid is columns -1..2, rows -1..2
    client.force_login(owner)
    html, _ = get(client, salty)
    columns = html.split('<ol class="gs-xs')[1].split("</ol>")[0]
    rows = html.split('<ol class="gs-ys')[1].split("</ol>")[0]
    assert columns.count("<li>") == 4 and "<li>-1</li><li>0</li><li>1</li><li>2</li>" in columns
    assert rows.count("<li>") == 4 and "<li>-1</li><li>0</li><li>1</li><li>2</li>" in rows
    assert "A cell is named by its column and row" in html
    history = client.get(f"/matches/{salty.pk}/history/").content.decode()
    assert "Bo moved the blue square to column 1, row 1, below the red circle, and flipped it." in history


def test_the_hint_is_for_the_player_to_move_only(client: Any, owner: Any, make_user: Any) -> None:
    """A player signed in with their own account sees the hint on their turn only, addressed to them; the other
    player and spectators are offered none, even by asking for it in the address."""
    from matches.services import match_create

    ana_user, bo_user = make_user("ana"), make_user("bo")
    match = match_create(
        is_public=True,
        owner=owner,
        game="get-salty",
        seats=[{"name": "Ana", "user": ana_user}, {"name": "Bo", "user": bo_user}],
    )
    record(match, owner, *OPENING)  # Ana to play
    client.force_login(ana_user)
    html, _ = get(client, match, "?hint=1")
    assert "<strong>Hint:</strong> " in html and "Hint for" not in html
    assert "Bo has no winning move" in html or "You can win now" in html or "Watch out: Bo" in html
    for reader in (bo_user, None):
        if reader is None:
            client.logout()
        else:
            client.force_login(reader)
        html, page = get(client, match, "?hint=1")
        assert "gs-hint" not in html and not any("hint=1" in (a.get("href") or "") for a in page.links)
