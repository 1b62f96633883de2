"""The offline page reads a move form as the server does: for every game, each entry of the form-coverage scenarios
is filled into its match page's form (``tests.frontend.form_filler``, as a person would), then read back twice, by
``frontend/forms/schema.py › parse_inputs`` (the server) and by ``static/frontend/offline/entry.js`` in Chromium (the
offline queue), and the two entries must be the same. One Chromium page for the module."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.http import QueryDict

from frontend.forms.schema import parse_inputs
from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets import Event, get_ruleset
from rulesets.replay import event_types_with_meta
from rulesets.schema import SchemaError
from tests.frontend.form_filler import CannotFill, page_forms
from tests.frontend.form_filler import fill as fill_form
from tests.frontend.forms.test_form_coverage import SCENARIOS, cleaned
from tests.frontend.phones import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db]  # the browser reads no data: only a module

READ = """async ({body, index, post}) => {
  const {entryFromForm} = await import('/static/frontend/offline/entry.js');
  const box = document.getElementById('forms') || document.body.appendChild(document.createElement('div'));
  box.id = 'forms';
  box.innerHTML = body;
  const form = box.querySelectorAll('form[method=post]')[index];
  for (const el of form.elements) {
    if (!el.name || el.type === 'hidden' || el.type === 'submit') continue;
    const values = post[el.name] || [];
    if (el.type === 'checkbox') el.checked = values.includes(el.value);
    else el.value = values.length ? values[0] : '';
  }
  return entryFromForm(form);
}"""


def server_entry(ruleset: Any, post: dict[str, list[str]]) -> tuple[Any, ...] | str:
    """What ``match_record`` reads from ``post`` (``views._posted_event``), cleaned; a string when it refuses."""
    query = QueryDict(mutable=True)
    for name, values in post.items():
        query.setlist(name, values)
    spec = event_types_with_meta(ruleset)[post["type"][0]]
    data, errors = parse_inputs(spec.fields, query, "data.", expand=query.get("expand") == "1")
    seat = query.get("seat")
    return f"errors {errors}" if errors else cleaned(ruleset, post["type"][0], int(seat) if seat else None, data)


def test_entry_js_reads_every_scenario_entry_as_the_server_does(browser, live_server, client, django_user_model):
    owner = django_user_model.objects.create_user(username="keeper", password="x-long-pass-1")
    client.force_login(owner)
    page = browser.new_context(**PHONE).new_page()
    page.goto(live_server.url + "/no-connection/")  # the site's origin, for the module import
    read = 0
    differ: list[str] = []
    try:
        for slug, scenario in sorted(SCENARIOS.items()):
            ruleset = get_ruleset(slug)
            names = [{"name": n} for n in ("Ana", "Bo", "Cy", "Di")[: scenario.seats]]
            match = match_create(owner=owner, game=slug, seats=names, options=scenario.options)
            record_url = f"/matches/{match.pk}/record/"
            for step in scenario.script:
                html = client.get(f"/matches/{match.pk}/").content.decode()
                state = store.head_load(match.stream_id, fresh=True).state
                legal = ruleset.legal_moves(state) or []
                if isinstance(step, str):
                    kind = step.removeprefix("legal:")
                    move = next(m for m in legal if kind in ("*", m.type))
                else:
                    move = step if isinstance(step, Event) else step(ruleset, state)
                spec = event_types_with_meta(ruleset).get(move.type)
                body = re.search(r"<body>(.*)</body>", html, re.S).group(1)  # type: ignore[union-attr]
                for index, form in enumerate(page_forms(html)):
                    if not form.action.startswith(record_url) or form.hidden("type") != move.type:
                        continue
                    try:
                        post = fill_form(form, move, spec)
                    except CannotFill:
                        continue
                    want = server_entry(ruleset, post)
                    got = page.evaluate(READ, {"body": body, "index": index, "post": post})
                    try:
                        mine: Any = cleaned(ruleset, got["type"], got["seat"], got["data"])
                    except SchemaError as exc:
                        mine = f"schema: {exc}"
                    read += 1
                    if mine != want:
                        differ.append(f"{slug} {move.to_dict()}\n    server: {want}\n    page:   {mine} from {got}")
                    break
                match_event_record(match=match, user=owner, type=move.type, seat=move.seat, data=move.data)
    finally:
        page.context.close()
    assert read > 40, read
    assert not differ, f"{len(differ)} of {read} entries read differently:\n" + "\n".join(differ[:10])
