"""The import job's Celery task (eager on the embedded default) and the start of a job, which runs it now or
queues it. ``acks_late``: a task lost with its worker is redelivered and resumes the job after its last whole
batch."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from matches.interop.jobs import import_job_run
from matches.interop.models import ImportJob


@shared_task(name="matches.interop.tasks.import_run", ignore_result=True, acks_late=True)
def import_run(job_id: int) -> int:
    """Run import job ``job_id`` to its end; returns how many plays it imported."""
    return import_job_run(job_id).imported


def import_job_start(job: ImportJob) -> ImportJob:
    """Run the job now when it is small (or tasks run eagerly), else queue it for a worker."""
    if settings.CELERY_TASK_ALWAYS_EAGER or job.size <= settings.CHRONICLE_IMPORT_INLINE_BYTES:
        return import_job_run(job.pk)
    try:
        import_run.delay(job.pk)
    except Exception:
        ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.FAILED, message="The job queue is unreachable.")
        raise
    return job
