"""Campaign page routes, included from ``frontend.urls`` under ``campaigns/``."""

from django.urls import path

from frontend.views import campaigns as views
from frontend.views.photos import photo_urls

urlpatterns = [
    path("", views.campaign_list, name="campaign-list"),
    path("<int:campaign_id>/", views.campaign_detail, name="campaign-detail"),
    path("<int:campaign_id>/record/", views.campaign_record, name="campaign-record"),
    path("<int:campaign_id>/undo/", views.campaign_undo, name="campaign-undo"),
    path("<int:campaign_id>/adventure/", views.campaign_adventure_new, name="campaign-adventure"),
    path("<int:campaign_id>/town/", views.campaign_town, name="campaign-town"),
    path("<int:campaign_id>/ledger/", views.campaign_ledger, name="campaign-ledger"),
    path("<int:campaign_id>/history/", views.campaign_history, name="campaign-history"),
    path("<int:campaign_id>/sheet.csv", views.campaign_sheet_csv, name="campaign-sheet-csv"),
    *photo_urls("campaign", "<int:pk>/", "campaign-detail", views.campaign_detail),
    path("<int:campaign_id>/sheet.json", views.campaign_sheet_json, name="campaign-sheet-json"),
]
