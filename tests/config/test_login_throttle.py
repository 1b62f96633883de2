"""Sign-in is throttled per account and per address on the API token endpoint and the sign-in page, with a
cool-off and no permanent lockout."""

from __future__ import annotations

import time

import pytest
from django.test import Client

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

PASSWORD = "pass-word-123"


@pytest.fixture
def limits(settings):
    settings.CHRONICLE_LOGIN_FAILURES = 5
    settings.CHRONICLE_LOGIN_FAILURES_PER_ADDRESS = 10
    settings.CHRONICLE_LOGIN_FAILURES_PER_ACCOUNT = 12
    settings.CHRONICLE_LOGIN_COOL_OFF = 900
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast; hashing is not tested here
    return settings


def token(client, username, password, address="10.0.0.1"):
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": password},
        content_type="application/json",
        REMOTE_ADDR=address,
    )


def page_login(client, username, password, address="10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_api_token_refuses_with_429_after_too_many_wrong_passwords(limits, make_user, client):
    make_user("ana")
    assert [token(client, "ana", "wrong").status_code for _ in range(5)] == [400] * 5
    r = token(client, "ana", PASSWORD)  # even the right password waits for the cool-off
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert r.json()["code"] == "throttled" and "sign-in" in r.json()["detail"]
    assert "token" not in r.json()


def test_the_sign_in_page_refuses_with_429_and_signs_no_one_in(limits, make_user):
    make_user("ana")
    client = Client()
    assert [page_login(client, "ana", "wrong").status_code for _ in range(5)] == [200] * 5
    r = page_login(client, "ana", PASSWORD)
    assert r.status_code == 429 and b"Too many failed sign-ins" in r.content and r["Retry-After"]
    assert "_auth_user_id" not in client.session


def test_both_doors_share_the_count(limits, make_user, client):
    make_user("ana")
    for _ in range(3):
        token(client, "ana", "wrong")
    for _ in range(2):
        page_login(client, "ana", "wrong")
    assert token(client, "ana", PASSWORD).status_code == 429


def test_an_attacker_elsewhere_does_not_lock_the_real_user_out(limits, make_user, client):
    make_user("ana")
    for _ in range(6):
        token(client, "ana", "wrong", address="10.0.0.66")
    assert token(client, "ana", "wrong", address="10.0.0.66").status_code == 429
    assert token(client, "ana", PASSWORD, address="10.0.0.2").status_code == 200


def test_one_address_spraying_many_accounts_is_stopped(limits, make_user, client):
    for name in ("a1", "a2", "a3", "a4", "a5"):
        make_user(name)
        token(client, name, "wrong")
        token(client, name, "wrong")
    make_user("fresh")
    assert token(client, "fresh", PASSWORD).status_code == 429
    assert token(client, "fresh", PASSWORD, address="10.0.0.9").status_code == 200


def test_many_addresses_on_one_account_are_stopped(limits, make_user, client):
    make_user("ana")
    for i in range(12):
        token(client, "ana", "wrong", address=f"10.0.1.{i}")
    assert token(client, "ana", PASSWORD, address="10.0.2.1").status_code == 429


def test_a_success_forgets_the_failures_of_that_account_and_address(limits, make_user, client):
    make_user("ana")
    for _ in range(4):
        token(client, "ana", "wrong")
    assert token(client, "ana", PASSWORD).status_code == 200
    for _ in range(4):
        token(client, "ana", "wrong")
    assert token(client, "ana", PASSWORD).status_code == 200


def test_the_lockout_ends_after_the_cool_off(limits, make_user, client):
    limits.CHRONICLE_LOGIN_COOL_OFF = 1
    make_user("ana")
    for _ in range(5):
        token(client, "ana", "wrong")
    assert token(client, "ana", PASSWORD).status_code == 429
    time.sleep(2.1)  # cache expiry has a one-second resolution
    assert token(client, "ana", PASSWORD).status_code == 200
