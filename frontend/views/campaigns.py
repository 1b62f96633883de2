"""Campaign pages: the Campaign Tracker sheet at any version, recording, the town phase, the gold ledger.

Thin views, like the match pages: they parse the request, call ``campaigns.saltmarsh.selectors`` and
``campaigns.saltmarsh.services`` and render templates. Every page works without JavaScript.
"""

from __future__ import annotations

import csv
import re
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.saltmarsh import selectors as campaign_selectors
from campaigns.saltmarsh import services as campaign_services
from campaigns.saltmarsh.services import BatchRefused
from frontend.charts import gold_chart, gp_text
from frontend.forms.inputs import Pick
from frontend.forms.recording import event_form
from frontend.forms.schema import (
    build_inputs,
    error_sentence,
    int_or_none,
    option_inputs,
    parse_inputs,
    parse_options,
    problem_from,
    record_or_rerender,
    recording_guards,
)
from frontend.selectors import last_undoable_version
from frontend.views import streams as stream_views
from frontend.views.photos import photo_context, photo_list
from frontend.views.spreadsheets import spreadsheet_safe
from matches.errors import DomainError, NotAllowed, NotFound
from matches.store.visibility import can_record, can_view
from rulesets import Event, EventType, get_ruleset
from rulesets.names import plural
from rulesets.replay import RULE_OVERRIDDEN, describe_entry, event_types_with_meta
from rulesets.saltmarsh.engine import sale_value
from rulesets.saltmarsh.fields import ADVENTURE_EVENTS, BRIDGE_EVENTS, BRIDGE_FIELDS, TOWN_EVENTS

DEFAULT_GAME = "saltmarsh"
HERO_FIELDS = ("hero", "from", "to")  # str fields that name an active hero: drawn as a <select>
HERO_LISTS = ("heroes",)  # lists of str that name active heroes: drawn as checkboxes
TOWN_ROWS = 6  # action rows the town form shows by default
TOWN_ROWS_MAX = 30
ADVENTURE_HEROES_MAX = 12

CAUSES = {
    "adventure": "Adventure reward",
    "missed_adventure": "Missed adventure",
    "sale": "Sale",
    "purchase": "Purchase",
    "trade": "Trade",
    "level_up": "Level-up",
    "treasure": "Treasure (gold found)",
    "advancement_token": "Advancement token",
}

# The town form: one row per action, each row reading only the inputs its action uses.
TOWN_ACTIONS: tuple[tuple[str, str], ...] = (
    ("powers_swapped", "1. Swap powers"),
    ("item_sold", "2. Sell an item"),
    ("shop_revealed", "3. Reveal the shop (the four cards below)"),
    ("item_bought", "3. Buy an item from the shop"),
    ("trade_made", "4. Give or trade (hero → to hero)"),
    ("leveled_up", "5. Level up"),
    ("advancement_token_bought", "Buy an advancement token"),
)
TOWN_LABELS = dict(TOWN_ACTIONS)


# -- loading a campaign at a version -------------------------------------------------------------------


@dataclass
class Loaded:
    """The campaign as it stood at ``version``: the raw state, the sheet and what the page needs around it."""

    version: int
    latest: int
    state: dict[str, Any]
    sheet: dict[str, Any]
    warnings: list[str]
    phase: str
    prompt: str

    @property
    def replaying(self) -> bool:
        return self.version != self.latest

    @property
    def active_names(self) -> list[str]:
        return [h["name"] for h in self.sheet.get("heroes", [])]


def _load(campaign: Any, at: int | None) -> Loaded:
    """The state at ``at`` (the latest when ``at`` is missing, negative or beyond the end)."""
    if at is not None and at < 0:
        at = None
    try:
        version, latest, state = campaign_selectors.campaign_state(campaign=campaign, at=at)
    except NotFound:
        version, latest, state = campaign_selectors.campaign_state(campaign=campaign)
    ruleset = get_ruleset(campaign.game)
    turn = ruleset.turn(state)
    return Loaded(
        version=version,
        latest=latest,
        state=state,
        sheet=campaign_selectors.sheet_function(campaign.game)(state),
        warnings=ruleset.warnings(state),
        phase=turn.phase or "",
        prompt=turn.prompt or "",
    )


def _hero_blocks(heroes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sheet heroes with what the template shows besides: the gold a sale would bring."""
    return [
        {
            **h,
            "items": [{**i, "sale_value": sale_value(i)} for i in h.get("items", [])],
            "gold_text": gp_text(h["gold"]),
        }
        for h in heroes
    ]


def _datalists(loaded: Loaded) -> dict[str, list[str]]:
    """Suggestions for free-text names: cards the heroes hold, cards on the shop display."""
    held = sorted({i["name"] for h in loaded.sheet.get("heroes", []) for i in h["items"]}, key=str.casefold)
    display = [c["name"] for c in loaded.state.get("display", []) if c.get("item") and c.get("buy") is not None]
    return {"dl_held": held, "dl_display": display}


def _hero_picks(type_: str, loaded: Loaded) -> dict[str, Pick]:
    """Fields that name an active hero pick from them (a joining hero's name is typed, not picked)."""
    heroes = Pick(loaded.active_names, prompt="— choose a hero —", empty="No active hero yet.")
    names = HERO_LISTS if type_ == "hero_joined" else HERO_FIELDS + HERO_LISTS
    return dict.fromkeys(names, heroes)


def _form_datalists(type_: str) -> dict[str, str]:
    if type_ == "item_bought":
        return {"item": "dl_display"}
    return {"item": "dl_held", "items": "dl_held", "items_back": "dl_held"}


# -- the list -------------------------------------------------------------------------------------------


def _new_campaign(post: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, list[str]]]:
    """The "new campaign" form as posted: ``(form, entry, errors)`` (``frontend.views.streams.list_view``)."""
    options, errors = parse_options(get_ruleset(DEFAULT_GAME).options_schema, post)
    form = {"name": post.get("name", ""), "is_public": post.get("is_public") == "on"}
    return form, {**form, "game": DEFAULT_GAME, "options": options}, errors


def _campaign_list_context(
    request: HttpRequest, form: dict[str, Any] | None, errors: dict[str, list[str]]
) -> dict[str, Any]:
    """What the list page's "new campaign" form shows: what was typed, the options and the errors in words."""
    ruleset = get_ruleset(DEFAULT_GAME)
    context: dict[str, Any] = {"errors": errors, **(form or {"name": "", "is_public": False})}  # private unless ticked
    context["option_fields"] = option_inputs(
        ruleset.options_schema, form="new", post=request.POST if request.method == "POST" else None, errors=errors
    )
    context["name_error"] = " ".join(errors.get("name", []))
    context["other_errors"] = [
        error_sentence({k: v}, ruleset.options_schema)
        for k, v in errors.items()
        if k != "name" and not k.startswith("options.")
    ]
    context["ruleset"] = ruleset
    return context


campaign_list = stream_views.list_view(
    "campaign", "campaign-detail", "frontend/campaigns/list.html", listed_as="campaigns", read=_new_campaign,
    create=campaign_services.campaign_create, created="Campaign created. Add the heroes below.",
    context=_campaign_list_context,
)  # fmt: skip


# -- the sheet ------------------------------------------------------------------------------------------


def _event_forms(
    campaign: Any, loaded: Loaded, problem: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One form per entry type: those allowed in the current phase first, the others apart."""
    ruleset = get_ruleset(campaign.game)
    now, later = [], []
    current = loaded.state["adventures"][-1] if loaded.phase == "adventure" and loaded.state["adventures"] else {}
    played_as_match = current.get("match") is not None
    for name, spec in ruleset.event_types.items():
        if name in BRIDGE_EVENTS:
            continue  # written by adventure matches, never typed here
        form = event_form(
            spec, problem, fields=tuple(f for f in spec.fields if f.name not in BRIDGE_FIELDS),
            picks=_hero_picks(name, loaded), datalists=_form_datalists(name), explained_here=False,
        )  # fmt: skip
        allowed = TOWN_EVENTS if loaded.phase == "town" else ADVENTURE_EVENTS
        if played_as_match:  # what happens in it is recorded in its match
            allowed = frozenset()
        (now if name in allowed or name not in TOWN_EVENTS | ADVENTURE_EVENTS else later).append(form)
    return now, later


def _adventure_form(loaded: Loaded, problem: dict[str, Any]) -> dict[str, Any]:
    """The "start an adventure" form: name, reward, and each active hero as a checkbox with a max HP input."""
    post = problem.get("values") if problem.get("origin") == "adventure" else None
    rows = []
    for i, name in enumerate(loaded.active_names[:ADVENTURE_HEROES_MAX]):
        rows.append(
            {
                "index": i,
                "name": name,
                "checked": (post.get(f"hero_{i}") == name) if post is not None else False,
                "hp": post.get(f"hp_{i}", "10") if post is not None else "10",
            }
        )
    get = post.get if post is not None else (lambda key, default="": default)
    return {
        "rows": rows,
        "adventure": get("adventure", ""),
        "reward": get("reward", "0"),
        "surges": get("healing_surges", "2"),
        "errors": problem.get("errors", {}) if post is not None else {},
        "open": post is not None,
    }


def campaign_detail(
    request: HttpRequest, campaign_id: int, *, problem: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    """The Campaign Tracker sheet at ``?at=N`` (latest by default), with recording forms for recorders."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    recorder = can_record(request.user, campaign)
    problem = problem or {}
    loaded = _load(campaign, int_or_none(request.GET.get("at")))
    ruleset = get_ruleset(campaign.game)
    ledger = campaign_selectors.ledger_rows(campaign=campaign, state=loaded.state, version=loaded.version)
    all_names = loaded.active_names + [h["name"] for h in loaded.sheet.get("retired_heroes", [])]
    context: dict[str, Any] = {
        "campaign": campaign,
        "ruleset": ruleset,
        "loaded": loaded,
        "at": loaded.version,
        "heroes": _hero_blocks(loaded.sheet.get("heroes", [])),
        "retired": _hero_blocks(loaded.sheet.get("retired_heroes", [])),
        "adventures": loaded.sheet.get("adventures", []),
        "display": loaded.state.get("display", []),
        "can_record": recorder,
        "problem": problem,
        "chart": gold_chart(
            ledger, list(dict.fromkeys(all_names)), loaded.version, causes=CAUSES, height=210, small=True
        ),
        "matches": campaign_selectors.campaign_adventure_matches(campaign=campaign, state=loaded.state),
        "idempotency_key": uuid.uuid4().hex,
    }
    context.update(
        photo_context(
            "campaign", campaign, request.user, upto=loaded.version if loaded.replaying else None,
            can_add=recorder and not loaded.replaying,
        )
    )  # fmt: skip
    # the adventures' own photos (each match's, to a reader who may see that match)
    context["adventure_photos"] = [
        {"match": m, "photos": shown}
        for m in context["matches"]
        if can_view(request.user, m) and (shown := photo_list("match", m))
    ]
    if recorder and not loaded.replaying:
        context["forms_now"], context["forms_later"] = _event_forms(campaign, loaded, problem)
        current = loaded.state["adventures"][-1] if loaded.phase == "adventure" else {}
        if current.get("match") is not None:
            context["later_label"] = f"Entries refused while {current['adventure']} is played as its match"
            context["adventure_match"] = current["match"]
        context["adventure_form"] = _adventure_form(loaded, problem)
        context["datalists"] = _datalists(loaded)
        undo = last_undoable_version(stream_id=campaign.stream_id)
        # an adventure match's entry is corrected in the match, so the sheet offers no undo for it
        context["undo_version"] = (
            undo if undo and campaign_selectors.campaign_entry_match(campaign=campaign, version=undo) is None else None
        )
        if problem.get("type") == RULE_OVERRIDDEN and problem.get("values") is not None:
            context["override_reason"] = problem["values"].get("data.reason", "")
    return render(request, "frontend/campaigns/sheet.html", context, status=status)


@login_required
@require_POST
def campaign_record(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Record one entry from a sheet form; a refusal re-renders the sheet with the rule and what was typed."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    type_ = request.POST.get("type", "")
    spec = event_types_with_meta(get_ruleset(campaign.game)).get(type_)
    problem: dict[str, Any] = {"origin": "form", "type": type_, "values": request.POST}
    if spec is None:
        problem["detail"] = f"Unknown entry type {type_!r}."
        return campaign_detail(request, campaign_id, problem=problem, status=400)
    data, errors = parse_inputs(spec.fields, request.POST, "data.", expand=True, picks=HERO_LISTS)
    if errors:
        problem.update(detail="Please correct the highlighted field.", errors=errors)
        return campaign_detail(request, campaign_id, problem=problem, status=400)
    result, refused = record_or_rerender(
        request,
        lambda **guards: campaign_services.campaign_event_record(
            campaign=campaign, user=request.user, type=type_, data=data, **guards
        ),
        problem,
        lambda problem, status: campaign_detail(request, campaign_id, problem=problem, status=status),
        spec.fields,
    )
    if refused:
        return refused
    if type_ == RULE_OVERRIDDEN:
        messages.success(request, "Rule override noted; the next entry is not checked.")
    else:
        text = describe_entry(get_ruleset(campaign.game), Event(type_, None, data), [])
        messages.success(request, f"Recorded entry {result.version}: {text}")  # as the history says it
    return redirect(reverse("campaign-detail", args=[campaign.pk]) + "#sheet")


campaign_undo = stream_views.undo_view(
    "campaign", "campaign-detail", lambda request, pk, **kw: campaign_detail(request, pk, **kw), anchor="#sheet"
)


@login_required
@require_POST
def campaign_adventure_new(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Start an adventure: record ``adventure_started`` and open its adventure match, then go there."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    post = request.POST
    problem: dict[str, Any] = {"origin": "adventure", "values": post}
    errors: dict[str, list[str]] = {}
    reward = int_or_none(post.get("reward")) if post.get("reward", "").strip() else 0
    surges = int_or_none(post.get("healing_surges")) if post.get("healing_surges", "").strip() else 2
    if reward is None:
        errors["reward"] = ["Enter a whole number."]
    if surges is None:
        errors["healing_surges"] = ["Enter a whole number."]
    heroes = []
    for i in range(ADVENTURE_HEROES_MAX):
        name = post.get(f"hero_{i}", "").strip()
        if not name:
            continue
        hp = int_or_none(post.get(f"hp_{i}")) if post.get(f"hp_{i}", "").strip() else 10
        if hp is None:
            errors[f"hp_{i}"] = ["Enter a whole number."]
        heroes.append({"name": name, "max_hp": hp})
    if not heroes:
        errors["heroes"] = ["Tick at least one hero taking part."]
    if errors:
        problem.update(detail="Please correct the highlighted field.", errors=errors)
        return campaign_detail(request, campaign_id, problem=problem, status=400)
    try:
        match = campaign_services.campaign_adventure_start(
            campaign=campaign, user=request.user, adventure=post.get("adventure", "").strip(), heroes=heroes,
            reward=reward or 0, healing_surges=surges if surges is not None else 2,
        )  # fmt: skip
    except DomainError as exc:
        problem, status = problem_from(exc, problem)
        return campaign_detail(request, campaign_id, problem=problem, status=status)
    messages.success(
        request,
        "Adventure started. Record it here; when it is won or lost, its treasure, gold and result go to the "
        "campaign sheet.",
    )
    return redirect("match", match_id=match.pk)


# -- the town phase: several heroes' actions, all or nothing --------------------------------------------


def _town_specs(campaign: Any) -> dict[str, EventType]:
    events = get_ruleset(campaign.game).event_types
    return {type_: events[type_] for type_, _ in TOWN_ACTIONS}


def _town_action_inputs(
    specs: dict[str, EventType], loaded: Loaded, i: int, post: Any, errors: dict[str, list[str]]
) -> list[Any]:
    """Row ``i``: one group of inputs per town action, built from the action's schema (``a<i>.<type>.<field>``;
    the shop's cards are the shared "Shop" block). The page shows only the chosen action's group with
    ``forms.js``; without it every group is shown, each under its action's name."""
    groups = []
    for type_, spec in specs.items():
        fields = () if type_ == "shop_revealed" else spec.fields
        groups.append(
            {
                "type": type_,
                "label": TOWN_LABELS[type_],
                "inputs": build_inputs(
                    fields,
                    f"a{i}.{type_}.",
                    form="town",
                    values=post,
                    errors=errors,
                    expand=True,
                    picks=_hero_picks(type_, loaded),
                    datalists=_form_datalists(type_),
                    mark_required=False,
                ),
            }
        )
    return groups


def _town_rows(
    specs: dict[str, EventType], post: Any, count: int
) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, list[str]]]:
    """The rows with an action chosen, as ``(row, {"type", "data"})``, and the form errors by input name."""
    cards, shop_errors = parse_inputs(specs["shop_revealed"].fields, post, "shop.", expand=True)
    actions: list[tuple[int, dict[str, Any]]] = []
    errors: dict[str, list[str]] = {}
    for i in range(count):
        type_ = str(post.get(f"a{i}.type", "") or "")
        if not type_:
            continue
        if type_ not in specs:
            errors[f"a{i}.type"] = ["Choose an action from the list."]
            continue
        if type_ == "shop_revealed":
            data, errs = cards, shop_errors
        else:
            data, errs = parse_inputs(specs[type_].fields, post, f"a{i}.{type_}.", expand=True, picks=HERO_LISTS)
        errors.update(errs)
        actions.append((i, {"type": type_, "data": data}))
    return actions, errors


def campaign_town(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The town phase as one form: each row one hero's action; checked and recorded all or nothing.

    "More rows" posts the form back with ``more`` set: it is drawn again, with what was typed, and four more
    rows; nothing is recorded."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    if not can_record(request.user, campaign):
        raise NotAllowed("Only the campaign's owner and the recorders they named may record town actions.")
    post = request.POST if request.method == "POST" else None
    count = int_or_none((post or request.GET).get("rows")) or TOWN_ROWS
    count = max(1, min(count, TOWN_ROWS_MAX))
    specs = _town_specs(campaign)  # once per request: the rows, the refusal and every row's inputs use them
    problem: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    refused_row: int | None = None
    status = 200
    if post is not None and post.get("more"):
        count = min(count + 4, TOWN_ROWS_MAX)
    elif post is not None:
        rows_used, errors = _town_rows(specs, post, count)
        if not rows_used and not errors:
            problem["detail"] = "Choose at least one action."
        elif errors:
            problem["detail"] = "Please correct the highlighted fields; nothing was recorded."
        else:
            try:
                results = campaign_services.campaign_events_record_batch(
                    campaign=campaign, user=request.user, actions=[a for _, a in rows_used],
                    **recording_guards(request),
                )  # fmt: skip
            except BatchRefused as exc:
                refused_row, action = rows_used[exc.index] if 0 <= exc.index < len(rows_used) else (None, {})
                problem, status = problem_from(exc.error, problem)
                if refused_row is not None:
                    label = re.sub(r"^[0-9]+[.] *", "", TOWN_LABELS[action["type"]])
                    problem["action"] = f"Action {refused_row + 1} ({label})"
                    problem["action_n"] = refused_row + 1
                    found = problem.get("errors", {})
                    if found:  # the schema's paths (data.hero) on the row's inputs, in the form's words
                        fields = specs[action["type"]].fields
                        problem["detail"] = f"Please correct {error_sentence(found, fields)}"
                        prefix = "shop." if action["type"] == "shop_revealed" else f"a{refused_row}.{action['type']}."
                        errors = {prefix + k.removeprefix("data."): v for k, v in found.items()}
            except DomainError as exc:
                problem, status = problem_from(exc, problem)
            else:
                first, last = results[0].version, results[-1].version
                span = f"entry {first}" if first == last else f"entries {first}–{last}"
                messages.success(request, f"Recorded {plural(len(results), 'town action')} ({span}).")
                return redirect(reverse("campaign-detail", args=[campaign.pk]) + "#sheet")
        if problem and status == 200:
            status = 400
    loaded = _load(campaign, None)
    rows = []
    for i in range(count):
        chosen = str(post.get(f"a{i}.type", "") or "") if post is not None else ""
        rows.append(
            {
                "index": i,
                "n": i + 1,
                "prefix": f"a{i}.",
                "type": chosen,
                "type_error": " ".join(errors.get(f"a{i}.type", [])),
                "has_error": any(k.startswith(f"a{i}.") for k in errors),
                "refused": refused_row == i,
                "groups": _town_action_inputs(specs, loaded, i, post, errors),
            }
        )
    shop_fields = specs["shop_revealed"].fields
    context = {
        "campaign": campaign,
        "loaded": loaded,
        "heroes": _hero_blocks(loaded.sheet.get("heroes", [])),
        "display": loaded.state.get("display", []),
        "rows": rows,
        "row_count": count,
        "can_add_rows": count < TOWN_ROWS_MAX,
        "actions": TOWN_ACTIONS,
        "shop_inputs": build_inputs(shop_fields, "shop.", form="town", values=post, errors=errors, expand=True),
        "shop_open": any(k.startswith("shop.") for k in errors) or any(r["type"] == "shop_revealed" for r in rows),
        "problem": problem,
        "datalists": _datalists(loaded),
        "idempotency_key": uuid.uuid4().hex,
    }
    return render(request, "frontend/campaigns/town.html", context, status=status)


# -- the gold ledger, the history, exports --------------------------------------------------------------


def campaign_ledger(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every gold change (``?hero=`` one hero's) up to ``?at=N``, each linked to the sheet at its entry."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    loaded = _load(campaign, int_or_none(request.GET.get("at")))
    hero = (request.GET.get("hero") or "").strip() or None
    versions = campaign_selectors.applied_versions(stream_id=campaign.stream_id, upto=loaded.version)
    read = {"campaign": campaign, "state": loaded.state, "version": loaded.version, "versions": versions}
    all_rows = campaign_selectors.ledger_rows(**read)
    rows = campaign_selectors.ledger_rows(**read, hero=hero) if hero else all_rows
    names = list(dict.fromkeys(loaded.active_names + [h["name"] for h in loaded.sheet.get("retired_heroes", [])]))
    for row in rows:
        row["cause_label"] = CAUSES.get(row["cause"], row["cause"].replace("_", " "))
        row["delta_text"] = f"{row['delta']:+,}".replace("-", "−")
        row["balance_text"] = f"{row['balance']:,}"
    context = {
        "campaign": campaign,
        "loaded": loaded,
        "at": loaded.version,
        "hero": hero or "",
        "names": names,
        "rows": rows,
        "chart": gold_chart(all_rows, names, loaded.version, causes=CAUSES),
        "can_record": can_record(request.user, campaign),
    }
    return render(request, "frontend/campaigns/ledger.html", context)


campaign_history = stream_views.history_view(
    "campaign", "campaign-detail", anchor="#sheet", template="frontend/campaigns/history.html"
)  # the log as a timeline, voided entries struck through, each linked to the sheet then


def campaign_sheet_csv(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every hero as CSV (active first, then retired): a row per item, or one row for a hero without items.

    Honours ``?at=``. Columns: hero, status, class, level, gold, item, buy, sell.
    """
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    loaded = _load(campaign, int_or_none(request.GET.get("at")))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-v{loaded.version}.csv"'
    writer = csv.writer(response)
    writer.writerow(["hero", "status", "class", "level", "gold", "item", "buy", "sell"])
    heroes = [(h, "active") for h in loaded.sheet.get("heroes", [])]
    heroes += [(h, "retired") for h in loaded.sheet.get("retired_heroes", [])]
    for hero, status in heroes:
        base = [spreadsheet_safe(hero["name"]), status, spreadsheet_safe(hero["class"]), hero["level"], hero["gold"]]
        if not hero["items"]:
            writer.writerow([*base, "", "", ""])
        for item in hero["items"]:
            buy, sell = item.get("buy"), item.get("sell")
            writer.writerow(
                [*base, spreadsheet_safe(item["name"]), "" if buy is None else buy, "" if sell is None else sell]
            )
    return response


def campaign_sheet_json(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """``campaign_sheet(...)`` as JSON at ``?at=N`` (latest by default)."""
    at = int_or_none(request.GET.get("at"))
    try:
        campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        if at is not None and at < 0:
            raise NotFound(f"No version {at}.")
        sheet = campaign_selectors.campaign_sheet(campaign=campaign, at=at)
    except NotFound as exc:
        return JsonResponse(exc.body(), status=404)
    return JsonResponse(sheet, json_dumps_params={"indent": 1})
