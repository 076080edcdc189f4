"""`/export`: a quiz written in a worker thread as a document of the format asked for, its
pictures beside it (`files.export_file`); what the format cannot hold is named under it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from telegram import Bot

from bot.admin import files, render
from bot.admin.pictures import quiz_images
from bot.core.context import Services
from bot.core.i18n import Locale
from content.formats.base import ConversionError
from content.formats.registry import FORMATS
from content.model import Quiz


async def bank_file(services: Services, quiz: Quiz, format_name: str) -> files.ExportFile:
    """The quiz as a file of the format named, with its pictures where they travel beside it
    (CPU work for a large bank: in a worker thread). ConversionError names what stops it."""
    images = await quiz_images(services, quiz)
    return await asyncio.to_thread(
        files.export_file, quiz, images, FORMATS[format_name], services.settings.default_language
    )


async def export_quiz(
    bot: Bot, services: Services, chat_id: int, quiz: Quiz, format_name: str, locale: Locale
) -> None:
    """The quiz as a document of the format named (`bank_file`); what the format cannot hold
    is named under it."""
    fmt = FORMATS[format_name]
    try:
        exported = await bank_file(services, quiz, format_name)
    except ConversionError as error:
        shown = {"quiz_id": quiz.id, "format": fmt.label}
        await send_blocks(bot, chat_id, locale.t("export_failed", **shown), error.problems)
        return
    if len(exported.data) > files.MAX_SEND_BYTES:
        await bot.send_message(chat_id, locale.t("export_too_large", n=len(exported.data)))
        return
    key = "export_caption" if fmt.name == "yaml" else "export_caption_format"
    caption = locale.t(key, quiz_id=quiz.id, n=len(quiz), format=fmt.label)
    await bot.send_document(chat_id, exported.data, filename=exported.name, caption=caption)
    if exported.warnings:
        head = locale.t("export_warnings", format=fmt.label, n=len(exported.warnings))
        await send_blocks(bot, chat_id, head, exported.warnings)


async def send_blocks(bot: Bot, chat_id: int, head: str, lines: Sequence[str]) -> None:
    for text in render.listing(head, lines):
        await bot.send_message(chat_id, text)
