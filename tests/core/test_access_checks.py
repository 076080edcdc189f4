"""`sender_passes` (bot/core/access.py): what a deep link's press is told when Telegram says
the sender may not, cannot say so now, or no longer knows them or the chat."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from telegram.error import BadRequest, Forbidden, NetworkError, TelegramError, TimedOut

from bot.core.access import sender_passes
from bot.core.i18n import Locale

REFUSAL = "homework_not_member"


class Context:
    def __init__(self) -> None:
        self.learner = SimpleNamespace(user_id=7)
        self.locale = Locale("en", "en")
        self.said: list[str] = []

    async def say(self, text: str) -> int:
        self.said.append(text)
        return 1


def _answering(result: bool | TelegramError) -> Any:
    async def check(context: Any, chat_id: int, user_id: int) -> bool:
        assert (chat_id, user_id) == (-100, 7)
        if isinstance(result, TelegramError):
            raise result
        return result

    return check


@pytest.mark.parametrize(
    ("answer", "passes", "said"),
    [
        (True, True, None),
        (False, False, REFUSAL),
        # Telegram no longer knows them there, or the chat: a refusal, as a no
        (BadRequest("Chat not found"), False, REFUSAL),
        (Forbidden("bot was kicked from the supergroup chat"), False, REFUSAL),
        # Telegram could not answer now: try again, nothing refused
        (TimedOut(), False, "member_check_failed"),
        (NetworkError("connection reset"), False, "member_check_failed"),
    ],
)
async def test_what_the_sender_is_told(
    answer: bool | TelegramError, passes: bool, said: str | None
) -> None:
    context = Context()
    assert await sender_passes(context, -100, _answering(answer), REFUSAL) is passes  # type: ignore[arg-type]
    expected = [] if said is None else [context.locale.t(said)]
    assert context.said == expected
