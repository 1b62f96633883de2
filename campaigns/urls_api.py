"""API routes for campaigns."""

from django.urls import path

from campaigns import api

urlpatterns = [
    path("campaigns/", api.CampaignListCreateApi.as_view(), name="api-campaigns"),
    path("campaigns/<int:campaign_id>/", api.CampaignDetailApi.as_view(), name="api-campaign"),
    path("campaigns/<int:campaign_id>/events/", api.CampaignEventsApi.as_view(), name="api-campaign-events"),
    path("campaigns/<int:campaign_id>/events/batch/", api.CampaignBatchApi.as_view(), name="api-campaign-batch"),
    path("campaigns/<int:campaign_id>/sheet/", api.CampaignSheetApi.as_view(), name="api-campaign-sheet"),
    path("campaigns/<int:campaign_id>/ledger/", api.CampaignLedgerApi.as_view(), name="api-campaign-ledger"),
    path("campaigns/<int:campaign_id>/adventures/", api.CampaignAdventureApi.as_view(), name="api-campaign-adventures"),
]
