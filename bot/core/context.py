"""The services every handler reaches, set up once in `post_init`, and the per-update context.

`QuizContext` is PTB's `CallbackContext` (registered through `ContextTypes`) with what every
handler needs, filled once per update before any feature's handler sees it: the services,
who sent the update as stored and the language to answer them in (`identify`, handler group
-1), and the button pressed, decoded (`bot.core.handlers.TapHandler`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol, TypeVar

from cachetools import LRUCache
from telegram import Bot, Chat, InlineKeyboardMarkup, Update
from telegram import User as TelegramUser
from telegram.constants import ChatType
from telegram.ext import Application, ApplicationHandlerStop, CallbackContext, ExtBot, JobQueue

from bot.config import Settings
from bot.core.arguments import Refusal
from bot.core.callbacks import Tap
from bot.core.deeplinks import Link, LinkSigner, key_from_token
from bot.core.i18n import Locale, ui_languages
from bot.core.locks import Locks
from bot.core.pace import SendPace, ShownCounts
from bot.core.update_processor import arrival_time, poll_chats
from content.catalog import Catalog
from content.model import Quiz
from content.rules import resolve_language, usual_language
from storage import Attempt, Storage, User
from storage.homework_store import Assignment

log = logging.getLogger(__name__)

T = TypeVar("T")

Jobs = JobQueue[Any]
"""The application's job queue, as the features' timers take it."""

USUAL_LANGUAGES_KEPT = 10_000  # groups whose usual language is remembered
MEMBER_STATUSES = 10_000  # (chat, member) statuses remembered, the least recently used dropped


class ToastSender(Protocol):
    """Answers callback queries somewhere else than this event loop (the toast process,
    bot/serving/toaster.py)."""

    def send(self, query_id: str, text: str) -> bool:
        """Hand the answer over without waiting; False when it cannot be (then the caller
        answers it itself)."""


@dataclass(frozen=True)
class Services:
    """What every handler and job reaches, made once at start (`bot/app.py`) and never added
    to: the resources, and what the process remembers between updates, each bounded. What a
    feature lends another is not here: `bot/app.py` hands it to the feature that needs it."""

    settings: Settings
    storage: Storage
    catalog: Catalog
    clock: Callable[[], float] = field(default=time.time)
    # a group tap's toast goes through this when it runs (QUIZ_TOAST_PROCESS), else in-process
    toaster: ToastSender | None = None
    locks: Locks = field(default_factory=Locks)
    pace: SendPace = field(default_factory=SendPace)  # sends per group, to pace live counts
    shown_counts: ShownCounts = field(default_factory=ShownCounts)  # each open question's
    # (chat, user) -> (when looked up, chat member status): see bot/core/access.py
    member_status: MutableMapping[tuple[int, int], tuple[float, str]] = field(
        default_factory=lambda: LRUCache(maxsize=MEMBER_STATUSES)
    )
    # quiz polls posted by this process -> their chat, so the update processor orders a vote
    # as its voter's answer in that chat (shared with it; see update_processor.order_key)
    poll_chats: MutableMapping[str, int] = field(default_factory=poll_chats)
    # chat -> (when worked out, the language most of its learners read): see `chat_locale`
    usual_languages: MutableMapping[int, tuple[float, str]] = field(
        default_factory=lambda: LRUCache(maxsize=USUAL_LANGUAGES_KEPT)
    )

    @cached_property
    def links(self) -> LinkSigner:
        """Makes and checks the bot's deep links (bot/core/deeplinks.py)."""
        return LinkSigner(key_from_token(self.settings.token))

    def health(self) -> str | None:
        """Why the bot cannot serve now, or None when it can. `GET /healthz` answers 503 while
        this names a reason (bot/serving/health.py): the one place for checks such as a lost
        database file. Called on every health request: keep it cheap and free of I/O."""
        return self.storage.lost

    def forget_chat(self, old: int, new: int) -> None:
        """A group became a supergroup: what is remembered of it under its old id is
        dropped (its usual language, its members' statuses), and its open polls' votes are
        ordered as the new chat's."""
        self.usual_languages.pop(old, None)
        self.usual_languages.pop(new, None)  # worked out before its members moved in
        for key in [key for key in self.member_status if key[0] == old]:
            self.member_status.pop(key, None)
        for poll_id in [poll for poll, chat in self.poll_chats.items() if chat == old]:
            self.poll_chats[poll_id] = new

    def locale_of(self, user: User) -> Locale:
        """A stored person's language: the one they chose, else their Telegram's."""
        default = self.settings.default_language
        return Locale(resolve_language(user.language, user.telegram_language, default), default)

    def default_locale(self) -> Locale:
        default = self.settings.default_language
        return Locale(default, default)

    async def sender_of(self, update: Update) -> tuple[User | None, Locale]:
        """Who sent the update, as stored, and the language to answer them in.

        In a private chat the person is a learner, created or refreshed from the update. In a
        group or a channel, and for other updates (a vote, a changed membership), they are only
        read: nobody gets a row without having written to the bot in private. Someone without
        one is answered in their Telegram's language; a chat speaking for itself (a channel
        post, an anonymous admin) in the bot's default."""
        who = update.effective_user
        message = update.message or update.channel_post  # a tap's message is the bot's own
        if who is None or (message is not None and message.sender_chat is not None):
            return None, self.default_locale()
        chat = update.effective_chat
        writes = update.message is not None or update.callback_query is not None
        if writes and chat is not None and chat.type == ChatType.PRIVATE:
            learner = await self.storage.learners.touch_user(
                who.id, who.first_name or "", who.language_code, self.clock()
            )
            return learner, self.locale_of(learner)
        return await self.look_up(who)

    async def chat_locale(self, chat_id: int) -> Locale:
        """The language a group's messages speak, whoever sent the command: the one its admins
        set (`/language` there), else the one most of its learners read (worked out again
        every `USUAL_LANGUAGE_TTL` seconds), else the bot's default."""
        default = self.settings.default_language
        chosen = (await self.storage.chats.settings(chat_id)).language
        if chosen:
            return Locale(chosen, default)
        now = self.clock()
        cached = self.usual_languages.get(chat_id)
        if cached is None or now - cached[0] >= USUAL_LANGUAGE_TTL:
            learners = await self.storage.groups.member_languages(chat_id)
            available = ui_languages() | self.catalog.languages
            cached = (now, usual_language(learners, available, default))
            self.usual_languages[chat_id] = cached
        return Locale(cached[1], default)

    async def look_up(self, who: TelegramUser) -> tuple[User | None, Locale]:
        """A person as stored, if they are, and their language; records nothing."""
        stored = await self.storage.learners.get_user(who.id)
        if stored is not None:
            return stored, self.locale_of(stored)
        default = self.settings.default_language
        return None, Locale(resolve_language(None, who.language_code, default), default)


AttemptOpener = Callable[[Bot, Services, int, Attempt, Locale], Awaitable[None]]
"""Asks a private attempt another feature started (a review of what a member missed in a
group, a homework): the learner feature's `open_attempt`, which `bot/app.py` hands to them."""


ExamOpener = Callable[[Bot, Services, Jobs, int, int, Quiz, Assignment, Locale], Awaitable[None]]
"""Opens a member's exam of an exam homework from its link (started as an attempt of that
homework, or continued where it was): the learner feature's `open_homework_exam`, which
`bot/app.py` hands to the homework feature."""


SERVICES_KEY = "services"
USUAL_LANGUAGE_TTL = 600.0  # seconds a group's usual language is trusted


class QuizContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """CallbackContext with the services, the update's sender and the tap, typed."""

    def __init__(
        self,
        application: Application[Any, Any, Any, Any, Any, Any],
        chat_id: int | None = None,
        user_id: int | None = None,
    ) -> None:
        super().__init__(application=application, chat_id=chat_id, user_id=user_id)
        self.tap: Tap | None = None  # the button pressed, decoded (bot.core.handlers.TapHandler)
        self.link: Link | None = None  # the deep link pressed, checked (bot.core.handlers)
        self._update: Update | None = None
        self._learner: User | None = None
        self._locale: Locale | None = None

    @property
    def services(self) -> Services:
        services: Services = self.bot_data[SERVICES_KEY]
        return services

    @property
    def jobs(self) -> Jobs:
        """The application's job queue (built with the `job-queue` extra: always there)."""
        jobs = self.job_queue
        assert jobs is not None
        return jobs

    async def identify(self, update: Update) -> None:
        """Fill in the update's sender (`Services.sender_of`), once, before any feature's
        handler. If that fails (the database refuses), the error handler tells the person and
        no other handler sees the update."""
        self._update = update
        try:
            self._learner, self._locale = await self.services.sender_of(update)
            chat = update.effective_chat
            if chat is not None and chat.type != ChatType.PRIVATE and update.callback_query is None:
                # what the bot posts into a group speaks the group's language, whoever sent
                # the command (`Services.chat_locale`); a member's toast stays in their own
                self._locale = await self.services.chat_locale(chat.id)
        except Exception as error:
            await self.application.process_error(update, error)
            raise ApplicationHandlerStop from error

    @property
    def current_update(self) -> Update:
        """The update being handled."""
        return _known(self._update, "no update identified: a job's context has none")

    @property
    def arrived_at(self) -> float:
        """When the update being handled arrived (bot/core/update_processor.py), before it
        waited for its turn: the time an answer was given."""
        arrived = arrival_time()
        return self.services.clock() if arrived is None else arrived

    @property
    def locale(self) -> Locale:
        """The language to answer the update's sender in."""
        return _known(self._locale, "no update identified: a job's context has no sender")

    @property
    def learner(self) -> User:
        """The learner who sent the update, as stored: there is one for every message and tap
        in a private chat, where the learner's feature is registered."""
        return _known(self._learner, "the sender has no learner record (not a private chat)")

    @property
    def chat_id(self) -> int:
        """The chat the update came from (every update a feature answers has one)."""
        return self._chat.id

    @property
    def _chat(self) -> Chat:
        return _known(self.current_update.effective_chat, "an update of no chat")

    async def say(self, text: str, markup: InlineKeyboardMarkup | None = None) -> int:
        """Send a message into the update's chat (in a group or a channel counted against its
        budget of sends a minute); returns its id."""
        chat = self._chat
        if chat.type == ChatType.PRIVATE:
            return (await self.bot.send_message(chat.id, text, reply_markup=markup)).message_id
        return await send(self.bot, self.services, chat.id, text, markup, self.thread_id)

    @property
    def thread_id(self) -> int | None:
        """The forum topic the update's message was sent in (None: General, or no forum):
        what the bot posts for a command goes there."""
        message = self.current_update.effective_message
        return message.message_thread_id if message and message.is_topic_message else None

    async def parsed(self, arguments: T | Refusal) -> T | None:
        """A command's arguments as `bot.core.arguments` parsed them; None once the refusal
        (what was wrong, then the usage) has been said, and the handler stops."""
        if isinstance(arguments, Refusal):
            await self.say(arguments.text(self.locale))
            return None
        return arguments

    async def answer(self, text: str) -> None:
        """Tell the sender: a tap gets a toast, a message a message in its chat."""
        query = self.current_update.callback_query
        if query is not None:
            await query.answer(text)
        else:
            await self.say(text)


def _known(value: T | None, missing: str) -> T:
    """What the update gave, or LookupError(`missing`) where it gave none."""
    if value is None:
        raise LookupError(missing)
    return value


async def send(
    bot: Bot,
    services: Services,
    chat_id: int,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
    thread_id: int | None = None,
) -> int:
    """Send into a group or channel (into forum topic `thread_id`, if given), counted against
    its per-minute budget; returns the message id."""
    if thread_id is None:  # the General topic, or no forum
        message = await bot.send_message(chat_id, text, reply_markup=markup)
    else:
        message = await bot.send_message(
            chat_id, text, reply_markup=markup, message_thread_id=thread_id
        )
    services.pace.record(chat_id, services.clock())
    return message.message_id
