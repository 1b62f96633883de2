"""Web pages: thin views that parse a request, call selectors and services, and render templates."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from frontend import boards
from frontend.forms import (
    SignupForm,
    build_inputs,
    int_or_none,
    option_inputs,
    parse_inputs,
    parse_options,
    posted_void,
    record_or_rerender,
)
from frontend.selectors import home_activity, last_undoable_version
from matches import selectors, services
from matches.catalogs import catalog_get, catalog_list, catalog_options
from matches.errors import DomainError, InvalidInput, NotFound
from rulesets import all_rulesets, get_ruleset
from rulesets.replay import EVENT_VOIDED, RULE_OVERRIDDEN, describe_entry, event_types_with_meta

# -- accounts -------------------------------------------------------------------------------------------


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and sign in."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome, {user.username}!")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def api_token(request: HttpRequest) -> HttpResponse:
    """Show, create or revoke the user's API token."""
    if request.method == "POST":
        Token.objects.filter(user=request.user).delete()
        if request.POST.get("action") == "create":
            Token.objects.create(user=request.user)
            messages.success(request, "A new API token was created; the old one (if any) no longer works.")
        else:
            messages.success(request, "Your API token was revoked.")
        return redirect("api-token-page")
    token = Token.objects.filter(user=request.user).first()
    return render(request, "frontend/token.html", {"token": token})


# -- home and lists -------------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """My matches (in progress first), my campaigns, recent activity."""
    from campaigns.selectors import campaign_list

    mine = []
    campaigns = []
    if request.user.is_authenticated:
        mine = list(selectors.match_list(user=request.user, mine=True).order_by("status", "-updated_at")[:20])
        campaigns = list(campaign_list(user=request.user, mine=True)[:10])
    public = list(selectors.match_list(user=request.user)[:10])
    return render(
        request,
        "frontend/home.html",
        {"mine": mine, "campaigns": campaigns, "public": public, "activity": home_activity(user=request.user)},
    )


def match_list(request: HttpRequest) -> HttpResponse:
    """Every visible match, filterable by game, player and status."""
    game = request.GET.get("game") or None
    player = request.GET.get("player") or None
    status = request.GET.get("status") or None
    try:
        matches = selectors.match_list(user=request.user, game=game, player=player, status=status)
    except InvalidInput:
        matches = selectors.match_list(user=request.user, game=game, player=player)
        status = None
    return render(
        request,
        "frontend/match_list.html",
        {
            "matches": matches[:100],
            "games": all_rulesets(kind="match"),
            "game": game,
            "player": player or "",
            "status": status,
        },
    )


# -- new match ------------------------------------------------------------------------------------------


def _players_text(seats: tuple[int, ...]) -> str:
    """ "2 players", "1–5 players", "2 or 4 players"."""
    if len(seats) == 1:
        return f"{seats[0]} player{'s' if seats[0] != 1 else ''}"
    if list(seats) == list(range(seats[0], seats[-1] + 1)):
        return f"{seats[0]}–{seats[-1]} players"
    return " or ".join(str(n) for n in seats) + " players"


@login_required
def match_new(request: HttpRequest) -> HttpResponse:
    """Pick a game, then name the seats and set the options."""
    slug = request.GET.get("game") or request.POST.get("game")
    if not slug:
        games = [{"ruleset": r, "players": _players_text(r.seats)} for r in all_rulesets(kind="match")]
        return render(request, "frontend/match_new_pick.html", {"games": games})
    try:
        ruleset = get_ruleset(slug)
    except KeyError:
        raise NotFound(f"No game '{slug}'.") from None
    seat_count = int_or_none(request.GET.get("seats") or request.POST.get("seat_count")) or ruleset.seats[0]
    if seat_count not in ruleset.seats:
        seat_count = ruleset.seats[0]
    context: dict[str, Any] = {"ruleset": ruleset, "seat_count": seat_count, "errors": {}}
    if request.method == "POST":
        options, errors = parse_options(ruleset.options_schema, request.POST)
        if request.POST.get("catalog"):
            options.update(catalog_options(catalog_get(request.user, request.POST["catalog"])))
        seats = [{"name": request.POST.get(f"seat_{i}", "")} for i in range(seat_count)]
        context["seat_values"] = [s["name"] for s in seats]
        if not errors:
            try:
                match = services.match_create(
                    owner=request.user, game=slug, seats=seats, options=options,
                    title=request.POST.get("title", ""), is_public=request.POST.get("is_public") == "on",
                )  # fmt: skip
            except InvalidInput as exc:
                errors = exc.errors
            else:
                messages.success(request, "Match created. Record the first move below.")
                return redirect("match", match_id=match.pk)
        context["errors"] = errors
        context["error_list"] = [f"{k}: {' '.join(v)}" for k, v in errors.items()]
    context["option_fields"] = option_inputs(
        ruleset.options_schema, form="opt", post=request.POST if request.method == "POST" else None,
        errors=context["errors"],
    )  # fmt: skip
    context["seat_inputs"] = [
        {
            "index": i,
            "value": (context.get("seat_values") or [""] * seat_count)[i],
            "error": " ".join(context["errors"].get(f"seats[{i}].name", [])),
        }
        for i in range(seat_count)
    ]
    context["known_players"] = selectors.players_known(owner=request.user)
    context["catalogs"] = catalog_list(request.user, slug)
    return render(request, "frontend/match_new.html", context, status=400 if context["errors"] else 200)


# -- the match page -------------------------------------------------------------------------------------


def match_detail(
    request: HttpRequest, match_id: int, *, problem: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    """The state drawn for people, whose turn, the players, the outcome, and move entry (or replay at ?at=N)."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    can_record = selectors.match_can_record(request.user, match)
    at = int_or_none(request.GET.get("at"))
    if at is not None and at < 0:
        at = None
    try:
        ms = selectors.match_state(match=match, at=at, full=can_record)
    except NotFound:
        ms = selectors.match_state(match=match, full=can_record)
        at = None
    replaying = at is not None and at != ms.latest_version
    ruleset = get_ruleset(match.game)
    seat_names = selectors.match_seat_names(match)
    # only recorders are offered moves; their state is the full one, so no second read of the head
    legal = None if replaying or ms.outcome or not can_record else ruleset.legal_moves(ms.state)
    problem = problem or {}
    turn_seat = ms.turn_seats[0] if ms.turn_seats else None
    forms = []
    if can_record and not replaying and not ms.outcome:
        for name, spec in ruleset.event_types.items():
            posted = problem.get("values") if problem.get("type") == name else None
            forms.append(
                {
                    "type": name,
                    "spec": spec,
                    "inputs": build_inputs(
                        spec.fields,
                        "data.",
                        form=name,
                        values=posted,
                        errors=problem.get("errors") if posted is not None else None,
                    ),
                    "seat": int_or_none(str(problem.get("seat"))) if posted is not None else turn_seat,
                    "open": posted is not None or (not forms and not legal),  # the first, when no move is listed
                }
            )
    board = boards.board_for(
        match=match, ruleset=ruleset, ms=ms, legal=legal, request=request, can_record=can_record and not replaying
    )
    context = {
        "match": match,
        "ruleset": ruleset,
        "ms": ms,
        "seat_names": seat_names,
        "seats": list(enumerate(seat_names)),
        "winner_names": [seat_names[s] for s in (ms.outcome or {}).get("winners", []) if s < len(seat_names)],
        "can_record": can_record,
        "replaying": replaying,
        "at": ms.version,
        "legal": [
            {"json": json.dumps(m.to_dict()), "text": describe_entry(ruleset, m, seat_names)} for m in legal or []
        ],
        "forms": forms,
        "board": board,
        "problem": problem,
        "idempotency_key": uuid.uuid4().hex,
        "undo_version": last_undoable_version(stream_id=match.stream_id) if can_record else None,
        "versions": list(range(ms.latest_version + 1)),
        "state_json": json.dumps(ms.state, indent=1, sort_keys=True),
    }
    return render(request, "frontend/match_detail.html", context, status=status)


def _posted_event(
    request: HttpRequest, match: Any
) -> tuple[str, int | None, Any, dict[str, Any], dict[str, list[str]]]:
    """Read ``(type, seat, data, raw values, form errors)`` from a move form or a one-click legal move."""
    if request.POST.get("move"):
        try:
            move = json.loads(request.POST["move"])
            return move["type"], move.get("seat"), move.get("data", {}), {}, {}
        except (ValueError, KeyError, TypeError):
            return "", None, {}, {}, {"move": ["That move could not be read; pick it again."]}
    type_ = request.POST.get("type", "")
    seat = int_or_none(request.POST.get("seat"))
    spec = event_types_with_meta(get_ruleset(match.game)).get(type_)
    if spec is None:
        return type_, seat, {}, {}, {}
    data, errors = parse_inputs(spec.fields, request.POST, "data.")
    raw = {f"data.{f.name}": request.POST.get(f"data.{f.name}", "") for f in spec.fields}
    return type_, seat, data, raw, errors


@login_required
@require_POST
def match_record(request: HttpRequest, match_id: int) -> HttpResponse:
    """Record one move from a form; a refusal re-renders the page with the rule and what was typed."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    type_, seat, data, raw, form_errors = _posted_event(request, match)
    problem = {"type": type_, "seat": seat, "values": raw}
    if form_errors:
        problem.update(detail="Please correct the highlighted field.", errors=form_errors)
        return match_detail(request, match_id, problem=problem, status=400)
    result, refused = record_or_rerender(
        request,
        lambda **guards: services.match_event_record(
            match=match, user=request.user, type=type_, seat=seat, data=data, **guards
        ),
        problem,
        lambda problem, status: match_detail(request, match_id, problem=problem, status=status),
    )
    if refused:
        return refused
    label = (
        "Rule override noted; the next move is not checked."
        if type_ == RULE_OVERRIDDEN
        else f"Recorded entry {result.version}."
    )
    messages.success(request, label)
    return redirect(reverse("match", args=[match.pk]) + "#board")


@login_required
@require_POST
def match_undo(request: HttpRequest, match_id: int) -> HttpResponse:
    """Void the last entry that still counts (a new ``event_voided`` entry; history keeps both)."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    data = posted_void(request)
    _, refused = record_or_rerender(
        request,
        lambda **guards: services.match_event_record(
            match=match, user=request.user, type=EVENT_VOIDED, data=data, **guards
        ),
        {},
        lambda problem, status: match_detail(request, match_id, problem=problem, status=status),
    )
    if refused:
        return refused
    messages.success(request, f"Entry {data['version']} undone (voided); the history keeps it, struck through.")
    return redirect(reverse("match", args=[match.pk]) + "#board")


@login_required
@require_POST
def match_recorders(request: HttpRequest, match_id: int) -> HttpResponse:
    """The owner names who else may record (usernames, comma-separated)."""
    from matches.api import users_by_name

    match = selectors.match_get(user=request.user, match_id=match_id)
    names = [n.strip() for n in request.POST.get("recorders", "").split(",") if n.strip()]
    try:
        services.match_recorders_set(match=match, user=request.user, recorders=users_by_name(names, "recorders"))
    except DomainError as exc:
        detail = (
            exc.detail if not isinstance(exc, InvalidInput) else " ".join(m for v in exc.errors.values() for m in v)
        )
        return match_detail(request, match_id, problem={"detail": detail}, status=exc.status_code)
    messages.success(request, "Recorders saved." if names else "Only you can record on this match now.")
    return redirect("match", match_id=match.pk)


def match_history(request: HttpRequest, match_id: int) -> HttpResponse:
    """The log as a readable timeline, voided entries struck through, each linked to its replay position."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    lines = selectors.stream_log(
        stream_id=match.stream_id, game=match.game, seat_names=selectors.match_seat_names(match)
    )
    return render(
        request, "frontend/match_history.html", {"match": match, "lines": lines, "ruleset": get_ruleset(match.game)}
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 page."""
    return render(
        request,
        "frontend/error.html",
        {"title": "Not found", "message": "There is nothing here, or it is private."},
        status=404,
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """500 page."""
    return render(request, "frontend/error.html", {"title": "Something went wrong", "message": ""}, status=500)
