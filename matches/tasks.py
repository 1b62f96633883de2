"""Celery tasks: run the projectors (woken after commits, and periodically by beat as a fallback)."""

from __future__ import annotations

from celery import shared_task

from matches.projections import PROJECTORS, project


@shared_task(name="matches.tasks.project_all", ignore_result=True)
def project_all() -> int:
    """Project every pending event into every read model; returns how many events were read."""
    return sum(project(name) for name in PROJECTORS)


@shared_task(name="matches.tasks.projections_catch_up", ignore_result=True)
def projections_catch_up() -> int:
    """The beat fallback: same as ``project_all``; catches up whatever a lost wake-up left behind."""
    return project_all()
