"""The client's address is the connection's unless a proxy is trusted (issue 41, around the seats): a made-up
``X-Forwarded-For`` bypasses no limit (sign-in, sign-up, the anonymous API); sign-up is limited per address.

Over HTTP, on the real throttle cache (Redis) where the run has one."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from config.throttling import client_address

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

PASSWORD = "pass-word-123"


@pytest.fixture
def limits(settings, redis_cache):
    redis_cache.flushdb()
    settings.CHRONICLE_LOGIN_FAILURES = 5
    settings.CHRONICLE_LOGIN_FAILURES_PER_ADDRESS = 30
    settings.CHRONICLE_LOGIN_FAILURES_PER_ACCOUNT = 100
    settings.CHRONICLE_TRUSTED_PROXIES = []
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return settings


def token(client, username, password, forwarded, address="10.0.0.1"):
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": password},
        content_type="application/json",
        REMOTE_ADDR=address,
        HTTP_X_FORWARDED_FOR=forwarded,
    )


def test_a_made_up_forwarded_for_changes_nothing_at_sign_in(limits, make_user):
    make_user("ana")
    client = Client()
    codes = [token(client, "ana", "wrong", f"198.51.100.{i}").status_code for i in range(40)]
    assert codes[:5] == [400] * 5 and set(codes[5:]) == {429}, codes


def test_spraying_accounts_from_one_address_meets_the_address_limit(limits, make_user):
    client = Client()
    codes = [token(client, f"user{i}", "wrong", f"198.51.100.{i}").status_code for i in range(40)]
    assert codes[:30] == [400] * 30 and set(codes[30:]) == {429}, codes


def test_the_sign_in_page_too(limits, make_user):
    make_user("ana")
    client = Client()
    codes = [
        client.post(
            "/accounts/login/", {"username": "ana", "password": "wrong"}, REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}",
        ).status_code
        for i in range(8)
    ]  # fmt: skip
    assert codes == [200] * 5 + [429] * 3


def test_the_anonymous_api_limit_counts_the_connection(limits, client, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "3/min"}}
    codes = [
        client.get("/api/games/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
        for i in range(5)
    ]
    assert codes == [200, 200, 200, 429, 429]


def test_behind_a_trusted_proxy_the_header_is_honoured(limits, make_user, settings):
    make_user("ana")
    settings.CHRONICLE_TRUSTED_PROXIES = ["10.0.0.0/24"]
    client = Client()
    # each client behind the proxy is its own address: 5 wrong passwords each, no 429
    codes = [token(client, "ana", "wrong", f"198.51.100.{i}").status_code for i in range(8)]
    assert codes == [400] * 8
    # one client behind the proxy: its own limit
    assert [token(client, "ana", "wrong", "198.51.100.99").status_code for _ in range(6)] == [400] * 5 + [429]
    # a connection that is not the proxy: its header is not believed, its address is the connection's
    assert token(client, "ana", "wrong", "198.51.100.99", address="192.0.2.7").status_code == 400


def test_the_address_rules(settings, rf):
    settings.CHRONICLE_TRUSTED_PROXIES = []
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 5.6.7.8")
    assert client_address(request) == "10.0.0.1"
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    assert client_address(request) == "5.6.7.8"
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    settings.CHRONICLE_TRUSTED_PROXIES = ["10.0.0.1", "5.6.7.0/24"]
    assert client_address(request) == "1.2.3.4"  # the first hop from the right that is no trusted proxy
    assert client_address(rf.get("/", REMOTE_ADDR="9.9.9.9", HTTP_X_FORWARDED_FOR="1.2.3.4")) == "9.9.9.9"


# -- sign-up, per address ------------------------------------------------------------------------------------


def signup(client, name, address="10.0.0.3", forwarded=""):
    body = {"username": name, "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"}
    return client.post("/accounts/signup/", body, REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR=forwarded)


def test_sign_up_is_limited_per_address_with_a_clear_429(limits, settings):
    settings.CHRONICLE_SIGNUPS_PER_ADDRESS = 3
    codes = [signup(Client(), f"new{i}", forwarded=f"198.51.100.{i}").status_code for i in range(3)]
    assert codes == [302] * 3
    refused = signup(Client(), "new3", forwarded="198.51.100.3")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert b"Too many accounts were made from this address" in refused.content
    assert not get_user_model().objects.filter(username="new3").exists()
    assert signup(Client(), "elsewhere", address="10.0.0.4").status_code == 302  # another address: its own count


def test_a_refused_form_is_not_counted(limits, settings):
    settings.CHRONICLE_SIGNUPS_PER_ADDRESS = 1
    bad = Client().post(
        "/accounts/signup/", {"username": "x", "password1": "a", "password2": "b"}, REMOTE_ADDR="10.0.0.5"
    )
    assert bad.status_code == 400
    assert signup(Client(), "first", address="10.0.0.5").status_code == 302
    assert signup(Client(), "second", address="10.0.0.5").status_code == 429


def test_the_default_is_beyond_a_club_evening(settings):
    assert settings.CHRONICLE_SIGNUPS_PER_ADDRESS >= 20 and settings.CHRONICLE_SIGNUP_WINDOW <= 3600
