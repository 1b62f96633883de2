"""The campaign and series stream kinds (see ``matches.streams``): registered when the app is ready."""

from __future__ import annotations

from campaigns.models import Campaign, Series
from campaigns.series import series_entry_clean
from campaigns.services import campaign_entry_clean
from matches.streams import StreamKind, kind_register

CAMPAIGN = kind_register(StreamKind(name="campaign", noun="campaign", model=Campaign, clean_entry=campaign_entry_clean))
SERIES = kind_register(StreamKind(name="series", noun="series", model=Series, clean_entry=series_entry_clean))
