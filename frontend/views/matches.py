"""Web pages: thin views that parse a request, call selectors and services, and render templates."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, QueryDict
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST
from django_htmx.http import replace_url

from campaigns.saltmarsh.selectors import adventure_match_closed
from config.text import PROBLEM, unstorable_path
from frontend.boards import shared as boards
from frontend.forms.inputs import recordable
from frontend.forms.recording import (
    feedback_for,
    forms_in_sight,
    legal_move_choices,
    move_forms,
    moves_in_sight,
    rebased_words,
)
from frontend.forms.schema import (
    error_sentence,
    int_or_none,
    option_inputs,
    parse_inputs,
    parse_options,
    record_or_rerender,
)
from frontend.models import developer_view_on
from frontend.offline.bundle import offline_urls
from frontend.offline.seed import offline_seed
from frontend.offline.views import offline_start_forms
from frontend.selectors import home_activity, last_undoable_version, undo_words
from frontend.views import joins as join_views
from frontend.views import streams as stream_views
from frontend.views.photos import photo_context
from frontend.views.streams import answered_in_place
from matches import selectors, services
from matches.catalogs import CATALOG_KEYS, catalog_get, catalog_list, catalog_options
from matches.checks import difference_json, rules_difference
from matches.errors import DomainError, InvalidInput, MatchKeyReused, NotAllowed, NotFound
from matches.people import joins
from matches.people.joins import seat_accounts
from matches.store.visibility import (
    TABLE,
    Viewer,
    can_record,
    reader_at,
    reveal,
    reveal_end,
    revealed_seat,
    table_seats,
    viewer_for,
    writer_sight,
)
from rulesets import Event, all_rulesets, get_ruleset
from rulesets.replay import RULE_OVERRIDDEN, describe_entry, event_types_with_meta
from rulesets.schema import RANDOM, for_seat_count, seat_word

# -- home and lists -------------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """My matches (in progress first), my campaigns, recent activity."""
    from campaigns.saltmarsh.selectors import campaign_list

    mine = []
    campaigns = []
    if request.user.is_authenticated:
        # "in_progress" sorts after "finished": descending puts the games still on the table first, then by play date
        mine = selectors.match_list(user=request.user, mine=True)
        mine = list(mine.order_by("-status", *selectors.played_order())[:20])
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
    matches = matches.select_related("summary", "stream").prefetch_related("seats__player")
    return render(
        request,
        "frontend/match_list.html",
        {
            "matches": matches[:100],  # by play date (selectors.played_order)
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
    schema = for_seat_count(ruleset.options_schema, seat_count)  # only what this many players need
    context: dict[str, Any] = {"ruleset": ruleset, "seat_count": seat_count, "errors": {}, "is_public": False}
    # kept across a refused post (nothing was created with it), fresh on each new form
    key = request.POST.get("idempotency_key", "") if request.method == "POST" else ""
    context["idempotency_key"] = key if 1 <= len(key) <= services.KEY_MAX_LENGTH else uuid.uuid4().hex
    context["seat_counts"] = list(ruleset.seats) if len(ruleset.seats) > 1 else []
    if request.method == "POST":
        options, errors = parse_options(schema, request.POST)
        if request.POST.get("catalog"):
            options.update(catalog_options(catalog_get(request.user, request.POST["catalog"])))
        seats, seat_errors = _posted_seats(request, seat_count)
        context["seat_values"] = [s["name"] for s in seats]
        context["account_values"] = [request.POST.get(f"seat_{i}_account", "") for i in range(seat_count)]
        errors = {**seat_errors, **errors}
        reused = ""
        if not errors:
            try:  # the form's key: a second tap or a retried post returns the match the first one created
                match = services.match_create(
                    owner=request.user, game=slug, seats=seats, options=options,
                    title=request.POST.get("title", ""), is_public=request.POST.get("is_public") == "on",
                    idempotency_key=context["idempotency_key"] if context["idempotency_key"] == key else None,
                )  # fmt: skip
            except InvalidInput as exc:
                errors = exc.errors
            except MatchKeyReused as exc:  # this form already made another match: a fresh key, and say so
                reused = f"This form already created another match (#{exc.match_id}); check it and create again."
                context["idempotency_key"] = uuid.uuid4().hex
            else:
                messages.success(request, f"Match created.{_drawn_words(match)} Record the first move below.")
                return redirect("match", match_id=match.pk)
        extra = {f"seats.{i}": seat_word(i) for i in range(seat_count)} | {"seats": "Players", "title": "Title"}
        context["error_list"] = [
            error_sentence({k if k.startswith(("seats", "title")) else f"options.{k}": v}, schema, extra)
            for k, v in errors.items()
        ] + ([reused] if reused else [])
        context["errors"] = errors or ({"idempotency_key": [reused]} if reused else {})
        context["title"] = request.POST.get("title", "")
        context["catalog_value"] = request.POST.get("catalog", "")
        context["is_public"] = request.POST.get("is_public") == "on"
    option_fields = option_inputs(
        schema, form="opt", post=request.POST if request.method == "POST" else None,
        errors=context["errors"], exclude=CATALOG_KEYS.get(slug, {}),
    )  # fmt: skip
    # who starts, and what has no default, first; the rest (the printed game's defaults) folded away
    main = {ruleset.start_option, *ruleset.main_options} | {f.name for f in schema if f.required}
    context["option_fields"] = [i for i in option_fields if i.name.removeprefix("option.") in main]
    context["more_options"] = [i for i in option_fields if i.name.removeprefix("option.") not in main]
    context["more_open"] = any(i.error for i in context["more_options"])
    context["catalog_keys"] = [
        f.label or f.name for f in ruleset.options_schema if f.name in CATALOG_KEYS.get(slug, {})
    ]
    context["seat_inputs"] = [
        {
            "index": i,
            "label": seat_word(i),
            "value": (context.get("seat_values") or [""] * seat_count)[i],
            "error": " ".join(context["errors"].get(f"seats[{i}].name", [])),
            "account": (context.get("account_values") or [""] * seat_count)[i],
            "account_error": " ".join(context["errors"].get(f"seats[{i}].user", [])),
        }
        for i in range(seat_count)
    ]
    context["seat_accounts"] = seat_accounts(request.user)  # "me" and the people played with, for each seat
    context["known_players"] = selectors.players_known(owner=request.user)
    context["catalogs"] = catalog_list(request.user, slug)
    # for a match started here offline (offline/new-match.js): the rules' files and the game's entry forms
    # (and the board's stylesheet: linked here so the service worker keeps it for the match's page)
    css = boards.STYLESHEETS.get(slug)
    context["offline_engine"] = {**offline_urls(), "board_stylesheet": static(css) if css else ""}
    context["offline_forms"] = offline_start_forms(ruleset, seat_count)
    context["offline_seats"] = [(i, seat_word(i)) for i in range(seat_count)]
    return render(request, "frontend/match_new.html", context, status=400 if context["errors"] else 200)


def _posted_seats(request: HttpRequest, seat_count: int) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """The seats the new-match form posted: each a name (``seat_N``) and, when picked (``seat_N_account``), an
    account from those the form offered (``seat_accounts``); any other account is an error on that seat."""
    offered = {str(a.user_id) for a in seat_accounts(request.user)}
    picked = [request.POST.get(f"seat_{i}_account", "") for i in range(seat_count)]
    users = get_user_model().objects.in_bulk([int(v) for v in picked if v in offered])
    seats: list[dict[str, Any]] = []
    errors: dict[str, list[str]] = {}
    for i, value in enumerate(picked):
        seat: dict[str, Any] = {"name": request.POST.get(f"seat_{i}", "")}
        if value and value in offered:
            seat["user"] = users[int(value)]
        elif value:
            errors[f"seats[{i}].user"] = ["Choose one of the people offered, or type a name."]
        seats.append(seat)
    return seats, errors


def _drawn_words(match: Any) -> str:
    """ " Bo was drawn to start." for a match created with who starts: random, else ""."""
    start_option = get_ruleset(match.game).start_option
    if match.first_seat is None or not start_option or match.stream.options.get(start_option) != RANDOM:
        return ""
    return f" {selectors.match_seat_names(match)[match.first_seat]} was drawn to start."


# -- the match page -------------------------------------------------------------------------------------


def match_detail(
    request: HttpRequest, match_id: int, *, problem: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    """The state drawn for people, whose turn, the players, the outcome, and move entry (or replay at ?at=N).

    The table bar at the top (sticky on a phone) says whose turn it is and what the last submit did;
    ``?seen=N`` (sent by the live update) lists what was recorded since version N.
    """
    match = selectors.match_get(user=request.user, match_id=match_id)
    recorder = can_record(request.user, match)
    viewer = viewer_for(request.user, match, session=request.session)  # a seat holder: their seat's view
    ms, replaying = _state_asked(request, match, viewer)
    closed = adventure_match_closed(match=match) if match.campaign_id else None
    can_record_now = recorder and closed is None  # a closed adventure match takes no entry: offer none
    ruleset = get_ruleset(match.game)
    seat_names = selectors.match_seat_names(match)
    # only recorders are offered moves, as their viewer may know them (a hidden value is never offered). A
    # provisional outcome (Bone Wars' awards after the last pass) still takes entries until the table confirms
    final = bool(ms.outcome) and not ms.outcome.get("provisional")
    legal = moves = None
    # whose secrets this writer records (may record: asked above)
    sight = writer_sight(request.user, match, records=True) if can_record_now else None
    if not (replaying or final or not can_record_now):
        # the whole table's state is ``ms.state`` itself; else the moves are listed from the head's full state
        moves = (
            viewer.moves(ruleset, ms.state)
            if viewer.everything
            else selectors.match_legal_moves(match=match, viewer=viewer)
        )
        legal = moves_in_sight(ruleset, recordable(ruleset, moves), sight)
    problem = problem or {}
    turn_seat = ms.turn_seats[0] if ms.turn_seats else None
    forms_now: list[dict[str, Any]] = []
    forms_other: list[dict[str, Any]] = []
    if can_record_now and not replaying and not final:
        forms_now, forms_other = move_forms(ruleset, ms.state, legal, turn_seat, problem, listed=moves)
        words = list(enumerate(ruleset.seat_words(ms.state, seat_names)))
        forms_now, forms_other = forms_in_sight(forms_now, words, sight), forms_in_sight(forms_other, words, sight)
    facts = boards.table_facts(match, request, records=recorder, sight=sight)
    board = boards.board_for(
        ruleset=ruleset, ms=ms, legal=legal, facts=facts,
        can_record=can_record_now and not replaying,
        problem=problem,
    )  # fmt: skip
    feedback = feedback_for(
        match=match, problem=problem, notes=[str(m) for m in messages.get_messages(request)],
        seen=None if replaying else int_or_none(request.GET.get("seen")), latest=ms.latest_version,
        seat_names=seat_names, viewer=viewer,
    )  # fmt: skip
    undo_version = last_undoable_version(stream_id=match.stream_id) if can_record_now and not replaying else None
    context = {
        "match": match,
        "ruleset": ruleset,
        "ms": ms,
        "seat_names": seat_names,
        "seats": list(enumerate(ruleset.seat_words(ms.state, seat_names))),  # as the game names them
        "turn_names": [seat_names[s] for s in ms.turn_seats if s < len(seat_names)],
        "winner_names": [seat_names[s] for s in (ms.outcome or {}).get("winners", []) if s < len(seat_names)],
        "can_record": can_record_now,
        "closed": closed,
        "replaying": replaying,
        "at": ms.version,
        "legal": legal_move_choices(ruleset, legal, seat_names),
        "forms": forms_now,
        "forms_other": forms_other,
        "board": board,
        "board_stylesheet": boards.STYLESHEETS.get(match.game, ""),
        "problem": problem,
        "feedback": feedback,
        "idempotency_key": uuid.uuid4().hex,
        "undo_version": undo_version,
        "undo_words": undo_words(match=match, version=undo_version, viewer=viewer, seat_names=seat_names)
        if undo_version
        else "",
        "secrets": _secrets(request, match, ruleset, seat_names, recorder) if not replaying else None,
        "join": join_views.join_box(request, match, finished=final),  # the owner's "Scan to take a seat"
        "versions": list(range(ms.latest_version + 1)),
        # the state as JSON is for developers: drawn only for a user who turned the developer view on
        "state_json": json.dumps(ms.state, indent=1, sort_keys=True) if developer_view_on(request.user) else "",
        "played": _played(match, ms.outcome),
        # the head as this reader may see it, for the rules the page runs offline (rulesets.offline)
        "offline_seed": offline_seed(
            match=match,
            viewer=viewer,
            seat_names=seat_names,
            can_record=can_record_now,
            revealed=viewer.seat is not None and revealed_seat(request.session, match) == viewer.seat,
            board=facts.seed() if can_record_now else None,  # only a recorder draws a board offline
        ),
    }
    context.update(
        photo_context(
            "match", match, request.user, upto=ms.version if replaying else None,
            can_add=can_record_now and not replaying,  # a closed adventure match takes no entry, photos neither
        )
    )  # fmt: skip
    if problem.get("origin") == "override":
        context["override_reason"] = problem.get("values", {}).get("data.reason", "")
    return _match_page(request, match, context, status)


def _state_asked(request: HttpRequest, match: Any, viewer: Viewer) -> tuple[selectors.MatchState, bool]:
    """The match state the page shows as ``viewer`` sees it, and whether it is a replay: at ``?at=N`` when that
    version exists (a negative or missing one: the latest)."""
    at = int_or_none(request.GET.get("at"))
    if at is not None and at < 0:
        at = None
    try:
        ms = selectors.match_state(match=match, at=at, viewer=viewer)
    except NotFound:
        ms = selectors.match_state(match=match, viewer=viewer)
        at = None
    return ms, at is not None and at != ms.latest_version


def _match_page(request: HttpRequest, match: Any, context: dict[str, Any], status: int) -> HttpResponse:
    """The match page rendered whole, or as the fragment answered in place (htmx)."""
    in_place = answered_in_place(request)
    context["base_template"] = "frontend/_fragment.html" if in_place else "frontend/base.html"
    response = render(request, "frontend/match_detail.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])  # one URL, two answers: a browser cache must tell them apart
    if in_place:  # the address bar shows the match page (never /record/), keeping a board pick's query
        query = request.GET.copy() if request.method == "GET" else QueryDict(mutable=True)
        query.pop("seen", None)
        replace_url(response, reverse("match", args=[match.pk]) + (f"?{query.urlencode()}" if query else ""))
    return response


def _played(match: Any, outcome: Any) -> dict[str, Any] | None:
    """When, where and how long a finished or imported play was, and each seat's score as typed."""
    from matches.interop.present import play_line, seat_notes

    if not outcome and not match.source:
        return None
    notes = seat_notes(match, (outcome or {}).get("scores"), (outcome or {}).get("winners")) if match.source else {}
    return {"line": play_line(match), "notes": notes, "details": match.details or {}}


def _secrets(
    request: HttpRequest, match: Any, ruleset: Any, seat_names: list[str], recorder: bool
) -> dict[str, Any] | None:
    """What the page offers a recorder's device in a game with hidden information (the phone passed round the
    table, or a player's own phone passed to a friend without one): one table seat's secrets shown on request,
    hidden again by the next entry; else None. ``holder``: the name of the seat the reader holds, or None."""
    reader = reader_at(request.user, match)
    if not recorder or not ruleset.hides_information or not reader.may_reveal:
        return None
    shown = revealed_seat(request.session, match)
    table = table_seats(match)
    if not table:  # every seat is an account's: no secret to show on this device
        return None
    return {
        "noun": ruleset.secret_noun,
        "holder": None if reader.seat is None else _seat_word(seat_names, reader.seat),
        "shown": None if shown is None else {"seat": shown, "name": _seat_word(seat_names, shown)},
        "seats": [{"seat": i, "name": name} for i, name in enumerate(seat_names) if i in table],
    }


def _seat_word(seat_names: list[str], seat: int) -> str:
    return seat_names[seat] if 0 <= seat < len(seat_names) else f"Seat {seat}"


@login_required
@require_POST
def match_reveal(request: HttpRequest, match_id: int) -> HttpResponse:
    """``seat``: show that seat's secrets on this device (a seatless recorder's: the phone passed round the
    table) until the next entry is recorded on the match; ``hide``: hide them now (``matches.store.visibility``)."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    if request.POST.get("hide"):
        reveal_end(request.session, match)
        return redirect(reverse("match", args=[match.pk]) + "#board")
    ruleset = get_ruleset(match.game)
    reader = reader_at(request.user, match)
    seat = int_or_none(request.POST.get("seat"))
    names = selectors.match_seat_names(match)
    problem: dict[str, Any] = {}
    if not ruleset.hides_information:
        problem = {"detail": f"Nothing is secret in {ruleset.name}: everyone sees the whole table.", "status": 400}
    elif not reader.may_reveal and reader.seat is not None:
        problem = {
            "detail": f"You hold {_seat_word(names, reader.seat)}'s seat: your phone shows your own "
            f"{ruleset.secret_noun} only.",
            "status": 403,
        }
    elif not reader.may_reveal:
        problem = {"detail": "Only the match's owner and its recorders may show a player's secrets.", "status": 403}
    elif seat is None or not 0 <= seat < len(names):
        problem = {"detail": f"Choose a seat from 0 to {len(names) - 1}.", "status": 400}
    elif seat not in table_seats(match):
        problem = {
            "detail": f"{_seat_word(names, seat)} plays from their own account: only their phone shows their "
            f"{ruleset.secret_noun}.",
            "status": 403,
        }
    if problem:
        return match_detail(request, match_id, problem={"detail": problem["detail"]}, status=problem["status"])
    reveal(request.session, match, seat)
    return redirect(reverse("match", args=[match.pk]) + "#secrets")


def _posted_event(request: HttpRequest, match: Any) -> tuple[str, int | None, Any, Any, dict[str, list[str]]]:
    """Read ``(type, seat, data, raw values, form errors)`` from a move form or a one-click legal move."""
    if request.POST.get("move"):
        try:
            move = json.loads(request.POST["move"])
            if unstorable_path(move) is not None:
                raise ValueError(PROBLEM)
            return move["type"], move.get("seat"), move.get("data", {}), {}, {}
        except (ValueError, KeyError, TypeError):
            return "", None, {}, {}, {"move": ["That move could not be read; pick it again."]}
    type_ = request.POST.get("type", "")
    seat = int_or_none(request.POST.get("seat"))
    spec = event_types_with_meta(get_ruleset(match.game)).get(type_)
    if spec is None:
        return type_, seat, {}, {}, {}
    expand = request.POST.get("expand") == "1"  # the move forms and board forms drawing objects as inputs
    data, errors = parse_inputs(spec.fields, request.POST, "data.", expand=expand)
    return type_, seat, data, request.POST, errors


def _origin(request: HttpRequest, type_: str) -> str:
    """Which control was used, so a refusal is explained next to it: board, legal, form or override."""
    if request.POST.get("origin") in ("board", "legal"):
        return request.POST["origin"]
    if request.POST.get("move"):
        return "board"
    return "override" if type_ == RULE_OVERRIDDEN else "form"


@login_required
@require_POST
def match_record(request: HttpRequest, match_id: int) -> HttpResponse:
    """Record one move from a form; a refusal re-renders the page with the rule and what was typed."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    type_, seat, data, raw, form_errors = _posted_event(request, match)
    problem = {
        "type": type_, "seat": seat, "values": raw, "origin": _origin(request, type_),
        "expected_version": int_or_none(request.POST.get("expected_version")),
        "move_json": request.POST.get("move", ""), "data": data,  # a board marks the cell a refusal names
    }  # fmt: skip
    if form_errors:
        problem["errors"] = form_errors
        return _rerender(request, match, problem, 400)
    if request.POST.get("house_rule"):
        return _record_as_house_rule(request, match, problem, data)
    result, refused = record_or_rerender(
        request,
        lambda **guards: services.match_event_record(
            match=match, user=request.user, type=type_, seat=seat, data=data, rebase=True, **guards
        ),  # a form drawn before another phone's entry is recorded after it when the store's rule allows
        problem,
        lambda problem, status: _rerender(request, match, problem, status),
    )
    if refused:
        return refused
    messages.success(
        request, _recorded_words(match, request.user, result, type_, seat, data) + rebased_words(match, result)
    )
    stream_views.linked_words(request, result)
    return _recorded_answer(request, match)


def _recorded_answer(request: HttpRequest, match: Any) -> HttpResponse:
    """After a recorded move: the page's changed part at once when asked in place (no redirect, no second
    request), else the redirect to the match page (post/redirect/get)."""
    if answered_in_place(request):
        return match_detail(request, match.pk)
    return redirect(reverse("match", args=[match.pk]) + "#board")


def _rerender(request: HttpRequest, match: Any, problem: dict[str, Any], status: int) -> HttpResponse:
    """The match page again with the refusal; field errors are told in the form's words, not as paths."""
    if problem.get("errors"):
        spec = event_types_with_meta(get_ruleset(match.game)).get(problem.get("type", ""))
        words = error_sentence(problem["errors"], spec.fields if spec else (), {"seat": "Player", "type": "Entry"})
        problem["detail"] = f"Please correct {words}"
    return match_detail(request, match.pk, problem=problem, status=status)


def _recorded_words(match: Any, user: Any, result: Any, type_: str, seat: int | None, data: Any) -> str:
    """The bar's sentence after a successful submit: the entry's number and what it says (as the history
    says it to the recorder who just typed it)."""
    if type_ == RULE_OVERRIDDEN:
        return f"Recorded move {result.version}: house rule ({data.get('reason', '')}); the next move is not checked."
    ruleset = get_ruleset(match.game)
    event = Event(type_, seat, data)
    before = None
    if ruleset.describe_uses_state or ruleset.hides_information:
        before = selectors.match_state(match=match, at=result.version - 1, viewer=TABLE).state
    if ruleset.hides_information:  # said as the phone's reader sees it now: the entry ended any reveal
        viewer = viewer_for(user, match)
        event, before = viewer.event(ruleset, event, before), viewer.state(ruleset, before)
    text = describe_entry(ruleset, event, selectors.match_seat_names(match), before=before)
    return f"Recorded move {result.version}: {text}"


def _record_as_house_rule(request: HttpRequest, match: Any, problem: dict[str, Any], data: Any) -> HttpResponse:
    """A refused move recorded anyway, in one step: ``rule_overridden {reason}`` then the move, both or
    neither (the service batch), each guarded like a single entry."""
    reason = request.POST.get("house_rule_reason", "").strip()
    if not reason:
        problem.update(detail="Say why your table plays it this way (the reason goes into the history).")
        problem["errors"] = {"house_rule_reason": ["This field is required."]}
        return match_detail(request, match.pk, problem=problem, status=400)
    result, refused = record_or_rerender(
        request,
        lambda **guards: services.match_house_rule_record(
            match=match, user=request.user, reason=reason, type=problem["type"], seat=problem["seat"], data=data,
            **guards,
        ),
        problem,
        lambda problem, status: _rerender(request, match, problem, status),
    )  # fmt: skip
    if refused:
        return refused
    words = _recorded_words(match, request.user, result, problem["type"], problem["seat"], data)
    messages.success(request, f"{words} (house rule: {reason})")
    stream_views.linked_words(request, result)
    return _recorded_answer(request, match)


match_undo = stream_views.undo_view(
    "match", "match", lambda request, pk, **kw: match_detail(request, pk, **kw), anchor="#board", entry_noun="move"
)


@login_required
@require_POST
def match_recorders(request: HttpRequest, match_id: int) -> HttpResponse:
    """The owner names who else may record (usernames, comma-separated)."""
    from matches.api.common import users_by_name

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


@login_required
@require_POST
def join_link_switch(request: HttpRequest, match_id: int) -> HttpResponse:
    """The owner turns the match's join link on (``action=on``), makes a new one (``new``) or turns it off."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    action = request.POST.get("action", "on")
    try:
        if action == "off":
            joins.join_link_off(match=match, user=request.user)
            messages.success(request, "The join link is off: its QR code seats nobody now.")
        elif action in ("on", "new"):
            joins.join_link_on(match=match, user=request.user, new=action == "new")
            if action == "new":
                messages.success(request, "A new join link: the old one seats nobody now.")
        else:
            raise InvalidInput({"action": ["Choose on, new or off."]})
    except NotAllowed:
        raise  # not the owner: the error page says so (they are shown no join link to switch)
    except DomainError as exc:
        return match_detail(request, match_id, problem={"detail": join_views.words_of(exc)}, status=exc.status_code)
    return redirect(reverse("match", args=[match.pk]) + "#join")


@login_required
@require_POST
def match_rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """Start the same game again: same players, options, title and recorders."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    try:
        new = services.match_rematch(match=match, user=request.user)
    except DomainError as exc:
        return match_detail(request, match_id, problem={"detail": exc.detail}, status=exc.status_code)
    messages.success(
        request, f"Rematch started: same players and options.{_drawn_words(new)} Record the first move below."
    )
    return redirect("match", match_id=new.pk)


@login_required
@require_POST
def match_rename(request: HttpRequest, match_id: int) -> HttpResponse:
    """The owner renames the match."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    try:
        services.match_rename(match=match, user=request.user, title=request.POST.get("title", ""))
    except DomainError as exc:
        return match_detail(request, match_id, problem={"detail": exc.detail}, status=exc.status_code)
    messages.success(request, "Renamed.")
    return redirect("match", match_id=match.pk)


def match_rules(request: HttpRequest, match_id: int) -> HttpResponse:
    """The owner's "Replay under the current rules": GET shows what it would change (winner, scores, the entries
    the current rules would refuse) and writes nothing; POST (the confirmation) records the move as an entry
    (``services.match_rules_upgrade``); a refusal is shown on this page, nothing written."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    if not request.user.is_authenticated or request.user.pk != match.owner_id:
        return render(
            request, "frontend/error.html",
            {"title": "Not allowed", "message": "Only the match's owner may replay it under the current rules."},
            status=403,
        )  # fmt: skip
    problem = ""
    status = 200
    if request.method == "POST":
        raw = request.POST.get("expected_version", "")
        try:
            expected = int_or_none(raw)
            if raw and expected is None:
                raise InvalidInput({"expected_version": ["This page is out of date: look at the difference again."]})
            services.match_rules_upgrade(
                match=match, user=request.user, expected_version=expected,
                idempotency_key=request.POST.get("idempotency_key") or None,
            )  # fmt: skip
        except DomainError as exc:
            problem = (
                exc.detail if not isinstance(exc, InvalidInput) else " ".join(m for v in exc.errors.values() for m in v)
            )
            status = exc.status_code
        else:
            messages.success(request, "Replayed under the current rules; the history keeps every entry.")
            return redirect("match", match_id=match.pk)
    elif request.method != "GET":
        return HttpResponseNotAllowed(["GET", "POST"])
    names = selectors.match_seat_names(match)
    ruleset = get_ruleset(match.game)
    diff = difference_json(ruleset, rules_difference(match.stream_id, names), names)
    context = {
        "match": match, "ruleset": ruleset, "diff": diff, "problem": problem, "latest": match.stream.version,
        "idempotency_key": uuid.uuid4().hex, "seat_names": names,
    }  # fmt: skip
    return render(request, "frontend/match_rules.html", context, status=status)


match_history = stream_views.history_view(
    "match", "match", anchor="#board", template="frontend/match_history.html"
)  # the log as a timeline, voided entries struck through, each linked to its replay position
