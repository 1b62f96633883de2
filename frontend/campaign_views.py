"""Campaign pages: the Campaign Tracker sheet at any version, recording, the town phase, the gold ledger.

Thin views, like the match pages: they parse the request, call ``campaigns.selectors`` and
``campaigns.services`` and render templates. Every page works without JavaScript.
"""

from __future__ import annotations

import csv
import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns import selectors as campaign_selectors
from campaigns import services as campaign_services
from campaigns.services import BatchRefused
from frontend.forms import form_fields, parse_fields
from frontend.selectors import last_undoable_version
from matches.errors import DomainError, InvalidInput, NotAllowed, NotFound, RuleBroken, VersionConflict
from matches.selectors import can_record, stream_log
from rulesets import EventType, Field, get_ruleset
from rulesets.replay import EVENT_VOIDED, RULE_OVERRIDDEN, event_types_with_meta

DEFAULT_GAME = "saltmarsh"
HERO_FIELDS = frozenset({"hero", "from", "to"})  # str fields that name an active hero: drawn as a <select>
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

# Okabe–Ito colours (safe for colour-blind readers) plus a dash pattern each, so lines differ without colour.
PALETTE: tuple[tuple[str, str], ...] = (
    ("#0072b2", ""),
    ("#d55e00", "7 3"),
    ("#009e73", "2 3"),
    ("#cc79a7", "9 3 2 3"),
    ("#7a5a00", "4 2"),
    ("#56b4e9", "1 3"),
    ("#000000", "12 4"),
    ("#8c2d04", "3 3 1 3"),
)


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def _gp(n: int | None) -> str:
    return "—" if n is None else f"{n:,} gp"


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


def _sale_value(item: dict[str, Any]) -> int | None:
    if item.get("sell") is not None:
        return int(item["sell"])
    if item.get("buy") is not None:
        return int(item["buy"]) // 2
    return None


def _hero_blocks(heroes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sheet heroes with what the template shows besides: the gold a sale would bring."""
    return [
        {**h, "items": [{**i, "sale_value": _sale_value(i)} for i in h.get("items", [])], "gold_text": _gp(h["gold"])}
        for h in heroes
    ]


# -- inputs built from a ruleset's Field tuples (nested objects, fixed rows, hero selects) --------------


@dataclass
class Input:
    """One input (or a group of them) as the campaign templates draw it."""

    name: str
    id: str
    label: str
    widget: str  # text | number | checkbox | select | checkboxes | group | json
    value: Any = ""
    choices: list[tuple[str, str]] = field(default_factory=list)
    selected: list[str] = field(default_factory=list)
    children: list[Input] = field(default_factory=list)
    help: str = ""
    error: str = ""
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    datalist: str = ""


def _dom_id(*parts: str) -> str:
    return "id_" + re.sub(r"[^A-Za-z0-9_-]", "_", "_".join(parts))


def _error_paths(errors: dict[str, list[str]] | None) -> dict[str, list[str]]:
    """Service error paths (``data.cards[0].name``) in the form's input names (``data.cards.0.name``)."""
    return {re.sub(r"\[(\d+)\]", r".\1", k): v for k, v in (errors or {}).items()}


def _fixed_rows(f: Field) -> int:
    """How many rows a list of objects is drawn with (only fixed-size lists get rows; others are JSON)."""
    if f.kind == "list" and f.item is not None and f.item.kind == "object" and f.min_items == f.max_items <= 8:
        return f.max_items
    return 0


def build_inputs(
    fields: tuple[Field, ...], prefix: str, *, form: str, post: Any = None, errors: dict[str, list[str]] | None = None,
    heroes: list[str] | None = None, datalists: dict[str, str] | None = None,
) -> list[Input]:  # fmt: skip
    """Inputs named ``<prefix><field>`` (nested: ``data.item.name``, ``data.cards.0.buy``), refilled from ``post``."""
    errors = errors or {}
    heroes = heroes or []
    datalists = datalists or {}
    out: list[Input] = []
    for f in fields:
        name = f"{prefix}{f.name}"
        common = {
            "name": name,
            "id": _dom_id(form, name),
            "label": f.label or f.name.replace("_", " ").capitalize(),
            "error": " ".join(errors.get(name, [])),
            "help": f.help,
            "required": f.required and f.kind != "bool",
        }
        raw = post.get(name) if post is not None else None
        if f.kind == "str" and f.name in HERO_FIELDS and form != "hero_joined":
            value = raw if raw is not None else ""
            choices = [("", "— choose a hero —")] + [(h, h) for h in heroes]
            if value and value not in heroes:
                choices.append((value, value))
            out.append(Input(widget="select", value=value, choices=choices, **common))
        elif f.kind == "str":
            out.append(Input(widget="text", value=raw or "", datalist=datalists.get(f.name, ""), **common))
        elif f.kind == "int":
            value = raw if raw is not None else ("" if f.default is None else str(f.default))
            out.append(Input(widget="number", value=value, minimum=f.minimum, maximum=f.maximum, **common))
        elif f.kind == "bool":
            checked = (name in post) if post is not None else bool(f.default)
            out.append(Input(widget="checkbox", value=checked, **common))
        elif f.kind == "object":
            children = build_inputs(
                f.fields, f"{name}.", form=form, post=post, errors=errors, heroes=heroes, datalists=datalists
            )
            out.append(Input(widget="group", children=children, **common))
        elif f.kind == "list" and f.item is not None and f.item.kind == "str" and f.name == "heroes":
            selected = post.getlist(name) if post is not None else []
            choices = [(h, h) for h in heroes] + [(s, s) for s in selected if s not in heroes]
            out.append(Input(widget="checkboxes", choices=choices, selected=selected, **common))
        elif f.kind == "list" and f.item is not None and f.item.kind == "str":
            common["help"] = f.help or "Separate several with commas."
            common["required"] = False
            out.append(Input(widget="text", value=raw or "", datalist=datalists.get(f.name, ""), **common))
        elif _fixed_rows(f):
            assert f.item is not None
            item_label = (f.item.label or f.item.name).capitalize()
            rows = [
                Input(
                    name=f"{name}.{i}",
                    id=_dom_id(form, f"{name}.{i}"),
                    label=f"{item_label} {i + 1}",
                    widget="group",
                    children=build_inputs(
                        f.item.fields,
                        f"{name}.{i}.",
                        form=form,
                        post=post,
                        errors=errors,
                        heroes=heroes,
                        datalists=datalists,
                    ),
                    error=" ".join(errors.get(f"{name}.{i}", [])),
                )
                for i in range(_fixed_rows(f))
            ]
            out.append(Input(widget="group", children=rows, **common))
        else:
            common["help"] = f.help or "JSON"
            out.append(Input(widget="json", value=raw or "", **common))
    return out


def parse_inputs(fields: tuple[Field, ...], post: Any, prefix: str) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Posted strings back into a payload for ``fields`` (the inverse of :func:`build_inputs`).

    Only form syntax is checked here; the service checks the schema and the rules and explains refusals.
    """
    data: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for f in fields:
        name = f"{prefix}{f.name}"
        if f.kind == "bool":
            data[f.name] = name in post and post.get(name) not in ("", "false", "0")
            continue
        if f.kind == "object":
            sub, errs = parse_inputs(f.fields, post, f"{name}.")
            data[f.name] = sub
            errors.update(errs)
            continue
        if f.kind == "list" and f.item is not None and f.item.kind == "str":
            if f.name == "heroes":
                data[f.name] = [v.strip() for v in post.getlist(name) if v.strip()]
            else:
                data[f.name] = [p.strip() for p in str(post.get(name, "")).split(",") if p.strip()]
            continue
        if _fixed_rows(f):
            assert f.item is not None
            rows = []
            for i in range(_fixed_rows(f)):
                sub, errs = parse_inputs(f.item.fields, post, f"{name}.{i}.")
                rows.append(sub)
                errors.update(errs)
            data[f.name] = rows
            continue
        raw = str(post.get(name, "") or "").strip()
        if raw == "":
            if f.nullable and f.required:
                data[f.name] = None
            continue
        if f.kind == "int":
            try:
                data[f.name] = int(raw)
            except ValueError:
                errors[name] = ["Enter a whole number."]
        elif f.kind in ("str", "choice"):
            data[f.name] = raw
        else:
            try:
                data[f.name] = json.loads(raw)
            except ValueError:
                errors[name] = ["Enter valid JSON."]
    return data, errors


def _datalists(loaded: Loaded) -> dict[str, list[str]]:
    """Suggestions for free-text names: cards the heroes hold, cards on the shop display."""
    held = sorted({i["name"] for h in loaded.sheet.get("heroes", []) for i in h["items"]}, key=str.casefold)
    display = [c["name"] for c in loaded.state.get("display", []) if c.get("item") and c.get("buy") is not None]
    return {"dl_held": held, "dl_display": display}


def _form_datalists(type_: str) -> dict[str, str]:
    if type_ == "item_bought":
        return {"item": "dl_display"}
    return {"item": "dl_held", "items": "dl_held"}


# -- the gold chart: an SVG drawn by the server ----------------------------------------------------------


def _nice_step(span: float, ticks: int) -> int:
    """A round step (1, 2, 5 × 10^k, at least 1) that cuts ``span`` into about ``ticks`` parts."""
    raw = max(span / max(ticks, 1), 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 5, 10):
        if m * magnitude >= raw:
            return m * magnitude
    return 10 * magnitude


def gold_chart(
    rows: list[dict[str, Any]], heroes: list[str], last_version: int, *, width: int = 440, height: int = 280,
    small: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """Geometry of a step chart of each hero's gold (x = stream version, y = gold), for ``_chart.html``."""
    series: dict[str, list[dict[str, Any]]] = {name: [] for name in heroes}
    for row in rows:
        series.setdefault(row["hero"], []).append(row)
    left, right, top, bottom = (58, 10, 10, 36) if small else (62, 12, 12, 42)
    plot_w, plot_h = width - left - right, height - top - bottom
    x_max = max(last_version, 1)
    top_gold = max([r["balance"] for r in rows] + [0])
    y_step = _nice_step(max(top_gold, 100), 3 if small else 4)
    y_max = max(y_step * -(-max(top_gold, 1) // y_step), y_step)

    def x(v: int) -> float:
        return round(left + plot_w * v / x_max, 1)

    def y(g: int) -> float:
        return round(top + plot_h - plot_h * g / y_max, 1)

    lines = []
    for n, (name, hero_rows) in enumerate(series.items()):
        colour, dash = PALETTE[n % len(PALETTE)]
        points = [(x(0), y(0))]
        balance = 0
        dots = []
        for r in hero_rows:
            v = r["version"] or 0
            points += [(x(v), y(balance)), (x(v), y(r["balance"]))]
            balance = r["balance"]
            dots.append(
                {
                    "cx": x(v),
                    "cy": y(balance),
                    "title": f"{name}, entry {v}: {r['delta']:+,} gp ({CAUSES.get(r['cause'], r['cause'])}) "
                    f"→ {balance:,} gp",
                }
            )
        points.append((x(last_version), y(balance)))
        lines.append(
            {
                "hero": name,
                "colour": colour,
                "dash": dash,
                "points": " ".join(f"{px},{py}" for px, py in points),
                "dots": [] if small else dots,
                "gold": balance,
                "gold_text": _gp(balance),
                "title": f"{name}: {balance:,} gp at entry {last_version} ({len(hero_rows)} change(s))",
            }
        )
    x_step = _nice_step(x_max, 4 if small else 6)
    x_ticks = [{"v": v, "x": x(v)} for v in range(0, x_max + 1, x_step)]
    y_ticks = [{"g": f"{g:,}", "y": y(g)} for g in range(0, y_max + 1, y_step)]
    return {
        "width": width,
        "height": height,
        "left": left,
        "top": top,
        "right_x": width - right,
        "bottom_y": top + plot_h,
        "mid_x": left + plot_w / 2,
        "mid_y": top + plot_h / 2,
        "label_y": height - 6,
        "lines": lines,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "small": small,
        "last_version": last_version,
        "summary": "; ".join(f"{line['hero']} {line['gold']:,} gp" for line in lines) or "no heroes yet",
    }


# -- the list -------------------------------------------------------------------------------------------


def campaign_list(request: HttpRequest) -> HttpResponse:
    """Every visible campaign, and (signed in) the form that starts a new one."""
    ruleset = get_ruleset(DEFAULT_GAME)
    context: dict[str, Any] = {"values": {}, "errors": {}, "name": "", "is_public": True}
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        options, errors = parse_fields(ruleset.options_schema, request.POST, "option.")
        context.update(
            values={k.removeprefix("option."): v for k, v in request.POST.items() if k.startswith("option.")},
            name=request.POST.get("name", ""),
            is_public=request.POST.get("is_public") == "on",
        )
        if not errors:
            try:
                campaign = campaign_services.campaign_create(
                    owner=request.user, name=context["name"], game=DEFAULT_GAME, options=options,
                    is_public=context["is_public"],
                )  # fmt: skip
            except InvalidInput as exc:
                errors = exc.errors
            else:
                messages.success(request, "Campaign created. Add the heroes below.")
                return redirect("campaign-detail", campaign_id=campaign.pk)
        context["errors"] = errors
        status = 400
    context["option_fields"] = form_fields(
        ruleset.options_schema,
        "option.",
        context["values"],
        {k.removeprefix("options."): v for k, v in context["errors"].items()},
    )
    context["name_error"] = " ".join(context["errors"].get("name", []))
    context["other_errors"] = [
        f"{k}: {' '.join(v)}" for k, v in context["errors"].items() if k != "name" and not k.startswith("options.")
    ]
    context["campaigns"] = list(campaign_selectors.campaign_list(user=request.user)[:100])
    context["ruleset"] = ruleset
    return render(request, "frontend/campaigns/list.html", context, status=status)


# -- the sheet ------------------------------------------------------------------------------------------


def _event_forms(
    campaign: Any, loaded: Loaded, problem: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One form per entry type: those allowed in the current phase first, the others apart."""
    from rulesets.saltmarsh.ruleset import ADVENTURE_EVENTS, TOWN_EVENTS

    ruleset = get_ruleset(campaign.game)
    now, later = [], []
    for name, spec in ruleset.event_types.items():
        failed = problem.get("form") == "event" and problem.get("type") == name
        post = problem.get("post") if failed else None
        form = {
            "type": name,
            "spec": spec,
            "inputs": build_inputs(
                spec.fields,
                "data.",
                form=name,
                post=post,
                errors=problem.get("errors") if failed else None,
                heroes=loaded.active_names,
                datalists=_form_datalists(name),
            ),
            "open": failed,
        }
        allowed = TOWN_EVENTS if loaded.phase == "town" else ADVENTURE_EVENTS
        (now if name in allowed or name not in TOWN_EVENTS | ADVENTURE_EVENTS else later).append(form)
    return now, later


def _adventure_form(loaded: Loaded, problem: dict[str, Any]) -> dict[str, Any]:
    """The "start an adventure" form: name, reward, and each active hero as a checkbox with a max HP input."""
    post = problem.get("post") if problem.get("form") == "adventure" else None
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
    loaded = _load(campaign, _int_or_none(request.GET.get("at")))
    ruleset = get_ruleset(campaign.game)
    ledger = campaign_selectors.campaign_ledger(campaign=campaign, at=loaded.version)
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
        "chart": gold_chart(ledger, list(dict.fromkeys(all_names)), loaded.version, width=360, height=210, small=True),
        "matches": list(campaign.adventure_matches.order_by("created_at")),
        "idempotency_key": uuid.uuid4().hex,
    }
    if recorder and not loaded.replaying:
        context["forms_now"], context["forms_later"] = _event_forms(campaign, loaded, problem)
        context["adventure_form"] = _adventure_form(loaded, problem)
        context["datalists"] = _datalists(loaded)
        context["undo_version"] = last_undoable_version(stream_id=campaign.stream_id)
        if problem.get("type") == RULE_OVERRIDDEN and problem.get("post") is not None:
            context["override_reason"] = problem["post"].get("data.reason", "")
    return render(request, "frontend/campaigns/sheet.html", context, status=status)


def _problem_from(exc: DomainError, problem: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Fill ``problem`` from a refusal; returns it and the status to answer with."""
    if isinstance(exc, VersionConflict):
        problem.update(conflict=True, detail=exc.detail)
    elif isinstance(exc, RuleBroken):
        problem.update(detail=exc.detail, rule=exc.rule, violation=exc.violation_code)
    elif isinstance(exc, InvalidInput):
        problem.update(detail=exc.detail, errors=_error_paths(exc.errors))
    else:
        problem.update(detail=exc.detail)
    return problem, exc.status_code


@login_required
@require_POST
def campaign_record(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Record one entry from a sheet form; a refusal re-renders the sheet with the rule and what was typed."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    type_ = request.POST.get("type", "")
    spec = event_types_with_meta(get_ruleset(campaign.game)).get(type_)
    problem: dict[str, Any] = {"form": "event", "type": type_, "post": request.POST}
    if spec is None:
        problem["detail"] = f"Unknown entry type {type_!r}."
        return campaign_detail(request, campaign_id, problem=problem, status=400)
    data, errors = parse_inputs(spec.fields, request.POST, "data.")
    if errors:
        problem.update(detail="Please correct the highlighted field.", errors=errors)
        return campaign_detail(request, campaign_id, problem=problem, status=400)
    try:
        result = campaign_services.campaign_event_record(
            campaign=campaign, user=request.user, type=type_, data=data,
            expected_version=_int_or_none(request.POST.get("expected_version")),
            idempotency_key=request.POST.get("idempotency_key") or None,
            request_id=getattr(request, "request_id", ""),
        )  # fmt: skip
    except DomainError as exc:
        problem, status = _problem_from(exc, problem)
        return campaign_detail(request, campaign_id, problem=problem, status=status)
    if type_ == RULE_OVERRIDDEN:
        messages.success(request, "Rule override noted; the next entry is not checked.")
    else:
        messages.success(request, f"Recorded entry {result.version}: {spec.label}.")
    return redirect(reverse("campaign-detail", args=[campaign.pk]) + "#sheet")


@login_required
@require_POST
def campaign_undo(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Void the last entry that still counts (a new ``event_voided`` entry; the history keeps both)."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    version = _int_or_none(request.POST.get("version"))
    reason = request.POST.get("reason", "").strip() or "Undone at the table"
    problem: dict[str, Any] = {"form": "undo"}
    if not request.POST.get("confirm"):
        problem["detail"] = "Tick the confirmation box to undo."
        return campaign_detail(request, campaign_id, problem=problem, status=400)
    try:
        campaign_services.campaign_event_record(
            campaign=campaign, user=request.user, type=EVENT_VOIDED, data={"version": version, "reason": reason},
            expected_version=_int_or_none(request.POST.get("expected_version")),
            idempotency_key=request.POST.get("idempotency_key") or None,
            request_id=getattr(request, "request_id", ""),
        )  # fmt: skip
    except DomainError as exc:
        problem, status = _problem_from(exc, problem)
        return campaign_detail(request, campaign_id, problem=problem, status=status)
    messages.success(request, f"Entry {version} undone (voided); the history keeps it, struck through.")
    return redirect(reverse("campaign-detail", args=[campaign.pk]) + "#sheet")


@login_required
@require_POST
def campaign_adventure_new(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Start an adventure: record ``adventure_started`` and open its adventure match, then go there."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    post = request.POST
    problem: dict[str, Any] = {"form": "adventure", "post": post}
    errors: dict[str, list[str]] = {}
    reward = _int_or_none(post.get("reward")) if post.get("reward", "").strip() else 0
    surges = _int_or_none(post.get("healing_surges")) if post.get("healing_surges", "").strip() else 2
    if reward is None:
        errors["reward"] = ["Enter a whole number."]
    if surges is None:
        errors["healing_surges"] = ["Enter a whole number."]
    heroes = []
    for i in range(ADVENTURE_HEROES_MAX):
        name = post.get(f"hero_{i}", "").strip()
        if not name:
            continue
        hp = _int_or_none(post.get(f"hp_{i}")) if post.get(f"hp_{i}", "").strip() else 10
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
        problem, status = _problem_from(exc, problem)
        return campaign_detail(request, campaign_id, problem=problem, status=status)
    messages.success(
        request,
        "Adventure started. Record it here; when it is won or lost, its treasure, gold and result go to the "
        "campaign sheet.",
    )
    return redirect("match", match_id=match.pk)


# -- the town phase: several heroes' actions, all or nothing --------------------------------------------


def _town_row_values(post: Any, i: int) -> dict[str, str]:
    p = f"a{i}."
    return {
        k: str(post.get(p + k, "") if post is not None else "").strip()
        for k in ("type", "hero", "to", "item", "gold", "text")
    }


def _town_action(row: dict[str, str], cards: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, str]]:
    """One row of the town form as an action ``{"type", "data"}`` plus form errors (input key → message)."""
    errors: dict[str, str] = {}
    type_ = row["type"]
    hero = row["hero"]
    if type_ not in TOWN_LABELS:
        return {}, {"type": "Choose an action from the list."}
    if type_ != "shop_revealed" and not hero:
        errors["hero"] = "Choose the hero." if type_ != "trade_made" else "Choose the hero who gives."
    gold = 0
    if row["gold"]:
        try:
            gold = int(row["gold"])
        except ValueError:
            errors["gold"] = "Enter a whole number."
    names = [p.strip() for p in row["item"].split(",") if p.strip()]
    if type_ == "powers_swapped":
        data: dict[str, Any] = {"hero": hero, "powers": [p.strip() for p in row["text"].split(",") if p.strip()]}
    elif type_ in ("item_sold", "item_bought"):
        if not row["item"]:
            errors["item"] = "Name the item."
        data = {"hero": hero, "item": row["item"]}
    elif type_ == "shop_revealed":
        data = {"cards": cards}
    elif type_ == "trade_made":
        if not row["to"]:
            errors["to"] = "Choose the hero who receives."
        data = {"from": hero, "to": row["to"], "items": names, "gold": gold}
    elif type_ == "leveled_up":
        data = {"hero": hero}
    else:  # advancement_token_bought
        if not row["text"]:
            errors["text"] = "Name the token."
        if not row["gold"]:
            errors["gold"] = "Enter the token's cost."
        data = {"hero": hero, "token": row["text"], "cost": gold}
    return {"type": type_, "data": data}, errors


def _shop_fields(campaign: Any) -> tuple[Field, ...]:
    spec: EventType = get_ruleset(campaign.game).event_types["shop_revealed"]
    return spec.fields


def campaign_town(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The town phase as one form: each row one hero's action; checked and recorded all or nothing."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    if not can_record(request.user, campaign):
        raise NotAllowed("Only the campaign's owner and the recorders they named may record town actions.")
    post = request.POST if request.method == "POST" else None
    count = _int_or_none((post or request.GET).get("rows")) or TOWN_ROWS
    count = max(1, min(count, TOWN_ROWS_MAX))
    problem: dict[str, Any] = {}
    row_errors: dict[int, dict[str, str]] = {}
    refused_row: int | None = None
    shop_errors: dict[str, list[str]] = {}
    status = 200
    if post is not None:
        cards_data, shop_errors = parse_inputs(_shop_fields(campaign), post, "shop.")
        actions, rows_used = [], []
        for i in range(count):
            row = _town_row_values(post, i)
            if not row["type"]:
                continue
            action, errs = _town_action(row, cards_data.get("cards", []))
            if errs:
                row_errors[i] = errs
            actions.append(action)
            rows_used.append(i)
        uses_shop = any(a.get("type") == "shop_revealed" for a in actions)
        if not actions:
            problem["detail"] = "Choose at least one action."
        elif row_errors or (uses_shop and shop_errors):
            problem["detail"] = "Please correct the highlighted fields; nothing was recorded."
        else:
            try:
                results = campaign_services.campaign_events_record_batch(
                    campaign=campaign, user=request.user, actions=actions,
                    expected_version=_int_or_none(post.get("expected_version")),
                    idempotency_key=post.get("idempotency_key") or None,
                    request_id=getattr(request, "request_id", ""),
                )  # fmt: skip
            except BatchRefused as exc:
                refused_row = rows_used[exc.index] if 0 <= exc.index < len(rows_used) else None
                problem, status = _problem_from(exc.error, problem)
                if refused_row is not None:
                    label = TOWN_LABELS.get(actions[exc.index]["type"], "")
                    problem["action"] = f"Action {refused_row + 1} ({re.sub(r'^[0-9]+[.] *', '', label)})"
                    problem["action_n"] = refused_row + 1
                    if actions[exc.index]["type"] == "shop_revealed":
                        shop_errors = {k.replace("data.", "shop.", 1): v for k, v in problem.get("errors", {}).items()}
                    elif problem.get("errors"):
                        row_errors[refused_row] = {"type": " ".join(" ".join(v) for v in problem["errors"].values())}
            except DomainError as exc:
                problem, status = _problem_from(exc, problem)
            else:
                first, last = results[0].version, results[-1].version
                span = f"entry {first}" if first == last else f"entries {first}–{last}"
                messages.success(request, f"Recorded {len(results)} town action(s) ({span}).")
                return redirect(reverse("campaign-detail", args=[campaign.pk]) + "#sheet")
        if problem and status == 200:
            status = 400
    loaded = _load(campaign, None)
    rows = []
    for i in range(count):
        values = _town_row_values(post, i)
        rows.append(
            {
                "index": i,
                "n": i + 1,
                "prefix": f"a{i}.",
                "values": values,
                "errors": row_errors.get(i, {}),
                "refused": refused_row == i,
                "to_choices": _with_typed(loaded.active_names, values["to"]),
                "hero_choices": _with_typed(loaded.active_names, values["hero"]),
            }
        )
    context = {
        "campaign": campaign,
        "loaded": loaded,
        "heroes": _hero_blocks(loaded.sheet.get("heroes", [])),
        "display": loaded.state.get("display", []),
        "rows": rows,
        "row_count": count,
        "more_rows": min(count + 4, TOWN_ROWS_MAX),
        "actions": TOWN_ACTIONS,
        "shop_inputs": build_inputs(_shop_fields(campaign), "shop.", form="town", post=post, errors=shop_errors),
        "shop_open": bool(shop_errors) or any(r["values"]["type"] == "shop_revealed" for r in rows),
        "problem": problem,
        "datalists": _datalists(loaded),
        "idempotency_key": uuid.uuid4().hex,
    }
    return render(request, "frontend/campaigns/town.html", context, status=status)


def _with_typed(names: list[str], typed: str) -> list[str]:
    return [*names, typed] if typed and typed not in names else list(names)


# -- the gold ledger, the history, exports --------------------------------------------------------------


def campaign_ledger(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every gold change (``?hero=`` one hero's) up to ``?at=N``, each linked to the sheet at its entry."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    loaded = _load(campaign, _int_or_none(request.GET.get("at")))
    hero = (request.GET.get("hero") or "").strip() or None
    all_rows = campaign_selectors.campaign_ledger(campaign=campaign, at=loaded.version)
    rows = campaign_selectors.campaign_ledger(campaign=campaign, hero=hero, at=loaded.version) if hero else all_rows
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
        "chart": gold_chart(all_rows, names, loaded.version),
        "can_record": can_record(request.user, campaign),
    }
    return render(request, "frontend/campaigns/ledger.html", context)


def campaign_history(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's log as a timeline, voided entries struck through, each linked to the sheet then."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    lines = stream_log(stream_id=campaign.stream_id, game=campaign.game, seat_names=[])
    context = {"campaign": campaign, "lines": lines, "can_record": can_record(request.user, campaign)}
    return render(request, "frontend/campaigns/history.html", context)


def _csv_cell(value: Any) -> Any:
    """Text that a spreadsheet would run as a formula is quoted with a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def campaign_sheet_csv(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The active heroes as CSV: one row per item (or one row for a hero without items); honours ``?at=``."""
    campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    loaded = _load(campaign, _int_or_none(request.GET.get("at")))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-v{loaded.version}.csv"'
    writer = csv.writer(response)
    writer.writerow(["hero", "class", "level", "gold", "item", "buy", "sell"])
    for hero in loaded.sheet.get("heroes", []):
        base = [_csv_cell(hero["name"]), _csv_cell(hero["class"]), hero["level"], hero["gold"]]
        if not hero["items"]:
            writer.writerow([*base, "", "", ""])
        for item in hero["items"]:
            buy, sell = item.get("buy"), item.get("sell")
            writer.writerow([*base, _csv_cell(item["name"]), "" if buy is None else buy, "" if sell is None else sell])
    return response


def campaign_sheet_json(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """``campaign_sheet(...)`` as JSON at ``?at=N`` (latest by default)."""
    at = _int_or_none(request.GET.get("at"))
    try:
        campaign = campaign_selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        if at is not None and at < 0:
            raise NotFound(f"No version {at}.")
        sheet = campaign_selectors.campaign_sheet(campaign=campaign, at=at)
    except NotFound as exc:
        return JsonResponse(exc.body(), status=404)
    return JsonResponse(sheet, json_dumps_params={"indent": 1})
