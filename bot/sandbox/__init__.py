"""A Bot API stand-in on 127.0.0.1, as strict as Telegram (`server.py`), and Telegram's HTML as
Telegram reads it (`html_check.py`). It imports nothing of the bot."""

from bot.sandbox.server import (
    STALE_QUERY,
    TELEGRAM,
    Call,
    Chat,
    FakeBotApi,
    FakeUser,
    Message,
    Strictness,
    free_port,
    poll_answer,
)

__all__ = [
    "STALE_QUERY",
    "TELEGRAM",
    "Call",
    "Chat",
    "FakeBotApi",
    "FakeUser",
    "Message",
    "Strictness",
    "free_port",
    "poll_answer",
]
