"""The differential test of issue #25: random move sequences run through the server's real append path (the API,
the store, PostgreSQL) and through the in-browser rulesets (Pyodide in Chromium, ``offline/rules.js`` in its Web Worker, as the match
page runs them) must give
the same acceptances, the same refusals (status and the whole 400 body: code, violation, rule, detail, errors)
and the same states, for every game. One Chromium page and one Pyodide start for the whole module.

Each sequence is seeded (``random.Random(slug)``) and mixes the game's scripted entries (the form-coverage
scenarios), moves from ``legal_moves``, mutations of them (another seat, a number off by a few, a wrong type, a
missing or unknown field, an unknown entry type), house rules followed by a move, voids (the last entry, or any
version, legal or not) and recorded results. In the same Pyodide, the board it draws from a page's seed
(``rules.board``, ``frontend/offline/board.py``) is the page's own, for every game with a board.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from django.contrib.staticfiles import handlers
from rest_framework.test import APIClient

from benchmarks.offline_sequences import GAMES, made_up_entry
from frontend.boards import shared as boards
from frontend.offline import bundle
from frontend.offline.bundle import offline_urls
from matches.selectors import match_seat_names
from matches.services import match_create, match_event_record
from matches.store import events as store
from matches.store.events import HOUSE_RULE_SPENT
from rulesets import Event, all_rulesets, get_ruleset
from rulesets.offline import legal_of, table_words
from rulesets.replay import EVENT_VOIDED, RESULT_RECORDED, RULE_OVERRIDDEN, event_types_with_meta
from tests.frontend.forms.test_form_coverage import SCENARIOS
from tests.frontend.offline_boards import board_html, board_queries, csrf_of, new_match, normalised, page_and_seed, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEPS = 60  # entries per game
NAMES = ["Ana", "Bo", "Cy", "Di"]

# Every entry of the sequence, folded in the browser exactly as the offline shell would: the position and log
# it holds are only what the rules answered (never the server's).
RUN = """async ([start, entries]) => {
  const m = await import('/static/frontend/offline/rules.js');
  const rules = await m.loadRulesInWorker();
  let position = start;
  const log = [];
  const answers = [];
  const t0 = performance.now();
  for (const entry of entries) {
    const a = await rules.record(position, entry, log);
    if (a.ok === true) {
      position = a.position;
      log.push({version: position.version, ...a.entry});
      answers.push({ok: true, version: position.version, state: position.state,
                    override_pending: position.override_pending, outcome: a.outcome, words: a.words});
    } else {
      answers.push(a);
    }
  }
  const ms = performance.now() - t0;
  return {answers, ms, legal: await rules.legal(position), turn: await rules.turn(position)};
}"""


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _mutate(rng: random.Random, entry: dict[str, Any], ruleset: Any, seat_count: int) -> dict[str, Any]:
    """An entry made wrong (or, by chance, still right) in one of the ways a hurried thumb or a stale page might."""
    entry = copy.deepcopy(entry)
    data = entry.setdefault("data", {})
    how = rng.choice(["seat", "seat", "number", "number", "type_of_value", "drop", "extra", "unknown_type", "other"])
    if how == "seat":
        entry["seat"] = rng.choice([None, *range(seat_count + 2)])
    elif how == "number":
        ints = [k for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)]
        if ints:
            key = rng.choice(ints)
            data[key] += rng.choice([-3, -1, 1, 2, 7])
        else:
            entry["seat"] = rng.choice(range(seat_count + 1))
    elif how == "type_of_value" and data:
        data[rng.choice(sorted(data))] = rng.choice(["x", 3, None, [], {"a": 1}, True, 2.5])
    elif how == "drop" and data:
        del data[rng.choice(sorted(data))]
    elif how == "extra":
        data["surplus"] = 1
    elif how == "unknown_type":
        entry["type"] = rng.choice(["teleported", "", "cracker_moved", "card_placed"])
    else:
        entry["type"] = rng.choice(sorted(event_types_with_meta(ruleset)))
    return entry


def _scripted(step: Any, ruleset: Any, state: dict[str, Any]) -> dict[str, Any] | None:
    """The form-coverage scenario's next entry in this position, or None where it does not apply."""
    try:
        if isinstance(step, Event):
            return step.to_dict()
        if isinstance(step, str):
            kind = step.split(":", 1)[1]
            moves = legal_of(ruleset, state) or []
            moves = [m for m in moves if kind == "*" or m.type == kind]
            return moves[0].to_dict() if moves else None
        return step(ruleset, state).to_dict()
    except Exception:  # the scenario's helper finds nothing here (the random walk has left its script)
        return None


def _next_entries(rng: random.Random, slug: str, ruleset: Any, state: dict[str, Any], version: int,
                  seat_count: int, script: list[Any]) -> list[dict[str, Any]]:  # fmt: skip
    """The next one or two entries of the random sequence, chosen from the server's current full state."""
    legal = legal_of(ruleset, state) or []
    planned = _scripted(script[0], ruleset, state) if script else None
    if planned is not None and rng.random() < 0.8:
        script.pop(0)
    roll = rng.random()
    base = planned or (rng.choice(legal).to_dict() if legal else made_up_entry(rng, ruleset, state, seat_count))
    if roll < 0.45 and planned is not None:
        return [planned]
    if roll < 0.70:
        return [rng.choice(legal).to_dict()] if legal else [made_up_entry(rng, ruleset, state, seat_count)]
    if roll < 0.82:
        return [_mutate(rng, base, ruleset, seat_count)]
    if roll < 0.86:
        return [
            {"type": RULE_OVERRIDDEN, "seat": None, "data": {"reason": "house rule"}},
            _mutate(rng, base, ruleset, seat_count),
        ]
    if roll < 0.95 and version:
        target = version if rng.random() < 0.6 else rng.randint(1, version + 1)
        return [{"type": EVENT_VOIDED, "seat": None, "data": {"version": target, "reason": "wrong entry"}}]
    if roll < 0.97:
        winners = rng.sample(range(seat_count), k=rng.randint(0, min(2, seat_count)))
        return [{"type": RESULT_RECORDED, "seat": None, "data": {"winners": winners, "draw": rng.random() < 0.2}}]
    return [base]


def _play_on_server(api: APIClient, match: Any, rng: random.Random, slug: str) -> tuple[list[dict], list[dict]]:
    """Run the random sequence through ``POST /api/matches/{id}/events/``; the entries and what the server did."""
    ruleset = get_ruleset(slug)
    seat_count = match.stream.seat_count
    script = list(SCENARIOS[slug].script)
    entries: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    while len(entries) < STEPS:
        head = store.head_load(match.stream_id, fresh=True)
        for entry in _next_entries(rng, slug, ruleset, head.state, head.version, seat_count, script):
            response = api.post(f"/api/matches/{match.pk}/events/", entry, format="json")
            assert response.status_code in (201, 400), (entry, response.status_code, response.content[:300])
            body = response.json()
            if response.status_code == 201:
                head = store.head_load(match.stream_id, fresh=True)
                results.append({"ok": True, "version": head.version, "state": _json(head.state),
                                "override_pending": head.override_pending, "outcome": body["outcome"]})  # fmt: skip
            else:
                results.append({"ok": False, "status": 400, "body": body})
            entries.append(entry)
            withdrawn = body.get("house_rule_withdrawn") if response.status_code == 400 else None
            if withdrawn:  # the server spent the house rule: the void it recorded is the next entry of the log
                head = store.head_load(match.stream_id, fresh=True)
                entries.append({"type": EVENT_VOIDED, "seat": None,
                                "data": {"version": withdrawn, "reason": HOUSE_RULE_SPENT}})  # fmt: skip
                results.append({"ok": True, "version": head.version, "state": _json(head.state),
                                "override_pending": head.override_pending, "outcome": None, "spent": True})  # fmt: skip
                break  # the position moved: draw the next entries from it
    return entries, results


@pytest.fixture(scope="module")
def rules_page(browser, live_server):
    """One page of our origin with the rules loaded: Pyodide starts once for the module."""
    page = browser.new_page(service_workers="block")  # the rules worker's fetches go straight to the server
    page.set_default_timeout(60000)
    page.problems = []  # requests to another origin, refusals by the Content-Security-Policy
    page.context.on("request", lambda r: None if r.url.startswith(live_server.url) else page.problems.append(r.url))
    page.on("console", lambda m: page.problems.append(m.text) if "Content Security Policy" in m.text else None)
    # what the server sent (Playwright does not see a shared worker's requests): each archive and its encoding, and
    # every static file
    page.fetched = []
    archive_response, static_serve = bundle._archive_response, handlers.serve

    def archive(request: Any, *args: Any) -> Any:
        response = archive_response(request, *args)
        page.fetched.append((request.path, response.get("Content-Encoding")))
        return response

    def static(request: Any, *args: Any, **kwargs: Any) -> Any:
        page.fetched.append((request.path, None))
        return static_serve(request, *args, **kwargs)

    patch = pytest.MonkeyPatch()
    patch.setattr(bundle, "_archive_response", archive)
    patch.setattr(handlers, "serve", static)
    page.goto(live_server.url + "/accounts/login/")  # any page: our origin and its Content-Security-Policy
    urls = offline_urls()
    page.evaluate(
        "async ([py, zip, stdlib]) => { const m = await import('/static/frontend/offline/rules.js');"
        " await m.loadRulesInWorker({pyodideUrl: py, rulesetsUrl: zip, stdlibUrl: stdlib}); }",
        [urls["pyodide_url"], urls["rulesets_url"], urls["stdlib_url"]],
    )
    yield page
    patch.undo()
    page.close()


def test_random_sequences_agree_between_the_server_and_the_browser(rules_page, django_user_model):
    assert set(GAMES) == {r.slug for r in all_rulesets(kind="match")}  # every game
    owner = django_user_model.objects.create_user(username="differ", password="x-pass-123")
    api = APIClient()
    api.force_authenticate(owner)
    seen = {"accepted": 0, "refused": 0, "invalid": 0, "voids": 0, "overrides": 0}
    for slug in GAMES:
        scenario = SCENARIOS[slug]
        options = {**scenario.options}
        ruleset = get_ruleset(slug)
        if ruleset.start_option:
            options[ruleset.start_option] = 0
        match = match_create(owner=owner, game=slug, seats=[{"name": n} for n in NAMES[: scenario.seats]],
                             options=options)  # fmt: skip
        head = store.head_load(match.stream_id, fresh=True)
        start = {"game": slug, "options": head.options, "version": head.version, "state": _json(head.state),
                 "override_pending": head.override_pending, "seat_names": match_seat_names(match)}  # fmt: skip
        entries, server = _play_on_server(api, match, random.Random(slug), slug)
        browser = rules_page.evaluate(RUN, [start, entries])
        for i, (entry, want, got) in enumerate(zip(entries, server, browser["answers"], strict=True)):
            where = (slug, i, entry)
            if not want["ok"] and want["body"].get("house_rule_withdrawn"):
                # even the house rule could not place it: the phone leaves it to the server, which spends the rule
                assert got["ok"] is None and "withdraw the house rule" in got["reason"], (*where, got)
                continue
            assert got["ok"] is want["ok"], (*where, want, got)
            if want["ok"]:
                for key in ("version", "state", "override_pending", "outcome")[: 3 if want.get("spent") else 4]:
                    assert got[key] == want[key], (*where, key)
                seen["accepted"] += 1
                seen["voids"] += entry["type"] == EVENT_VOIDED
                seen["overrides"] += entry["type"] == RULE_OVERRIDDEN
            else:
                assert got["status"] == 400 and got["body"] == want["body"], (*where, want["body"], got["body"])
                seen["refused" if want["body"]["code"] == "rule_violation" else "invalid"] += 1
        head = store.head_load(match.stream_id, fresh=True)
        assert sum(1 for w in server if w["ok"]) >= 8, (slug, "too few entries accepted to compare states")
        legal = legal_of(ruleset, head.state)
        assert browser["legal"] == (None if legal is None else [m.to_dict() for m in legal]), slug
        assert browser["turn"] == _json(table_words(ruleset, head.state, match_seat_names(match))), slug
    # the sequences exercised every kind of answer
    assert min(seen.values()) >= 5, seen
    assert rules_page.problems == []  # Pyodide and the rules came from our origin, under our policy
    # ... all of it on the trimmed standard library (STDLIB_MODULES), sent compressed like the other archives
    fetched = dict(rules_page.fetched)
    assert fetched[offline_urls()["stdlib_url"]] == "br" and fetched[offline_urls()["rulesets_url"]] == "br"
    assert fetched["/static/frontend/vendor/pyodide/pyodide.asm.wasm"] is None  # (the test server's own static files)
    assert not [u for u in fetched if u.endswith("/python_stdlib.zip")], "the whole standard library was fetched"


DRAW = """async ([seed, position, query, csrf]) => {
  const m = await import('/static/frontend/offline/rules.js');
  const rules = await m.loadRulesInWorker();
  const t0 = performance.now();
  const answer = await rules.board(seed, position, query, csrf);
  return {html: answer.html, ms: performance.now() - t0};
}"""


def test_the_board_drawn_in_the_browser_is_the_servers(rules_page, client, django_user_model):
    """For every game with a board, at several positions and with its links' queries, the board Pyodide draws
    from the page's seed (``rules.board``: the boards archive, Django's template engine) is the page's own."""
    owner = django_user_model.objects.create_user(username="board-differ", password="x-pass-123")
    client.force_login(owner)
    drawn = 0
    for slug in sorted(boards.BOARDS):
        match, script = new_match(owner, slug)
        rng = random.Random(slug)
        for step in range(9):
            page, seed = page_and_seed(client, match)
            if step % 4 == 0 and seed["complete"]:
                inner = board_html(page)
                got = rules_page.evaluate(DRAW, [seed, seed, {}, csrf_of(page)])
                assert normalised(got["html"]) == normalised(inner), (slug, step)
                drawn += 1
                for query in board_queries(inner, seed["board"]["page_url"], limit=1):
                    asked = "?" + "&".join(f"{k}={v}" for k, v in query.items())
                    page, seed = page_and_seed(client, match, asked)
                    got = rules_page.evaluate(DRAW, [seed, seed, query, csrf_of(page)])
                    assert normalised(got["html"]) == normalised(board_html(page)), (slug, step, query)
            if not play(match, owner, rng, script):
                break
        if slug == "bone-wars":  # a sitting's date, drawn by Pyodide's Django as the server's (UTC)
            match_event_record(match=match, user=owner, type="table_paused", data={})
            play(match, owner, rng, script)
            page, seed = page_and_seed(client, match)
            assert "<time datetime=" in board_html(page)
            got = rules_page.evaluate(DRAW, [seed, seed, {}, csrf_of(page)])
            assert normalised(got["html"]) == normalised(board_html(page)), slug
    assert drawn >= len(boards.BOARDS)
    assert rules_page.problems == []
