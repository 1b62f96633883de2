"""The event store tables (streams, events, snapshots) and the match aggregate with its read models."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

MAX_VERSION = 2**31 - 1  # the version columns' range (PositiveIntegerField): no stream gets longer


def game_name(slug: str) -> str:
    """A game's name for people: the ruleset's name ("Bone Wars"); the slug only for a game no longer known."""
    from rulesets import get_ruleset

    try:
        return get_ruleset(slug).name
    except KeyError:
        return slug


class Stream(models.Model):
    """One event stream and its head: the latest state and version, kept in the append's transaction."""

    KIND_MATCH = "match"
    KIND_CAMPAIGN = "campaign"
    KIND_SERIES = "series"

    kind = models.CharField(
        max_length=16, choices=[(KIND_MATCH, "Match"), (KIND_CAMPAIGN, "Campaign"), (KIND_SERIES, "Series")]
    )
    game = models.CharField(max_length=64)
    options = models.JSONField(default=dict)
    seat_count = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField()
    override_pending = models.BooleanField(default=False)
    ruleset_version = models.PositiveIntegerField(default=1)  # the ruleset code that produced ``state``
    # the rules the stream is judged under: the version it was recorded with, until its owner moves it to the
    # current rules (a ``rules_upgraded`` entry; docs/ARCHITECTURE.md › Rule versions)
    rules_version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.kind} stream {self.pk} ({self.game} v{self.version})"


class ImmutableQuerySet(models.QuerySet):
    """Events are never edited: bulk ``update`` and ``delete`` refuse."""

    def update(self, **kwargs: object) -> int:
        raise ImmutableEventError("Events are append-only; record a correction event instead.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ImmutableEventError("Events are append-only; record a correction event instead.")


class ImmutableEventError(Exception):
    """Raised by any attempt to change a stored event through the ORM."""


class Event(models.Model):
    """One immutable recorded fact. ``position`` is global; ``version`` counts 1..n within its stream.

    Nothing updates or deletes a row (on PostgreSQL a trigger refuses it). On PostgreSQL a ``txid xid8``
    column (added by migration, not mapped here) lets log readers skip nothing; see docs/ARCHITECTURE.md.
    """

    position = models.BigAutoField(primary_key=True)
    stream = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="events", db_index=False)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    seat = models.SmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    client_time = models.DateTimeField(null=True, blank=True)
    request_id = models.CharField(max_length=64, blank=True, default="")
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001 (NULL = no key; unique)
    # a digest of (type, seat, data) stored with a key: the same key with another payload is refused
    request_fingerprint = models.CharField(max_length=64, blank=True, default="", db_default="")
    recorded_at = models.DateTimeField()

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream", "version"], name="event_stream_version_unique"),
            # partial: most appends carry no key and then cost no index write
            models.UniqueConstraint(
                fields=["stream", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="event_stream_idempotency_unique",
            ),
        ]
        # only corrections (voids, when folding) and photos (a page lists a stream's) are looked up by type; other
        # events need no entry
        indexes = [
            models.Index(fields=["stream", "version"], condition=models.Q(type="event_voided"), name="event_voids_idx"),
            models.Index(
                fields=["stream", "version"],
                condition=models.Q(type__in=["photo_added", "photo_removed"]),
                name="event_photos_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.position} {self.type} (stream {self.stream_id} v{self.version})"

    def save(self, *args: object, **kwargs: object) -> None:
        if not self._state.adding:
            raise ImmutableEventError("Events are append-only; record a correction event instead.")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ImmutableEventError("Events are append-only; record a correction event instead.")


class Snapshot(models.Model):
    """The folded state of a stream at ``version``; a cache that makes ``state at N`` cheap."""

    stream = models.ForeignKey(Stream, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    state = models.JSONField()
    override_pending = models.BooleanField(default=False)
    ruleset_version = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stream", "version"], name="snapshot_stream_version_unique")]

    def __str__(self) -> str:
        return f"snapshot of stream {self.stream_id} at v{self.version}"


class Player(models.Model):
    """A person at the table, remembered by name per owner, optionally linked to a user account."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="as_players"
    )
    # Set by a PlayerMerge: this name was a duplicate of another player (the matches keep their seats).
    merged_into = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint("owner", Lower("name"), name="player_owner_name_unique")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PlayerMerge(models.Model):
    """An append-only record that ``source`` is the same person as ``target`` (a typo'd or second name).

    Match logs and seats are never rewritten: reads and the stats projection follow ``Player.merged_into``.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    source = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    target = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200, blank=True, default="")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        ordering = ["recorded_at"]

    def __str__(self) -> str:
        return f"{self.source_id} merged into {self.target_id}"

    def save(self, *args: object, **kwargs: object) -> None:
        if not self._state.adding:
            raise ImmutableEventError("A player merge is recorded once and never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ImmutableEventError("A player merge is never deleted.")


class Match(models.Model):
    """One game played at a table: a stream of events plus who sits where and who may record."""

    STATUS_IN_PROGRESS = "in_progress"
    STATUS_FINISHED = "finished"
    STATUS_CHOICES = [(STATUS_IN_PROGRESS, "In progress"), (STATUS_FINISHED, "Finished")]

    stream = models.OneToOneField(Stream, on_delete=models.PROTECT, related_name="match")
    game = models.CharField(max_length=64, db_index=True)
    title = models.CharField(max_length=120, blank=True, default="")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_matches")
    recorders = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="recorded_matches")
    is_public = models.BooleanField(default=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=STATUS_IN_PROGRESS, db_index=True)
    campaign = models.ForeignKey(
        "campaigns.Campaign", null=True, blank=True, on_delete=models.PROTECT, related_name="adventure_matches"
    )
    # When and how the game was played, for matches logged after the fact or imported (else from the events).
    played_at = models.DateTimeField(null=True, blank=True)
    duration_min = models.PositiveIntegerField(null=True, blank=True)
    location = models.CharField(max_length=120, blank=True, default="")
    first_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    source_uuid = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (NULL = not imported)
    # Imported plays (matches.interop): where from, BG Stats' "ignore for stats", and what the source told
    # that has no column (expansions, rounds, comments, the local play date, each seat's score text, team...).
    source = models.CharField(max_length=16, blank=True, default="")
    ignored = models.BooleanField(default=False)
    details = models.JSONField(default=dict, blank=True)
    # The client's key for the request that created it (a phone retrying, a match started offline): the same
    # key from the same owner returns this match (services.match_create); the fingerprint is what was asked.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001 (NULL = no key)
    request_fingerprint = models.CharField(max_length=64, blank=True, default="", db_default="")  # bulk inserts
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    repeated = False  # not stored: set on the match a repeated idempotency key returned (services.match_create)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "source_uuid"],
                condition=models.Q(source_uuid__isnull=False),
                name="match_owner_source_uuid_unique",
            ),
            models.UniqueConstraint(
                fields=["owner", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="match_owner_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"{self.game_name} #{self.pk}"

    @property
    def game_name(self) -> str:
        """The game's name as printed ("The First Spine"), never its slug."""
        return game_name(self.game)


class Seat(models.Model):
    """Seat ``index`` of a match and the player in it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="seat_match_index_unique")]

    def __str__(self) -> str:
        return f"{self.index}: {self.player}"


class JoinLink(models.Model):
    """A link (and its QR code) the owner shows at the table: a friend who opens it takes a free seat of the
    match with their own account (``matches.people.joins``). ``token`` is unguessable (``secrets``); the owner
    turns a link off (``revoked_at``) and may show a new one; a match has at most one link that is on."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="join_links")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=models.Q(revoked_at__isnull=True), name="join_link_one_on_per_match"
            )
        ]

    def __str__(self) -> str:
        return f"join link of match {self.match_id}{' (off)' if self.revoked_at else ''}"


class MatchSummary(models.Model):
    """Read model kept by the projector from the global log: one row per match."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="summary")
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, default=Match.STATUS_IN_PROGRESS)
    winners = models.JSONField(default=list)
    draw = models.BooleanField(default=False)
    reason = models.CharField(max_length=200, blank=True, default="")
    scores = models.JSONField(null=True, blank=True)
    events_count = models.PositiveIntegerField(default=0)
    voided_count = models.PositiveIntegerField(default=0)
    last_activity = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"summary of match {self.match_id} at v{self.version}"


class ProjectionCheckpoint(models.Model):
    """How far a projector has read the global log, saved in the transaction of its read-model writes."""

    name = models.CharField(max_length=64, primary_key=True)
    txid = models.BigIntegerField(default=0)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.name} at {self.position}"


class Catalog(models.Model):
    """User-editable game data a match can be created with (e.g. a Salt & Bones card list), by owner and game.

    ``data`` holds option values for the game (for Salt & Bones: ``attack_cards``, ``strategy_cards`` and
    optionally ``board``); a match copies them into its own options, so later edits never change a
    recorded match.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="catalogs")
    game = models.CharField(max_length=64)
    name = models.CharField(max_length=120)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "name"]
        constraints = [models.UniqueConstraint(fields=["owner", "game", "name"], name="catalog_owner_game_name_unique")]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"


class PlayedMatch(models.Model):
    """Read model kept by the ``play_stats`` projector: one row per finished match, for the dashboards.

    ``played_at`` is when the game was played (``Match.played_at`` when logged after the fact, else the first
    entry's time); ``minutes`` comes from ``Match.duration_min`` or the entries' times; ``facts`` are the
    ruleset's ``insights`` of the final state (e.g. Get Salty's winning attribute).
    """

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="played")
    game = models.CharField(max_length=64)
    # the match's visibility, copied so that reads filter without joining matches (both fixed at creation)
    is_public = models.BooleanField(default=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    title = models.CharField(max_length=120, blank=True, default="")  # a score sheet's game name
    played_at = models.DateTimeField()
    seats = models.PositiveSmallIntegerField()
    first_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    winners = models.JSONField(default=list)
    draw = models.BooleanField(default=False)
    moves = models.PositiveIntegerField(default=0)
    minutes = models.PositiveIntegerField(null=True, blank=True)
    facts = models.JSONField(default=dict)

    class Meta:
        indexes = [models.Index(fields=["game", "played_at"], name="played_game_time_idx")]

    def __str__(self) -> str:
        return f"played {self.game} #{self.match_id}"


class PlayerResult(models.Model):
    """Read model kept by the ``play_stats`` projector: one row per seat of a finished match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    game = models.CharField(max_length=64)
    is_public = models.BooleanField(default=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    title = models.CharField(max_length=120, blank=True, default="")  # a score sheet's game name
    played_at = models.DateTimeField()
    won = models.BooleanField(default=False)
    drawn = models.BooleanField(default=False)
    started = models.BooleanField(default=False)
    score = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="result_match_seat_unique")]
        indexes = [
            models.Index(fields=["player", "played_at"], name="result_player_time_idx"),
            models.Index(fields=["game", "played_at"], name="result_game_time_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in match {self.match_id}"

    @property
    def lost(self) -> bool:
        return not self.won and not self.drawn


# the key of a roll-up row (game before month: one game's months are one index range)
ROLLUP_KEY = ("kind", "game", "month", "title", "is_public", "owner", "player_id", "other_id", "seat", "started",
              "value")  # fmt: skip


class StatsRollup(models.Model):
    """Read model kept by the ``play_stats`` projector beside :class:`PlayedMatch` and :class:`PlayerResult`:
    their figures already counted, per visibility class (``is_public``, ``owner``), game and score-sheet title,
    at two grains (``month`` = yyyymm in ``TIME_ZONE``, or 0 for all time). See ``matches/projections/rollups.py``.

    ``kind`` says what a row counts (``n`` rows, ``won``/``drawn`` among them): ``match`` (finished matches),
    ``player`` (seat results per player and whether they started), ``seat`` (per seat index), ``pair`` (a
    player's results against each ``other`` player at the table), ``moves``/``minutes``/``score`` (how many
    matches or seats had that ``value``). Unused dimensions hold 0 / -1 / false, so every row has one key.
    """

    kind = models.CharField(max_length=8)
    month = models.IntegerField()
    game = models.CharField(max_length=64)
    title = models.CharField(max_length=120, blank=True, default="")
    is_public = models.BooleanField()
    # no database constraint: the projector upserts about 14 rows a play (70,632 for 5,000 imported plays) and
    # PostgreSQL would check each one's owner at commit; the owner's deletion still takes its rows (Django's
    # CASCADE), and the read model is rebuilt from the log anyway (docs/PERFORMANCE.md, bench import)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    player_id = models.IntegerField(default=0)  # a plain id: 0 for none (a merge re-points rows here too)
    other_id = models.IntegerField(default=0)
    seat = models.SmallIntegerField(default=-1)
    started = models.BooleanField(default=False)
    value = models.FloatField(default=0)
    n = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    drawn = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=list(ROLLUP_KEY), name="rollup_key_unique"),
        ]
        indexes = [
            models.Index(fields=["kind", "player_id", "month"], name="rollup_player_idx"),
            models.Index(fields=["kind", "month"], name="rollup_kind_month_idx"),
            models.Index(fields=["kind"], condition=models.Q(n=0), name="rollup_empty_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.game} {self.month}: {self.n}"


class MatchFact(models.Model):
    """Read model kept by the ``play_stats`` projector: one row per insight value of a finished match
    (``key`` e.g. "winning line", ``value`` e.g. "row"), so dashboards count them with one GROUP BY."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="facts")
    game = models.CharField(max_length=64)
    played_at = models.DateTimeField()
    key = models.CharField(max_length=64)
    value = models.CharField(max_length=120)

    class Meta:
        indexes = [models.Index(fields=["game", "key"], name="fact_game_key_idx")]

    def __str__(self) -> str:
        return f"{self.key}={self.value} in match {self.match_id}"


from matches.interop.models import ImportJob  # noqa: E402, F401  (declared with the import code, in this app)
