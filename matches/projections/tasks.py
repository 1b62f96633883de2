"""Celery tasks: run the projectors (woken after commits, and periodically by beat as a fallback)."""

from __future__ import annotations

import time

from celery import shared_task
from django.conf import settings

from matches.projections.projectors import PROJECTORS, project_with_read_ahead
from matches.store.streams import after_commit_register


@shared_task(name="matches.tasks.project_all", ignore_result=True)
def project_all() -> int:
    """Project every pending event into every read model; returns how many events were read.

    Events held back behind a long transaction in this database are projected per stream once they have
    waited ``CHRONICLE_PROJECTOR_STALL_BOUND`` seconds; when some are still younger, one run is scheduled for
    when they are due (one across all workers), so the bound holds even when no append wakes the projector.
    """
    done, due = project_with_read_ahead(*PROJECTORS)
    if due is not None and not settings.CELERY_TASK_ALWAYS_EAGER:  # eager: no worker to run it later (the
        _run_again_in(due)  # next append will)
    return done


# SET NX PX; when the key is taken, its remaining milliseconds instead (-1: claimed; -2: it just expired)
_CLAIM = """
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return -1 end
return redis.call('PTTL', KEYS[1])
"""


def _slot_claim(key: str, ms: int) -> float:
    """Claim ``key`` for ``ms`` milliseconds across all processes (Redis); 0.0 when this caller got it (always,
    without Redis), else the seconds until whoever holds it lets go. Redis errors propagate: each caller
    decides what a failure means."""
    from config.outage import redis_outage
    from config.throttling import redis_client, redis_script

    client = redis_client()
    if client is None:
        return 0.0
    outage = redis_outage(settings.CACHES["default"]["LOCATION"])
    try:
        left = int(redis_script(client, _CLAIM)(keys=[key], args=[ms]))
    except Exception as exc:
        outage.failed(exc, "projector slot")  # logged once per outage (config.outage)
        raise
    outage.succeeded()
    return left / 1000 if left > 0 else 0.0  # just expired (-2): as good as claimed


def _run_again_in(seconds: float) -> None:
    """Schedule one more ``project_all`` in ``seconds``, unless another worker has one scheduled already."""
    from config.outage import redis_outage

    countdown = seconds + 0.05
    try:
        if _slot_claim("chronicle:projector-due", int(countdown * 1000)):
            return  # another worker has the follow-up scheduled
    except Exception:  # Redis down (reported by the claim): the beat catch-up runs it
        return
    outage = redis_outage(settings.CELERY_BROKER_URL)
    try:
        project_all.apply_async(countdown=countdown)
    except Exception as exc:  # the broker down: the beat catch-up runs it
        outage.failed(exc, "projector follow-up not scheduled")  # logged once per outage (config.outage)
    else:
        outage.succeeded()


@shared_task(name="matches.tasks.projections_catch_up", ignore_result=True)
def projections_catch_up() -> int:
    """The beat fallback: same as ``project_all``; catches up whatever a lost wake-up left behind."""
    return project_all()


def wake_slot_claim(window: float) -> float:
    """Claim the projector wake-up of the current ``window`` across all processes (a Redis slot).

    0.0: this process has it and sends the wake-up, with ``window`` as countdown. Otherwise the seconds until
    the run another process has scheduled, which starts after any commit made before then: the caller
    needs no wake-up of its own until that time. Without Redis, or when Redis fails, every process claims
    (a redundant run is harmless).
    """
    try:
        return _slot_claim("chronicle:projector-wake", max(1, int(window * 1000)))
    except Exception:  # Redis trouble: send the wake-up anyway
        return 0.0


# -- waking the projector after a commit ------------------------------------------------------------

_covered_until = 0.0  # monotonic time before which a scheduled run follows any commit of this process


def wake_projector() -> None:
    """Ask a Celery worker to run the projectors soon; never fails the caller.

    Every commit is followed by a projector run that starts after it, with at most one wake-up per
    ``CHRONICLE_WAKE_WINDOW`` seconds across all processes (``wake_slot_claim``): the process that claims
    the window sends one with that countdown; a process that finds it claimed learns when that run starts
    and stays quiet until then (not a whole window of its own: a run scheduled earlier by another process
    would leave its later commits behind). The beat catch-up covers a wake-up the broker lost.
    """
    global _covered_until
    from matches.projections.tasks import project_all, wake_slot_claim

    if settings.CELERY_TASK_ALWAYS_EAGER:
        project_all.apply()
        return
    now = time.monotonic()
    if now < _covered_until:
        return
    window = settings.CHRONICLE_WAKE_WINDOW
    scheduled_in = wake_slot_claim(window)
    if scheduled_in > 0:
        _covered_until = now + scheduled_in
        return  # another process has a run scheduled: it starts after this commit
    _covered_until = now + window
    from config.outage import redis_outage

    outage = redis_outage(settings.CELERY_BROKER_URL)
    try:
        project_all.apply_async(countdown=window)
    except Exception as exc:  # broker down: the append stands; the periodic catch-up will project it
        outage.failed(exc, "projector wake-up not sent")  # logged once per outage (config.outage)
    else:
        outage.succeeded()


def _wake_after_commit() -> None:
    wake_projector()  # looked up when called: a test or a bench may stand in for it


after_commit_register(_wake_after_commit)  # every new entry wakes the projector after its commit
