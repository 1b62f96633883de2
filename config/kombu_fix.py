"""A workaround for a kombu bug that makes a Celery worker exit when Redis dies while it holds unacked tasks.

The bug (kombu 5.7.0, the latest release; ``kombu/transport/redis.py``): ``Channel.close()`` talks to Redis before
it marks the channel closed: it first drains a pending ``BRPOP`` reply (``_brpop_read``), then deletes the
bindings of auto-delete fanout queues. With Redis gone, either step raises a connection error and the close stops
half-way, the channel still open. The caller ignores connection errors (``Connection.maybe_close_channel``), and
the worker's reconnect path then runs ``Connection.collect()``, which detaches the transport
(``transport.client = None``), and ``Connection.close()``, which closes the same channel once more. This time the
close gets as far as restoring the unacknowledged messages (``QoS.restore_unacked``); that builds a new connection
pool from ``transport.client``, now ``None``: ``AttributeError: 'NoneType' object has no attribute 'hostname'``.
That is not a connection error, so Celery's ``ignore_errors`` lets it through: "Unrecoverable error", exit 1. An
idle worker survives because it has nothing unacked to restore; ours nearly always holds a projector wake-up with
a countdown (a reserved, unacked message).

The fix: when kombu's close fails with a connection error before the channel is closed, finish the close without
the network steps that just failed (nothing can be drained or deleted on a dead connection), so the channel is
closed while its transport is still attached. Its unacked messages are then restored as kombu always does, or,
with Redis still down, the restore fails with a connection error that the callers ignore, as they are meant to:
a lost wake-up is covered by the beat catch-up, and a message Redis kept in its unacked set comes back after the
visibility timeout. Nothing else of kombu changes. Remove this module once kombu's own ``close()`` finishes
closing when Redis is gone (``tests/config/test_kombu_fix.py`` fails on this module then:
``test_the_kombu_bug_is_still_there`` says so).
"""

from __future__ import annotations

from typing import Any

_PATCHED = "_chronicle_close_fix"


def _finish_close_offline(channel: Any) -> None:
    """What kombu's redis ``Channel.close`` does after its network steps, then the virtual channel's close."""
    from kombu.transport import virtual

    channel._in_poll = None  # the pending BRPOP died with the connection (kombu clears it itself too)
    if not channel.closed:
        channel.connection.cycle.discard(channel)
        channel._disconnect_pools()
        channel._close_clients()
    virtual.Channel.close(channel)  # marks it closed, cancels consumers, restores unacked messages


def apply() -> bool:
    """Wrap kombu's redis ``Channel.close`` (once per process); True when it was wrapped by this call."""
    from kombu.transport import redis as kombu_redis

    kombu_close = kombu_redis.Channel.close
    if getattr(kombu_close, _PATCHED, False):
        return False

    def close(self: Any) -> None:
        try:
            kombu_close(self)
        except self.connection_errors:
            if self.closed:
                raise  # failed in the restore, after closing: the usual error, ignored by the callers
            _finish_close_offline(self)

    close.__doc__ = kombu_close.__doc__
    setattr(close, _PATCHED, True)
    close.__wrapped__ = kombu_close  # type: ignore[attr-defined]
    kombu_redis.Channel.close = close
    return True
