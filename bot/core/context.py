"""The services every handler reaches, set up once in `post_init`, and a typed context."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import User as TelegramUser
from telegram.ext import Application, CallbackContext, ExtBot

from bot.config import Settings
from bot.core.callbacks import Tap
from bot.core.i18n import Locale
from content.catalog import Catalog
from content.group_rules import SendPace
from content.rules import resolve_language
from storage import Storage, User


@dataclass
class Services:
    settings: Settings
    storage: Storage
    catalog: Catalog
    clock: Callable[[], float] = field(default=time.time)
    # Updates of different chats run concurrently: changes to a bank (read the quiz, plan,
    # store, put into the catalog) take this lock so two admins cannot overwrite each other.
    bank_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    import_lock: asyncio.Lock = field(
        default_factory=asyncio.Lock
    )  # see admin_flow.import_document
    pace: SendPace = field(default_factory=SendPace)  # sends per group, to pace live counts
    # (chat, user) -> (when looked up, chat member status): ephemeral, see handlers/group.py
    member_status: dict[tuple[int, int], tuple[float, str]] = field(default_factory=dict)
    group_locks: dict[int, asyncio.Lock] = field(default_factory=dict)  # see group_flow._lock
    push_locks: dict[int, asyncio.Lock] = field(default_factory=dict)  # see group_flow.push_next
    # quiz polls posted by this process -> their chat, so the update processor orders a vote
    # after that chat's updates (shared with it; see update_processor.chat_key)
    poll_chats: dict[str, int] = field(default_factory=dict)

    async def learner(self, who: TelegramUser) -> tuple[User, Locale]:
        """The stored learner behind a Telegram user, refreshed, and their locale."""
        user = await self.storage.learners.touch_user(
            who.id, who.first_name or "", who.language_code, self.clock()
        )
        return user, self.locale_of(user)

    async def locale_for(self, who: TelegramUser) -> Locale:
        """The person's locale, recording nothing about them (for refusals)."""
        user = await self.storage.learners.get_user(who.id)
        if user is not None:
            return self.locale_of(user)
        default = self.settings.default_language
        return Locale(resolve_language(None, who.language_code, default), default)

    def health(self) -> str | None:
        """Why the bot cannot serve now, or None when it can. `GET /healthz` answers 503 while
        this names a reason (bot/serving/health.py): the one place for checks such as a lost
        database file. Called on every health request: keep it cheap and free of I/O."""
        return self.storage.lost

    def locale_of(self, user: User) -> Locale:
        default = self.settings.default_language
        return Locale(resolve_language(user.language, user.telegram_language, default), default)


SERVICES_KEY = "services"


class QuizContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """CallbackContext with the bot's services as a typed attribute."""

    def __init__(
        self,
        application: Application[Any, Any, Any, Any, Any, Any],
        chat_id: int | None = None,
        user_id: int | None = None,
    ) -> None:
        super().__init__(application=application, chat_id=chat_id, user_id=user_id)
        self.tap: Tap | None = None  # the button pressed, decoded (bot.core.handlers.TapHandler)

    @property
    def services(self) -> Services:
        services: Services = self.bot_data[SERVICES_KEY]
        return services
