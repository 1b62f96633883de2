"""The live table's wake-ups: "stream S moved", told to every web process, and the per-process hub that wakes the
pages watching S (issue 42; docs/ARCHITECTURE.md › The live table).

A wake-up carries a stream id and nothing else: never an entry, a state or a secret. What a watching page is then
sent is read afresh, per reader, through the rule of sight (``frontend.views.live``), so a message on Redis can
tell nobody anything.

- **Told** (:func:`stream_moved`): after the commit of every new entry (``matches.store.streams``), and when who may
  see a stream changes (recorders named or removed, a seat's account, the match made private: the model signals
  in ``matches.apps``), so a reader who lost access is told at once. With ``REDIS_URL`` the wake-up is published
  on the Redis channel :data:`CHANNEL` (every web process hears it); the process that wrote also wakes its own
  watchers directly, so the embedded default (no Redis, one process) and a Redis outage still reach them.
  Publishing never holds up or fails a write: a short timeout, and an outage is logged once (``config.outage``).
- **Heard** (:class:`Hub`, one per process and event loop): one Redis subscription per process, whatever the
  number of watchers; each watcher waits on its own :class:`asyncio.Event`. While Redis is unreachable the hub
  says so (:attr:`Hub.degraded`: watchers then look at their stream's version every
  :data:`DEGRADED_CHECK_SECONDS`, as the old poll did) and resubscribes every :data:`RETRY_SECONDS`; when it is
  back every watcher is woken once, to catch up on what it may have missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings

from config import lifespan
from config.outage import redis_outage

log = logging.getLogger("chronicle.live")

CHANNEL = "chronicle:live"  # one Redis channel (per Redis database: :func:`_channel`); a message is a stream id
RETRY_SECONDS = 1.0  # between two attempts to (re)subscribe while Redis is unreachable
DEGRADED_CHECK_SECONDS = 1.5  # a watcher's own look at its stream while wake-ups cannot arrive
PUBLISH_TIMEOUT = 0.5

_publisher: Any = None
_publisher_lock = threading.Lock()


def _channel() -> str:
    """:data:`CHANNEL` with the Redis database's number: pub/sub channels are server-wide, and two deployments (or
    test lanes) on one Redis server keep to their own databases."""
    from urllib.parse import urlsplit

    return f"{CHANNEL}:{urlsplit(settings.REDIS_URL).path.strip('/') or '0'}"


def _redis_client() -> Any:
    global _publisher
    with _publisher_lock:
        if _publisher is None:
            import redis

            _publisher = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=PUBLISH_TIMEOUT, socket_timeout=PUBLISH_TIMEOUT
            )
        return _publisher


def stream_moved(stream_id: int) -> None:
    """Wake every page watching ``stream_id``, in every web process (call after the commit that moved it)."""
    for hub in list(_HUBS.values()):
        hub.wake_threadsafe(stream_id)
    if not settings.REDIS_URL:
        return
    outage = redis_outage(settings.REDIS_URL)
    try:
        _redis_client().publish(_channel(), str(stream_id))
    except Exception as exc:  # any Redis failure: the write stands, watchers look for themselves
        outage.failed(exc, "live wake-ups", "watching pages look at their match every 1.5 s until it is back")
    else:
        outage.succeeded()


class Hub:
    """One process's watchers, by stream, on one event loop; fed by Redis (when set) and by this process's writes."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.watchers: dict[int, set[asyncio.Event]] = {}
        self.degraded = bool(settings.REDIS_URL)  # until the first subscription is made
        self.listener: asyncio.Task[None] | None = None
        self.stopping = False  # the process is stopping: every stream ends (``config.lifespan``)

    @contextlib.asynccontextmanager
    async def watch(self, stream_id: int) -> AsyncIterator[asyncio.Event]:
        """An event set whenever ``stream_id`` moves (clear it before reading what is new), for the ``with`` block."""
        woken = asyncio.Event()
        self.watchers.setdefault(stream_id, set()).add(woken)
        if settings.REDIS_URL and (self.listener is None or self.listener.done()):
            self.listener = self.loop.create_task(self._listen())
        try:
            yield woken
        finally:
            left = self.watchers.get(stream_id)
            if left is not None:
                left.discard(woken)
                if not left:
                    del self.watchers[stream_id]

    def wake(self, stream_id: int | None) -> None:
        """Wake the watchers of ``stream_id`` (None: every watcher). On the hub's loop."""
        groups = self.watchers.values() if stream_id is None else [self.watchers.get(stream_id, ())]
        for group in groups:
            for woken in group:
                woken.set()

    def wake_threadsafe(self, stream_id: int) -> None:
        """:meth:`wake` from any thread (a write's commit runs in a worker thread)."""
        if self.watchers and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.wake, stream_id)

    async def _listen(self) -> None:
        """Hear :data:`CHANNEL` for as long as anyone watches; resubscribe after an outage, waking everyone."""
        import redis.asyncio as aredis

        outage = redis_outage(settings.REDIS_URL)
        while self.watchers:
            client = aredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=PUBLISH_TIMEOUT)
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(_channel())
                    if self.degraded:
                        self.degraded = False
                        outage.succeeded()
                        self.wake(None)  # whatever was missed meanwhile: every watcher looks once
                    while self.watchers:
                        message = await pubsub.get_message(timeout=5.0)
                        if message and message.get("type") == "message":
                            with contextlib.suppress(ValueError):
                                self.wake(int(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis gone: watchers look for themselves meanwhile
                if not self.degraded:
                    self.degraded = True
                    outage.failed(exc, "live wake-ups", "watching pages look at their match every 1.5 s")
                    self.wake(None)
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()


_HUBS: dict[int, Hub] = {}


def _stopping() -> None:
    for each in list(_HUBS.values()):
        each.stopping = True
        each.loop.call_soon_threadsafe(each.wake, None)


lifespan.on_shutdown(_stopping)


def hub() -> Hub:
    """This process's hub on the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    found = _HUBS.get(id(loop))
    if found is None or found.loop is not loop:
        found = _HUBS[id(loop)] = Hub(loop)
    return found


# -- who may see a stream changed: tell its watchers, who read their access again ----------------------------


def _sight_changed(stream_ids: list[int]) -> None:
    from django.db import transaction

    def tell() -> None:
        for stream_id in stream_ids:
            stream_moved(stream_id)

    transaction.on_commit(tell)


def _on_recorders(sender: Any, instance: Any, action: str, reverse: bool, pk_set: Any, **kwargs: Any) -> None:
    if not action.startswith("post_"):
        return
    if not reverse:
        _sight_changed([instance.stream_id])
    else:  # a user's matches changed from the user's side
        from matches.models import Match

        _sight_changed(list(Match.objects.filter(pk__in=pk_set or ()).values_list("stream_id", flat=True)))


def _on_match(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created:  # made private or public, its owner changed
        _sight_changed([instance.stream_id])


def _on_seat(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created:  # a match's seats are made with it, before anyone watches it (a join link links an existing seat)
        return
    from matches.models import Match

    _sight_changed(list(Match.objects.filter(pk=instance.match_id).values_list("stream_id", flat=True)))


def _on_player(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created:
        return
    from matches.models import Match

    matches = Match.objects.filter(seats__player__in=[instance.pk, *instance.merged.values_list("pk", flat=True)])
    _sight_changed(list(matches.values_list("stream_id", flat=True).distinct()))


def sight_signals_connect() -> None:
    """Tell a match's watchers when who may see what there changes (recorders, privacy, a seat's account), so a
    reader who lost access is told at once (``matches.apps`` calls this at start)."""
    from django.db.models.signals import m2m_changed, post_save

    from matches.models import Match, Player, Seat

    m2m_changed.connect(_on_recorders, sender=Match.recorders.through, dispatch_uid="chronicle.live.recorders")
    post_save.connect(_on_match, sender=Match, dispatch_uid="chronicle.live.match")
    post_save.connect(_on_seat, sender=Seat, dispatch_uid="chronicle.live.seat")
    post_save.connect(_on_player, sender=Player, dispatch_uid="chronicle.live.player")
