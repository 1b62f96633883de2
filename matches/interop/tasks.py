"""The import job's Celery task (eager on the embedded default). ``acks_late``: a task lost with its worker is
redelivered and resumes the job after its last whole batch."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="matches.interop.tasks.import_run", ignore_result=True, acks_late=True)
def import_run(job_id: int) -> int:
    """Run import job ``job_id`` to its end; returns how many plays it imported."""
    from matches.interop.jobs import import_job_run

    return import_job_run(job_id).imported
