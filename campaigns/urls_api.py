"""API routes for campaigns and series."""

from django.urls import path

from campaigns.saltmarsh import api
from campaigns.series import api as series_api
from matches.api.photos import photo_routes
from matches.api.streams import StreamEventsApi

urlpatterns = [
    path("campaigns/", api.CampaignListCreateApi.as_view(), name="api-campaigns"),
    path("campaigns/<int:campaign_id>/", api.CampaignDetailApi.as_view(), name="api-campaign"),
    path(
        "campaigns/<int:campaign_id>/events/",
        StreamEventsApi.as_view(kind="campaign", lookup="campaign_id"),
        name="api-campaign-events",
    ),
    *photo_routes("campaigns/<int:campaign_id>/", "campaign", "campaign_id"),
    path("campaigns/<int:campaign_id>/events/batch/", api.CampaignBatchApi.as_view(), name="api-campaign-batch"),
    path("campaigns/<int:campaign_id>/sheet/", api.CampaignSheetApi.as_view(), name="api-campaign-sheet"),
    path("campaigns/<int:campaign_id>/ledger/", api.CampaignLedgerApi.as_view(), name="api-campaign-ledger"),
    path("campaigns/<int:campaign_id>/adventures/", api.CampaignAdventureApi.as_view(), name="api-campaign-adventures"),
    path("series/", series_api.SeriesListCreateApi.as_view(), name="api-series-list"),
    path("series/<int:series_id>/", series_api.SeriesDetailApi.as_view(), name="api-series"),
    path(
        "series/<int:series_id>/events/",
        StreamEventsApi.as_view(kind="series", lookup="series_id"),
        name="api-series-events",
    ),
    path("series/<int:series_id>/standings/", series_api.SeriesStandingsApi.as_view(), name="api-series-standings"),
]
