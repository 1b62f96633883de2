"""Sign-in views: the sign-in page and the API's token sign-in, each answering 429 with ``Retry-After`` while
sign-in is throttled (the counting is ``config.auth``'s, shared with the admin through its backend)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, parsers, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import BoundedJSONParser
from config.auth import login_locked


def _retry_after(response: HttpResponse, seconds: int) -> HttpResponse:
    response["Retry-After"] = str(seconds)
    return response


class LoginView(auth_views.LoginView):
    """The sign-in page; while throttled it answers 429 with the form and a message, and signs no one in."""

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

    parser_classes = (BoundedJSONParser, parsers.FormParser)

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
