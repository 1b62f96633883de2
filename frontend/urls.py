"""Web page routes."""

from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from frontend.offline import views as offline_views
from frontend.views import interop as interop_views
from frontend.views import joins as join_views
from frontend.views import live as live_views
from frontend.views import matches as views
from frontend.views import picks as picks_views
from frontend.views import quicklog as quicklog_views
from frontend.views import stats as stats_views
from frontend.views.accounts import LoginView, api_token, form_token, signup
from frontend.views.photos import photo_urls

urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", offline_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline_views.manifest, name="manifest"),
    path("no-connection/", offline_views.offline, name="offline"),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/token/", api_token, name="api-token-page"),
    path("accounts/form-token/", form_token, name="form-token"),
    path("matches/", views.match_list, name="match-list"),
    path("players/<int:player_id>/", stats_views.player_page, name="player"),
    path("players/claim/<str:token>/", stats_views.player_claim_page, name="player-claim"),
    path("games/", stats_views.game_index, name="game-index"),
    path("games/<slug:slug>/", stats_views.game_page, name="game-stats"),
    path("stats/players/", stats_views.players_page, name="stats-players"),
    path("matches/log/", quicklog_views.match_log, name="match-log"),
    path("stats/me/", stats_views.my_page, name="stats-me"),
    path("stats/import-export/", interop_views.interop_page, name="stats-interop"),
    path("stats/import-export/jobs/<int:job_id>/", interop_views.import_job_page, name="import-job"),
    path("stats/import-export/jobs/<int:job_id>/me/", interop_views.import_job_me, name="import-job-me"),
    path("matches/new/", views.match_new, name="match-new"),
    path("matches/local/", offline_views.match_local, name="match-local-shell"),
    re_path(r"^matches/(?P<local_id>local-[0-9a-f-]{8,64})/$", offline_views.match_local, name="match-local"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("matches/<int:match_id>/record/", views.match_record, name="match-record"),
    path("matches/<int:match_id>/undo/", views.match_undo, name="match-undo"),
    path("matches/<int:match_id>/reveal/", views.match_reveal, name="match-reveal"),
    path("matches/<int:match_id>/recorders/", views.match_recorders, name="match-recorders"),
    path("matches/<int:match_id>/history/", views.match_history, name="match-history"),
    path("matches/<int:match_id>/version/", live_views.match_version_view, name="match-version"),
    path("matches/<int:match_id>/picks/", picks_views.match_picks, name="match-picks"),
    path("matches/<int:match_id>/live/", live_views.match_live_view, name="match-live-stream"),
    path("matches/<int:match_id>/rematch/", views.match_rematch, name="match-rematch"),
    path("matches/<int:match_id>/rename/", views.match_rename, name="match-rename"),
    path("matches/<int:match_id>/rules/", views.match_rules, name="match-rules"),
    path("matches/<int:match_id>/join-link/", views.join_link_switch, name="match-join-link"),
    path("join/<str:token>/", join_views.join_page, name="match-join"),
    *photo_urls("match", "matches/<int:pk>/", "match", views.match_detail),
    path("campaigns/", include("frontend.campaign_urls")),
    path("catalogs/", include("frontend.catalog_urls")),
    path("series/", include("frontend.series_urls")),
]
