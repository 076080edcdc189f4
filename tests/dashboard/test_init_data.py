"""Telegram's initData, as Telegram signs it (bot/sandbox/web_app.py) and as the bot checks
it (bot/dashboard/init_data.py)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.dashboard.init_data import InitDataError, verify_init_data
from bot.sandbox.web_app import sign_init_data, web_app_button_problem

TOKEN = "123456:TEST-TOKEN"
NOW = 1_800_000_000
ADA = {"id": 1, "first_name": "Ada", "language_code": "yo"}


def signed(user: dict[str, object] = ADA, age: int = 60, token: str = TOKEN) -> str:
    return sign_init_data(user, token, NOW - age)


def test_a_good_signature_gives_the_person() -> None:
    user = verify_init_data(signed(), TOKEN, NOW)
    assert (user.id, user.first_name, user.language_code) == (1, "Ada", "yo")


@pytest.mark.parametrize(
    "field, value",
    [("user", '{"id":2,"first_name":"Mallory"}'), ("auth_date", str(NOW)), ("query_id", "x")],
)
def test_a_tampered_field_is_refused(field: str, value: str) -> None:
    fields = dict(parse_qsl(signed()))
    fields[field] = value
    with pytest.raises(InitDataError, match="hash"):
        verify_init_data(urlencode(fields), TOKEN, NOW)


def test_another_bots_signature_is_refused() -> None:
    with pytest.raises(InitDataError, match="hash"):
        verify_init_data(signed(token="654321:OTHER"), TOKEN, NOW)


def test_expired_and_future_initdata_are_refused() -> None:
    assert verify_init_data(signed(age=24 * 3600 - 1), TOKEN, NOW).id == 1
    with pytest.raises(InitDataError, match="expired"):
        verify_init_data(signed(age=24 * 3600 + 1), TOKEN, NOW)
    with pytest.raises(InitDataError, match="expired"):
        verify_init_data(signed(age=-3600), TOKEN, NOW)


@pytest.mark.parametrize(
    "raw",
    ["", "hash=abc", "user=%7B%7D&auth_date=1&hash=" + "0" * 64, "a=1&a=1", "x" * 9000],
)
def test_missing_or_malformed_initdata_is_refused(raw: str) -> None:
    with pytest.raises(InitDataError):
        verify_init_data(raw, TOKEN, NOW)


def test_a_field_given_twice_is_refused_even_when_signed() -> None:
    with pytest.raises(InitDataError, match="twice"):
        verify_init_data(signed() + "&auth_date=1", TOKEN, NOW)


def test_a_signed_user_without_an_integer_id_is_refused() -> None:
    for user in ({"id": "1"}, {"id": True}, {"id": 1.5}, {"first_name": "x"}):
        with pytest.raises(InitDataError, match="user"):
            verify_init_data(signed(user), TOKEN, NOW)


@given(st.text(max_size=600))
def test_any_text_is_refused_cleanly(raw: str) -> None:
    with pytest.raises(InitDataError):
        verify_init_data(raw, TOKEN, NOW)


@given(
    st.integers(1, 2**52),
    st.text(max_size=80),
    st.dictionaries(
        st.sampled_from(["chat_type", "start_param", "signature"]), st.text(max_size=40)
    ),
)
def test_whatever_telegram_signs_reads_back(user_id: int, name: str, extra: dict[str, str]) -> None:
    raw = sign_init_data({"id": user_id, "first_name": name}, TOKEN, NOW, extra)
    user = verify_init_data(raw, TOKEN, NOW)
    assert (user.id, user.first_name) == (user_id, name[:256])


def test_web_app_buttons_as_telegram_takes_them() -> None:
    button = {"text": "Open", "web_app": {"url": "https://example.org/app/"}}
    assert web_app_button_problem(button, "private", inline=True) is None
    assert (
        web_app_button_problem(button, "supergroup", inline=True)
        == "Bad Request: BUTTON_TYPE_INVALID"
    )
    http = {"text": "Open", "web_app": {"url": "http://example.org/app/"}}
    assert web_app_button_problem(http, "private", inline=True) == "Bad Request: BUTTON_URL_INVALID"
