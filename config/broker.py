"""The worker and beat under a broker (Redis) outage: retried every second, logged once when it goes and once
when it is back (``config.outage``, the rule every process follows).

Celery's own reconnect waits 2, 4, 6 … s between tries (kombu's ``ensure_connection`` defaults, which Celery
passes to neither the worker's consumer nor beat), so read models caught up 1.7 s to 15 s after Redis answered
again; and both log every try: the worker an error per try plus a warning and a deprecation warning when the
connection goes, beat an error per try and a stack trace (``Message Error``) for every task due meanwhile.
Here both retry at once, then every ``RETRY["interval_max"]`` s, and report to the process's ``Outage`` of the
broker's server instead of logging: one warning when it goes, one when it is back.

Settings: ``CELERY_WORKER_CONSUMER = "config.broker:Consumer"``, ``CELERY_BEAT_SCHEDULER =
"config.broker:Scheduler"``. Errors that are not the broker's connection are logged as Celery logs them.
"""

from __future__ import annotations

import logging
import re
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from celery.beat import PersistentScheduler
from celery.exceptions import CPendingDeprecationWarning
from celery.worker.consumer import consumer as celery_consumer
from django.conf import settings

from config.outage import Outage, redis_outage

# kombu's ensure_connection: the first retry at once, then every second
RETRY = {"interval_start": 0, "interval_step": 0.5, "interval_max": 1.0}
WORKER_MEANWHILE = "the worker waits for it (read models catch up when it is back; tried every second)"
CATCH_UP_TASK = "matches.tasks.projections_catch_up"  # beat's periodic catch-up (config.settings)
BEAT_MEANWHILE = "beat's catch-up runs are skipped until it is back (tried every second)"

# Celery 5.x warns on every connection loss that 6.0 will cancel late-acknowledged tasks then: not news per outage
warnings.filterwarnings(
    "ignore", message=re.escape(celery_consumer.CANCEL_TASKS_BY_DEFAULT), category=CPendingDeprecationWarning
)


def broker_outage() -> Outage:
    """This process's ``Outage`` of the broker's server (shared with the cache and the wake-ups on one Redis)."""
    return redis_outage(settings.CELERY_BROKER_URL)


def _quiet_ensure(conn: Any, what: str, meanwhile: str, on_back: Callable[[], None] | None = None) -> None:
    """Make ``conn.ensure_connection`` retry every second and report its failures to the broker's Outage;
    ``on_back`` runs when it connects after an outage."""
    plain = conn.ensure_connection
    if getattr(plain, "_chronicle_quiet", False):
        return
    outage = broker_outage()

    def ensure_connection(errback: Any = None, max_retries: Any = None, *args: Any, **kwargs: Any) -> Any:
        def failed(exc: BaseException, interval: float) -> None:
            outage.failed(exc, what, meanwhile)

        kwargs.update(RETRY)
        connected = plain(failed, max_retries, *args, **kwargs)
        was_down = outage.down
        outage.succeeded()
        if was_down and on_back is not None:
            on_back()
        return connected

    ensure_connection._chronicle_quiet = True  # type: ignore[attr-defined]
    conn.ensure_connection = ensure_connection


@contextmanager
def _without(logger: logging.Logger, drop: Callable[[logging.LogRecord], bool]) -> Iterator[None]:
    """``logger`` drops the records ``drop`` picks while the block runs."""
    record_filter = logging.Filter()
    record_filter.filter = lambda record: not drop(record)  # type: ignore[method-assign]
    logger.addFilter(record_filter)
    try:
        yield
    finally:
        logger.removeFilter(record_filter)


def _connection_error(exc: BaseException, errors: tuple[type[BaseException], ...]) -> bool:
    """True when ``exc`` or what it was raised from or during is one of the broker's connection ``errors``."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, errors):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class Consumer(celery_consumer.Consumer):
    """The worker's consumer: reconnects every second; one line when the broker goes, one when it is back."""

    def ensure_connected(self, conn: Any) -> Any:
        _quiet_ensure(conn, "the worker's broker connection", WORKER_MEANWHILE, self._catch_up)
        return super().ensure_connected(conn)

    def _catch_up(self) -> None:
        """Back after an outage: the wake-ups sent meanwhile are lost, so run a catch-up now rather than at
        beat's next (up to 15 s later). By name: config imports nothing of the apps."""
        try:
            self.app.send_task(CATCH_UP_TASK)
        except Exception as exc:  # gone again: the next reconnect or beat's catch-up covers it
            broker_outage().failed(exc, "the worker's catch-up after an outage", WORKER_MEANWHILE)

    def on_connection_error_after_connected(self, exc: BaseException) -> None:
        broker_outage().failed(exc, "the worker's broker connection", WORKER_MEANWHILE)
        with _without(celery_consumer.logger, lambda r: celery_consumer.CONNECTION_RETRY in (r.args or ())):
            super().on_connection_error_after_connected(exc)

    def on_connection_error_before_connected(self, exc: BaseException) -> None:
        broker_outage().failed(exc, "the worker's broker connection", WORKER_MEANWHILE)


class Scheduler(PersistentScheduler):
    """Beat's scheduler: reconnects every second; a due task not sent for want of the broker logs nothing more
    than the outage's one line (the next catch-up covers it: each run projects everything not yet projected)."""

    def _ensure_connected(self) -> Any:
        _quiet_ensure(self.connection, "beat's broker connection", BEAT_MEANWHILE)
        return self.connection.ensure_connection(None, self.app.conf.broker_connection_max_retries)

    def apply_entry(self, entry: Any, producer: Any = None) -> None:
        errors = tuple(self.connection.connection_errors) + tuple(self.connection.recoverable_connection_errors)
        try:
            self.apply_async(entry, producer=producer, advance=False)
        except Exception as exc:
            if _connection_error(exc, errors):
                broker_outage().failed(exc, "beat's broker connection", BEAT_MEANWHILE)
            else:
                logging.getLogger("celery.beat").error("Message Error: %s", exc, exc_info=True)
            return
        broker_outage().succeeded()
