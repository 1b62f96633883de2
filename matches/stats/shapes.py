"""The statistics API's answers, declared once: each shape is what a ``to_dict()`` / selector in
``matches.stats`` (and the ``campaigns`` dashboard part) builds, for the schema (response-only)."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from config.api import Shape


class PlayerRefOutput(Shape):
    """``matches.stats.selectors.player_ref(player)``: one declaration, shared with the people API."""

    player = serializers.CharField(help_text="the player's name")
    player_id = serializers.IntegerField()
    owner = serializers.CharField()
    initials = serializers.CharField()
    colour = serializers.CharField()
    user = serializers.CharField(allow_null=True)


class RecordOutput(Shape):
    """``Record.to_dict()``: finished matches played / won / drawn / lost; ``win_rate`` in percent (null before any)."""

    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    win_rate = serializers.IntegerField(allow_null=True)


class PlayerRecordOutput(PlayerRefOutput, RecordOutput):
    """A player with their record (the players table, head-to-head, a game's top players)."""


class GameRecordOutput(RecordOutput):
    game = serializers.CharField()
    title = serializers.CharField(help_text="a score sheet's own title ('' for a game)")
    name = serializers.CharField()


class MonthGamesOutput(Shape):
    month = serializers.CharField(help_text="YYYY-MM")
    games = serializers.DictField(child=serializers.IntegerField(), help_text="plays per game name")
    plays = serializers.IntegerField()


class StreakOutput(Shape):
    kind = serializers.ChoiceField(choices=["win", "loss", "draw"], allow_null=True)
    length = serializers.IntegerField()


class StreaksOutput(Shape):
    current = StreakOutput()
    longest_win = serializers.IntegerField()


class PlayerDashboardOutput(PlayerRefOutput):
    """``PlayerDashboard.to_dict()``: the main player's ref, then the figures over all of ``players``."""

    players = PlayerRefOutput(many=True)
    overall = RecordOutput()
    by_game = GameRecordOutput(many=True)
    by_month = MonthGamesOutput(many=True)
    streaks = StreaksOutput()
    head_to_head = PlayerRecordOutput(many=True)
    favourite_games = GameRecordOutput(many=True)
    first_player = RecordOutput()
    recent = serializers.ListField(child=serializers.IntegerField(), help_text="the latest matches, newest first")


class NoDashboardOutput(Shape):
    """The signed-in person's dashboard when no player is linked to them."""

    players = serializers.ListField(child=serializers.IntegerField(), max_length=0)
    overall = RecordOutput()


MY_DASHBOARD = PolymorphicProxySerializer(
    component_name="MyDashboardOutput",
    serializers=[PlayerDashboardOutput, NoDashboardOutput],
    resource_type_field_name=None,
)


class MonthPlaysOutput(Shape):
    month = serializers.CharField(help_text="YYYY-MM")
    plays = serializers.IntegerField()


class SeatRecordOutput(RecordOutput):
    seat = serializers.IntegerField()


class SpreadOutput(Shape):
    """``_spread``: count, then mean, median, min, max (null when the count is 0)."""

    count = serializers.IntegerField()
    mean = serializers.FloatField(allow_null=True)
    median = serializers.FloatField(allow_null=True)
    min = serializers.FloatField(allow_null=True)
    max = serializers.FloatField(allow_null=True)


# ``from`` is a Python keyword: the class is built from its field mapping
BucketOutput = type(
    "BucketOutput",
    (Shape,),
    {
        "__doc__": "A bucket: ``from`` inclusive, ``to`` exclusive (the last one closed).",
        "__module__": __name__,
        "from": serializers.FloatField(),
        "to": serializers.FloatField(),
        "count": serializers.IntegerField(),
    },
)


class HistogramOutput(SpreadOutput):
    buckets = BucketOutput(many=True)


class LengthOutput(Shape):
    moves = SpreadOutput()
    minutes = SpreadOutput()


class RateOutput(Shape):
    concluded = serializers.IntegerField()
    completed = serializers.IntegerField()
    failed = serializers.IntegerField()
    success_rate = serializers.IntegerField(allow_null=True, help_text="percent (null before any)")


class CampaignAdventureRowOutput(Shape):
    number = serializers.IntegerField()
    adventure = serializers.CharField()
    result = serializers.ChoiceField(choices=["completed", "failed"])
    party_gold = serializers.IntegerField()


class CampaignGoldOutput(Shape):
    campaign_id = serializers.IntegerField()
    name = serializers.CharField()
    adventures = CampaignAdventureRowOutput(many=True)


class AdventureRateOutput(RateOutput):
    adventure = serializers.CharField()


class CampaignFiguresOutput(Shape):
    """``campaigns.saltmarsh.stats.campaign_figures``: an adventure game's campaigns."""

    campaigns = CampaignGoldOutput(many=True)
    success = RateOutput()
    by_adventure = AdventureRateOutput(many=True)


class GameDashboardOutput(Shape):
    """``game_dashboard``: one game's figures (``campaigns`` only for an adventure game)."""

    game = serializers.CharField()
    title = serializers.CharField(allow_null=True, help_text="the score sheet title filtered on (null: none)")
    name = serializers.CharField()
    plays = serializers.IntegerField()
    draws = serializers.IntegerField()
    by_month = MonthPlaysOutput(many=True)
    seats = SeatRecordOutput(many=True)
    first_player = RecordOutput()
    length = LengthOutput()
    scores = HistogramOutput()
    insights = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()), help_text="fact → value → matches"
    )
    insight_figures = serializers.DictField(child=HistogramOutput(), help_text="numeric facts' distributions")
    top_players = PlayerRecordOutput(many=True)
    campaigns = CampaignFiguresOutput(required=False)
