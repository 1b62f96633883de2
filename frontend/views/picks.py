"""The board's picks drawn ahead (issue 47 item 2): ``GET /matches/<id>/picks/`` answers, for the match's head as
this reader sees it, the board the match page would draw at each link of its board (a picked token, a card, a
cell…), so a pick is drawn on the phone from what it already has, whatever the network does
(``static/frontend/offline/table-picks.js``)."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any
from urllib.parse import parse_qsl

from django.http import HttpRequest, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from campaigns.saltmarsh.selectors import adventure_match_closed
from frontend.boards import shared as boards
from frontend.forms.inputs import recordable
from frontend.forms.recording import moves_in_sight
from frontend.offline.board import PICKS_MAX, link_queries
from matches import selectors
from matches.store.visibility import can_record, viewer_for, writer_sight
from rulesets import get_ruleset


@require_GET
@never_cache
def match_picks(request: HttpRequest, match_id: int) -> JsonResponse:
    """``{version, picks: {query: html}}``: the board of the head (``""``) and of each link it has (``PICKS_MAX``
    at most), as ``frontend.views.matches.match_detail`` draws them at those addresses; ``picks`` is empty for a
    reader who may not record here (no link of theirs is a pick) and once the game is over. 404 as the page."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    recorder = can_record(request.user, match)
    viewer = viewer_for(request.user, match, session=request.session)
    ms = selectors.match_state(match=match, viewer=viewer)
    closed = adventure_match_closed(match=match) if match.campaign_id else None
    final = bool(ms.outcome) and not ms.outcome.get("provisional")
    if not recorder or closed is not None or final:
        return JsonResponse({"version": ms.version, "picks": {}})
    ruleset = get_ruleset(match.game)
    moves = (
        viewer.moves(ruleset, ms.state)
        if viewer.everything
        else selectors.match_legal_moves(match=match, viewer=viewer)
    )
    sight = writer_sight(request.user, match, records=True)
    legal = moves_in_sight(ruleset, recordable(ruleset, moves), sight)
    facts = boards.table_facts(match, request, records=recorder, sight=sight)

    def draw(query: dict[str, str]) -> str:
        at = dataclasses.replace(facts, query=query)  # the loaded times, moves and seat are shared
        board = boards.board_for(ruleset=ruleset, ms=ms, legal=legal, facts=at, can_record=True, problem={})
        context: dict[str, Any] = {"board": board, "ms": ms, "match": match, "idempotency_key": uuid.uuid4().hex}
        return render_to_string(board["template"], context, request)

    drawn = {"": draw({})}
    facts.photos = facts.photo_list()  # read once, for every board
    for query in link_queries(drawn[""], facts.page_url)[:PICKS_MAX]:
        drawn[query] = draw(dict(parse_qsl(query, keep_blank_values=True)))
    return JsonResponse({"version": ms.version, "picks": drawn})
