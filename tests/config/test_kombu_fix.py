"""config/kombu_fix.py: a Redis channel holding an unacked message is closed cleanly after Redis died.

The sequence is the one a Celery worker runs when the broker connection breaks (``Consumer.
on_connection_error_after_connected``): ``Connection.collect()``, then ``Connection.close()``, with a ``BRPOP``
pending on the channel (the worker's event loop always has one) and a delivered, unacknowledged message.
"""

from __future__ import annotations

import contextlib

import pytest
from kombu import Connection, Exchange, Queue
from kombu.transport import redis as kombu_redis

from config import kombu_fix
from tests.config.private_services import PrivateRedis

pytestmark = pytest.mark.pure


@pytest.fixture
def private_redis(tmp_path):
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


def _holding_an_unacked_message(url: str) -> tuple[Connection, object]:
    """A connection whose default channel has delivered one message (not acked) and sent its next BRPOP; the
    channel also consumes an auto-delete fanout queue, as a worker's does (its remote-control broadcasts)."""
    conn = Connection(url, transport_options={"socket_timeout": 1.0, "socket_connect_timeout": 1.0})
    queue = Queue("kombu-fix", Exchange("kombu-fix"), "kombu-fix")
    broadcast = Queue("kombu-fix-broadcast", Exchange("kombu-fix-broadcast", type="fanout"), auto_delete=True)
    channel = conn.default_channel
    conn.Producer(channel).publish({"n": 1}, exchange=queue.exchange, routing_key="kombu-fix", declare=[queue])
    received = []
    with conn.Consumer([queue, broadcast], callbacks=[lambda body, message: received.append(message)], channel=channel):
        conn.drain_events(timeout=5)
        assert received and not received[0].acknowledged
        assert channel.qos._delivered  # held unacked, as a worker holds a task with a countdown
        channel._brpop_start()  # the next BRPOP, pending, as in the worker's event loop
    return conn, channel


def _what_the_worker_does_when_the_broker_goes(conn: Connection) -> None:
    with contextlib.suppress(Exception):  # Celery ignores whatever collect raises
        conn.collect(socket_timeout=1.0)
    conn.close()  # Celery ignores connection errors here, and nothing else


def test_the_channel_closes_when_redis_died_while_a_message_was_unacked(private_redis):
    assert not kombu_fix.apply()  # already applied by config.celery (imported with the config package)
    conn, channel = _holding_an_unacked_message(private_redis.url)
    private_redis.kill()
    # a connection error (the restore could not reach Redis) is the ordinary one the worker ignores, then reconnects
    with contextlib.suppress(*conn.connection_errors):
        _what_the_worker_does_when_the_broker_goes(conn)
    assert channel.closed


def test_the_kombu_bug_is_still_there(private_redis, monkeypatch):
    """Without the fix kombu's own close fails so: when this test fails, kombu is fixed; drop config/kombu_fix.py."""
    monkeypatch.setattr(kombu_redis.Channel, "close", kombu_redis.Channel.close.__wrapped__)
    conn, _ = _holding_an_unacked_message(private_redis.url)
    private_redis.kill()
    with pytest.raises(AttributeError, match="hostname"):
        _what_the_worker_does_when_the_broker_goes(conn)
