"""bot/core/transport.py `RateLimiter`: Telegram's limits for messages, none for toasts."""

from __future__ import annotations

import asyncio

from telegram.error import RetryAfter

from bot.core.transport import RateLimiter


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
