"""bot/core/transport.py `RateLimiter`: Telegram's limits for messages, none for toasts."""

from __future__ import annotations

import asyncio

from telegram.error import RetryAfter

from bot.app import QuizApplication
from bot.core.transport import RateLimiter
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.learner import Learner


async def test_a_toast_is_not_held_back_while_messages_wait_out_a_429() -> None:
    limiter = RateLimiter(overall_max_rate=0, max_retries=1)
    refused_once = asyncio.Event()
    sent: list[str] = []

    async def send_message() -> bool:
        if not refused_once.is_set():
            refused_once.set()
            raise RetryAfter(1)  # Telegram: wait a second; the limiter holds every request
        sent.append("message")
        return True

    async def answer_tap() -> bool:
        sent.append("toast")
        return True

    message = asyncio.ensure_future(
        limiter.process_request(send_message, (), {}, "sendMessage", {"chat_id": -5}, None)
    )
    await refused_once.wait()
    held = asyncio.ensure_future(
        limiter.process_request(answer_tap, (), {}, "sendMessage", {"chat_id": 9}, None)
    )
    toast = await limiter.process_request(
        answer_tap, (), {}, "answerCallbackQuery", {"callback_query_id": "1"}, None
    )
    assert toast is True and sent == ["toast"]  # the message and the held send still wait
    assert await message and await held
    assert sent[0] == "toast" and sorted(sent[1:]) == ["message", "toast"]


async def test_a_toast_refused_with_a_429_is_waited_out_and_the_handler_goes_on(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    learner = Learner(api, FakeUser(1701, "Tolu", "en"))
    menu = await learner.send("/language", "Choose your language")
    yoruba = next(b["callback_data"] for b in menu.buttons if "Yor" in b["text"])
    api.fail("answerCallbackQuery", 429, "Too Many Requests: retry after 1", retry_after=1)
    toast = await learner.tap(menu, yoruba)
    assert "Èdè" in toast["text"]
    # the handler went on past its toast: the menu says the language chosen
    await api.wait_for(lambda: "Èdè" in api.messages[(learner.chat_id, menu.message_id)].text)


async def test_a_toast_telegram_holds_back_for_long_is_given_up_at_once() -> None:
    limiter = RateLimiter(overall_max_rate=0, max_retries=5)
    calls: list[str] = []

    async def answer_tap() -> bool:
        calls.append("toast")
        raise RetryAfter(30)  # the tap would be too old to answer by then

    answered = await asyncio.wait_for(
        limiter.process_request(
            answer_tap, (), {}, "answerCallbackQuery", {"callback_query_id": "7"}, None
        ),
        timeout=5,
    )
    assert answered is False and calls == ["toast"]
