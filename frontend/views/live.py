"""The live table: a tiny, cacheable answer saying which version a match is at, polled by the match page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from frontend.selectors import match_version
from matches.people import joins


@require_GET
def match_version_view(request: HttpRequest, match_id: int) -> HttpResponse:
    """``{"version": n}`` with an ETag; a poll that names the current ETag gets an empty 304.

    ``private, no-cache``: a browser keeps the answer but asks again each time (the ETag makes that cheap);
    shared caches never keep it, since private matches answer only their recorders.
    """
    version = match_version(user=request.user, match_id=match_id)
    answer: dict[str, int] = {"version": version}
    if request.GET.get("seats") == "1":  # the owner's join box follows the seats taken (joins.seats_held)
        answer["seated"] = joins.seats_held(match_id)
    etag = f'"m{match_id}v{version}' + (f's{answer["seated"]}"' if "seated" in answer else '"')
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse(answer)
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response
