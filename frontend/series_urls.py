"""Series page routes, included from ``frontend.urls`` under ``series/``."""

from django.urls import path

from frontend.views import series as views

urlpatterns = [
    path("", views.series_list, name="series-list"),
    path("<int:series_id>/", views.series_detail, name="series-detail"),
    path("<int:series_id>/record/", views.series_record, name="series-record"),
    path("<int:pk>/undo/", views.series_undo, name="series-undo"),
    path("<int:pk>/history/", views.series_history, name="series-history"),
    path("<int:series_id>/standings.csv", views.series_csv, name="series-csv"),
]
