"""API routes the web app serves under ``/api/`` (included by config.urls): the token sign-in."""

from django.urls import path

from frontend.views.accounts import TokenLoginApi

urlpatterns = [
    path("auth/token/", TokenLoginApi.as_view(), name="api-token"),
]
