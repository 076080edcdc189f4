"""The handler classes and filters every feature registers with, and the two that run before
any feature's handler sees an update:

- group -2, `WrongChatGuard`: a button pressed outside the chat types its kind declares gets
  a short toast, and nothing else happens (nobody is looked up, created or refreshed);
- group -2, `LinkGuard`: a deep link (`/start <payload>`, bot/core/deeplinks.py) that claims
  to be signed is checked; a forged or expired one gets a polite refusal and nothing else
  happens, a good one is put on the context for its `StartLinkHandler`;
- group -1, `Identify`: who sent the update and the language to answer them in, filled into
  the context once (`QuizContext.identify`).

Besides the buttons (`TapHandler`) and the deep links (`StartLinkHandler`), a feature
registers the chats picked for it with Telegram's chat picker (`ChatPickHandler`) and the
quizzes chosen in its menu of quizzes (`QuizMenuHandler`).
"""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from telegram import CallbackQuery, ChatShared, Message, ReplyKeyboardRemove, Update
from telegram.error import TelegramError
from telegram.ext import Application, ApplicationHandlerStop, BaseHandler, TypeHandler, filters

from bot.core import faults
from bot.core.access import administers, controls_chat
from bot.core.callbacks import QuizMenuChoice, QuizMenuPage, Tap, decode
from bot.core.context import QuizContext
from bot.core.deeplinks import Link, Refused, looks_signed
from bot.core.pickers import Picked, PickFor, RequestId
from bot.core.quiz_menus import MenuFor, menu_of, quiz_menu
from bot.core.render import Rendered
from content.model import Quiz

log = logging.getLogger(__name__)


class _HasSender(filters.MessageFilter):
    """A message sent by a person (not a channel post or an anonymous sender chat)."""

    def filter(self, message: Message) -> bool:
        return message.from_user is not None and message.sender_chat is None


USER_MESSAGE = filters.UpdateType.MESSAGE & _HasSender()
PRIVATE_MESSAGE = USER_MESSAGE & filters.ChatType.PRIVATE
GROUP_MESSAGE = USER_MESSAGE & filters.ChatType.GROUPS

T = TypeVar("T", bound=Tap)
L = TypeVar("L", bound=Link)
RT = TypeVar("RT")


class TapHandler(BaseHandler[Update, QuizContext, RT]):
    """The buttons of one kind: the data decoded once and handed to the callback, typed, with
    the callback query: `callback(query, context, tap)`.

    Registration order does not matter: kinds are disjoint. Where a kind may be pressed is
    checked before any of these, by `WrongChatGuard`."""

    def __init__(
        self,
        kind: type[T],
        callback: Callable[[CallbackQuery, QuizContext, T], Awaitable[RT]],
    ) -> None:
        super().__init__(self._call)
        self.kind = kind
        self.on_tap = callback

    def check_update(self, update: object) -> Tap | None:
        tap = _tap_of(update)
        return tap if isinstance(tap, self.kind) else None

    def collect_additional_context(
        self,
        context: QuizContext,
        update: Update,
        application: Application[Any, QuizContext, Any, Any, Any, Any],
        check_result: object,
    ) -> None:
        context.tap = check_result if isinstance(check_result, Tap) else None

    async def _call(self, update: Update, context: QuizContext) -> RT:
        tap, query = context.tap, update.callback_query
        assert isinstance(tap, self.kind) and query is not None  # check_update saw both
        return await self.on_tap(query, context, tap)


def _tap_of(update: object) -> Tap | None:
    if not isinstance(update, Update) or update.callback_query is None:
        return None
    return decode(update.callback_query.data)


class WrongChatGuard(BaseHandler[Update, QuizContext, None]):
    """A button pressed outside the chat types its kind declares gets a short toast, and no
    other handler sees the tap."""

    def __init__(self) -> None:
        super().__init__(self._refuse)

    def check_update(self, update: object) -> bool:
        tap = _tap_of(update)
        if tap is None or not isinstance(update, Update) or update.callback_query is None:
            return False
        message = update.callback_query.message
        return not tap.allowed_in(message.chat.type if message is not None else None)

    async def _refuse(self, update: Update, context: QuizContext) -> None:
        query = update.callback_query
        assert query is not None
        log.debug("a button pressed outside its chat types refused: %r", query.data)
        _, locale = await context.services.look_up(query.from_user)  # records nothing
        await query.answer(locale.t("button_wrong_chat"))
        raise ApplicationHandlerStop


def start_payload(update: object) -> str | None:
    """The payload of a `/start <payload>` a person sent in private (as pressing a deep link
    does), or None."""
    if not isinstance(update, Update) or update.message is None:
        return None
    message = update.message
    if (
        message.chat.type != "private"
        or message.from_user is None
        or message.sender_chat is not None
        or not message.text
    ):
        return None
    words = message.text.split()
    command = words[0].split("@", 1)[0] if words else ""
    return words[1] if command == "/start" and len(words) == 2 else None


def _signed_payload(update: object) -> str | None:
    payload = start_payload(update)
    return payload if payload is not None and looks_signed(payload) else None


class LinkGuard(BaseHandler[Update, QuizContext, None]):
    """A deep link that claims to be signed: checked once; a forged or expired one is refused
    politely (nobody is created or refreshed) and no other handler sees it."""

    def __init__(self) -> None:
        super().__init__(self._check)

    def check_update(self, update: object) -> str | None:
        return _signed_payload(update)

    async def _check(self, update: Update, context: QuizContext) -> None:
        payload = _signed_payload(update)
        assert payload is not None and update.message is not None  # check_update saw it
        services = context.services
        link = services.links.decode(payload, services.clock())
        if isinstance(link, Link):
            context.link = link
            return
        log.info("a deep link refused: %s", link.value)
        assert update.message.from_user is not None
        _, locale = await services.look_up(update.message.from_user)  # records nothing
        key = "link_expired" if link is Refused.EXPIRED else "link_invalid"
        await update.message.reply_text(locale.t(key))
        raise ApplicationHandlerStop


class StartLinkHandler(BaseHandler[Update, QuizContext, RT]):
    """The deep links of one kind, checked by `LinkGuard`, handed to the callback typed:
    `callback(update, context, link)`. Registered before the learner's own `/start`."""

    def __init__(
        self,
        kind: type[L],
        callback: Callable[[Update, QuizContext, L], Awaitable[RT]],
    ) -> None:
        super().__init__(self._call)
        self.kind = kind
        self.on_link = callback

    def check_update(self, update: object) -> bool:
        payload = _signed_payload(update)
        return payload is not None and payload.split("_", 1)[0] == self.kind.prefix

    async def _call(self, update: Update, context: QuizContext) -> RT:
        link = context.link
        assert isinstance(link, self.kind)  # LinkGuard checked it, in group -2
        return await self.on_link(update, context, link)


class QuizMenuHandler(TapHandler[None]):
    """A menu of quizzes for one command (bot/core/quiz_menus.py): its pages are turned here, and
    the quiz chosen goes to `callback(query, context, quiz)`. In a group or a channel, only
    who controls the chat's quizzes may use it (the menu is everyone's message there)."""

    def __init__(
        self,
        menu: MenuFor,
        callback: Callable[[CallbackQuery, QuizContext, Quiz], Awaitable[None]],
    ) -> None:
        super().__init__(QuizMenuChoice, self._unused)
        self.menu = menu
        self.on_choice = callback

    @staticmethod
    async def _unused(query: CallbackQuery, context: QuizContext, tap: Tap) -> None:
        raise AssertionError("a menu's taps go through its own _call")

    def check_update(self, update: object) -> Tap | None:
        tap = _tap_of(update)
        if isinstance(tap, QuizMenuPage | QuizMenuChoice) and menu_of(tap.menu) is self.menu:
            return tap
        return None

    async def _call(self, update: Update, context: QuizContext) -> None:
        query, tap = update.callback_query, context.tap
        assert query is not None and isinstance(tap, QuizMenuPage | QuizMenuChoice)
        message = query.message
        if message is None or (message.chat.type != "private" and not await controls_chat(context)):
            await query.answer(context.locale.t("group_admins_only"))
            return
        services = context.services
        if isinstance(tap, QuizMenuPage):
            shown = quiz_menu(services.catalog, self.menu, tap.page, context.locale)
            await query.answer()
            await edit_in_place(query, shown.text, shown.markup)
            return
        quiz = services.catalog.get(tap.quiz_id)
        if quiz is None:
            await query.answer(context.locale.t("quiz_gone"))
            return
        await self.on_choice(query, context, quiz)


async def edit_in_place(query: CallbackQuery, text: str, markup: Any = None) -> None:
    """Edit the tapped message into `text` (and `markup`); one already so (a double tap), or
    gone, is no error (`faults.edit_quietly`)."""
    await faults.edit_quietly(query, Rendered(text, markup))


def _chat_shared(update: object) -> tuple[ChatShared, RequestId] | None:
    """A chat a person picked in private with one of the bot's picker buttons, and which."""
    if not isinstance(update, Update) or update.message is None:
        return None
    message = update.message
    shared = message.chat_shared
    if shared is None or message.chat.type != "private" or message.from_user is None:
        return None
    request = RequestId.decode(shared.request_id)
    return None if request is None else (shared, request)


class ChatPickHandler(BaseHandler[Update, QuizContext, None]):
    """The chats picked for one action (bot/core/pickers.py): the stored request found (the
    person's own, not too old), the person checked with getChatMember to administer the chat,
    then `callback(update, context, picked)`; its answer is sent with the picker taken away.
    A request is carried out once: a second pick from the same keyboard is told so."""

    def __init__(
        self,
        action: PickFor,
        callback: Callable[[Update, QuizContext, Picked], Awaitable[str]],
    ) -> None:
        super().__init__(self._call)
        self.action = action
        self.on_pick = callback

    def check_update(self, update: object) -> bool:
        found = _chat_shared(update)
        return found is not None and found[1].action is self.action

    async def _call(self, update: Update, context: QuizContext) -> None:
        found = _chat_shared(update)
        assert found is not None  # check_update saw it
        shared, request_id = found
        services, locale, user_id = context.services, context.locale, context.learner.user_id
        stored = await services.storage.chats.request(request_id.number, services.clock())
        if stored is None or stored.user_id != user_id or stored.action != self.action.name.lower():
            await _after_pick(context, locale.t("pick_expired"))
            return
        title = shared.title or str(shared.chat_id)
        try:
            allowed = await administers(context, shared.chat_id, user_id)
        except TelegramError as error:
            if not faults.classify(error).permanent:
                await context.say(locale.t("member_check_failed"))
                return
            allowed = False
        if not allowed:  # the picker stays: another chat may be picked
            await context.say(locale.t("pick_not_admin", title=html.escape(title)))
            return
        if not await services.storage.chats.close_request(stored.id):
            await _after_pick(context, locale.t("pick_expired"))
            return
        picked = Picked(shared.chat_id, title, request_id.channel, json.loads(stored.details))
        await _after_pick(context, await self.on_pick(update, context, picked))


async def _after_pick(context: QuizContext, text: str) -> None:
    await context.bot.send_message(context.chat_id, text, reply_markup=ReplyKeyboardRemove())


async def _identify(update: Update, context: QuizContext) -> None:
    await context.identify(update)


def guards() -> list[tuple[BaseHandler[Update, QuizContext, None], int]]:
    """The handlers that run before every feature's, each with its group."""
    return [(WrongChatGuard(), -2), (LinkGuard(), -2), (TypeHandler(Update, _identify), -1)]
