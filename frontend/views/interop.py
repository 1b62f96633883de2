"""Import and export pages: download my plays, upload a BG Stats export or a BGG play log (an import job with a
progress bar and a report that stays viewable), and "This is me" for the file's owner. Thin: call
``matches.interop`` and render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from matches.errors import DomainError
from matches.interop.jobs import import_job_create, import_job_progress
from matches.interop.me import player_claim_own
from matches.interop.models import ImportJob
from matches.interop.tasks import import_job_start
from matches.models import Player


@login_required
def interop_page(request: HttpRequest) -> HttpResponse:
    """Download my plays (BG Stats JSON, BGG XML) or upload a file: POST starts its import job."""
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            messages.error(request, "Choose the file to upload: a BG Stats export (.json) or a BGG play log (.xml).")
            return redirect("stats-interop")
        try:
            job = import_job_start(import_job_create(owner=request.user, fp=upload, file_name=upload.name or ""))
        except DomainError as exc:
            messages.error(request, exc.detail)
            return redirect("stats-interop")
        return redirect("import-job", job_id=job.pk)
    jobs = ImportJob.objects.filter(owner=request.user)[:10]
    return render(request, "frontend/stats/interop.html", {"jobs": jobs})


def _job(request: HttpRequest, job_id: int) -> ImportJob:
    job = ImportJob.objects.filter(pk=job_id, owner=request.user).first()
    if job is None:
        raise Http404("No such import of yours.")
    return job


@login_required
def import_job_page(request: HttpRequest, job_id: int) -> HttpResponse:
    """One import: its progress bar while it runs (the page polls the job's API), then its report."""
    job = _job(request, job_id)
    progress = import_job_progress(job)
    ref = progress["owner_ref"]
    owner_player = None
    if job.status == ImportJob.DONE and ref.get("player_id"):
        owner_player = Player.objects.filter(pk=ref["player_id"], owner=request.user).first()
    linked = Player.objects.filter(owner=request.user, user=request.user).first()
    return render(
        request, "frontend/stats/import_job.html",
        {"job": job, "p": progress, "owner_player": owner_player, "linked": linked},
    )  # fmt: skip


@login_required
@require_POST
def import_job_me(request: HttpRequest, job_id: int) -> HttpResponse:
    """ "This is me": link the file's owner (a player of mine) to my account."""
    job = _job(request, job_id)
    pid = (job.owner_ref or {}).get("player_id")
    try:
        player = player_claim_own(user=request.user, player_id=int(pid or 0))
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, f"You are {player.name} in your plays now.")
    return redirect("import-job", job_id=job.pk)
