"""Accounts: sign-up, the sign-in page and the API's token sign-in (each answering 429 with ``Retry-After`` while
throttled; the sign-in counting is ``config.auth``'s, shared with the admin through its backend), and the API
token page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import BoundedJSONParser
from config.auth import login_locked
from config.throttling import signup_limited
from frontend.forms.schema import SignupForm
from frontend.models import developer_view_on, developer_view_set
from frontend.views.joins import kept_join


def _retry_after(response: HttpResponse, seconds: int) -> HttpResponse:
    response["Retry-After"] = str(seconds)
    return response


class LoginView(auth_views.LoginView):
    """The sign-in page; while throttled it answers 429 with the form and a message, and signs no one in. It
    names the seat a join link's page kept for this phone, if any (``joining``)."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "joining": kept_join(self.request)}

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = login_locked(request, request.POST.get("username", ""))
        if wait:
            form = self.get_form()
            form.is_bound = False  # show the form again, without checking the password
            context = self.get_context_data(form=form, throttled=True)
            return _retry_after(self.render_to_response(context, status=429), wait)
        return super().post(request, *args, **kwargs)


class TokenLoginApi(ObtainAuthToken):
    """POST username and password → ``{token}``; 429 with ``Retry-After`` while sign-in is throttled."""

    parser_classes = (BoundedJSONParser,)  # JSON, as the schema says (one body type: generated clients take it)

    @extend_schema(
        request=inline_serializer(
            "TokenLoginInput", {"username": serializers.CharField(), "password": serializers.CharField()}
        ),
        responses={
            200: inline_serializer("TokenOutput", {"token": serializers.CharField()}),
            400: OpenApiResponse(description="wrong username or password"),
            429: OpenApiResponse(description="too many failed sign-ins; retry after the cool-off"),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = request.data.get("username", "") if hasattr(request.data, "get") else ""
        wait = login_locked(request, str(username))
        if wait:
            raise exceptions.Throttled(wait=wait, detail="Too many failed sign-ins; try again after the cool-off.")
        return super().post(request, *args, **kwargs)


# -- sign-up and the API token page -------------------------------------------------------------------------------------------


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and sign in; then to ``next`` (a page of this site only: a join link, a private
    match), else home."""
    form = SignupForm(request.POST or None)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, require_https=request.is_secure()):
        next_url = ""
    if request.method == "POST" and form.is_valid():
        wait = signup_limited(request)
        if wait:  # 429, and no account is made
            context = {"form": SignupForm(), "next": next_url, "throttled": True, "joining": kept_join(request)}
            response = render(request, "registration/signup.html", context, status=429)
            response["Retry-After"] = str(wait)
            return response
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome, {user.username}!")
        return redirect(next_url or "home")
    context = {"form": form, "next": next_url, "joining": kept_join(request)}
    return render(request, "registration/signup.html", context, status=400 if form.errors else 200)


@login_required
def api_token(request: HttpRequest) -> HttpResponse:
    """Show, create or revoke the user's API token; turn their developer view on or off."""
    if request.method == "POST" and request.POST.get("action") == "developer":
        on = request.POST.get("developer_view") == "on"
        developer_view_set(request.user, on)
        messages.success(request, "Developer view is on: each match page ends with its state as data." if on
                         else "Developer view is off.")  # fmt: skip
        return redirect("api-token-page")
    if request.method == "POST":
        Token.objects.filter(user=request.user).delete()
        if request.POST.get("action") == "create":
            Token.objects.create(user=request.user)
            messages.success(request, "A new API token was created; the old one (if any) no longer works.")
        else:
            messages.success(request, "Your API token was revoked.")
        return redirect("api-token-page")
    token = Token.objects.filter(user=request.user).first()
    context = {"token": token, "developer_view": developer_view_on(request.user)}
    return render(request, "frontend/token.html", context)


def form_token(request: HttpRequest) -> JsonResponse:
    """``{"token": …}``: a CSRF token for this browser's session, setting its cookie if it had none. app.js asks
    for it when a page's form is sent after the cookie went away (cookies cleared with the page open, a page kept
    by the service worker); a GET that writes nothing and is never cached."""
    response = JsonResponse({"token": get_token(request)})
    response["Cache-Control"] = "no-store"
    return response
