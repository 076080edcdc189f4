"""Pictures into chats: a question's or an explanation's picture sent as a photo, and a reveal
shown on a question that was sent as one.

A file of a bank is uploaded once per bot: Telegram's `file_id` of it is kept in SQLite
(`storage.media`), keyed by the bot's id and the file's SHA-256, and the next send names that
id. An id Telegram refuses (another bot's, one it forgot) is dropped and the file uploaded
again. An https picture is sent as its URL: Telegram fetches it, the bot never does.

A question with a picture is one photo whose caption is the question, its choices and the
picture's alt text, when that fits a caption (1,024 characters after entity parsing);
otherwise the photo (captioned with the alt text), then the question as a message of its own
with the buttons. A picture Telegram will not take, or whose file the bot no longer has, is
left out: the question goes as text with the alt text, so the quiz never stalls on it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import Bot, CallbackQuery, InputFile, Message
from telegram.error import BadRequest, TelegramError

from bot.core import faults, telegram_html
from bot.core.context import Services
from bot.core.render import Rendered
from bot.core.transport import QuizBot
from content.model import Image

log = logging.getLogger(__name__)

MAX_CAPTION_LENGTH = 1024
# Telegram's answers to a file_id it does not take from this bot
_REFUSED_FILE = ("wrong file identifier", "wrong remote file identifier", "file reference")


class PictureMissing(Exception):
    """The bot has not got the bytes of a picture its question names (its bank changed)."""


def refuses_file(error: TelegramError) -> bool:
    """Telegram's answer to a `file_id` that this bot may not (or can no longer) send."""
    return isinstance(error, BadRequest) and any(
        part in error.message.lower() for part in _REFUSED_FILE
    )


def fits_caption(text: str) -> bool:
    return telegram_html.visible_length(text) <= MAX_CAPTION_LENGTH


async def send_photo(
    bot: Bot,
    services: Services,
    chat_id: int,
    image: Image,
    caption: str | None = None,
    markup: Rendered | None = None,
    reply_to: int | None = None,
    thread_id: int | None = None,
) -> Message:
    """Send a picture: by URL, by the `file_id` this bot got for the file, or uploaded (and
    its `file_id` kept). `markup` lends its keyboard; `thread_id` names a forum topic. Raises
    `PictureMissing` and Telegram's errors."""
    keyboard = markup.markup if markup is not None else None

    async def send(photo: str | InputFile) -> Message:
        return await bot.send_photo(
            chat_id,
            photo,
            caption=caption,
            reply_markup=keyboard,
            reply_to_message_id=reply_to,
            message_thread_id=thread_id,
        )

    if image.is_url or image.sha256 is None:
        return await send(image.location)
    media, sha256 = services.storage.media, image.sha256
    cached = await media.file_id(bot.id, sha256)
    if cached is not None:
        try:
            return await send(cached)
        except BadRequest as error:
            if not refuses_file(error):
                raise
            log.info("picture %s: Telegram refused its file_id (%s); uploading it again",
                     sha256[:12], error.message)  # fmt: skip
            await media.forget(bot.id, sha256, cached)
    data = services.catalog.image(sha256)
    if data is None:  # an imported bank's: its files are in the database, not in memory
        data = await services.storage.media.picture(sha256)
    if data is None:
        raise PictureMissing(image.location)
    name = image.location.rsplit("/", 1)[-1]
    sent = await send(InputFile(data, filename=name))
    if sent.photo:
        await media.remember(bot.id, sha256, sent.photo[-1].file_id, services.clock())
    return sent


def _left_out(error: Exception) -> bool:
    """Whether a failed photo is left out (the text goes without it) rather than the send
    failing: Telegram rejects this photo, or the bot lacks its file. A chat that refuses the
    bot, or a fault that may pass, fails the send as a text message's would."""
    if isinstance(error, PictureMissing):
        return True
    return isinstance(error, TelegramError) and faults.classify(error) is faults.Fault.REJECTED


@dataclass(frozen=True)
class Sent:
    """A message sent with its picture: the message with the text and the buttons, and the
    photo when it went apart (a text too long for a caption)."""

    message: Message
    photo: Message | None = None


async def send_with_picture(
    bot: Bot,
    services: Services,
    chat_id: int,
    image: Image,
    alt: str | None,
    message: Rendered,
    thread_id: int | None = None,
) -> Sent:
    """A message with a picture (see the module's docstring), into forum topic `thread_id`
    if given."""
    caption = f"{message.text}\n\n{alt}" if alt else message.text
    topic = thread_id
    try:
        if fits_caption(caption):
            return Sent(
                await send_photo(bot, services, chat_id, image, caption, message, thread_id=topic)
            )
        photo = await send_photo(bot, services, chat_id, image, alt, thread_id=topic)
    except (PictureMissing, TelegramError) as error:
        if not _left_out(error):
            raise
        log.warning("picture %s left out of a message to chat %s: %s",
                    image.location, chat_id, error)  # fmt: skip
        return Sent(
            await bot.send_message(
                chat_id, caption, reply_markup=message.markup, message_thread_id=topic
            )
        )
    text = await bot.send_message(
        chat_id, message.text, reply_markup=message.markup, message_thread_id=topic
    )
    return Sent(text, photo)


async def send_picture(
    bot: Bot,
    services: Services,
    chat_id: int,
    image: Image,
    reply_to: int | None = None,
    caption: str | None = None,
    thread_id: int | None = None,
) -> bool:
    """A picture alone (an explanation's, or a quiz poll's); one that cannot be sent is left
    out. Whether it was sent."""
    try:
        await send_photo(
            bot, services, chat_id, image, caption, reply_to=reply_to, thread_id=thread_id
        )
    except (PictureMissing, TelegramError) as error:
        if not _left_out(error):
            raise
        log.warning("picture %s not sent to chat %s: %s", image.location, chat_id, error)
        return False
    return True


def has_photo(message: object) -> bool:
    return isinstance(message, Message) and bool(message.photo)


async def show_on(bot: Bot, query: CallbackQuery, message: Rendered) -> int | None:
    """Show `message` in place of the tapped one: its text edited, or its caption when it is
    a photo and the text fits a caption; else the photo loses its buttons and `message`
    replies to it. A message that is already so, or gone, is not an error. Returns the id of
    the message that shows it."""
    tapped = query.message
    try:
        if isinstance(tapped, Message) and not tapped.photo:
            await edit_text(bot, tapped.chat.id, tapped.message_id, message)
            return tapped.message_id
        if not has_photo(tapped):
            await query.edit_message_text(message.text, reply_markup=message.markup)
            return tapped.message_id if tapped is not None else None
        assert isinstance(tapped, Message)
        if fits_caption(message.text):
            await query.edit_message_caption(message.text, reply_markup=message.markup)
            return tapped.message_id
    except BadRequest as error:
        if not _quiet(error):
            raise
        log.debug("edit skipped: %s", error)
        return tapped.message_id if tapped is not None else None
    try:
        await query.edit_message_reply_markup(None)
    except BadRequest as error:
        if not _quiet(error):
            raise
    sent = await bot.send_message(
        tapped.chat.id,
        message.text,
        reply_markup=message.markup,
        reply_to_message_id=tapped.message_id,
    )
    return sent.message_id


async def send_text(bot: Bot, chat_id: int, message: Rendered) -> int:
    """Send `message`; returns its id (without PTB's `Message` of the reply, on the bot's own
    transport: bot/core/transport.py)."""
    if isinstance(bot, QuizBot):
        return await bot.send_text(chat_id, message.text, message.markup)
    return (await bot.send_message(chat_id, message.text, reply_markup=message.markup)).message_id


async def edit_text(bot: Bot, chat_id: int, message_id: int, message: Rendered) -> None:
    """Show `message` in place of the text message `message_id` (as `send_text` does)."""
    if isinstance(bot, QuizBot):
        await bot.edit_text(chat_id, message_id, message.text, message.markup)
    else:
        await bot.edit_message_text(message.text, chat_id, message_id, reply_markup=message.markup)


def _quiet(error: BadRequest) -> bool:
    """An edit of a message that is already so, or gone."""
    text = str(error).lower()
    return "not modified" in text or "message to edit not found" in text
