"""The campaign and series stream kinds (see ``matches.store.streams``), and the campaign's hook on adventure matches:
registered when the app is ready, so ``matches`` never imports ``campaigns``."""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign, Series
from campaigns.saltmarsh.services import campaign_entry_clean
from campaigns.series.services import SERIES_GAME, series_entry_clean
from campaigns.series.sight import series_viewer
from matches.models import Match
from matches.store import events as store
from matches.store.streams import Append, StreamKind, around_record, kind_register
from matches.store.visibility import viewer_narrow_register

CAMPAIGN = kind_register(
    StreamKind(
        name="campaign", noun="campaign", model=Campaign, clean_entry=campaign_entry_clean,
        not_allowed="Only the campaign's owner and the recorders they named may record.",
    )
)  # fmt: skip
SERIES = kind_register(StreamKind(name="series", noun="series", model=Series, clean_entry=series_entry_clean))
viewer_narrow_register(SERIES_GAME, series_viewer)  # a series shows a match only to those who may see it


@around_record("match")
def _adventure_follows_match(match: Match, user: Any, append: Append, request_id: str) -> store.AppendResult:
    """An adventure match of a campaign writes the campaign entries it implies in the same transaction
    (``campaigns.saltmarsh.bridge``); any other match just appends."""
    if match.campaign_id is None:
        return append()
    from campaigns.saltmarsh.bridge import adventure_match_record

    return adventure_match_record(match=match, user=user, record=append, request_id=request_id)
