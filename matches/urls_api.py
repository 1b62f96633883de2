"""API routes for matches and games."""

from django.urls import path

from matches.api import matches as api
from matches.api import people as people_api
from matches.api.photos import photo_routes
from matches.api.streams import StreamEventsApi
from matches.interop import api as interop_api
from matches.stats import api as stats_api

urlpatterns = [
    path("matches/", api.MatchListCreateApi.as_view(), name="api-matches"),
    path("matches/<int:match_id>/", api.MatchDetailApi.as_view(), name="api-match"),
    path(
        "matches/<int:match_id>/events/",
        StreamEventsApi.as_view(kind="match", lookup="match_id"),
        name="api-match-events",
    ),
    *photo_routes("matches/<int:match_id>/", "match", "match_id"),
    path("matches/<int:match_id>/state/", api.MatchStateApi.as_view(), name="api-match-state"),
    path("matches/<int:match_id>/recorders/", api.MatchRecordersApi.as_view(), name="api-match-recorders"),
    path("matches/<int:match_id>/legal-moves/", api.MatchLegalMovesApi.as_view(), name="api-match-legal-moves"),
    path("matches/<int:match_id>/rules/", api.MatchRulesApi.as_view(), name="api-match-rules"),
    path("games/", api.GameListApi.as_view(), name="api-games"),
    path("games/<slug:slug>/", api.GameDetailApi.as_view(), name="api-game"),
    path("players/<int:player_id>/invite/", people_api.PlayerInviteApi.as_view(), name="api-player-invite"),
    path("players/<int:player_id>/merge/", people_api.PlayerMergeApi.as_view(), name="api-player-merge"),
    path("players/claim/", people_api.PlayerClaimApi.as_view(), name="api-player-claim"),
    path("matches/<int:match_id>/join-link/", people_api.MatchJoinLinkApi.as_view(), name="api-match-join-link"),
    path("join/<str:token>/", people_api.JoinApi.as_view(), name="api-join"),
    path("stats/players/", stats_api.PlayerStatsListApi.as_view(), name="api-stats-players"),
    path("stats/players/<int:player_id>/", stats_api.PlayerStatsDetailApi.as_view(), name="api-stats-player"),
    path("stats/me/", stats_api.MyStatsApi.as_view(), name="api-stats-me"),
    path("stats/games/<slug:slug>/", stats_api.GameStatsApi.as_view(), name="api-stats-game"),
    path("export/bgstats/", interop_api.BgStatsExportApi.as_view(), name="api-export-bgstats"),
    path("export/bgg/", interop_api.BggXmlExportApi.as_view(), name="api-export-bgg"),
    path("import/bgstats/", interop_api.BgStatsImportApi.as_view(), name="api-import-bgstats"),
    path("import/bgg/", interop_api.BggImportApi.as_view(), name="api-import-bgg"),
    path("import/jobs/<int:pk>/", interop_api.ImportJobApi.as_view(), name="api-import-job"),
    path("import/this-is-me/", interop_api.ThisIsMeApi.as_view(), name="api-import-this-is-me"),
]
