"""The floor: a bare python-telegram-bot bot that only answers the callback and edits the message.

It sends HTML of the size of Quiz Tutor's reveals, so the two differ in what the bot does,
not in what travels.

With `--aiohttp` it talks to the Bot API through Quiz Tutor's own request class
(bot/transport.py) instead of PTB's default httpx: the floor on the same transport.

`/quiz` sends one message with four buttons; each tap is answered and the same message is
edited into the next "question" (eight, like the seed quiz), then into a last line. No
storage, no content: what PTB and the HTTP round trips cost on their own.
"""

from __future__ import annotations

import logging
import os
import sys

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

QUESTIONS = 8
# As much HTML as one of Quiz Tutor's reveals, so both bots move the same bytes.
BODY = (
    "<b>Model and Pipeline Parallelism</b>\n"
    + "Question text &amp; options, about as long as the seed quiz's. " * 6
    + "\n\n<b>Why:</b> "
    + "An explanation of a few sentences that teaches the point. " * 8
)


def _keyboard(number: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(f"option {i}", callback_data=f"f:{number}:{i}")] for i in range(4)]
    )


async def quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat
    await context.bot.send_message(
        update.effective_chat.id,
        f"Question 1 of 8\n{BODY}",
        reply_markup=_keyboard(1),
        parse_mode=ParseMode.HTML,
    )


async def tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data
    number = int(query.data.split(":")[1])
    await query.answer("noted")
    if number < QUESTIONS:
        await query.edit_message_text(
            f"Question {number + 1} of 8\n{BODY}",
            reply_markup=_keyboard(number + 1),
            parse_mode=ParseMode.HTML,
        )
    else:
        await query.edit_message_text("Score: done")


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    builder = (
        Application.builder()
        .token(os.environ["TELEGRAM_BOT_TOKEN"])
        .base_url(os.environ["TELEGRAM_API_BASE_URL"])
    )
    if "--aiohttp" in sys.argv:
        from bot.core.transport import AiohttpRequest

        builder = builder.request(AiohttpRequest()).get_updates_request(
            AiohttpRequest(connection_pool_size=1)
        )
    application = builder.build()
    application.add_handler(CommandHandler("quiz", quiz))
    application.add_handler(CallbackQueryHandler(tap))

    async def ready(_: Application) -> None:  # type: ignore[type-arg]
        print("floor bot ready", file=sys.stderr, flush=True)

    application.post_init = ready
    application.run_polling(allowed_updates=Update.ALL_TYPES, timeout=1)


if __name__ == "__main__":
    main()
